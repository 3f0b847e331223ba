//! The bench's 1000-unit battlefield at 1920x1080 drawn with levels of detail on and off, side by
//! side (on left, off right), for looking at as a player would: the whole frame, and crops of the
//! far and the middle distance at 3x.
//! `cargo run --release -p modex-demo --example lod_pictures -- OUT_DIR [UNITS] [STEPS]`
use anyhow::Context;
use modex::IndexedFrame;
use modex_demo::scene::{assets, Assets, DrawPath, SceneRenderer, World};
use modex_voxel::Lod;

const WIDTH: usize = 1920;
const HEIGHT: usize = 1080;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(
        args.next()
            .context("usage: lod_pictures OUT_DIR [UNITS] [STEPS]")?,
    );
    let units: usize = args.next().map_or(Ok(1000), |s| s.parse())?;
    let steps: usize = args.next().map_or(Ok(60), |s| s.parse())?;
    std::fs::create_dir_all(&out)?;
    let assets = Assets::load(&assets::data_dir())?;
    let mut world = World::demo(&assets, units);
    for _ in 0..steps {
        world.step();
    }
    let mut scene = SceneRenderer::new(&assets, WIDTH, HEIGHT);
    let mut draw = |lod| -> anyhow::Result<Vec<[u8; 3]>> {
        scene.lod = lod;
        scene.draw(&world, DrawPath::Indexed)?;
        Ok(rgb(&scene.frame, &assets.palette))
    };
    let on = draw(Lod::Auto)?;
    let off = draw(Lod::Off)?;
    let differ = on.iter().zip(&off).filter(|(a, b)| a != b).count();
    println!("{differ} of {} pixels differ", WIDTH * HEIGHT);
    save(
        &out.join("lod_full.png"),
        &on,
        &off,
        [0, 0, WIDTH, HEIGHT],
        1,
    )?;
    // The far distance (top of the frame) and the middle, 3x.
    save(&out.join("lod_far.png"), &on, &off, [560, 300, 400, 225], 3)?;
    save(
        &out.join("lod_middle.png"),
        &on,
        &off,
        [760, 560, 400, 225],
        3,
    )?;
    Ok(())
}

fn rgb(frame: &IndexedFrame, palette: &modex::Palette) -> Vec<[u8; 3]> {
    frame
        .pixels()
        .iter()
        .map(|&i| palette.colors[i as usize])
        .collect()
}

/// `rect` = x, y, w, h of both frames, scaled `k` times, on left and off right, a 4-pixel white
/// gap between.
fn save(
    path: &std::path::Path,
    on: &[[u8; 3]],
    off: &[[u8; 3]],
    [x0, y0, w, h]: [usize; 4],
    k: usize,
) -> anyhow::Result<()> {
    let gap = 4;
    let (ow, oh) = (2 * w * k + gap, h * k);
    let mut rgba = vec![255u8; ow * oh * 4];
    for (side, src) in [on, off].into_iter().enumerate() {
        for y in 0..oh {
            for x in 0..w * k {
                let c = src[(y0 + y / k) * WIDTH + x0 + x / k];
                let o = (y * ow + side * (w * k + gap) + x) * 4;
                rgba[o..o + 3].copy_from_slice(&c);
            }
        }
    }
    modex::pngio::save_rgba(path, ow, oh, &rgba)?;
    println!("wrote {}", path.display());
    Ok(())
}
