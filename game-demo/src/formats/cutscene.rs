//! CLI for Battle Isle 2 cutscenes (LIB, TPWM, BBHD, ASCR, VOC, palettes).

use std::path::Path;

use anyhow::{bail, Result};

use super::{Description, Format};
use crate::cli::{ExportArgs, PlayArgs};

pub fn describe(_path: &Path, fmt: Format, _bytes: &[u8]) -> Result<Description> {
    bail!("{fmt:?} support is not built yet")
}

pub fn play(_args: &PlayArgs) -> Result<()> {
    bail!("cutscene playback is not built yet")
}

pub fn export(_args: &ExportArgs, fmt: Option<Format>, _bytes: &[u8]) -> Result<()> {
    bail!("{fmt:?} export is not built yet")
}
