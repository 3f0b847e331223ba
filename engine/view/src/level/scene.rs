//! A level drawn by the rasterizer. Block models carry texture × lightmap in their baked surfaces
//! (`modex_mdl::wmb::surface`) and are drawn at light 1.0; flat surfaces and the entities' models
//! are lit by the INFO object's sun and ambient colour through GameStudio's predefined materials
//! ([`MTL_MODEL`], [`MTL_FLAT`]); sprites are turned to face the camera.
//! Entities whose bounding sphere lies outside the view are skipped before they are posed.

use glam::Vec3;
use modex::{trig, Camera, DepthBuffer, DrawStats, Palette, Projection, Target};
use modex_mdl::wmb::object::color_rgb;
use modex_mdl::wmb::surface::SurfaceKind;
use modex_raster::{Entity, Light, Material, PreparedModel, RasterPixel, Renderer, SharedTextures};
use rayon::prelude::*;

use super::camera::Viewpoint;
use super::{Level, Shape};
use crate::ViewError;

/// GameStudio's `sun_color` when the level's Map Properties leave it at zero: (128,128,128). The
/// manual (`sun_color`, `ambient_color`, A7.60): "Sun and ambient color are loaded from their Map
/// Properties values of the current level when their level values are nonzero. Otherwise they stay
/// at their default values" (`docs/lighting.md`).
pub const DEFAULT_SUN: u8 = 128;
/// GameStudio's `ambient_color` when the level's Map Properties leave it at zero: (64,64,64), "the
/// basic environment lighting of an entity" (same manual page as [`DEFAULT_SUN`]).
pub const DEFAULT_AMBIENT: u8 = 64;

/// GameStudio's predefined `mtl_model` (ambient 200, diffuse 200; `mtl_terrain` has the same),
/// the material of every placed model and terrain: the manual's *Predefined Materials* page gives
/// the values, and Ackmania's screenshots show them applied through the engine's doubled texture
/// modulation ([`Material::acknex`], `docs/lighting.md`). An entity that names a material of its
/// own gets it from the game's scripts, which modex does not run: it keeps this one.
pub const MTL_MODEL: Material = Material::acknex(200, 200);
/// GameStudio's predefined `mtl_flat` (ambient 200, diffuse 150): blocks without a lightmap.
pub const MTL_FLAT: Material = Material::acknex(200, 150);

/// What the screen is cleared to where no level surface, sky surface or entity is drawn: GameStudio's
/// `sky_color`, the colour the engine clears the view background to (the manual's `bg` page: "clear
/// the view background to a different color than the sky_color"). A level file does not store it
/// (WED's INFO holds sun, ambient and fog colours only); scripts set it, and LotterShock's
/// `framework_init` sets `vec_set(sky_color, vector(1,1,1))`, a clear to black as near as 8 bits
/// go. modex clears to black, which that script's colour rounds to (`docs/lighting.md`).
pub const SKY_COLOR: [u8; 3] = [0, 0, 0];

/// The level's sun and ambient colours as GameStudio uses them: the INFO object's, each replaced
/// by the engine's default ([`DEFAULT_SUN`], [`DEFAULT_AMBIENT`]) when the level leaves it at zero.
pub fn info_colors(level: &Level) -> ([u8; 3], [u8; 3]) {
    let or = |word: u32, default: u8| {
        let c = color_rgb(word);
        if c == [0, 0, 0] {
            [default; 3]
        } else {
            c
        }
    };
    match level.file.info() {
        Some(info) => (
            or(info.sun_color, DEFAULT_SUN),
            or(info.ambient_color, DEFAULT_AMBIENT),
        ),
        None => ([DEFAULT_SUN; 3], [DEFAULT_AMBIENT; 3]),
    }
}

/// The scene's light from the INFO object: the sun from its azimuth and elevation, ambient and
/// sun strength from its colours ([`info_colors`]: zero colours take the engine's defaults; grey
/// levels, 0..1 each; the sun doubled so that albedo 50 receives it whole). Without an INFO
/// object the sun stands at the raster's default direction.
pub fn info_light(level: &Level) -> Light {
    let (sun, ambient) = info_colors(level);
    let grey = |c: [u8; 3]| (c[0] as f32 + c[1] as f32 + c[2] as f32) / (3.0 * 255.0);
    let direction = match level.file.info() {
        Some(info) => {
            let (az, el) = (info.azimuth.to_radians(), info.elevation.to_radians());
            -Vec3::new(
                trig::cos(el) * trig::cos(az),
                trig::cos(el) * trig::sin(az),
                trig::sin(el),
            )
        }
        None => Light::default().direction,
    };
    Light {
        direction,
        ambient: grey(ambient),
        diffuse: 2.0 * grey(sun),
    }
}

/// The prepared level: the renderer, lit by the level, and every model prepared once.
pub struct LevelScene<'l> {
    level: &'l Level,
    renderer: Renderer,
    blocks: Vec<(SurfaceKind, PreparedModel<'l>)>,
    files: Vec<Vec<PreparedModel<'l>>>,
}

impl<'l> LevelScene<'l> {
    /// Prepare `level` for drawing with `palette` (the 8-bit path's colours).
    pub fn new(level: &'l Level, palette: &Palette) -> LevelScene<'l> {
        let mut renderer = Renderer::new(palette);
        renderer.light = info_light(level);
        // Each file's skins are prepared apart from the others: on every core (a large level's
        // tens of millions of texels), on the calling thread where there are no threads (the page).
        // A skin shown by several models (one texture file named by many, the parts of one
        // MDL7) is prepared once and shared.
        let shared = SharedTextures::new();
        let blocks = level
            .blocks
            .par_iter()
            .map(|b| (b.kind, renderer.prepare_sharing(&b.model, &shared)))
            .collect();
        let files = level
            .files
            .par_iter()
            .map(|f| {
                f.models
                    .iter()
                    .map(|m| renderer.prepare_sharing(m, &shared))
                    .collect()
            })
            .collect();
        LevelScene {
            level,
            renderer,
            blocks,
            files,
        }
    }

    /// The level drawn.
    pub fn level(&self) -> &'l Level {
        self.level
    }

    /// The default camera for a `w` x `h` picture ([`Viewpoint::Default`]): the level's start
    /// ([`Level::start`]), else above the level's bounds looking at their centre.
    pub fn start_camera(&self, w: usize, h: usize) -> Camera {
        self.camera(Viewpoint::Default, w, h)
    }

    /// The camera of `viewpoint` for a `w` x `h` picture: `modex render`'s `--start`, `--yaw`,
    /// `--pitch` and `--camera`, and the page's orbit.
    pub fn camera(&self, viewpoint: Viewpoint, w: usize, h: usize) -> Camera {
        viewpoint.camera(self.level.start(), self.level.bounds(), (w, h))
    }

    /// Draw the level into `target` (cleared to [`SKY_COLOR`] first) and return the statistics
    /// and how many entities were culled.
    pub fn draw<T: Target>(
        &self,
        target: &mut T,
        depth: &mut DepthBuffer,
        camera: &Camera,
    ) -> Result<(DrawStats, usize), ViewError>
    where
        T::Px: RasterPixel,
    {
        target.fill(T::flat(SKY_COLOR, self.renderer.palette()));
        depth.clear();
        let r = &self.renderer;
        let mut stats = DrawStats::default();
        // Surfaces with their light baked in, and the sky, at light 1.0: ambient makes up the
        // difference to 1 and the sun is left out (albedo 0).
        let full = Entity {
            ambient: (1.0 - r.light.ambient) * 100.0,
            albedo: 0.0,
            material: Material::PLAIN,
            ..Entity::default()
        };
        let flat = Entity {
            material: MTL_FLAT,
            ..Entity::default()
        };
        for (kind, m) in &self.blocks {
            let e = match kind {
                SurfaceKind::Lightmapped | SurfaceKind::Sky => full,
                SurfaceKind::Flat => flat,
            };
            stats += r.draw(target, depth, camera, m, &e)?;
        }
        let view = camera.view();
        let (tan_y, aspect) = match camera.projection {
            Projection::Perspective { fov_y } => (trig::tan(fov_y / 2.0), camera.aspect()),
            _ => (f32::INFINITY, 1.0),
        };
        let tan_x = tan_y * aspect;
        let mut culled = 0;
        for p in &self.level.placed {
            let f = &self.level.files[p.file];
            let mut e = p.entity();
            // Cull by the bounding sphere in view space before posing. The box centre turns with
            // the entity (rooms are modelled with their origin at a door, and placed turned); a
            // sprite's quad is centred on its origin, so turning it to the camera moves nothing.
            let centre = e.matrix().transform_point3(f.centre());
            let radius = f.radius() * p.scale.abs().max_element();
            let c = view.transform_point3(centre);
            let z = -c.z;
            let outside = z + radius < camera.near
                || z - radius > camera.far
                || c.x.abs() - radius * (1.0 + tan_x * tan_x).sqrt() > z * tan_x
                || c.y.abs() - radius * (1.0 + tan_y * tan_y).sqrt() > z * tan_y;
            if outside {
                culled += 1;
                continue;
            }
            if f.shape() == Shape::Sprite {
                let d = camera.eye - p.origin;
                e.pan = trig::atan2(d.y, d.x).to_degrees();
                e.tilt = trig::atan2(d.z, d.truncate().length()).to_degrees();
                e.roll = 0.0;
                // Sprites at full light, as the baked surfaces.
                e.ambient = full.ambient;
                e.albedo = full.albedo;
                e.material = full.material;
                e.overlay = false;
            }
            for m in &self.files[p.file] {
                stats += r.draw(target, depth, camera, m, &e)?;
            }
        }
        Ok((stats, culled))
    }
}
