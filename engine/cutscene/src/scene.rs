//! A scene: a parsed script and every asset it names, loaded from a Battle Isle 2 install (or the
//! project's sample scene, which has the same folder layout).
//!
//! Where files live: clips in `ANI/ABCK###.LIB` (LNA 31), `ANI/APER###.LIB` (32) and
//! `ANI/AFUL###.LIB` (36), palettes in `ANI/APAL###.LIB`, scripts `ASCRnnn` in `ANI/ASCR000.LIB`,
//! texts in `ENG/ATXT###.LIB`, sounds in `ENG/AFXS###.LIB` (bank number). Entries are chosen by
//! position in the name-sorted entry list. A [`GameDir`] reads the two folders through
//! [`modex::FileSource`]s: on disk ([`GameDir::new`], names matched case-insensitively, since
//! installs copied from CD or between systems differ in case) or from any other source
//! ([`GameDir::from_sources`], e.g. files in memory).
//!
//! A missing or broken asset does not stop the scene: the command that needs it is skipped and a
//! [`SceneWarning`] naming the script line, the file and the archive entry is kept in
//! [`Scene::warnings`], so a user sees the rest of the scene and what failed. Errors that do stop a
//! load (no such folder, no such script) are [`SceneError`]s.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use modex::{
    DirSource, FileSource, FormatError, FormatResult, IndexedFrame, OpenedFile, Palette, Sound,
};

use crate::apal;
use crate::ascr::{self, Command, Script};
use crate::atxt::{self, Message};
use crate::bbhd::BbhdClip;
use crate::lib_archive::{LibArchive, LibEntry};
use crate::voc;

/// A clip decoded for playback: every picture of forward play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClipPictures {
    /// Picture width in pixels.
    pub width: usize,
    /// Picture height in pixels.
    pub height: usize,
    /// The pictures of forward play, in order (anchors not repeated).
    pub pictures: Vec<IndexedFrame>,
    /// The header's transparent index (0xffff rule applied).
    pub transparent_index: Option<u8>,
    /// Playback flags bit 0: records build on each other (then transparency never applies).
    pub dependent: bool,
}

impl ClipPictures {
    /// Decode every picture of `clip`.
    pub fn decode(clip: &BbhdClip<'_>) -> FormatResult<Self> {
        Ok(ClipPictures {
            width: clip.width(),
            height: clip.height(),
            pictures: clip.decode_pictures()?,
            transparent_index: clip.header().transparent_index(),
            dependent: clip.header().dependent_frames(),
        })
    }

    /// The see-through index for a play command with effect `eff` (see
    /// [`BbhdClip::transparency_for`]).
    pub fn transparency_for(&self, eff: i32) -> Option<u8> {
        if eff == 0 || self.dependent {
            None
        } else {
            self.transparent_index
        }
    }
}

/// Everything a script refers to, keyed the way the script names it.
#[derive(Debug, Clone, Default)]
pub struct SceneAssets {
    /// (LNA, LNR, ENR).
    pub clips: BTreeMap<(i32, i32, i32), Arc<ClipPictures>>,
    /// (archive, entry).
    pub palettes: BTreeMap<(i32, i32), Palette>,
    /// (TNR, TID).
    pub texts: BTreeMap<(i32, i32), Message>,
    /// (bank, sound).
    pub sounds: BTreeMap<(i32, i32), Sound>,
}

/// A script with its assets.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The script.
    pub script: Script,
    /// What its commands name.
    pub assets: SceneAssets,
    /// Problems met while loading (missing files, broken assets); their commands are skipped.
    pub warnings: Vec<SceneWarning>,
    /// Screen width (360 for scripts).
    pub width: usize,
    /// Screen height (240 for scripts).
    pub height: usize,
}

/// The key in [`SceneAssets::palettes`] of the palette [`Scene::replace_palette`] starts a scene
/// on. No archive has it: scripts count archives and entries from 0.
pub const REPLACED_PALETTE: (i32, i32) = (-1, -1);

/// Archive file prefix for a script's LNA family number.
fn family_prefix(lna: i32) -> Option<&'static str> {
    match lna {
        31 => Some("ABCK"),
        32 => Some("APER"),
        36 => Some("AFUL"),
        _ => None,
    }
}

/// A folder of a game install that scenes read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Folder {
    /// `ANI`: clips, palettes and scripts.
    Ani,
    /// `ENG`: texts and sounds (the English install's language folder).
    Eng,
}

impl Folder {
    /// The folder's name in an install (`"ANI"`, `"ENG"`).
    pub fn name(self) -> &'static str {
        match self {
            Folder::Ani => "ANI",
            Folder::Eng => "ENG",
        }
    }
}

impl fmt::Display for Folder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a file, an archive entry or a script of a game install could not be had.
///
/// Each message is complete with its cause (frontends print warnings as they are), so the cause is
/// a plain field and not an error `source`: chained, anyhow's `{:#}` would print it twice.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SceneError {
    /// The folder has no `ANI` folder, so it is not an install or a scene folder.
    #[error("{}: not a Battle Isle 2 install or scene folder (no ANI/ folder)", root.display())]
    NotAnInstall {
        /// The folder.
        root: PathBuf,
    },
    /// A file is not in the install.
    #[error("{folder}/{file} not found in {}", root.display())]
    Missing {
        /// The install.
        root: PathBuf,
        /// Its folder that should hold the file.
        folder: Folder,
        /// The file's name.
        file: String,
    },
    /// A file exists but could not be read.
    #[error("cannot read {folder}/{file} in {}: {cause}", root.display())]
    Read {
        /// The install.
        root: PathBuf,
        /// The file's folder.
        folder: Folder,
        /// The file's name.
        file: String,
        /// Why (shared, so the error can be kept for every command that needs the file).
        cause: Arc<io::Error>,
    },
    /// A LIB archive is broken.
    #[error("{folder}/{file}: {cause}")]
    Archive {
        /// The archive's folder.
        folder: Folder,
        /// The archive's name.
        file: String,
        /// What is wrong with it.
        cause: Box<FormatError>,
    },
    /// An archive has no entry at the position a script names.
    #[error("{folder}/{file} has no entry {entry} ({entries} entries)")]
    NoEntry {
        /// The archive's folder.
        folder: Folder,
        /// The archive's name.
        file: String,
        /// The position asked for (in name order).
        entry: i64,
        /// How many entries the archive has.
        entries: usize,
    },
    /// An archive entry could not be unpacked or decoded.
    #[error("{folder}/{file} entry {entry} ({name}): {cause}")]
    Entry {
        /// The archive's folder.
        folder: Folder,
        /// The archive's name.
        file: String,
        /// The entry's position in name order.
        entry: i64,
        /// The entry's name.
        name: String,
        /// What is wrong with it.
        cause: Box<FormatError>,
    },
    /// A `play` command names an archive family (LNA) that has no archives.
    #[error("play: unknown archive family LNA={lna}")]
    UnknownFamily {
        /// The LNA argument.
        lna: i32,
    },
    /// `ANI/ASCR000.LIB` has no such script.
    #[error("{}: no script ASCR{number:03} in ANI/ASCR000.LIB", root.display())]
    NoScript {
        /// The install.
        root: PathBuf,
        /// The script number asked for.
        number: u32,
    },
    /// No script of the install has commands.
    #[error("{}: no script with commands in ANI/ASCR000.LIB", root.display())]
    NoScripts {
        /// The install.
        root: PathBuf,
    },
    /// A script of `ANI/ASCR000.LIB` could not be parsed.
    #[error("ASCR{number:03}: {cause}")]
    Script {
        /// The script number.
        number: u32,
        /// The line and column that failed.
        cause: Box<FormatError>,
    },
    /// A script file could not be parsed.
    #[error("{}: {cause}", path.display())]
    ScriptFile {
        /// The file.
        path: PathBuf,
        /// The line and column that failed.
        cause: Box<FormatError>,
    },
}

/// A script command whose asset could not be loaded (the command is skipped when playing).
#[derive(Debug, Clone, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct SceneWarning {
    /// The command's line in the script (1-based).
    pub line: usize,
    /// What failed.
    pub error: SceneError,
}

/// A file source that is shared by the clones of a [`GameDir`].
type SharedSource = Arc<dyn FileSource + Send + Sync>;

/// A Battle Isle 2 install (or a folder laid out like one): its `ANI` and `ENG` folders.
#[derive(Clone)]
pub struct GameDir {
    root: PathBuf,
    ani: SharedSource,
    eng: SharedSource,
}

impl fmt::Debug for GameDir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameDir")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

/// The archive holding the scripts, in `ANI`.
const SCRIPT_ARCHIVE: &str = "ASCR000.LIB";
/// Script numbers an install may use (`ASCR000` to `ASCR255`).
pub const MAX_SCRIPTS: u32 = 256;

impl GameDir {
    /// The install at `root`. Its `ANI` and `ENG` folders are found in any case; a missing folder
    /// holds no files (every file asked from it is [`SceneError::Missing`]).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let folder = |f: Folder| -> SharedSource {
            let dir = DirSource::new(&root)
                .find_folder(f.name())
                .unwrap_or_else(|| root.join(f.name()));
            Arc::new(DirSource::new(dir))
        };
        GameDir {
            ani: folder(Folder::Ani),
            eng: folder(Folder::Eng),
            root,
        }
    }

    /// The install at `root`, refused unless it looks like one ([`GameDir::looks_like_install`]).
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, SceneError> {
        let root = root.into();
        if !GameDir::looks_like_install(&root) {
            return Err(SceneError::NotAnInstall { root });
        }
        Ok(GameDir::new(root))
    }

    /// An install whose folders are any file sources (files in memory, an archive already read);
    /// `name` stands for it in messages.
    pub fn from_sources(
        name: impl Into<PathBuf>,
        ani: impl FileSource + Send + Sync + 'static,
        eng: impl FileSource + Send + Sync + 'static,
    ) -> Self {
        GameDir {
            root: name.into(),
            ani: Arc::new(ani),
            eng: Arc::new(eng),
        }
    }

    /// Whether `root` looks like an install: it has an `ANI` folder (any case).
    pub fn looks_like_install(root: &Path) -> bool {
        DirSource::new(root)
            .find_folder(Folder::Ani.name())
            .is_some()
    }

    /// The install's folder (or the name given to [`GameDir::from_sources`]).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The files of `folder`.
    pub fn folder(&self, folder: Folder) -> &dyn FileSource {
        match folder {
            Folder::Ani => self.ani.as_ref(),
            Folder::Eng => self.eng.as_ref(),
        }
    }

    /// Read `folder/file` (any case).
    pub fn read(&self, folder: Folder, file: &str) -> Result<Vec<u8>, SceneError> {
        match self.folder(folder).read(file) {
            Ok(Some(bytes)) => Ok(bytes),
            Ok(None) => Err(SceneError::Missing {
                root: self.root.clone(),
                folder,
                file: file.to_string(),
            }),
            Err(e) => Err(SceneError::Read {
                root: self.root.clone(),
                folder,
                file: file.to_string(),
                cause: Arc::new(e),
            }),
        }
    }

    /// The text of script `n` (`ASCRnnn` in `ANI/ASCR000.LIB`; by name, else by sorted position).
    pub fn script_bytes(&self, n: u32) -> Result<Vec<u8>, SceneError> {
        let bytes = self.read(Folder::Ani, SCRIPT_ARCHIVE)?;
        script_in(&scripts_archive(&bytes)?, n, &self.root)
    }

    /// The lowest-numbered script with commands: what plays when a user names no script (most
    /// shipped scripts are empty).
    pub fn first_script(&self) -> Result<u32, SceneError> {
        let bytes = self.read(Folder::Ani, SCRIPT_ARCHIVE)?;
        let lib = scripts_archive(&bytes)?;
        (0..MAX_SCRIPTS)
            .find(|&n| {
                script_in(&lib, n, &self.root)
                    .is_ok_and(|b| ascr::parse_script(&b).is_ok_and(|s| s.command_count() > 0))
            })
            .ok_or_else(|| SceneError::NoScripts {
                root: self.root.clone(),
            })
    }

    /// The install's scripts by the numbers [`Scene::load_script`] (and `modex play --script`)
    /// take, in number order: each entry of `ANI/ASCR000.LIB` once, under the number its name
    /// gives (`ASCR012`: 12), else under the first number that reaches it by its place in name
    /// order; with how many commands each holds (0: empty, as most shipped scripts are, or not a
    /// script that parses).
    pub fn scripts(&self) -> Result<Vec<ScriptEntry>, SceneError> {
        let bytes = self.read(Folder::Ani, SCRIPT_ARCHIVE)?;
        let lib = scripts_archive(&bytes)?;
        // (entry index, number) for each entry some number reaches.
        let mut reached: Vec<(usize, u32)> = Vec::new();
        for n in 0..MAX_SCRIPTS {
            let Some(entry) = script_entry(&lib, n) else {
                continue;
            };
            let named = entry.name.eq_ignore_ascii_case(&format!("ASCR{n:03}"));
            match reached.iter_mut().find(|(i, _)| *i == entry.index) {
                Some(slot) if named => slot.1 = n,
                Some(_) => {}
                None => reached.push((entry.index, n)),
            }
        }
        let mut out: Vec<ScriptEntry> = reached
            .into_iter()
            .map(|(i, number)| {
                let entry = &lib.entries()[i];
                let commands = lib
                    .entry_unpacked(entry)
                    .ok()
                    .and_then(|b| ascr::parse_script(&b).ok())
                    .map_or(0, |s| s.command_count());
                ScriptEntry {
                    number,
                    name: entry.name.clone(),
                    commands,
                }
            })
            .collect();
        out.sort_by_key(|s| s.number);
        Ok(out)
    }
}

/// One script of an install's archive ([`GameDir::scripts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptEntry {
    /// The number that plays it ([`Scene::load_script`], `modex play --script`).
    pub number: u32,
    /// Its entry's name in the archive (`ASCR012`).
    pub name: String,
    /// Its commands (0: empty, or not a script that parses).
    pub commands: usize,
}

fn scripts_archive(bytes: &[u8]) -> Result<LibArchive<'_>, SceneError> {
    LibArchive::parse(bytes).map_err(|e| SceneError::Archive {
        folder: Folder::Ani,
        file: SCRIPT_ARCHIVE.to_string(),
        cause: Box::new(e),
    })
}

/// The entry script `n` is: the one named `ASCRnnn`, else the `n`th in name order.
fn script_entry<'l>(lib: &'l LibArchive<'_>, n: u32) -> Option<&'l LibEntry> {
    lib.find(&format!("ASCR{n:03}"))
        .or_else(|| lib.sorted_entry(n as usize))
}

fn script_in(lib: &LibArchive<'_>, n: u32, root: &Path) -> Result<Vec<u8>, SceneError> {
    let entry = script_entry(lib, n).ok_or_else(|| SceneError::NoScript {
        root: root.to_path_buf(),
        number: n,
    })?;
    lib.entry_unpacked(entry)
        .map(|b| b.into_owned())
        .map_err(|e| SceneError::Entry {
            folder: Folder::Ani,
            file: SCRIPT_ARCHIVE.to_string(),
            entry: n.into(),
            name: entry.name.clone(),
            cause: Box::new(e),
        })
}

/// Loads a script's assets, reading each archive once and keeping a warning per failed command.
struct Loader<'g> {
    dir: &'g GameDir,
    files: BTreeMap<(Folder, String), Result<Vec<u8>, SceneError>>,
    assets: SceneAssets,
    warnings: Vec<SceneWarning>,
    /// The script line being loaded.
    line: usize,
}

impl Loader<'_> {
    fn warn(&mut self, error: SceneError) {
        let w = SceneWarning {
            line: self.line,
            error,
        };
        log::warn!("{w}");
        self.warnings.push(w);
    }

    /// Entry `n` (name order) of `folder/file`, decoded by `decode`.
    fn entry<T>(
        &mut self,
        folder: Folder,
        file: &str,
        n: i32,
        decode: impl FnOnce(&[u8]) -> FormatResult<T>,
    ) -> Result<T, SceneError> {
        let dir = self.dir;
        let bytes = self
            .files
            .entry((folder, file.to_string()))
            .or_insert_with(|| dir.read(folder, file))
            .as_ref()
            .map_err(Clone::clone)?;
        let lib = LibArchive::parse(bytes).map_err(|e| SceneError::Archive {
            folder,
            file: file.to_string(),
            cause: Box::new(e),
        })?;
        let entry = usize::try_from(n)
            .ok()
            .and_then(|n| lib.sorted_entry(n))
            .ok_or_else(|| SceneError::NoEntry {
                folder,
                file: file.to_string(),
                entry: n.into(),
                entries: lib.len(),
            })?;
        lib.entry_unpacked(entry)
            .and_then(|data| decode(&data))
            .map_err(|e| SceneError::Entry {
                folder,
                file: file.to_string(),
                entry: n.into(),
                name: entry.name.clone(),
                cause: Box::new(e),
            })
    }

    /// [`Loader::entry`], a failure kept as a warning.
    fn load<T>(
        &mut self,
        folder: Folder,
        file: &str,
        n: i32,
        decode: impl FnOnce(&[u8]) -> FormatResult<T>,
    ) -> Option<T> {
        self.entry(folder, file, n, decode)
            .map_err(|e| self.warn(e))
            .ok()
    }

    fn clip(&mut self, p: &ascr::Play) {
        let key = (p.lna, p.lnr, p.enr);
        if self.assets.clips.contains_key(&key) {
            return;
        }
        let Some(prefix) = family_prefix(p.lna) else {
            return self.warn(SceneError::UnknownFamily { lna: p.lna });
        };
        let file = format!("{prefix}{:03}.LIB", p.lnr);
        if let Some(c) = self.load(Folder::Ani, &file, p.enr, |b| {
            ClipPictures::decode(&BbhdClip::parse(b)?)
        }) {
            self.assets.clips.insert(key, Arc::new(c));
        }
    }

    fn palette(&mut self, r: ascr::PaletteRef) {
        let key = (r.archive, r.entry);
        if !self.assets.palettes.contains_key(&key) {
            let file = format!("APAL{:03}.LIB", r.archive);
            if let Some(p) = self.load(Folder::Ani, &file, r.entry, apal::load_palette) {
                self.assets.palettes.insert(key, p);
            }
        }
    }

    fn sound(&mut self, bank: i32, n: i32) {
        if !self.assets.sounds.contains_key(&(bank, n)) {
            let file = format!("AFXS{bank:03}.LIB");
            if let Some(v) = self.load(Folder::Eng, &file, n, voc::parse_voc) {
                self.assets.sounds.insert((bank, n), v.to_sound());
            }
        }
    }

    /// A `write`'s message and the voices (`^VOC`, bank 0) it speaks.
    fn text(&mut self, w: &ascr::Write) {
        let key = (w.tnr, w.tid);
        if self.assets.texts.contains_key(&key) {
            return;
        }
        let file = format!("ATXT{:03}.LIB", w.tnr);
        if let Some(m) = self.load(Folder::Eng, &file, w.tid, atxt::parse_message) {
            for item in &m.items {
                if let atxt::TextItem::Voice(v) = item {
                    self.sound(0, *v as i32);
                }
            }
            self.assets.texts.insert(key, m);
        }
    }
}

impl Scene {
    /// Load script `n` of a game install with all its assets.
    pub fn load_script(dir: &GameDir, n: u32) -> Result<Scene, SceneError> {
        let bytes = dir.script_bytes(n)?;
        let script = ascr::parse_script(&bytes).map_err(|e| SceneError::Script {
            number: n,
            cause: Box::new(e),
        })?;
        Ok(Scene::load(script, dir))
    }

    /// Load a script file (such as `ASCR001.ascr`) with the assets of the install it sits in: its
    /// folder is read as a [`GameDir`].
    pub fn load_script_file(file: &OpenedFile) -> Result<Scene, SceneError> {
        let script = ascr::parse_script(file.bytes()).map_err(|e| SceneError::ScriptFile {
            path: file.path().to_path_buf(),
            cause: Box::new(e),
        })?;
        Ok(Scene::load(script, &GameDir::new(file.folder().dir())))
    }

    /// Load every asset `script` names from `dir`. Failures become [`Scene::warnings`].
    pub fn load(script: Script, dir: &GameDir) -> Scene {
        let mut loader = Loader {
            dir,
            files: BTreeMap::new(),
            assets: SceneAssets::default(),
            warnings: Vec::new(),
            line: 0,
        };
        for line in &script.lines {
            loader.line = line.line;
            match &line.command {
                Command::Play(p) => loader.clip(p),
                Command::InitPal(r) => loader.palette(*r),
                Command::Blend(b) => {
                    loader.palette(b.from);
                    loader.palette(b.to);
                }
                Command::Write(w) => loader.text(w),
                Command::Fx(f) => loader.sound(f.bank, f.sound),
                _ => {}
            }
        }
        Scene {
            script,
            assets: loader.assets,
            warnings: loader.warnings,
            width: modex::frame::DEFAULT_WIDTH,
            height: modex::frame::DEFAULT_HEIGHT,
        }
    }

    /// Play the scene through `palette` instead of the palettes its script starts it on.
    ///
    /// For a user who has the right palette when the scene's own is missing or unconfirmed (a
    /// `--palette` file, the game's palette from elsewhere): every `initpal` line is dropped and
    /// one `initpal` of `palette` (kept in the assets under [`REPLACED_PALETTE`], which no archive
    /// can have) is put before the first line, with line number 0 as no line of the file has it.
    /// The scene then starts on `palette` and never switches to one of its own. `BLEND` fades are
    /// left alone: they fade between their own named palettes, as in the game.
    pub fn replace_palette(&mut self, palette: Palette) {
        self.script
            .lines
            .retain(|l| !matches!(l.command, Command::InitPal(_)));
        self.assets.palettes.insert(REPLACED_PALETTE, palette);
        let (archive, entry) = REPLACED_PALETTE;
        self.script.lines.insert(
            0,
            ascr::Line {
                line: 0,
                command: Command::InitPal(ascr::PaletteRef {
                    selector: 0,
                    archive,
                    entry,
                }),
            },
        );
    }

    /// A scene that plays one clip on its own: forwards, repeating, at `fps` pictures per second,
    /// for `laps` laps, through `palette`. The screen is at least 360x240.
    pub fn from_clip(clip: ClipPictures, palette: Palette, fps: i32, laps: u32) -> Scene {
        let (w, h) = (clip.width, clip.height);
        let n = clip.pictures.len().max(1) as i64;
        let fps = fps.max(1);
        let tps = ascr::TICKS_PER_SECOND as i64;
        let ticks = ((n * laps.max(1) as i64 * tps + fps as i64 - 1) / fps as i64)
            .clamp(1, i32::MAX as i64) as i32;
        let width = w.max(modex::frame::DEFAULT_WIDTH);
        let height = h.max(modex::frame::DEFAULT_HEIGHT);
        let play = ascr::Play {
            eff: 1,
            lna: 36,
            frq: fps,
            pmo: 3,
            dur: ticks,
            stx: ((width - w) / 2) as i32,
            sty: ((height - h) / 2) as i32,
            wiw: width as i32,
            wih: height as i32,
            ..Default::default()
        };
        let mut assets = SceneAssets::default();
        assets.clips.insert((36, 0, 0), Arc::new(clip));
        assets.palettes.insert((0, 0), palette);
        let script = Script {
            lines: vec![
                ascr::Line {
                    line: 1,
                    command: Command::InitPal(ascr::PaletteRef {
                        selector: 0,
                        archive: 0,
                        entry: 0,
                    }),
                },
                ascr::Line {
                    line: 2,
                    command: Command::Play(play),
                },
                ascr::Line {
                    line: 3,
                    command: Command::End(ticks),
                },
            ],
        };
        Scene {
            script,
            assets,
            warnings: Vec::new(),
            width,
            height,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lib_archive::encode_lib;
    use crate::sequencer::Timeline;
    use modex::MemorySource;

    fn flat(rgb: [u8; 3]) -> Palette {
        Palette { colors: [rgb; 256] }
    }

    /// An install in memory: two palettes, one script using both (initpal, BLEND) and a missing
    /// sound.
    fn memory_install(script: &str) -> GameDir {
        let mut ani = MemorySource::new();
        ani.insert(
            "APAL000.LIB",
            encode_lib(&[
                ("A", apal::encode_palette(&flat([0, 0, 252]), false)),
                ("B", apal::encode_palette(&flat([252, 0, 0]), false)),
            ]),
        );
        ani.insert(
            "ascr000.lib",
            encode_lib(&[("ASCR000", b"rem\r\n".to_vec()), ("ASCR001", script.into())]),
        );
        GameDir::from_sources("memory", ani, MemorySource::new())
    }

    const SCRIPT: &str = "initpal(15,0,0)\nfx(1,0,3,2,100,1)\ninitpal(15,0,1)\n\
                          BLEND(15,0,0,15,0,1,10,20,5,15)\nEnd(30)\n";

    #[test]
    fn scripts_and_assets_come_from_any_file_source() {
        let dir = memory_install(SCRIPT);
        assert_eq!(dir.first_script().unwrap(), 1);
        let scene = Scene::load_script(&dir, 1).unwrap();
        assert_eq!(scene.assets.palettes.len(), 2);
        // The missing sound bank names its line, folder and file.
        assert_eq!(scene.warnings.len(), 1);
        let w = scene.warnings[0].to_string();
        assert_eq!(w, "line 2: ENG/AFXS000.LIB not found in memory", "{w}");
        assert!(matches!(
            Scene::load_script(&dir, 7),
            Err(SceneError::NoScript { number: 7, .. })
        ));
    }

    #[test]
    fn scripts_are_listed_by_the_numbers_that_play_them() {
        // Names with gaps and one that is no script number: ASCR007 is reached by name (7) and
        // by its place in name order (2); INTRO only by its place (3, as ASCR003 is missing).
        let mut ani = MemorySource::new();
        ani.insert(
            "ASCR000.LIB",
            encode_lib(&[
                ("ASCR007", SCRIPT.as_bytes().to_vec()),
                ("ASCR000", b"rem\r\n".to_vec()),
                ("INTRO", b"End(5)\n".to_vec()),
                ("ASCR001", b"not ( a script".to_vec()),
            ]),
        );
        let dir = GameDir::from_sources("memory", ani, MemorySource::new());
        let got: Vec<(u32, String, usize)> = dir
            .scripts()
            .unwrap()
            .into_iter()
            .map(|s| (s.number, s.name, s.commands))
            .collect();
        let want = [
            (0, "ASCR000", 0),
            (1, "ASCR001", 0),
            (3, "INTRO", 1),
            (7, "ASCR007", 5),
        ];
        let want: Vec<(u32, String, usize)> = want
            .iter()
            .map(|&(n, s, c)| (n, s.to_string(), c))
            .collect();
        assert_eq!(got, want);
        // Each number plays the script listed under it.
        for s in dir.scripts().unwrap() {
            let bytes = dir.script_bytes(s.number).unwrap();
            let lib_bytes = dir.read(Folder::Ani, SCRIPT_ARCHIVE).unwrap();
            let lib = LibArchive::parse(&lib_bytes).unwrap();
            assert_eq!(
                bytes,
                lib.entry_data(lib.find(&s.name).unwrap()),
                "{}",
                s.name
            );
        }
    }

    #[test]
    fn broken_entries_name_the_archive_entry() {
        let mut ani = MemorySource::new();
        ani.insert("APAL000.LIB", encode_lib(&[("SHORT", vec![1, 2, 3])]));
        let dir = GameDir::from_sources("m", ani, MemorySource::new());
        let script = ascr::parse_script(b"rem\ninitpal(15,0,0)\ninitpal(15,0,4)").unwrap();
        let scene = Scene::load(script, &dir);
        let w: Vec<String> = scene.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            w[0].starts_with("line 2: ANI/APAL000.LIB entry 0 (SHORT): "),
            "{w:?}"
        );
        assert_eq!(w[1], "line 3: ANI/APAL000.LIB has no entry 4 (1 entries)");
    }

    #[test]
    fn replace_palette_starts_the_scene_on_it_and_keeps_the_fades() {
        let mut scene = Scene::load_script(&memory_install(SCRIPT), 1).unwrap();
        let grey = Palette::grey_ramp();
        scene.replace_palette(grey.clone());
        let initpals: Vec<&ascr::Line> = scene
            .script
            .lines
            .iter()
            .filter(|l| matches!(l.command, Command::InitPal(_)))
            .collect();
        assert_eq!(initpals.len(), 1, "both of the script's initpal lines go");
        assert_eq!(scene.script.lines[0].line, 0);
        assert_eq!(scene.script.lines.len(), 4);
        assert_eq!(scene.assets.palettes[&REPLACED_PALETTE], grey);
        let tl = Timeline::new(&scene);
        assert_eq!(tl.palette_at(0), grey);
        assert_eq!(tl.palette_at(4), grey);
        // The BLEND still fades colours 10..=20 from its own palette A to B.
        let faded = tl.palette_at(29);
        assert_eq!(faded.colors[15], [255, 0, 0]);
        assert_eq!(faded.colors[30], grey.colors[30]);
        // Replacing twice keeps one initpal.
        scene.replace_palette(flat([1, 2, 3]));
        assert_eq!(Timeline::new(&scene).palette_at(0), flat([1, 2, 3]));
        assert_eq!(scene.script.lines.len(), 4);
    }

    #[test]
    fn install_folders_are_found_in_any_case() {
        let root = std::env::temp_dir().join(format!("modex-gamedir-{}", std::process::id()));
        std::fs::create_dir_all(root.join("ani")).unwrap();
        std::fs::write(root.join("ani").join("Apal000.lib"), b"x").unwrap();
        assert!(GameDir::looks_like_install(&root));
        let dir = GameDir::open(&root).unwrap();
        assert_eq!(dir.read(Folder::Ani, "APAL000.LIB").unwrap(), b"x");
        assert!(matches!(
            dir.read(Folder::Eng, "ATXT000.LIB"),
            Err(SceneError::Missing { .. })
        ));
        let not = GameDir::open(root.join("ani")).unwrap_err();
        assert!(not.to_string().contains("no ANI/ folder"), "{not}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
