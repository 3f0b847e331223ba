//! Splatting: a limb whose voxels each cover at most about one pixel on screen is drawn as one
//! depth-tested pixel per voxel instead of being ray-marched.
//!
//! Why: when a voxel is no bigger than a pixel, the ray-marcher spends a ray (set-up, clip, DDA)
//! per pixel of the limb's outline, several per covered pixel, to find what projecting each voxel
//! centre finds in a few multiply-adds. The switch is per limb and per draw, from the limb's own
//! scale on screen ([`Splat::new`]), so a close-up still marches; by default a small-enough limb
//! splats only when that is also cheaper ([`Splatting::WhenCheaper`](super::Splatting)): far below a
//! pixel per cell a pixel holds many voxels, and marching it is cheaper again.
//!
//! No holes: the limb splats only when the screen footprint of one cell (the bounding box of its
//! projected cube, at the box corner where it is largest) is at most
//! [`SPLAT_FOOTPRINT`](super::SPLAT_FOOTPRINT) pixels wide and high,
//! so the centres of neighbouring voxels of a surface land on the same or neighbouring pixels. A
//! voxel's pixel is the one containing its projected centre, its depth the centre's view depth,
//! and its colour the ray-marcher's ([`Shade::shade`] with the limb's table), so lighting and
//! formats are exactly the marcher's.
//!
//! Determinism: a splat writes each voxel into the band holding its pixel, in the limb's column
//! order, at the limb's place in the job order, so every pixel sees the same writes in the same
//! order whatever the banding and the thread count (the crate's 1-and-N-threads rule).

use glam::{Mat4, Vec4};

use super::pixel::Shade;
use crate::volume::LimbVolume;
use crate::vpl::Vpl;

use super::light::LimbShade;

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
}

impl Splat {
    /// The splat of a limb placed by `grid_to_world`, seen through `view` and `view_proj` on a
    /// `width` x `height` screen, if its box (`corners`, grid space) lies between the `near` and
    /// `far` planes and one cell covers at most `max_footprint` pixels everywhere in it.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        grid_to_world: &Mat4,
        view: &Mat4,
        view_proj: &Mat4,
        (width, height): (usize, usize),
        (near, far): (f32, f32),
        corners: &[glam::Vec3; 8],
        max_footprint: f32,
        orthographic: bool,
    ) -> Option<Splat> {
        if max_footprint.is_nan() || max_footprint <= 0.0 {
            return None;
        }
        let clip = *view_proj * *grid_to_world;
        let eye = *view * *grid_to_world;
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
        for c in corners {
            let p = to_screen * c.extend(1.0);
            if !(p.w > 0.0 && p.z >= near && p.z <= far) {
                return None;
            }
            // Screen change per cell step along each grid axis at this corner: d(x / w).
            let (sx, sy) = (p.x / p.w, p.y / p.w);
            let (mut fx, mut fy) = (0.0f32, 0.0f32);
            for a in &axes {
                fx += ((a.x - sx * a.w) / p.w).abs();
                fy += ((a.y - sy * a.w) / p.w).abs();
            }
            if !(fx <= max_footprint && fy <= max_footprint) {
                return None;
            }
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
        Some(Splat {
            to_screen,
            affine,
            outline,
            facing,
        })
    }

    /// Splat every voxel of `volume` whose pixel lies in rows `y0..` of the band `pixels` /
    /// `depth` (`width` wide), depth-tested and shaded by `shade`. Returns the voxels projected.
    #[allow(clippy::too_many_arguments)]
    pub fn draw_band<P: Shade>(
        &self,
        volume: &LimbVolume,
        shade: &LimbShade,
        vpl: &Vpl,
        width: usize,
        y0: usize,
        pixels: &mut [P],
        depth: &mut [f32],
    ) -> usize {
        if self.affine {
            self.draw::<P, true>(volume, shade, vpl, width, y0, pixels, depth)
        } else {
            self.draw::<P, false>(volume, shade, vpl, width, y0, pixels, depth)
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn draw<P: Shade, const AFFINE: bool>(
        &self,
        volume: &LimbVolume,
        shade: &LimbShade,
        vpl: &Vpl,
        width: usize,
        y0: usize,
        pixels: &mut [P],
        depth: &mut [f32],
    ) -> usize {
        let rows = pixels.len() / width.max(1);
        let (top, bottom, right) = (y0 as f32, (y0 + rows) as f32, width as f32);
        let dz = self.to_screen.z_axis;
        let (_, hi) = volume.bounds();
        let (lo, _) = volume.bounds();
        let (z_first, z_last) = (lo[2] as f32, hi[2].saturating_sub(1) as f32);
        let screen_y = |p: Vec4| if AFFINE { p.y } else { p.y / p.w };
        let mut projected = 0;
        volume.for_each_column(|x, y, voxels| {
            let base = self.to_screen * Vec4::new(x as f32 + 0.5, y as f32 + 0.5, 0.5, 1.0);
            // The column projects to a segment: skip it when both ends of the box's z range
            // are above or both below the band.
            let (ya, yb) = (screen_y(base + dz * z_first), screen_y(base + dz * z_last));
            if ya.max(yb) < top - 1.0 || ya.min(yb) >= bottom + 1.0 {
                return;
            }
            for (z, [colour, normal], open) in voxels {
                if open & self.facing == 0 {
                    continue;
                }
                projected += 1;
                let p = base + dz * z as f32;
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
        });
        projected
    }
}
