//! A limb prepared for marching: everything about it that is the same for all its pixels, worked
//! out once per draw.
//!
//! For each placed limb ([`crate::scene`]) a job holds the matrix that takes a pixel's ray into the
//! limb's grid space, the screen rectangle and outline of the box of its filled cells (only pixels
//! inside are marched), its shading table ([`LimbShade`], built when a band first draws the limb)
//! and, for orthographic cameras, the ray origin's change per pixel, so a ray costs two vector
//! additions instead of two matrix products and divisions.

use std::sync::OnceLock;

use glam::{Mat3, Mat4, Vec2, Vec3, Vec4};
use modex::{Camera, Opacity};
use rayon::prelude::*;

use super::camera::ViewMatrices;
use super::footprint::Footprint;
use super::light::LimbShade;
use super::lod;
use super::splat::Splat;
use super::{RenderOptions, Splatting, SPLAT_FOOTPRINT_MAX};
use crate::model::{NoFrames, VoxelModel};
use crate::scene::{box_corners, limbs_of, Instance, PlacedLimb, BOX_EDGES};
use crate::volume::{LimbVolume, RayDir, LOD_FACTORS};

/// What one marched ray costs in splatted voxels, measured on hmec (Tiberian Sun's Mammoth Mk II)
/// in the 100-unit scene at 360x240, one thread, CPU time per draw with every limb splatted
/// (23.7 ms for 900 800 voxels) against every limb marched (11.9 ms for 80 365 rays): about 26 ns
/// per voxel of the limb (those facing away are skipped early) against 150 ns per ray, about 5.8.
/// The rule counts 3, which leans towards the marcher; it is the rule docs/benchmarks-history.md
/// records ("Voxel splats", `WhenCheaper`) and has not been re-tuned since, as that moves pixels where limbs switch.
const RAY_COST_IN_VOXELS: f32 = 3.0;

/// What testing one pixel of a rasterised (multi-pixel) splat costs in splatted voxels: see
/// docs/benchmarks-history.md, "Round 5".
const PIXEL_COST_IN_VOXELS: f32 = 0.2;

/// Fewest limbs whose jobs a parallel draw builds on the rayon pool: below it they are built on
/// the calling thread. Why: a job costs about 3 us to build (hmec's 13 limbs, 139 k instructions
/// in all), while handing work to a sleeping worker costs a futex wake-up of tens of
/// microseconds; a single unit is built faster alone. (The 100-unit scene has 1 300 limbs.)
const PARALLEL_PREPARE_LIMBS: usize = 32;

/// A limb prepared for marching.
pub(crate) struct Job<'a> {
    pub volume: &'a LimbVolume,
    /// Which limb of its piece it is (the draw cache shades its sprites' pixels by it).
    pub limb: usize,
    /// The limb's grid-to-world linear part without the grid scale: what turns its normals into
    /// world space for [`LimbShade`].
    pub linear: Mat3,
    /// Whether the screen cut the projected box (its rectangle was clamped to the screen, or a
    /// corner is behind the eye): the draw cache records only limbs drawn whole.
    pub clipped: bool,
    /// NDC (x, y, z, 1) to grid-space homogeneous coordinates.
    pub ndc_to_grid: Mat4,
    /// Where on screen the limb can show, and how near.
    pub footprint: Footprint,
    /// How its voxels are lit: built the first time a band draws the limb ([`Job::shade`]).
    pub shade: OnceLock<LimbShade>,
    /// What the shading table is built from: the limb's model, the draw's options and its VPL's
    /// page count.
    model: &'a VoxelModel,
    opts: RenderOptions,
    page_count: usize,
    /// Orthographic cameras: grid-space ray origin at pixel (0, 0), its change per pixel in x and
    /// in y, and the (constant) direction. Saves two matrix products and divisions per ray.
    pub affine: Option<[Vec3; 4]>,
    /// The constants of the affine rays' common direction.
    pub ray_dir: RayDir,
    /// Set when the limb's cells are small enough on screen to be splatted instead of marched.
    pub splat: Option<Splat>,
    /// Its unit's opacity: below opaque the limb mixes over the frame and writes no depth.
    pub alpha: Opacity,
    /// View depth of its unit's origin: translucent jobs are drawn far to near by it.
    unit_depth: f32,
}

impl Job<'_> {
    /// How the limb's voxels are lit, built on first use: by the first band that draws the limb
    /// (others wait for it), never for a limb the occlusion tests hide in every band.
    ///
    /// Why: in the 1000-unit 1080p battlefield most units stand behind nearer ones, several deep;
    /// tables built for every limb while the jobs were prepared cost 42 M instructions a frame,
    /// 8 % of it (docs/benchmarks.md, "Issue 43"). The table is the same whoever builds it.
    #[inline]
    pub fn shade(&self) -> &LimbShade {
        self.shade.get_or_init(|| {
            // A splat shades only its surface voxels with an open face among those it shows:
            // their normal indices are all its table needs (a limb of the demo's units uses a
            // fraction of the 244 of Red Alert 2's table, its barrel 88 voxels' worth; in
            // perspective the faces towards the eye's side of each slab, usually three of six,
            // leave 72 % of the surface's indices in the 1000-unit 1080p frame: 189 k of 262 k,
            // docs/benchmarks.md, issue 43, lever 40b). A marched limb may hit any voxel: the
            // whole table.
            let used = self
                .splat
                .as_ref()
                .map(|s| self.volume.normals_facing(s.shown_faces()));
            limb_shade(
                self.model,
                self.limb,
                self.linear,
                &self.opts,
                self.page_count,
                used.as_ref(),
            )
        })
    }
}

/// The linear part that turns limb `limb`'s normals into world space when its grid-to-world matrix
/// is `m`, without the grid scale.
pub(crate) fn shade_linear(model: &VoxelModel, limb: usize, m: &Mat4) -> Mat3 {
    let ext = model.vxl.limbs[limb].voxel_extent();
    let inv_ext = Vec3::new(
        if ext.x != 0.0 { 1.0 / ext.x } else { 0.0 },
        if ext.y != 0.0 { 1.0 / ext.y } else { 0.0 },
        if ext.z != 0.0 { 1.0 / ext.z } else { 0.0 },
    );
    Mat3::from_mat4(*m) * Mat3::from_diagonal(inv_ext)
}

/// The shading table of limb `limb` of `model` turned by `linear` ([`shade_linear`]) in a draw
/// with `opts`: the one rule for the marcher, the splats and the draw cache's blits (which need
/// only the normal indices in `used`, a set of 256 bits; `None` computes all).
pub(crate) fn limb_shade(
    model: &VoxelModel,
    limb: usize,
    linear: Mat3,
    opts: &RenderOptions,
    page_count: usize,
    used: Option<&[u64; 4]>,
) -> LimbShade {
    let lit = opts.shading != super::Shading::Unlit && model.limb_is_lit(limb);
    let table = model.normal_table(opts.table);
    LimbShade::new_for(lit, table, linear, opts, page_count, used)
}

/// One job per limb with something on screen, in scene order.
pub(crate) fn prepare<'a>(
    instances: &[Instance<'a>],
    camera: &Camera,
    opts: &RenderOptions,
    page_count: usize,
) -> Result<Vec<Job<'a>>, NoFrames> {
    // The camera's matrices, built once per draw (not per limb or corner).
    let cam = ViewMatrices::of(camera);
    let (vp, view, orthographic) = (cam.view_projection, cam.view, cam.orthographic);
    let inv_vp = vp.inverse();
    let (w, h) = (camera.width, camera.height);
    let limbs = limbs_of(instances)?;
    // One job per limb, built in parallel (a scene of 100 units has 1300 limbs) and collected in
    // scene order, so the draw order never depends on the thread count.
    let build = |placed: &PlacedLimb<'a>| -> Option<Job<'a>> {
        let &PlacedLimb {
            model,
            limb,
            grid_to_world: m,
            alpha,
            origin,
        } = placed;
        if alpha.is_invisible() {
            return None;
        }
        let fine = &model.volumes()[limb];
        if fine.voxel_count() == 0 {
            return None;
        }
        // The level of detail (render/lod.rs): a coarse level's cell is LOD_FACTORS[l - 1] fine
        // cells wide, so its grid-to-world matrix is the fine one times that scale. A level its
        // rule left empty (a limb thinner than its cells) falls back to the next finer one.
        let fine_m = m;
        let chosen = lod::level(
            opts.lod,
            &fine_m,
            &cam,
            &box_corners(fine.bounds().0, fine.bounds().1),
        );
        let (volume, m) = (1..=chosen)
            .rev()
            .find_map(|l| {
                let v = model.level(limb, l).filter(|v| v.voxel_count() > 0)?;
                let scale = LOD_FACTORS[l - 1] as f32;
                Some((v, fine_m * Mat4::from_scale(Vec3::splat(scale))))
            })
            .unwrap_or((fine, fine_m));
        let world_to_grid = m.inverse();
        if !world_to_grid.is_finite() || m.determinant().abs() < 1e-20 {
            return None;
        }
        // Screen rectangle of the projected box of the filled cells (files pad their boxes); the
        // whole screen when a corner is behind the eye.
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        let mut behind = false;
        let mut nearest = f32::INFINITY;
        let (cell_lo, cell_hi) = volume.bounds();
        let mut screen = [Vec2::ZERO; 8];
        let corners = box_corners(cell_lo, cell_hi);
        // Camera::project, with the camera's matrices built once per draw instead of per corner.
        for (k, &c) in corners.iter().enumerate() {
            let p = m.transform_point3(c);
            let clip = vp * p.extend(1.0);
            let eye_depth = -(view.transform_point3(p).z);
            nearest = nearest.min(eye_depth);
            if clip.w <= 0.0 || eye_depth < camera.near {
                behind = true;
                continue;
            }
            let ndc = clip.truncate() / clip.w;
            let s = Vec2::new(
                (ndc.x + 1.0) * 0.5 * w as f32,
                (1.0 - ndc.y) * 0.5 * h as f32,
            );
            lo = lo.min(s);
            hi = hi.max(s);
            screen[k] = s;
        }
        let edges = (!behind).then(|| {
            BOX_EDGES.map(|(i, j)| {
                let (mut a, mut b) = (screen[i], screen[j]);
                if a.y > b.y {
                    std::mem::swap(&mut a, &mut b);
                }
                [a.y, a.x, b.y, b.x]
            })
        });
        let rect = if behind {
            [0, 0, w, h]
        } else {
            let x0 = lo.x.floor().clamp(0.0, w as f32) as usize;
            let y0 = lo.y.floor().clamp(0.0, h as f32) as usize;
            let x1 = (hi.x.ceil() + 1.0).clamp(0.0, w as f32) as usize;
            let y1 = (hi.y.ceil() + 1.0).clamp(0.0, h as f32) as usize;
            [x0, y0, x1, y1]
        };
        if rect[0] >= rect[2] || rect[1] >= rect[3] {
            return None;
        }
        let clipped = behind
            || lo.x < 0.0
            || lo.y < 0.0
            || hi.x.ceil() + 1.0 > w as f32
            || hi.y.ceil() + 1.0 > h as f32;
        let linear = shade_linear(model, limb, &fine_m);
        let ndc_to_grid = world_to_grid * inv_vp;
        let affine = orthographic
            .then(|| {
                let at = |x: f32, y: f32, z: f32| {
                    let nx = (x + 0.5) / w as f32 * 2.0 - 1.0;
                    let ny = 1.0 - (y + 0.5) / h as f32 * 2.0;
                    ndc_to_grid * Vec4::new(nx, ny, z, 1.0)
                };
                let (o, ox, oy, f) = (
                    at(0.0, 0.0, 0.0),
                    at(1.0, 0.0, 0.0),
                    at(0.0, 1.0, 0.0),
                    at(0.0, 0.0, 1.0),
                );
                let unit_w = [o, ox, oy, f].iter().all(|v| (v.w - 1.0).abs() < 1e-5);
                unit_w.then(|| {
                    [
                        o.truncate(),
                        ox.truncate() - o.truncate(),
                        oy.truncate() - o.truncate(),
                        f.truncate() - o.truncate(),
                    ]
                })
            })
            .flatten();
        let ray_dir = RayDir::new(affine.map_or(Vec3::ZERO, |a| a[3]));
        // A translucent limb marches: a splat would mix every voxel of a pixel, not its nearest.
        let splat = if behind || !alpha.is_opaque() {
            None
        } else {
            let max_footprint = if opts.splat == Splatting::Never {
                0.0
            } else {
                SPLAT_FOOTPRINT_MAX
            };
            Splat::new(&m, &cam, &corners, max_footprint)
        };
        // Splat only where it is also the cheaper way: a ray costs about as much as splatting
        // RAY_COST_IN_VOXELS voxels, and a limb far below a pixel per cell has many voxels per ray.
        let splat = splat.filter(|s| {
            if opts.splat == Splatting::Always {
                return true;
            }
            // The rays its outline casts: the projected box's area (a hexagon, the three visible
            // face parallelograms), plus the one-pixel margin of each row's span on both sides.
            let [o, x, y, z] = [screen[0], screen[1], screen[2], screen[4]];
            let (ex, ey, ez) = (x - o, y - o, z - o);
            let area = ex.perp_dot(ey).abs() + ey.perp_dot(ez).abs() + ez.perp_dot(ex).abs();
            let rays = area + 2.0 * (rect[3] - rect[1]) as f32;
            let per_voxel = if s.is_single() {
                1.0
            } else {
                1.0 + s.cell_box_area() * PIXEL_COST_IN_VOXELS
            };
            (volume.voxel_count() as f32) * per_voxel <= rays * RAY_COST_IN_VOXELS
        });
        Some(Job {
            splat,
            volume,
            limb,
            linear,
            clipped,
            affine,
            ray_dir,
            ndc_to_grid,
            footprint: Footprint {
                rect,
                edges,
                nearest: if behind { 0.0 } else { nearest },
            },
            shade: OnceLock::new(),
            model,
            opts: *opts,
            page_count,
            alpha,
            unit_depth: -view.transform_point3(origin).z,
        })
    };
    let mut jobs: Vec<Job<'a>> = if opts.parallel && limbs.len() >= PARALLEL_PREPARE_LIMBS {
        // Collected by index, then the empty slots squeezed out in place: each thread writes its
        // jobs straight into the one list. (A parallel `filter_map` collect gathers a list per
        // thread and copies them all into a new one: with ~1.4 KB a job, 3 MB copied and its
        // fresh pages faulted in every 1000-unit frame, ~780 page faults; docs/benchmarks.md,
        // issue 43.)
        let slots: Vec<Option<Job<'a>>> = limbs.par_iter().map(build).collect();
        // `filter_map`, not `flatten`: the standard library collects a `filter_map` over a
        // vector's own items into that vector's memory (an `Option<Job>` is a `Job`'s size); the
        // `flatten` form allocated a second list and faulted it in (1 770 faults a frame, measured).
        #[allow(clippy::filter_map_identity)]
        slots
            .into_iter()
            .filter_map(std::convert::identity)
            .collect()
    } else {
        limbs.iter().filter_map(build).collect()
    };
    order_translucent_last(&mut jobs);
    Ok(jobs)
}

/// Opaque jobs first, in scene order; then the translucent ones far to near by their unit's view
/// depth (ties, such as the limbs of one unit, keep scene order). Translucent limbs write no
/// depth, so they must come after everything they may be seen through, and mixing is not
/// commutative, so the farther one mixes first.
fn order_translucent_last(jobs: &mut [Job<'_>]) {
    if jobs.iter().all(|j| j.alpha.is_opaque()) {
        return;
    }
    jobs.sort_by(|a, b| {
        let key = |j: &Job<'_>| (!j.alpha.is_opaque(), -j.unit_depth);
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0).then(if ka.0 {
            ka.1.total_cmp(&kb.1)
        } else {
            std::cmp::Ordering::Equal
        })
    });
}
