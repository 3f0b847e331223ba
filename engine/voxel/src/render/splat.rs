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
mod face;
mod fill;
mod pairs;

use band::FaceBand;
use brick::BrickMemo;
use face::{FaceRaster, FACE_LIMIT};
use fill::{FaceFill, WithFill};
use glam::{Mat4, Vec3, Vec4, Vec4Swizzles};

use super::pixel::Shade;
use crate::volume::{FacingVoxel, LimbVolume, SurfaceVoxel};
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
        if !AFFINE {
            // Perspective: the voxels with an open face among `facing`, in the column walk's
            // order, one loop over the limb (lever 56: neither a loop exit per column nor a
            // skip per voxel that faces away, both mispredicted about once a column).
            for &FacingVoxel { x, y, voxel: v } in volume.facing_voxels(m.facing) {
                let (x, y) = (usize::from(x), usize::from(y));
                // A tested limb's voxel whose brick is hidden as a whole is one its own test
                // would find hidden ([`brick`]).
                if let Some(t) = tiles.filter(|_| test_bricks) {
                    let test =
                        |b: &_| self.brick_hidden::<AFFINE>(b, t, band.depth, pixel_reach, half);
                    if bricks.hidden(volume, (x, y), test) {
                        continue;
                    }
                }
                projected += 1;
                // The column walk's cell centre, the same expression: the same bits.
                let base = self.to_screen * Vec4::new(x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0);
                let centre = base + dz * f32::from(v.z);
                // A centre behind the eye gives NaN or a far-off point: not hidden, not off the
                // band.
                let r = 1.0 / centre.w;
                let (cx, cy) = (centre.x * r, centre.y * r);
                if let Some(t) = tiles {
                    // The voxel test also answers hidden for a voxel with no pixel in the band.
                    let near = centre.z - half - 1e-4 * centre.z.abs();
                    if centre.w > 0.0 && t.hides_voxel(band.depth, (cx, cy), pixel_reach, near) {
                        continue;
                    }
                } else if test_columns && (cy < band_top || cy >= band_bottom) {
                    // Its pixels' centres lie within `pixel_reach` of `(cx, cy)`: none in the
                    // band (what the column walk's test says of a whole column).
                    continue;
                }
                let lit = P::shade(vpl, shade, v.colour, v.normal);
                // Each face set up at its own centre, those that may look away
                // (`Multi::unsure`) first tested against the eye: the face's plane, and whether
                // the eye is on its outer side.
                let mut bits = v.open & m.facing;
                let mut unsure = bits & m.unsure;
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
            return projected;
        }
        // Orthographic: column by column, each column's run within the band's margin. Its text
        // still tests `AFFINE` (always true here) as when it served both views: written for
        // `AFFINE` alone it compiled to 1.6-5 % more instructions in the orthographic
        // `draw_band` (13 and 100 units, measured twice; docs/benchmarks.md, issue 43, lever
        // 56).
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
                // (Perspective draws walk their facing voxels above and never come here.)
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
    use super::eye_faces;
    use glam::Vec3;

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
}
