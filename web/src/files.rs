//! The files a user dropped or picked: held in memory by name, found without regard to case, and
//! the choice of which of them the page shows.

use modex::{FileSource, MemorySource};
use modex_assets::{detect, Family, Format};
use std::path::Path;

/// The dropped files, by their name (the last part of the path a folder drop gave).
#[derive(Debug, Clone, Default)]
pub struct Dropped {
    names: Vec<String>,
    source: MemorySource,
}

impl Dropped {
    /// No files.
    pub fn new() -> Dropped {
        Dropped::default()
    }

    /// Add `bytes` as `path` (a folder picker's `webkitRelativePath`, or a bare name); only the
    /// name is kept, since siblings are looked up by name.
    pub fn insert(&mut self, path: &str, bytes: Vec<u8>) {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path).to_string();
        if !self.names.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
            self.names.push(name.clone());
        }
        self.source.insert(&name, bytes);
    }

    /// The files, to find siblings, skins, palettes and archives in.
    pub fn source(&self) -> &MemorySource {
        &self.source
    }

    /// The bytes of `name` (any case).
    pub fn bytes(&self, name: &str) -> Option<Vec<u8>> {
        self.source.read(name).ok().flatten()
    }

    /// The files the page can show, in name order: models and terrain, voxel bodies, and a
    /// cutscene (a scene script, or the script archive of an install) first.
    pub fn showable(&self) -> Vec<(String, Format)> {
        let mut out: Vec<(String, Format)> = self
            .names
            .iter()
            .filter_map(|n| {
                let bytes = self.bytes(n)?;
                let format = detect(Path::new(n), &bytes)?;
                let shown = match format.family() {
                    Family::Model => true,
                    Family::Voxel => format == Format::Vxl,
                    Family::Cutscene => {
                        format == Format::Ascr || n.eq_ignore_ascii_case(SCRIPT_ARCHIVE)
                    }
                    Family::Palette => false,
                };
                shown.then(|| (n.clone(), format))
            })
            .collect();
        out.sort_by_key(|(n, f)| (f.family() != Family::Cutscene, n.to_ascii_lowercase()));
        out
    }

    /// Every dropped name, in the order dropped.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// The archive of an install's scene scripts (in `ANI`).
pub const SCRIPT_ARCHIVE: &str = "ASCR000.LIB";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_lose_their_folders_and_their_case() {
        let mut d = Dropped::new();
        d.insert("game/ANI/ASCR000.LIB", b"LIB".to_vec());
        d.insert("skins/Tree.PCX", vec![1]);
        d.insert("SKINS/tree.pcx", vec![2]);
        assert_eq!(d.names(), ["ASCR000.LIB", "Tree.PCX"]);
        assert_eq!(d.bytes("TREE.pcx"), Some(vec![2]));
        assert_eq!(d.bytes("ascr000.lib"), Some(b"LIB".to_vec()));
    }
}
