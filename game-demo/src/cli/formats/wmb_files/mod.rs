//! Finding the files a level's entities name, as GameStudio finds them. In order:
//!
//! 1. the game's root (the engine's work folder, where its main script is);
//! 2. the folders of the PATH statements of the game's scripts (`.wdl`: `PATH "x";`; lite-C
//!    `.c`/`.h`: `#define PRAGMA_PATH "x"`; [`scripts`]), each relative to the root (else to its
//!    script's folder). The scripts read are every script in each folder from the root down to
//!    the level's folder, the root's first, and every script they include, found in the
//!    including script's folder, the root or a PATH folder already known. Not only the nearest
//!    script: the engine reads the main script and what it includes, and a real game kept its
//!    PATHs in `source/<game>.wdl` one folder above the level, beside which a `ruin.wdl` held
//!    none;
//! 3. the level's own folder;
//! 4. the `--path` folders, in order;
//! 5. a case-insensitive search below the root (published trees are often rearranged, and a
//!    level is opened without the game's start-up), shallower folders first.
//!
//! **The root** is the outermost folder, from the level's folder up to [`MAX_UP`] folders above
//! it, that holds a game script: a `.wdl`, or a `.c`/`.h` that includes `acknex.h` or sets a
//! `PRAGMA_PATH` (a C file of another program is not a game). The outermost, not the nearest,
//! because a level's own script (`ruin.wdl`) sits below the game's main script; bounded, so a
//! stray script far above the game never makes a home folder the root. Without any game script
//! the root is the folder two above the level's folder (`Game/Level/x.wmb` in a published tree:
//! the tree's top, which holds the art folders beside `Game`).
//!
//! Every look-up ignores case (Unicode's, so `RÜSTUNG.MDL` is `Rüstung.mdl`) and the folder part
//! of the stored name; names on disk may be UTF-8 or Windows-1252 ([`disk`]). (The level module
//! logs a file not found, once.)

mod disk;
mod scripts;

use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use disk::Folders;
use scripts::Language;

/// How many folders above the level's folder the root may be.
pub const MAX_UP: usize = 3;
/// Scripts read at most (a game's source is a few hundred files; includes may loop).
const MAX_SCRIPTS: usize = 2_000;
/// Bytes read at most of one script.
const MAX_SCRIPT_BYTES: u64 = 4 << 20;

/// The folders searched for a level's entity files.
pub struct GameFiles {
    /// Folders searched in order before the search below the root.
    dirs: Vec<PathBuf>,
    /// The game's root.
    root: PathBuf,
    /// Folder listings, read once each.
    folders: Folders,
    /// Every file below the root by name key (built on first need).
    below_root: OnceLock<HashMap<String, PathBuf>>,
}

/// The scripts directly in `dir` with their language, in name order.
fn scripts_in(dir: &Path) -> Vec<(PathBuf, Language)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(PathBuf, Language)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|p| Language::of(&p).map(|l| (p, l)))
        .collect();
    out.sort();
    out
}

/// A script's text, at most [`MAX_SCRIPT_BYTES`] of it.
fn read_script(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_SCRIPT_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(scripts::text(&bytes))
}

/// Whether `dir` holds a game script (see the module docs).
fn holds_game_script(dir: &Path) -> bool {
    scripts_in(dir).iter().any(|(p, l)| {
        *l == Language::Wdl || read_script(p).is_some_and(|t| scripts::is_game_script(*l, &t))
    })
}

/// The game's root for a level in `folder` (see the module docs).
fn find_root(folder: &Path) -> PathBuf {
    let abs = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
    let mut root = None;
    for dir in abs.ancestors().take(MAX_UP + 1) {
        if holds_game_script(dir) {
            root = Some(dir.to_path_buf());
        }
    }
    root.unwrap_or_else(|| {
        abs.parent()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or(abs)
    })
}

impl GameFiles {
    /// The search rule for `level`, with the user's `--path` folders.
    pub fn new(level: &Path, extra: &[PathBuf]) -> GameFiles {
        let folder = level
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let folder = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        let root = find_root(&folder);
        let folders = Folders::default();
        let mut dirs = vec![root.clone()];
        for d in path_folders(&root, &folder, &folders) {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        for d in std::iter::once(folder).chain(extra.iter().cloned()) {
            if !dirs.contains(&d) {
                dirs.push(d);
            }
        }
        log::debug!("entity search: root {}, folders {dirs:?}", root.display());
        GameFiles {
            dirs,
            root,
            folders,
            below_root: OnceLock::new(),
        }
    }

    /// The game's root, as chosen.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `name` (only its last part; any case) is.
    pub fn lookup(&self, name: &str) -> Option<PathBuf> {
        if let Some(p) = self.dirs.iter().find_map(|d| self.folders.file(d, name)) {
            return Some(p);
        }
        self.below_root
            .get_or_init(|| disk::index_below(&self.root))
            .get(&modex_view::level::name_key(name))
            .cloned()
    }
}

/// The folders of the PATH statements of the scripts from `root` down to the level's `folder`
/// and of the scripts they include, in the order read (see the module docs).
fn path_folders(root: &Path, folder: &Path, folders: &Folders) -> Vec<PathBuf> {
    // The chain of folders, root first; the level may lie outside the root only when the
    // root is the fallback, and then only the level's folder is read.
    let mut chain: Vec<PathBuf> = folder
        .ancestors()
        .take_while(|d| d.starts_with(root))
        .map(Path::to_path_buf)
        .collect();
    chain.reverse();
    if chain.is_empty() {
        chain.push(folder.to_path_buf());
    }
    let mut queue: VecDeque<(PathBuf, Language)> =
        chain.iter().flat_map(|d| scripts_in(d)).collect();
    let mut read: HashSet<PathBuf> = queue.iter().map(|(p, _)| p.clone()).collect();
    let mut out: Vec<PathBuf> = Vec::new();
    let mut count = 0;
    while let Some((path, language)) = queue.pop_front() {
        count += 1;
        if count > MAX_SCRIPTS {
            log::warn!(
                "read {MAX_SCRIPTS} scripts of {}; the rest are not read",
                root.display()
            );
            break;
        }
        let Some(text) = read_script(&path) else {
            continue;
        };
        let script = scripts::parse(language, &text);
        let here = path.parent().unwrap_or(root);
        for written in &script.paths {
            // An engine folder (`%EXE_DIR%\templates`) or a drive is not part of the game.
            if written.contains(['%', ':']) {
                continue;
            }
            match folders
                .resolve_dir(root, written)
                .or_else(|| folders.resolve_dir(here, written))
            {
                Some(d) if !out.contains(&d) => out.push(d),
                Some(_) => {}
                None => log::debug!("{}: PATH {written:?} is not a folder", path.display()),
            }
        }
        for name in &script.includes {
            let Some(language) = Language::of(Path::new(name)) else {
                continue;
            };
            let base = modex_view::level::base_name(name);
            let found = [here, root]
                .into_iter()
                .chain(out.iter().map(PathBuf::as_path))
                .find_map(|d| {
                    // An include may name a folder below the one it is looked in.
                    let dir = match name.rsplit_once(['/', '\\']) {
                        Some((sub, _)) => folders.resolve_dir(d, sub)?,
                        None => d.to_path_buf(),
                    };
                    folders.file(&dir, base)
                });
            if let Some(p) = found {
                if read.insert(p.clone()) {
                    queue.push_back((p, language));
                }
            }
        }
    }
    out
}

/// The level module reads entity files and their skins through the search.
impl modex_view::level::EntityFiles for GameFiles {
    fn find(&self, name: &str) -> Option<String> {
        self.lookup(name).map(|p| disk::relative(&self.root, &p))
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

    fn read_beside(&self, name: &str, model: &str) -> Option<(String, Vec<u8>)> {
        let path = self.beside(name, model)?;
        let bytes = std::fs::read(&path).ok()?;
        Some((path.display().to_string(), bytes))
    }

    fn key_beside(&self, name: &str, model: &str) -> Option<String> {
        self.beside(name, model).map(|p| p.display().to_string())
    }
}

impl GameFiles {
    /// Where a skin `name` of the model at `model` is: found as entity files are, else in the
    /// model's folder.
    fn beside(&self, name: &str, model: &str) -> Option<PathBuf> {
        self.lookup(name)
            .or_else(|| self.folders.file(Path::new(model).parent()?, name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_view::level::EntityFiles;

    /// A fresh folder for one test.
    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("modex-wmb-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write(dir: &Path, path: &str, bytes: &[u8]) {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    /// A level placing `files`, written by the WMB writer: the names stored as Windows-1252.
    fn level(files: &[&str]) -> Vec<u8> {
        use modex_mdl::wmb::{Object, WmbFile};
        modex_mdl::wmb::encode::encode(&WmbFile {
            objects: files
                .iter()
                .map(|f| Object::Entity(modex_testkit::level::entity(f)))
                .collect(),
            ..Default::default()
        })
    }

    /// The entity file names a level's bytes store, as the decoder reads them.
    fn stored(bytes: &[u8]) -> Vec<String> {
        let f = modex_mdl::wmb::WmbFile::parse(bytes).unwrap();
        f.entities().map(|e| e.file.clone()).collect()
    }

    #[test]
    fn paths_come_from_the_game_script_above_the_level_s_own() {
        // A level with its own script (a main, no PATH) one folder below the game's script,
        // which holds the PATHs; an outer program's C file is no game script.
        let dir = temp("above");
        write(&dir, "tool.c", b"int main(void) { return 0; }");
        write(
            &dir,
            "game/source/game.wdl",
            b"PATH \"models\";\nPATH \"..\\art\";",
        );
        write(
            &dir,
            "game/source/ruin/ruin.wdl",
            b"function main() { level_load(ruin_wmb); }",
        );
        let wmb = level(&["R\u{fc}stung.mdl", "tree.mdl", "gone.mdl"]);
        assert!(
            wmb.windows(7).any(|w| w == b"R\xfcstung"),
            "1252 in the level"
        );
        write(&dir, "game/source/ruin/ruin.wmb", &wmb);
        // UTF-8 on disk, another case; a copy below the root that the PATH folder beats.
        write(&dir, "game/source/models/RÜSTUNG.MDL", b"m");
        write(&dir, "game/source/ruin/decoy/R\u{fc}stung.mdl", b"decoy");
        write(&dir, "game/art/tree.mdl", b"t");
        let f = GameFiles::new(&dir.join("game/source/ruin/ruin.wmb"), &[]);
        assert_eq!(
            f.root(),
            std::fs::canonicalize(dir.join("game/source")).unwrap()
        );
        let names = stored(&wmb);
        assert_eq!(names[0], "Rüstung.mdl");
        assert_eq!(f.find(&names[0]).as_deref(), Some("models/RÜSTUNG.MDL"));
        // A PATH may leave the root: the path shown says so.
        assert_eq!(f.find(&names[1]).as_deref(), Some("../art/tree.mdl"));
        assert_eq!(f.find(&names[2]), None);
        let (key, bytes) = f.read(&names[0]).unwrap().unwrap();
        assert!(key.ends_with("RÜSTUNG.MDL"), "{key}");
        assert_eq!(bytes, b"m");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lite_c_pragma_paths_are_read_through_includes() {
        let dir = temp("litec");
        write(
            &dir,
            "game/main.c",
            b"#include <acknex.h>\n#include \"src/paths.h\"\n//#define PRAGMA_PATH \"Art\"",
        );
        write(
            &dir,
            "game/src/paths.h",
            b"#define PRAGMA_PATH \"Assets\"\n",
        );
        write(&dir, "game/levels/a.wmb", b"");
        // Below the root, `Art` comes before `Assets` in name order: only the PATH makes
        // Assets win.
        write(&dir, "game/Art/crate.mdl", b"art");
        write(&dir, "game/Assets/crate.mdl", b"assets");
        let f = GameFiles::new(&dir.join("game/levels/a.wmb"), &[]);
        assert!(f.root().ends_with("game"));
        assert_eq!(f.find("CRATE.mdl").as_deref(), Some("Assets/crate.mdl"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn finds_files_beside_the_level_through_path_and_below_the_root() {
        let dir = temp("order");
        std::fs::create_dir_all(dir.join("game/levels")).unwrap();
        std::fs::create_dir_all(dir.join("game/Models")).unwrap();
        std::fs::create_dir_all(dir.join("game/art/deep")).unwrap();
        std::fs::create_dir_all(dir.join("extra")).unwrap();
        std::fs::write(dir.join("game/main.wdl"), "PATH \"models\";").unwrap();
        std::fs::write(dir.join("game/levels/a.wmb"), b"").unwrap();
        std::fs::write(dir.join("game/levels/Beside.MDL"), b"").unwrap();
        std::fs::write(dir.join("game/Models/crate.mdl"), b"").unwrap();
        std::fs::write(dir.join("game/art/deep/skin.tga"), b"").unwrap();
        std::fs::write(dir.join("extra/given.mdl"), b"").unwrap();
        let f = GameFiles::new(&dir.join("game/levels/a.wmb"), &[dir.join("extra")]);
        assert!(f.root().ends_with("game"));
        assert!(f.lookup("beside.mdl").unwrap().ends_with("Beside.MDL"));
        assert!(f.lookup("CRATE.mdl").unwrap().ends_with("Models/crate.mdl"));
        assert!(f
            .lookup("c:\\work\\Skin.TGA")
            .unwrap()
            .ends_with("deep/skin.tga"));
        assert_eq!(f.find("given.mdl").as_deref(), Some("../extra/given.mdl"));
        assert!(f.lookup("gone.mdl").is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn without_scripts_the_root_is_two_folders_above_the_level_s() {
        let dir = temp("noscripts");
        std::fs::create_dir_all(dir.join("tree/Game/Level")).unwrap();
        std::fs::create_dir_all(dir.join("tree/ArtSource/enemy")).unwrap();
        std::fs::write(dir.join("tree/ArtSource/enemy/skin.tga"), b"").unwrap();
        let f = GameFiles::new(&dir.join("tree/Game/Level/a.wmb"), &[]);
        assert!(f.root().ends_with("tree"), "{}", f.root().display());
        assert_eq!(
            f.find("skin.tga").as_deref(),
            Some("ArtSource/enemy/skin.tga")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
