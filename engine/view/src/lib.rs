//! What a frontend shows of a model, terrain or voxel file: the same picture from every frontend.
//!
//! `modex render` (the binary) and the web page (`web/`, WebAssembly) both load a file from its
//! bytes and the [`modex::FileSource`] of its folder (a folder on disk, or the files a user dropped
//! on the page), and frame, light and draw it through this crate, so the page's canvas holds the
//! bytes `modex render` writes for the same size, yaw, pitch, frame and format. The camera rules
//! (the default pitch, the flat-model pitch, the over-the-shoulder sun, the orthographic voxel
//! orbit) therefore live here and nowhere else; the frontends keep their argument parsing, their
//! range checks and where the pixels go. What `modex info` says about a file is here too
//! ([`info`]), so the page's `#info` is the binary's text, and so is walking through a level
//! ([`level::Walker`]: gravity, steps and collision, with no window or key in it).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod colours;
mod error;
pub mod info;
pub mod level;
pub mod model;
pub mod target;
pub mod voxel;

pub use error::ViewError;

/// `modex render`'s yaw for models and voxel units when none is given, degrees. A level is seen from its
/// start or orbited from its overview instead ([`level::Viewpoint`]).
pub const DEFAULT_YAW: f32 = 30.0;

/// `modex render`'s pitch when none is given, degrees (the model viewer opens at 15).
pub const DEFAULT_PITCH: f32 = 10.0;
