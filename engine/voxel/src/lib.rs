//! # modex-voxel — Westwood voxel units: the game's loading rules and the ray-marcher
//!
//! Built on the format crate `modex-vxl` (VXL models, HVA motion, VPL lighting pages): the
//! game's rules for assembling a pair ([`VoxelModel`]), for which pieces a type loads
//! ([`VoxelSet`]) and for which lighting pages shade a model ([`lighting_for`]); scenes of posed
//! units ([`Instance`]); and the ray-marcher ([`draw`]), which draws natively into any
//! [`modex::Target`] (the engine's 8-bit [`modex::IndexedFrame`] or a 565 / 4444 / 8888
//! [`modex::Surface`]), depth-tested against the shared [`modex::DepthBuffer`], and returns the
//! engine's [`modex::DrawStats`]; [`draw_cached`] is the same draw through a [`DrawCache`] kept
//! across frames, which blits each unit limb from a sprite recorded once per key.
//!
//! Levels of detail ([`Lod`], [`RenderOptions::lod`], off by default): at load each limb also gets
//! copies with cells 2 and 4 fine cells wide (a coarse cell is filled when at least `1/f` of its
//! fine cells are; colour and normal are the most common among its fine voxels with an open
//! face); a perspective draw takes each limb from the coarsest level whose cell projects to at
//! most [`LOD_FOOTPRINT`] pixels, so units near the eye stay exact. Measured error and the bench
//! figures: `docs/benchmarks.md`, "Issue 30".
//!
//! Loading never draws and drawing never loads: the loading rules read files through a
//! [`modex::FileSource`] and decode them with `modex-vxl`, and the renderer only sees decoded
//! models. The crate root is the whole API; the modules behind it are private.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod lighting;
mod model;
mod render;
mod scene;
mod set;
mod volume;

// Loading: which pieces a type loads, how a pair is assembled, which pages light it.
pub use lighting::{is_degenerate_palette, lighting_for, LightingError};
pub use model::{NoFrames, Quirk, TableChoice, VoxelModel};
pub use set::{LoadProblem, Piece, TypeKind, VoxelSet, VoxelType};
pub use volume::{Hit, LimbVolume};

// Scenes: units, their poses, and the box they fill.
pub use scene::{world_bounds, Instance, Pose, Unit};

// Drawing: the direct draw, its options and pixel formats, cameras and outlines.
pub use render::{
    draw, draw_limb_outlines, frame_scene, game_camera, limb_outlines, DrawError, LightSource, Lod,
    RenderOptions, Shading, Splatting, VoxelPixel, LOD_FOOTPRINT, SPLAT_FOOTPRINT,
    SPLAT_FOOTPRINT_MAX,
};

// The draw cache kept across frames and the settings a caller chooses or is bound by.
pub use render::{draw_cached, CacheStats, DrawCache, DEFAULT_BUDGET_BYTES, DEFAULT_FACINGS};
