//! `--headless --frames N --out DIR`: the game loop unpaced (one 60 Hz step per frame, as fast as
//! the machine draws), writing every frame as a PNG (indexed on the 8-bit path, RGBA on 8888), then
//! the frame rate.

use std::time::Instant;

use anyhow::Result;
use modex::present::{HeadlessPresenter, Present};
use modex_demo::scene::{Assets, World};

use super::game_loop::{GameLoop, Offline};
use super::pacer::Pacing;
use super::plugins::Plugins;
use crate::cli::DemoArgs;

/// Render `args.frames` frames of `world` into `args.out`: frame N shows scene time N / 60 s.
pub fn run(assets: &Assets, args: &DemoArgs, world: World, plugins: Option<Plugins>) -> Result<()> {
    let (frames, out) = (args.frames, args.out.as_path());
    let mut game = GameLoop::new(assets, world, args.path.into(), plugins);
    game.scene.view.orthographic = args.orthographic;
    game.scene.lod = args.lod.into();
    game.scene.set_cache(args.cache_mib << 20);
    let mut screen: Box<dyn Present> = Box::new(HeadlessPresenter::new(out)?);
    let start = Instant::now();
    let busy = game.run(Pacing::Unpaced, Some(frames), &mut screen, &mut Offline)?;
    let total = start.elapsed().as_secs_f64();
    println!(
        "wrote {frames} frames to {}: {:.1} frames/s simulating and drawing ({:.2} ms per frame), {:.1} frames/s including PNG encoding",
        out.display(),
        frames as f64 / busy.as_secs_f64().max(1e-9),
        busy.as_secs_f64() * 1000.0 / frames.max(1) as f64,
        frames as f64 / total.max(1e-9),
    );
    if let Some(p) = &game.plugins {
        println!("{}", p.summary());
    }
    Ok(())
}
