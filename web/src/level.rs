//! A WMB level, decoded once with its entities found among the dropped files, drawn for each view
//! the page asks for through `modex_view::level`, the scene `modex render LEVEL.wmb` draws.

use modex::{Camera, DepthBuffer, Palette, Target, TargetFormat};
use modex_raster::RasterPixel;
use modex_view::colours::Colours;
use modex_view::level::{Level, LevelScene, Viewpoint};
use modex_view::target::Drawing;
use modex_view::ViewError;
use modex_voxel::VoxelPixel;

use crate::colouring::Colouring;
use crate::error::ShowError;
use crate::files::Dropped;
use crate::shown::into_rgba;
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
}

impl ShownLevel {
    /// Decode the level `name` and its entities' files among `dropped`, 8-bit colours through
    /// the Quake palette, as `modex render` without `--palette`.
    pub fn load(name: &str, bytes: &[u8], dropped: &Dropped) -> Result<ShownLevel, ShowError> {
        let palette = Palette::quake();
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
            colouring: Colouring::new(Colours::TrueColour),
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

    /// Draw `view` as RGBA8 into `out`, as `modex render LEVEL.wmb` draws it (`zoom` 1 is its
    /// camera; the wheel moves the eye along its line of sight).
    pub fn draw(&mut self, view: &View, out: &mut Vec<u8>) -> Result<(), ShowError> {
        let format = self.colours_for(view.format);
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
        let mut shot = LevelShot { scene, camera };
        into_rgba(format, (w, h), &self.palette, out, &mut shot)?;
        Ok(())
    }
}

/// One picture of a level.
struct LevelShot<'a, 'l> {
    scene: &'a LevelScene<'l>,
    camera: Camera,
}

impl Drawing for LevelShot<'_, '_> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        let (w, h) = target.size();
        let mut depth = DepthBuffer::new(w, h);
        self.scene.draw(target, &mut depth, &self.camera)?;
        Ok(())
    }
}
