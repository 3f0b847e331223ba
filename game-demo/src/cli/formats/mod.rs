//! Per-format helpers of the commands, one module per format family: how `render` and `view`
//! draw a file, what `export` writes (what `info` says is `modex_view::info`'s, shared with the web
//! page). A file is read once and its format
//! detected by `modex_assets` (each format crate's `sniff`, then the extension) in the command
//! modules; each family module maps the command's arguments to library calls.

pub mod cutscene;
mod hud;
pub mod keys;
pub mod model;
pub mod model_render;
mod obj_export;
pub mod palette;
mod stories;
mod target;
pub mod voxel;
pub mod wmb;
pub mod wmb_export;
pub mod wmb_files;
pub mod wmb_render;
