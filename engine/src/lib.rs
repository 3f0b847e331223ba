//! # modex — the engine core
//!
//! What every part of modex shares: the 8-bit mode-X framebuffer ([`IndexedFrame`]), palettes and
//! fades ([`Palette`]), the true-colour pixel formats of the era ([`Rgb565`], [`Argb4444`],
//! [`Argb8888`]) with typed [`Surface`]s, a shared [`DepthBuffer`], 22.10 fixed point ([`Fixed`]),
//! the MDL normal table, the bounds-checked [`ByteReader`] and [`FormatError`] every loader uses,
//! PNG in and out, the presenter (window or headless) and the audio mixer.
//!
//! It also holds what the renderers and frontends share instead of each keeping a copy: the
//! render-target contract ([`Target`]), camera framing ([`Camera::framing`]), the one line routine
//! ([`draw_line`]), the thread-pool helper ([`with_threads`]), the seeded [`Rng`] and the file
//! sources that find a file's siblings ([`FileSource`], [`OpenedFile`]).
//!
//! Format decoders live in the crates beside this one (`modex-raster`, `modex-vxl`,
//! `modex-cutscene`); they depend on this crate with default features off, so they build without a
//! window system or audio device.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod audio;
pub mod blend;
pub mod camera;
pub mod depth;
pub mod error;
pub mod fixed;
pub mod float;
pub mod frame;
pub mod line;
pub mod normals;
pub mod palette;
pub mod pixel;
pub mod pngio;
pub mod present;
mod quake_palette;
pub mod reader;
pub mod rng;
pub mod source;
pub mod stats;
pub mod target;
pub mod threads;

pub use audio::{AudioOutput, Mixer, Repeat, Sound};
pub use blend::{BlendTable, BlendTables, Opacity};
pub use camera::{Camera, Projection};
pub use depth::DepthBuffer;
pub use error::{ErrorKind, FormatError, FormatResult};
pub use fixed::Fixed;
pub use frame::IndexedFrame;
pub use line::draw_line;
pub use palette::Palette;
pub use pixel::{Argb4444, Argb8888, Pixel, Rgb565, Surface};
pub use present::{Present, PresentError};
pub use reader::ByteReader;
pub use rng::Rng;
pub use source::{DirSource, FileSource, MemorySource, OpenedFile, ReadError};
pub use stats::DrawStats;
pub use target::{SizeMismatch, SurfacePixel, Target, TargetFormat};
pub use threads::{with_threads, ThreadPoolError};

/// The window library, re-exported so binaries read keys with the same types the presenter uses.
#[cfg(feature = "window")]
pub use minifb;
