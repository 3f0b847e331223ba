//! Per-format helpers of the commands, one module per format family: what `info` says about a
//! file, how `render` and `view` draw it, what `export` writes. A file is read once and its format
//! detected by `modex_assets` (each format crate's `sniff`, then the extension) in the command
//! modules; each family module maps the command's arguments to library calls.

pub mod cutscene;
mod mdl7;
pub mod model;
pub mod model_render;
mod obj_export;
pub mod palette;
mod stories;
mod target;
pub mod voxel;
pub mod wmb;
pub mod wmb_export;
mod wmb_files;
pub mod wmb_render;

/// A summary of one file for `modex info`.
pub struct Description {
    /// One JSON object with at least a `format` key.
    pub json: serde_json::Value,
    /// Human-readable lines.
    pub text: String,
}
