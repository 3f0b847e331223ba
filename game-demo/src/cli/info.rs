//! `modex info FILE... [--json] [--codepage CP]`: each file's format and a summary, from the format
//! family's module.

use std::io::Write;

use anyhow::{bail, Context, Result};
use modex_assets::{Asset, Family};

use super::formats::{cutscene, model, palette, voxel, wmb, Description};
use super::{Codepage, InfoArgs};

fn describe(
    path: &std::path::Path,
    codepage: Option<Codepage>,
    paths: &[std::path::PathBuf],
) -> Result<Description> {
    let asset = Asset::open(path)?;
    if asset.format() == modex_assets::Format::Wmb {
        return wmb::describe(&asset, paths).with_context(|| format!("{}", path.display()));
    }
    let d = match asset.format().family() {
        Family::Model => model::describe(&asset, codepage),
        Family::Voxel => voxel::describe(&asset),
        Family::Cutscene => cutscene::describe(&asset),
        // The palette rule's errors name the file themselves.
        Family::Palette => return palette::describe(&asset),
    };
    d.with_context(|| format!("{}", path.display()))
}

/// Every file is described; any failure makes the exit status non-zero.
pub fn run(args: &InfoArgs) -> Result<()> {
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for path in &args.files {
        let written = match describe(path, args.codepage, &args.path) {
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
