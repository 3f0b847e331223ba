//! Any level that decodes bakes into surface models without a panic and within bounded memory
//! (libFuzzer's RSS limit fails a run whose surface pages grow with what the file claims; they are
//! held to `chart::MAX_GROWTH` lightmap pages each), and every baked model is one the rasterizer
//! can draw: its triangles name existing vertices and UVs, and its skin's pixels fill its size.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_mdl::wmb::surface::level_models;
use modex_mdl::wmb::WmbFile;

fuzz_target!(|data: &[u8]| {
    let Ok(file) = WmbFile::parse(data) else {
        return;
    };
    for m in level_models(&file) {
        let model = &m.model;
        for t in &model.triangles {
            assert!(t.vertices.iter().all(|&v| (v as usize) < model.vertex_count()));
            assert!(t.uvs.iter().all(|&u| (u as usize) < model.uvs.len()));
        }
        for s in &model.skins {
            assert_eq!(s.rgba.len(), s.width * s.height * 4);
        }
    }
});
