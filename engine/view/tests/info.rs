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
    fn has(&self, _: &str) -> bool {
        false
    }
    fn root(&self) -> String {
        "nowhere".into()
    }
    fn read(&self, _: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        Ok(None)
    }
    fn read_beside(&self, _: &str, _: &str) -> Option<Vec<u8>> {
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
