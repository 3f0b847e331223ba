//! Stamps two pixels wide, two rows per vector.
//!
//! Why: at hmec's 128x128 bench size (cells 2.5-3 pixels) the faces across the two horizontal grid
//! axes, two of the three faces a voxel shows, have stamp boxes 2 pixels wide and 4-5 rows tall.
//! One row per SSE2 vector leaves half its lanes idle and pays the row's set-up (face coordinates,
//! depth, compare, select, pixel writes) once per row; two rows per vector halve the iterations.
//! Each lane computes what the one-row stamp computes for its pixel, operation for operation
//! (the row's `qy` rounded the same way, the same products and sums), so the same pixels win with
//! the same depths.

use glam::Vec4;

use super::{FaceRaster, FACE_LIMIT};

/// Lane x offsets: two pixels of a row, twice.
const PAIR_X: Vec4 = Vec4::new(0.0, 1.0, 0.0, 1.0);
/// Lane row offsets: lanes 0-1 one row, lanes 2-3 the next.
const PAIR_Y: Vec4 = Vec4::new(0.0, 0.0, 1.0, 1.0);

/// Where a 2-wide stamp lands: its box's top-left pixel `(px0, py0)` (screen coordinates), its
/// height `rows`, and the face's projected centre `(sx, sy)` with depth `fz` there.
pub(super) struct PairStamp {
    pub px0: usize,
    pub py0: usize,
    pub rows: usize,
    pub sx: f32,
    pub sy: f32,
    pub fz: f32,
}

impl PairStamp {
    /// Whether the box, its rows rounded up to a pair, lies in the band's rows `y0..=last_y` and
    /// its two columns in the row (`px0 + 1 <= last_x`): then every lane's pixel exists and
    /// belongs to this band. Lanes of the padding row are masked off, never written.
    #[inline(always)]
    pub fn fits(&self, y0: usize, last_y: usize, last_x: usize) -> bool {
        let padded = self.rows.div_ceil(2) * 2;
        self.rows >= 2 && self.py0 >= y0 && self.py0 + padded - 1 <= last_y && self.px0 < last_x
    }

    /// Depth-test and draw `lit` over the stamp's pixels inside `face`, in the band `pixels` /
    /// `depth` (`width` wide, first row `y0`). Call only when [`PairStamp::fits`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn draw<P: Copy>(
        &self,
        face: &FaceRaster,
        width: usize,
        y0: usize,
        pixels: &mut [P],
        depth: &mut [f32],
        lit: P,
    ) {
        let ([a_s, a_t], [b_s, b_t], gx, gy) = (face.a, face.b, face.gx, face.gy);
        // Per lane exactly the one-row stamp's operations: qx = (px0 + 0.5 - sx) + lane,
        // qy = (py + 0.5) - sy, s = a_s qx + b_s qy, depth = gx qx + (fz + gy qy).
        let qx = Vec4::splat(self.px0 as f32 + 0.5 - self.sx) + PAIR_X;
        let (s_x, t_x, z_x) = (qx * a_s, qx * a_t, qx * gx);
        let limit = Vec4::splat(FACE_LIMIT);
        let rows = Vec4::splat(self.rows as f32);
        let (sy, fz) = (Vec4::splat(self.sy), Vec4::splat(self.fz));
        let mut j = 0;
        while j < self.rows {
            let rel = PAIR_Y + Vec4::splat(j as f32);
            let py = Vec4::splat(self.py0 as f32) + rel;
            let qy = (py + Vec4::splat(0.5)) - sy;
            let s = s_x + qy * b_s;
            let t = t_x + qy * b_t;
            let z = z_x + (fz + qy * gy);
            let inside = s.abs().cmple(limit) & t.abs().cmple(limit) & rel.cmplt(rows);
            let start = (self.py0 + j - y0) * width + self.px0;
            let next = start + width;
            j += 2;
            let (Some(d), Some(out)) = (
                depth.get_mut(start..next + 2),
                pixels.get_mut(start..next + 2),
            ) else {
                continue;
            };
            let w = width;
            let old = Vec4::new(d[0], d[1], d[w], d[w + 1]);
            let front = inside & z.cmplt(old);
            if front.bitmask() == 0 {
                continue;
            }
            let [n0, n1, n2, n3] = Vec4::select(front, z, old).to_array();
            (d[0], d[1], d[w], d[w + 1]) = (n0, n1, n2, n3);
            let front = front.bitmask();
            for (lane, i) in [0, 1, w, w + 1].into_iter().enumerate() {
                out[i] = if (front >> lane) & 1 != 0 {
                    lit
                } else {
                    out[i]
                };
            }
        }
    }
}
