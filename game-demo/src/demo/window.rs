//! The demo in a window (`cargo run`): the intro, then the battlefield through the game loop at the
//! wall clock's pace, with the keys of the README, the statistics overlay and screenshots.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use modex::pngio;
use modex::present::Present;
use modex::{Mixer, Palette};
use modex_demo::scene::draw::ViewControl;
use modex_demo::scene::{overlay, Assets, DrawPath, FrameStats, SceneRenderer, World};
use modex_desktop::minifb::{Key, KeyRepeat};
use modex_desktop::{AudioOutput, WindowPresenter};

use super::game_loop::{Drawn, GameLoop, Offline, Screen, HEIGHT, WIDTH};
use super::intro;
use super::pacer::Pacing;
use super::plugins::Plugins;
use crate::cli::DemoArgs;

/// Overlay colour in the Quake palette (bright yellow).
const OVERLAY_INDEX: u8 = 192;
/// The window's title: the keys, where a person looks first.
const TITLE: &str = "modex demo: arrows rotate, WASD pan, QE zoom, P pause, T 8-bit/8888, F stats, F12 screenshot, ESC quit";
/// Keys of the window, listed in the README.
const KEYS_HELP: &str = "arrows rotate/tilt, W A S D pan, Q E zoom, P pause, T 8-bit/8888, F stats, F12 screenshot, ESC quit";

/// Open the window, play the intro unless `--no-intro`, then run the battlefield until the window
/// is closed.
pub fn run(assets: &Assets, args: &DemoArgs, world: World, plugins: Option<Plugins>) -> Result<()> {
    let mut window = WindowPresenter::open(TITLE, WIDTH, HEIGHT, args.scale, args.aspect)
        .context("cannot open a window (use --headless on a machine without a display)")?;
    log::info!("keys: {KEYS_HELP}");
    let mixer = Mixer::default();
    let _audio = AudioOutput::open(&mixer);
    if !args.no_intro && !intro::play(&mut window, &mixer)? {
        return Ok(());
    }
    let mut game = GameLoop::new(assets, world, args.path.into(), plugins);
    game.scene.lod = args.lod.into();
    let mut screen = DemoWindow::new(window);
    game.run(Pacing::WallClock, None, &mut screen, &mut Offline)?;
    Ok(())
}

/// The window with a person at it: keys, pause, overlay, screenshots and the frame rate shown.
struct DemoWindow {
    window: WindowPresenter,
    paused: bool,
    show_stats: bool,
    /// F12 was pressed this frame.
    screenshot: bool,
    /// Screenshots written so far (they are numbered from 1).
    shots: u32,
    /// Frames per second, smoothed.
    fps: f32,
}

impl DemoWindow {
    fn new(window: WindowPresenter) -> DemoWindow {
        DemoWindow {
            window,
            paused: false,
            show_stats: true,
            screenshot: false,
            shots: 0,
            fps: 0.0,
        }
    }
}

impl Screen for DemoWindow {
    fn presenter(&mut self) -> &mut dyn Present {
        &mut self.window
    }

    fn input(&mut self, dt: f32, v: &mut ViewControl, path: &mut DrawPath) -> bool {
        let w = self.window.window();
        let pressed = |k: Key| w.is_key_pressed(k, KeyRepeat::No);
        if pressed(Key::P) || pressed(Key::Space) {
            self.paused = !self.paused;
        }
        if pressed(Key::T) {
            *path = match *path {
                DrawPath::Indexed => DrawPath::TrueColour,
                DrawPath::TrueColour => DrawPath::Indexed,
            };
        }
        if pressed(Key::F) || pressed(Key::F1) {
            self.show_stats = !self.show_stats;
        }
        self.screenshot = pressed(Key::F12);
        let down = |k: Key| w.is_key_down(k);
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
        self.paused
    }

    fn decorate(
        &mut self,
        scene: &mut SceneRenderer,
        frame: &Drawn,
        palette: &Palette,
    ) -> Result<()> {
        if self.show_stats {
            let lines = stats_lines(
                self.fps,
                frame.sim_ms,
                &frame.stats,
                frame.path,
                self.paused,
            );
            match frame.path {
                DrawPath::Indexed => overlay::text_indexed(&mut scene.frame, &lines, OVERLAY_INDEX),
                DrawPath::TrueColour => {
                    overlay::text_argb(&mut scene.surface, &lines, [255, 243, 27])
                }
            }
        }
        if self.screenshot {
            self.shots += 1;
            let file = PathBuf::from(format!("modex-screenshot-{:03}.png", self.shots));
            save_screenshot(&file, scene, frame.path, palette)?;
            log::info!("screenshot written to {}", file.display());
        }
        Ok(())
    }

    fn presented(&mut self, frame_time: f32) {
        self.fps = if self.fps == 0.0 {
            1.0 / frame_time
        } else {
            self.fps * 0.95 + 0.05 / frame_time
        };
    }
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
    palette: &Palette,
) -> Result<()> {
    match path {
        DrawPath::Indexed => pngio::save_indexed(file, &scene.frame, palette)?,
        DrawPath::TrueColour => pngio::save_target(file, &scene.surface, palette)?,
    }
    Ok(())
}
