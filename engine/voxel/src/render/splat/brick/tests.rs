//! Bricks change no pixel: a box found hidden hides every voxel test inside it, now and after
//! later draws, and crowds of generated limbs draw the same pixels and depths with and without
//! the brick tests (perspective and orthographic, 8-bit and 8888, one band and many).

use std::collections::BTreeSet;

use glam::Vec3;
use modex::{Camera, Palette, Rng};
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::{hva, vxl, Vpl};

use super::super::super::occlusion::{self, TileDepth};
use super::super::super::{pixel::Shade, RenderOptions, Splatting};
use crate::{game_camera, Instance, Pose, Unit, VoxelModel};

thread_local! {
    /// Bricks found hidden on this thread (draws with `parallel` off only).
    pub(super) static HIDDEN_BRICKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// [`TileDepth::hides_box`] against [`TileDepth::hides_voxel`]: over random depths (NaN and
/// infinities among them) and tiles refreshed, never refreshed or stale, whenever a box is
/// hidden, so is every voxel centred in it with the same reach and a bound at or above the box's,
/// also after random draws lower the depths; boxes reaching past the band's sides included.
#[test]
fn a_hidden_box_hides_every_voxel_in_it() {
    let (w, rows, y0) = (61usize, 37usize, 16usize);
    let mut rng = Rng::new(32);
    let mut hidden = 0;
    for round in 0..400 {
        let far = rng.range(2.0, 50.0);
        let mut depth: Vec<f32> = (0..w * rows)
            .map(|_| match rng.below(40) {
                0 => f32::NAN,
                1 => f32::INFINITY,
                2..=5 => far,
                _ => rng.range(1.0, 3.0),
            })
            .collect();
        let mut tiles = TileDepth::for_band(w, y0, rows, true).unwrap();
        match round % 3 {
            0 => tiles.refresh([0, y0, w, y0 + rows], &depth),
            1 => {}
            _ => {
                tiles.refresh([0, y0, w, y0 + rows], &depth);
                // Stale: drawn over (nearer depths) since the refresh.
                for d in depth.iter_mut().step_by(7) {
                    *d = d.min(0.5);
                }
            }
        }
        let reach = rng.range(0.0, 5.0);
        let x = rng.range(-8.0, w as f32 + 8.0);
        let y = rng.range(y0 as f32 - 8.0, (y0 + rows) as f32 + 8.0);
        let xs = [x, x + rng.range(0.0, 12.0)];
        let ys = [y, y + rng.range(0.0, 12.0)];
        let near = rng.range(1.5, 6.0);
        if !tiles.hides_box(xs, ys, reach, near, &depth) {
            continue;
        }
        hidden += 1;
        for _ in 0..3 {
            for _ in 0..20 {
                let c = (rng.range(xs[0], xs[1]), rng.range(ys[0], ys[1]));
                let own = near + rng.range(0.0, 2.0);
                assert!(
                    tiles.hides_voxel(&depth, c, reach, own),
                    "round {round}: box {xs:?} {ys:?} reach {reach} near {near}, voxel {c:?}"
                );
            }
            // A draw lowers some depths (never to NaN); the box's answer still holds.
            for _ in 0..30 {
                let i = rng.below((w * rows) as u32) as usize;
                depth[i] = depth[i].min(rng.range(0.0, 4.0));
            }
        }
    }
    assert!(hidden > 50, "only {hidden} boxes hidden");
}

/// A generated limb: the union of a few random boxes of a random size (up to 40 cells across),
/// some cells knocked out, random colours and normals.
fn generated_limb(rng: &mut Rng) -> LimbSpec {
    let size = [
        6 + rng.below(35) as u8,
        6 + rng.below(35) as u8,
        4 + rng.below(29) as u8,
    ];
    let mut cells = BTreeSet::new();
    for _ in 0..1 + rng.below(4) {
        let corner = |rng: &mut Rng| size.map(|s| rng.below(u32::from(s)) as u8);
        let (a, b) = (corner(rng), corner(rng));
        for x in a[0].min(b[0])..=a[0].max(b[0]) {
            for y in a[1].min(b[1])..=a[1].max(b[1]) {
                for z in a[2].min(b[2])..=a[2].max(b[2]) {
                    if rng.below(12) != 0 {
                        cells.insert((y, x, z));
                    }
                }
            }
        }
    }
    let mut l = LimbSpec::empty(size);
    l.voxels = cells
        .into_iter()
        .map(|(y, x, z)| (x, y, z, 16 + rng.below(200) as u8, rng.below(36) as u8))
        .collect();
    l
}

/// A model of one to three generated limbs.
fn generated_model(rng: &mut Rng, name: &str) -> VoxelModel {
    let limbs: Vec<LimbSpec> = (0..1 + rng.below(3)).map(|_| generated_limb(rng)).collect();
    let n = limbs.len();
    let spec = VxlSpec {
        limbs,
        ..VxlSpec::default()
    };
    let v = vxl::decode(&spec.encode()).unwrap();
    let h = hva::decode(&HvaSpec::identity(n, 1).encode()).unwrap();
    VoxelModel::new(name, v, Some(h)).unwrap()
}

/// The pixels and depths of `scene` drawn with the tiles on, the brick tests on or off, over a
/// depth buffer whose lower half holds a "ground" at `ground` view depth.
fn draw<P: Shade + Default>(
    scene: &[Instance<'_>],
    cam: &Camera,
    vpl: &Vpl,
    parallel: bool,
    bricks: bool,
    ground: f32,
) -> (Vec<P>, Vec<u32>) {
    let opts = RenderOptions {
        parallel,
        splat: Splatting::Always,
        ..occlusion::tests::game_lit()
    };
    occlusion::tests::draw_over_ground(
        scene,
        cam,
        vpl,
        &opts,
        |s| s.brick_tests = bricks,
        (ground, 89),
    )
}

/// Crowds of units of generated limbs, nearest first, packed so that most hide behind nearer
/// ones, under a perspective camera (cells 1-6 pixels: every limb rasterised) and the game's
/// orthographic one: the same pixels and depths with the brick tests and without, 8-bit and
/// 8888, one band and many, and some bricks were found hidden.
#[test]
fn bricks_change_no_pixel_on_generated_limbs() {
    let vpl = Vpl::from_palette(&Palette::quake(), 32);
    let mut rng = Rng::new(43);
    let models: Vec<VoxelModel> = (0..6)
        .map(|i| generated_model(&mut rng, &format!("gen{i}")))
        .collect();
    let mut hidden = 0;
    for round in 0..6 {
        let perspective = round % 2 == 0;
        let (w, h) = (320, 200);
        let cam = if perspective {
            let yaw = rng.range(0.0, std::f32::consts::TAU);
            let pitch = rng.range(0.3, 0.9);
            Camera::orbit(Vec3::ZERO, 90.0 + 40.0 * rng.unit(), yaw, pitch, 0.87, w, h)
        } else {
            game_camera(Vec3::ZERO, 60.0, w, h)
        };
        let spread = 12.0 + 8.0 * rng.unit();
        let mut scene: Vec<Instance<'_>> = (0..60)
            .map(|_| Instance {
                unit: Unit::single(&models[rng.below(models.len() as u32) as usize]),
                pose: Pose {
                    position: Vec3::new(
                        rng.range(-spread, spread),
                        rng.range(-spread, spread),
                        0.0,
                    ),
                    facing: rng.range(0.0, 256.0),
                    ..Pose::default()
                },
            })
            .collect();
        let d = |u: &Instance<'_>| u.pose.position.distance(cam.eye);
        scene.sort_by(|a, b| d(a).total_cmp(&d(b)));
        let ground = if perspective { 150.0 } else { 0.0 };
        let name = format!("round {round}");
        hidden += same_with_and_without::<u8>(&name, &scene, &cam, &vpl, ground);
        if round < 2 {
            same_with_and_without::<modex::Argb8888>(&name, &scene, &cam, &vpl, ground);
        }
    }
    assert!(hidden > 100, "only {hidden} bricks hidden");
}

/// [`draw`] with and without the brick tests, on one band and many: the same pixels and
/// depths. Returns how many bricks the one-band draw found hidden.
fn same_with_and_without<P: Shade + Default + PartialEq + std::fmt::Debug>(
    name: &str,
    scene: &[Instance<'_>],
    cam: &Camera,
    vpl: &Vpl,
    ground: f32,
) -> usize {
    let reference = draw::<P>(scene, cam, vpl, false, false, ground);
    let covered = reference.0.iter().filter(|&p| *p != P::default()).count();
    assert!(covered > cam.width * cam.height / 8, "{name}: {covered}");
    let mut hidden = 0;
    for parallel in [false, true] {
        let before = HIDDEN_BRICKS.with(|n| n.get());
        let bricked = draw::<P>(scene, cam, vpl, parallel, true, ground);
        if !parallel {
            hidden = HIDDEN_BRICKS.with(|n| n.get()) - before;
        }
        let differ = (0..reference.0.len())
            .filter(|&i| reference.0[i] != bricked.0[i] || reference.1[i] != bricked.1[i])
            .count();
        assert_eq!(differ, 0, "{name}, parallel {parallel}: pixels differ");
    }
    hidden
}
