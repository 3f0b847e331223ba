//! Golden images of the real sample models (`shared/data/mdl`) in every target format.
//!
//! The 8-bit images are compared byte for byte (indices and palette); true-colour images must match
//! exactly too, except that up to 0.1% of pixels may differ by at most 2 per channel, so a different
//! float unit (e.g. fused multiply-add on another CPU) cannot fail the test on its own.
//!
//! Regenerate after an intended change with
//! `MODEX_BLESS=1 cargo test -p modex-raster --test raster_golden`, then look at every changed image.

use std::path::{Path, PathBuf};

use modex::{
    Argb4444, Argb8888, DepthBuffer, IndexedFrame, Palette, Rgb565, Surface, SurfacePixel, Target,
};
use modex_mdl::{HmpFile, MdlFile, Model};
use modex_raster::{framing_camera, Entity, Light, RasterPixel, Renderer};
use modex_testkit::{Golden, Tolerance};

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

/// The golden images beside this test.
fn golden() -> Golden {
    Golden::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        "modex-raster",
    )
}

/// True colour: up to 1 pixel in 1000 may differ, by at most 2 per channel.
const TRUE_COLOUR: Tolerance = Tolerance {
    max_channel: 2,
    per_mille: 1,
};

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

fn render<T: Target>(model: &Model, yaw: f32, pitch: f32, target: &mut T)
where
    T::Px: RasterPixel,
{
    let mut r = Renderer::new(&Palette::quake());
    // Opaque black behind the model in every format (index 0 is Quake's black).
    target.fill(T::flat([0, 0, 0], r.palette()));
    let cam = framing_camera(model, 0, yaw, pitch, W, H);
    r.light = Light::over_shoulder(&cam, 0.35, 1.3);
    let prepared = r.prepare(model);
    let mut depth = DepthBuffer::new(W, H);
    let stats = r
        .draw(target, &mut depth, &cam, &prepared, &Entity::default())
        .unwrap();
    assert!(stats.rasterized > 0, "nothing drawn");
}

/// Render `model` into a `P` surface and compare it with `<stem>_<format>.png`.
fn check_surface<P: SurfacePixel + RasterPixel>(
    golden: &Golden,
    stem: &str,
    model: &Model,
    yaw: f32,
    pitch: f32,
) {
    let mut s = Surface::<P>::new(W, H);
    render(model, yaw, pitch, &mut s);
    let name = format!("{stem}_{}.png", P::NAME);
    golden
        .check_rgba(&name, W, H, &s.to_rgba8(&Palette::quake()), TRUE_COLOUR)
        .unwrap();
}

#[test]
fn sample_models_match_their_golden_images() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let (golden, pal) = (golden(), Palette::quake());
    for &(file, stem, yaw, pitch) in SAMPLES {
        let model = load(&dir.join(file));
        let mut f = IndexedFrame::new(W, H);
        render(&model, yaw, pitch, &mut f);
        assert!(
            f.pixels().iter().filter(|&&c| c != 0).count() > W * H / 100,
            "{stem}: almost empty"
        );
        golden
            .check_indexed(&format!("{stem}_8.png"), &f, &pal)
            .unwrap();
        check_surface::<Rgb565>(&golden, stem, &model, yaw, pitch);
        check_surface::<Argb4444>(&golden, stem, &model, yaw, pitch);
        check_surface::<Argb8888>(&golden, stem, &model, yaw, pitch);
    }
}
