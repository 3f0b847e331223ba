//! Names on disk matched as GameStudio's Windows matched them: in any case, a folder part or a
//! file name alike. A name on disk is read as UTF-8 (what unpacking a game on Linux or macOS
//! usually gives: `Rüstung.mdl`), else as Windows-1252 (an archive unpacked byte for byte:
//! `R\xfcstung.mdl`), so both match the level's `R\xfcstung.mdl`, which the decoder already
//! turned into `Rüstung.mdl`.

use std::collections::{HashMap, VecDeque};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use modex_view::level::name_key;

/// How deep the search below the game's root goes (published trees are shallow).
const MAX_DEPTH: usize = 8;
/// Entries listed at most by the search below the root, so a root chosen too high (a home
/// folder) costs a bounded walk, not minutes.
const MAX_ENTRIES: usize = 200_000;

/// A name on disk as text: UTF-8 when it is, else Windows-1252.
pub fn entry_name(name: &OsStr) -> String {
    if let Some(s) = name.to_str() {
        return s.to_string();
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        modex::windows1252::decode(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        name.to_string_lossy().into_owned()
    }
}

/// A folder's entries by [`name_key`], the first in name order winning.
type Listing = HashMap<String, PathBuf>;

/// Folder listings, each read once (a level names hundreds of files and the search asks the
/// same few folders for each).
#[derive(Default)]
pub struct Folders {
    listings: Mutex<HashMap<PathBuf, Arc<Listing>>>,
}

impl Folders {
    fn listing(&self, dir: &Path) -> Arc<Listing> {
        if let Some(l) = self.lock().get(dir) {
            return l.clone();
        }
        let mut entries: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.flatten()
                    .map(|e| (entry_name(&e.file_name()), e.path()))
                    .collect()
            })
            .unwrap_or_default();
        entries.sort();
        let mut listing = Listing::new();
        for (name, path) in entries {
            listing.entry(name.to_lowercase()).or_insert(path);
        }
        let listing = Arc::new(listing);
        self.lock().insert(dir.to_path_buf(), listing.clone());
        listing
    }

    /// The listings, shared by the threads that read a level's files (a listing is only ever
    /// added, so one a panicking thread left behind is still whole).
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Arc<Listing>>> {
        self.listings.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The entry of `dir` called `name` in any case (the exact spelling first).
    pub fn entry(&self, dir: &Path, name: &str) -> Option<PathBuf> {
        let exact = dir.join(name);
        if exact.exists() {
            return Some(exact);
        }
        self.listing(dir).get(&name.to_lowercase()).cloned()
    }

    /// The file `name` names (its last part, any case) directly in `dir`.
    pub fn file(&self, dir: &Path, name: &str) -> Option<PathBuf> {
        let base = modex_view::level::base_name(name);
        if base.is_empty() {
            return None;
        }
        self.entry(dir, base).filter(|p| p.is_file())
    }

    /// A path as a script writes it (`\` or `/`, `..`, any case) made a folder below `base`.
    pub fn resolve_dir(&self, base: &Path, written: &str) -> Option<PathBuf> {
        let mut at = base.to_path_buf();
        for part in written
            .split(['/', '\\'])
            .filter(|p| !p.is_empty() && *p != ".")
        {
            if part == ".." {
                at = at.parent()?.to_path_buf();
                continue;
            }
            at = self.entry(&at, part)?;
        }
        at.is_dir().then_some(at)
    }
}

/// Every file below `root` by [`name_key`], shallower folders first and each folder in name
/// order, so a file in the game's own folders wins over a copy deep in an art folder. Hidden
/// folders (`.git`) are skipped.
pub fn index_below(root: &Path) -> HashMap<String, PathBuf> {
    let mut out = HashMap::new();
    let mut queue = VecDeque::from([(root.to_path_buf(), 0usize)]);
    let mut seen = 0;
    while let Some((dir, depth)) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<(String, PathBuf)> = entries
            .flatten()
            .map(|e| (entry_name(&e.file_name()), e.path()))
            .collect();
        entries.sort();
        for (name, path) in entries {
            seen += 1;
            if seen > MAX_ENTRIES {
                log::warn!(
                    "stopped listing {} after {MAX_ENTRIES} entries",
                    root.display()
                );
                return out;
            }
            if path.is_dir() {
                if depth < MAX_DEPTH && !name.starts_with('.') {
                    queue.push_back((path, depth + 1));
                }
            } else {
                out.entry(name_key(&name)).or_insert(path);
            }
        }
    }
    out
}

/// `path` relative to `root` with forward slashes (`..` where it lies outside), as `info --json`
/// shows it; both are made absolute first.
pub fn relative(root: &Path, path: &Path) -> String {
    let abs = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (root, path) = (abs(root), abs(path));
    let r: Vec<_> = root.components().collect();
    let p: Vec<_> = path.components().collect();
    let common = r.iter().zip(&p).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); r.len() - common];
    parts.extend(p[common..].iter().map(|c| entry_name(c.as_os_str())));
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_in_any_case_in_utf8_and_1252_on_disk() {
        let dir = std::env::temp_dir().join(format!("modex-disk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("Assets/Deep")).unwrap();
        std::fs::write(dir.join("Assets/Rüstung.mdl"), b"").unwrap();
        std::fs::write(dir.join("Assets/Deep/Crate.MDL"), b"").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            // A name unpacked byte for byte from a Windows archive: 1252, not UTF-8.
            let raw = OsStr::from_bytes(b"Gr\xfcn.tga");
            std::fs::write(dir.join("Assets").join(raw), b"").unwrap();
            let f = Folders::default();
            let found = f.file(&dir.join("Assets"), "GRÜN.TGA").unwrap();
            assert_eq!(entry_name(found.file_name().unwrap()), "Grün.tga");
        }
        let f = Folders::default();
        let assets = f.resolve_dir(&dir, "assets").unwrap();
        assert!(f.file(&assets, "c:\\work\\RÜSTUNG.mdl").is_some());
        assert!(f.file(&assets, "deep").is_none(), "a folder is not a file");
        assert_eq!(
            f.resolve_dir(&dir, ".\\ASSETS\\deep\\..\\Deep"),
            Some(dir.join("Assets/Deep"))
        );
        let index = index_below(&dir);
        let crate_mdl = &index[&name_key("crate.mdl")];
        assert_eq!(relative(&dir, crate_mdl), "Assets/Deep/Crate.MDL");
        assert_eq!(
            relative(&dir.join("Assets/Deep"), &dir.join("Assets/Rüstung.mdl")),
            "../Rüstung.mdl"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
