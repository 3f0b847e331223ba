//! The real third-party sample files (`$MODEX_SAMPLES`, else `../shared/data`): every file is
//! detected as its format, every palette file loads, every PCX without a palette and every
//! non-palette file is refused with the right error. Prints `SKIPPED` when the samples are missing.

mod common;

use std::path::Path;

use modex::Palette;
use modex_assets::{Asset, AssetError, Format, PaletteError, PaletteFile, PaletteSource};
use modex_testkit::samples_dir;

/// Check every sample under `sub`; returns (detected, palettes loaded, refused as palettes).
fn check(sub: &str) -> Option<(usize, usize, usize)> {
    let dir = samples_dir(sub)?;
    let (mut detected, mut loaded, mut refused) = (0, 0, 0);
    for path in common::files(&dir) {
        let want = common::expected(&path);
        let asset = Asset::open(&path);
        let Some(want) = want else {
            // Not a format of ours: never mistaken for a model, voxel or cutscene file.
            match asset {
                Err(AssetError::UnknownFormat { .. }) => {}
                Ok(a) => panic!("{}: detected as {}", path.display(), a.format()),
                Err(e) => panic!("{e}"),
            }
            continue;
        };
        let asset = asset.unwrap();
        assert_eq!(asset.format(), want, "{}", path.display());
        detected += 1;
        match (want, asset.palette()) {
            (Format::Pcx | Format::Vpl, Ok(_)) => loaded += 1,
            // A PCX without the trailer (24-bit) is refused as a PCX, naming the marker's offset.
            (Format::Pcx, Err(PaletteError::Pcx { source, .. })) => {
                assert_eq!(source.field, "palette trailer marker", "{}", path.display());
                assert_eq!(source.offset, asset.bytes().len() - 769);
                refused += 1;
            }
            (_, Err(PaletteError::NotAPalette { found, .. })) if found == Some(want) => {
                refused += 1
            }
            (_, other) => panic!("{}: as a palette: {other:?}", path.display()),
        }
    }
    Some((detected, loaded, refused))
}

/// Every sample under `sub` is detected, and exactly one of them (`palette`) loads as a palette.
fn every_sample_detected(sub: &str, at_least: usize, palette: &str) {
    let Some((detected, loaded, refused)) = check(sub) else {
        return;
    };
    eprintln!("{sub} samples: {detected} detected, {loaded} palettes loaded, {refused} refused");
    assert!(detected >= at_least, "{detected}");
    assert_eq!(loaded, 1, "{palette}");
    assert_eq!(refused, detected - loaded);
}

#[test]
fn every_model_sample_is_detected_and_its_palettes_load() {
    every_sample_detected("mdl", 40, "palette.pcx");
}

#[test]
fn every_voxel_sample_is_detected_and_its_palettes_load() {
    every_sample_detected("vxl", 18, "test.vpl");
}

#[test]
fn gamestudio_palette_pcx_is_its_trailer() {
    let Some(dir) = samples_dir("mdl") else {
        return;
    };
    let f = PaletteFile::open(&dir.join("libgamestudio/palette.pcx")).unwrap();
    assert_eq!(f.source, PaletteSource::Pcx);
    // The notes: the GameStudio palette differs from Quake's only in entries 254 and 255.
    let quake = Palette::quake();
    assert!((0..254).all(|i| f.palette.colors[i] == quake.colors[i]));
    assert_ne!(f.palette, quake);
}

#[test]
fn lottershock_atlas_is_a_24_bit_pcx_without_palette() {
    let Some(dir) = samples_dir("mdl") else {
        return;
    };
    let path = dir.join("lottershock/Level/room_atlas_01.pcx");
    let bytes = std::fs::read(&path).unwrap();
    // Header: 8 bits per pixel in 3 planes.
    assert_eq!((bytes[3], bytes[65]), (8, 3));
    let e = PaletteFile::open(&path).unwrap_err();
    assert!(
        e.to_string().contains("PCX without a 256-colour palette"),
        "{e}"
    );
}

#[test]
fn vengi_test_vpl_keeps_its_32_pages() {
    let Some(dir) = samples_dir("vxl") else {
        return;
    };
    let path = dir.join("vengi/test.vpl");
    let bytes = std::fs::read(&path).unwrap();
    let f = PaletteFile::open(&path).unwrap();
    assert_eq!(f.source, PaletteSource::Vpl);
    let want = modex_vxl::vpl::decode(&bytes).unwrap();
    assert_eq!(f.palette, want.palette);
    // By its layout too, under any name.
    let again = PaletteFile::read(Path::new("VOXELS.DAT"), &bytes).unwrap();
    assert_eq!(again.into_vpl(), want);
    assert_eq!(f.into_vpl().page_count(), 32);
}
