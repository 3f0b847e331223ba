//! The files a user dropped or picked: held in memory by name, found without regard to case, and
//! the choice of which of them the page shows.

use std::io;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use modex::{FileSource, MemorySource};
use modex_assets::{detect, Family, Format};
use modex_cutscene::{GameDir, SceneError, ScriptEntry};
use modex_view::level::name_key;

/// The dropped files, by their name (the last part of the path a folder drop gave).
#[derive(Debug, Clone, Default)]
pub struct Dropped {
    names: Vec<String>,
    /// Shared with a cutscene shown ([`Dropped::shared`]), which needs files it owns.
    source: Arc<MemorySource>,
    /// The install's scripts ([`Dropped::scripts`]), read the first time they are asked for
    /// after a drop: reading them unpacks and parses every script of the archive, and the tree,
    /// the list and the file shown each ask.
    scripts: OnceLock<Result<Vec<ScriptEntry>, SceneError>>,
}

/// Something the page can show: a dropped file, or a script of a dropped install's archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Showable {
    /// The dropped name, or for a script in the archive `ASCRnnn` (what the page lists and the
    /// URL's `file` names).
    pub name: String,
    /// Its format (a script in the archive: [`Format::Ascr`]).
    pub format: Format,
    /// For a script in the archive, its number (`modex play --script`) and commands.
    pub script: Option<ScriptEntry>,
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
        Arc::make_mut(&mut self.source).insert(&name, bytes);
        if name.eq_ignore_ascii_case(SCRIPT_ARCHIVE) {
            self.scripts = OnceLock::new();
        }
    }

    /// The files, to find siblings, skins, palettes and archives in.
    pub fn source(&self) -> &MemorySource {
        &self.source
    }

    /// The files as a source of their own (for a cutscene's install), without copying them.
    pub fn shared(&self) -> SharedFiles {
        SharedFiles(Arc::clone(&self.source))
    }

    /// The bytes of `name` (any case).
    pub fn bytes(&self, name: &str) -> Option<Vec<u8>> {
        self.get(name).map(<[u8]>::to_vec)
    }

    /// The bytes of `name` (any case), borrowed.
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.source.get(name)
    }

    /// The format of the dropped file `name`, from its bytes and name (no decoding).
    fn format_of(&self, name: &str) -> Option<Format> {
        detect(Path::new(name), self.get(name)?)
    }

    /// The scripts of the dropped install's script archive (`ASCR000.LIB`) by number (none
    /// when none was dropped), or why the archive does not read.
    pub fn scripts(&self) -> Result<&[ScriptEntry], &SceneError> {
        self.scripts
            .get_or_init(|| self.archive().map_or(Ok(Vec::new()), |d| d.scripts()))
            .as_deref()
    }

    /// The text of script `number` of the dropped install's archive.
    pub fn script_bytes(&self, number: u32) -> Result<Vec<u8>, SceneError> {
        match self.archive() {
            Some(dir) => dir.script_bytes(number),
            None => Err(SceneError::NoScripts {
                root: SCRIPT_ARCHIVE.into(),
            }),
        }
    }

    /// An install holding only the dropped script archive, to list and read its scripts.
    fn archive(&self) -> Option<GameDir> {
        let bytes = self.get(SCRIPT_ARCHIVE)?;
        let mut ani = MemorySource::new();
        ani.insert(SCRIPT_ARCHIVE, bytes.to_vec());
        Some(GameDir::from_sources(
            SCRIPT_ARCHIVE,
            ani,
            MemorySource::new(),
        ))
    }

    /// What the page can show, in this order: the cutscenes (scene scripts the user dropped,
    /// then the scripts with commands of an install's archive by number: a folder drop of a
    /// whole game holds the archive, and a script dropped with it is the one the user chose),
    /// the levels (a GameStudio game's folder is its levels and the models they place; the
    /// level is what it shows), then models, terrain and voxel bodies, by name.
    pub fn showable(&self) -> Vec<Showable> {
        let mut out: Vec<Showable> = self
            .names
            .iter()
            .filter_map(|n| {
                let format = self.format_of(n)?;
                let shown = match format.family() {
                    Family::Model => true,
                    Family::Voxel => format == Format::Vxl,
                    Family::Cutscene => format == Format::Ascr,
                    Family::Palette => false,
                };
                shown.then(|| Showable {
                    name: n.clone(),
                    format,
                    script: None,
                })
            })
            .collect();
        let taken: Vec<String> = out.iter().map(|s| s.name.to_ascii_lowercase()).collect();
        out.extend(
            self.scripts()
                .unwrap_or_default()
                .iter()
                .filter(|s| s.commands > 0)
                .map(|s| Showable {
                    name: script_name(s.number),
                    format: Format::Ascr,
                    script: Some(s.clone()),
                })
                .filter(|s| !taken.contains(&s.name.to_ascii_lowercase())),
        );
        out.sort_by_key(|s| {
            (
                s.format.family() != Family::Cutscene,
                s.script.is_some(),
                s.format != Format::Wmb,
                s.name.to_ascii_lowercase(),
            )
        });
        out
    }

    /// The dropped name that the last part of `path` is, in any case (Unicode's: a level's
    /// `RÜSTUNG.MDL` is the dropped `Rüstung.mdl`).
    fn name_of(&self, path: &str) -> Option<&str> {
        let key = name_key(path);
        self.names
            .iter()
            .find(|n| n.to_lowercase() == key)
            .map(String::as_str)
    }

    /// Every dropped name, in the order dropped.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Every dropped file with its kind, for the page's tree: grouped by `Kind` (in its order),
    /// by name within a kind. A unit's HVA (same stem as a dropped VXL) is not an entry of its
    /// own: it is named in its unit's note, as are the VPLs that light it. An install's script
    /// archive is listed with the cutscenes, and its scripts with commands below it by number,
    /// each an entry that plays it.
    pub fn tree(&self) -> Vec<Entry> {
        let showable = self.showable();
        let detected: Vec<(String, Option<Format>)> = self
            .names
            .iter()
            .map(|n| (n.clone(), self.format_of(n)))
            .collect();
        let stem = |n: &str| {
            n.rsplit_once('.')
                .map_or(n, |(s, _)| s)
                .to_ascii_lowercase()
        };
        let of = |f: Format| detected.iter().filter(move |(_, g)| *g == Some(f));
        let units: Vec<String> = of(Format::Vxl).map(|(n, _)| stem(n)).collect();
        let vpls: Vec<&str> = of(Format::Vpl).map(|(n, _)| n.as_str()).collect();
        let scripts = self.scripts();
        let mut out: Vec<Entry> = detected
            .iter()
            .filter(|(n, f)| !(*f == Some(Format::Hva) && units.contains(&stem(n))))
            .map(|(name, format)| {
                let shown = showable
                    .iter()
                    .any(|s| s.script.is_none() && s.name == *name);
                let mut kind = Kind::of(*format, shown);
                let mut note = String::new();
                if *format == Some(Format::Vxl) {
                    let with: Vec<&str> = of(Format::Hva)
                        .map(|(n, _)| n.as_str())
                        .filter(|n| stem(n) == stem(name))
                        .chain(vpls.iter().copied())
                        .collect();
                    if !with.is_empty() {
                        note = format!("with {}", with.join(", "));
                    }
                }
                if name.eq_ignore_ascii_case(SCRIPT_ARCHIVE) {
                    // The install's scripts are listed below it; or why they cannot be.
                    kind = Kind::Cutscene;
                    note = match &scripts {
                        Ok(s) => {
                            let empty = s.iter().filter(|s| s.commands == 0).count();
                            format!("{} scripts, {empty} of them empty", s.len())
                        }
                        Err(e) => format!("cannot be read: {e}"),
                    };
                }
                Entry {
                    name: name.clone(),
                    kind,
                    shown,
                    note,
                }
            })
            .collect();
        out.extend(showable.iter().filter_map(|s| {
            let script = s.script.as_ref()?;
            let mut note = format!("script {}, {} commands", script.number, script.commands);
            if !script.name.eq_ignore_ascii_case(&s.name) {
                note.push_str(&format!(" (entry {})", script.name));
            }
            Some(Entry {
                name: s.name.clone(),
                kind: Kind::Cutscene,
                shown: true,
                note,
            })
        }));
        out.sort_by_key(|e| (e.kind, e.name.to_lowercase()));
        out
    }
}

/// What the page lists script `number` of an install's archive as (and the URL's `file` names):
/// the entry name the games give it, `ASCR012`.
pub fn script_name(number: u32) -> String {
    format!("ASCR{number:03}")
}

/// The dropped files shared with what keeps them beyond a call (a cutscene's install).
#[derive(Debug, Clone)]
pub struct SharedFiles(Arc<MemorySource>);

impl FileSource for SharedFiles {
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        self.0.read(name)
    }
}

/// What a dropped file is, as the page's tree groups it (in this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// WMB levels.
    Level,
    /// MDL models (and GTA Stories models).
    Model,
    /// HMP terrain.
    Terrain,
    /// Westwood voxel units (their VXL bodies).
    Unit,
    /// Battle Isle 2 scene scripts and the install's script archive.
    Cutscene,
    /// Palettes: VGA palettes, PCX images, voxel lighting pages.
    Palette,
    /// Everything else: skins, clips, sounds, archives, files of no known format.
    Other,
}

impl Kind {
    /// The kind of a file of `format` (`None`: not detected); `shown`: the page can
    /// show it.
    fn of(format: Option<Format>, shown: bool) -> Kind {
        match format {
            Some(Format::Wmb) => Kind::Level,
            Some(Format::Mdl | Format::StoriesMdl) => Kind::Model,
            Some(Format::Hmp) => Kind::Terrain,
            Some(Format::Vxl) => Kind::Unit,
            Some(Format::Pcx | Format::Palette | Format::Vpl) => Kind::Palette,
            Some(_) if shown => Kind::Cutscene,
            _ => Kind::Other,
        }
    }

    /// Its heading in the tree.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Level => "levels",
            Kind::Model => "models",
            Kind::Terrain => "terrain",
            Kind::Unit => "voxel units",
            Kind::Cutscene => "cutscenes",
            Kind::Palette => "palettes",
            Kind::Other => "other",
        }
    }
}

/// One line of the page's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The dropped name.
    pub name: String,
    /// Its group.
    pub kind: Kind,
    /// Whether choosing it shows it.
    pub shown: bool,
    /// What goes with it (a unit's HVA and VPLs), or empty.
    pub note: String,
}

/// A level's entity files are looked for among the dropped files, by name: a folder drop keeps
/// only names, and GameStudio's search paths are folders of the same game.
impl modex_view::level::EntityFiles for Dropped {
    fn find(&self, name: &str) -> Option<String> {
        self.name_of(name).map(str::to_string)
    }

    fn root(&self) -> String {
        "the dropped files".to_string()
    }

    fn read(&self, name: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        let Some(found) = self.name_of(name) else {
            return Ok(None);
        };
        let key = found.to_lowercase();
        Ok(self.bytes(found).map(|b| (key, b)))
    }

    fn read_beside(&self, name: &str, _model: &str) -> Option<(String, Vec<u8>)> {
        // Every dropped file is "beside" every other: only names are kept.
        let found = self.name_of(name)?;
        Some((found.to_lowercase(), self.bytes(found)?))
    }

    fn key_beside(&self, name: &str, _model: &str) -> Option<String> {
        // The key alone: the bytes are copied out of the dropped file only when decoded.
        self.name_of(name).map(str::to_lowercase)
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

    #[test]
    fn a_dropped_script_is_shown_before_the_install_s_scripts_by_number() {
        // The sample scene as a folder drop: the install's archives and the script beside them.
        let mut d = Dropped::new();
        for f in modex_testkit::sample_scene::generate() {
            d.insert(f.path, f.bytes);
        }
        let shown: Vec<(String, Format, Option<u32>)> = d
            .showable()
            .into_iter()
            .map(|s| (s.name, s.format, s.script.map(|s| s.number)))
            .collect();
        // ASCR000 has no commands: not listed.
        assert_eq!(
            shown,
            [
                ("ASCR001.ascr".to_string(), Format::Ascr, None),
                ("ASCR001".to_string(), Format::Ascr, Some(1)),
            ]
        );
        assert_eq!(d.script_bytes(1).unwrap(), d.bytes("ASCR001.ascr").unwrap());
        // The tree: the archive with its count, the scripts with theirs.
        let tree: Vec<(String, Kind, bool, String)> = d
            .tree()
            .into_iter()
            .filter(|e| e.kind == Kind::Cutscene)
            .map(|e| (e.name, e.kind, e.shown, e.note))
            .collect();
        let commands = d.scripts().unwrap()[1].commands;
        // Read once: every later ask gets the same list, until another archive is dropped.
        assert!(std::ptr::eq(d.scripts().unwrap(), d.scripts().unwrap()));
        let mut damaged = d.clone();
        damaged.insert("ani/ascr000.lib", b"LIB".to_vec());
        assert!(damaged.scripts().is_err());
        assert!(d.scripts().is_ok());
        assert!(commands > 10, "{commands}");
        assert_eq!(
            tree,
            [
                (
                    "ASCR000.LIB".to_string(),
                    Kind::Cutscene,
                    false,
                    "2 scripts, 1 of them empty".to_string()
                ),
                (
                    "ASCR001".to_string(),
                    Kind::Cutscene,
                    true,
                    format!("script 1, {commands} commands")
                ),
                (
                    "ASCR001.ascr".to_string(),
                    Kind::Cutscene,
                    true,
                    String::new()
                ),
            ]
        );
    }

    #[test]
    fn a_script_of_the_archive_plays_by_its_listed_name() {
        let mut d = Dropped::new();
        for f in modex_testkit::sample_scene::generate() {
            if !f.path.ends_with(".ascr") {
                d.insert(f.path, f.bytes);
            }
        }
        let mut page = crate::page::Page::default();
        page.dropped = d;
        page.open("").unwrap();
        assert_eq!(page.name, "ASCR001");
        assert!(page.is_cutscene() && page.frames() > 100);
        assert!(
            page.info.starts_with("ASCR001:\n  ASCR scene script"),
            "{}",
            page.info
        );
        page.open("ascr001").unwrap();
        assert_eq!(page.name, "ASCR001");
        assert!(
            page.open("ASCR000").is_err(),
            "an empty script is not listed"
        );
    }

    #[test]
    fn entity_files_are_found_among_the_dropped_files_by_name() {
        use modex_view::level::EntityFiles;
        let mut d = Dropped::new();
        d.insert("Game/Level/warlock.MDL", vec![1]);
        assert!(d.has("WARLOCK.mdl"));
        assert!(d.has("models\\warlock.mdl"));
        assert!(!d.has("milk.mdl"));
        // Names beyond ASCII match in any case too; the path `info` shows is the dropped name.
        d.insert("Game/Assets/Rüstung.mdl", vec![2]);
        assert_eq!(d.find("RÜSTUNG.MDL").as_deref(), Some("Rüstung.mdl"));
        // One key for every spelling, so a level decodes the file once.
        let (key, bytes) = d.read("c:\\game\\Warlock.mdl").unwrap().unwrap();
        assert_eq!((key.as_str(), bytes), ("warlock.mdl", vec![1]));
        assert_eq!(d.read("WARLOCK.MDL").unwrap().unwrap().0, key);
        assert!(d.read("milk.mdl").unwrap().is_none());
        assert_eq!(
            d.read_beside("skins/warlock.mdl", &key).map(|(_, b)| b),
            Some(vec![1])
        );
    }

    #[test]
    fn a_game_folder_shows_its_level_first() {
        let mut d = Dropped::new();
        d.insert("Game/Assets/acktana.mdl", b"MDL5....".to_vec());
        d.insert(
            "Game/Level/testlevel.wmb",
            modex_mdl::wmb::encode::encode(&level()),
        );
        d.insert(
            "Game/Level/bestiary.WMB",
            modex_mdl::wmb::encode::encode(&level()),
        );
        let names: Vec<String> = d.showable().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["bestiary.WMB", "testlevel.wmb", "acktana.mdl"]);
    }

    #[test]
    fn the_tree_groups_files_by_kind_with_a_unit_s_pieces_beside_it() {
        let mut d = Dropped::new();
        d.insert(
            "Game/Level/testlevel.wmb",
            modex_mdl::wmb::encode::encode(&level()),
        );
        d.insert("units/HMEC.vxl", modex_vxl_bytes());
        d.insert("units/hmec.hva", vec![0; 16]);
        d.insert("units/lone.hva", vec![0; 16]);
        d.insert("units/test.vpl", vec![0; 16]);
        d.insert("readme.txt", b"hello".to_vec());
        let tree = d.tree();
        let kinds: Vec<(&str, Kind)> = tree.iter().map(|e| (e.name.as_str(), e.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("testlevel.wmb", Kind::Level),
                ("HMEC.vxl", Kind::Unit),
                ("test.vpl", Kind::Palette),
                ("lone.hva", Kind::Other),
                ("readme.txt", Kind::Other),
            ]
        );
        assert_eq!(tree[1].note, "with hmec.hva, test.vpl");
        assert!(tree[0].shown && tree[1].shown && !tree[2].shown);
    }

    /// A VXL file's first bytes: enough for `detect`.
    fn modex_vxl_bytes() -> Vec<u8> {
        let mut b = b"Voxel Animation\0".to_vec();
        b.resize(802, 0);
        b
    }

    fn level() -> modex_mdl::wmb::WmbFile {
        modex_mdl::wmb::WmbFile::default()
    }
}
