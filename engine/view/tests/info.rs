//! `modex_view::info` from bytes and a `FileSource` alone: what the web page describes with, where
//! there is no disk. The binary's `info` tests (game-demo/tests) cover the same summaries read
//! from disk.

use modex::MemorySource;
use modex_assets::Format;
use modex_view::info::{self, EntityFiles, Subject};
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};

/// No level is described here: a search that finds nothing.
struct NoEntities;

impl EntityFiles for NoEntities {
    fn find(&self, _: &str) -> Option<String> {
        None
    }
    fn root(&self) -> String {
        "nowhere".into()
    }
    fn read(&self, _: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        Ok(None)
    }
    fn read_beside(&self, _: &str, _: &str) -> Option<(String, Vec<u8>)> {
        None
    }
}

fn tank() -> Vec<u8> {
    VxlSpec::single(LimbSpec::filled_box([4, 3, 2], 100, 5)).encode()
}

#[test]
fn a_vxl_finds_its_hva_in_the_source_whatever_its_case() {
    let vxl = tank();
    let mut folder = MemorySource::new();
    folder.insert("TANK.HVA", HvaSpec::identity(1, 3).encode());
    let file = Subject {
        name: "units/tank.vxl",
        format: Format::Vxl,
        bytes: &vxl,
        folder: &folder,
    };
    let d = info::describe(&file, None, &NoEntities).unwrap();
    assert_eq!(d.json["hva_frames"], 3);
    assert!(
        d.text.contains("HVA tank.hva: 3 frames x 1 sections"),
        "{}",
        d.text
    );

    let alone = MemorySource::new();
    let d = info::describe(
        &Subject {
            folder: &alone,
            ..file
        },
        None,
        &NoEntities,
    )
    .unwrap();
    assert!(d.json.get("hva_frames").is_none());
    assert!(d.text.contains("no HVA beside it"), "{}", d.text);
}

#[test]
fn a_damaged_hva_beside_a_vxl_is_named_in_the_error() {
    let vxl = tank();
    let mut folder = MemorySource::new();
    folder.insert("tank.hva", vec![0; 7]);
    let file = Subject {
        name: "tank.vxl",
        format: Format::Vxl,
        bytes: &vxl,
        folder: &folder,
    };
    let e = info::describe(&file, None, &NoEntities).unwrap_err();
    assert!(e.to_string().starts_with("tank.hva: "), "{e}");
}

#[test]
fn the_listing_is_the_name_then_each_line_indented() {
    let d = info::Description {
        json: serde_json::json!({"format": "x"}),
        text: "one\ntwo".into(),
    };
    assert_eq!(info::listing("a.mdl", &d), "a.mdl:\n  one\n  two\n");
}

/// Entity files found by their key, at a path below a game root.
struct Found(Vec<&'static str>);

impl EntityFiles for Found {
    fn find(&self, name: &str) -> Option<String> {
        let key = modex_view::level::name_key(name);
        self.0
            .iter()
            .find(|p| modex_view::level::name_key(p) == key)
            .map(|p| p.to_string())
    }
    fn root(&self) -> String {
        "game".into()
    }
    fn read(&self, _: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        Ok(None)
    }
    fn read_beside(&self, _: &str, _: &str) -> Option<(String, Vec<u8>)> {
        None
    }
}

fn entity(file: &str) -> modex_mdl::wmb::Object {
    modex_mdl::wmb::Object::Entity(modex_mdl::wmb::Entity {
        name: "wächter".into(),
        action: "act_rüstung".into(),
        ..modex_testkit::level::entity(file)
    })
}

#[test]
fn a_level_says_where_each_entity_file_is_and_lists_the_missing_once() {
    let level = modex_mdl::wmb::WmbFile {
        objects: ["Rüstung.mdl", "a.mdl", "models\\b.tga", "A.MDL", "c.mdl"]
            .into_iter()
            .map(entity)
            .collect(),
        ..Default::default()
    };
    // The writer stores the names as Windows-1252, as GameStudio did.
    let bytes = modex_mdl::wmb::encode::encode(&level);
    assert!(bytes.windows(12).any(|w| w == b"R\xfcstung.mdl\0"));
    let files = Found(vec!["Assets/RÜSTUNG.MDL", "Level/c.mdl"]);
    let folder = MemorySource::new();
    let file = Subject {
        name: "Level/start.wmb",
        format: Format::Wmb,
        bytes: &bytes,
        folder: &folder,
    };
    let d = info::describe(&file, None, &files).unwrap();
    let e = &d.json["entities"];
    assert_eq!(e[0]["file"], "Rüstung.mdl");
    assert_eq!(e[0]["name"], "wächter");
    assert_eq!(e[0]["action"], "act_rüstung");
    assert_eq!(e[0]["found"], true);
    assert_eq!(e[0]["path"], "Assets/RÜSTUNG.MDL");
    assert_eq!(e[1]["found"], false);
    assert!(e[1]["path"].is_null());
    assert_eq!(e[4]["path"], "Level/c.mdl");
    assert_eq!(d.json["entities_found"], 2);
    assert!(d.text.contains("  wächter Rüstung.mdl at"), "{}", d.text);
    assert_eq!(
        d.text.lines().last(),
        Some("missing: a.mdl, models\\b.tga"),
        "{}",
        d.text
    );

    // Nothing missing: no line.
    let all = Found(vec!["Rüstung.mdl", "a.mdl", "b.tga", "c.mdl"]);
    let d = info::describe(&file, None, &all).unwrap();
    assert!(!d.text.contains("missing"), "{}", d.text);
}
