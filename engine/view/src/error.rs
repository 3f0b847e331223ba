//! Why a file cannot be shown.

use modex::FormatError;

/// A file could not be loaded or drawn. Decoder errors keep their format, field and offset.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// The decoder refused the file.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The model decoded to no triangle (a corrupt MDL7 can decode to empty groups).
    #[error("{name}: the model holds no triangle to draw")]
    NoTriangles {
        /// The file's name.
        name: String,
    },
    /// The file is of a format this crate does not draw as a model.
    #[error("{format} files are not models")]
    NotAModel {
        /// The detected format.
        format: modex_assets::Format,
    },
    /// The unit's pieces could not be assembled.
    #[error(transparent)]
    Voxel(#[from] modex_voxel::LoadProblem),
    /// No lighting pages could be found or made for the unit.
    #[error(transparent)]
    Lighting(#[from] modex_voxel::LightingError),
    /// The unit has no frame to frame the camera on.
    #[error(transparent)]
    NoFrames(#[from] modex_voxel::NoFrames),
    /// The ray-marcher refused the draw.
    #[error(transparent)]
    VoxelDraw(#[from] modex_voxel::DrawError),
    /// Target, depth buffer and camera sizes differ.
    #[error(transparent)]
    Size(#[from] modex::SizeMismatch),
}
