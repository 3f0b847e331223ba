//! # modex-voxel — Westwood VXL/HVA/VPL voxels and the ray-marcher
//!
//! Decoders for VXL models ([`vxl`]), HVA motion ([`hva`]) and VPL lighting pages ([`vpl`]); the
//! game's rules for assembling a pair ([`VoxelModel`]), for which pieces a type loads
//! ([`VoxelSet`]) and for which lighting pages shade a model ([`lighting_for`]); scenes of posed
//! units ([`Instance`]); and the ray-marcher ([`draw`]), which draws natively into any
//! [`modex::Target`] (the engine's 8-bit [`modex::IndexedFrame`] or a 565 / 4444 / 8888
//! [`modex::Surface`]), depth-tested against the shared [`modex::DepthBuffer`], and returns the
//! engine's [`modex::DrawStats`].
//!
//! Loading never draws and drawing never loads: the decoders take `&[u8]` and answer with a
//! [`modex::FormatResult`], the loading rules read files through a [`modex::FileSource`], and the
//! renderer only sees decoded models. [`mod@write`] is a small VXL/HVA writer used by tests, fuzz
//! seeds and benches to build models in code.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod hva;
mod lighting;
mod model;
mod render;
mod scene;
mod set;
mod volume;
pub mod vpl;
pub mod vxl;
pub mod write;

pub use hva::Hva;
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
pub use vpl::Vpl;
pub use vxl::{Limb, Vxl};
