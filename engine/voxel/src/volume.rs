//! Per-limb occupancy for the ray-marcher, built once from the decoded spans.
//!
//! Occupancy is dense and tiny: one bit per cell, stored as `ceil(zsize / 64)` `u64` words per
//! (x, y) column, so a 255^3 limb costs at most 2 MB whatever the file claims. Colours and normals
//! stay sparse: a column's voxels sit in file order (ascending z) and the voxel of a filled cell is
//! found in O(1) as `column_base + popcount(bits below z)`. The 3D DDA tests one bit per step.

use glam::Vec3;

use crate::vxl::Limb;

/// Occupancy masks and voxel data of one limb, in grid space: cell (x, y, z) covers
/// `[x, x + 1) x [y, y + 1) x [z, z + 1)`.
#[derive(Debug, Clone, PartialEq)]
pub struct LimbVolume {
    size: [usize; 3],
    words: usize,
    masks: Vec<u64>,
    base: Vec<u32>,
    /// (colour, normal) per voxel, column by column.
    data: Vec<[u8; 2]>,
}

/// A ray's first filled cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Ray parameter where the ray enters the cell.
    pub t: f32,
    pub cell: [usize; 3],
    pub colour: u8,
    pub normal: u8,
}

impl LimbVolume {
    /// Build from a decoded limb.
    pub fn from_limb(limb: &Limb) -> LimbVolume {
        let size = limb.size.map(|v| v as usize);
        let words = size[2].div_ceil(64);
        let columns = size[0] * size[1];
        let mut masks = vec![0u64; columns * words];
        let mut base = Vec::with_capacity(columns);
        let mut data = Vec::with_capacity(limb.voxels.len());
        for c in 0..columns {
            base.push(data.len() as u32);
            let col =
                &limb.voxels[limb.column_start[c] as usize..limb.column_start[c + 1] as usize];
            for v in col {
                let z = v.z as usize;
                // The decoder guarantees ascending, in-range z; a duplicate z could only come from a
                // hand-built limb, and then the first voxel wins.
                let m = &mut masks[c * words + z / 64];
                if *m & (1 << (z % 64)) == 0 {
                    *m |= 1 << (z % 64);
                    data.push([v.colour, v.normal]);
                }
            }
        }
        LimbVolume {
            size,
            words,
            masks,
            base,
            data,
        }
    }

    /// Size in cells.
    pub fn size(&self) -> [usize; 3] {
        self.size
    }

    /// Filled cells.
    pub fn voxel_count(&self) -> usize {
        self.data.len()
    }

    /// Whether cell (x, y, z) is filled (false outside).
    #[inline]
    pub fn occupied(&self, x: usize, y: usize, z: usize) -> bool {
        if x >= self.size[0] || y >= self.size[1] || z >= self.size[2] {
            return false;
        }
        let c = x + y * self.size[0];
        self.masks[c * self.words + z / 64] & (1 << (z % 64)) != 0
    }

    /// (colour, normal) of a filled cell.
    #[inline]
    pub fn voxel(&self, x: usize, y: usize, z: usize) -> Option<[u8; 2]> {
        if !self.occupied(x, y, z) {
            return None;
        }
        let c = x + y * self.size[0];
        let words = &self.masks[c * self.words..c * self.words + z / 64 + 1];
        let (last, before) = words.split_last()?;
        let below: u32 = before.iter().map(|w| w.count_ones()).sum::<u32>()
            + (last & ((1u64 << (z % 64)) - 1)).count_ones();
        self.data.get((self.base[c] + below) as usize).copied()
    }

    /// March a grid-space ray `origin + t * dir` for `t` in `[t_min, t_max]` with a 3D DDA
    /// (Amanatides & Woo) and return the first filled cell. Non-finite input misses.
    pub fn march(&self, origin: Vec3, dir: Vec3, t_min: f32, t_max: f32) -> Option<Hit> {
        if !(origin.is_finite() && dir.is_finite()) || self.data.is_empty() {
            return None;
        }
        let size = [
            self.size[0] as f32,
            self.size[1] as f32,
            self.size[2] as f32,
        ];
        let (o, d) = (origin.to_array(), dir.to_array());
        // Slab clip against the grid box.
        let (mut t0, mut t1) = (t_min, t_max);
        for a in 0..3 {
            if d[a] == 0.0 {
                if o[a] < 0.0 || o[a] >= size[a] {
                    return None;
                }
            } else {
                let inv = 1.0 / d[a];
                let (mut ta, mut tb) = ((0.0 - o[a]) * inv, (size[a] - o[a]) * inv);
                if ta > tb {
                    std::mem::swap(&mut ta, &mut tb);
                }
                t0 = t0.max(ta);
                t1 = t1.min(tb);
            }
        }
        if t0 > t1 || t0.is_nan() || t1.is_nan() {
            return None;
        }
        let mut cell = [0i64; 3];
        let mut step = [0i64; 3];
        let mut t_next = [f32::INFINITY; 3];
        let mut t_delta = [f32::INFINITY; 3];
        for a in 0..3 {
            let p = o[a] + d[a] * t0;
            cell[a] = (p.floor() as i64).clamp(0, self.size[a] as i64 - 1);
            if d[a] > 0.0 {
                step[a] = 1;
                t_delta[a] = 1.0 / d[a];
                t_next[a] = ((cell[a] + 1) as f32 - o[a]) / d[a];
            } else if d[a] < 0.0 {
                step[a] = -1;
                t_delta[a] = -1.0 / d[a];
                t_next[a] = (cell[a] as f32 - o[a]) / d[a];
            }
        }
        let mut t = t0;
        // Each step leaves one cell; a ray crosses at most x + y + z cells of the box.
        let max_steps = self.size[0] + self.size[1] + self.size[2] + 3;
        // Index of the cell's column words, kept up to date as x and y step.
        let col_stride = [self.words as i64, (self.size[0] * self.words) as i64, 0];
        let mut col = cell[0] * col_stride[0] + cell[1] * col_stride[1];
        for _ in 0..max_steps {
            let (x, y, z) = (cell[0] as usize, cell[1] as usize, cell[2] as usize);
            // The cell is inside the box here: test its bit directly, rank only on a hit.
            let bit = self.masks[col as usize + z / 64] >> (z % 64);
            if bit & 1 == 0 {
                // empty: fall through to the next step
            } else if let Some([colour, normal]) = self.voxel(x, y, z) {
                return Some(Hit {
                    t,
                    cell: [x, y, z],
                    colour,
                    normal,
                });
            }
            let a = if t_next[0] < t_next[1] {
                if t_next[0] < t_next[2] {
                    0
                } else {
                    2
                }
            } else if t_next[1] < t_next[2] {
                1
            } else {
                2
            };
            t = t_next[a];
            if t > t1 {
                return None;
            }
            cell[a] += step[a];
            if cell[a] < 0 || cell[a] >= self.size[a] as i64 {
                return None;
            }
            col += step[a] * col_stride[a];
            t_next[a] += t_delta[a];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vxl::decode;
    use crate::write::{LimbSpec, VxlSpec};
    use proptest::prelude::*;

    fn volume(spec: LimbSpec) -> LimbVolume {
        let v = decode(&VxlSpec::single(spec).encode()).unwrap();
        LimbVolume::from_limb(&v.limbs[0])
    }

    #[test]
    fn lookup_finds_each_voxel_across_words() {
        let mut l = LimbSpec::empty([2, 2, 130]);
        l.voxels = vec![
            (0, 0, 0, 1, 2),
            (0, 0, 63, 3, 4),
            (0, 0, 64, 5, 6),
            (1, 1, 129, 7, 8),
        ];
        let v = volume(l);
        assert_eq!(v.voxel_count(), 4);
        assert_eq!(v.voxel(0, 0, 0), Some([1, 2]));
        assert_eq!(v.voxel(0, 0, 63), Some([3, 4]));
        assert_eq!(v.voxel(0, 0, 64), Some([5, 6]));
        assert_eq!(v.voxel(1, 1, 129), Some([7, 8]));
        assert_eq!(v.voxel(1, 1, 128), None);
        assert_eq!(v.voxel(9, 0, 0), None);
    }

    #[test]
    fn ray_along_an_axis_hits_the_first_filled_cell() {
        let mut l = LimbSpec::empty([5, 1, 1]);
        l.voxels = vec![(3, 0, 0, 9, 1), (4, 0, 0, 8, 1)];
        let v = volume(l);
        let hit = v
            .march(Vec3::new(-2.0, 0.5, 0.5), Vec3::X, 0.0, 100.0)
            .unwrap();
        assert_eq!(hit.cell, [3, 0, 0]);
        assert!((hit.t - 5.0).abs() < 1e-5);
        assert_eq!(hit.colour, 9);
        // Backwards from the far side finds the other one.
        let hit = v
            .march(Vec3::new(7.0, 0.5, 0.5), -Vec3::X, 0.0, 100.0)
            .unwrap();
        assert_eq!(hit.cell, [4, 0, 0]);
        // Misses: beside the box, too short, NaN.
        assert!(v
            .march(Vec3::new(-2.0, 1.5, 0.5), Vec3::X, 0.0, 100.0)
            .is_none());
        assert!(v
            .march(Vec3::new(-2.0, 0.5, 0.5), Vec3::X, 0.0, 4.0)
            .is_none());
        assert!(v
            .march(Vec3::new(f32::NAN, 0.5, 0.5), Vec3::X, 0.0, 9.0)
            .is_none());
    }

    proptest! {
        /// The DDA agrees with brute force: sample the ray finely and take the first filled cell.
        #[test]
        fn dda_matches_dense_sampling(
            seed in proptest::collection::vec((0u8..9, 0u8..9, 0u8..9), 1..24),
            o in (-3.0f32..12.0, -3.0f32..12.0, -3.0f32..12.0),
            d in (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
            tall in any::<bool>(),
        ) {
            // Tall limbs stretch z by 20 so columns span three occupancy words.
            let zk: u8 = if tall { 20 } else { 1 };
            let zf = zk as f32;
            let dir = Vec3::new(d.0, d.1, d.2);
            prop_assume!(dir.length() > 0.2);
            let dir = dir.normalize();
            let mut l = LimbSpec::empty([9, 9, 9 * zk]);
            l.voxels = seed.iter().map(|&(x, y, z)| (x, y, z * zk, 1, 0)).collect();
            let v = volume(l);
            let origin = Vec3::new(o.0, o.1, o.2 * zf);
            let dir = (dir * Vec3::new(1.0, 1.0, zf)).normalize();
            let t_max = 30.0 * zf;
            let hit = v.march(origin, dir, 0.0, t_max);
            let mut brute = None;
            for i in 0..(15_000 * zk as usize) {
                let t = i as f32 * 0.002;
                let p = origin + dir * t;
                if p.min_element() < 0.0 || p.x >= 9.0 || p.y >= 9.0 || p.z >= 9.0 * zf {
                    continue;
                }
                if v.occupied(p.x as usize, p.y as usize, p.z as usize) {
                    brute = Some(t);
                    break;
                }
            }
            match (hit, brute) {
                (Some(h), Some(b)) => prop_assert!((h.t - b).abs() < 0.01, "{h:?} vs {b}"),
                (None, None) => {}
                // A ray grazing an edge may be caught by one method and not the other.
                (Some(h), None) => prop_assert!(h.t > t_max - 0.01 || grazing(origin, dir, h.t)),
                (None, Some(b)) => prop_assert!(grazing(origin, dir, b)),
            }
        }
    }

    /// The point is near a cell edge: the entry point always lies on one face, so grazing means a
    /// second coordinate is within tolerance of a cell boundary too.
    fn grazing(o: Vec3, d: Vec3, t: f32) -> bool {
        let p = o + d * t;
        p.to_array()
            .iter()
            .filter(|c| (*c - c.round()).abs() < 0.01)
            .count()
            >= 2
    }
}
