//! Why the page cannot show what it was asked to.

use modex_view::ViewError;

/// Why a view cannot be drawn: the loader's typed error, or a view parameter out of range.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    /// Loading or drawing failed.
    #[error(transparent)]
    View(#[from] ViewError),
    /// `frame` is past the model's frames (what `modex render --frame` refuses).
    #[error("frame {frame} is out of range: the model has {frames} frames")]
    Frame {
        /// Asked for.
        frame: usize,
        /// The model's.
        frames: usize,
    },
    /// `facing` is past 255 (what `modex render --facing` refuses).
    #[error("facing {0} is out of range 0..=255")]
    Facing(u32),
    /// The file shown has no bytes (`modex`'s message for an empty file).
    #[error("{0}: the file is empty (0 bytes)")]
    Empty(String),
    /// None of the dropped files is a model, unit or cutscene (the message `modex` prints for
    /// an unknown format).
    #[error("{name}: unknown format (first bytes {first:02x?})")]
    Unknown {
        /// The first file dropped.
        name: String,
        /// Its first (up to 8) bytes.
        first: Vec<u8>,
    },
    /// A view was asked for with no model or unit shown.
    #[error("no model, unit or level is shown")]
    NothingShown,
    /// The draw could not run.
    #[error("{0}")]
    Threads(String),
    /// The palette chosen could not be read.
    #[error(transparent)]
    Palette(#[from] modex_assets::PaletteError),
    /// The palette chosen is not among the dropped files.
    #[error("{0}: no such palette among the dropped files")]
    NoPalette(String),
    /// The cutscene could not be loaded.
    #[error(transparent)]
    Cutscene(#[from] modex_cutscene::SceneError),
}
