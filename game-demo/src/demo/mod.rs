//! `modex` / `modex demo`: the voxel-unit battlefield in a window, headless, or as a soak test.
//!
//! The scene itself lives in the `modex_demo::scene` library; this module only runs it: fixed-step
//! simulation against the wall clock, keys, the statistics overlay, screenshots, and the headless and
//! soak loops.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex::pngio;
use modex::present::{HeadlessPresenter, Present};
use modex_demo::scene::assets::{data_dir, Assets};
use modex_demo::scene::world::STEP;
use modex_demo::scene::{overlay, DrawPath, FrameStats, SceneRenderer, World};

use modex::Mixer;
use modex_cutscene::{GameDir, Playback, Scene, TICKS_PER_SECOND};
use modex_desktop::minifb::{Key, KeyRepeat};
use modex_desktop::{AudioOutput, WindowPresenter};

mod bench;
mod net;
mod plugins;

use crate::cli::DemoArgs;
use plugins::Plugins;

/// The project's own sample scene, played as the intro.
const INTRO_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/cutscene");
/// Its script number (ASCR001).
const INTRO_SCRIPT: u32 = 1;

/// Seed of the units' paths.
const WORLD_SEED: u64 = 1994;
/// The mode-X screen.
const WIDTH: usize = modex::frame::DEFAULT_WIDTH;
const HEIGHT: usize = modex::frame::DEFAULT_HEIGHT;
/// Overlay colour in the Quake palette (bright yellow).
const OVERLAY_INDEX: u8 = 192;

fn new_world(assets: &Assets) -> World {
    World::new(WORLD_SEED, assets.terrain.model.frames[0].positions.clone())
}

pub fn run(args: &DemoArgs) -> Result<()> {
    let assets = Assets::load(&data_dir())?;
    if let Some(addr) = args.serve {
        let plugins = Plugins::from_args(args, &data_dir())?;
        return net::session::serve(addr, args, &assets, new_world(&assets), plugins);
    }
    if let Some(addr) = args.connect {
        let plugins = Plugins::from_args(args, &data_dir())?;
        return net::session::connect(addr, args, &assets, new_world(&assets), plugins);
    }
    if let Some(secs) = args.soak {
        return soak(&assets, secs);
    }
    if args.bench {
        return bench::run(&assets, args, |units| {
            World::with_units(
                WORLD_SEED,
                assets.terrain.model.frames[0].positions.clone(),
                units,
            )
        });
    }
    let plugins = Plugins::from_args(args, &data_dir())?;
    let path = args.path.into();
    if args.headless {
        return headless(&assets, args, path, plugins);
    }
    windowed(&assets, args, path, plugins)
}

/// Show the frame `path` drew; `false` when the window was closed.
pub(crate) fn present_frame(
    present: &mut dyn Present,
    scene: &SceneRenderer,
    path: DrawPath,
    palette: &modex::Palette,
) -> Result<bool> {
    Ok(match path {
        DrawPath::Indexed => present.present_indexed(&scene.frame, palette)?,
        DrawPath::TrueColour => {
            let (w, h) = (scene.surface.width(), scene.surface.height());
            present.present_rgba(w, h, &scene.surface.to_rgba8())?
        }
    })
}

/// Draw one frame of `world`, with the plugins' hooks around the drawing when there are any.
pub(crate) fn draw_frame(
    scene: &mut SceneRenderer,
    world: &World,
    path: DrawPath,
    plugins: Option<&mut Plugins>,
) -> Result<FrameStats> {
    let Some(plugins) = plugins else {
        return scene.draw(world, path);
    };
    let camera = plugins::camera_state(scene);
    let overrides = plugins.before_draw(world, camera)?;
    let stats = scene.draw_with(world, path, &overrides)?;
    drop(overrides);
    match path {
        DrawPath::Indexed => plugins.after_draw_indexed(&mut scene.frame)?,
        DrawPath::TrueColour => plugins.after_draw_argb(&mut scene.surface)?,
    }
    Ok(stats)
}

/// Render `frames` frames at the fixed step and write them as indexed PNGs (RGBA on the 8888 path).
fn headless(
    assets: &Assets,
    args: &DemoArgs,
    path: DrawPath,
    mut plugins: Option<Plugins>,
) -> Result<()> {
    let (frames, out) = (args.frames, args.out.as_path());
    let mut world = new_world(assets);
    let mut scene = SceneRenderer::new(assets, WIDTH, HEIGHT);
    scene.view.orthographic = args.orthographic;
    scene.set_cache(args.cache_mib << 20, args.cache_perspective);
    let mut presenter = HeadlessPresenter::new(out)?;
    let mut render_time = Duration::ZERO;
    let start = Instant::now();
    for _ in 0..frames {
        let t = Instant::now();
        draw_frame(&mut scene, &world, path, plugins.as_mut())?;
        render_time += t.elapsed();
        present_frame(&mut presenter, &scene, path, &assets.palette)?;
        // One picture per 60 Hz step: frame N shows scene time N / 60 s.
        let t = Instant::now();
        world.step();
        render_time += t.elapsed();
    }
    let total = start.elapsed().as_secs_f64();
    println!(
        "wrote {frames} frames to {}: {:.1} frames/s simulating and drawing ({:.2} ms per frame), {:.1} frames/s including PNG encoding",
        out.display(),
        frames as f64 / render_time.as_secs_f64().max(1e-9),
        render_time.as_secs_f64() * 1000.0 / frames.max(1) as f64,
        frames as f64 / total.max(1e-9),
    );
    if let Some(p) = &plugins {
        println!("{}", p.summary());
    }
    Ok(())
}

/// Resident memory in KiB, from /proc (Linux); `None` elsewhere.
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Run the scene headless for `secs` seconds, drawing every frame, and report memory use.
fn soak(assets: &Assets, secs: u64) -> Result<()> {
    let mut world = new_world(assets);
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

/// Keys of the window, listed in the README.
const KEYS_HELP: &str = "arrows rotate/tilt, W A S D pan, Q E zoom, P pause, T 8-bit/8888, F stats, F12 screenshot, ESC quit";

fn windowed(
    assets: &Assets,
    args: &DemoArgs,
    start_path: DrawPath,
    mut plugins: Option<Plugins>,
) -> Result<()> {
    let mut window = WindowPresenter::open(
        "modex demo: arrows rotate, WASD pan, QE zoom, P pause, T 8-bit/8888, F stats, F12 screenshot, ESC quit",
        WIDTH,
        HEIGHT,
        args.scale,
        args.aspect,
    )
    .context("cannot open a window (use --headless on a machine without a display)")?;
    log::info!("keys: {KEYS_HELP}");
    let mixer = Mixer::default();
    let _audio = AudioOutput::open(&mixer);
    if !args.no_intro && !intro(&mut window, &mixer)? {
        return Ok(());
    }
    let mut world = new_world(assets);
    let mut scene = SceneRenderer::new(assets, WIDTH, HEIGHT);
    let mut path = start_path;
    let mut paused = false;
    let mut show_stats = true;
    let mut shots = 0;
    let mut last = Instant::now();
    let mut lag = 0.0f32;
    let mut fps = 0.0f32;
    loop {
        let now = Instant::now();
        let dt = (now - last).as_secs_f32().min(0.25);
        last = now;
        let w = window.window();
        let pressed = |k: Key| w.is_key_pressed(k, KeyRepeat::No);
        if pressed(Key::P) || pressed(Key::Space) {
            paused = !paused;
        }
        if pressed(Key::T) {
            path = match path {
                DrawPath::Indexed => DrawPath::TrueColour,
                DrawPath::TrueColour => DrawPath::Indexed,
            };
        }
        if pressed(Key::F) || pressed(Key::F1) {
            show_stats = !show_stats;
        }
        let screenshot = pressed(Key::F12);
        let down = |k: Key| w.is_key_down(k);
        let v = &mut scene.view;
        let turn = 1.2 * dt;
        if down(Key::Left) {
            v.yaw -= turn;
        }
        if down(Key::Right) {
            v.yaw += turn;
        }
        if down(Key::Up) {
            v.pitch = (v.pitch + turn).min(1.5);
        }
        if down(Key::Down) {
            v.pitch = (v.pitch - turn).max(0.1);
        }
        if down(Key::Q) {
            v.distance = (v.distance * (1.0 - dt)).max(60.0);
        }
        if down(Key::E) {
            v.distance = (v.distance * (1.0 + dt)).min(1500.0);
        }
        let (fwd, right) = (
            glam::Vec3::new(v.yaw.sin(), v.yaw.cos(), 0.0),
            glam::Vec3::new(v.yaw.cos(), -v.yaw.sin(), 0.0),
        );
        let pan = 200.0 * dt;
        for (k, d) in [
            (Key::W, fwd),
            (Key::S, -fwd),
            (Key::D, right),
            (Key::A, -right),
        ] {
            if down(k) {
                v.target += d * pan;
            }
        }

        let sim_start = Instant::now();
        if !paused {
            lag += dt;
            while lag >= STEP {
                world.step();
                lag -= STEP;
            }
        }
        let sim_ms = sim_start.elapsed().as_secs_f32() * 1000.0;
        let stats = draw_frame(&mut scene, &world, path, plugins.as_mut())?;
        if show_stats {
            let lines = stats_lines(fps, sim_ms, &stats, path, paused);
            match path {
                DrawPath::Indexed => overlay::text_indexed(&mut scene.frame, &lines, OVERLAY_INDEX),
                DrawPath::TrueColour => {
                    overlay::text_argb(&mut scene.surface, &lines, [255, 243, 27])
                }
            }
        }
        if screenshot {
            shots += 1;
            let file = PathBuf::from(format!("modex-screenshot-{shots:03}.png"));
            save_screenshot(&file, &scene, path, &assets.palette)?;
            log::info!("screenshot written to {}", file.display());
        }
        if !present_frame(&mut window, &scene, path, &assets.palette)? {
            return Ok(());
        }
        let frame_time = now.elapsed().as_secs_f32().max(1e-6);
        fps = if fps == 0.0 {
            1.0 / frame_time
        } else {
            fps * 0.95 + 0.05 / frame_time
        };
    }
}

/// Play the intro cutscene (BLEND fade, fx sounds) in the demo's window until it ends or a key
/// (Space, Enter) skips it. Returns whether the window is still open. A missing or broken intro is
/// logged and skipped: the battlefield is the point of the demo.
fn intro(window: &mut WindowPresenter, mixer: &Mixer) -> Result<bool> {
    let scene = match Scene::load_script(&GameDir::new(INTRO_DIR), INTRO_SCRIPT) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("intro cutscene not played: {e}");
            return Ok(true);
        }
    };
    for w in &scene.warnings {
        log::warn!("intro: {w}");
    }
    let mut playback = Playback::new(&scene, mixer.clone());
    let start = Instant::now();
    loop {
        let tick = (start.elapsed().as_secs_f64() * TICKS_PER_SECOND as f64) as u32;
        if tick >= playback.length() {
            break;
        }
        playback.sound_to(tick);
        let palette = playback.palette_at(tick);
        if !window.present_indexed(playback.frame_at(tick), &palette)? {
            playback.stop();
            return Ok(false);
        }
        let w = window.window();
        if w.is_key_pressed(Key::Space, KeyRepeat::No)
            || w.is_key_pressed(Key::Enter, KeyRepeat::No)
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    playback.stop();
    Ok(true)
}

fn stats_lines(fps: f32, sim_ms: f32, s: &FrameStats, path: DrawPath, paused: bool) -> Vec<String> {
    vec![
        format!(
            "{:.0} fps  {}{}",
            fps,
            match path {
                DrawPath::Indexed => "8-bit",
                DrawPath::TrueColour => "8888",
            },
            if paused { "  PAUSED" } else { "" }
        ),
        format!(
            "sim {:.1} ms  tris {:.1} ms  voxels {:.1} ms",
            sim_ms, s.raster_ms, s.voxel_ms
        ),
        format!(
            "{} triangles  {} voxels  {} rays",
            s.drawn.triangles, s.voxels, s.drawn.rays
        ),
    ]
}

fn save_screenshot(
    file: &Path,
    scene: &SceneRenderer,
    path: DrawPath,
    palette: &modex::Palette,
) -> Result<()> {
    match path {
        DrawPath::Indexed => pngio::save_indexed(file, &scene.frame, palette)?,
        DrawPath::TrueColour => pngio::save_rgba(file, WIDTH, HEIGHT, &scene.surface.to_rgba8())?,
    }
    Ok(())
}
