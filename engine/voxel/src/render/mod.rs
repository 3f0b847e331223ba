//! The voxel ray-marcher: draws a scene of [`Instance`]s into any [`Target`] (the 8-bit mode-X
//! frame or a 565 / 4444 / 8888 surface), depth-tested against the shared [`DepthBuffer`].
//!
//! A draw runs in two steps:
//! - [`job`]: for every limb of every unit, the limb's grid-to-world matrix (HVA frame, first-layer
//!   translation scale, turret and barrel placement, unit facing and position, see
//!   [`crate::scene`]), the screen outline of the box of its filled cells, and its shading table
//!   ([`light`]: one entry per normal index, computed once per limb per draw).
//! - [`march`]: every pixel under a job's outline marches its ray through the limb, and the first
//!   filled cell becomes a pixel of the target's format ([`pixel`]); a limb whose cells cover at
//!   most [`SPLAT_FOOTPRINT_MAX`] pixels each is splatted instead when cheaper ([`splat`]: one
//!   depth-tested pixel per voxel, or each visible voxel face rasterised); a limb whose screen
//!   rectangle already holds nearer depths everywhere is skipped.
//!
//! [`draw_cached`] is the same draw through a [`DrawCache`] kept across frames ([`cache`]: each
//! unit piece recorded once per key into a sprite with per-pixel depth, then blitted).
//!
//! With [`RenderOptions::lod`] on, a perspective draw takes each far limb from a coarser copy
//! built at load ([`lod`]: the coarsest level whose cell still projects to at most about a
//! pixel; the copies' rule is in `volume/lod.rs`).
//!
//! Beside the draw: cameras for voxel scenes ([`camera`]) and the limb-box outlines of the viewer
//! ([`outline`]).

mod cache;
mod camera;
mod convert;
mod footprint;
mod job;
mod light;
mod lod;
mod march;
mod occlusion;
mod outline;
mod pixel;
mod splat;

use glam::Vec3;
use modex::{BlendTables, Camera, DepthBuffer, DrawStats, Target};

use crate::model::{NoFrames, TableChoice};
use crate::scene::Instance;
use modex_vxl::Vpl;

pub use cache::{CacheStats, DrawCache, DEFAULT_BUDGET_BYTES, DEFAULT_FACINGS};
pub use camera::{frame_scene, game_camera};
pub use light::{LightSource, Shading};
pub use lod::{Lod, LOD_FOOTPRINT};
pub use outline::{draw_limb_outlines, limb_outlines};
use pixel::Shade;
pub use pixel::VoxelPixel;

/// Render settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    /// How voxels are lit.
    pub shading: Shading,
    /// Which normal table shades the models.
    pub table: TableChoice,
    /// Which game's light direction.
    pub light: LightSource,
    /// Direction towards a light in world space that replaces the game's fixed light (`light`):
    /// scenes with a moving sun, like the demo's.
    pub sun: Option<Vec3>,
    /// Draw row bands in parallel on the current rayon pool.
    pub parallel: bool,
    /// When limbs are splatted (their voxels projected) instead of ray-marched.
    pub splat: Splatting,
    /// Whether far limbs are drawn from their coarser levels of detail ([`Lod`]; off by default:
    /// the exact picture).
    pub lod: Lod,
}

/// When a limb is splatted (its voxels projected: one depth-tested pixel each up to
/// [`SPLAT_FOOTPRINT`], each visible face rasterised above it) instead of ray-marched. Only a
/// limb each of whose cells covers at most [`SPLAT_FOOTPRINT_MAX`] pixels is ever splatted: there a
/// splat covers the pixels the marcher covers, so the switch leaves no holes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Splatting {
    /// Splat such a limb when that is also cheaper than marching it (at most three voxels per
    /// ray its outline would cast, a voxel of several pixels counting more).
    #[default]
    WhenCheaper,
    /// Splat every such limb (tests of the switch, benchmarks).
    Always,
    /// March every limb.
    Never,
}

/// Largest screen footprint of one cell, in pixels (width and height of its projected cube), at
/// which a limb is splatted one pixel per voxel.
pub const SPLAT_FOOTPRINT: f32 = 1.0;

/// Largest screen footprint of one cell at which a limb may be splatted at all: above
/// [`SPLAT_FOOTPRINT`] each visible voxel is rasterised over the pixels its projected cube covers
/// (every pixel centre inside the cube's outline, at the depth the ray through it enters the
/// cube), so the splat covers the marcher's pixels with the marcher's nearest cells.
pub const SPLAT_FOOTPRINT_MAX: f32 = 32.0;

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            shading: Shading::Game,
            table: TableChoice::Declared,
            light: LightSource::Auto,
            sun: None,
            parallel: true,
            splat: Splatting::WhenCheaper,
            lod: Lod::Off,
        }
    }
}

/// Why a scene cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// A piece of the scene cannot be placed.
    #[error(transparent)]
    NoFrames(#[from] NoFrames),
    /// The camera's viewport, the target and the depth buffer are not all the same size.
    #[error(transparent)]
    SizeMismatch(#[from] modex::SizeMismatch),
}

/// Draw a scene into `target`, in its own pixel format, depth-tested against `depth`.
///
/// `vpl` holds the colours: its palette gives the voxels' colours, its lighting pages the 8-bit
/// shading (lit voxels are `vpl[page][colour]`, unlit ones their colour as stored); true-colour
/// targets get the palette colour times the brightness of the voxel's normal. The camera's
/// viewport, the target and the depth buffer must have the same size.
pub fn draw<T: Target>(
    instances: &[Instance<'_>],
    camera: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
    target: &mut T,
    depth: &mut DepthBuffer,
) -> Result<DrawStats, DrawError>
where
    T::Px: VoxelPixel,
{
    modex::SizeMismatch::check(target, depth, camera)?;
    Ok(T::Px::draw_pixels(
        instances,
        camera,
        vpl,
        opts,
        target.pixels_mut(),
        depth,
    )?)
}

/// [`draw`] through `cache`: every opaque unit piece is blitted from the cache's sprite for its
/// key (recorded now when missing), and the rest (translucent units, pieces cut by the screen
/// edge, and everything under a perspective camera) is drawn as [`draw`] draws it. The key, the
/// error bound and the memory budget are in `docs/design.md` ("The voxel draw cache");
/// [`DrawCache::stats`] tells what this draw did.
pub fn draw_cached<'m, T: Target>(
    cache: &mut DrawCache<'m>,
    instances: &[Instance<'m>],
    camera: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
    target: &mut T,
    depth: &mut DepthBuffer,
) -> Result<DrawStats, DrawError>
where
    T::Px: VoxelPixel,
{
    modex::SizeMismatch::check(target, depth, camera)?;
    Ok(cache::draw_cached::<T::Px>(
        cache,
        instances,
        camera,
        vpl,
        opts,
        target.pixels_mut(),
        depth,
    )?)
}

/// The 8-bit translucency tables of `vpl`'s palette: the VPL's own, unless its palette was
/// changed since it was made (then new ones, kept in `fresh` for this draw).
fn blend_tables<'t>(vpl: &'t Vpl, fresh: &'t mut Option<BlendTables>) -> &'t BlendTables {
    match vpl.blend_tables() {
        Some(t) => t,
        None => fresh.insert(BlendTables::new(&vpl.palette)),
    }
}

/// The draw proper, once sizes are checked: the jobs, then the march into `pixels`.
fn draw_pixels<P: Shade>(
    instances: &[Instance<'_>],
    camera: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
    pixels: &mut [P],
    depth: &mut DepthBuffer,
) -> Result<DrawStats, NoFrames> {
    let jobs = job::prepare(instances, camera, opts, vpl.page_count())?;
    let screen = march::Screen::new(camera);
    let mut fresh = None;
    let tables = blend_tables(vpl, &mut fresh);
    let ctx = march::DrawContext {
        screen: &screen,
        vpl,
        tables,
    };
    let rays = march::march_bands(&ctx, &jobs, pixels, depth.values_mut(), opts.parallel);
    Ok(DrawStats {
        limbs: jobs.len(),
        rays,
        ..DrawStats::default()
    })
}
