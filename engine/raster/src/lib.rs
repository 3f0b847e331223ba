//! # modex-raster — 3D GameStudio models and the software rasterizer
//!
//! Decoders for MDL2..MDL5 models and HMP terrain (one file per format), and the triangle
//! rasterizer that draws them into the 8-bit mode-X frame and 565/4444/8888 surfaces.

pub mod dds;
pub mod hmp;
pub mod hmp_encode;
pub mod mdl;
pub mod mdl_encode;
pub mod model;
pub mod raster;
pub mod skin;

pub use model::{Frame, Model, Skin, SkinPixels, Triangle};
