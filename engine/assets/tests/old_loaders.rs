//! The four palette loaders the CLI had before this crate, kept here as they were, against the one
//! rule: where all four read a file to the same palette the new loader must give that palette too,
//! unless the file is one the new rule refuses on purpose (another format by magic or extension; see
//! the `palette` module docs). Where they disagreed, the new answer is one of theirs or an error,
//! and the documented cases are checked one by one.

use std::path::Path;

use modex::{Palette, Rng};
use modex_assets::{detect, load_palette, Family, Format};
use modex_cutscene::{apal, tpwm};
use modex_vxl::vpl;

type Old = fn(&Path, &[u8]) -> Option<Palette>;

fn is_ext(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// `game-demo/src/formats/model.rs::load_palette` (`modex export --palette`).
fn old_export(path: &Path, bytes: &[u8]) -> Option<Palette> {
    if is_ext(path, "pcx") {
        Palette::from_pcx(bytes).ok()
    } else {
        Palette::from_rgb_bytes(bytes).ok()
    }
}

/// `game-demo/src/formats/model_render.rs::load_palette` (`modex render/view` of models).
fn old_model_render(_path: &Path, bytes: &[u8]) -> Option<Palette> {
    if bytes.first() == Some(&0x0a) {
        Palette::from_pcx(bytes).ok()
    } else {
        Palette::from_rgb_bytes(bytes).ok()
    }
}

/// `game-demo/src/formats/voxel.rs::load_vpl`'s `from_file` (`modex render/view` of voxels).
fn old_voxel(path: &Path, bytes: &[u8]) -> Option<Palette> {
    if is_ext(path, "vpl") {
        return vpl::decode(bytes).ok().map(|v| v.palette);
    }
    old_model_render(path, bytes)
}

/// `game-demo/src/formats/cutscene.rs::load_palette` (`modex play/export --palette`), which called
/// `modex_cutscene::apal::load_palette_file` (removed with it): the PCX trailer when there is one,
/// else the APAL rule.
fn old_cutscene(_path: &Path, bytes: &[u8]) -> Option<Palette> {
    let n = bytes.len();
    if bytes.first() == Some(&0x0a) && n >= 128 + 769 && bytes[n - 769] == 0x0c {
        return Palette::from_pcx(bytes).ok();
    }
    apal::load_palette(bytes).ok()
}

const OLD: [(&str, Old); 4] = [
    ("export", old_export),
    ("model render", old_model_render),
    ("voxel render", old_voxel),
    ("cutscene", old_cutscene),
];

const NAMES: [&str; 9] = [
    "x.pal",
    "x.PCX",
    "x.vpl",
    "x.bin",
    "palette.lmp",
    "x.act",
    "APAL000",
    "x.hva",
    "x.mdl",
];

fn six_bit(seed: u64) -> Vec<u8> {
    let mut r = Rng::new(seed);
    (0..768).map(|_| r.below(64) as u8).collect()
}

fn random(seed: u64, len: usize) -> Vec<u8> {
    let mut r = Rng::new(seed);
    (0..len).map(|_| r.next_u32() as u8).collect()
}

fn pcx(palette: &[u8], pixels: usize) -> Vec<u8> {
    let mut d = vec![0u8; 128 + pixels];
    d[..4].copy_from_slice(&[0x0a, 5, 1, 8]);
    d.push(0x0c);
    d.extend_from_slice(palette);
    d
}

fn vpl_file(pages: u32) -> Vec<u8> {
    let mut d = Vec::new();
    for v in [16u32, 31, pages, 0] {
        d.extend(v.to_le_bytes());
    }
    d.extend(Palette::quake().to_rgb_bytes());
    d.resize(d.len() + 256 * pages as usize, 3);
    d
}

/// Files of every kind the loaders met, plus noise.
fn corpus() -> Vec<Vec<u8>> {
    let quake = Palette::quake().to_rgb_bytes();
    let mut c = vec![six_bit(1), quake.clone(), random(2, 768)];
    let mut starts_0a = six_bit(3);
    starts_0a[0] = 0x0a;
    c.push(starts_0a);
    c.push(pcx(&quake, 500));
    c.push(pcx(&six_bit(4), 0));
    let mut no_trailer = pcx(&quake, 500);
    let at = no_trailer.len() - 769;
    no_trailer[at] = 0x41;
    c.push(no_trailer);
    c.push(apal::encode_palette(&Palette::grey_ramp(), true));
    c.push(apal::encode_palette(&Palette::quake(), true));
    c.push(vpl_file(32));
    c.push(vpl_file(1));
    let mut playpal = quake.clone();
    playpal.resize(14 * 768, 9);
    c.push(playpal);
    let mut mdl = b"MDL5".to_vec();
    mdl.extend(random(5, 3000));
    c.push(mdl);
    c.push(tpwm::compress(&random(6, 2000)));
    for (seed, len) in [(7, 0), (8, 100), (9, 767), (10, 769), (11, 897), (12, 5000)] {
        c.push(random(seed, len));
    }
    for seed in 20..40 {
        let mut r = random(seed, 900 + seed as usize * 37);
        r[0] = 0x0a;
        c.push(r);
    }
    c
}

#[test]
fn where_the_old_loaders_agreed_the_new_one_agrees() {
    let (mut agreed, mut refused_count, mut opened_count) = (0, 0, 0);
    for bytes in corpus() {
        for name in NAMES {
            let path = Path::new(name);
            let olds: Vec<Option<Palette>> = OLD.iter().map(|(_, f)| f(path, &bytes)).collect();
            let new = load_palette(path, &bytes).ok();
            let detected = detect(path, &bytes);
            let refused = detected.is_some_and(|f| {
                f.family() != Family::Palette && f != Format::Vpl && f != Format::Tpwm
            });
            // A VPL (by layout) and a TPWM file are opened now, where the old loaders read the
            // container's header as colours.
            let opened = matches!(detected, Some(Format::Vpl | Format::Tpwm));
            if let Some(first) = &olds[0] {
                if olds.iter().all(|o| o.as_ref() == Some(first)) {
                    if refused {
                        assert!(new.is_none(), "{name}: refused format was read");
                        refused_count += 1;
                    } else if opened {
                        let want = vpl::decode(&bytes)
                            .map(|v| v.palette)
                            .or_else(|_| apal::load_palette(&bytes));
                        assert_eq!(new, want.ok(), "{name}, {} bytes", bytes.len());
                        opened_count += 1;
                    } else {
                        assert_eq!(new.as_ref(), Some(first), "{name}, {} bytes", bytes.len());
                        agreed += 1;
                    }
                    continue;
                }
            }
            // They disagreed (or all failed): the new answer is one of theirs, or none, except for
            // the containers only the new rule opens (a VPL by layout, a TPWM-wrapped palette).
            if let Some(n) = &new {
                assert!(
                    olds.iter().any(|o| o.as_ref() == Some(n)) || opened,
                    "{name}, {} bytes: a palette none of the old loaders gave",
                    bytes.len()
                );
            }
        }
    }
    assert!(
        agreed > 30 && refused_count > 5 && opened_count > 0,
        "agreed {agreed}, refused {refused_count}, opened {opened_count}"
    );
}

/// The documented disagreements, one by one: (name, bytes, what each old loader gave, new).
#[test]
fn the_documented_disagreements() {
    let old = |name: &str, bytes: &[u8]| -> Vec<bool> {
        OLD.iter()
            .map(|(_, f)| f(Path::new(name), bytes).is_some())
            .collect()
    };
    let new = |name: &str, bytes: &[u8]| load_palette(Path::new(name), bytes);

    // 768 bytes starting with 0x0A: render of models and voxels failed; now a palette.
    let mut b = six_bit(3);
    b[0] = 0x0a;
    assert_eq!(old("x.pal", &b), [true, false, false, true]);
    assert_eq!(
        new("x.pal", &b).unwrap(),
        Palette::from_rgb_bytes(&b).unwrap()
    );

    // A PCX with its trailer, not named .pcx: export read its header as colours; now the trailer.
    let p = pcx(&Palette::quake().to_rgb_bytes(), 500);
    assert_ne!(
        old_export(Path::new("x.bin"), &p),
        Palette::from_pcx(&p).ok()
    );
    assert_eq!(new("x.bin", &p).unwrap(), Palette::from_pcx(&p).unwrap());

    // A PCX without the trailer: cutscenes read its header and pixels; now an error.
    let mut p2 = p.clone();
    let at = p2.len() - 769;
    p2[at] = 0x41;
    assert_eq!(old("x.pcx", &p2), [false, false, false, true]);
    assert!(new("x.pcx", &p2).is_err());

    // A TPWM-wrapped APAL: only cutscenes unpacked it.
    let w = apal::encode_palette(&Palette::grey_ramp(), true);
    assert_eq!(old("x.pal", &w), [false, false, false, true]);
    assert_eq!(new("x.pal", &w).unwrap(), apal::load_palette(&w).unwrap());

    // A VPL: only voxel render, by name, read its palette; the others its header.
    let v = vpl_file(32);
    assert_eq!(
        old_voxel(Path::new("voxels.vpl"), &v),
        Some(Palette::quake())
    );
    assert_ne!(
        old_export(Path::new("voxels.vpl"), &v),
        Some(Palette::quake())
    );
    assert_eq!(new("voxels.vpl", &v).unwrap(), Palette::quake());
    assert_eq!(new("voxels.bin", &v).unwrap(), Palette::quake());

    // Another image renamed .pcx: export refused it, the others read it; now refused.
    let img = random(50, 4000);
    assert!(img[0] != 0x0a);
    assert_eq!(old("photo.pcx", &img), [false, true, true, true]);
    assert!(new("photo.pcx", &img).is_err());

    // A model given as a palette: all four read it; now refused.
    let mut m = b"IDPO".to_vec();
    m.extend(random(51, 2000));
    assert_eq!(old("tree.mdl", &m), [true, true, true, true]);
    assert!(new("tree.mdl", &m).is_err());
}
