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

    fn read_beside(&self, name: &str, _model: &str) -> Option<Vec<u8>> {
        // Every dropped file is "beside" every other: only names are kept.
        self.bytes(self.name_of(name)?)
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
        assert_eq!(d.read_beside("skins/warlock.mdl", &key), Some(vec![1]));
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
