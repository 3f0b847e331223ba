//! Any byte string gives Ok or a typed error; an Ok terrain is internally consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_mdl::hmp::HmpFile;

fuzz_target!(|data: &[u8]| {
    // The DDS decoder on raw input too (the fuzzer learns the "DDS " magic from comparisons).
    if let Some((w, h, rgba)) = modex_mdl::dds::decode(data) {
        assert_eq!(rgba.len(), w * h * 4);
    }
    if let Ok(file) = HmpFile::parse(data) {
        let m = &file.model;
        let nv = m.vertex_count();
        assert_eq!(nv, file.columns * file.rows);
        assert_eq!(m.uvs.len(), nv);
        assert_eq!(file.skins.len(), m.skins.len());
        if let Err(e) = m.check() {
            panic!("decoded terrain is inconsistent: {e}");
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
