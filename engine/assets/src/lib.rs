//! # modex-assets — from a path the user typed to the format crates
//!
//! The layer every frontend (the `modex` binary, viewers, tools) calls before a decoder:
//!
//! - [`detect`] and [`Format`]: which format a file is, by each format crate's own `sniff`, then
//!   the extension, then the layout (rule and order in [`mod@format`]).
//! - [`Asset`]: a file read once ([`modex::OpenedFile`], with its folder for siblings) and its
//!   format; an unknown one is an [`AssetError`] that shows the first bytes.
//! - [`load_palette`] / [`PaletteFile`]: the one way a palette file is read (PCX trailer,
//!   TPWM/APAL, VPL, VGA 6/8-bit), documented with where it differs from the loaders it replaces
//!   in [`mod@palette`].
//!
//! No window, audio device, terminal or CLI dependency, of its own or through the format crates it
//! uses: this crate only reads files and answers (the exporters' progress bars are the binary's).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod asset;
pub mod format;
pub mod palette;

pub use asset::{Asset, AssetError};
pub use format::{detect, detect_magic, Family, Format};
pub use palette::{load_palette, open_palette, PaletteError, PaletteFile, PaletteSource};
