//! Golden images of the real sample models (`shared/data/mdl`) in every target format.
//!
//! The 8-bit images are compared byte for byte (indices and palette); true-colour images must match
//! exactly too, except that up to 0.1% of pixels may differ by at most 2 per channel, so a different
//! float unit (e.g. fused multiply-add on another CPU) cannot fail the test on its own.
//!
//! Regenerate after an intended change with
//! `MODEX_BLESS=1 cargo test -p modex-raster --test raster_golden`, then look at every changed image.

use std::path::{Path, PathBuf};

use modex::{pngio, Argb4444, Argb8888, DepthBuffer, IndexedFrame, Palette, Rgb565, Surface};
use modex_raster::hmp::HmpFile;
use modex_raster::mdl::MdlFile;
use modex_raster::raster::{framing_camera, Entity, Light, Renderer, Target, TrueColor};
use modex_raster::Model;

const W: usize = 160;
const H: usize = 120;

/// (sample path under `mdl/`, golden stem, yaw, pitch): yaw 90 looks at a model's front (+X).
const SAMPLES: &[(&str, &str, f32, f32)] = &[
    ("libgamestudio/mdl2-bush.mdl", "mdl2-bush", 120.0, 15.0),
    ("libgamestudio/mdl2-grass.mdl", "mdl2-grass", 120.0, 15.0),
    ("libgamestudio/mdl2-tree.mdl", "mdl2-tree", 120.0, 10.0),
    (
        "libgamestudio/mdl3-crystal.mdl",
        "mdl3-crystal",
        120.0,
        15.0,
    ),
    ("libgamestudio/mdl4-golem.mdl", "mdl4-golem", 120.0, 10.0),
    ("libgamestudio/mdl4-human.mdl", "mdl4-human", 120.0, 10.0),
    ("libgamestudio/mdl4-norc.mdl", "mdl4-norc", 120.0, 10.0),
    ("libgamestudio/mdl5-earth.mdl", "mdl5-earth", 90.0, 10.0),
    ("assimp/minigun.MDL", "mdl3-minigun", 120.0, 20.0),
    ("assimp/minigun_mdl5.mdl", "mdl5-minigun", 120.0, 20.0),
    (
        "assimp/PhosphoricAcid_MDl5.mdl",
        "mdl5-phosphoricacid",
        120.0,
        20.0,
    ),
    ("libgamestudio/small.hmp", "hmp7-small", 30.0, 35.0),
    ("libgamestudio/terrain.hmp", "hmp7-terrain", 30.0, 35.0),
    ("assimp/terrain.hmp", "hmp7-assimp-terrain", 30.0, 35.0),
    (
        "retroacknex/terrain.hmp",
        "hmp7-retroacknex-terrain",
        30.0,
        35.0,
    ),
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn bless() -> bool {
    std::env::var_os("MODEX_BLESS").is_some()
}

fn load(path: &Path) -> Model {
    let bytes = std::fs::read(path).unwrap();
    if bytes.starts_with(b"HMP") {
        HmpFile::parse(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .model
    } else {
        MdlFile::parse(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .model
    }
}

fn render<T: Target>(model: &Model, yaw: f32, pitch: f32, target: &mut T) {
    let mut r = Renderer::new(&Palette::quake());
    // Opaque black behind the model in every format (index 0 is Quake's black).
    let background = T::color([0, 0, 0], &r.shades);
    target.pixels_mut().fill(background);
    let cam = framing_camera(model, 0, yaw, pitch, W, H);
    r.light = Light::over_shoulder(&cam, 0.35, 1.3);
    let prepared = r.prepare(model);
    let mut depth = DepthBuffer::new(W, H);
    let stats = r.draw(target, &mut depth, &cam, &prepared, &Entity::default());
    assert!(stats.rasterized > 0, "nothing drawn");
}

fn check_indexed(stem: &str, frame: &IndexedFrame, pal: &Palette) {
    let path = golden_dir().join(format!("{stem}_8.png"));
    if bless() {
        pngio::save_indexed(&path, frame, pal).unwrap();
        return;
    }
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with MODEX_BLESS=1 to create it)",
            path.display()
        )
    });
    let (golden, gpal) = pngio::decode_indexed(&bytes).unwrap();
    assert_eq!(&gpal, pal, "{stem}: palette");
    assert_eq!((golden.width(), golden.height()), (W, H), "{stem}: size");
    let diff = golden
        .pixels()
        .iter()
        .zip(frame.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        diff,
        0,
        "{stem}: {diff} pixels differ from {}",
        path.display()
    );
}

fn check_rgba<P: TrueColor>(stem: &str, surface: &Surface<P>) {
    let path = golden_dir().join(format!("{stem}_{}.png", P::NAME));
    let rgba = surface.to_rgba8();
    if bless() {
        pngio::save_rgba(&path, W, H, &rgba).unwrap();
        return;
    }
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with MODEX_BLESS=1 to create it)",
            path.display()
        )
    });
    let (w, h, golden) = pngio::decode_rgba(&bytes).unwrap();
    assert_eq!((w, h), (W, H), "{stem}: size");
    let mut differing = 0;
    for (a, b) in golden.chunks_exact(4).zip(rgba.chunks_exact(4)) {
        if a != b {
            differing += 1;
            let worst = a.iter().zip(b).map(|(x, y)| x.abs_diff(*y)).max().unwrap();
            assert!(worst <= 2, "{stem}_{}: pixel differs by {worst}", P::NAME);
        }
    }
    assert!(
        differing * 1000 <= W * H,
        "{stem}_{}: {differing} pixels differ",
        P::NAME
    );
}

#[test]
fn sample_models_match_their_golden_images() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let pal = Palette::quake();
    for &(file, stem, yaw, pitch) in SAMPLES {
        let model = load(&dir.join(file));
        let mut f = IndexedFrame::new(W, H);
        render(&model, yaw, pitch, &mut f);
        assert!(
            f.pixels().iter().filter(|&&c| c != 0).count() > W * H / 100,
            "{stem}: almost empty"
        );
        check_indexed(stem, &f, &pal);
        let mut s = Surface::<Rgb565>::new(W, H);
        render(&model, yaw, pitch, &mut s);
        check_rgba(stem, &s);
        let mut s = Surface::<Argb4444>::new(W, H);
        render(&model, yaw, pitch, &mut s);
        check_rgba(stem, &s);
        let mut s = Surface::<Argb8888>::new(W, H);
        render(&model, yaw, pitch, &mut s);
        check_rgba(stem, &s);
    }
}
