//! What `modex info` says about a file, as text and JSON: one summary per format, shared by the
//! binary and the web page's `#info`, so both show the same lines for the same file.
//!
//! A file is described from its bytes and the [`FileSource`] of its folder (a VXL's HVA is read
//! from there), never from a disk path, so the page, which has only the files a user dropped,
//! prints what the binary prints. The one thing a frontend decides itself is where a level's
//! entity files are looked for ([`EntityFiles`], the level module's): the binary searches the game's folders on disk
//! as GameStudio did, the page searches the dropped files.

mod cutscene;
mod mdl7;
mod model;
mod names;
mod palette;
mod stories;
mod voxel;
mod wmb;

use modex::{FileSource, FormatError};
use modex_assets::{Format, PaletteError};

pub use crate::level::EntityFiles;

pub use names::{decode_name, decode_names, Codepage};

/// A summary of one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    /// One JSON object with at least a `format` key (`modex info --json`).
    pub json: serde_json::Value,
    /// Human-readable lines, without the file's name (the frontend puts it above them).
    pub text: String,
}

/// The file to describe.
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    /// Its name (as given, for messages and the palette rule's extension).
    pub name: &'a str,
    /// Its format, as `modex_assets::detect` found it.
    pub format: Format,
    /// Its bytes.
    pub bytes: &'a [u8],
    /// The files beside it: a VXL's HVA is read from here.
    pub folder: &'a dyn FileSource,
}

/// Why a file could not be described.
#[derive(Debug, thiserror::Error)]
pub enum InfoError {
    /// The decoder refused the file; the error names the format, field and offset.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The palette rule refused the file.
    #[error(transparent)]
    Palette(#[from] PaletteError),
    /// A file beside it (a VXL's HVA) exists but could not be read.
    #[error("{name}: {source}")]
    Sibling {
        /// The sibling's name.
        name: String,
        /// The read error.
        source: std::io::Error,
    },
    /// A sibling was read and its decoder refused it.
    #[error("{name}: {source}")]
    SiblingFormat {
        /// The sibling's name.
        name: String,
        /// The decoder's error.
        source: FormatError,
    },
}

/// `modex info` for `file`: its format family's summary. Frame names are decoded with
/// `codepage` when they are not plain ASCII ([`decode_name`]); a level's entity files are looked
/// up in `entities`.
pub fn describe(
    file: &Subject,
    codepage: Option<Codepage>,
    entities: &dyn EntityFiles,
) -> Result<Description, InfoError> {
    let bytes = file.bytes;
    Ok(match file.format {
        Format::Wmb => wmb::describe(bytes, entities)?,
        Format::Mdl if modex_mdl::mdl7::sniff(bytes) => mdl7::describe(bytes, codepage)?,
        Format::Mdl => model::describe_mdl(bytes, codepage)?,
        Format::Hmp => model::describe_hmp(bytes)?,
        Format::StoriesMdl => stories::describe(bytes)?,
        Format::Vxl => voxel::describe_vxl(file)?,
        Format::Hva => voxel::describe_hva(bytes)?,
        Format::Vpl => voxel::describe_vpl(bytes)?,
        Format::Bbhd => cutscene::describe_clip(bytes)?,
        Format::Lib => cutscene::describe_lib(bytes)?,
        Format::Tpwm => cutscene::describe_tpwm(bytes)?,
        Format::Voc => cutscene::describe_voc(bytes)?,
        Format::Ascr => cutscene::describe_script(bytes)?,
        Format::Pcx | Format::Palette => palette::describe(file)?,
    })
}

/// The text `modex info` prints for a file: its name, then each line of the summary indented by
/// two spaces.
pub fn listing(name: &str, description: &Description) -> String {
    let mut text = format!("{name}:\n");
    for line in description.text.lines() {
        text.push_str("  ");
        text.push_str(line);
        text.push('\n');
    }
    text
}
