//! The software rasterizer: perspective-correct, textured, Gouraud-lit, z-buffered triangles drawn
//! into any [`modex::Target`] whose pixels are a [`RasterPixel`] (the 8-bit mode-X frame and the
//! 565 / 4444 / 8888 surfaces), band-parallel with rayon.
//!
//! Structure (Quake's renderer is the model: setup apart from spans):
//! - `clip`: near plane and guard band in homogeneous clip space.
//! - `setup`: sub-pixel snapping, exact edge functions with the top-left fill rule, back-face
//!   culling, attribute gradients.
//! - `dispatch`: vector span kernels (AVX2 8888) chosen at run time; the crate's one `unsafe`.
//! - `span`: the span loop (generic over `Paint`).
//! - `bands`: the parallel band driver (binning, the band queue, the in-band clear).
//! - `pixel`: the per-format painters and the [`RasterPixel`] trait.
//! - `light`: the scene light, normal-table lighting and the palette shade table.
//! - `texture`: skins prepared for each pixel type.
//! - `entity`: the draw call for an MDL/HMP model as an A5 entity.
//!
//! Conventions: [`modex::Camera`] (Z up), depth buffer holds view depth (smaller = nearer, shared
//! with the voxel renderer), front faces counter-clockwise, pixel centres at half-integers.

mod bands;
mod clip;
mod dispatch;
mod entity;
mod light;
mod pixel;
mod setup;
mod shared;
mod span;
mod texture;

pub use entity::{framing_camera, Entity, PreparedModel, Renderer};
pub use light::{Light, Material, LIGHT_MAX, LIGHT_ONE};
pub use pixel::RasterPixel;
pub use setup::Cull;
pub use shared::SharedTextures;
pub use span::DepthMode;
pub use texture::BLANK_RGB;
