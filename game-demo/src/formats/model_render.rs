//! CLI rendering of 3D GameStudio models and terrain: the interactive viewer and headless renders.

use anyhow::{bail, Result};

use super::Format;
use crate::cli::{RenderArgs, ViewArgs};

pub fn view(_args: &ViewArgs, fmt: Format, _bytes: &[u8]) -> Result<()> {
    bail!("{fmt:?} viewer is not built yet")
}

pub fn render(_args: &RenderArgs, fmt: Format, _bytes: &[u8]) -> Result<()> {
    bail!("{fmt:?} rendering is not built yet")
}
