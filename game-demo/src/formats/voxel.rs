//! CLI for Westwood voxels (VXL, HVA, VPL).

use std::path::Path;

use anyhow::{bail, Result};

use super::{Description, Format};
use crate::cli::{RenderArgs, ViewArgs};

pub fn describe(_path: &Path, fmt: Format, _bytes: &[u8]) -> Result<Description> {
    bail!("{fmt:?} support is not built yet")
}

pub fn view(_args: &ViewArgs, fmt: Format, _bytes: &[u8]) -> Result<()> {
    bail!("{fmt:?} viewer is not built yet")
}

pub fn render(_args: &RenderArgs, fmt: Format, _bytes: &[u8]) -> Result<()> {
    bail!("{fmt:?} rendering is not built yet")
}
