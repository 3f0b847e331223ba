//! CLI for 3D GameStudio models and terrain (MDL, HMP): `info` and skin export.

use std::path::Path;

use anyhow::{bail, Result};

use super::{Description, Format};
use crate::cli::ExportArgs;

pub fn describe(_path: &Path, fmt: Format, _bytes: &[u8]) -> Result<Description> {
    bail!("{fmt:?} support is not built yet")
}

pub fn export(_args: &ExportArgs, fmt: Format, _bytes: &[u8]) -> Result<()> {
    bail!("{fmt:?} export is not built yet")
}
