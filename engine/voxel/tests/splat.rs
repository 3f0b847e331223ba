//! Splatted limbs against the ray-marcher. At the switch size (the largest view in which every
//! limb of the unit splats) both cover the same pixels within 1 %; splats are lit and coloured by
//! the marcher's tables in every format, and 1 and N threads draw identical frames.

use std::path::Path;

use glam::Vec3;
use modex::{
    Argb4444, Argb8888, Camera, DepthBuffer, DrawStats, IndexedFrame, OpenedFile, Palette, Pixel,
    Rgb565, Surface, SurfacePixel,
};
use modex_voxel::{
    draw, frame_scene, game_camera, Instance, Pose, RenderOptions, Splatting, Unit, VoxelModel,
    VoxelPixel, VoxelSet,
};
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::{hva, vpl, vxl, Vpl};

fn load(dir: &Path, rel: &str) -> VoxelSet {
    let file = OpenedFile::open(dir.join(rel)).unwrap();
    VoxelSet::load_file(&file).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Options that splat every limb small enough (`splat`) or march every limb.
fn options(splat: bool, parallel: bool) -> RenderOptions {
    RenderOptions {
        splat: if splat {
            Splatting::Always
        } else {
            Splatting::Never
        },
        parallel,
        ..RenderOptions::default()
    }
}

fn render<P: Pixel + VoxelPixel + SurfacePixel>(
    scene: &[Instance<'_>],
    cam: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
) -> (Surface<P>, DepthBuffer, DrawStats) {
    let mut s = Surface::<P>::new(cam.width, cam.height);
    let mut d = DepthBuffer::new(cam.width, cam.height);
    let stats = draw(scene, cam, vpl, opts, &mut s, &mut d).unwrap();
    (s, d, stats)
}

fn render8(
    scene: &[Instance<'_>],
    cam: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
) -> (IndexedFrame, DrawStats) {
    let mut f = IndexedFrame::new(cam.width, cam.height);
    let mut d = DepthBuffer::new(cam.width, cam.height);
    let stats = draw(scene, cam, vpl, opts, &mut f, &mut d).unwrap();
    (f, stats)
}

/// The largest square view (game camera fitted to the scene) in which no ray is cast: every limb
/// splats. Views one pixel larger march at least one limb.
fn switch_size(scene: &[Instance<'_>], vpl: &Vpl) -> (usize, Camera) {
    let cam = |size| frame_scene(scene, &game_camera(Vec3::ZERO, 100.0, size, size)).unwrap();
    let size = (8..400)
        .take_while(|&s| render8(scene, &cam(s), vpl, &options(true, false)).1.rays == 0)
        .last()
        .expect("the unit splats when small");
    (size, cam(size))
}

/// Covered pixels of the splatted and the marched frame, and how many pixels only one covers.
fn coverage(scene: &[Instance<'_>], cam: &Camera, vpl: &Vpl) -> (usize, usize, usize) {
    let (a, sa) = render8(scene, cam, vpl, &options(true, false));
    let (b, sb) = render8(scene, cam, vpl, &options(false, false));
    assert_eq!(sa.rays, 0);
    assert!(sb.rays > 0);
    let count = |f: &IndexedFrame| f.pixels().iter().filter(|&&p| p != 0).count();
    let only_one = a
        .pixels()
        .iter()
        .zip(b.pixels())
        .filter(|(x, y)| (**x != 0) != (**y != 0))
        .count();
    (count(&a), count(&b), only_one)
}

fn box_unit(limb: LimbSpec) -> VoxelModel {
    let v = vxl::decode(&VxlSpec::single(limb).encode()).unwrap();
    let h = hva::decode(&HvaSpec::identity(1, 1).encode()).unwrap();
    VoxelModel::new("box", v, Some(h)).unwrap()
}

#[test]
fn at_the_switch_size_hmec_splatted_covers_the_marched_pixels() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        eprintln!("skipped: the vxl samples are missing");
        return;
    };
    let vpl = vpl::decode(&std::fs::read(dir.join("vengi/test.vpl")).unwrap()).unwrap();
    let hmec = load(&dir, "vengi/hmec.vxl");
    for (facing, frame) in [(0.0, 0), (37.0, 3), (96.0, 7), (160.0, 5), (221.0, 11)] {
        let scene = [Instance {
            unit: hmec.unit(),
            pose: Pose {
                facing,
                frame,
                ..Pose::default()
            },
        }];
        let (size, cam) = switch_size(&scene, &vpl);
        let (splat, march, only_one) = coverage(&scene, &cam, &vpl);
        eprintln!("hmec facing {facing} frame {frame}: switch at {size}x{size}, {splat} pixels splatted, {march} marched, {only_one} covered by one only");
        assert!(march > 300, "{march}");
        assert!(
            only_one * 100 <= march,
            "facing {facing}: {only_one} of {march} pixels differ"
        );
    }
}

#[test]
fn at_the_switch_size_a_box_splatted_covers_the_marched_pixels() {
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let mut hull = LimbSpec::filled_box([30, 20, 12], 150, 5);
    hull.voxels
        .retain(|v| v.0 == 0 || v.0 == 29 || v.1 == 0 || v.1 == 19 || v.2 == 0 || v.2 == 11);
    let m = box_unit(hull);
    for facing in [0.0, 21.0, 64.0, 100.0] {
        let scene = [Instance {
            unit: Unit::single(&m),
            pose: Pose {
                facing,
                ..Pose::default()
            },
        }];
        let (size, cam) = switch_size(&scene, &vpl);
        let (splat, march, only_one) = coverage(&scene, &cam, &vpl);
        assert!(march > 200, "{size}: {march}");
        assert!(
            only_one * 100 <= march,
            "facing {facing}, {size}x{size}: {only_one} of {march} differ ({splat} splatted)"
        );
    }
}

/// A box of one colour and one normal looks the same splatted or marched wherever both cover a
/// pixel: the splat reads the marcher's lighting (VPL page or gain of the normal), in every format.
#[test]
fn splats_are_lit_and_coloured_like_the_marcher_in_every_format() {
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let m = box_unit(LimbSpec::filled_box([24, 16, 10], 170, 40));
    let scene = [Instance {
        unit: Unit::single(&m),
        pose: Pose {
            facing: 30.0,
            ..Pose::default()
        },
    }];
    let (_, cam) = switch_size(&scene, &vpl);
    let (s8, _) = render8(&scene, &cam, &vpl, &options(true, false));
    let (m8, _) = render8(&scene, &cam, &vpl, &options(false, false));
    /// Pixels both cover in different colours, and pixels only one covers.
    fn differ<T: PartialEq + Copy>(a: &[T], b: &[T], empty: T) -> (usize, usize) {
        let both = a
            .iter()
            .zip(b)
            .filter(|(x, y)| **x != empty && **y != empty);
        let only = a
            .iter()
            .zip(b)
            .filter(|(x, y)| (**x != empty) != (**y != empty));
        (both.filter(|(x, y)| x != y).count(), only.count())
    }
    let covered = m8.pixels().iter().filter(|&&p| p != 0).count();
    let (colour, only) = differ(s8.pixels(), m8.pixels(), 0);
    assert_eq!(colour, 0, "8-bit: {colour} pixels in another colour");
    assert!(
        only * 100 <= covered,
        "8-bit: {only} of {covered} covered by one only"
    );
    let (s32, _, _) = render::<Argb8888>(&scene, &cam, &vpl, &options(true, false));
    let (m32, _, _) = render::<Argb8888>(&scene, &cam, &vpl, &options(false, false));
    let (colour, _) = differ(s32.pixels(), m32.pixels(), Argb8888::default());
    assert_eq!(colour, 0, "8888: {colour} pixels in another colour");
    fn narrowed<P: Pixel>(s: &Surface<Argb8888>) -> Vec<P> {
        s.pixels()
            .iter()
            .map(|p| P::from_rgba(p.to_rgba()))
            .collect()
    }
    let (s565, _, _) = render::<Rgb565>(&scene, &cam, &vpl, &options(true, false));
    assert!(s565.pixels() == narrowed::<Rgb565>(&s32).as_slice());
    let (s4444, _, _) = render::<Argb4444>(&scene, &cam, &vpl, &options(true, false));
    assert!(s4444.pixels() == narrowed::<Argb4444>(&s32).as_slice());
    assert!(s8.pixels().iter().filter(|&&p| p != 0).count() > 100);
}

/// A crowd of small units (every limb splatted) with mixed facings: one thread, one band per
/// thread count, every format, identical pixels and depths.
#[test]
fn splatted_crowds_draw_identically_on_one_and_many_threads() {
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let mut limb = LimbSpec::filled_box([12, 9, 7], 100, 3);
    for (i, v) in limb.voxels.iter_mut().enumerate() {
        v.3 = (i * 7 % 200) as u8;
        v.4 = (i * 13 % 244) as u8;
    }
    let m = box_unit(limb);
    let scene: Vec<Instance> = (0..64)
        .map(|i| Instance {
            unit: Unit::single(&m),
            pose: Pose {
                position: Vec3::new((i % 8) as f32 * 9.0, (i / 8) as f32 * 9.0, 0.0),
                facing: (i * 29 % 256) as f32,
                ..Pose::default()
            },
        })
        .collect();
    let (_, cam) = switch_size(&scene, &vpl);
    let run = |threads: usize, parallel: bool| {
        modex::with_threads(threads, || {
            let (f, s) = render8(&scene, &cam, &vpl, &options(true, parallel));
            let (t, d, _) = render::<Argb8888>(&scene, &cam, &vpl, &options(true, parallel));
            let (h, _, _) = render::<Rgb565>(&scene, &cam, &vpl, &options(true, parallel));
            (f, s, t, d, h)
        })
        .unwrap()
    };
    let one = run(1, false);
    assert_eq!(one.1.rays, 0, "every limb splats");
    assert!(one.0.pixels().iter().filter(|&&p| p != 0).count() > 500);
    for threads in [1, 2, 3, 7] {
        let n = run(threads, true);
        assert!(n.0.pixels() == one.0.pixels(), "{threads} threads");
        assert!(n.2.pixels() == one.2.pixels() && n.3 == one.3 && n.4.pixels() == one.4.pixels());
    }
}

/// Splat (every limb) against march at one camera: pixels covered by only one, pixels both cover
/// in different colours, pixels both cover at depths more than 0.1 % apart, pixels marched, rays
/// of the splatted draw.
fn compare(scene: &[Instance<'_>], cam: &Camera, vpl: &Vpl) -> (usize, usize, usize, usize, usize) {
    let (a, da, sa) = render::<Argb8888>(scene, cam, vpl, &options(true, false));
    let (b, db, _) = render::<Argb8888>(scene, cam, vpl, &options(false, false));
    let (mut only_one, mut colour, mut far, mut marched) = (0, 0, 0, 0);
    for i in 0..cam.width * cam.height {
        let (za, zb) = (da.values()[i], db.values()[i]);
        marched += usize::from(zb.is_finite());
        if za.is_finite() != zb.is_finite() {
            only_one += 1;
        } else if za.is_finite() {
            colour += usize::from(a.pixels()[i] != b.pixels()[i]);
            far += usize::from((za - zb).abs() > 1e-3 * zb.abs());
        }
    }
    (only_one, colour, far, marched, sa.rays)
}

/// Above one pixel per cell each visible voxel is rasterised over the pixels its cube covers:
/// at sizes from a few pixels per cell up to the largest splatted footprint, orthographic and
/// perspective, the splat covers the marcher's pixels, in the marcher's colours, at the
/// marcher's depths (each within 1 % of the marched pixels).
#[test]
fn rasterised_splats_match_the_marcher_at_every_size() {
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let mut limb = LimbSpec::filled_box([30, 20, 12], 150, 5);
    limb.voxels
        .retain(|v| v.0 == 0 || v.0 == 29 || v.1 == 0 || v.1 == 19 || v.2 == 0 || v.2 == 11);
    for (i, v) in limb.voxels.iter_mut().enumerate() {
        v.3 = 1 + (i * 7 % 200) as u8;
        v.4 = (i * 13 % 244) as u8;
    }
    let hull = box_unit(limb);
    let hmec = modex_testkit::samples_dir("vxl").map(|dir| {
        let vpl = vpl::decode(&std::fs::read(dir.join("vengi/test.vpl")).unwrap()).unwrap();
        (load(&dir, "vengi/hmec.vxl"), vpl)
    });
    if hmec.is_none() {
        eprintln!("hmec part skipped: the vxl samples are missing");
    }
    let mut cases: Vec<(Unit<'_>, &Vpl, &str)> = vec![(Unit::single(&hull), &vpl, "hull")];
    if let Some((set, v)) = &hmec {
        cases.push((set.unit(), v, "hmec"));
    }
    let mut splatted = 0;
    for (unit, vpl, name) in cases {
        for facing in [0.0, 37.0, 100.0, 221.0] {
            let scene = [Instance {
                unit,
                pose: Pose {
                    facing,
                    frame: 3,
                    ..Pose::default()
                },
            }];
            for size in [64, 128, 200] {
                let ortho = frame_scene(&scene, &game_camera(Vec3::ZERO, 100.0, size, size));
                let mut base = Camera::orbit(Vec3::ZERO, 300.0, 0.7, 0.5, 0.9, size, size);
                base.projection = modex::Projection::Perspective { fov_y: 0.9 };
                for (kind, cam) in [
                    ("ortho", ortho.unwrap()),
                    ("persp", frame_scene(&scene, &base).unwrap()),
                ] {
                    let (only_one, colour, far, marched, rays) = compare(&scene, &cam, vpl);
                    eprintln!("{name} {kind} facing {facing} {size}x{size}: {marched} marched, {only_one} covered by one only, {colour} in another colour, {far} at another depth, {rays} rays left");
                    splatted += usize::from(rays == 0);
                    assert!(marched > 300, "{marched}");
                    // Perspective cells are rasterised from the projection's derivatives at
                    // their centres: where two neighbours' outlines meet, a pixel may go to
                    // the other one (up to 1.2 % at 64x64 this close, 0.4-0.8 % larger).
                    let colour_bound = if kind == "ortho" { 100 } else { 50 };
                    // One-pixel splats (hmec's smallest limbs at 64x64) keep the centre's depth.
                    let depth_bound = if name == "hull" { 100 } else { 0 };
                    for (what, n, per) in [
                        ("covered by one only", only_one, 100),
                        ("in another colour", colour, colour_bound),
                        ("at another depth", far, depth_bound),
                    ] {
                        assert!(
                            n * per <= marched,
                            "{name} {kind} facing {facing} {size}x{size}: {n} of {marched} {what}"
                        );
                    }
                }
            }
        }
    }
    assert!(splatted >= 16, "only {splatted} cases splatted every limb");
}

/// Multi-pixel splats (faces stamped or scanned, cells 2-6 pixels) of a crowd with mixed
/// facings, where limbs straddle band edges: 1 and N threads draw identical pixels and depths.
#[test]
fn rasterised_splats_draw_identically_on_one_and_many_threads() {
    let vpl = Vpl::from_palette(&Palette::grey_ramp(), 32);
    let mut hull = LimbSpec::filled_box([30, 20, 12], 150, 5);
    hull.voxels
        .retain(|v| v.0 == 0 || v.0 == 29 || v.1 == 0 || v.1 == 19 || v.2 == 0 || v.2 == 11);
    for (i, v) in hull.voxels.iter_mut().enumerate() {
        v.3 = 1 + (i * 7 % 200) as u8;
        v.4 = (i * 13 % 244) as u8;
    }
    let m = box_unit(hull);
    let scene: Vec<Instance> = (0..6)
        .map(|i| Instance {
            unit: Unit::single(&m),
            pose: Pose {
                position: Vec3::new((i % 3) as f32 * 40.0, (i / 3) as f32 * 40.0, 0.0),
                facing: (i * 41 % 256) as f32,
                ..Pose::default()
            },
        })
        .collect();
    for size in [150, 300] {
        let cam = frame_scene(&scene, &game_camera(Vec3::ZERO, 100.0, size, size)).unwrap();
        let run = |threads: usize, parallel: bool| {
            modex::with_threads(threads, || {
                let (f, s) = render8(&scene, &cam, &vpl, &options(true, parallel));
                let (t, d, _) = render::<Argb8888>(&scene, &cam, &vpl, &options(true, parallel));
                (f, s, t, d)
            })
            .unwrap()
        };
        let one = run(1, false);
        assert_eq!(one.1.rays, 0, "{size}: every limb splats");
        assert!(one.0.pixels().iter().filter(|&&p| p != 0).count() > 2000);
        for threads in [2, 3, 7] {
            let n = run(threads, true);
            assert!(n.0.pixels() == one.0.pixels(), "{size}: {threads} threads");
            assert!(
                n.2.pixels() == one.2.pixels() && n.3 == one.3,
                "{size}: {threads} threads"
            );
        }
    }
}
