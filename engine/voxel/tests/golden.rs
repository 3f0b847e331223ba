//! Golden images of real units (hmec, the Tiberian Sun Mammoth Mk II; jeep) at fixed facings, drawn
//! through the game's VPL pages in the 8-bit path and compared byte for byte with the PNGs in
//! `tests/golden/`.
//!
//! Regenerate after an intended change with
//! `MODEX_BLESS=1 cargo test -p modex-voxel --test golden`, then look at the images.
//! Skipped with a notice when the sample folder is missing (`modex_testkit::samples_dir`).

use std::path::Path;

use glam::Vec3;
use modex::{Argb4444, Argb8888, DepthBuffer, IndexedFrame, OpenedFile, Pixel, Rgb565, Surface};
use modex_testkit::Golden;
use modex_voxel::{draw, frame_scene, game_camera, Instance, Pose, RenderOptions, Unit, VoxelSet};
use modex_vxl::vpl;

const SIZE: (usize, usize) = (160, 120);

fn golden() -> Golden {
    Golden::new(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        "modex-voxel",
    )
}

fn render(set: &VoxelSet, facing: f32, frame_no: usize, vpl: &vpl::Vpl) -> IndexedFrame {
    let inst = [Instance {
        unit: set.unit(),
        pose: Pose {
            facing,
            frame: frame_no,
            ..Pose::default()
        },
    }];
    // Frame the unit at facing 0 so every facing of one unit uses the same camera.
    let still = [Instance {
        unit: set.unit(),
        pose: Pose::default(),
    }];
    let base = game_camera(Vec3::ZERO, 100.0, SIZE.0, SIZE.1);
    let mut cam = frame_scene(&still, &base).unwrap();
    if let modex::Projection::Orthographic { height } = cam.projection {
        cam.projection = modex::Projection::Orthographic {
            height: height * 1.3,
        };
    }
    let mut f = IndexedFrame::new(SIZE.0, SIZE.1);
    let mut d = DepthBuffer::new(SIZE.0, SIZE.1);
    draw(&inst, &cam, vpl, &RenderOptions::default(), &mut f, &mut d).unwrap();
    f
}

/// `count` units in rows of `per_row`, 40 world units apart: unit `i` is `units[i % len]`, turned
/// by `i * turn` and at frame `i`.
fn parade<'a>(units: &[Unit<'a>], count: usize, per_row: usize, turn: f32) -> Vec<Instance<'a>> {
    (0..count)
        .map(|i| Instance {
            unit: units[i % units.len()],
            pose: Pose {
                position: Vec3::new(
                    (i % per_row) as f32 * 40.0,
                    (i / per_row) as f32 * 40.0,
                    0.0,
                ),
                facing: i as f32 * turn,
                frame: i,
                ..Pose::default()
            },
        })
        .collect()
}

/// The samples' VPL (the game's pages) and hmec, the Mammoth Mk II.
fn game_vpl_and_hmec(dir: &Path) -> (vpl::Vpl, VoxelSet) {
    let vpl = vpl::decode(&std::fs::read(dir.join("vengi/test.vpl")).unwrap()).unwrap();
    (vpl, load(dir, "vengi/hmec.vxl"))
}

fn load(dir: &Path, rel: &str) -> VoxelSet {
    let file = OpenedFile::open(dir.join(rel)).unwrap();
    VoxelSet::load_file(&file).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn hmec_and_jeep_match_their_golden_images() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let (vpl, hmec) = game_vpl_and_hmec(&dir);
    for (facing, frame) in [(0.0, 0), (64.0, 0), (160.0, 5)] {
        let f = render(&hmec, facing, frame, &vpl);
        assert!(
            f.pixels().iter().filter(|&&p| p != 0).count() > 1500,
            "hmec facing {facing} drew too little"
        );
        golden()
            .check_indexed(
                &format!("hmec_f{facing:03}_frame{frame}.png"),
                &f,
                &vpl.palette,
            )
            .unwrap();
    }
    let jeep = load(&dir, "romanovs-vengeance/jeep.vxl");
    for facing in [32.0, 96.0] {
        let f = render(&jeep, facing, 0, &vpl);
        assert!(f.pixels().iter().filter(|&&p| p != 0).count() > 800);
        golden()
            .check_indexed(&format!("jeep_f{facing:03}.png"), &f, &vpl.palette)
            .unwrap();
    }
}

#[test]
fn one_and_many_threads_draw_identical_frames() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let (vpl, hmec) = game_vpl_and_hmec(&dir);
    let scene = parade(&[hmec.unit()], 12, 4, 21.0);
    let cam = frame_scene(&scene, &game_camera(Vec3::ZERO, 100.0, 200, 150)).unwrap();
    let render_on = |threads: usize, parallel: bool| {
        modex::with_threads(threads, || {
            let mut f = IndexedFrame::new(200, 150);
            let mut d = DepthBuffer::new(200, 150);
            let opts = RenderOptions {
                parallel,
                ..RenderOptions::default()
            };
            draw(&scene, &cam, &vpl, &opts, &mut f, &mut d).unwrap();
            let mut s = Surface::<Argb8888>::new(200, 150);
            let mut d2 = DepthBuffer::new(200, 150);
            draw(&scene, &cam, &vpl, &opts, &mut s, &mut d2).unwrap();
            (f, d, s)
        })
        .unwrap()
    };
    let one = render_on(1, false);
    assert!(one.0.pixels().iter().filter(|&&p| p != 0).count() > 5000);
    for threads in [1, 2, 4] {
        let many = render_on(threads, true);
        assert!(
            one.0 == many.0,
            "8-bit frame differs with {threads} threads"
        );
        assert!(one.1 == many.1, "depth differs with {threads} threads");
        assert!(
            one.2 == many.2,
            "8888 surface differs with {threads} threads"
        );
    }
    // And the unit drawn in the 8888 path covers the same pixels as in the 8-bit path.
    let covered8 = one.0.pixels().iter().filter(|&&p| p != 0).count();
    let covered32 = one.2.pixels().iter().filter(|p| p.0 != 0).count();
    assert!(
        covered8.abs_diff(covered32) * 50 < covered8,
        "{covered8} vs {covered32}"
    );
}

/// The 16-bit formats drawn natively are exactly the 8888 frame narrowed pixel by pixel (what the
/// command line used to write by converting), and every format covers the same pixels and depths.
#[test]
fn every_format_draws_natively_what_the_8888_frame_narrows_to() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let (vpl, hmec) = game_vpl_and_hmec(&dir);
    let jeep = load(&dir, "romanovs-vengeance/jeep.vxl");
    let scene = parade(&[hmec.unit(), jeep.unit()], 6, 3, 43.0);
    let (w, h) = (200, 150);
    let cam = frame_scene(&scene, &game_camera(Vec3::ZERO, 100.0, w, h)).unwrap();
    let opts = RenderOptions::default();
    fn drawn<P: Pixel + modex_voxel::VoxelPixel + modex::SurfacePixel>(
        scene: &[Instance<'_>],
        cam: &modex::Camera,
        vpl: &vpl::Vpl,
        opts: &RenderOptions,
    ) -> (Surface<P>, DepthBuffer, modex::DrawStats) {
        let mut s = Surface::<P>::new(cam.width, cam.height);
        let mut d = DepthBuffer::new(cam.width, cam.height);
        let stats = draw(scene, cam, vpl, opts, &mut s, &mut d).unwrap();
        (s, d, stats)
    }
    let (argb, depth, stats) = drawn::<Argb8888>(&scene, &cam, &vpl, &opts);
    assert!(stats.limbs > 20 && stats.rays > 5000, "{stats:?}");
    assert!(argb.pixels().iter().filter(|p| p.0 != 0).count() > 3000);
    fn narrowed<P: Pixel>(s: &Surface<Argb8888>) -> Vec<P> {
        s.pixels()
            .iter()
            .map(|p| P::from_rgba(p.to_rgba()))
            .collect()
    }
    let (rgb565, d565, s565) = drawn::<Rgb565>(&scene, &cam, &vpl, &opts);
    assert!(rgb565.pixels() == narrowed::<Rgb565>(&argb).as_slice());
    let (argb4444, d4444, s4444) = drawn::<Argb4444>(&scene, &cam, &vpl, &opts);
    assert!(argb4444.pixels() == narrowed::<Argb4444>(&argb).as_slice());
    let mut f = IndexedFrame::new(w, h);
    let mut d8 = DepthBuffer::new(w, h);
    let s8 = draw(&scene, &cam, &vpl, &opts, &mut f, &mut d8).unwrap();
    for (d, s) in [(&d565, s565), (&d4444, s4444), (&d8, s8)] {
        assert!(*d == depth);
        assert_eq!(s, stats);
    }
    assert!(f.pixels().iter().filter(|&&p| p != 0).count() > 3000);
}

/// The game drew its voxels through the VPL's pages into a 16-bit screen, so under the game's
/// shading the true-colour picture is the 8-bit one through the palette: for every sample unit
/// (the eight VXL files with an HVA) at eight facings, each pixel a voxel covers (the depths of the two draws are the same) is in
/// 8888 the palette colour of the 8-bit index. (It used to be the voxel's own colour times a
/// brightness of its own, 8 % to 46 % darker on average than the game's pages.)
#[test]
fn true_colour_is_the_8bit_picture_through_the_palette() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let vpl = vpl::decode(&std::fs::read(dir.join("vengi/test.vpl")).unwrap()).unwrap();
    let mut files: Vec<_> = ["vengi", "romanovs-vengeance"]
        .iter()
        .flat_map(|sub| std::fs::read_dir(dir.join(sub)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("vxl")))
        // A unit is a VXL with its HVA (simple.vxl has none: the loader says so).
        .filter(|p| p.with_extension("hva").exists())
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    let (w, h) = (160, 120);
    for path in &files {
        let set = VoxelSet::load_file(&OpenedFile::open(path).unwrap()).unwrap();
        let mut covered = 0;
        for facing in (0..8).map(|k| k as f32 * 32.0 + 5.0) {
            let inst = [Instance {
                unit: set.unit(),
                pose: Pose {
                    facing,
                    ..Pose::default()
                },
            }];
            let cam = frame_scene(&inst, &game_camera(Vec3::ZERO, 100.0, w, h)).unwrap();
            let opts = RenderOptions::default();
            let mut f = IndexedFrame::new(w, h);
            let mut d8 = DepthBuffer::new(w, h);
            draw(&inst, &cam, &vpl, &opts, &mut f, &mut d8).unwrap();
            let mut s = Surface::<Argb8888>::new(w, h);
            let mut d32 = DepthBuffer::new(w, h);
            draw(&inst, &cam, &vpl, &opts, &mut s, &mut d32).unwrap();
            assert!(
                d8 == d32,
                "{path:?} facing {facing}: the draws cover different pixels"
            );
            for ((&i, p), z) in f.pixels().iter().zip(s.pixels()).zip(d8.values()) {
                if z.is_finite() {
                    let [r, g, b] = vpl.palette.colors[i as usize];
                    assert_eq!(
                        p.to_rgba(),
                        [r, g, b, 255],
                        "{path:?} facing {facing}: index {i}"
                    );
                    covered += 1;
                }
            }
        }
        assert!(covered > 200, "{path:?}: {covered} pixels covered");
    }
}
