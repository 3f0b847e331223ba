//! Any model the MDL decoder accepts can be prepared (skins and their mip levels built) and drawn
//! into small 8-bit, 8888 and 565 targets without a panic: the mip building and the per-span level
//! choice see every skin size and texture-coordinate range a file can make.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use modex::{Argb8888, DepthBuffer, IndexedFrame, Palette, Rgb565, Surface};
use modex_mdl::mdl::MdlFile;
use modex_raster::{framing_camera, Entity, Renderer};

/// Built once: the shade table takes tens of milliseconds.
fn renderer() -> &'static Renderer {
    static R: OnceLock<Renderer> = OnceLock::new();
    R.get_or_init(|| Renderer::new(&Palette::quake()))
}

fuzz_target!(|data: &[u8]| {
    let Ok(file) = MdlFile::parse(data) else {
        return;
    };
    let r = renderer();
    let prepared = r.prepare(&file.model);
    for (skin, l) in
        (0..prepared.skin_count()).flat_map(|s| prepared.skin_levels(s).map(move |l| (s, l)))
    {
        assert_eq!(l.2.len(), (l.0 * l.1) as usize, "skin {skin} level size");
    }
    let (w, h) = (40, 30);
    let cam = framing_camera(&file.model, 0, 120.0, 20.0, w, h);
    let entity = Entity::default();
    let mut depth = DepthBuffer::new(w, h);
    let mut frame = IndexedFrame::new(w, h);
    let _ = r.draw(&mut frame, &mut depth, &cam, &prepared, &entity);
    let mut depth = DepthBuffer::new(w, h);
    let mut surface = Surface::<Argb8888>::new(w, h);
    let _ = r.draw(&mut surface, &mut depth, &cam, &prepared, &entity);
    // 565 too: its AVX2 kernel, like the others, now takes skins of any size when a run stays
    // inside the skin.
    let mut depth = DepthBuffer::new(w, h);
    let mut surface = Surface::<Rgb565>::new(w, h);
    let _ = r.draw(&mut surface, &mut depth, &cam, &prepared, &entity);
});
