//! Which lighting pages shade a model shown outside the game.
//!
//! The game always shades voxels with its `VOXELS.VPL`. A model opened on its own has no fixed
//! VPL, so [`lighting_for`] picks one by a fixed order of preference, the same for every frontend:
//! 1. a palette file the user named: a `.vpl` is used as it is; any other file is a palette (a PCX,
//!    recognised by its first byte 0x0A, or 768 bytes of RGB) from which pages are made with
//!    [`Vpl::from_palette`];
//! 2. else `voxels.vpl` in the model's folder (any case);
//! 3. else pages made from the palette embedded in the model's first piece that has one;
//! 4. else pages made from a grey ramp.

use std::io;

use modex::{FileSource, FormatError, OpenedFile, Palette};

use crate::set::VoxelSet;
use crate::vpl::{self, Vpl};

/// The name of the game's lighting file, looked for beside a model.
const FOLDER_VPL: &str = "voxels.vpl";

/// The lighting file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LightingError {
    /// A lighting or palette file exists but could not be read.
    #[error("cannot read palette {name}: {source}")]
    Unreadable {
        /// The file.
        name: String,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A lighting or palette file does not decode.
    #[error("palette {name}: {source}")]
    Invalid {
        /// The file.
        name: String,
        /// Where decoding stopped.
        #[source]
        source: FormatError,
    },
}

/// The lighting pages (and palette) for `set`: from `given` (the user's palette file), else
/// `voxels.vpl` in `folder`, else the model's own palette, else a grey ramp (see the module
/// documentation for the full rule). Logs which one was taken.
pub fn lighting_for(
    set: &VoxelSet,
    given: Option<&OpenedFile>,
    folder: &dyn FileSource,
) -> Result<Vpl, LightingError> {
    if let Some(file) = given {
        let name = file.path().display().to_string();
        let is_vpl = file.extension().as_deref() == Some("vpl");
        return palette_file(&name, file.bytes(), is_vpl);
    }
    match folder.read(FOLDER_VPL) {
        Ok(Some(bytes)) => {
            log::info!("lighting pages from {FOLDER_VPL} in the model's folder");
            return palette_file(FOLDER_VPL, &bytes, true);
        }
        Ok(None) => {}
        Err(source) => {
            return Err(LightingError::Unreadable {
                name: FOLDER_VPL.to_string(),
                source,
            })
        }
    }
    let embedded = [&set.body, &set.turret, &set.barrel]
        .into_iter()
        .flatten()
        .find_map(|m| m.vxl.embedded_palette.as_ref());
    let palette = match embedded {
        Some(rgb) => {
            log::info!(
                "no VPL given or beside the model: lighting pages made from the model's own palette"
            );
            Palette::from_rgb_bytes(&rgb[..]).map_err(|source| LightingError::Invalid {
                name: "the model's palette".to_string(),
                source,
            })?
        }
        None => {
            log::info!("no VPL given or beside the model, and no palette in it: a grey ramp");
            Palette::grey_ramp()
        }
    };
    Ok(Vpl::from_palette(&palette, vpl::GAME_PAGE_COUNT))
}

/// A VPL (`is_vpl`) or a palette file (PCX or raw RGB) turned into lighting pages.
fn palette_file(name: &str, bytes: &[u8], is_vpl: bool) -> Result<Vpl, LightingError> {
    let invalid = |source| LightingError::Invalid {
        name: name.to_string(),
        source,
    };
    if is_vpl {
        return vpl::decode(bytes).map_err(invalid);
    }
    let palette = if bytes.first() == Some(&0x0a) {
        Palette::from_pcx(bytes)
    } else {
        Palette::from_rgb_bytes(bytes)
    }
    .map_err(invalid)?;
    Ok(Vpl::from_palette(&palette, vpl::GAME_PAGE_COUNT))
}
