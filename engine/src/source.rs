//! Where a file and its siblings come from.
//!
//! Formats of the era come in groups: a Westwood VXL has its HVA motion beside it and a `voxels.vpl`
//! somewhere in the folder, a Battle Isle 2 scene script names the archives of the game install it
//! belongs to. A [`FileSource`] answers "give me the file called X" for such a group, from a folder
//! on disk ([`DirSource`]) or from files already in memory ([`MemorySource`]: tests, archives
//! already read). Names compare without regard to case, as they did on DOS: game code asks for
//! `HMEC.VXL`, the file on disk is often `hmec.vxl`.
//!
//! [`OpenedFile`] is a file read once, with the source of its folder: frontends detect the format
//! from its bytes and hand both the bytes and the siblings to the loaders, so no file is read twice.

use std::io;
use std::path::{Path, PathBuf};

/// A named collection of files.
pub trait FileSource {
    /// The bytes of the file `name` (e.g. `"HMEC.HVA"`), `Ok(None)` when there is no such file,
    /// `Err` when it exists but cannot be read.
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>>;
}

/// Files loose in one folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirSource {
    dir: PathBuf,
}

impl DirSource {
    /// The files of `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> DirSource {
        DirSource { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of the file `name` (exact name first, then any case), if it exists.
    pub fn find(&self, name: &str) -> Option<PathBuf> {
        self.find_entry(name, Path::is_file)
    }

    /// The path of the sub-folder `name` (exact name first, then any case), if it exists: the
    /// folders of a game install (`ANI`, `ENG`) are matched like its files.
    pub fn find_folder(&self, name: &str) -> Option<PathBuf> {
        self.find_entry(name, Path::is_dir)
    }

    /// The entry `name` of the folder that passes `kind`: exact name first, then the first of the
    /// case-insensitive matches in name order.
    fn find_entry(&self, name: &str, kind: fn(&Path) -> bool) -> Option<PathBuf> {
        let exact = self.dir.join(name);
        if kind(&exact) {
            return Some(exact);
        }
        let mut matches: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                kind(p)
                    && p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.eq_ignore_ascii_case(name))
            })
            .collect();
        // Directory order is the file system's; sorting keeps the choice the same everywhere.
        matches.sort();
        matches.into_iter().next()
    }
}

impl FileSource for DirSource {
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        match self.find(name) {
            None => Ok(None),
            Some(p) => std::fs::read(p).map(Some),
        }
    }
}

/// Files held in memory by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemorySource {
    files: Vec<(String, Vec<u8>)>,
}

impl MemorySource {
    /// An empty source.
    pub fn new() -> MemorySource {
        MemorySource::default()
    }

    /// Add or replace `name` (names compare without regard to case).
    pub fn insert(&mut self, name: &str, bytes: Vec<u8>) -> &mut Self {
        self.files.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.files.push((name.to_string(), bytes));
        self
    }

    /// The bytes of `name` (any case), without copying them as [`FileSource::read`] does: for a
    /// look at many files' first bytes (a frontend sorting a dropped folder by format).
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, b)| b.as_slice())
    }
}

impl FileSource for MemorySource {
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        Ok(self.get(name).map(<[u8]>::to_vec))
    }
}

/// A file read once, with the folder it came from.
#[derive(Debug, Clone)]
pub struct OpenedFile {
    path: PathBuf,
    bytes: Vec<u8>,
    folder: DirSource,
}

/// A file could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}", path.display())]
pub struct ReadError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: io::Error,
}

impl OpenedFile {
    /// Read `path`.
    pub fn open(path: impl Into<PathBuf>) -> Result<OpenedFile, ReadError> {
        let path = path.into();
        let bytes = std::fs::read(&path).map_err(|source| ReadError {
            path: path.clone(),
            source,
        })?;
        Ok(OpenedFile::from_bytes(path, bytes))
    }

    /// A file whose bytes are already in memory (its siblings are still looked up on disk).
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> OpenedFile {
        let path = path.into();
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        OpenedFile {
            path,
            bytes,
            folder: DirSource::new(dir),
        }
    }

    /// Where it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The file name without its extension (`"HMEC"` for `units/HMEC.vxl`).
    pub fn stem(&self) -> &str {
        self.path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
    }

    /// The files of its folder.
    pub fn folder(&self) -> &DirSource {
        &self.folder
    }

    /// The path of the sibling with the same stem and extension `ext`, if it exists.
    pub fn sibling_path(&self, ext: &str) -> Option<PathBuf> {
        self.folder.find(&format!("{}.{ext}", self.stem()))
    }

    /// The sibling with the same stem and extension `ext` (`HMEC.hva` beside `HMEC.vxl`), read,
    /// with its path (for messages); `Ok(None)` when there is none.
    pub fn open_sibling(&self, ext: &str) -> Result<Option<OpenedFile>, ReadError> {
        self.sibling_path(ext).map(OpenedFile::open).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_names_ignore_case() {
        let mut m = MemorySource::new();
        m.insert("HMEC.VXL", vec![1]).insert("hmec.vxl", vec![2]);
        m.insert("voxels.vpl", vec![3]);
        assert_eq!(m.read("Hmec.Vxl").unwrap(), Some(vec![2]));
        assert_eq!(m.read("nope").unwrap(), None);
        assert_eq!(m.read("VOXELS.VPL").unwrap(), Some(vec![3]));
    }

    #[test]
    fn opened_file_finds_its_siblings_on_disk() {
        let dir = std::env::temp_dir().join(format!("modex-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("unit.vxl"), b"v").unwrap();
        std::fs::write(dir.join("UNIT.HVA"), b"h").unwrap();
        let f = OpenedFile::open(dir.join("unit.vxl")).unwrap();
        assert_eq!(f.bytes(), b"v");
        assert_eq!(f.stem(), "unit");
        let hva = f.open_sibling("hva").unwrap().unwrap();
        assert_eq!((hva.bytes(), hva.stem()), (&b"h"[..], "UNIT"));
        assert!(f.open_sibling("vpl").unwrap().is_none());
        std::fs::create_dir_all(dir.join("ani")).unwrap();
        assert_eq!(f.folder().find_folder("ANI"), Some(dir.join("ani")));
        assert_eq!(f.folder().find("ANI"), None, "folders are not files");
        let missing = OpenedFile::open(dir.join("none.vxl")).unwrap_err();
        assert!(missing.to_string().contains("none.vxl"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
