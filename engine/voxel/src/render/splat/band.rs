//! The band of pixels one splatted limb's faces are drawn into, and how one face is drawn there.
//!
//! Why a type and not a closure: the orthographic splat draws each grid axis's faces at a call
//! site of its own (`Splat::draw_multi`), so that each site's branches on the stamp's kind and its
//! row count go the same way for every face of the draw; that needs the face drawing inlined at
//! every site, which `#[inline(always)]` asks of a method and nothing asks of a closure (as a
//! closure called from three sites it was compiled out of line: 2.15 M instead of 1.92 M
//! instructions per hmec128 draw).

use super::face::{ceil_i32, FaceRaster, FACE_LIMIT, LANES};
use super::fill::{FaceFill, Scanned};
use super::pairs::PairStamp;
use crate::render::pixel::Shade;
use glam::Vec4;

/// Rows `y0..=last_y` of a frame `width` pixels wide (`pixels` and `depth` hold just those rows),
/// with the bounds a face is clipped to, as floats and integers, and how a scanned face's rows
/// are filled (`fill`).
pub(super) struct FaceBand<'b, P, F> {
    pub width: usize,
    pub y0: usize,
    pub top: f32,
    pub last_x: f32,
    pub last_y: f32,
    pub last_xi: i32,
    pub last_yi: i32,
    pub pixels: &'b mut [P],
    pub depth: &'b mut [f32],
    pub fill: F,
}

impl<P: Shade, F: FaceFill> FaceBand<'_, P, F> {
    /// Depth-test and draw `lit` over the pixels of the band inside the face `face` centred at
    /// screen `(sx, sy)` with depth `fz` there: stamped without branches per pixel when the face
    /// is small ([`FaceRaster`]'s `stamp`, two rows per vector when two pixels wide), its rows
    /// scanned otherwise.
    #[inline(always)]
    pub fn face(&mut self, sx: f32, sy: f32, fz: f32, face: &FaceRaster, lit: P) {
        let FaceBand {
            width,
            y0,
            top,
            last_x,
            last_y,
            last_xi,
            last_yi,
            ref mut pixels,
            ref mut depth,
            fill,
        } = *self;
        let gx = face.gx;
        if let Some((sw, sh)) = face.stamp {
            let px0 = ceil_i32(sx - face.reach[0] - 0.5);
            let py0 = ceil_i32(sy - face.reach[1] - 0.5);
            // Whether a face is stamped depends on the face and the screen's width only,
            // never on the band, so every banding draws each pixel the same way.
            if px0 >= 0 && px0 + sw as i32 - 1 <= last_xi {
                if sw == 2 && py0 >= 0 {
                    let pair = PairStamp {
                        px0: px0 as usize,
                        py0: py0 as usize,
                        rows: sh,
                        sx,
                        sy,
                        fz,
                        lit,
                        write_lost: F::WRITE_LOST,
                    };
                    if pair.fits(y0, last_yi as usize, last_xi as usize) {
                        pair.draw(face, width, y0, pixels, depth);
                        return;
                    }
                }
                // Every pixel of the box tested, the same number for every face across this
                // axis: no branch per row or pixel to mispredict on faces 1-3 pixels big.
                let ([a_s, a_t], [b_s, b_t], gy) = (face.a, face.b, face.gy);
                let qx0 = px0 as f32 + 0.5 - sx;
                // Four pixels of a row at once (SSE2, baseline x86-64): a stamp is at most
                // STAMP_WIDTH wide. The same operations as one pixel at a time, so the same
                // results.
                let qx = Vec4::splat(qx0) + LANES;
                let (s_x, t_x, z_x) = (qx * a_s, qx * a_t, qx * gx);
                let lane_ok = LANES.cmplt(Vec4::splat(sw as f32));
                let limit = Vec4::splat(FACE_LIMIT);
                for j in 0..sh as i32 {
                    let py = py0.saturating_add(j);
                    if py < y0 as i32 || py > last_yi {
                        continue;
                    }
                    let py = py as usize;
                    let qy = py as f32 + 0.5 - sy;
                    let (s_row, t_row, z_row) = (b_s * qy, b_t * qy, fz + gy * qy);
                    let start = (py - y0) * width + px0 as usize;
                    let (s, t) = (s_x + Vec4::splat(s_row), t_x + Vec4::splat(t_row));
                    let z = z_x + Vec4::splat(z_row);
                    let inside = s.abs().cmple(limit) & t.abs().cmple(limit) & lane_ok;
                    // Lanes past the stamp's width read and write back what is there (the
                    // next pixels of the row, or of the next row): all four lanes go through
                    // the same selects, no loop of the stamp's width. Past the band's end the
                    // row goes one pixel at a time.
                    let (Some(d4), Some(out4)) = (
                        depth.get_mut(start..start + 4),
                        pixels.get_mut(start..start + 4),
                    ) else {
                        let (Some(d), Some(out)) = (
                            depth.get_mut(start..start + sw),
                            pixels.get_mut(start..start + sw),
                        ) else {
                            continue;
                        };
                        let (z, inside) = (z.to_array(), inside.bitmask());
                        for (i, (d, out)) in d.iter_mut().zip(out).enumerate() {
                            let front = (inside >> i) & 1 != 0 && z[i] < *d;
                            *d = if front { z[i] } else { *d };
                            *out = if front { lit } else { *out };
                        }
                        continue;
                    };
                    // The pixels without a branch per lane, and with the vector fill written
                    // whether or not a lane won (`FaceFill::WRITE_LOST`): which rows win is the
                    // picture's data, and these branches were mispredicted ~240 k times a run
                    // (docs/benchmarks.md, issue 43, lever 53). A lane that lost writes back
                    // what it read.
                    let old = Vec4::from_slice(d4);
                    let front = inside & z.cmplt(old);
                    if !F::WRITE_LOST && front.bitmask() == 0 {
                        continue;
                    }
                    Vec4::select(front, z, old).write_to_slice(d4);
                    let Ok(out4) = <&mut [P; 4]>::try_from(out4) else {
                        continue;
                    };
                    P::put_lanes4(out4, front.bitmask() as u8, lit);
                }
                return;
            }
        }
        let at = Scanned {
            c: [sx, sy],
            z: fz,
            top,
            last_y,
            last_x,
            y0,
            width,
        };
        fill.scanned(face, at, lit, depth, pixels);
    }
}
