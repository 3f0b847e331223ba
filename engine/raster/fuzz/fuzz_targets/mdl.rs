//! Any byte string gives Ok or a typed error; an Ok model is internally consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_raster::mdl::MdlFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(file) = MdlFile::parse(data) {
        let m = &file.model;
        let nv = m.vertex_count();
        assert_eq!(file.frames.len(), m.frames.len());
        assert_eq!(file.skins.len(), m.skins.len());
        for f in &m.frames {
            assert_eq!(f.positions.len(), nv);
            assert_eq!(f.normals.len(), nv);
        }
        for t in &m.triangles {
            for k in 0..3 {
                assert!((t.vertices[k] as usize) < nv);
                assert!((t.uvs[k] as usize) < m.uvs.len());
            }
        }
        for s in &m.skins {
            assert!(s.rgba.is_empty() || s.rgba.len() == s.width * s.height * 4);
            if let modex_raster::SkinPixels::Dds(b) = &s.pixels {
                if let Some((w, h, rgba)) = modex_raster::dds::decode(b) {
                    assert_eq!(rgba.len(), w * h * 4);
                }
            }
        }
    }
});
