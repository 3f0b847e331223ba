//! Format detection and dispatch of `info`, `view`, `render`, `play` and `export` to one module per
//! format family. Each family module owns its formats' CLI behaviour; this file only routes.

mod cutscene;
mod model;
mod model_render;
mod voxel;

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};

use crate::cli::{ExportArgs, InfoArgs, PlayArgs, RenderArgs, ViewArgs};

/// A file format recognised by magic (or, for formats without one, by extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Mdl,
    Hmp,
    Vxl,
    Hva,
    Vpl,
    Bbhd,
    Lib,
    Tpwm,
    Voc,
    Ascr,
    Pcx,
}

/// Which module handles a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Model,
    Voxel,
    Cutscene,
}

impl Format {
    pub fn family(self) -> Family {
        match self {
            Format::Mdl | Format::Hmp | Format::Pcx => Family::Model,
            Format::Vxl | Format::Hva | Format::Vpl => Family::Voxel,
            Format::Bbhd | Format::Lib | Format::Tpwm | Format::Voc | Format::Ascr => {
                Family::Cutscene
            }
        }
    }
}

/// Detect a format from the first bytes, falling back to the extension for formats with no magic
/// (HVA, VPL, LIB, ASCR scripts).
pub fn detect(path: &Path, bytes: &[u8]) -> Option<Format> {
    let magic = |m: &[u8]| bytes.starts_with(m);
    if bytes.len() >= 4 && (magic(b"MDL") || magic(b"IDPO")) {
        return Some(Format::Mdl);
    }
    if magic(b"HMP") {
        return Some(Format::Hmp);
    }
    if magic(b"Voxel Animation\0") {
        return Some(Format::Vxl);
    }
    if magic(b"BBHD") {
        return Some(Format::Bbhd);
    }
    if magic(b"TPWM") {
        return Some(Format::Tpwm);
    }
    if magic(b"Creative Voice File\x1a") {
        return Some(Format::Voc);
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("hva") => Some(Format::Hva),
        Some("vpl") => Some(Format::Vpl),
        Some("lib") => Some(Format::Lib),
        Some("pcx") if magic(&[0x0a]) => Some(Format::Pcx),
        Some("ascr") | Some("scr") => Some(Format::Ascr),
        _ => None,
    }
}

/// A summary of one file for `modex info`.
pub struct Description {
    /// One JSON object with at least a `format` key.
    pub json: serde_json::Value,
    /// Human-readable lines.
    pub text: String,
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

fn detect_file(path: &Path) -> Result<(Format, Vec<u8>)> {
    let bytes = read(path)?;
    let fmt = detect(path, &bytes).with_context(|| {
        format!(
            "{}: unknown format (first bytes {:02x?})",
            path.display(),
            &bytes[..bytes.len().min(8)]
        )
    })?;
    Ok((fmt, bytes))
}

fn describe(path: &Path) -> Result<Description> {
    let (fmt, bytes) = detect_file(path)?;
    let d = match fmt.family() {
        Family::Model => model::describe(path, fmt, &bytes),
        Family::Voxel => voxel::describe(path, fmt, &bytes),
        Family::Cutscene => cutscene::describe(path, fmt, &bytes),
    };
    d.with_context(|| format!("{}", path.display()))
}

/// `modex info`: every file is described; any failure makes the exit status non-zero.
pub fn info(args: &InfoArgs) -> Result<()> {
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for path in &args.files {
        let written = match describe(path) {
            Ok(d) if args.json => writeln!(out, "{}", d.json),
            Ok(d) => {
                let mut text = format!("{}:\n", path.display());
                for line in d.text.lines() {
                    text.push_str(&format!("  {line}\n"));
                }
                out.write_all(text.as_bytes())
            }
            Err(e) => {
                eprintln!("error: {e:#}");
                failed += 1;
                Ok(())
            }
        };
        // A closed pipe (`modex info ... | head`) ends the listing quietly instead of panicking.
        match written {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            other => other?,
        }
    }
    if failed > 0 {
        bail!("{failed} of {} files could not be read", args.files.len());
    }
    Ok(())
}

pub fn view(args: &ViewArgs) -> Result<()> {
    let (fmt, bytes) = detect_file(&args.file)?;
    match fmt.family() {
        Family::Model => model_render::view(args, fmt, &bytes),
        Family::Voxel => voxel::view(args, fmt, &bytes),
        Family::Cutscene => bail!("{:?} files are played with `modex play`", fmt),
    }
}

pub fn render(args: &RenderArgs) -> Result<()> {
    let (fmt, bytes) = detect_file(&args.file)?;
    match fmt.family() {
        Family::Model => model_render::render(args, fmt, &bytes),
        Family::Voxel => voxel::render(args, fmt, &bytes),
        Family::Cutscene => bail!("{:?} files are exported with `modex export`", fmt),
    }
}

pub fn play(args: &PlayArgs) -> Result<()> {
    cutscene::play(args)
}

pub fn export(args: &ExportArgs) -> Result<()> {
    if args.input.is_dir() {
        return cutscene::export(args, None, &[]);
    }
    let (fmt, bytes) = detect_file(&args.input)?;
    match fmt.family() {
        Family::Model => model::export(args, fmt, &bytes),
        Family::Voxel => bail!("voxel files have nothing to export yet; use `modex render`"),
        Family::Cutscene => cutscene::export(args, Some(fmt), &bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_magic_then_extension() {
        let p = Path::new("x.bin");
        assert_eq!(detect(p, b"MDL5...."), Some(Format::Mdl));
        assert_eq!(detect(p, b"HMP7"), Some(Format::Hmp));
        assert_eq!(detect(p, b"Voxel Animation\0xx"), Some(Format::Vxl));
        assert_eq!(detect(p, b"BBHD"), Some(Format::Bbhd));
        assert_eq!(detect(p, b"TPWM\0\0\0\0"), Some(Format::Tpwm));
        assert_eq!(detect(Path::new("a.HVA"), b"junk"), Some(Format::Hva));
        assert_eq!(detect(Path::new("voxels.vpl"), b""), Some(Format::Vpl));
        assert_eq!(
            detect(Path::new("PART000.LIB"), b"\x10\0\0\0"),
            Some(Format::Lib)
        );
        assert_eq!(detect(p, b"nothing"), None);
        assert_eq!(Format::Hva.family(), Family::Voxel);
    }
}
