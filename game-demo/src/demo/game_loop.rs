//! The one game loop of the demo: pacing, the simulation's steps, drawing (with the plugins' hooks)
//! and presenting, for the window, the headless run and both networked runs.
//!
//! A run is a [`GameLoop`] (scene renderer, world, draw path, plugins) run with a [`Pacing`], a
//! [`Screen`] (where the frames go, and what a person does between them) and a [`NetStep`] (what a
//! networked run sends and receives each frame; [`Offline`] for the others). Each frame:
//!
//! 1. the pacer begins the frame;
//! 2. the screen reads its input (the window's keys move the camera, pause, switch the path);
//! 3. the world takes the steps the pacer says are due;
//! 4. the network step: datagrams in and out; a client puts the units where the server says;
//! 5. the frame is drawn, the plugins' hooks around it;
//! 6. the network step sends what the plugins queued (`SendPacket`);
//! 7. the screen decorates the frame (overlay, screenshot) and presents it; a closed window ends
//!    the run;
//! 8. the pacer waits until the next frame is due.
//!
//! One loop means one order of these for every run: a headless frame N, a served frame N and a
//! window frame after N steps show the same world, drawn and hooked the same way.

use std::time::{Duration, Instant};

use anyhow::Result;
use modex::present::Present;
use modex::{Palette, Target};
use modex_demo::scene::draw::ViewControl;
use modex_demo::scene::{Assets, DrawPath, FrameStats, SceneRenderer, World};

use super::pacer::{Pacer, Pacing};
use super::plugins::{self, Plugins};

/// The mode-X screen every run draws.
pub const WIDTH: usize = modex::frame::DEFAULT_WIDTH;
/// The mode-X screen every run draws.
pub const HEIGHT: usize = modex::frame::DEFAULT_HEIGHT;

/// Where a run's frames go, and what a person does between them. Only `presenter` is required:
/// a presenter nobody sits at (headless PNGs, a networked run's window) reads no input.
pub trait Screen {
    /// The presenter frames are shown on.
    fn presenter(&mut self) -> &mut dyn Present;

    /// At a frame's start, before the world steps: read the person's input, which may move the
    /// camera (`view`, by `dt` seconds' worth) and switch the draw path. Returns whether the
    /// simulation is paused.
    fn input(&mut self, _dt: f32, _view: &mut ViewControl, _path: &mut DrawPath) -> bool {
        false
    }

    /// Between drawing and presenting: what the screen adds to the frame or takes from it.
    fn decorate(
        &mut self,
        _scene: &mut SceneRenderer,
        _frame: &Drawn,
        _palette: &Palette,
    ) -> Result<()> {
        Ok(())
    }

    /// After presenting, with the seconds since the frame began.
    fn presented(&mut self, _frame_seconds: f32) {}
}

impl Screen for Box<dyn Present> {
    fn presenter(&mut self) -> &mut dyn Present {
        self.as_mut()
    }
}

/// A networked run's part of each frame.
pub trait NetStep {
    /// After the world has stepped, before it is drawn (frame `frame`, counted from 0): receive and
    /// answer datagrams, and bring `world` to what the peers say.
    fn before_draw(
        &mut self,
        frame: u32,
        world: &mut World,
        plugins: Option<&mut Plugins>,
    ) -> Result<()>;

    /// After drawing, before presenting: send the user packets the plugins queued while drawing.
    fn after_draw(&mut self, plugins: Option<&mut Plugins>) -> Result<()>;
}

/// The network step of a run without a network.
pub struct Offline;

impl NetStep for Offline {
    fn before_draw(&mut self, _: u32, _: &mut World, _: Option<&mut Plugins>) -> Result<()> {
        Ok(())
    }

    fn after_draw(&mut self, _: Option<&mut Plugins>) -> Result<()> {
        Ok(())
    }
}

/// What one frame's drawing reports to the screen.
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The renderers' statistics.
    pub stats: FrameStats,
    /// Milliseconds the frame's simulation steps took.
    pub sim_ms: f32,
    /// The path the frame was drawn on.
    pub path: DrawPath,
}

/// The demo's state across frames: what is drawn, how, and with which plugins.
pub struct GameLoop<'a> {
    /// The renderer and its camera.
    pub scene: SceneRenderer<'a>,
    /// The battlefield.
    pub world: World,
    /// The draw path of the next frame.
    pub path: DrawPath,
    /// `--plugin`s, when any were given.
    pub plugins: Option<Plugins>,
    palette: &'a Palette,
}

impl<'a> GameLoop<'a> {
    /// `world` drawn on `path` at the mode-X size.
    pub fn new(
        assets: &'a Assets,
        world: World,
        path: DrawPath,
        plugins: Option<Plugins>,
    ) -> GameLoop<'a> {
        GameLoop {
            scene: SceneRenderer::new(assets, WIDTH, HEIGHT),
            world,
            path,
            plugins,
            palette: &assets.palette,
        }
    }

    /// Run frames until `frames` have been shown (`None`: until the screen is closed). Returns the
    /// time spent stepping and drawing, without presenting (the headless run's measure).
    pub fn run(
        &mut self,
        pacing: Pacing,
        frames: Option<u32>,
        screen: &mut dyn Screen,
        net: &mut dyn NetStep,
    ) -> Result<Duration> {
        let mut pacer = Pacer::new(pacing);
        let mut busy = Duration::ZERO;
        let mut frame = 0u32;
        while frames.is_none_or(|n| frame < n) {
            let tick = pacer.begin();
            let paused = screen.input(tick.dt, &mut self.scene.view, &mut self.path);
            let sim_start = Instant::now();
            for _ in 0..pacer.steps(paused) {
                self.world.step();
            }
            let sim = sim_start.elapsed();
            net.before_draw(frame, &mut self.world, self.plugins.as_mut())?;
            let draw_start = Instant::now();
            let stats = draw_frame(
                &mut self.scene,
                &self.world,
                self.path,
                self.plugins.as_mut(),
            )?;
            busy += sim + draw_start.elapsed();
            net.after_draw(self.plugins.as_mut())?;
            let drawn = Drawn {
                stats,
                sim_ms: sim.as_secs_f32() * 1000.0,
                path: self.path,
            };
            screen.decorate(&mut self.scene, &drawn, self.palette)?;
            if !present_frame(screen.presenter(), &self.scene, self.path, self.palette)? {
                break;
            }
            screen.presented(tick.started.elapsed().as_secs_f32().max(1e-6));
            pacer.wait();
            frame += 1;
        }
        Ok(busy)
    }
}

/// Draw one frame of `world`, with the plugins' hooks around the drawing when there are any.
fn draw_frame(
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

/// Show the frame `path` drew; `false` when the window was closed.
fn present_frame(
    present: &mut dyn Present,
    scene: &SceneRenderer,
    path: DrawPath,
    palette: &Palette,
) -> Result<bool> {
    Ok(match path {
        DrawPath::Indexed => present.present_indexed(&scene.frame, palette)?,
        DrawPath::TrueColour => {
            let (w, h) = (scene.surface.width(), scene.surface.height());
            present.present_rgba(w, h, &scene.surface.to_rgba8(palette))?
        }
    })
}
