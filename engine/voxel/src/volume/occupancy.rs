//! Occupancy: which cells of a limb are filled, one bit per cell, the voxel (colour, normal) of a
//! filled cell, and the distance field that lets rays skip empty space.

use super::LimbVolume;

/// Largest occupied box (in cells) that gets a distance field: 4 MB of `u8`. Real units are far
/// below it (hmec's largest limb has a few ten thousand cells); a hostile 255^3 file is not.
pub(super) const DIST_MAX_CELLS: usize = 1 << 22;

impl LimbVolume {
    /// Index of cell (x, y, z) of the occupied box in [`LimbVolume::dist`]: z fastest, then x,
    /// then y.
    #[inline]
    pub(super) fn dist_index(&self, x: usize, y: usize, z: usize) -> usize {
        let b = self.box_size();
        ((x - self.lo[0]) + (y - self.lo[1]) * b[0]) * b[2] + (z - self.lo[2])
    }

    /// Chebyshev distance transform of the occupied box: two raster passes of the 3x3x3 chamfer
    /// with unit weights (forward over the 13 neighbours already visited, backward over the other
    /// 13), which is exact for the chessboard metric.
    pub(super) fn distance_field(&self) -> Vec<u8> {
        let b = self.box_size();
        let n = b[0] * b[1] * b[2];
        if n == 0 || n > DIST_MAX_CELLS {
            return Vec::new();
        }
        let mut f = vec![u8::MAX; n];
        for y in self.lo[1]..self.hi[1] {
            for x in self.lo[0]..self.hi[0] {
                for z in self.lo[2]..self.hi[2] {
                    if self.occupied(x, y, z) {
                        f[self.dist_index(x, y, z)] = 0;
                    }
                }
            }
        }
        let (bx, by, bz) = (b[0] as isize, b[1] as isize, b[2] as isize);
        // Neighbours before a cell in index order (y, then x, then z ascending).
        let mut before = Vec::with_capacity(13);
        for dy in -1..=1isize {
            for dx in -1..=1isize {
                for dz in -1..=1isize {
                    if (dy, dx, dz) < (0, 0, 0) {
                        before.push((dx, dy, dz));
                    }
                }
            }
        }
        let mut relax = |x: isize, y: isize, z: isize, sign: isize| {
            let i = ((x + y * bx) * bz + z) as usize;
            let mut m = f[i];
            for &(dx, dy, dz) in &before {
                let (nx, ny, nz) = (x + sign * dx, y + sign * dy, z + sign * dz);
                if (0..bx).contains(&nx) && (0..by).contains(&ny) && (0..bz).contains(&nz) {
                    m = m.min(f[((nx + ny * bx) * bz + nz) as usize].saturating_add(1));
                }
            }
            f[i] = m;
        };
        for y in 0..by {
            for x in 0..bx {
                for z in 0..bz {
                    relax(x, y, z, 1);
                }
            }
        }
        for y in (0..by).rev() {
            for x in (0..bx).rev() {
                for z in (0..bz).rev() {
                    relax(x, y, z, -1);
                }
            }
        }
        f
    }

    /// Distance from cell (x, y, z) of the occupied box to the nearest filled cell, in cells
    /// (Chebyshev), capped at 255; `None` for limbs without a distance field.
    #[cfg(test)]
    pub(crate) fn distance(&self, x: usize, y: usize, z: usize) -> Option<u8> {
        let p = [x, y, z];
        if self.dist.is_empty() || (0..3).any(|a| p[a] < self.lo[a] || p[a] >= self.hi[a]) {
            return None;
        }
        Some(self.dist[self.dist_index(x, y, z)])
    }

    /// Whether cell (x, y, z) is filled (false outside).
    #[inline]
    pub fn occupied(&self, x: usize, y: usize, z: usize) -> bool {
        if x >= self.size[0] || y >= self.size[1] || z >= self.size[2] {
            return false;
        }
        self.bit(x, y, z)
    }

    /// The occupancy bit of a cell known to lie inside the limb (the marcher's cells always do).
    #[inline(always)]
    pub(super) fn bit(&self, x: usize, y: usize, z: usize) -> bool {
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
}

#[cfg(test)]
mod tests {
    use super::super::test_volume as volume;
    use modex_vxl::encode::LimbSpec;
    use proptest::prelude::*;

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

    proptest! {
        /// The distance field is the Chebyshev distance to the nearest filled cell, by brute force.
        #[test]
        fn distance_field_is_exact(
            seed in proptest::collection::vec((0u8..7, 0u8..6, 0u8..9), 1..12),
        ) {
            let mut l = LimbSpec::empty([7, 6, 9]);
            l.voxels = seed.iter().map(|&(x, y, z)| (x, y, z, 1, 0)).collect();
            let v = volume(l);
            let (lo, hi) = v.bounds();
            for x in lo[0]..hi[0] {
                for y in lo[1]..hi[1] {
                    for z in lo[2]..hi[2] {
                        let want = seed
                            .iter()
                            .map(|&(a, b, c)| {
                                (a as usize).abs_diff(x).max((b as usize).abs_diff(y)).max((c as usize).abs_diff(z))
                            })
                            .min()
                            .unwrap();
                        prop_assert_eq!(v.distance(x, y, z), Some(want as u8));
                    }
                }
            }
        }
    }
}
