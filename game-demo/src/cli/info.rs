//! `modex info FILE... [--json] [--codepage CP]`: each file's format and a summary, from
//! `modex_view::info` (the web page's `#info` prints the same). This module reads the files and
//! gives a level the game's folders on disk to find its entity files in.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{bail, Result};
use modex_assets::Asset;
use modex_view::info::{self, Description, InfoError, Subject};

use super::formats::wmb_files;
use super::{Codepage, InfoArgs};

impl From<Codepage> for info::Codepage {
    fn from(c: Codepage) -> info::Codepage {
        match c {
            Codepage::Gbk => info::Codepage::Gbk,
            Codepage::Windows1252 => info::Codepage::Windows1252,
            Codepage::Windows1251 => info::Codepage::Windows1251,
            Codepage::Cp437 => info::Codepage::Cp437,
        }
    }
}

/// A level's entity files, searched on disk as GameStudio did (`wmb_files`), only when a level
/// asks: the search reads the game's scripts.
struct DiskEntities<'a> {
    level: &'a Path,
    extra: &'a [PathBuf],
    files: OnceLock<wmb_files::GameFiles>,
}

impl DiskEntities<'_> {
    fn files(&self) -> &wmb_files::GameFiles {
        self.files
            .get_or_init(|| wmb_files::GameFiles::new(self.level, self.extra))
    }
}

impl info::EntityFiles for DiskEntities<'_> {
    fn find(&self, name: &str) -> Option<String> {
        self.files().find(name)
    }

    fn root(&self) -> String {
        self.files().root().display().to_string()
    }

    fn read(&self, name: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        self.files().read(name)
    }

    fn read_beside(&self, name: &str, model: &str) -> Option<(String, Vec<u8>)> {
        self.files().read_beside(name, model)
    }
}

fn describe(path: &Path, codepage: Option<Codepage>, paths: &[PathBuf]) -> Result<Description> {
    let asset = Asset::open(path)?;
    let name = path.display().to_string();
    let file = Subject {
        name: &name,
        format: asset.format(),
        bytes: asset.bytes(),
        folder: asset.file().folder(),
    };
    let entities = DiskEntities {
        level: path,
        extra: paths,
        files: OnceLock::new(),
    };
    info::describe(&file, codepage.map(Into::into), &entities).map_err(|e| match e {
        // The palette rule's errors name the file themselves.
        InfoError::Palette(_) => anyhow::Error::new(e),
        e => anyhow::Error::new(e).context(name.clone()),
    })
}

/// Every file is described; any failure makes the exit status non-zero. With `--json` every
/// file gives one line on stdout, a failure `{"error": "..."}` (the message as the text mode
/// prints it on stderr), so a script reading line by line stays in step with its files.
pub fn run(args: &InfoArgs) -> Result<()> {
    let mut failed = 0;
    let mut out = std::io::stdout().lock();
    for path in &args.files {
        let written = match describe(path, args.codepage, &args.path) {
            Ok(d) if args.json => writeln!(out, "{}", d.json),
            Ok(d) => out.write_all(info::listing(&path.display().to_string(), &d).as_bytes()),
            Err(e) if args.json => {
                failed += 1;
                writeln!(out, "{}", serde_json::json!({ "error": format!("{e:#}") }))
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
