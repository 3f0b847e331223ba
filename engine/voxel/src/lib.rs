//! # modex-voxel — Westwood voxel units: the game's loading rules and the ray-marcher
//!
//! Built on the format crate `modex-vxl` (VXL models, HVA motion, VPL lighting pages): the
//! game's rules for assembling a pair ([`VoxelModel`]), for which pieces a type loads
//! ([`VoxelSet`]) and for which lighting pages shade a model ([`lighting_for`]); scenes of posed
//! units ([`Instance`]); and the ray-marcher ([`draw`]), which draws natively into any
//! [`modex::Target`] (the engine's 8-bit [`modex::IndexedFrame`] or a 565 / 4444 / 8888
//! [`modex::Surface`]), depth-tested against the shared [`modex::DepthBuffer`], and returns the
//! engine's [`modex::DrawStats`].
//!
//! Loading never draws and drawing never loads: the loading rules read files through a
//! [`modex::FileSource`] and decode them with `modex-vxl`, and the renderer only sees decoded
//! models.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod lighting;
mod model;
mod render;
mod scene;
mod set;
mod volume;

pub use lighting::{is_degenerate_palette, lighting_for, LightingError};
pub use model::{NoFrames, Quirk, TableChoice, VoxelModel};
pub use render::{
    draw, draw_cached, draw_limb_outlines, frame_scene, game_camera, limb_outlines, DrawError,
    LightSource, RenderOptions, Shading, Splatting, VoxelPixel, SPLAT_FOOTPRINT,
    SPLAT_FOOTPRINT_MAX,
};
pub use render::{
    CacheStats, DrawCache, DEFAULT_BUDGET_BYTES, DEFAULT_FACINGS, ERROR_BOUND_PERCENT,
    FAR_BOUND_PERCENT, PERSPECTIVE_BOUND_PX, PERSPECTIVE_PHASES, RECOIL_STEPS, VIEW_DEPTH_STEP,
    VIEW_DIRECTION_STEP,
};
pub use scene::{world_bounds, Instance, Pose, Unit};
pub use set::{LoadProblem, Piece, TypeKind, VoxelSet, VoxelType};
pub use volume::{Hit, LimbVolume};
