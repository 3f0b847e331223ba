//! Any byte string gives Ok or a typed error; an Ok model is internally consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_mdl::mdl::MdlFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = MdlFile::parse(data) {
        let m = &file.model;
        assert_eq!(file.frames.len(), m.frames.len());
        assert_eq!(file.skins.len(), m.skins.len());
        if let Err(e) = m.check() {
            panic!("decoded model is inconsistent: {e}");
        }
        for s in &m.skins {
            if let modex_mdl::SkinPixels::Dds(b) = &s.pixels {
                if let Some((w, h, rgba)) = modex_mdl::dds::decode(b) {
                    assert_eq!(rgba.len(), w * h * 4);
                }
            }
        }
    }
});
