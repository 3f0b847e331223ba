//! Which lighting pages shade a model shown outside the game.
//!
//! The game always shades voxels with its `VOXELS.VPL`. A model opened on its own has no fixed
//! VPL, so [`lighting_for`] picks one by a fixed order of preference, the same for every frontend:
//! 1. the lighting the user named (`--palette`): the frontend reads that file with the engine's one
//!    palette rule (`modex_assets::PaletteFile`: a VPL keeps its pages, any other palette is made
//!    into pages with [`Vpl::from_palette`]) and passes the result here;
//! 2. else `voxels.vpl` in the model's folder (any case);
//! 3. else pages made from the palette embedded in the model's first piece that has one, unless
//!    that palette is degenerate ([`is_degenerate_palette`]: all one colour, typically all black,
//!    common in mods because the game never reads it), which would draw a black shape;
//! 4. else pages made from a grey ramp (logging, for a degenerate palette, which file to pass).

use std::io;

use modex::{FileSource, FormatError, Palette};

use crate::set::VoxelSet;
use modex_vxl::vpl::{self, Vpl};

/// The name of the game's lighting file, looked for beside a model.
const FOLDER_VPL: &str = "voxels.vpl";

/// The lighting file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LightingError {
    /// A lighting or palette file exists but could not be read.
    #[error("cannot read palette {name}")]
    Unreadable {
        /// The file.
        name: String,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// A lighting or palette file does not decode.
    #[error("palette {name} does not decode")]
    Invalid {
        /// The file.
        name: String,
        /// Where decoding stopped.
        #[source]
        source: FormatError,
    },
}

/// Whether a palette's RGB triples are all one colour (all black, in the mods that have this): a
/// model lit through it would be one flat shape.
pub fn is_degenerate_palette(rgb: &[u8]) -> bool {
    let mut colours = rgb.chunks_exact(3);
    match colours.next() {
        Some(first) => colours.all(|c| c == first),
        None => true,
    }
}

/// The lighting pages (and palette) for `set`: `given` (the user's choice), else
/// `voxels.vpl` in `folder`, else the model's own palette, else a grey ramp (see the module
/// documentation for the full rule). Logs which one was taken.
pub fn lighting_for(
    set: &VoxelSet,
    given: Option<Vpl>,
    folder: &dyn FileSource,
) -> Result<Vpl, LightingError> {
    if let Some(vpl) = given {
        return Ok(vpl);
    }
    match folder.read(FOLDER_VPL) {
        Ok(Some(bytes)) => {
            log::info!("lighting pages from {FOLDER_VPL} in the model's folder");
            return vpl::decode(&bytes).map_err(|source| LightingError::Invalid {
                name: FOLDER_VPL.to_string(),
                source,
            });
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
        Some(rgb) if is_degenerate_palette(&rgb[..]) => {
            log::warn!(
                "the model's own palette is all one colour (the game never uses it): pass \
                 --palette with the game's voxels.vpl or its unit palette (e.g. unittem.pal); \
                 drawn with a neutral grey ramp meanwhile"
            );
            Palette::grey_ramp()
        }
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

#[cfg(test)]
mod degenerate_tests {
    use super::is_degenerate_palette;
    use modex::Palette;

    #[test]
    fn one_colour_palettes_are_degenerate() {
        assert!(is_degenerate_palette(&[0u8; 768]));
        assert!(is_degenerate_palette(&[9u8; 768]));
        let mut p = vec![0u8; 768];
        p[767] = 1;
        assert!(!is_degenerate_palette(&p));
        assert!(!is_degenerate_palette(&Palette::grey_ramp().to_rgb_bytes()));
    }
}
