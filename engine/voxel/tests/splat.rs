//! Splatted limbs against the ray-marcher. At the switch size (the largest view in which every
//! limb of the unit splats) both cover the same pixels within 1 %; splats are lit and coloured by
//! the marcher's tables in every format, and 1 and N threads draw identical frames.

use std::path::Path;

use glam::Vec3;
use modex::{
    Argb4444, Argb8888, Camera, DepthBuffer, DrawStats, IndexedFrame, OpenedFile, Palette, Pixel,
    Rgb565, Surface, SurfacePixel,
};
use modex_voxel::write::{HvaSpec, LimbSpec, VxlSpec};
use modex_voxel::{
    draw, frame_scene, game_camera, hva, vpl, vxl, Instance, Pose, RenderOptions, Splatting, Unit,
    VoxelModel, VoxelPixel, VoxelSet, Vpl,
};

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
    assert_eq!(s8.pixels(), m8.pixels());
    let (s32, _, _) = render::<Argb8888>(&scene, &cam, &vpl, &options(true, false));
    let (m32, _, _) = render::<Argb8888>(&scene, &cam, &vpl, &options(false, false));
    assert!(s32.pixels() == m32.pixels());
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
