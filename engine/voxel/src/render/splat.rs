//! Splatting: a limb whose voxels each cover at most
//! [`SPLAT_FOOTPRINT_MAX`](super::SPLAT_FOOTPRINT_MAX) pixels on screen is drawn by projecting its
//! voxels instead of being ray-marched.
//!
//! Why: the ray-marcher spends a ray (set-up, clip, DDA) per pixel of the limb's outline, several
//! per covered pixel, to find what projecting each visible voxel finds in a few multiply-adds;
//! with many units on a large screen the rays are the whole frame. The switch is per limb and per
//! draw, from the limb's own scale on screen ([`Splat::new`]); by default a limb splats only when
//! that is also cheaper ([`Splatting::WhenCheaper`](super::Splatting)): far below a pixel per
//! cell a pixel holds many voxels, and marching it is cheaper again.
//!
//! Up to [`SPLAT_FOOTPRINT`] (one pixel per cell, measured at the box
//! corner where a cell is largest) each voxel is one pixel: the one containing its projected
//! centre, drawn if that pixel's centre lies inside the cube's outline, at the centre's view depth;
//! neighbouring voxels of a surface land on the same or neighbouring pixels, so there are no
//! holes. Above it each visible face of each voxel is rasterised ([`Multi`]), covering the pixels
//! the marcher's rays would, at the depth where they enter the cube. Colours are the marcher's
//! ([`Shade::shade`] with the limb's table), so lighting and formats are exactly the marcher's.
//!
//! Determinism: a splat writes each voxel into the band holding its pixel, in the limb's column
//! order, at the limb's place in the job order, so every pixel sees the same writes in the same
//! order whatever the banding and the thread count (the crate's 1-and-N-threads rule).

mod band;
mod brick;
mod fill;
mod pairs;

/// One CVTTSS2SI for a float known to be in `i32`'s range (the voxel tests' pixel bounds too).
use super::convert::truncate;
use band::FaceBand;
use brick::BrickMemo;
use fill::{FaceFill, WithFill};
use glam::{Mat4, Vec3, Vec4, Vec4Swizzles};

use super::pixel::Shade;
use crate::volume::{LimbVolume, SurfaceVoxel};
use modex_vxl::Vpl;

use super::camera::ViewMatrices;
use super::light::LimbShade;
use super::occlusion::TileDepth;
use super::SPLAT_FOOTPRINT;

/// The band a splat draws into, besides its pixels and depths: the frame's width, the band's
/// first row, and its coarse occlusion tiles when the limb's rasterised voxels are to be tested
/// against them. (What the voxel loops read through references, the pixels and the depths stay
/// arguments of their own: see `march::march_band`.)
#[derive(Clone, Copy)]
pub(crate) struct SplatBand<'t> {
    pub width: usize,
    pub y0: usize,
    pub tiles: Option<&'t TileDepth>,
    /// Whether the tested voxels are first tested a brick of columns at a time ([`brick`]):
    /// for a limb at least half of whose tiles are nearer than all of it.
    pub bricks: bool,
}

/// How a splatted limb's cells land on screen.
pub(crate) struct Splat {
    /// Grid-space homogeneous point to `(x * w, y * w, depth, w)`: screen pixel coordinates times
    /// the clip w, view depth, clip w. All four are affine in the grid point.
    to_screen: Mat4,
    /// Orthographic camera: w is 1 everywhere, no division per voxel.
    affine: bool,
    /// The outline of one cell on screen, as three edge normals (one per pair of parallel edges of
    /// the projected cube, a hexagon) and how far along each the outline reaches from the cell's
    /// centre. A voxel is drawn only when its pixel's centre lies inside its cube's outline, the
    /// test the marcher's ray through that centre makes, so splats add no pixels the marcher would
    /// leave empty along a silhouette.
    outline: [[f32; 3]; 3],
    /// The cell faces that look at the camera (bits as [`LimbVolume`]'s open faces), all six for
    /// perspective cameras, whose view direction changes across the limb.
    facing: u8,
    /// Whether a cell covers at most [`SPLAT_FOOTPRINT`] pixels everywhere in the box: then each
    /// voxel is one pixel ([`Splat::draw_band`]); otherwise it is rasterised ([`Multi`]).
    single: bool,
    /// How a cell covering several pixels is rasterised.
    multi: Multi,
    /// The least and greatest screen y of the box's corners: every cell centre projects
    /// between them (a point of the box is a convex mix of its corners, all in front of the eye,
    /// and screen y is a ratio of affine functions with positive denominator, so monotonic along
    /// every segment). A band that holds this range with a pixel to spare holds every column's
    /// ends too, and the draw skips its per-column band test ([`Splat::draw_multi`]).
    screen_rows: [f32; 2],
}

/// A cell larger than a pixel on screen, rasterised face by face: each open face of a voxel that
/// looks at the camera is a parallelogram on screen, and every pixel whose centre lies inside it is
/// drawn at the depth of the face's plane there. The front faces of a cube are its outline, so a
/// splatted limb covers the pixels the marcher would, and a face is where the ray through a pixel
/// enters its cube, so the nearest face along each ray wins the depth test, as the marcher's
/// first hit does. Faces hidden by a filled neighbour are never drawn, so each visible pixel of a
/// surface is tested about once per face over it, not once per cube whose outline covers it.
///
/// Orthographic cameras map the grid to the screen affinely, so one [`FaceRaster`] per axis serves
/// every face of the limb and is exact. Perspective cameras see each face from its own
/// direction: whether it looks at the eye is decided per face from the eye's grid position, and
/// its parallelogram is the projection's first-order expansion at the face's centre.
#[derive(Debug, Clone, Copy)]
struct Multi {
    /// Orthographic cameras: the faces across each grid axis.
    faces: [FaceRaster; 3],
    /// Half the largest width or height of a cell anywhere in the box, in pixels: how far a
    /// cell's pixels reach from its centre's row.
    max_reach: f32,
    /// Half the width and height of one cell's outline at the box's centre (the cost estimate).
    reach: [f32; 2],
    /// The eye in grid space (perspective cameras).
    eye: Vec3,
    /// Open faces that some cell of the box may show the camera: for orthographic cameras exactly
    /// the faces looking at it, for perspective ones the faces towards the eye's side of each slab
    /// (each face is then tested against the eye itself).
    facing: u8,
    /// Perspective cameras: the bits of `facing` whose faces may still look away from the eye
    /// in some cell of the box, the only ones a voxel tests against the eye. Where the eye lies
    /// beyond the box across an axis (every axis of a limb seen from afar), every face of that
    /// axis that `facing` keeps looks at it, and the test, the same for every cell, is skipped
    /// (docs/benchmarks.md, issue 43, lever 46).
    unsure: u8,
}

/// How a face across grid axis `a` covers the pixels around its projected centre: offset `q` is
/// `s e1 + t e2` along the screen edges of the other two axes, inside when `|s|, |t| <= 1/2`, at
/// depth `centre + s dz1 + t dz2`.
///
/// Everything a row of the face needs that does not depend on where the face is is worked out
/// here: in orthographic views once per axis and draw, for all the limb's faces across that axis
/// (two divisions and a dozen products per face saved; with faces 1-3 rows tall that set-up was
/// most of a face's cost).
#[derive(Debug, Clone, Copy, Default)]
struct FaceRaster {
    /// `1 / (e1 x e2)`; 0 for a face seen edge-on (drawn by its neighbours).
    inv_det: f32,
    /// Half the width and height of the parallelogram's bounding box.
    reach: [f32; 2],
    /// Each row of the face is the intersection of two intervals of the x offset `qx` from its
    /// centre, one per face coordinate (`|s|, |t| <= FACE_LIMIT`): centred at `k qy` (`qy` the
    /// row's y offset), `w` either side of it. A coordinate that does not change along a row
    /// (its screen edge is horizontal) is `flat`: then the whole row is in when `|b qy| <=
    /// FACE_LIMIT`, else none of it.
    k: [f32; 2],
    w: [f32; 2],
    /// Face coordinates from the offset `q`: `s = a[0] qx + b[0] qy`, `t = a[1] qx + b[1] qy`.
    a: [f32; 2],
    b: [f32; 2],
    flat: [bool; 2],
    /// Width and height in pixels of a box that holds every pixel the face can cover wherever it
    /// lies, when it has at most [`STAMP_PIXELS`] pixels: then a face tests every pixel of that
    /// box without a branch (`Splat::draw_multi`) instead of scanning its rows.
    stamp: Option<(usize, usize)>,
    /// Depth change per pixel across and down the screen.
    gx: f32,
    gy: f32,
}

/// Largest box of pixels a face is stamped over (see `FaceRaster::stamp`): about the box of a
/// face of a cell 3 pixels wide; larger faces scan their rows, where the box would test many
/// pixels outside the face.
const STAMP_PIXELS: usize = 12;

/// Widest stamp: one SSE2 vector of depths.
const STAMP_WIDTH: usize = 4;

/// Lane offsets of a stamp's row.
const LANES: Vec4 = Vec4::new(0.0, 1.0, 2.0, 3.0);

/// How far outside a face a pixel centre may fall in face coordinates and still count: far above
/// rounding, far below a pixel, so a pixel centre on the edge two faces share is drawn by both.
const FACE_LIMIT: f32 = 0.5 * (1.0 + 1e-4) + 1e-6;

impl FaceRaster {
    /// The face spanned by screen edges `e1`, `e2` (pixels per cell step along its two axes)
    /// whose depth changes by `dz` per step along them.
    #[inline(always)]
    fn new(e1: [f32; 2], e2: [f32; 2], dz: [f32; 2]) -> FaceRaster {
        FaceRaster::from_edges(Vec4::new(e1[0], e1[1], e2[0], e2[1]), dz)
    }

    /// [`FaceRaster::new`] of the edges as one vector `(e1.x, e1.y, e2.x, e2.y)`, worked out in
    /// its lanes.
    ///
    /// Why lanes: a perspective face is set up at its own centre, ~320 k faces a 1000-unit 1080p
    /// frame, and one at a time this set-up was ~70 instructions a face (docs/benchmarks.md,
    /// issue 43, lever 45). Each lane does the scalar form's operations in its order (products,
    /// sums and quotients rounded the same in a lane as alone; a sign flip as a product by -1,
    /// exact), so every value is the same bits (tested against the scalar form below) up to the
    /// sign of a NaN, which no comparison, `abs` or depth write can see.
    #[inline(always)]
    fn from_edges(e: Vec4, dz: [f32; 2]) -> FaceRaster {
        let det = e.x * e.w - e.y * e.z;
        let inv_det = if det.abs() > 1e-9 && det.is_finite() {
            1.0 / det
        } else {
            0.0
        };
        // Lanes 0, 1: |e1.x| + |e2.x|, |e1.y| + |e2.y|.
        let reach = (e.abs() + e.abs().zwxy()) * FACE_LIMIT;
        // Face coordinates from the offset q: s = a_s qx + b_s qy, t = a_t qx + b_t qy, in lanes
        // (a_s, a_t, b_s, b_t) = (e2.y, -e1.y, -e2.x, e1.x) / det.
        let ab = e.wyzx() * Vec4::new(1.0, -1.0, -1.0, 1.0) * inv_det;
        // Depth is linear too: z + s dz1 + t dz2, so gx = a_s dz1 + a_t dz2 (lane 0) and gy =
        // b_s dz1 + b_t dz2 (lane 2).
        let p = ab * Vec4::new(dz[0], dz[1], dz[0], dz[1]);
        let g = p + p.yxwz();
        // Lanes 0, 1: 1 / a and -b / a, the rows' interval centres per unit of qy.
        // A coordinate whose `1 / a` is not finite is `flat`, its `k` and `w` 0: by a select
        // per lane rather than a branch per value.
        let r = Vec4::ONE / ab;
        let finite = r.is_finite_mask();
        let flat = [!finite.test(0), !finite.test(1)];
        let k = Vec4::select(finite, -ab.zwxy() * r, Vec4::ZERO);
        let w = Vec4::select(finite, r.abs() * FACE_LIMIT, Vec4::ZERO);
        // Pixel centres within reach of the centre: at most floor(2 reach) + 1 per axis.
        let [sw, sh] = [reach.x, reach.y].map(stamp_extent);
        let stamp = (sw <= STAMP_WIDTH && sw * sh <= STAMP_PIXELS).then_some((sw, sh));
        FaceRaster {
            inv_det,
            reach: [reach.x, reach.y],
            k: [k.x, k.y],
            w: [w.x, w.y],
            a: [ab.x, ab.y],
            b: [ab.z, ab.w],
            flat,
            stamp,
            gx: g.x,
            gy: g.z,
        }
    }

    /// Call `row(py, x0, x1, z0)` for every row `py` (within `top..=last_y`) with the pixels
    /// `x0..=x1` (within `0..=last_x`) whose centres lie inside the face centred at screen `c`
    /// with depth `z` there; the face's depth at pixel `px` of that row is `z0 + gx px`.
    ///
    /// Face coordinates are linear in the offset `q` from the centre, so each row's pixels inside
    /// `|s|, |t| <= FACE_LIMIT` are one span, the intersection of two intervals: the scan visits
    /// exactly the covered pixels. Comparisons are written so that NaN fails them.
    #[inline(always)]
    fn scan(
        &self,
        c: [f32; 2],
        z: f32,
        (top, last_y): (f32, f32),
        last_x: f32,
        mut row: impl FnMut(usize, usize, usize, f32),
    ) {
        let ry = self.reach[1];
        let (ya, yb) = ((c[1] - ry - 0.5).max(top), (c[1] + ry - 0.5).min(last_y));
        if !in_order(ya, yb) {
            return;
        }
        let (y0, y1) = (ceil_non_negative(ya), yb as i32 as usize);
        let z_x = self.gx * (0.5 - c[0]);
        // Pixel px's centre is at offset px + 0.5 - c.x.
        let left = c[0] - 0.5;
        'rows: for py in y0..=y1 {
            let qy = py as f32 + 0.5 - c[1];
            let (mut lo, mut hi) = (f32::NEG_INFINITY, f32::INFINITY);
            for i in 0..2 {
                if self.flat[i] {
                    if !in_order((self.b[i] * qy).abs(), FACE_LIMIT) {
                        continue 'rows;
                    }
                } else {
                    let m = self.k[i] * qy;
                    let (l, h) = (m - self.w[i], m + self.w[i]);
                    lo = if l > lo { l } else { lo };
                    hi = if h < hi { h } else { hi };
                }
            }
            let (xa, xb) = ((left + lo).max(0.0), (left + hi).min(last_x));
            if !in_order(xa, xb) {
                continue;
            }
            let (xa, xb) = (ceil_non_negative(xa), xb as i32 as usize);
            if xa > xb {
                continue;
            }
            row(py, xa, xb, z + self.gy * qy + z_x);
        }
    }
}

/// How many pixel centres per axis lie within `reach` of a face's centre: at most
/// `floor(2 reach) + 1` (clamped far above any stamp).
///
/// A reach is non-negative or NaN and `min` clamps it (NaN to 1e6), so the conversion goes
/// through `i32`, the same value as `as usize`, without baseline x86-64's saturating `usize`
/// conversion (a compare and branch per value: 2.4 % of the 1000-unit frame's instructions),
/// and by [`truncate`], without `as i32`'s saturation tests either (the value is at most
/// 1e6; below `i32::MIN` both answer `i32::MIN`).
#[inline(always)]
fn stamp_extent(reach: f32) -> usize {
    truncate((2.0 * reach).min(1e6)) as usize + 1
}

/// `a <= b`, false when either is NaN.
#[inline(always)]
fn in_order(a: f32, b: f32) -> bool {
    matches!(
        a.partial_cmp(&b),
        Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)
    )
}

/// `ceil(v)` as an `i32` for a `v` within `i32`'s range, negative (`i32::MIN` or one above)
/// for NaN and values from 2^31 up, where the caller's (a stamp's first pixel, [`FaceBand`]'s
/// `face`) `>= 0` test fails and the scanned fill draws nothing for the face either (its centre
/// NaN or 2^31 pixels off: every depth NaN, or no pixel in the row); the saturating form drew
/// nothing there through the stamp. By [`truncate`] (one CVTTSS2SI) without `as i32`'s
/// saturation tests (docs/benchmarks.md, issue 43, lever 34b).
///
/// [`FaceBand`]: band::FaceBand
#[inline(always)]
fn ceil_i32(v: f32) -> i32 {
    let t = truncate(v);
    t.wrapping_add(i32::from((t as f32) < v))
}

/// `ceil(v)` for a `v` known to be in `0..=2^24` (pixel coordinates), without the libm call
/// (baseline x86-64 has no rounding instruction).
#[inline(always)]
fn ceil_non_negative(v: f32) -> usize {
    let t = v as i32;
    (t + i32::from((t as f32) < v)) as usize
}

impl Splat {
    /// The splat of a limb placed by `grid_to_world`, seen through `camera`, if its box
    /// (`corners`, grid space) lies between the camera's near and far planes and one cell covers
    /// at most `max_footprint` pixels everywhere in it.
    pub fn new(
        grid_to_world: &Mat4,
        camera: &ViewMatrices,
        corners: &[glam::Vec3; 8],
        max_footprint: f32,
    ) -> Option<Splat> {
        if max_footprint.is_nan() || max_footprint <= 0.0 {
            return None;
        }
        let ViewMatrices {
            view,
            view_projection: view_proj,
            width,
            height,
            near,
            far,
            orthographic,
        } = *camera;
        let clip = view_proj * *grid_to_world;
        let eye = view * *grid_to_world;
        let (w, h) = (width as f32, height as f32);
        // Column k of the screen matrix is column k of clip and eye space, taken to screen: the
        // map is linear in homogeneous coordinates.
        let col = |k: usize| {
            let c = clip.col(k);
            let e = eye.col(k);
            Vec4::new((c.x + c.w) * 0.5 * w, (c.w - c.y) * 0.5 * h, -e.z, c.w)
        };
        let to_screen = Mat4::from_cols(col(0), col(1), col(2), col(3));
        if !to_screen.is_finite() {
            return None;
        }
        let axes = [to_screen.x_axis, to_screen.y_axis, to_screen.z_axis];
        let mut largest = 0.0f32;
        let mut screen_rows = [f32::INFINITY, f32::NEG_INFINITY];
        for c in corners {
            let p = to_screen * c.extend(1.0);
            if !(p.w > 0.0 && p.z >= near && p.z <= far) {
                return None;
            }
            // Screen change per cell step along each grid axis at this corner: d(x / w).
            let (sx, sy) = (p.x / p.w, p.y / p.w);
            screen_rows = [screen_rows[0].min(sy), screen_rows[1].max(sy)];
            let (mut fx, mut fy) = (0.0f32, 0.0f32);
            for a in &axes {
                fx += ((a.x - sx * a.w) / p.w).abs();
                fy += ((a.y - sy * a.w) / p.w).abs();
            }
            if !(fx <= max_footprint && fy <= max_footprint) {
                return None;
            }
            largest = largest.max(fx).max(fy);
        }
        // The cell's screen edges at the box's centre (exact for orthographic cameras, where they
        // are the same everywhere; a close approximation over a box this small in perspective).
        let centre = (corners[0] + corners[7]) * 0.5;
        let p = to_screen * centre.extend(1.0);
        let (sx, sy) = (p.x / p.w, p.y / p.w);
        let edge = axes.map(|a| [(a.x - sx * a.w) / p.w, (a.y - sy * a.w) / p.w]);
        let outline = edge.map(|[ex, ey]| {
            let n = [-ey, ex];
            let reach: f32 = edge.iter().map(|e| (n[0] * e[0] + n[1] * e[1]).abs()).sum();
            // A margin far above rounding, far below a pixel.
            [n[0], n[1], reach * 0.5 * (1.0 + 1e-4) + 1e-6]
        });
        if !outline.iter().flatten().all(|v| v.is_finite()) {
            return None;
        }
        let affine = orthographic
            && axes.iter().all(|a| a.w == 0.0)
            && (to_screen.w_axis.w - 1.0).abs() < 1e-6;
        // Orthographic: a face towards +axis looks at the camera when depth falls along the axis;
        // ties (a face seen edge-on) count as looking, so nothing the marcher shows is dropped.
        let facing = if affine {
            axes.iter().enumerate().fold(0u8, |m, (a, d)| {
                m | ((d.z >= 0.0) as u8) << (2 * a) | ((d.z <= 0.0) as u8) << (2 * a + 1)
            })
        } else {
            0x3f
        };
        let depth_step = axes.map(|a| a.z);
        let multi = Multi::new(&eye, corners, edge, depth_step, largest, affine, facing)?;
        Some(Splat {
            to_screen,
            affine,
            outline,
            facing,
            single: largest <= SPLAT_FOOTPRINT,
            multi,
            screen_rows,
        })
    }

    /// Splat every voxel of `volume` whose pixel lies in `band` (its `pixels` and `depth`),
    /// depth-tested and shaded by `shade`. Returns the voxels projected. Columns of rasterised
    /// cells behind the band's tiles are skipped.
    pub fn draw_band<P: Shade>(
        &self,
        volume: &LimbVolume,
        shade: &LimbShade,
        vpl: &Vpl,
        band: SplatBand<'_>,
        pixels: &mut [P],
        depth: &mut [f32],
    ) -> usize {
        match (self.single, self.affine) {
            (true, true) => self.draw::<P, true>(volume, shade, vpl, band, pixels, depth),
            (true, false) => self.draw::<P, false>(volume, shade, vpl, band, pixels, depth),
            // Orthographic faces share one raster per axis, whose scan the scalar draw inlines
            // with its constants: the vector scan's call per face made those draws 11 % dearer
            // (callgrind, the 1000-unit 1080p orthographic frames), so only perspective draws
            // take it.
            (false, affine) => {
                let draw = MultiDraw {
                    splat: self,
                    volume,
                    shade,
                    vpl,
                    band,
                    pixels,
                    depth,
                };
                if affine {
                    draw.run(fill::Scalar)
                } else {
                    fill::with_best(draw)
                }
            }
        }
    }

    /// The cell faces its draws show (bits as [`SurfaceVoxel::open`]): a voxel with no open face
    /// among them is skipped before it is shaded, so the limb's shading table needs no entry for
    /// its normal (`job::Job::shade`).
    pub fn shown_faces(&self) -> u8 {
        if self.single {
            self.facing
        } else {
            self.multi.facing
        }
    }

    /// Whether each voxel is one pixel (else each is rasterised over the pixels it covers).
    pub fn is_single(&self) -> bool {
        self.single
    }

    /// The area in pixels of the bounding box of one cell's outline at the box's centre.
    pub fn cell_box_area(&self) -> f32 {
        4.0 * self.multi.reach[0] * self.multi.reach[1]
    }

    #[inline(always)]
    fn draw<P: Shade, const AFFINE: bool>(
        &self,
        volume: &LimbVolume,
        shade: &LimbShade,
        vpl: &Vpl,
        band: SplatBand<'_>,
        pixels: &mut [P],
        depth: &mut [f32],
    ) -> usize {
        let SplatBand { width, y0, .. } = band;
        let rows = pixels.len() / width.max(1);
        let (top, bottom, right) = (y0 as f32, (y0 + rows) as f32, width as f32);
        let dz = self.to_screen.z_axis;
        let (_, hi) = volume.bounds();
        let (lo, _) = volume.bounds();
        let (z_first, z_last) = (lo[2] as f32, hi[2].saturating_sub(1) as f32);
        let screen_y = |p: Vec4| if AFFINE { p.y } else { p.y / p.w };
        let mut projected = 0;
        for (x, y, voxels) in volume.surface_columns() {
            let base = self.to_screen * Vec4::new(x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0);
            // The column projects to a segment: skip it when both ends of the box's z range
            // are above or both below the band.
            let (ya, yb) = (screen_y(base + dz * z_first), screen_y(base + dz * z_last));
            if ya.max(yb) < top - 1.0 || ya.min(yb) >= bottom + 1.0 {
                continue;
            }
            for &SurfaceVoxel {
                z,
                colour,
                normal,
                open,
            } in voxels
            {
                if open & self.facing == 0 {
                    continue;
                }
                projected += 1;
                let p = base + dz * f32::from(z);
                let (sx, sy) = if AFFINE {
                    (p.x, p.y)
                } else {
                    let r = 1.0 / p.w;
                    (p.x * r, p.y * r)
                };
                // NaN fails both tests.
                if !(sy >= top && sy < bottom && sx >= 0.0 && sx < right) {
                    continue;
                }
                let (px, py) = (sx as usize, sy as usize);
                let (qx, qy) = (px as f32 + 0.5 - sx, py as f32 + 0.5 - sy);
                // Branch-free from here: whether a voxel lands inside its outline and in front is
                // close to a coin toss on a crowded limb, so both are selects, not jumps.
                let [[ax, ay, ar], [bx, by, br], [cx, cy, cr]] = self.outline;
                let inside = ((ax * qx + ay * qy).abs() <= ar)
                    & ((bx * qx + by * qy).abs() <= br)
                    & ((cx * qx + cy * qy).abs() <= cr);
                let i = (py - y0) * width + px;
                let (Some(d), Some(out)) = (depth.get_mut(i), pixels.get_mut(i)) else {
                    continue;
                };
                let front = inside & (p.z < *d);
                let lit = P::shade(vpl, shade, colour, normal);
                *d = if front { p.z } else { *d };
                *out = if front { lit } else { *out };
            }
        }
        projected
    }

    /// Rasterise every visible face of every voxel over the pixels it covers ([`Multi`]), the
    /// scanned faces' rows filled by `fill`.
    // Eight arguments, allowed: the draw's inputs one for one, each its own reference (see
    // `march::march_band` for why not a struct), and the fill.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn draw_multi<P: Shade, const AFFINE: bool, F: FaceFill, const TESTED: bool>(
        &self,
        volume: &LimbVolume,
        shade: &LimbShade,
        vpl: &Vpl,
        band: SplatBand<'_>,
        pixels: &mut [P],
        depth: &mut [f32],
        fill: F,
    ) -> usize {
        let SplatBand {
            width,
            y0,
            tiles,
            bricks: test_bricks,
        } = band;
        // `TESTED` is whether `tiles` is there: a draw without them compiled apart, with no
        // test of them per column and voxel.
        let tiles = tiles.filter(|_| TESTED);
        let rows = pixels.len() / width.max(1);
        if rows == 0 || width == 0 {
            return 0;
        }
        let (top, bottom) = (y0 as f32, (y0 + rows) as f32);
        let (last_x, last_y) = ((width - 1) as f32, (y0 + rows - 1) as f32);
        let dz = self.to_screen.z_axis;
        let axes = [
            self.to_screen.x_axis,
            self.to_screen.y_axis,
            self.to_screen.z_axis,
        ];
        // The screen columns of the two grid axes spanning a face across each axis (looked up,
        // not worked out per face: the `% 3` cost a multiply and shifts per face), as the lanes
        // a perspective face's edges are worked out in: `(v1.x, v1.y, v2.x, v2.y)`, the matching
        // `w`s, and the depth steps `(v1.z, v2.z)`.
        let face_axes: [(Vec4, Vec4, [f32; 2]); 3] = std::array::from_fn(|a| {
            let (v1, v2) = (axes[(a + 1) % 3], axes[(a + 2) % 3]);
            (
                Vec4::new(v1.x, v1.y, v2.x, v2.y),
                Vec4::new(v1.w, v1.w, v2.w, v2.w),
                [v1.z, v2.z],
            )
        });
        // Face centre from cell centre, per face bit.
        let offset: [Vec4; 6] =
            std::array::from_fn(|bit| axes[bit / 2] * if bit % 2 == 1 { 0.5 } else { -0.5 });
        let m = &self.multi;
        let margin = m.max_reach + 1.0;
        // A voxel's pixels lie within `max_reach` of its centre, and none is nearer than its
        // centre's depth less half a cell along each axis (view depth is affine in the grid);
        // margins (half a pixel; a thousandth of the depth) far above rounding and the
        // perspective faces' first-order expansion ([`TileDepth::hides_voxel`]).
        let pixel_reach = m.max_reach + 0.5;
        let half = 0.5 * (axes[0].z.abs() + axes[1].z.abs() + axes[2].z.abs());
        let half = half * (1.0 + 1e-3) + 1e-4;
        let (band_top, band_bottom) = (top - margin, bottom + margin);
        let screen_y = |p: Vec4| if AFFINE { p.y } else { p.y / p.w };
        // The whole box within the band's margin, with a pixel to spare for rounding: no column
        // can fall outside it, and its test (two divisions a column in perspective) is skipped.
        // Pixels never depend on it: a column outside the band only draws nothing there.
        let [rows_lo, rows_hi] = self.screen_rows;
        let test_columns = !(rows_lo >= band_top + 1.0 && rows_hi < band_bottom - 1.0);
        let mut projected = 0;
        let (last_xi, last_yi) = ((width - 1) as i32, (y0 + rows - 1) as i32);
        let mut band = FaceBand {
            width,
            y0,
            top,
            last_x,
            last_y,
            last_xi,
            last_yi,
            pixels,
            depth,
            fill,
        };
        let mut bricks = BrickMemo::new();
        for (x, y, column) in volume.surface_columns() {
            let base = self.to_screen * Vec4::new(x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0);
            let column = if test_columns {
                let (Some(first), Some(last)) = (column.first(), column.last()) else {
                    continue;
                };
                let (ya, yb) = (
                    screen_y(base + dz * f32::from(first.z)),
                    screen_y(base + dz * f32::from(last.z)),
                );
                if ya.max(yb) < band_top || ya.min(yb) >= band_bottom {
                    continue;
                }
                // Orthographic: a cell centre's screen y is affine, so monotonic, in z along the
                // column; keep only the run of voxels whose centres lie within the band's margin
                // (each band of a many-thread draw would otherwise walk every voxel of the
                // column).
                if AFFINE && (ya.min(yb) < band_top || ya.max(yb) >= band_bottom) {
                    let cy = |v: &SurfaceVoxel| (base + dz * f32::from(v.z)).y;
                    let (i, j) = if dz.y >= 0.0 {
                        (
                            column.partition_point(|v| cy(v) < band_top),
                            column.partition_point(|v| cy(v) < band_bottom),
                        )
                    } else {
                        (
                            column.partition_point(|v| cy(v) >= band_bottom),
                            column.partition_point(|v| cy(v) >= band_top),
                        )
                    };
                    column.get(i..j).unwrap_or(&[])
                } else {
                    column
                }
            } else {
                column
            };
            // A tested limb's column whose brick is hidden as a whole holds no voxel its own
            // test would let through ([`brick`]).
            if let Some(t) = tiles.filter(|_| test_bricks) {
                let test = |b: &_| self.brick_hidden::<AFFINE>(b, t, band.depth, pixel_reach, half);
                if bricks.hidden(volume, (x, y), test) {
                    continue;
                }
            }
            for v in column {
                let faces = v.open & m.facing;
                if faces == 0 {
                    continue;
                }
                projected += 1;
                let centre = base + dz * f32::from(v.z);
                if let Some(t) = tiles {
                    let near = centre.z - half - 1e-4 * centre.z.abs();
                    let (cx, cy) = if AFFINE {
                        (centre.x, centre.y)
                    } else {
                        // A centre behind the eye gives NaN or a far-off point: not hidden.
                        let r = 1.0 / centre.w;
                        (centre.x * r, centre.y * r)
                    };
                    if centre.w > 0.0 && t.hides_voxel(band.depth, (cx, cy), pixel_reach, near) {
                        continue;
                    }
                }
                let lit = P::shade(vpl, shade, v.colour, v.normal);
                if AFFINE {
                    // Each axis's faces at a call site of their own, in face-bit order (the
                    // perspective loop's order): all faces across an axis have the same stamp, so
                    // each site's branches on the stamp's kind and rows go the same way every
                    // time.
                    macro_rules! axis {
                        ($a:expr) => {
                            let mut bits = faces & (3 << (2 * $a));
                            while bits != 0 {
                                let bit = bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                let f = centre + offset[bit];
                                band.face(f.x, f.y, f.z, &m.faces[$a], lit);
                            }
                        };
                    }
                    axis!(0);
                    axis!(1);
                    axis!(2);
                    continue;
                }
                // Perspective: each face set up at its own centre, those that may look away
                // (`Multi::unsure`) first tested against the eye: the face's plane, and whether
                // the eye is on its outer side.
                let mut bits = faces;
                let mut unsure = faces & m.unsure;
                if unsure != 0 {
                    let cell = [x as f32, y as f32, f32::from(v.z)];
                    while unsure != 0 {
                        let bit = unsure.trailing_zeros() as usize;
                        unsure &= unsure - 1;
                        let (a, high) = (bit / 2, bit % 2 == 1);
                        let plane = cell[a] + f32::from(u8::from(high));
                        if (m.eye[a] > plane) != high {
                            bits &= !(1 << bit);
                        }
                    }
                }
                while bits != 0 {
                    let bit = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let a = bit / 2;
                    let f = centre + offset[bit];
                    // The face's screen centre `(sx, sy)` twice over, and its edges `(v.x - sx
                    // v.w) / w, (v.y - sy v.w) / w` for both axes in one vector's lanes.
                    let r = Vec4::splat(1.0 / f.w);
                    let s = f.xyxy() * r;
                    let (v, vw, dz) = face_axes[a];
                    let face = FaceRaster::from_edges((v - s * vw) * r, dz);
                    if face.inv_det != 0.0 {
                        band.face(s.x, s.y, f.z, &face, lit);
                    }
                }
            }
        }
        projected
    }
}

/// A limb's rasterised draw ([`Splat::draw_multi`]) as [`fill::with_best`] runs it.
struct MultiDraw<'a, P> {
    splat: &'a Splat,
    volume: &'a LimbVolume,
    shade: &'a LimbShade,
    vpl: &'a Vpl,
    band: SplatBand<'a>,
    pixels: &'a mut [P],
    depth: &'a mut [f32],
}

impl<P: Shade> WithFill for MultiDraw<'_, P> {
    type Out = usize;

    #[inline(always)]
    fn run<F: FaceFill>(self, fill: F) -> usize {
        let MultiDraw {
            splat,
            volume,
            shade,
            vpl,
            band,
            pixels,
            depth,
        } = self;
        // Limbs without tiles to test against (most of a small scene's) drawn by a loop of
        // their own, without the tests' code or registers.
        macro_rules! draw {
            ($affine:expr, $tested:expr) => {
                splat.draw_multi::<P, $affine, F, $tested>(
                    volume, shade, vpl, band, pixels, depth, fill,
                )
            };
        }
        match (splat.affine, band.tiles.is_some()) {
            (true, false) => draw!(true, false),
            (true, true) => draw!(true, true),
            (false, false) => draw!(false, false),
            (false, true) => draw!(false, true),
        }
    }
}

impl Multi {
    /// The rasterisation constants of a limb whose grid maps to eye space by `eye`, box
    /// `corners`, cell screen edges `edge` at the box's centre, cells at most `largest` pixels
    /// wide or high. `None` when they are not finite.
    fn new(
        eye: &Mat4,
        corners: &[Vec3; 8],
        edge: [[f32; 2]; 3],
        depth_step: [f32; 3],
        largest: f32,
        affine: bool,
        ortho_facing: u8,
    ) -> Option<Multi> {
        let faces: [FaceRaster; 3] = std::array::from_fn(|a| {
            let (b1, b2) = ((a + 1) % 3, (a + 2) % 3);
            FaceRaster::new(edge[b1], edge[b2], [depth_step[b1], depth_step[b2]])
        });
        let (eye_grid, facing, unsure) = if affine {
            // A face seen edge-on covers no pixel centre its neighbours do not: never drawn.
            let edge_on = (0..3).fold(0u8, |m, a| {
                m | (u8::from(faces[a].inv_det == 0.0) * 3) << (2 * a)
            });
            (Vec3::ZERO, ortho_facing & !edge_on, 0)
        } else {
            let e = eye.inverse().w_axis;
            if e.w == 0.0 || e.w.is_nan() {
                return None;
            }
            let e = e.truncate() / e.w;
            let (facing, unsure) = eye_faces(e, corners[0], corners[7]);
            (e, facing, unsure)
        };
        let reach = [0, 1].map(|c| edge.iter().map(|e| e[c].abs()).sum::<f32>() * 0.5);
        let multi = Multi {
            faces,
            max_reach: largest * FACE_LIMIT,
            reach,
            eye: eye_grid,
            facing,
            unsure,
        };
        let finite = multi.eye.is_finite()
            && multi.max_reach.is_finite()
            && multi.reach.iter().all(|v| v.is_finite());
        finite.then_some(multi)
    }
}

/// The faces a perspective eye at grid point `e` may see of cells in the box `lo..hi` (the
/// filled cells have `lo <= cell < hi`), as [`Multi`]'s `facing`, and those of them that some
/// cell's face may still turn away from the eye ([`Multi`]'s `unsure`).
///
/// A -a face (at a cell's low plane) can face the eye only where the eye is below that plane, a
/// +a face only where it is above. A -a face, at plane `cell`, looks at the eye where `eye <=
/// plane`: for every cell when the eye is at or below `lo`, which is when `facing` keeps the -a
/// face alone (`!(e > lo)`, `e < hi`). A +a face, at `cell + 1`, where `eye > plane`: for every
/// cell when the eye is above `hi` (at `hi` exactly, the top cells' faces are edge-on and not
/// drawn, so that face stays unsure).
fn eye_faces(e: Vec3, lo: Vec3, hi: Vec3) -> (u8, u8) {
    let facing = (0..3).fold(0u8, |m, a| {
        m | ((e[a] < hi[a]) as u8) << (2 * a) | ((e[a] > lo[a]) as u8) << (2 * a + 1)
    });
    let unsure = (0..3).fold(0u8, |m, a| {
        let (low, high) = (1u8 << (2 * a), 1u8 << (2 * a + 1));
        let bits = facing & (low | high);
        let sure = bits == low || (bits == high && e[a] > hi[a]);
        m | if sure { 0 } else { bits }
    });
    (facing, unsure)
}

#[cfg(test)]
mod tests {
    use super::{
        ceil_i32, eye_faces, stamp_extent, FaceRaster, FACE_LIMIT, STAMP_PIXELS, STAMP_WIDTH,
    };
    use glam::{Vec3, Vec4};
    use proptest::prelude::*;

    /// [`FaceRaster::new`] one value at a time, as it was before its lanes (lever 45): the
    /// reference the lanes must equal bit for bit.
    fn face_one_at_a_time(e1: [f32; 2], e2: [f32; 2], dz: [f32; 2]) -> FaceRaster {
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        let inv = if det.abs() > 1e-9 && det.is_finite() {
            1.0 / det
        } else {
            0.0
        };
        let reach = [0, 1].map(|c| (e1[c].abs() + e2[c].abs()) * FACE_LIMIT);
        let ([e1x, e1y], [e2x, e2y]) = (e1, e2);
        let (a_s, b_s) = (e2y * inv, -e2x * inv);
        let (a_t, b_t) = (-e1y * inv, e1x * inv);
        let gx = a_s * dz[0] + a_t * dz[1];
        let gy = b_s * dz[0] + b_t * dz[1];
        let (a, b) = ([a_s, a_t], [b_s, b_t]);
        let r = a.map(|a| 1.0 / a);
        let flat = r.map(|r| !r.is_finite());
        let k = std::array::from_fn(|i| if flat[i] { 0.0 } else { -b[i] * r[i] });
        let w = std::array::from_fn(|i| {
            if flat[i] {
                0.0
            } else {
                FACE_LIMIT * r[i].abs()
            }
        });
        let [sw, sh] = reach.map(stamp_extent);
        let stamp = (sw <= STAMP_WIDTH && sw * sh <= STAMP_PIXELS).then_some((sw, sh));
        FaceRaster {
            inv_det: inv,
            reach,
            k,
            w,
            a,
            b,
            flat,
            stamp,
            gx,
            gy,
        }
    }

    /// Every float of a face as bits, a NaN as one value whatever its sign and payload (no
    /// comparison, `abs` or depth write can tell them apart).
    fn face_bits(f: &FaceRaster) -> Vec<u32> {
        let bits = |v: f32| if v.is_nan() { u32::MAX } else { v.to_bits() };
        let mut out: Vec<u32> = [f.inv_det, f.gx, f.gy].into_iter().map(bits).collect();
        for pair in [f.reach, f.k, f.w, f.a, f.b] {
            out.extend(pair.map(bits));
        }
        out.extend(f.flat.map(u32::from));
        let (sw, sh) = f.stamp.unwrap_or((usize::MAX, usize::MAX));
        out.extend([sw as u32, sh as u32]);
        out
    }

    fn assert_lanes_match(e1: [f32; 2], e2: [f32; 2], dz: [f32; 2]) {
        let lanes = FaceRaster::from_edges(Vec4::new(e1[0], e1[1], e2[0], e2[1]), dz);
        assert_eq!(
            face_bits(&lanes),
            face_bits(&face_one_at_a_time(e1, e2, dz)),
            "{e1:?} {e2:?} {dz:?}"
        );
    }

    /// The lanes give the scalar form's bits for faces seen square, edge-on, along an axis
    /// (`flat`), degenerate, huge, tiny, infinite and NaN.
    #[test]
    fn face_lanes_match_the_scalar_form_at_the_edges() {
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            1e-5,
            -3e-6,
            4.5,
            1e20,
            -1e20,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for &x1 in &specials {
            for &y2 in &specials {
                for &(y1, x2) in &[(0.0, 0.0), (0.3, -0.7), (f32::NAN, 1.0), (2.0, 2.0)] {
                    assert_lanes_match([x1, y1], [x2, y2], [0.25, -1.5]);
                    assert_lanes_match([y1, x1], [y2, x2], [f32::NAN, 3.0]);
                }
            }
        }
    }

    /// A face `eye_faces` leaves sure looks at the eye from every cell of the box (the test the
    /// perspective draw skips for it gives the same answer), for eyes beyond, on and inside the
    /// box's planes on each axis.
    #[test]
    fn sure_faces_look_at_the_eye_from_every_cell() {
        let (lo, hi) = (Vec3::new(2.0, 0.0, 5.0), Vec3::new(6.0, 3.0, 9.0));
        let coords = |l: f32, h: f32| {
            [
                l - 7.5,
                l - 1.0,
                l - 0.25,
                l,
                l + 0.5,
                h - 1.0,
                h,
                h + 1e-3,
                h + 4.0,
            ]
        };
        let mut checked = 0;
        for &x in &coords(lo.x, hi.x) {
            for &y in &coords(lo.y, hi.y) {
                for &z in &coords(lo.z, hi.z) {
                    let e = Vec3::new(x, y, z);
                    let (facing, unsure) = eye_faces(e, lo, hi);
                    assert_eq!(unsure & !facing, 0);
                    for bit in (0..6).filter(|b| (facing & !unsure) >> b & 1 != 0) {
                        let (a, high) = (bit / 2, bit % 2 == 1);
                        for c in lo[a] as usize..hi[a] as usize {
                            let plane = c as f32 + f32::from(u8::from(high));
                            assert!((e[a] > plane) == high, "eye {e} face {bit} cell {c}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    proptest! {
        /// ... and for faces of every size and direction a splat meets.
        #[test]
        fn face_lanes_match_the_scalar_form(
            e in prop::array::uniform4(-40.0f32..40.0),
            dz in prop::array::uniform2(-2.0f32..2.0),
        ) {
            assert_lanes_match([e[0], e[1]], [e[2], e[3]], dz);
        }
    }

    /// `ceil_i32` is `ceil` for every float in `i32`'s range (fractions, integers, both zeros,
    /// both ends and the floats next to them) and negative for NaN and from 2^31 up.
    #[test]
    fn ceil_i32_is_ceil_in_range_and_negative_beyond() {
        let mut values = vec![0.0f32, -0.0, 1e-45, -1e-45, f32::MIN_POSITIVE];
        for end in [2_147_483_648.0f32, -2_147_483_648.0] {
            let mut v = end;
            for _ in 0..64 {
                v = f32::from_bits(v.to_bits() - 1);
                values.push(v);
            }
        }
        values.push(-2_147_483_648.0);
        values.extend((0..40_000).map(|i| (i as f32 - 20_000.0) * 0.173));
        values.extend((0..4_000).map(|i| (i as f32 - 2_000.0) * 0.5));
        values.extend((0..112).flat_map(|i| {
            let v = 1.21f32.powi(i);
            [v, -v, v + 0.5, -v - 0.5]
        }));
        for v in values {
            assert_eq!(ceil_i32(v), v.ceil() as i32, "{v}");
        }
        for v in [
            f32::NAN,
            -f32::NAN,
            2_147_483_648.0,
            3e9,
            f32::MAX,
            f32::INFINITY,
        ] {
            assert!(ceil_i32(v) < 0, "{v}");
        }
    }

    /// The `i32` conversion gives what the plain `usize` one gives for every reach a face can
    /// have, NaN and infinity included.
    #[test]
    fn stamp_extent_matches_the_usize_conversion() {
        let mut reaches = vec![
            0.0, 1e-9, 0.25, 0.4999, 0.5, 1.0, 1.5, 1.99, 2.0, 5e5, 6e5, 1e7,
        ];
        reaches.extend([f32::INFINITY, f32::NAN, f32::MAX, f32::MIN_POSITIVE]);
        reaches.extend((0..4000).map(|i| i as f32 * 0.00137));
        for r in reaches {
            let plain = (2.0 * r).min(1e6) as usize + 1;
            assert_eq!(stamp_extent(r), plain, "reach {r}");
        }
        assert_eq!(stamp_extent(f32::NAN), 1_000_001);
        assert_eq!(stamp_extent(1.5), 4);
    }
}
