//! A scene: a parsed script and every asset it names, loaded from a Battle Isle 2 install (or the
//! project's sample scene, which has the same folder layout).
//!
//! Where files live: clips in `ANI/ABCK###.LIB` (LNA 31), `ANI/APER###.LIB` (32) and
//! `ANI/AFUL###.LIB` (36), palettes in `ANI/APAL###.LIB`, scripts `ASCRnnn` in `ANI/ASCR000.LIB`,
//! texts in `ENG/ATXT###.LIB`, sounds in `ENG/AFXS###.LIB` (bank number). Entries are chosen by
//! position in the name-sorted entry list. File and folder names are matched case-insensitively,
//! since installs copied from CD or between systems differ in case.
//!
//! A missing or broken asset does not stop the scene: the command that needs it is skipped and a
//! warning is kept in [`Scene::warnings`], so a user sees the rest of the scene and what failed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use modex::{FormatError, FormatResult, IndexedFrame, Palette, Sound};

use crate::apal;
use crate::ascr::{self, Command, Script};
use crate::atxt::{self, Message};
use crate::bbhd::BbhdClip;
use crate::lib_archive::LibArchive;
use crate::voc;

/// A clip decoded for playback: every picture of forward play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClipPictures {
    pub width: usize,
    pub height: usize,
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
    pub script: Script,
    pub assets: SceneAssets,
    /// Problems met while loading (missing files, broken assets).
    pub warnings: Vec<String>,
    /// Screen size (360x240 for scripts).
    pub width: usize,
    pub height: usize,
}

/// Archive file prefix for a script's LNA family number.
pub fn family_prefix(lna: i32) -> Option<&'static str> {
    match lna {
        31 => Some("ABCK"),
        32 => Some("APER"),
        36 => Some("AFUL"),
        _ => None,
    }
}

/// A Battle Isle 2 install (or a folder laid out like one).
#[derive(Debug, Clone)]
pub struct GameDir {
    root: PathBuf,
}

impl GameDir {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        GameDir { root: root.into() }
    }

    /// Whether `root` looks like an install: it has an `ANI` folder (any case).
    pub fn looks_like_install(root: &Path) -> bool {
        find_ci(root, "ANI").is_some_and(|p| p.is_dir())
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path of `folder/file`, matched case-insensitively.
    pub fn find(&self, folder: &str, file: &str) -> Option<PathBuf> {
        let dir = find_ci(&self.root, folder)?;
        find_ci(&dir, file)
    }

    /// Read `folder/file`.
    pub fn read(&self, folder: &str, file: &str) -> Result<Vec<u8>, String> {
        let path = self
            .find(folder, file)
            .ok_or_else(|| format!("{folder}/{file} not found in {}", self.root.display()))?;
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The text of script `n` (`ASCRnnn` in `ANI/ASCR000.LIB`; by name, else by sorted position).
    pub fn script_bytes(&self, n: u32) -> Result<Vec<u8>, String> {
        let lib_bytes = self.read("ANI", "ASCR000.LIB")?;
        let lib = LibArchive::parse(&lib_bytes).map_err(|e| e.to_string())?;
        let name = format!("ASCR{n:03}");
        let entry = lib
            .find(&name)
            .or_else(|| lib.sorted_entry(n as usize))
            .ok_or_else(|| format!("no script {name} in ANI/ASCR000.LIB"))?;
        Ok(lib
            .entry_unpacked(entry)
            .map_err(|e| e.to_string())?
            .into_owned())
    }
}

fn find_ci(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.exists() {
        return Some(exact);
    }
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name))
        .map(|e| e.path())
}

/// Opened archives, so each LIB is read once per scene.
struct Libs<'g> {
    dir: &'g GameDir,
    files: BTreeMap<(String, String), Result<Vec<u8>, String>>,
}

impl Libs<'_> {
    fn entry(&mut self, folder: &str, file: &str, n: i32) -> Result<Vec<u8>, String> {
        let key = (folder.to_string(), file.to_string());
        let bytes = self
            .files
            .entry(key)
            .or_insert_with(|| self.dir.read(folder, file))
            .as_ref()
            .map_err(Clone::clone)?;
        let lib = LibArchive::parse(bytes).map_err(|e| format!("{folder}/{file}: {e}"))?;
        let entry = usize::try_from(n)
            .ok()
            .and_then(|n| lib.sorted_entry(n))
            .ok_or_else(|| format!("{folder}/{file} has no entry {n} ({} entries)", lib.len()))?;
        lib.entry_unpacked(entry)
            .map(|c| c.into_owned())
            .map_err(|e| format!("{folder}/{file} entry {n} ({}): {e}", entry.name))
    }
}

fn want_palette(
    assets: &mut SceneAssets,
    libs: &mut Libs<'_>,
    warn: &mut dyn FnMut(String),
    archive: i32,
    entry: i32,
) {
    if assets.palettes.contains_key(&(archive, entry)) {
        return;
    }
    let file = format!("APAL{archive:03}.LIB");
    match libs
        .entry("ANI", &file, entry)
        .and_then(|b| with_context(apal::load_palette(&b), &file))
    {
        Ok(p) => {
            assets.palettes.insert((archive, entry), p);
        }
        Err(e) => warn(e),
    }
}

fn want_sound(
    assets: &mut SceneAssets,
    libs: &mut Libs<'_>,
    warn: &mut dyn FnMut(String),
    bank: i32,
    n: i32,
) {
    if assets.sounds.contains_key(&(bank, n)) {
        return;
    }
    let file = format!("AFXS{bank:03}.LIB");
    match libs
        .entry("ENG", &file, n)
        .and_then(|b| with_context(voc::parse_voc(&b), &file))
    {
        Ok(v) => {
            assets.sounds.insert((bank, n), v.to_sound());
        }
        Err(e) => warn(e),
    }
}

fn with_context<T>(r: FormatResult<T>, what: &str) -> Result<T, String> {
    r.map_err(|e: FormatError| format!("{what}: {e}"))
}

impl Scene {
    /// Load script `n` of a game install with all its assets.
    pub fn load_script(dir: &GameDir, n: u32) -> Result<Scene, String> {
        let bytes = dir.script_bytes(n)?;
        let script = ascr::parse_script(&bytes).map_err(|e| format!("ASCR{n:03}: {e}"))?;
        Ok(Scene::load(script, dir))
    }

    /// Load every asset `script` names from `dir`. Failures become warnings.
    pub fn load(script: Script, dir: &GameDir) -> Scene {
        let mut libs = Libs {
            dir,
            files: BTreeMap::new(),
        };
        let mut assets = SceneAssets::default();
        let mut warnings = Vec::new();
        let mut warn = |w: String| {
            log::warn!("{w}");
            warnings.push(w);
        };
        for cmd in script.commands() {
            match cmd {
                Command::Play(p) => {
                    let key = (p.lna, p.lnr, p.enr);
                    if assets.clips.contains_key(&key) {
                        continue;
                    }
                    let Some(prefix) = family_prefix(p.lna) else {
                        warn(format!("play: unknown archive family LNA={}", p.lna));
                        continue;
                    };
                    let file = format!("{prefix}{:03}.LIB", p.lnr);
                    let clip = libs.entry("ANI", &file, p.enr).and_then(|b| {
                        let clip = with_context(BbhdClip::parse(&b), &file)?;
                        with_context(ClipPictures::decode(&clip), &file)
                    });
                    match clip {
                        Ok(c) => {
                            assets.clips.insert(key, Arc::new(c));
                        }
                        Err(e) => warn(e),
                    }
                }
                Command::InitPal(r) => {
                    want_palette(&mut assets, &mut libs, &mut warn, r.archive, r.entry)
                }
                Command::Blend(b) => {
                    want_palette(
                        &mut assets,
                        &mut libs,
                        &mut warn,
                        b.from.archive,
                        b.from.entry,
                    );
                    want_palette(&mut assets, &mut libs, &mut warn, b.to.archive, b.to.entry);
                }
                Command::Write(w) => {
                    let key = (w.tnr, w.tid);
                    if assets.texts.contains_key(&key) {
                        continue;
                    }
                    let file = format!("ATXT{:03}.LIB", w.tnr);
                    match libs
                        .entry("ENG", &file, w.tid)
                        .and_then(|b| with_context(atxt::parse_message(&b), &file))
                    {
                        Ok(m) => {
                            for item in &m.items {
                                if let atxt::TextItem::Voice(v) = item {
                                    want_sound(&mut assets, &mut libs, &mut warn, 0, *v as i32);
                                }
                            }
                            assets.texts.insert(key, m);
                        }
                        Err(e) => warn(e),
                    }
                }
                Command::Fx(f) => want_sound(&mut assets, &mut libs, &mut warn, f.bank, f.sound),
                _ => {}
            }
        }
        Scene {
            script,
            assets,
            warnings,
            width: modex::frame::DEFAULT_WIDTH,
            height: modex::frame::DEFAULT_HEIGHT,
        }
    }

    /// A scene that plays one clip on its own: forwards, repeating, at `fps` pictures per second,
    /// for `laps` laps, through `palette` (grey ramp when none). The screen is at least 360x240.
    pub fn from_clip(clip: ClipPictures, palette: Palette, fps: i32, laps: u32) -> Scene {
        let (w, h) = (clip.width, clip.height);
        let n = clip.pictures.len().max(1) as i64;
        let fps = fps.max(1);
        let tps = crate::sequencer::TICKS_PER_SECOND as i64;
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
