//! The lanes give the scalar set-up's bits: face by face on random and degenerate faces, and
//! whole frames of the demo's units (`data/demo/units`) under the demo's perspective camera, drawn
//! with faces set up one by one and four at a time, pixel and depth bits, on one band and many.

use std::path::PathBuf;

use glam::{Vec3, Vec4};
use modex::{Camera, DirSource, Palette, Rng};

use super::super::super::{job, march, pixel::Shade, RenderOptions, Shading};
use super::FaceRaster;
use super::{perspective_face, FaceQueue, Setup4, FACE_BY_FACE, LANE_FACES};
use crate::{Instance, Pose, TypeKind, VoxelSet, VoxelType, Vpl};

/// Every field of a raster and its centre, as bits; every NaN as one value (Rust leaves a NaN's
/// sign and payload to the compiler, and any NaN fails every comparison the draw makes).
fn bits(sx: f32, sy: f32, f: &FaceRaster) -> Vec<u64> {
    let mut v: Vec<u64> = [sx, sy, f.inv_det, f.gx, f.gy]
        .into_iter()
        .chain(f.reach)
        .chain(f.k)
        .chain(f.w)
        .chain(f.a)
        .chain(f.b)
        .map(|x| u64::from(if x.is_nan() { f32::NAN } else { x }.to_bits()))
        .collect();
    v.extend(f.flat.map(u64::from));
    v.push(
        f.stamp
            .map_or(u64::MAX, |(w, h)| (w as u64) << 32 | h as u64),
    );
    v
}

/// Random screen maps (perspective, some nearly edge-on or degenerate) and face centres.
fn cases(rng: &mut Rng) -> ([Vec4; 3], [Vec4; 4]) {
    let special = [0.0, -0.0, 1e-12, -1e-30, f32::INFINITY, f32::NAN, 1e30];
    let mut v = |scale: f32| {
        if rng.range(0.0, 1.0) < 0.03 {
            special[rng.range(0.0, special.len() as f32) as usize % special.len()]
        } else {
            rng.range(-scale, scale)
        }
    };
    let axes = [(); 3].map(|_| Vec4::new(v(40.0), v(40.0), v(1.0), v(0.02)));
    let centres = [(); 4].map(|_| Vec4::new(v(4e4), v(4e4), v(400.0), v(400.0)));
    (axes, centres)
}

#[test]
fn four_lanes_give_each_face_the_scalar_set_up_bits() {
    let mut rng = Rng::new(9);
    let mut compared = 0;
    for _ in 0..20_000 {
        let (mut axes, f) = cases(&mut rng);
        if rng.range(0.0, 1.0) < 0.1 {
            // A screen edge horizontal or vertical: flat row intervals.
            axes[rng.range(0.0, 3.0) as usize % 3].y = 0.0;
        }
        for a in 0..3 {
            let (v1, v2) = (axes[(a + 1) % 3], axes[(a + 2) % 3]);
            let lane = |k: usize| Vec4::new(f[0][k], f[1][k], f[2][k], f[3][k]);
            let s = Setup4::new(lane(0), lane(1), lane(3), v1, v2);
            for (l, &f) in f.iter().enumerate() {
                let (sx, sy, scalar) = perspective_face(f, &axes, a);
                assert_eq!(
                    bits(s.sx[l], s.sy[l], &s.raster(l)),
                    bits(sx, sy, &scalar),
                    "axes {axes:?} centre {f:?} axis {a}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 240_000);
}

#[test]
fn the_queue_draws_faces_in_the_order_queued() {
    let axes = [
        Vec4::new(3.0, 0.5, 0.1, 0.001),
        Vec4::new(-0.4, 2.5, 0.2, 0.0),
        Vec4::new(0.3, -1.5, 0.9, 0.002),
    ];
    let mut queue = FaceQueue::new(axes, 0usize);
    let mut drawn = Vec::new();
    let mut draw = |sx: f32, sy: f32, z: f32, f: &FaceRaster, lit: usize| {
        drawn.push((lit, bits(sx, sy, f), z.to_bits()));
    };
    let mut expected = Vec::new();
    for i in 0..37 {
        let a = [0, 0, 1, 2, 1][i % 5];
        let f = Vec4::new(
            i as f32 * 7.0,
            100.0 - i as f32,
            50.0 + i as f32,
            1.0 + i as f32 * 0.01,
        );
        let (sx, sy, face) = perspective_face(f, &axes, a);
        if face.inv_det != 0.0 {
            expected.push((i, bits(sx, sy, &face), f.z.to_bits()));
        }
        queue.push(a, f, i, &mut draw);
    }
    queue.flush(&mut draw);
    // Two flushes of a full queue and one partial; none of these faces is edge-on.
    assert_eq!(expected.len(), 37);
    assert_eq!(drawn, expected);
}

fn load(name: &str, turret: bool) -> VoxelSet {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/demo/units");
    let s = VoxelSet::load(
        &VoxelType::new(name, TypeKind::Vehicle, turret),
        &DirSource::new(dir),
    );
    assert!(s.failure.is_none(), "{name}: {:?}", s.failure);
    s
}

/// `n` units of the three kinds at random places, facings and frames over a `spread`-wide square.
fn crowd<'m>(sets: &'m [VoxelSet; 3], n: usize, spread: f32) -> Vec<Instance<'m>> {
    let mut rng = Rng::new(16);
    (0..n)
        .map(|i| Instance {
            unit: sets[i % 3].unit(),
            pose: Pose {
                position: Vec3::new(
                    rng.range(-spread, spread),
                    rng.range(-spread, spread),
                    if i % 3 == 2 { 20.0 } else { 0.0 },
                ),
                facing: rng.range(0.0, 256.0),
                turret_facing: rng.range(0.0, 256.0),
                turret_offset: Vec3::new(-2.0, 0.0, 8.0),
                frame: rng.range(0.0, 8.0) as usize,
                ..Pose::default()
            },
        })
        .collect()
}

/// The draw's pixels and depth bits, perspective faces set up one by one or in lanes.
fn draw<P: Shade + Default>(
    scene: &[Instance<'_>],
    cam: &Camera,
    vpl: &Vpl,
    parallel: bool,
    face_by_face: bool,
) -> (Vec<P>, Vec<u32>) {
    let opts = RenderOptions {
        shading: Shading::Game,
        sun: Some(Vec3::new(0.4, 0.3, 0.8)),
        parallel,
        ..RenderOptions::default()
    };
    let jobs = job::prepare(scene, cam, &opts, vpl.page_count()).unwrap();
    let screen = march::Screen::new(cam);
    let tables = modex::BlendTables::new(&vpl.palette);
    let (w, h) = (cam.width, cam.height);
    let mut pixels = vec![P::default(); w * h];
    let mut depth = vec![f32::INFINITY; w * h];
    FACE_BY_FACE.with(|f| f.set(face_by_face));
    march::march_bands(
        &screen,
        &jobs,
        vpl,
        &tables,
        &mut pixels,
        &mut depth,
        parallel,
    );
    FACE_BY_FACE.with(|f| f.set(false));
    (pixels, depth.iter().map(|d| d.to_bits()).collect())
}

fn same_both_ways<P: Shade + Default + PartialEq>(
    name: &str,
    scene: &[Instance<'_>],
    cam: &Camera,
    vpl: &Vpl,
) {
    let before = LANE_FACES.with(|n| n.get());
    let reference = draw::<P>(scene, cam, vpl, false, true);
    assert_eq!(
        LANE_FACES.with(|n| n.get()),
        before,
        "{name}: the reference used no lanes"
    );
    let covered = reference
        .1
        .iter()
        .filter(|&&d| d != f32::INFINITY.to_bits())
        .count();
    assert!(
        covered > cam.width * cam.height / 20,
        "{name}: {covered} pixels"
    );
    for parallel in [false, true] {
        let lanes = draw::<P>(scene, cam, vpl, parallel, false);
        if !parallel {
            let faces = LANE_FACES.with(|n| n.get()) - before;
            assert!(faces > 10_000, "{name}: only {faces} faces from lanes");
            eprintln!("{name}: {faces} faces from lanes, {covered} pixels covered");
        }
        let differ = (0..reference.0.len())
            .filter(|&i| reference.0[i] != lanes.0[i] || reference.1[i] != lanes.1[i])
            .count();
        assert_eq!(
            differ, 0,
            "{name}, parallel {parallel}: pixels or depths differ"
        );
    }
}

#[test]
fn lanes_change_no_pixel_under_the_demo_camera() {
    let sets = [load("tank", true), load("apc", false), load("heli", false)];
    let vpl = Vpl::from_palette(&Palette::quake(), 32);
    // The demo's default view (orbit at 340, 50 degrees) at 1280x720: the units' cells cover
    // several pixels, every limb rasterised face by face.
    let cam = Camera::orbit(Vec3::ZERO, 340.0, 0.6, 0.62, 50f32.to_radians(), 1280, 720);
    let scene = crowd(&sets, 300, 120.0);
    same_both_ways::<u8>("perspective 8-bit", &scene, &cam, &vpl);
    same_both_ways::<modex::Argb8888>("perspective 8888", &scene, &cam, &vpl);
    // Close up: large cells, faces scanned row by row.
    let near = Camera::orbit(Vec3::ZERO, 120.0, 0.6, 0.62, 50f32.to_radians(), 480, 270);
    let scene = crowd(&sets, 60, 40.0);
    same_both_ways::<u8>("close 8-bit", &scene, &near, &vpl);
}
