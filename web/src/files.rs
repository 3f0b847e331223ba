//! The files a user dropped or picked: held in memory by name, found without regard to case, and
//! the choice of which of them the page shows.

use modex::{FileSource, MemorySource};
use modex_assets::{detect, Family, Format};
use modex_view::level::name_key;
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

    /// The files the page can show, in name order: models, terrain, levels and voxel bodies,
    /// with a cutscene first (a scene script the user dropped, else the script archive of an
    /// install: a folder drop of a whole game holds the archive; a script dropped with it is the
    /// one the user chose), then the levels (a GameStudio game's folder is its levels and the
    /// models they place; the level is what it shows).
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
        out.sort_by_key(|(n, f)| {
            (
                f.family() != Family::Cutscene,
                *f != Format::Ascr,
                *f != Format::Wmb,
                n.to_ascii_lowercase(),
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
    /// own: it is named in its unit's note, as are the VPLs that light it.
    pub fn tree(&self) -> Vec<Entry> {
        let showable = self.showable();
        let detected: Vec<(String, Option<Format>)> = self
            .names
            .iter()
            .map(|n| {
                (
                    n.clone(),
                    self.bytes(n).and_then(|b| detect(Path::new(n), &b)),
                )
            })
            .collect();
        let stem = |n: &str| {
            n.rsplit_once('.')
                .map_or(n, |(s, _)| s)
                .to_ascii_lowercase()
        };
        let of = |f: Format| detected.iter().filter(move |(_, g)| *g == Some(f));
        let units: Vec<String> = of(Format::Vxl).map(|(n, _)| stem(n)).collect();
        let vpls: Vec<&str> = of(Format::Vpl).map(|(n, _)| n.as_str()).collect();
        let mut out: Vec<Entry> = detected
            .iter()
            .filter(|(n, f)| !(*f == Some(Format::Hva) && units.contains(&stem(n))))
            .map(|(name, format)| {
                let shown = showable.iter().any(|(s, _)| s == name);
                let kind = Kind::of(*format, shown);
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
                Entry {
                    name: name.clone(),
                    kind,
                    shown,
                    note,
                }
            })
            .collect();
        out.sort_by_key(|e| (e.kind, e.name.to_lowercase()));
        out
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
    fn a_dropped_script_is_shown_before_the_install_s_script_archive() {
        // The sample scene as a folder drop: the install's archives and the script beside them.
        let mut d = Dropped::new();
        for f in modex_testkit::sample_scene::generate() {
            d.insert(f.path, f.bytes);
        }
        let shown = d.showable();
        assert_eq!(shown[0].1, Format::Ascr, "{shown:?}");
        assert!(shown
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(SCRIPT_ARCHIVE)));
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
        let names: Vec<String> = d.showable().into_iter().map(|(n, _)| n).collect();
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
        modex_mdl::wmb::WmbFile {
            textures: Vec::new(),
            materials: Vec::new(),
            blocks: Vec::new(),
            objects: Vec::new(),
            lightmap_dim: 256,
            lightmaps: Vec::new(),
            terrain_lightmaps: Vec::new(),
            other_lists: Vec::new(),
            warnings: Vec::new(),
        }
    }
}
