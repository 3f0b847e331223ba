//! # modex-voxel — Westwood VXL/HVA/VPL voxels and the ray-marcher
//!
//! Decoders for VXL models ([`vxl`]), HVA motion ([`hva`]) and VPL lighting pages ([`vpl`]); the
//! game's rules for assembling a pair ([`model`]) and for which pieces a type loads ([`set`]); the
//! per-limb occupancy the renderer marches through ([`volume`]); and the ray-marcher itself
//! ([`render`]), which draws into the engine's 8-bit [`modex::IndexedFrame`] or a true-colour
//! [`modex::Surface`], depth-tested against the shared [`modex::DepthBuffer`].
//!
//! Decoders never render; every decoder takes `&[u8]` and answers with a [`modex::FormatResult`].
//! [`mod@write`] is a small VXL/HVA writer used by tests, fuzz seeds and benches to build models in code.

pub mod hva;
pub mod model;
pub mod render;
pub mod set;
pub mod volume;
pub mod vpl;
pub mod vxl;
pub mod write;

pub use hva::Hva;
pub use model::{DrawError, Quirk, TableChoice, VoxelModel};
pub use render::{
    draw_argb, draw_indexed, DrawStats, Instance, LightSource, Pose, RenderOptions, Shading, Unit,
};
pub use set::{DirSource, MemorySource, Piece, TypeKind, VoxelSet, VoxelSource, VoxelType};
pub use volume::LimbVolume;
pub use vpl::Vpl;
pub use vxl::{Limb, Vxl};
