//! Detection and palettes on the project's own data (`data/cutscene`, `data/demo`): files the
//! project's tools made, so this runs everywhere, samples or not.

mod common;

use std::path::{Path, PathBuf};

use modex::Palette;
use modex_assets::{detect, load_palette, Asset, Format, PaletteError, PaletteFile, PaletteSource};
use modex_cutscene::{apal, LibArchive};

fn data(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(sub)
}

#[test]
fn every_project_file_is_detected_and_only_palettes_load_as_palettes() {
    let mut counted = 0;
    for dir in ["cutscene", "demo"] {
        for path in common::files(&data(dir)) {
            let asset = Asset::open(&path).unwrap();
            let want = common::expected(&path).unwrap();
            assert_eq!(asset.format(), want, "{}", path.display());
            let pal = asset.palette();
            if want == Format::Palette {
                pal.unwrap();
            } else {
                let e = pal.unwrap_err();
                assert!(
                    matches!(e, PaletteError::NotAPalette { found: Some(f), .. } if f == want),
                    "{}: {e}",
                    path.display()
                );
            }
            counted += 1;
        }
    }
    assert!(counted >= 20, "only {counted} files");
}

#[test]
fn day_pal_is_a_six_bit_vga_palette() {
    let path = data("cutscene/day.pal");
    let f = PaletteFile::open(&path).unwrap();
    assert_eq!(
        f.source,
        PaletteSource::Vga {
            six_bit: true,
            ignored: 0
        }
    );
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(f.palette, Palette::from_rgb_bytes(&bytes).unwrap());
    assert_eq!(f.palette, apal::load_palette(&bytes).unwrap());
}

#[test]
fn every_apal_entry_loads_as_the_cutscene_player_reads_it() {
    let bytes = std::fs::read(data("cutscene/ANI/APAL000.LIB")).unwrap();
    let lib = LibArchive::parse(&bytes).unwrap();
    let mut wrapped = 0;
    for e in lib.sorted() {
        let stored = lib.entry_data(e);
        // An entry extracted to a file keeps its LIB name: no extension that says anything.
        let name = Path::new(&e.name);
        let f = PaletteFile::read(name, stored).unwrap();
        assert_eq!(f.palette, apal::load_palette(stored).unwrap(), "{}", e.name);
        assert_eq!(f.tpwm, modex_cutscene::tpwm::is_tpwm(stored), "{}", e.name);
        wrapped += usize::from(f.tpwm);
        let unpacked = lib.entry_unpacked(e).unwrap();
        assert_eq!(detect(name, &unpacked), Some(Format::Palette), "{}", e.name);
        assert_eq!(load_palette(name, &unpacked).unwrap(), f.palette);
    }
    // DAY is stored plain, NIGHT TPWM-wrapped: both branches are read.
    assert_eq!((lib.len(), wrapped), (2, 1));
}
