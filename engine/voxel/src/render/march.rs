//! The per-pixel loop: for each pixel under a job's outline the camera ray is taken into the limb's
//! grid space and marched through the occupancy with a 3D DDA that skips empty space
//! ([`crate::LimbVolume::march`]), stopping where the depth already in the buffer would reject any
//! hit; the first filled cell is shaded and depth tested against the shared depth buffer, so MDL
//! models drawn by the triangle rasterizer with the same camera mix into the same scene.
//!
//! Rows are split into bands drawn in parallel with rayon; every pixel is computed by the same
//! operations in the same limb order whatever the banding, so 1 and N threads give identical frames.
//! The loop is generic over the pixel type, so each target format gets its own compiled loop with
//! the shading inlined, compiled in this crate (see the sealed pixel trait's `draw_pixels`).

use glam::{Mat4, Vec4};
use modex::{BlendTables, Camera};
use rayon::prelude::*;

use super::job::Job;
use super::occlusion::{Places, Seen, TileDepth};
use super::pixel::Shade;
use super::splat::SplatBand;
use modex_vxl::Vpl;

/// The jobs' rectangles over a band, as a multiple of its area, from which it keeps the places
/// of its tiles' maxima ([`Places`]): the 1000-unit 1080p frame's bands are 7-10 times covered,
/// the 100-unit frame's 0.8, the 13-unit 360x240 frame's 0.2.
const CROWDED: usize = 2;

/// Fewest jobs in a band that may count as crowded ([`CROWDED`]): fewer are not worth summing
/// their rectangles (the 13-unit frame's 28 limbs, the draw cache's recordings of a piece).
const CROWD_JOBS: usize = 64;

/// Rows per parallel band.
const BAND_ROWS: usize = 8;

/// Per-pixel inputs shared by all jobs: NDC of pixel centres and the view-depth mapping.
pub(crate) struct Screen {
    width: usize,
    height: usize,
    /// NDC to view-space homogeneous (for depth on hit).
    ndc_to_view: Mat4,
    /// Skip limbs and rasterised voxels behind the band's max-depth tiles ([`TileDepth`]); off
    /// only to test that the skip changes no pixel.
    pub(crate) coarse_occlusion: bool,
    /// Test the rasterised voxels of limbs mostly behind the tiles a brick of columns at a time
    /// first (`splat::brick`); off only to test that the bricks change no pixel.
    pub(crate) brick_tests: bool,
}

impl Screen {
    /// The screen `camera` draws.
    pub fn new(camera: &Camera) -> Screen {
        Screen {
            width: camera.width,
            height: camera.height,
            ndc_to_view: camera.view() * camera.view_projection().inverse(),
            coarse_occlusion: true,
            brick_tests: true,
        }
    }

    /// Its width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    #[inline]
    fn ndc(&self, x: usize, y: usize) -> (f32, f32) {
        (
            (x as f32 + 0.5) / self.width as f32 * 2.0 - 1.0,
            1.0 - (y as f32 + 0.5) / self.height as f32 * 2.0,
        )
    }

    /// View depth at NDC (x, y) and ray parameter t between the near (t = 0) and far (t = 1) planes.
    #[inline]
    fn depth(&self, nx: f32, ny: f32, t: f32) -> f32 {
        let (za, zb) = self.depth_ends(nx, ny);
        za + t * (zb - za)
    }

    /// View depth at NDC (x, y) on the near and the far plane.
    #[inline]
    fn depth_ends(&self, nx: f32, ny: f32) -> (f32, f32) {
        let a = self.ndc_to_view * Vec4::new(nx, ny, 0.0, 1.0);
        let b = self.ndc_to_view * Vec4::new(nx, ny, 1.0, 1.0);
        (-a.z / a.w, -b.z / b.w)
    }

    /// The ray parameter past which every hit at pixel NDC (x, y) fails the depth test against
    /// `depth` (1 when the pixel is empty): rays over pixels already covered by something nearer
    /// stop there instead of marching the rest of the limb.
    ///
    /// A hit at `t` is drawn only if `za + t (zb - za) < depth`, which is increasing in `t`. The
    /// margin, far above the rounding of both sides, keeps this exact: a hit beyond the returned
    /// `t` would have been rejected, and hits before it are found and tested as before.
    #[inline]
    fn t_limit(&self, nx: f32, ny: f32, depth: f32) -> f32 {
        if !depth.is_finite() {
            return 1.0;
        }
        let (za, zb) = self.depth_ends(nx, ny);
        let range = zb - za;
        if range.is_nan() || range <= 0.0 {
            return 1.0;
        }
        let margin = 1e-5 + 1e-5 * (za.abs() + zb.abs() + depth.abs()) / range;
        let t = (depth - za) / range + margin;
        if t.is_nan() {
            1.0
        } else {
            t.min(1.0)
        }
    }
}

/// What every band of a draw reads besides its jobs: the screen's per-pixel mapping, the
/// lighting pages, and the 8-bit translucency tables of their palette.
#[derive(Clone, Copy)]
pub(crate) struct DrawContext<'d> {
    pub screen: &'d Screen,
    pub vpl: &'d Vpl,
    pub tables: &'d BlendTables,
}

/// March every job over all rows of `pixels` and `depth` (both the screen's width wide), in bands
/// on the current rayon pool when `parallel`. Returns the number of rays cast.
pub(crate) fn march_bands<P: Shade>(
    ctx: &DrawContext<'_>,
    jobs: &[Job<'_>],
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
) -> usize {
    march_bands_sharing(ctx, jobs, pixels, depth, parallel, SHARE_ABOVE_NS)
}

/// [`march_bands`], sharing a parallel draw among the pool's threads only when its estimated
/// work is at least `share_above_ns` (tests force the bands on small scenes with 0).
fn march_bands_sharing<P: Shade>(
    ctx: &DrawContext<'_>,
    jobs: &[Job<'_>],
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
    share_above_ns: f32,
) -> usize {
    let screen = ctx.screen;
    // A draw too small to share runs as one band on the calling thread, never touching the pool.
    let parallel = parallel && estimated_work_ns(jobs) >= share_above_ns;
    let height = screen.height.max(1);
    let bands = if parallel {
        height.div_ceil(band_rows(jobs, height, rayon::current_num_threads()))
    } else {
        1
    };
    let starts = work_band_starts(jobs, (screen.width, height), bands);
    over_band_starts(
        screen.width,
        pixels,
        depth,
        parallel,
        &starts,
        |y0, p, d| march_band(screen, jobs, ctx.vpl, ctx.tables, y0, p, d),
    )
}

/// The first rows of `bands` bands over `height` rows (with `height` itself last) that share
/// the estimated work of `jobs` ([`estimated_work_ns`], each job's spread over the rows of its
/// rectangle, more on its upper rows: [`TOP_WEIGHT`]) equally, as near as whole rows allow;
/// equal heights when there is none.
///
/// Why: bands of equal height are not equal work. In the 1000-unit battlefield at 1920x1080 the
/// units crowd the rows around the horizon: of two equal bands the upper one took 58 % of the
/// units' CPU time (44.4 against 32.0 ms a frame, per-thread CPU clocks in a copy), and the
/// other thread waited for it at the end of every frame. The estimate puts the halfway row
/// within a few rows of the measured one (row 512 against about 510 of 1080), while more bands
/// of equal height cost a walk of their limbs each and still end unevenly
/// (docs/benchmarks.md, "Issue 43": "How the two threads share the frame").
fn work_band_starts(jobs: &[Job<'_>], (width, height): (usize, usize), bands: usize) -> Vec<usize> {
    let height = height.max(1);
    let bands = bands.clamp(1, height);
    let even = || (0..=bands).map(|b| b * height / bands).collect::<Vec<_>>();
    if bands == 1 {
        return even();
    }
    // Work per row, `a + b y` for row `y`, as difference arrays of each job's ramp over its
    // rectangle ([`TOP_WEIGHT`]).
    let k = top_weight(jobs, (width, height));
    let (mut da, mut db) = (vec![0f64; height + 1], vec![0f64; height + 1]);
    for job in jobs {
        let [_, top, _, bottom] = job.footprint.rect;
        let bottom = bottom.min(height);
        if top >= bottom {
            continue;
        }
        let n = (bottom - top) as f64;
        let r = estimated_work_ns(std::slice::from_ref(job)) as f64 / n;
        // r (1 + k (1 - 2 (y + 0.5 - top) / n)): mean r over the rows, 1 + k times it at the top.
        let b = -2.0 * k * r / n;
        let a = r * (1.0 + k) + b * (0.5 - top as f64);
        da[top] += a;
        da[bottom] -= a;
        db[top] += b;
        db[bottom] -= b;
    }
    let mut row_work = Vec::with_capacity(height);
    let (mut a, mut b) = (0f64, 0f64);
    for (y, (da, db)) in da[..height].iter().zip(&db[..height]).enumerate() {
        a += da;
        b += db;
        row_work.push((a + b * y as f64).max(0.0));
    }
    let total: f64 = row_work.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return even();
    }
    let mut starts = vec![0];
    let mut done = 0f64;
    for (y, w) in row_work.iter().enumerate() {
        let next = starts.len();
        // A band ends after the row that brings the work done to its share, leaving at least
        // one row for each band still to come.
        if next < bands && done + w >= total * next as f64 / bands as f64 && y + 1 < height {
            let rows_left = height - (y + 1);
            if rows_left >= bands - next && y + 1 > *starts.last().unwrap_or(&0) {
                starts.push(y + 1);
            }
        }
        done += w;
    }
    // Rows the loop could not cut (all the work in the last rows) go to equal bands' starts.
    while starts.len() < bands {
        let last = *starts.last().unwrap_or(&0);
        starts.push(last + (height - last) / 2);
    }
    starts.push(height);
    starts.dedup();
    starts
}

/// How much more of a job's estimated work [`work_band_starts`] puts on its rectangle's top row
/// than on average in a crowd (and as much less on its bottom row), falling linearly down the
/// rectangle: all of it, so twice the average at the top and none at the bottom.
///
/// Why: units are drawn nearest first, and in a crowd a limb is hidden by the nearer units
/// below it on screen, from its bottom up; what it draws (faces, ~500 instructions a voxel)
/// lies in its upper rows, what is tested and rejected (~130) in its lower ones. Spread evenly,
/// the 1000-unit 1080p perspective frame was cut at row 515 of 1080 and the upper band took
/// 212.1 M instructions against 192.2 M; with the ramp the two take 203.2 and 202.5 M
/// (docs/benchmarks.md, issue 43, "Levers 30-"). Where units seldom overlap (the 100-unit
/// 1080p frame) the ramp made the split worse (30.3 / 33.1 M against 32.1 / 31.2 M): only a
/// crowd gets it ([`top_weight`]).
const TOP_WEIGHT: f64 = 1.0;

/// The ramp of [`work_band_starts`] for `jobs` on a `width` x `height` screen: [`TOP_WEIGHT`]
/// when their rectangles cover the screen [`CROWDED`] times or more, else 0 (spread evenly).
fn top_weight(jobs: &[Job<'_>], (width, height): (usize, usize)) -> f64 {
    if rects_area(jobs, 0..height) >= CROWDED * width * height {
        TOP_WEIGHT
    } else {
        0.0
    }
}

/// The jobs' rectangles' pixels within rows `ys`, summed: [`CROWDED`] times the rows' area or
/// more is a crowd, for the frame's band cut ([`top_weight`]) and for a band's tiles
/// ([`march_band`]). A rectangle never reaches past the screen (`job::prepare` clamps it).
fn rects_area(jobs: &[Job<'_>], ys: std::ops::Range<usize>) -> usize {
    jobs.iter()
        .map(|j| {
            let [x0, top, x1, bottom] = j.footprint.rect;
            x1.saturating_sub(x0) * bottom.min(ys.end).saturating_sub(top.max(ys.start))
        })
        .sum()
}

/// What one band costs beside its share of the work, per surface column of every splatted limb
/// it touches (each band walks the columns again, and faces across its edges are set up twice),
/// in nanoseconds: hmec at 128x128 on one thread, 13 splatted limbs with 1 714 surface columns,
/// took 31 us more per extra band (1 to 16 bands, load 5.8; docs/benchmarks-history.md, "Round 7").
const BAND_NS_PER_SPLAT_COLUMN: f32 = 18.0;

/// A splatted limb's work per surface voxel, and a marched ray's, in nanoseconds: hmec at 128x128
/// in one band, 0.24 ms for 6 530 surface voxels (load 2-3); 150 ns per ray (round 5).
const SPLAT_NS_PER_VOXEL: f32 = 37.0;
const MARCH_NS_PER_RAY: f32 = 150.0;

/// The estimated one-thread cost of drawing `jobs`, in nanoseconds: [`SPLAT_NS_PER_VOXEL`] per
/// surface voxel of a splatted job, [`MARCH_NS_PER_RAY`] per pixel of a marched job's rectangle.
fn estimated_work_ns(jobs: &[Job<'_>]) -> f32 {
    jobs.iter()
        .map(|job| {
            let rows = job.footprint.rect[3].saturating_sub(job.footprint.rect[1]);
            if job.splat.is_some() {
                job.volume.surface_size().1 as f32 * SPLAT_NS_PER_VOXEL
            } else {
                (rows * job.footprint.rect[2].saturating_sub(job.footprint.rect[0])) as f32
                    * MARCH_NS_PER_RAY
            }
        })
        .sum()
}

/// Least estimated work ([`estimated_work_ns`]) a parallel draw shares among the pool's threads;
/// below it the draw is one band on the calling thread. Why: waking a sleeping worker and
/// joining it costs more than half of a small draw (a single hmec at 128x128, estimated 0.24 ms:
/// 0.29-0.30 ms on two threads against 0.19 ms on one, futex wake-ups 20 % of the samples;
/// docs/benchmarks-history.md, "Round 9: hmec128"), while the 100-unit scene (estimated 12 ms) gains
/// from the second core.
const SHARE_ABOVE_NS: f32 = 500_000.0;

/// At most this share of a draw's work may go to the bands' own cost: more bands than threads
/// only balance the load, so they must come cheap.
const BAND_COST_SHARE: f32 = 0.125;

/// Rows per band for a draw of `jobs` on `threads` threads, `height` rows in all: one band on
/// one thread; otherwise one band per thread at least (a small frame still uses every core), and
/// up to four per thread while the walks that bands beyond the first add stay below
/// [`BAND_COST_SHARE`] of the estimated work. Why: a single hmec at 128x128 is a 0.25 ms frame,
/// and eight bands of it were 0.43 ms on two threads against 0.29 ms in two (load 6.3); a frame
/// of marched rays has next to no cost per band and wants the load balance. The count changes
/// no pixel (each pixel sees the jobs in order).
fn band_rows(jobs: &[Job<'_>], height: usize, threads: usize) -> usize {
    let height = height.max(1);
    if threads <= 1 {
        // Bands on one thread run one after another: they could only add their cost.
        return height;
    }
    let work = estimated_work_ns(jobs);
    // (rows, surface columns) of each splatted job.
    let splats: Vec<(usize, f32)> = jobs
        .iter()
        .filter(|job| job.splat.is_some())
        .map(|job| {
            let rows = job.footprint.rect[3].saturating_sub(job.footprint.rect[1]);
            (rows, job.volume.surface_size().0 as f32)
        })
        .collect();
    // A job `h` rows tall meets at most `h / rows + 1` bands of `rows` rows (and no more than
    // there are): the walks beyond its first are the cost of banding.
    let extra_cost = |bands: usize| -> f32 {
        let rows = height.div_ceil(bands);
        splats
            .iter()
            .map(|&(h, columns)| {
                let met = (h.div_ceil(rows) + 1).min(bands);
                (met - 1) as f32 * columns * BAND_NS_PER_SPLAT_COLUMN
            })
            .sum()
    };
    let most = (4 * threads).min(height.div_ceil(BAND_ROWS)).max(threads);
    let bands = (threads + 1..=most)
        .take_while(|&n| extra_cost(n) <= work * BAND_COST_SHARE)
        .last()
        .unwrap_or(threads);
    height.div_ceil(bands.min(height)).max(1)
}

/// Run `draw(first_row, pixels, depth)` over row bands of `pixels` and `depth` (both `width`
/// wide), on the current rayon pool when `parallel`, and sum what it returns (rays cast). The
/// direct draw and the draw cache share it, so both band the frame alike.
pub(crate) fn over_bands<P: Shade>(
    width: usize,
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
    draw: impl Fn(usize, &mut [P], &mut [f32]) -> usize + Sync + Send,
) -> usize {
    // Any banding gives the same pixels (each pixel sees the draws in order); the bands only trade
    // load balance against splatted limbs being walked once per band they touch. One thread takes
    // the frame as one band; N threads get about four bands each, at least BAND_ROWS rows.
    let height = pixels.len() / width.max(1);
    let rows = if parallel {
        let bands = 4 * rayon::current_num_threads().max(1);
        height.div_ceil(bands).max(BAND_ROWS)
    } else {
        height.max(1)
    };
    let starts: Vec<usize> = (0..height.max(1))
        .step_by(rows)
        .chain([height.max(1)])
        .collect();
    over_band_starts(width, pixels, depth, parallel, &starts, draw)
}

/// [`over_bands`] with the bands that start at the rows of `starts` (increasing, the last entry
/// the end of the last band).
fn over_band_starts<P: Shade>(
    width: usize,
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
    starts: &[usize],
    draw: impl Fn(usize, &mut [P], &mut [f32]) -> usize + Sync + Send,
) -> usize {
    let width = width.max(1);
    let mut bands = Vec::with_capacity(starts.len());
    let (mut p, mut d) = (pixels, depth);
    for pair in starts.windows(2) {
        let n = (pair[1].saturating_sub(pair[0]) * width)
            .min(p.len())
            .min(d.len());
        if n == 0 {
            continue;
        }
        let (band_p, rest_p) = p.split_at_mut(n);
        let (band_d, rest_d) = d.split_at_mut(n);
        bands.push((pair[0], band_p, band_d));
        (p, d) = (rest_p, rest_d);
    }
    let each = |(y0, p, d): (usize, &mut [P], &mut [f32])| draw(y0, p, d);
    if parallel {
        bands.into_par_iter().map(each).sum()
    } else {
        bands.into_iter().map(each).sum()
    }
}

/// March one band of rows `y0..` (the screen's width wide) for every job, shading each pixel
/// whose hit passes the depth test. (The draw cache records a piece's sprite through it, over
/// just the piece's rows.)
///
/// What the pixel loop reads through a reference (the screen, the lighting pages, the tables,
/// the jobs) and the band's pixels and depths are arguments of their own, here and in the
/// splat's kernels, not fields of a [`DrawContext`] or a struct of the band: the compiler
/// knows that memory behind one reference argument is not written through another, but not
/// for references read out of a struct, and reloads them after every depth write (3 % more
/// instructions per marched hmec frame when this took a `DrawContext`; measured).
pub(crate) fn march_band<P: Shade>(
    screen: &Screen,
    jobs: &[Job<'_>],
    vpl: &Vpl,
    tables: &BlendTables,
    y0: usize,
    pixels: &mut [P],
    depth: &mut [f32],
) -> usize {
    let rows = pixels.len() / screen.width.max(1);
    let y1 = y0 + rows;
    let mut rays = 0;
    let mut tiles = TileDepth::for_band(screen.width, y0, rows, screen.coarse_occlusion);
    // A crowded band (the jobs' rectangles over it, as a multiple of its area: how often its
    // tiles will be drawn over and refreshed) keeps the places of its tiles' maxima. Pixels
    // never depend on it (a place only spares a recompute that would give the same maximum).
    let mut places = Places::default();
    if let Some(t) = tiles.as_ref().filter(|_| jobs.len() >= CROWD_JOBS) {
        if rects_area(jobs, y0..y1) >= CROWDED * rows * screen.width {
            places = Places::of(t);
        }
    }
    for job in jobs {
        let ys = job.footprint.rect[1].max(y0)..job.footprint.rect[3].min(y1);
        if ys.is_empty() {
            continue;
        }
        let seen = tiles.as_mut().map_or(Seen::Whole, |t| {
            if places.is_empty() {
                t.hides_footprint(&job.footprint, depth)
            } else {
                t.hides_footprint_at(&job.footprint, depth, &mut places)
            }
        });
        // The pixel-exact test of the whole outline (`Footprint::hidden`) only without tiles
        // or for a marched limb (whose rays cost far more than the test): a splatted limb the
        // tiles did not hide was seldom hidden, and the test's walk to the first pixel that can
        // show it cost more than drawing the few hidden ones (1000-unit 1080p frame: 8.9 M
        // instructions for 5 M saved in the draws; lever 8 in docs/benchmarks.md). A hidden
        // limb drawn changes no pixel: each of its pixels holds a nearer depth.
        let test_pixels = tiles.is_none() || job.splat.is_none();
        if seen == Seen::Hidden || (test_pixels && job.footprint.hidden(depth, screen.width, y0)) {
            continue;
        }
        // The job's tiles were refreshed by `hides_footprint`: its rasterised voxels test against
        // them, and they are stale once it has drawn.
        if let Some(splat) = &job.splat {
            let t = tiles
                .as_ref()
                .filter(|_| matches!(seen, Seen::Partly | Seen::Mostly));
            let band = SplatBand {
                width: screen.width,
                y0,
                tiles: t,
                bricks: seen == Seen::Mostly && screen.brick_tests,
            };
            splat.draw_band(job.volume, job.shade(), vpl, band, pixels, depth);
            if let Some(t) = &mut tiles {
                t.touched_by_asked(&job.footprint);
            }
            continue;
        }
        if let Some(t) = &mut tiles {
            t.touched_by_asked(&job.footprint);
        }
        // Translucent limbs mix over the frame and leave the depth as it was.
        let mixer = (!job.alpha.is_opaque()).then(|| P::mixer(tables, job.alpha));
        let shade = job.shade();
        for y in ys {
            let (x0, x1) = job.footprint.row_span(y);
            for x in x0..x1 {
                rays += 1;
                let i = (y - y0) * screen.width + x;
                let (nx, ny) = screen.ndc(x, y);
                let t_max = screen.t_limit(nx, ny, depth[i]);
                let hit = match &job.affine {
                    Some([o, dx, dy, _]) => {
                        let origin = *o + *dx * x as f32 + *dy * y as f32;
                        job.volume.march_dir(origin, &job.ray_dir, 0.0, t_max)
                    }
                    None => {
                        let a = job.ndc_to_grid * Vec4::new(nx, ny, 0.0, 1.0);
                        let b = job.ndc_to_grid * Vec4::new(nx, ny, 1.0, 1.0);
                        if a.w == 0.0 || b.w == 0.0 {
                            continue;
                        }
                        let (oa, ob) = (a.truncate() / a.w, b.truncate() / b.w);
                        job.volume.march(oa, ob - oa, 0.0, t_max)
                    }
                };
                let Some(hit) = hit else {
                    continue;
                };
                let z = screen.depth(nx, ny, hit.t);
                if z < depth[i] {
                    let lit = P::shade(vpl, shade, hit.colour, hit.normal);
                    match &mixer {
                        None => {
                            depth[i] = z;
                            pixels[i] = lit;
                        }
                        Some(m) => pixels[i] = P::mix(lit, pixels[i], m),
                    }
                }
            }
        }
    }
    rays
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{frame_scene, game_camera, Instance, Pose, RenderOptions, Unit};
    use crate::{Splatting, VoxelModel};
    use glam::Vec3;
    use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
    use modex_vxl::{hva, vxl};

    /// Shading tables are built on first draw (`Job::shade`): on a crowded battlefield some
    /// limbs are hidden in every band and never get one, and the frame is the one drawn with
    /// every table built beforehand.
    #[test]
    fn hidden_limbs_build_no_shading_table() {
        use super::super::occlusion::tests::{crowd, load};
        let sets = [load("tank", true), load("apc", false), load("heli", false)];
        let vpl = Vpl::from_palette(&modex::Palette::quake(), 32);
        let cam = Camera::orbit(Vec3::ZERO, 340.0, 0.6, 0.62, 50f32.to_radians(), 480, 270);
        let scene = crowd(&sets, 600, 200.0, cam.eye);
        let opts = RenderOptions {
            sun: Some(Vec3::new(0.4, 0.3, 0.8)),
            parallel: false,
            ..RenderOptions::default()
        };
        let tables = modex::BlendTables::new(&vpl.palette);
        let screen = Screen::new(&cam);
        let ctx = DrawContext {
            screen: &screen,
            vpl: &vpl,
            tables: &tables,
        };
        let draw = |eager: bool| {
            let jobs = super::super::job::prepare(&scene, &cam, &opts, 32).unwrap();
            if eager {
                jobs.iter().for_each(|j| {
                    j.shade();
                });
            }
            let (mut p, mut d) = (vec![0u8; 480 * 270], vec![f32::INFINITY; 480 * 270]);
            march_bands(&ctx, &jobs, &mut p, &mut d, false);
            let unbuilt = jobs.iter().filter(|j| j.shade.get().is_none()).count();
            (
                p,
                d.iter().map(|d| d.to_bits()).collect::<Vec<_>>(),
                unbuilt,
                jobs.len(),
            )
        };
        let (lazy, eager) = (draw(false), draw(true));
        assert_eq!(eager.2, 0);
        assert!(lazy.2 > 0, "{} of {} limbs without a table", lazy.2, lazy.3);
        assert!(lazy.0 == eager.0 && lazy.1 == eager.1, "frames differ");
        assert!(lazy.0.iter().filter(|&&p| p != 0).count() > 480 * 270 / 4);
    }

    /// Bands cut where the estimated work is shared equally: on a crowd seen from above at an
    /// angle, in the lower part of the frame, the bands' estimates differ by at most two of the
    /// busiest row's, the starts rise from 0 to the height, and the frame drawn in them on two
    /// threads is the one-band frame.
    #[test]
    fn bands_share_the_estimated_work() {
        use super::super::occlusion::tests::{crowd, load};
        let sets = [load("tank", true), load("apc", false), load("heli", false)];
        let vpl = Vpl::from_palette(&modex::Palette::quake(), 32);
        let target = Vec3::new(0.0, 0.0, 80.0);
        let cam = Camera::orbit(target, 340.0, 0.6, 0.62, 50f32.to_radians(), 480, 270);
        let scene = crowd(&sets, 400, 200.0, cam.eye);
        let opts = RenderOptions {
            sun: Some(Vec3::new(0.4, 0.3, 0.8)),
            ..RenderOptions::default()
        };
        let jobs = super::super::job::prepare(&scene, &cam, &opts, 32).unwrap();
        // Each job's estimate spread over its rows as `work_band_starts` spreads it (falling
        // down its rectangle in a crowd), summed over rows a..b.
        let k = top_weight(&jobs, (480, 270));
        let work = |a: usize, b: usize| -> f64 {
            jobs.iter()
                .map(|j| {
                    let [_, top, _, bottom] = j.footprint.rect;
                    let bottom = bottom.min(270);
                    if top >= bottom {
                        return 0.0;
                    }
                    let n = (bottom - top) as f64;
                    let r = estimated_work_ns(std::slice::from_ref(j)) as f64 / n;
                    (a.max(top)..b.min(bottom))
                        .map(|y| {
                            let down = (y as f64 + 0.5 - top as f64) / n;
                            r * (1.0 + k * (1.0 - 2.0 * down))
                        })
                        .sum::<f64>()
                })
                .sum()
        };
        let busiest_row = (0..270).map(|y| work(y, y + 1)).fold(0.0, f64::max);
        for bands in [2, 3, 5] {
            let starts = work_band_starts(&jobs, (480, 270), bands);
            assert_eq!(starts.len(), bands + 1, "{starts:?}");
            assert!(starts[0] == 0 && starts[bands] == 270, "{starts:?}");
            assert!(starts.windows(2).all(|p| p[0] < p[1]), "{starts:?}");
            let each: Vec<f64> = starts.windows(2).map(|p| work(p[0], p[1])).collect();
            let (lo, hi) = each
                .iter()
                .fold((f64::MAX, 0f64), |(l, h), &w| (l.min(w), h.max(w)));
            assert!(hi - lo <= 2.0 * busiest_row, "{bands} bands: {each:?}");
        }
        // The even split would not do: the crowd is not centred on the frame's rows.
        let half = work(0, 135) / work(0, 270);
        assert!(!(0.45..0.55).contains(&half), "upper half holds {half}");
        let tables = modex::BlendTables::new(&vpl.palette);
        let screen = Screen::new(&cam);
        let ctx = DrawContext {
            screen: &screen,
            vpl: &vpl,
            tables: &tables,
        };
        let draw = |parallel: bool| {
            let (mut p, mut d) = (vec![0u8; 480 * 270], vec![f32::INFINITY; 480 * 270]);
            modex::with_threads(2, || {
                march_bands_sharing(&ctx, &jobs, &mut p, &mut d, parallel, 0.0)
            })
            .unwrap();
            (p, d.iter().map(|d| d.to_bits()).collect::<Vec<_>>())
        };
        let (one, banded) = (draw(false), draw(true));
        assert!(one.0.iter().filter(|&&p| p != 0).count() > 480 * 270 / 8);
        assert!(one == banded, "frames differ");
    }

    /// Without jobs the bands are of equal height.
    #[test]
    fn bands_without_work_are_even() {
        assert_eq!(work_band_starts(&[], (8, 128), 4), vec![0, 32, 64, 96, 128]);
        assert_eq!(work_band_starts(&[], (8, 128), 1), vec![0, 128]);
        assert_eq!(work_band_starts(&[], (8, 3), 7), vec![0, 1, 2, 3]);
    }

    /// A frame of marched rays (or nothing) has no cost per band: four bands per thread when
    /// there are several.
    #[test]
    fn bands_without_splats_are_four_per_thread() {
        assert_eq!(band_rows(&[], 128, 1), 128);
        assert_eq!(band_rows(&[], 128, 2), 16);
        // Never thinner than BAND_ROWS, never more bands than rows.
        assert_eq!(band_rows(&[], 40, 2), 8);
        assert_eq!(band_rows(&[], 1, 7), 1);
    }

    /// One splatted unit filling a small frame: its limbs' walks would cost more than they
    /// balance, so it gets one band per thread and no more.
    #[test]
    fn a_small_splatted_frame_gets_one_band_per_thread() {
        let spec = VxlSpec {
            limbs: vec![LimbSpec::filled_box([24, 24, 24], 144, 5)],
            ..VxlSpec::default()
        };
        let v = vxl::decode(&spec.encode()).unwrap();
        let h = hva::decode(&HvaSpec::identity(1, 1).encode()).unwrap();
        let model = VoxelModel::new("box", v, Some(h)).unwrap();
        let instances = [Instance {
            unit: Unit::single(&model),
            pose: Pose::default(),
        }];
        let camera = frame_scene(&instances, &game_camera(Vec3::ZERO, 100.0, 128, 128)).unwrap();
        let opts = RenderOptions {
            splat: Splatting::Always,
            ..RenderOptions::default()
        };
        let jobs = super::super::job::prepare(&instances, &camera, &opts, 32).unwrap();
        assert!(jobs.iter().all(|j| j.splat.is_some()), "the box splats");
        assert_eq!(band_rows(&jobs, 128, 2), 64);
        assert_eq!(band_rows(&jobs, 128, 1), 128);
        // Too small to share: a parallel draw of it stays on the calling thread.
        assert!(estimated_work_ns(&jobs) < SHARE_ABOVE_NS);
        // Drawn in bands anyway (the threshold forced to 0), on a two-thread pool, it gives the
        // frame and depth of the one-band draw.
        let vpl = Vpl::from_palette(&modex::Palette::grey_ramp(), 32);
        let tables = modex::BlendTables::new(&vpl.palette);
        let screen = Screen::new(&camera);
        let ctx = DrawContext {
            screen: &screen,
            vpl: &vpl,
            tables: &tables,
        };
        let draw = |share_above_ns: f32| {
            let (mut p, mut d) = (vec![0u8; 128 * 128], vec![f32::INFINITY; 128 * 128]);
            let rays = modex::with_threads(2, || {
                march_bands_sharing(&ctx, &jobs, &mut p, &mut d, true, share_above_ns)
            })
            .unwrap();
            (p, d, rays)
        };
        let (alone, banded) = (draw(SHARE_ABOVE_NS), draw(0.0));
        assert!(alone.0.iter().filter(|&&p| p != 0).count() > 500);
        assert!(alone.0 == banded.0 && alone.1 == banded.1 && alone.2 == banded.2);
    }
}
