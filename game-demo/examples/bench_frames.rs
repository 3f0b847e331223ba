//! The bench's battlefield drawn frame after frame as `modex demo --headless --bench` draws it
//! (a warm-up draw, then a world step before each frame; `--lod off`), each frame's pixels
//! written raw to `OUT_DIR/fNNN.raw` (8-bit: one byte a pixel; 8888: four) and its depth buffer
//! to `OUT_DIR/dNNN.raw` (little-endian `f32`s), so two builds' frames can be compared byte for
//! byte (`cmp`) where a change must draw exactly what was drawn before, and the frames profiled
//! one by one (callgrind with `--dump-before='*SceneRenderer*draw_with*'`: docs/benchmarks.md,
//! issue 43).
//! `cargo run --release -p modex-demo --example bench_frames -- OUT_DIR UNITS WxH FRAMES
//! ortho|persp 8|8888 THREADS`
use modex_demo::scene::{assets, Assets, DrawPath, SceneRenderer, World};
use modex_voxel::Lod;
use std::io::Write;

fn main() -> anyhow::Result<()> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    anyhow::ensure!(
        a.len() == 7,
        "usage: bench_frames OUT_DIR UNITS WxH FRAMES ortho|persp 8|8888 THREADS"
    );
    let out = std::path::PathBuf::from(&a[0]);
    let units: usize = a[1].parse()?;
    let (w, h) = a[2]
        .split_once('x')
        .ok_or_else(|| anyhow::anyhow!("size {:?}: expected WxH", a[2]))?;
    let (w, h): (usize, usize) = (w.parse()?, h.parse()?);
    let frames: usize = a[3].parse()?;
    let ortho = a[4] == "ortho";
    let path = if a[5] == "8" {
        DrawPath::Indexed
    } else {
        DrawPath::TrueColour
    };
    let threads: usize = a[6].parse()?;
    std::fs::create_dir_all(&out)?;
    let assets = Assets::load(&assets::data_dir())?;
    // The bench's world.
    let mut world = World::demo(&assets, units);
    let mut scene = SceneRenderer::new(&assets, w, h);
    scene.view.orthographic = ortho;
    scene.lod = Lod::Off;
    modex::with_threads(threads, || -> anyhow::Result<()> {
        for f in 0..frames {
            if f > 0 {
                world.step();
            }
            scene.draw(&world, path)?;
            let mut file =
                std::io::BufWriter::new(std::fs::File::create(out.join(format!("f{f:03}.raw")))?);
            match path {
                DrawPath::Indexed => file.write_all(scene.frame.pixels())?,
                DrawPath::TrueColour => {
                    for p in scene.surface.pixels() {
                        file.write_all(&p.0.to_le_bytes())?;
                    }
                }
            }
            let mut file =
                std::io::BufWriter::new(std::fs::File::create(out.join(format!("d{f:03}.raw")))?);
            for d in scene.depths() {
                file.write_all(&d.to_le_bytes())?;
            }
            let c = scene.cache_stats();
            eprintln!(
                "frame {f}: hits {} misses {} direct {}",
                c.hits, c.misses, c.direct
            );
        }
        Ok(())
    })??;
    Ok(())
}
