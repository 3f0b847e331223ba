//! # modex — the engine core
//!
//! What every part of modex shares: the 8-bit mode-X framebuffer ([`IndexedFrame`]), palettes and
//! fades ([`Palette`]), the true-colour pixel formats of the era ([`Rgb565`], [`Argb4444`],
//! [`Argb8888`]) with typed [`Surface`]s, a shared [`DepthBuffer`], 22.10 fixed point ([`Fixed`]),
//! normal tables, the bounds-checked [`ByteReader`] and [`FormatError`] every loader uses, PNG in and
//! out, the presenter (window or headless) and the audio mixer.
//!
//! Format decoders live in the crates beside this one (`modex-raster`, `modex-voxel`,
//! `modex-cutscene`); they depend on this crate with default features off, so they build without a
//! window system or audio device.

pub mod audio;
pub mod camera;
pub mod depth;
pub mod error;
pub mod fixed;
pub mod float;
pub mod frame;
pub mod normals;
pub mod palette;
pub mod pixel;
pub mod pngio;
pub mod present;
mod quake_palette;
pub mod reader;
pub mod samples;

pub use audio::{AudioOutput, Mixer, Repeat, Sound};
pub use camera::{Camera, Projection};
pub use depth::DepthBuffer;
pub use error::{ErrorKind, FormatError, FormatResult};
pub use fixed::Fixed;
pub use frame::IndexedFrame;
pub use palette::Palette;
pub use pixel::{Argb4444, Argb8888, Pixel, Rgb565, Surface};
pub use reader::ByteReader;

/// The window library, re-exported so binaries read keys with the same types the presenter uses.
#[cfg(feature = "window")]
pub use minifb;
