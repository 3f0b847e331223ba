//! A WMB level, decoded once with its entities found among the dropped files, drawn for each view
//! the page asks for through `modex_view::level`, the scene `modex render LEVEL.wmb` draws.

use modex::{Camera, DepthBuffer, Palette, Target, TargetFormat};
use modex_raster::RasterPixel;
use modex_view::colours::Colours;
use modex_view::level::{Collider, Level, LevelScene, Mode, Motion, Start, Viewpoint, Walker};
use modex_view::target::Drawing;
use modex_view::ViewError;
use modex_voxel::VoxelPixel;

use crate::colouring::Colouring;
use crate::error::ShowError;
use crate::files::Dropped;
use crate::shown::{into_rgba, Canvas};
use crate::view::View;

self_cell::self_cell!(
    /// A level with the scene that borrows it (its prepared models), owned together, so the next
    /// file shown frees both.
    struct Scene {
        owner: Level,
        #[covariant]
        dependent: LevelScene,
    }
);

/// A decoded level, ready to draw.
pub struct ShownLevel {
    scene: Scene,
    /// The palette the scene was prepared with: the Quake palette, or the level's 8-bit palette
    /// while an 8-bit view is shown.
    palette: Palette,
    colouring: Colouring,
    /// The body walking or flying through the level once the keys or the mouse moved it, or a
    /// `camera` was given; views are then drawn from its eye (`modex render --camera`).
    walker: Option<Walker>,
    /// What walking collides with, built the first time the walker moves.
    world: Option<Collider>,
}

/// What one frame of the keys and the mouse asks of the walker (the `modex view` keys).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Steer {
    /// The move (W/S, A/D, E/Q, Shift).
    pub motion: Motion,
    /// Held turn (Right +1, Left -1) and tilt (Up +1, Down -1) axes.
    pub turn: f32,
    /// See [`Steer::turn`].
    pub tilt: f32,
    /// The mouse's move in pixels (x right, y down).
    pub moved: (f32, f32),
}

impl ShownLevel {
    /// Decode the level `name` and its entities' files among `dropped`, 8-bit colours through
    /// `given` (`--palette`), else the Quake palette, as `modex render`.
    pub fn load(
        name: &str,
        bytes: &[u8],
        dropped: &Dropped,
        given: Option<&Palette>,
    ) -> Result<ShownLevel, ShowError> {
        let palette = given.cloned().unwrap_or_else(Palette::quake);
        let level = Level::load(name, bytes, dropped, &palette)?;
        log::info!(
            "{}: {} block models, {} of {} entities placed from {} files",
            level.name,
            level.blocks.len(),
            level.found,
            level.file.entities().count(),
            level.files.len()
        );
        let scene = Scene::new(level, |level| LevelScene::new(level, &palette));
        Ok(ShownLevel {
            scene,
            palette,
            colouring: Colouring::new(Colours::TrueColour, given.cloned()),
            walker: None,
            world: None,
        })
    }

    /// The format a view is drawn in, and the scene prepared for its palette, as `modex render`
    /// chooses them without `--palette`: 8888 unless asked; 8-bit through the level's own palette,
    /// else one built from its textures (`modex_view::colours`).
    fn colours_for(&mut self, asked: Option<TargetFormat>) -> TargetFormat {
        let level = self.scene.borrow_owner();
        let own = || level.own_palette();
        let (format, palette) = self.colouring.pick(&level.name, asked, own, level.models());
        if palette != self.palette {
            self.scene
                .with_dependent_mut(|level, scene| *scene = LevelScene::new(level, &palette));
            self.palette = palette;
        }
        format
    }

    /// The yaw and pitch the page's orbit starts from: the overview's ([`Viewpoint::Orbit`]).
    pub fn default_angles(&self) -> (f32, f32) {
        (0.0, modex_view::level::orbit_pitch())
    }

    /// Stand at `at` (`--camera`), flying; `None`: back to the views of `yaw` and `pitch`.
    pub fn set_camera(&mut self, at: Option<Start>) {
        self.walker = at.map(|s| Walker::at(&s, Mode::Fly));
    }

    /// Where the views are drawn from, when a walker stands somewhere.
    pub fn camera(&self) -> Option<Start> {
        self.walker.as_ref().map(Walker::view)
    }

    /// Walking (true) or flying; `None` before the walker stands anywhere.
    pub fn walking(&self) -> Option<bool> {
        self.walker.as_ref().map(|w| w.mode == Mode::Walk)
    }

    /// Switch between walking and flying (G), from where the view is.
    pub fn toggle_walk(&mut self, view: &View) {
        self.walker_for(view).toggle();
    }

    /// The walker, put where `view` is seen from the first time it is needed: at the level's
    /// start when that is the view, else where the camera of `view` stands.
    fn walker_for(&mut self, view: &View) -> &mut Walker {
        if self.walker.is_none() {
            let start = match (view.yaw, view.pitch, self.scene.borrow_owner().start()) {
                (None, None, Some(start)) if view.zoom == 1.0 => start,
                _ => {
                    let camera = self.view_camera(view);
                    Start::of_camera(&camera)
                }
            };
            self.walker = Some(Walker::at(&start, Mode::Fly));
        }
        self.walker.as_mut().expect("just set")
    }

    /// Move the walker `dt` seconds as `steer` asks, as `modex view` does (`Walker::look`, then
    /// `Walker::step` through the level's collider).
    pub fn walk(&mut self, view: &View, steer: Steer, dt: f32) {
        if self.world.is_none() {
            let world = Collider::of_level(self.scene.borrow_owner());
            log::info!("walking collides with {} triangles", world.len());
            self.world = Some(world);
        }
        let walker = self.walker_for(view);
        walker.look(steer.turn, steer.tilt, steer.moved, dt);
        let world = self.world.as_ref().expect("just built");
        if let Some(walker) = self.walker.as_mut() {
            walker.step(world, steer.motion, dt);
        }
    }

    /// The camera of `view` without a walker: as `modex render` without `--camera`.
    fn view_camera(&self, view: &View) -> Camera {
        let (w, h) = view.size;
        let scene = self.scene.borrow_dependent();
        // As `modex render`: no angles, the default (the start, else the overview); angles, the
        // orbit round the centre.
        let viewpoint = match (view.yaw, view.pitch) {
            (None, None) => Viewpoint::Default,
            (yaw, pitch) => Viewpoint::Orbit {
                yaw: yaw.unwrap_or(0.0),
                pitch,
            },
        };
        let mut camera = scene.camera(viewpoint, w, h);
        if view.zoom != 1.0 {
            // The eye moves along its line of sight: above the level, that part of the way to
            // the centre (as a model's zoom); at a start, by the level's size, which a walk
            // through covers.
            let level = self.scene.borrow_owner();
            let line = camera.target - camera.eye;
            let at_start = viewpoint == Viewpoint::Default && level.start().is_some();
            let reach = if at_start {
                let (lo, hi) = level.bounds();
                (hi - lo).length() * 0.5
            } else {
                line.length()
            };
            let step = reach * (1.0 - 1.0 / view.zoom);
            camera.eye += line.normalize_or_zero() * step;
            camera.target += line.normalize_or_zero() * step;
            camera.near = (camera.near - step.max(0.0)).max(camera.near.min(1.0));
            camera.far += (-step).max(0.0);
        }
        view.pan_camera(&mut camera);
        camera
    }

    /// Draw `view` as RGBA8 into `out` through `canvas`, as `modex render LEVEL.wmb` draws it: from the walker's
    /// eye when it stands somewhere (`--camera`), else `view`'s yaw and pitch (`zoom` 1 is its
    /// camera; the wheel moves the eye along its line of sight).
    pub fn draw(
        &mut self,
        view: &View,
        canvas: &mut Canvas,
        out: &mut Vec<u8>,
    ) -> Result<(), ShowError> {
        let format = self.colours_for(view.format);
        let (w, h) = view.size;
        let camera = match &self.walker {
            // As `modex render --camera X,Y,Z,PAN,TILT` at the walker's eye.
            Some(walker) => walker.view().camera(w, h),
            None => self.view_camera(view),
        };
        let scene = self.scene.borrow_dependent();
        let (target, depth) = canvas.fit(format, (w, h));
        let mut shot = LevelShot {
            scene,
            camera,
            depth,
        };
        into_rgba(target, &self.palette, out, &mut shot)?;
        Ok(())
    }
}

/// One picture of a level.
struct LevelShot<'a, 'l> {
    scene: &'a LevelScene<'l>,
    camera: Camera,
    depth: &'a mut DepthBuffer,
}

impl Drawing for LevelShot<'_, '_> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        self.scene.draw(target, self.depth, &self.camera)?;
        Ok(())
    }
}
