//! # modex-mdl — 3D GameStudio and GTA Stories models, decoded and written
//!
//! The model format crate, apart from the rasterizer that draws its output (as ruffle keeps its
//! `swf` crate apart from the player): every decoder takes the file's bytes and answers with the
//! decoded file or a typed [`modex::FormatError`] naming the field and byte offset, and knows
//! nothing of drawing.
//!
//! - 3D GameStudio MDL2..MDL5 and Quake 1 IDPO models ([`MdlFile`], [`mdl`]), MDL7 models with
//!   groups, skeletons and animation ([`mdl7`]), HMP4..HMP7 terrain ([`HmpFile`], [`hmp`]); their
//!   skins ([`skin`], embedded [`dds`], [`external`] skin files through `image` and `pcx`).
//! - GTA Liberty/Vice City Stories PS2 models ([`StoriesModel`], [`stories_mdl`]).
//! - 3D GameStudio WMB7 levels ([`wmb::WmbFile`], [`wmb`]): blocks, textures, lightmaps and the
//!   objects that place entities; its writer is [`wmb::encode`].
//! - The renderer-ready [`Model`] they all produce, and [`facing`]: which side of a surface is its
//!   front, where every file's convention becomes the [`Model`]'s (counter-clockwise seen from the
//!   front, normals pointing out).
//! - Writers, named `*_encode` like every writer of modex: MDL5 ([`mdl_encode`]), HMP7
//!   ([`hmp_encode`]), Stories ([`stories_mdl_encode`]); and the Wavefront OBJ/MTL writer every
//!   model exporter shares ([`obj`]).
//! - The 162-entry MDL normal table ([`normals`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod dds;
pub mod external;
pub mod facing;
pub mod hmp;
pub mod hmp_encode;
pub mod mdl;
pub mod mdl7;
pub mod mdl_encode;
mod model;
pub mod normals;
pub mod obj;
pub mod skin;
pub mod stories_mdl;
pub mod stories_mdl_encode;
mod texels;
pub mod wmb;

pub use hmp::HmpFile;
pub use mdl::MdlFile;
pub use model::{Frame, Model, ModelDefect, Skin, SkinPixels, Triangle};
pub use stories_mdl::StoriesModel;
pub use texels::Rgba8;
