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

use super::face::{FaceRaster, FACE_LIMIT};
use crate::render::pixel::Shade;

/// Lane x offsets: two pixels of a row, twice.
const PAIR_X: Vec4 = Vec4::new(0.0, 1.0, 0.0, 1.0);
/// Lane row offsets: lanes 0-1 one row, lanes 2-3 the next.
const PAIR_Y: Vec4 = Vec4::new(0.0, 0.0, 1.0, 1.0);

/// Where a 2-wide stamp in `lit` lands: its box's top-left pixel `(px0, py0)` (screen
/// coordinates), its height `rows`, and the face's projected centre `(sx, sy)` with depth `fz`
/// there. (The face itself is an argument of the drawing: see `march::march_band` for why a
/// reference the loops read is not a field.)
pub(super) struct PairStamp<P> {
    pub px0: usize,
    pub py0: usize,
    pub rows: usize,
    pub sx: f32,
    pub sy: f32,
    pub fz: f32,
    pub lit: P,
    /// Whether a row pair none of whose lanes won is written anyway (`FaceFill::WRITE_LOST`).
    pub write_lost: bool,
}

impl<P: Shade> PairStamp<P> {
    /// Whether the box, its rows rounded up to a pair, lies in the band's rows `y0..=last_y` and
    /// its two columns in the row (`px0 + 1 <= last_x`): then every lane's pixel exists and
    /// belongs to this band. Lanes of the padding row are masked off (written back as they are).
    #[inline(always)]
    pub fn fits(&self, y0: usize, last_y: usize, last_x: usize) -> bool {
        let padded = self.rows.div_ceil(2) * 2;
        self.rows >= 2 && self.py0 >= y0 && self.py0 + padded - 1 <= last_y && self.px0 < last_x
    }

    /// Depth-test and draw `lit` over the stamp's pixels inside `face`, in the band `pixels` /
    /// `depth` (`width` wide, first row `y0`). Call only when [`PairStamp::fits`].
    #[inline(always)]
    pub fn draw(
        &self,
        face: &FaceRaster,
        width: usize,
        y0: usize,
        pixels: &mut [P],
        depth: &mut [f32],
    ) {
        // Row pairs unrolled: a 2-wide stamp is at most STAMP_PIXELS / 2 = 6 rows, and every face
        // across one axis has the same count, so the dispatch goes the same way all draw long
        // where the loop's exit after two or three pairs was mispredicted.
        match self.rows.div_ceil(2) {
            1 => self.row_pairs::<1>(face, width, y0, pixels, depth),
            2 => self.row_pairs::<2>(face, width, y0, pixels, depth),
            3 => self.row_pairs::<3>(face, width, y0, pixels, depth),
            n => (0..n).for_each(|k| self.row_pair(k * 2, face, width, y0, pixels, depth)),
        }
    }

    /// The stamp's first `PAIRS` row pairs.
    #[inline(always)]
    fn row_pairs<const PAIRS: usize>(
        &self,
        face: &FaceRaster,
        width: usize,
        y0: usize,
        pixels: &mut [P],
        depth: &mut [f32],
    ) {
        for k in 0..PAIRS {
            self.row_pair(k * 2, face, width, y0, pixels, depth);
        }
    }

    /// Rows `j` and `j + 1` of the stamp (the second masked off past its last row).
    #[inline(always)]
    fn row_pair(
        &self,
        j: usize,
        face: &FaceRaster,
        width: usize,
        y0: usize,
        pixels: &mut [P],
        depth: &mut [f32],
    ) {
        let lit = self.lit;
        let ([a_s, a_t], [b_s, b_t], gx, gy) = (face.a, face.b, face.gx, face.gy);
        // Per lane exactly the one-row stamp's operations: qx = (px0 + 0.5 - sx) + lane,
        // qy = (py + 0.5) - sy, s = a_s qx + b_s qy, depth = gx qx + (fz + gy qy). (The row
        // pairs of one stamp share all but the last two lines: the compiler hoists them.)
        let qx = Vec4::splat(self.px0 as f32 + 0.5 - self.sx) + PAIR_X;
        let (s_x, t_x, z_x) = (qx * a_s, qx * a_t, qx * gx);
        let limit = Vec4::splat(FACE_LIMIT);
        let rows = Vec4::splat(self.rows as f32);
        let (sy, fz) = (Vec4::splat(self.sy), Vec4::splat(self.fz));
        {
            let rel = PAIR_Y + Vec4::splat(j as f32);
            let py = Vec4::splat(self.py0 as f32) + rel;
            let qy = (py + Vec4::splat(0.5)) - sy;
            let s = s_x + qy * b_s;
            let t = t_x + qy * b_t;
            let z = z_x + (fz + qy * gy);
            let inside = s.abs().cmple(limit) & t.abs().cmple(limit) & rel.cmplt(rows);
            let start = (self.py0 + j - y0) * width + self.px0;
            let next = start + width;
            let (Some(d), Some(out)) = (
                depth.get_mut(start..next + 2),
                pixels.get_mut(start..next + 2),
            ) else {
                return;
            };
            let w = width;
            let old = Vec4::new(d[0], d[1], d[w], d[w + 1]);
            let front = inside & z.cmplt(old);
            // As the one-row stamp's (`band.rs`, lever 53): no branch per lane, and none on
            // whether a lane won when `write_lost`.
            if !self.write_lost && front.bitmask() == 0 {
                return;
            }
            let [n0, n1, n2, n3] = Vec4::select(front, z, old).to_array();
            (d[0], d[1], d[w], d[w + 1]) = (n0, n1, n2, n3);
            let mut px = [out[0], out[1], out[w], out[w + 1]];
            P::put_lanes4(&mut px, front.bitmask() as u8, lit);
            (out[0], out[1], out[w], out[w + 1]) = (px[0], px[1], px[2], px[3]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Round 8's stamp: the row pairs as a loop (what the unrolled dispatch replaced).
    fn draw_looped(
        s: &PairStamp<u8>,
        face: &FaceRaster,
        width: usize,
        y0: usize,
        pixels: &mut [u8],
        depth: &mut [f32],
    ) {
        let lit = s.lit;
        let ([a_s, a_t], [b_s, b_t], gx, gy) = (face.a, face.b, face.gx, face.gy);
        let qx = Vec4::splat(s.px0 as f32 + 0.5 - s.sx) + PAIR_X;
        let (s_x, t_x, z_x) = (qx * a_s, qx * a_t, qx * gx);
        let limit = Vec4::splat(FACE_LIMIT);
        let rows = Vec4::splat(s.rows as f32);
        let (sy, fz) = (Vec4::splat(s.sy), Vec4::splat(s.fz));
        let mut j = 0;
        while j < s.rows {
            let rel = PAIR_Y + Vec4::splat(j as f32);
            let py = Vec4::splat(s.py0 as f32) + rel;
            let qy = (py + Vec4::splat(0.5)) - sy;
            let (ss, t) = (s_x + qy * b_s, t_x + qy * b_t);
            let z = z_x + (fz + qy * gy);
            let inside = ss.abs().cmple(limit) & t.abs().cmple(limit) & rel.cmplt(rows);
            let start = (s.py0 + j - y0) * width + s.px0;
            j += 2;
            let w = width;
            let (d, out) = (
                &mut depth[start..start + w + 2],
                &mut pixels[start..start + w + 2],
            );
            let old = Vec4::new(d[0], d[1], d[w], d[w + 1]);
            let front = inside & z.cmplt(old);
            let [n0, n1, n2, n3] = Vec4::select(front, z, old).to_array();
            (d[0], d[1], d[w], d[w + 1]) = (n0, n1, n2, n3);
            for (lane, i) in [0, 1, w, w + 1].into_iter().enumerate() {
                if (front.bitmask() >> lane) & 1 != 0 {
                    out[i] = lit;
                }
            }
        }
    }

    /// The unrolled row pairs write the pixels and depths of the loop, on random 2-wide faces of
    /// every height a stamp can have, over random depths (ties included), whether or not rows
    /// that lost are written.
    #[test]
    fn unrolled_row_pairs_equal_the_loop() {
        let mut rng = modex::Rng::new(16);
        let (width, y0, rows) = (16usize, 3usize, 14usize);
        let mut stamped = [0usize; 7];
        for k in 0..20_000 {
            let e1 = [rng.range(-0.9, 0.9), rng.range(-3.0, 3.0)];
            let e2 = [rng.range(-0.9, 0.9), rng.range(-3.0, 3.0)];
            let face = FaceRaster::new(e1, e2, [rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)]);
            let Some((2, sh)) = face.stamp else { continue };
            let s = PairStamp {
                px0: 2 + k % 11,
                py0: y0 + k % 3,
                rows: sh,
                sx: 4.0 + (k % 11) as f32 + rng.range(0.0, 1.0),
                sy: 5.0 + (k % 3) as f32 + rng.range(0.0, 1.0),
                fz: rng.range(0.0, 2.0),
                lit: 200u8,
                write_lost: false,
            };
            if !s.fits(y0, y0 + rows - 1, width - 1) {
                continue;
            }
            stamped[sh] += 1;
            let depth: Vec<f32> = (0..width * rows)
                .map(|i| {
                    if i % 5 == 0 {
                        s.fz
                    } else {
                        rng.range(-1.0, 3.0)
                    }
                })
                .collect();
            let pixels: Vec<u8> = (0..width * rows).map(|i| i as u8).collect();
            let (mut d1, mut p1) = (depth.clone(), pixels.clone());
            let (mut d3, mut p3) = (depth.clone(), pixels.clone());
            let (mut d2, mut p2) = (depth, pixels);
            s.draw(&face, width, y0, &mut p1, &mut d1);
            let written = PairStamp {
                write_lost: true,
                ..s
            };
            written.draw(&face, width, y0, &mut p3, &mut d3);
            draw_looped(&s, &face, width, y0, &mut p2, &mut d2);
            for (p, d) in [(&p1, &d1), (&p3, &d3)] {
                assert_eq!(p, &p2, "face {k}");
                assert!(
                    d.iter().zip(&d2).all(|(a, b)| a.to_bits() == b.to_bits()),
                    "face {k}"
                );
            }
        }
        assert!(stamped[2..=6].iter().all(|&n| n > 100), "{stamped:?}");
    }
}
