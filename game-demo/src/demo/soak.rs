//! `--soak SECONDS`: the scene drawn headless for a while, alternating the two draw paths, with
//! resident memory at the start and the end, so a leak or a growing cache shows.
//!
//! It draws without presenting or plugins, outside the game loop, so the rate it reports is the
//! simulation's and the renderers' alone.

use std::time::{Duration, Instant};

use anyhow::Result;
use modex_demo::scene::{Assets, DrawPath, SceneRenderer, World};

use super::game_loop::{HEIGHT, WIDTH};

/// Resident memory in KiB, from /proc (Linux); `None` elsewhere.
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Run `world` headless for `secs` seconds, drawing every frame, and report memory use.
pub fn run(assets: &Assets, mut world: World, secs: u64) -> Result<()> {
    let mut scene = SceneRenderer::new(assets, WIDTH, HEIGHT);
    // Warm up one frame so buffers and thread pools exist before the first reading.
    scene.draw(&world, DrawPath::Indexed)?;
    let before = resident_kib();
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < Duration::from_secs(secs) {
        let path = if n % 2 == 0 {
            DrawPath::Indexed
        } else {
            DrawPath::TrueColour
        };
        scene.draw(&world, path)?;
        world.step();
        n += 1;
    }
    let after = resident_kib();
    let show = |v: Option<u64>| v.map_or("unknown".to_string(), |v| format!("{v} KiB"));
    println!(
        "soak: {n} frames in {secs} s ({:.1} frames/s); resident memory {} at start, {} at end",
        n as f64 / start.elapsed().as_secs_f64().max(1e-9),
        show(before),
        show(after)
    );
    Ok(())
}
