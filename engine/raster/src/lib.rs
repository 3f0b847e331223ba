//! # modex-raster — the software triangle rasterizer
//!
//! Draws the renderer-ready [`modex_mdl::Model`]s that the model decoders of `modex-mdl` produce
//! (3D GameStudio MDL2..MDL7 and HMP, GTA Stories) into any [`modex::Target`] of [`RasterPixel`]s:
//! the 8-bit mode-X [`modex::IndexedFrame`] and the 565 / 4444 / 8888 [`modex::Surface`]s. It
//! reads models, never files: the decoders live in `modex-mdl`, which knows nothing of drawing.
//!
//! Drawing a model:
//!
//! ```
//! use modex::{DepthBuffer, IndexedFrame, Palette, Target};
//! use modex_mdl::Model;
//! use modex_raster::{framing_camera, Entity, Light, Renderer};
//!
//! fn picture(model: &Model) -> IndexedFrame {
//!     let (w, h) = (160, 120);
//!     let mut renderer = Renderer::new(&Palette::quake());
//!     let camera = framing_camera(model, 0, 120.0, 15.0, w, h);
//!     renderer.light = Light::over_shoulder(&camera, 0.35, 1.3);
//!     let prepared = renderer.prepare(model);
//!     let mut frame = IndexedFrame::new(w, h);
//!     frame.fill(IndexedFrame::flat([0, 0, 0], renderer.palette()));
//!     let mut depth = DepthBuffer::new(w, h);
//!     renderer.draw(&mut frame, &mut depth, &camera, &prepared, &Entity::default()).unwrap();
//!     frame
//! }
//! ```
//!
//! Every draw returns the engine's [`modex::DrawStats`]; thread counts are chosen with
//! [`modex::with_threads`] around the draws. Front faces are the [`modex_mdl::Model`]'s
//! counter-clockwise ones ([`Cull`]).

// `unsafe` only in `raster::dispatch` (the AVX2 span kernel behind a CPU-feature check).
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod raster;

pub use raster::{
    framing_camera, Cull, DepthMode, Entity, Light, Material, PreparedModel, RasterPixel, Renderer,
    SharedTextures, BLANK_RGB, LIGHT_MAX, LIGHT_ONE,
};
