//! An HMP7 terrain writer, so the project can ship terrain it generated itself (the demo's
//! battlefield) and tests can round-trip terrain through the real decoder.
//!
//! It writes what [`crate::hmp`] reads: the 84-byte header, one 8-bit index skin (type 0, no flags),
//! and one word-packed height frame of `u16 height, i8 nx, i8 ny` vertices. Heights are quantised to
//! 16 bits between the lowest and highest point (`z = scale_z * raw + offset_z`), and the normal's x
//! is stored negated, matching the real HMP7 files (see the decoder's notes).

use glam::Vec3;

use crate::mdl_encode::{put_f32, put_i32};

/// A terrain to write: a grid of heights, row-major, row 0 first.
#[derive(Debug, Clone, PartialEq)]
pub struct HmpSpec {
    /// Grid points per row.
    pub columns: usize,
    /// Grid rows.
    pub rows: usize,
    /// World height of every grid point.
    pub heights: Vec<f32>,
    /// Distance between grid columns (x) and rows (y).
    pub cell: [f32; 2],
    /// World position of grid point (0, 0).
    pub origin: [f32; 2],
    /// Width of the one 8-bit skin covering the whole terrain.
    pub skin_width: u32,
    /// Height of the skin.
    pub skin_height: u32,
    /// The skin's palette indices, row-major, top row first.
    pub skin: Vec<u8>,
}

impl HmpSpec {
    fn height(&self, col: usize, row: usize) -> f32 {
        let c = col.min(self.columns - 1);
        let r = row.min(self.rows - 1);
        self.heights[r * self.columns + c]
    }

    /// Unit normal at a grid point from central differences of the heights.
    pub fn normal(&self, col: usize, row: usize) -> Vec3 {
        let dx = (self.height(col + 1, row) - self.height(col.saturating_sub(1), row))
            / (self.cell[0]
                * ((col + 1).min(self.columns - 1) - col.saturating_sub(1)).max(1) as f32);
        let dy = (self.height(col, row + 1) - self.height(col, row.saturating_sub(1)))
            / (self.cell[1] * ((row + 1).min(self.rows - 1) - row.saturating_sub(1)).max(1) as f32);
        Vec3::new(-dx, -dy, 1.0).normalize()
    }

    /// The HMP7 file's bytes. Panics if `heights` or `skin` do not match the declared sizes (a bug in
    /// the caller, not bad input).
    pub fn encode(&self) -> Vec<u8> {
        assert_eq!(self.heights.len(), self.columns * self.rows);
        assert_eq!(
            self.skin.len(),
            (self.skin_width * self.skin_height) as usize
        );
        let lo = self.heights.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = self
            .heights
            .iter()
            .copied()
            .fold(f32::NEG_INFINITY, f32::max);
        let scale_z = ((hi - lo) / 65535.0).max(1e-6);
        let mut out = Vec::new();
        out.extend_from_slice(b"HMP7");
        put_i32(&mut out, 0); // nu1
        for v in [1.0, 1.0, scale_z] {
            put_f32(&mut out, v);
        }
        for v in [self.origin[0], self.origin[1], lo] {
            put_f32(&mut out, v);
        }
        put_f32(&mut out, 0.0); // nu6
        put_f32(&mut out, self.cell[0]);
        put_f32(&mut out, self.cell[1]);
        put_f32(&mut out, self.columns as f32);
        for v in [1, 0, 0, self.columns * self.rows, 0, 1, 0, 0, 0] {
            // numskins nu8 nu9 numverts nu10 numframes nu11 flags nu12
            put_i32(&mut out, v as i32);
        }
        put_i32(&mut out, 0);
        put_i32(&mut out, self.skin_width as i32);
        put_i32(&mut out, self.skin_height as i32);
        out.extend_from_slice(&self.skin);
        // Frame header: type 2, two 8-byte boxes (left zero: the decoder derives the box), name.
        put_i32(&mut out, 2);
        out.extend_from_slice(&[0u8; 16]);
        let mut name = [0u8; 16];
        name[..6].copy_from_slice(b"height");
        out.extend_from_slice(&name);
        for row in 0..self.rows {
            for col in 0..self.columns {
                let raw = ((self.height(col, row) - lo) / scale_z)
                    .round()
                    .clamp(0.0, 65535.0) as u16;
                let n = self.normal(col, row);
                out.extend_from_slice(&raw.to_le_bytes());
                out.push((-n.x * 127.0).round() as i8 as u8);
                out.push((n.y * 127.0).round() as i8 as u8);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hmp::HmpFile;

    #[test]
    fn round_trips_through_the_decoder() {
        let (columns, rows) = (5, 4);
        let heights: Vec<f32> = (0..rows * columns)
            .map(|i| ((i % columns) as f32 * 2.0) - (i / columns) as f32)
            .collect();
        let spec = HmpSpec {
            columns,
            rows,
            heights: heights.clone(),
            cell: [8.0, 6.0],
            origin: [-16.0, -9.0],
            skin_width: 2,
            skin_height: 2,
            skin: vec![1, 2, 3, 4],
        };
        let file = HmpFile::parse(&spec.encode()).unwrap();
        assert_eq!((file.columns, file.rows), (columns, rows));
        let f = &file.model.frames[0];
        for row in 0..rows {
            for col in 0..columns {
                let p = f.positions[row * columns + col];
                let want = Vec3::new(
                    -16.0 + col as f32 * 8.0,
                    -9.0 + row as f32 * 6.0,
                    heights[row * columns + col],
                );
                assert!((p - want).length() < 1e-3, "{p} vs {want}");
                // Slope: +2 per 8 units in x, -1 per 6 in y.
                let n = f.normals[row * columns + col];
                let expect = Vec3::new(-0.25, 1.0 / 6.0, 1.0).normalize();
                assert!(n.dot(expect) > 0.999, "{n} vs {expect}");
            }
        }
        assert_eq!(file.model.triangles.len(), 2 * (columns - 1) * (rows - 1));
    }
}
