//! # modex-vxl — the Westwood voxel formats
//!
//! Decoders for VXL models ([`vxl`]), HVA motion ([`hva`]) and VPL lighting pages ([`vpl`]), the
//! four VXL normal tables ([`normals`]), and a small VXL/HVA writer ([`encode`]) that tests, fuzz
//! seeds, benches and the demo's generated units build models with.
//!
//! A format crate: the decoders take `&[u8]` and answer with the decoded file or a
//! [`modex::FormatError`] naming the field and byte offset; nothing here draws or reads the disk.
//! How the game puts the files together (which pieces a unit loads, which VPL lights it) and the
//! ray-marcher that draws them are `modex-voxel`'s.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod encode;
pub mod hva;
pub mod normals;
pub mod vpl;
pub mod vxl;

pub use hva::Hva;
pub use normals::VxlNormalTable;
pub use vpl::Vpl;
pub use vxl::{Limb, Voxel, Vxl};
