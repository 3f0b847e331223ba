//! # modex-raster — 3D GameStudio models and the software rasterizer
//!
//! Decoders for MDL2..MDL5 models ([`MdlFile`]) and HMP4..HMP7 terrain ([`HmpFile`]), one module per
//! format, both producing one renderer-ready [`Model`]; writers for the MDL5 and HMP7 files the demo
//! ships ([`mdl_encode`], [`hmp_encode`]); GTA Liberty/Vice City Stories PS2 models
//! ([`StoriesModel`], [`stories_mdl`]) with their writer ([`stories_mdl_encode`]); the Wavefront OBJ
//! writer every model exporter shares ([`obj`]); and the triangle rasterizer that draws models into any
//! [`modex::Target`] of [`RasterPixel`]s: the 8-bit mode-X [`modex::IndexedFrame`] and the
//! 565 / 4444 / 8888 [`modex::Surface`]s.
//!
//! Drawing a model:
//!
//! ```
//! use modex::{DepthBuffer, IndexedFrame, Palette, Target};
//! use modex_raster::{framing_camera, Entity, Light, Model, Renderer};
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
//! [`modex::with_threads`] around the draws.

// `unsafe` only in `raster::dispatch` (the AVX2 span kernel behind a CPU-feature check).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod dds;
pub mod external;
pub mod facing;
pub mod hmp;
pub mod hmp_encode;
pub mod mdl;
pub mod mdl7;
pub mod mdl_encode;
mod model;
pub mod obj;
mod raster;
pub mod skin;
pub mod stories_mdl;
pub mod stories_mdl_encode;

pub use hmp::HmpFile;
pub use mdl::MdlFile;
pub use model::{Frame, Model, ModelDefect, Skin, SkinPixels, Triangle};
pub use raster::{
    framing_camera, Cull, DepthMode, Entity, Light, PreparedModel, RasterPixel, Renderer,
    LIGHT_MAX, LIGHT_ONE,
};
pub use stories_mdl::StoriesModel;
