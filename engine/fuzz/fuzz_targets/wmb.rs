//! Any byte string gives Ok or a typed error; an Ok level is internally consistent (every
//! triangle names an existing vertex and skin, every lightmap page is whole) and writes back to a
//! level that reads as itself (the same bytes when written again).
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_mdl::wmb::{encode::encode, WmbFile};

fuzz_target!(|data: &[u8]| {
    let Ok(file) = WmbFile::parse(data) else {
        return;
    };
    for b in &file.blocks {
        for t in &b.triangles {
            assert!(t.vertices.iter().all(|&v| (v as usize) < b.vertices.len()));
            assert!((t.skin as usize) < b.skins.len());
        }
    }
    let page = 3 * file.lightmap_dim * file.lightmap_dim;
    assert!(file.lightmaps.iter().all(|p| p.len() == page));
    for t in &file.textures {
        if let Some((w, h, rgba)) = t.rgba(0) {
            assert_eq!(rgba.len(), w * h * 4);
        }
    }
    // Floats that are NaN compare unequal to themselves: compare the bytes of the second write.
    let bytes = encode(&file);
    let again = WmbFile::parse(&bytes).expect("a written level reads back");
    assert_eq!(encode(&again), bytes);
});
