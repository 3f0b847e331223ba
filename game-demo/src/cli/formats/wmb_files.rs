//! Finding the files a level's entities name, as GameStudio does: the level's folder, the folders
//! of the `PATH "..."` statements in the game's scripts (`.c`, `.h`, `.wdl` beside the level or
//! in the game's root), the `--path` folders, and, because published folders are often
//! rearranged, a case-insensitive search below the game's root. The root is the nearest ancestor
//! of the level holding a `.wdl`/`.c` with a PATH statement, else the folder two above the level.
//! Every look-up ignores case. (The level module logs a file not found, once.)

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// How deep the search below the game's root goes (published trees are shallow).
const MAX_DEPTH: usize = 8;
/// Files listed at most by the search below the root.
const MAX_FILES: usize = 200_000;

/// The folders searched for a level's entity files.
pub struct GameFiles {
    /// Folders searched in order before the search below the root.
    dirs: Vec<PathBuf>,
    /// The game's root.
    root: PathBuf,
    /// Lower-case file name → path, below the root (built on first need).
    below_root: RefCell<Option<HashMap<String, PathBuf>>>,
}

fn is_script(p: &Path) -> bool {
    matches!(
        p.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("c" | "h" | "wdl")
    )
}

/// The `PATH "..."` statements of a script, in order (the keyword in any case).
pub fn path_statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("path") {
        let at = from + i;
        from = at + 4;
        // A whole word: not part of `PATHs`, `mypath`, `path_x`.
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '#') {
            continue;
        }
        let rest = &text[at + 4..];
        let trimmed = rest.trim_start_matches([' ', '\t']);
        if let Some(q) = trimmed.strip_prefix('"') {
            if let Some(end) = q.find('"') {
                out.push(q[..end].to_string());
            }
        }
    }
    out
}

/// The PATH statements of every script directly in `dir`.
fn scripts_paths(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut scripts: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && is_script(p))
        .collect();
    scripts.sort();
    scripts
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .flat_map(|b| path_statements(&String::from_utf8_lossy(&b)))
        .collect()
}

/// A path as written in a script (`\` or `/`, any case) made a folder below `base`, matching
/// each part case-insensitively.
fn resolve_dir(base: &Path, written: &str) -> Option<PathBuf> {
    let mut at = base.to_path_buf();
    for part in written
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
    {
        if part == ".." {
            at = at.parent()?.to_path_buf();
            continue;
        }
        at = find_in_dir(&at, part)?;
    }
    at.is_dir().then_some(at)
}

/// The entry of `dir` called `name`, ignoring case.
fn find_in_dir(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.exists() {
        return Some(exact);
    }
    let lower = name.to_lowercase();
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_string_lossy().to_lowercase() == lower)
        .map(|e| e.path())
}

impl GameFiles {
    /// The search rule for `level`, with the user's `--path` folders.
    pub fn new(level: &Path, extra: &[PathBuf]) -> GameFiles {
        let folder = level
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        // The root: the nearest ancestor with a script holding a PATH statement.
        let mut root = None;
        for dir in folder.ancestors() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if !scripts_paths(dir).is_empty() {
                root = Some(dir.to_path_buf());
                break;
            }
        }
        let root = root.unwrap_or_else(|| {
            let abs = std::fs::canonicalize(&folder).unwrap_or(folder.clone());
            abs.parent()
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .unwrap_or(abs)
        });
        let mut dirs = vec![folder.clone()];
        for base in [&folder, &root] {
            for p in scripts_paths(base) {
                // GameStudio's PATH is relative to the game's folder (where the main script is).
                if let Some(d) = resolve_dir(&root, &p).or_else(|| resolve_dir(base, &p)) {
                    if !dirs.contains(&d) {
                        dirs.push(d);
                    }
                }
            }
        }
        dirs.extend(extra.iter().cloned());
        GameFiles {
            dirs,
            root,
            below_root: RefCell::new(None),
        }
    }

    /// The game's root, as chosen.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `name` (only its last part; any case) is.
    pub fn lookup(&self, name: &str) -> Option<PathBuf> {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        if base.is_empty() {
            return None;
        }
        if let Some(p) = self
            .dirs
            .iter()
            .find_map(|d| find_in_dir(d, base).filter(|p| p.is_file()))
        {
            return Some(p);
        }
        let mut index = self.below_root.borrow_mut();
        let index = index.get_or_insert_with(|| index_below(&self.root));
        index.get(&base.to_lowercase()).cloned()
    }
}

/// The level module reads entity files and their skins through the search.
impl modex_view::level::EntityFiles for GameFiles {
    fn has(&self, name: &str) -> bool {
        self.lookup(name).is_some()
    }

    fn root(&self) -> String {
        self.root.display().to_string()
    }

    fn read(&self, name: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        let Some(path) = self.lookup(name) else {
            return Ok(None);
        };
        let bytes = std::fs::read(&path)?;
        Ok(Some((path.display().to_string(), bytes)))
    }

    fn read_beside(&self, name: &str, model: &str) -> Option<Vec<u8>> {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let path = self.lookup(base).or_else(|| {
            let beside = Path::new(model).parent()?.join(base);
            beside.is_file().then_some(beside)
        })?;
        std::fs::read(path).ok()
    }
}

/// Every file below `root` by lower-case name (the first found, in sorted walk order, wins).
fn index_below(root: &Path) -> HashMap<String, PathBuf> {
    let mut out = HashMap::new();
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    let mut seen = 0;
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries.into_iter().rev() {
            seen += 1;
            if seen > MAX_FILES {
                return out;
            }
            if p.is_dir() {
                if depth < MAX_DEPTH {
                    stack.push((p, depth + 1));
                }
            } else if let Some(n) = p.file_name() {
                out.entry(n.to_string_lossy().to_lowercase()).or_insert(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_statements_are_read_in_any_case() {
        let text =
            "#include <acknex.h>\nPATH \"..\\\\Assets\";\npath \"models\"; // x\nmypath \"no\";";
        assert_eq!(path_statements(text), ["..\\\\Assets", "models"]);
    }

    #[test]
    fn finds_files_beside_the_level_through_path_and_below_the_root() {
        let dir = std::env::temp_dir().join(format!("modex-wmb-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("game/levels")).unwrap();
        std::fs::create_dir_all(dir.join("game/Models")).unwrap();
        std::fs::create_dir_all(dir.join("game/art/deep")).unwrap();
        std::fs::write(dir.join("game/main.c"), "PATH \"models\";").unwrap();
        std::fs::write(dir.join("game/levels/a.wmb"), b"").unwrap();
        std::fs::write(dir.join("game/levels/Beside.MDL"), b"").unwrap();
        std::fs::write(dir.join("game/Models/crate.mdl"), b"").unwrap();
        std::fs::write(dir.join("game/art/deep/skin.tga"), b"").unwrap();
        let f = GameFiles::new(&dir.join("game/levels/a.wmb"), &[]);
        assert!(f.root().ends_with("game"));
        assert!(f.lookup("beside.mdl").unwrap().ends_with("Beside.MDL"));
        assert!(f.lookup("CRATE.mdl").unwrap().ends_with("Models/crate.mdl"));
        assert!(f
            .lookup("c:\\work\\Skin.TGA")
            .unwrap()
            .ends_with("deep/skin.tga"));
        assert!(f.lookup("gone.mdl").is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
