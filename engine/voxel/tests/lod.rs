//! Levels of detail: near the eye a unit is drawn exactly (the same bytes as without levels of
//! detail), far away from its coarse levels, which cover the exact picture's pixels within the
//! stated bound, in its colours.

use std::path::Path;

use glam::Vec3;
use modex::{Camera, DepthBuffer, IndexedFrame, OpenedFile, Palette};
use modex_voxel::{draw, Instance, Lod, Pose, RenderOptions, Unit, VoxelModel, VoxelSet};
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::{hva, vpl, vxl, Vpl};

fn render(scene: &[Instance<'_>], cam: &Camera, vpl: &Vpl, lod: Lod) -> (IndexedFrame, Vec<f32>) {
    let opts = RenderOptions {
        lod,
        ..RenderOptions::default()
    };
    let mut f = IndexedFrame::new(cam.width, cam.height);
    let mut d = DepthBuffer::new(cam.width, cam.height);
    draw(scene, cam, vpl, &opts, &mut f, &mut d).unwrap();
    (f, d.values().to_vec())
}

/// A perspective camera at `distance` from the origin, looking at it from above at an angle,
/// 50 degrees of vertical field (the demo's).
fn camera(distance: f32, size: usize) -> Camera {
    let eye = Vec3::new(0.6, -0.6, 0.55).normalize() * distance;
    Camera::look_at(eye, Vec3::ZERO, 50f32.to_radians(), size, size)
}

/// Covered pixels of `a` and `b`, and how many of the pixels both cover differ in colour.
fn compare(a: &(IndexedFrame, Vec<f32>), b: &(IndexedFrame, Vec<f32>)) -> (usize, usize, usize) {
    let covered = |d: &[f32]| d.iter().filter(|v| v.is_finite()).count();
    let recoloured =
        a.1.iter()
            .zip(&b.1)
            .zip(a.0.pixels().iter().zip(b.0.pixels()))
            .filter(|((da, db), (pa, pb))| da.is_finite() && db.is_finite() && pa != pb)
            .count();
    (covered(&a.1), covered(&b.1), recoloured)
}

fn box_unit(limb: LimbSpec) -> VoxelModel {
    let v = vxl::decode(&VxlSpec::single(limb).encode()).unwrap();
    let h = hva::decode(&HvaSpec::identity(1, 1).encode()).unwrap();
    VoxelModel::new("box", v, Some(h)).unwrap()
}

/// A hollow box hull of one colour and normal: every level keeps its colour.
fn hull() -> VoxelModel {
    let mut hull = LimbSpec::filled_box([160, 100, 60], 150, 5);
    hull.voxels
        .retain(|v| v.0 == 0 || v.0 == 159 || v.1 == 0 || v.1 == 99 || v.2 == 0 || v.2 == 59);
    box_unit(hull)
}

#[test]
fn near_the_eye_levels_of_detail_draw_the_exact_bytes() {
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let m = hull();
    for facing in [0.0, 40.0, 100.0] {
        let scene = [Instance {
            unit: Unit::single(&m),
            pose: Pose {
                facing,
                ..Pose::default()
            },
        }];
        let cam = camera(400.0, 320);
        let exact = render(&scene, &cam, &vpl, Lod::Off);
        let lod = render(&scene, &cam, &vpl, Lod::Auto);
        assert!(exact.1.iter().filter(|v| v.is_finite()).count() > 2000);
        assert!(exact.0.pixels() == lod.0.pixels(), "facing {facing}");
        assert_eq!(exact.1, lod.1, "facing {facing}");
    }
}

#[test]
fn far_away_the_coarse_levels_cover_the_exact_pixels_in_their_colours() {
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let m = hull();
    // Far enough that a fine cell is a quarter to a half of a pixel (levels 1 and 2).
    for (distance, facing) in [
        (4000.0, 0.0),
        (5000.0, 30.0),
        (8000.0, 70.0),
        (9000.0, 115.0),
    ] {
        let scene = [Instance {
            unit: Unit::single(&m),
            pose: Pose {
                facing,
                ..Pose::default()
            },
        }];
        let cam = camera(distance, 960);
        let exact = render(&scene, &cam, &vpl, Lod::Off);
        let lod = render(&scene, &cam, &vpl, Lod::Auto);
        let (a, b, recoloured) = compare(&exact, &lod);
        eprintln!("hull at {distance}, facing {facing}: {a} px exact, {b} with lod, {recoloured} recoloured");
        assert!(a > 100, "{a}");
        assert!(a.abs_diff(b) * 100 <= a * 5, "{a} against {b}");
        // One colour and one normal: only the light's page could differ, and it does not.
        assert_eq!(recoloured, 0);
    }
}

#[test]
fn far_away_hmec_keeps_its_coverage_and_colours() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        eprintln!("skipped: the vxl samples are missing");
        return;
    };
    let vpl = vpl::decode(&std::fs::read(dir.join("vengi/test.vpl")).unwrap()).unwrap();
    let file = OpenedFile::open(Path::new(&dir).join("vengi/hmec.vxl")).unwrap();
    let hmec = VoxelSet::load_file(&file).unwrap();
    let palette = &vpl.palette;
    for (distance, facing) in [
        (700.0, 0.0),
        (900.0, 60.0),
        (1400.0, 150.0),
        (2000.0, 210.0),
    ] {
        let scene = [Instance {
            unit: hmec.unit(),
            pose: Pose {
                facing,
                ..Pose::default()
            },
        }];
        let cam = camera(distance, 480);
        let exact = render(&scene, &cam, &vpl, Lod::Off);
        let lod = render(&scene, &cam, &vpl, Lod::Auto);
        let (a, b, recoloured) = compare(&exact, &lod);
        // Mean colour difference over the pixels both cover, in 8-bit levels per channel.
        let (mut sum, mut both) = (0u64, 0u64);
        for ((da, db), (pa, pb)) in exact
            .1
            .iter()
            .zip(&lod.1)
            .zip(exact.0.pixels().iter().zip(lod.0.pixels()))
        {
            if da.is_finite() && db.is_finite() {
                let (x, y) = (palette.colors[*pa as usize], palette.colors[*pb as usize]);
                sum += (0..3).map(|k| x[k].abs_diff(y[k]) as u64).sum::<u64>();
                both += 3;
            }
        }
        let mean = sum as f64 / both.max(1) as f64;
        if let Some(dir) = std::env::var_os("LOD_DUMP") {
            dump(
                &Path::new(&dir).join(format!("hmec_{distance}.png")),
                &exact,
                &lod,
                palette,
            );
        }
        eprintln!("hmec at {distance}, facing {facing}: {a} px exact, {b} with lod, {recoloured} recoloured, mean {mean:.1} levels");
        assert!(a > 50, "{a}");
        // A unit of under a hundred pixels: a pixel or two of outline is several percent.
        assert!(a.abs_diff(b) * 100 <= a * 10, "{a} against {b}");
        assert!(mean <= 40.0, "mean colour difference {mean}");
    }
}

/// The covered box of both pictures, 8x, exact left and coarse right (`LOD_DUMP` only: to look at).
fn dump(
    path: &Path,
    a: &(IndexedFrame, Vec<f32>),
    b: &(IndexedFrame, Vec<f32>),
    palette: &Palette,
) {
    let w = a.0.width();
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (i, (da, db)) in a.1.iter().zip(&b.1).enumerate() {
        if da.is_finite() || db.is_finite() {
            let (x, y) = (i % w, i / w);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
        }
    }
    let (k, bw, bh) = (8, x1 - x0 + 2, y1 - y0 + 2);
    let ow = 2 * bw * k;
    let mut rgba = vec![255u8; ow * bh * k * 4];
    for (side, f) in [a, b].into_iter().enumerate() {
        for y in 0..bh * k {
            for x in 0..bw * k {
                let (sx, sy) = ((x0 + x / k).min(w - 1), (y0 + y / k).min(a.0.height() - 1));
                let c = palette.colors[f.0.pixels()[sy * w + sx] as usize];
                let o = (y * ow + side * bw * k + x) * 4;
                rgba[o..o + 3].copy_from_slice(&c);
            }
        }
    }
    modex::pngio::save_rgba(path, ow, bh * k, &rgba).unwrap();
}
