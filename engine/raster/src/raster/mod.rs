//! The software rasterizer: perspective-correct, textured, Gouraud-lit, z-buffered triangles drawn
//! into the 8-bit mode-X frame and 565 / 4444 / 8888 surfaces, band-parallel with rayon.
//!
//! Structure (Quake's renderer is the model: setup apart from spans):
//! - [`clip`]: near plane and guard band in homogeneous clip space.
//! - [`setup`]: sub-pixel snapping, exact edge functions with the top-left fill rule, back-face
//!   culling, attribute gradients.
//! - [`span`]: the span loop (generic over [`Paint`]) and the parallel band driver.
//! - [`target`]: the per-format painters and the [`Target`] trait.
//! - [`light`]: the scene light, normal-table lighting and the palette shade table.
//! - [`texture`]: skins prepared for each target.
//! - [`entity`]: the draw call for an MDL/HMP model as an A5 entity.
//!
//! Conventions: [`modex::Camera`] (Z up), depth buffer holds view depth (smaller = nearer, shared
//! with the voxel renderer), front faces counter-clockwise, pixel centres at half-integers.

pub mod clip;
pub mod entity;
pub mod light;
pub mod setup;
pub mod span;
pub mod target;
pub mod texture;

pub use clip::ClipVertex;
pub use entity::{framing_camera, DrawStats, Entity, PreparedModel, Renderer};
pub use light::{Light, ShadeTable, LIGHT_MAX, LIGHT_ONE};
pub use setup::{Cull, TriSetup};
pub use span::{fill, DepthMode, Paint};
pub use target::{Target, TrueColor};
pub use texture::Texture;

/// Run `f` on a rayon pool of `threads` threads (0 = one per core), so every draw inside it uses
/// that many. Fails only if the pool cannot be created.
pub fn with_threads<R: Send>(
    threads: usize,
    f: impl FnOnce() -> R + Send,
) -> Result<R, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(f))
}
