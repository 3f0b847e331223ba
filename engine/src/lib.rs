//! # modex — the engine core
//!
//! What every part of modex shares: the 8-bit mode-X framebuffer ([`IndexedFrame`]), palettes and
//! fades ([`Palette`]) with exact nearest-colour lookups ([`NearestColours`]), the true-colour pixel formats of the era ([`Rgb565`], [`Argb4444`],
//! [`Argb8888`]) with typed [`Surface`]s, a shared [`DepthBuffer`], 22.10 fixed point ([`Fixed`]),
//! the MDL normal table, the bounds-checked [`ByteReader`] and [`FormatError`] every loader uses,
//! PNG in and out, the [`Present`] contract with the headless presenter, and the audio [`Mixer`].
//!
//! It also holds what the renderers and frontends share instead of each keeping a copy: the
//! render-target contract ([`Target`]), camera framing ([`Camera::framing`]), the one line routine
//! ([`draw_line`]), the thread-pool helper ([`with_threads`]), the seeded [`Rng`] and the file
//! sources that find a file's siblings ([`FileSource`], [`OpenedFile`]).
//!
//! Format decoders live in the crates beside this one (`modex-raster`, `modex-vxl`,
//! `modex-cutscene`). The window and the audio device are desktop backends in `modex-desktop`,
//! which only frontends use: this crate names no window system or sound library, so nothing that
//! depends on it builds one, and it has no `unsafe` code.
//!
//! Types are used from the crate root. The modules that are public hold free functions and
//! constants, named through their module: [`pngio`], [`normals`], [`palette`] (VGA and PCX rules),
//! [`blend`] (mixing), [`frame`] (the mode-X size), [`audio`] (the output rate), [`present`] (the
//! window sizing rule), [`cp437`], [`windows1252`], [`fixed`] and [`float`].

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod audio;
pub mod blend;
mod camera;
pub mod cp437;
mod depth;
mod error;
pub mod fixed;
pub mod float;
pub mod frame;
mod line;
mod nearest;
pub mod normals;
pub mod palette;
mod pixel;
pub mod pngio;
pub mod present;
mod quake_palette;
mod reader;
mod rng;
mod source;
mod stats;
mod target;
mod threads;
pub mod trig;
pub mod windows1252;

pub use audio::{Mixer, Repeat, Sound};
pub use blend::{BlendTable, BlendTables, Opacity};
pub use camera::{Camera, Projection};
pub use depth::DepthBuffer;
pub use error::{ErrorKind, FormatError, FormatResult};
pub use fixed::Fixed;
pub use frame::IndexedFrame;
pub use line::draw_line;
pub use nearest::NearestColours;
pub use palette::Palette;
pub use pixel::{Argb4444, Argb8888, Pixel, Rgb565, Surface};
pub use present::{HeadlessPresenter, Present, PresentError};
pub use reader::ByteReader;
pub use rng::Rng;
pub use source::{DirSource, FileSource, MemorySource, OpenedFile, ReadError};
pub use stats::DrawStats;
pub use target::{SizeMismatch, SurfacePixel, Target, TargetFormat};
pub use threads::{with_threads, ThreadPoolError};
