//! Golden images of real units (hmec, the Tiberian Sun Mammoth Mk II; jeep) at fixed facings, drawn
//! through the game's VPL pages in the 8-bit path and compared byte for byte with the PNGs in
//! `tests/golden/`.
//!
//! Regenerate after an intended change with
//! `MODEX_BLESS=1 cargo test -p modex-voxel --test golden`, then look at the images.
//! Skipped with a notice when the sample folder is missing (`modex_testkit::samples_dir`).

use std::path::{Path, PathBuf};

use glam::Vec3;
use modex::{pngio, Argb8888, DepthBuffer, IndexedFrame, Surface};
use modex_voxel::render::{draw_argb, draw_indexed, frame_scene, game_camera};
use modex_voxel::{vpl, Instance, Pose, RenderOptions, Unit, VoxelSet};

const SIZE: (usize, usize) = (160, 120);

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn bless() -> bool {
    std::env::var_os("MODEX_BLESS").is_some()
}

/// Compare (or with MODEX_BLESS rewrite) one golden PNG.
fn check_indexed(name: &str, frame: &IndexedFrame, palette: &modex::Palette) {
    let path = golden_dir().join(name);
    if bless() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        pngio::save_indexed(&path, frame, palette).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with MODEX_BLESS=1 to create)", path.display()));
    let (want, _) = pngio::decode_indexed(&bytes).unwrap();
    if &want != frame {
        let got = std::env::temp_dir().join(format!("modex-voxel-got-{name}"));
        pngio::save_indexed(&got, frame, palette).unwrap();
        let differing = want
            .pixels()
            .iter()
            .zip(frame.pixels())
            .filter(|(a, b)| a != b)
            .count();
        panic!(
            "{name}: {differing} pixels differ from the golden image; this render is at {}",
            got.display()
        );
    }
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
    draw_indexed(&inst, &cam, vpl, &RenderOptions::default(), &mut f, &mut d).unwrap();
    f
}

fn load(dir: &Path, rel: &str) -> VoxelSet {
    VoxelSet::load_beside(&dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn hmec_and_jeep_match_their_golden_images() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let vpl = vpl::decode(&std::fs::read(dir.join("vengi/test.vpl")).unwrap()).unwrap();
    let hmec = load(&dir, "vengi/hmec.vxl");
    for (facing, frame) in [(0.0, 0), (64.0, 0), (160.0, 5)] {
        let f = render(&hmec, facing, frame, &vpl);
        assert!(
            f.pixels().iter().filter(|&&p| p != 0).count() > 1500,
            "hmec facing {facing} drew too little"
        );
        check_indexed(
            &format!("hmec_f{facing:03}_frame{frame}.png"),
            &f,
            &vpl.palette,
        );
    }
    let jeep = load(&dir, "romanovs-vengeance/jeep.vxl");
    for facing in [32.0, 96.0] {
        let f = render(&jeep, facing, 0, &vpl);
        assert!(f.pixels().iter().filter(|&&p| p != 0).count() > 800);
        check_indexed(&format!("jeep_f{facing:03}.png"), &f, &vpl.palette);
    }
}

#[test]
fn one_and_many_threads_draw_identical_frames() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let vpl = vpl::decode(&std::fs::read(dir.join("vengi/test.vpl")).unwrap()).unwrap();
    let hmec = load(&dir, "vengi/hmec.vxl");
    let scene: Vec<Instance> = (0..12)
        .map(|i| Instance {
            unit: hmec.unit(),
            pose: Pose {
                position: Vec3::new((i % 4) as f32 * 40.0, (i / 4) as f32 * 40.0, 0.0),
                facing: i as f32 * 21.0,
                frame: i,
                ..Pose::default()
            },
        })
        .collect();
    let cam = frame_scene(&scene, &game_camera(Vec3::ZERO, 100.0, 200, 150)).unwrap();
    let draw = |threads: usize, parallel: bool| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut f = IndexedFrame::new(200, 150);
            let mut d = DepthBuffer::new(200, 150);
            let opts = RenderOptions {
                parallel,
                ..RenderOptions::default()
            };
            draw_indexed(&scene, &cam, &vpl, &opts, &mut f, &mut d).unwrap();
            let mut s = Surface::<Argb8888>::new(200, 150);
            let mut d2 = DepthBuffer::new(200, 150);
            draw_argb(&scene, &cam, &vpl.palette, &opts, &mut s, &mut d2).unwrap();
            (f, d, s)
        })
    };
    let one = draw(1, false);
    assert!(one.0.pixels().iter().filter(|&&p| p != 0).count() > 5000);
    for threads in [1, 2, 4] {
        let many = draw(threads, true);
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
    let _ = Unit::default();
}
