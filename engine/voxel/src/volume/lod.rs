//! Levels of detail: coarser copies of a limb, built once at load, that a draw uses where the
//! limb's cells are far below a pixel on screen (the choice is `render/lod.rs`).
//!
//! Level `L` (`L` = 1, 2) has cells `f = 2^L` fine cells wide along each axis: coarse cell
//! `(X, Y, Z)` covers the fine cells `[fX, fX + f) x [fY, fY + f) x [fZ, fZ + f)` (clipped to the
//! limb), so its grid-to-world matrix is the fine one times a scale of `f` and nothing else moves.
//! The rule for one coarse cell, from the fine cells it covers:
//!
//! - **filled** when at least `1 / f` of those fine cells are filled (a face's worth, `f^2` of
//!   `f^3`): a hull one fine cell thick (real units are hollow shells) stays closed at every level,
//!   while a solid's outline moves out by at most `f / 2 - 1` fine cells on average (none at 2x,
//!   where this is the half-volume rule), not the `f - 1` of "any fine cell filled". A rule of
//!   "half the volume" was measured first and dropped: at 4x it emptied every one-cell shell;
//! - **colour** and **normal**: each the most common value among its filled fine cells that have
//!   a face towards an empty cell (the voxels a player could see), or among all its filled fine
//!   cells when none has; ties go to the smaller index. The normal stays an index into the
//!   model's own normal table, so shading reads the same table at every level.
//!
//! Each level is an ordinary [`LimbVolume`] (masks, distance field, surface), so the marcher and
//! the splats draw it unchanged. Work and memory: one pass over the fine limb's filled voxels per
//! level, and at most an eighth of the fine masks.

use modex_vxl::{Limb, Voxel};

use super::LimbVolume;

/// The coarse levels built per limb: cells 2 and 4 fine cells wide.
pub(crate) const LOD_FACTORS: [usize; 2] = [2, 4];

/// One fine voxel as the coarsening reads it: its coarse z, whether it is hidden (no face
/// towards an empty cell; sorts after the visible ones), its colour and normal.
type FineVoxel = (u8, bool, u8, u8);

impl LimbVolume {
    /// The volume whose cells are `factor` fine cells wide along each axis, by the rule of the
    /// module docs. `factor` is at least 2.
    pub(crate) fn coarsened(&self, factor: usize) -> LimbVolume {
        let f = factor.max(2);
        let size = self.size;
        let coarse = size.map(|s| s.div_ceil(f));
        let mut column_start = Vec::with_capacity(coarse[0] * coarse[1] + 1);
        let mut voxels = Vec::new();
        let mut fine: Vec<FineVoxel> = Vec::new();
        let mut scratch = Vec::new();
        let span = |c: usize, a: usize| c * f..((c + 1) * f).min(size[a]);
        for cy in 0..coarse[1] {
            for cx in 0..coarse[0] {
                column_start.push(voxels.len() as u32);
                fine.clear();
                for y in span(cy, 1) {
                    for x in span(cx, 0) {
                        self.push_column(x, y, f, &mut fine);
                    }
                }
                if fine.is_empty() {
                    continue;
                }
                fine.sort_unstable();
                let columns = span(cx, 0).len() * span(cy, 1).len();
                for group in fine.chunk_by(|a, b| a.0 == b.0) {
                    let cz = group[0].0 as usize;
                    let cells = columns * span(cz, 2).len();
                    if group.len() * f < cells {
                        continue;
                    }
                    // Visible voxels sort first; use them when there are any.
                    let visible = group.iter().take_while(|v| !v.1).count();
                    let seen = if visible > 0 {
                        &group[..visible]
                    } else {
                        group
                    };
                    voxels.push(Voxel {
                        z: cz as u8,
                        colour: most_common(seen.iter().map(|v| v.2), &mut scratch),
                        normal: most_common(seen.iter().map(|v| v.3), &mut scratch),
                    });
                }
            }
        }
        column_start.push(voxels.len() as u32);
        // A limb is at most 255 cells along each axis, so the coarse sizes fit a byte.
        let limb = Limb {
            name: String::new(),
            info_index: 0,
            scale: 1.0,
            transform: [0.0; 12],
            min: glam::Vec3::ZERO,
            max: glam::Vec3::ZERO,
            size: coarse.map(|s| s.min(255) as u8),
            normals_mode: 0,
            column_start,
            voxels,
        };
        LimbVolume::from_limb(&limb)
    }

    /// Push every filled voxel of fine column (x, y) onto `out`, as its coarse z (cells `f` wide),
    /// whether it is hidden, its colour and normal.
    fn push_column(&self, x: usize, y: usize, f: usize, out: &mut Vec<FineVoxel>) {
        let c = x + y * self.size[0];
        let mut rank = self.base[c] as usize;
        for w in 0..self.words {
            let mut bits = self.masks[c * self.words + w];
            while bits != 0 {
                let z = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let Some(&[colour, normal]) = self.data.get(rank) else {
                    return;
                };
                rank += 1;
                out.push(((z / f) as u8, !self.has_open_face(x, y, z), colour, normal));
            }
        }
    }

    /// Whether a filled cell has an empty neighbour across one of its six faces (cells outside the
    /// limb are empty).
    fn has_open_face(&self, x: usize, y: usize, z: usize) -> bool {
        let p = [x, y, z];
        (0..3).any(|a| {
            let mut lo = p;
            let mut hi = p;
            hi[a] += 1;
            let below_empty = p[a] == 0 || {
                lo[a] -= 1;
                !self.occupied(lo[0], lo[1], lo[2])
            };
            below_empty || !self.occupied(hi[0], hi[1], hi[2])
        })
    }
}

/// The most common of `values` (the smallest on a tie); 0 for none.
fn most_common(values: impl Iterator<Item = u8>, scratch: &mut Vec<u8>) -> u8 {
    scratch.clear();
    scratch.extend(values);
    scratch.sort_unstable();
    let (mut best, mut best_run) = (0u8, 0usize);
    for run in scratch.chunk_by(|a, b| a == b) {
        if run.len() > best_run {
            (best, best_run) = (run[0], run.len());
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::super::test_volume as volume;
    use modex_vxl::encode::LimbSpec;

    #[test]
    fn a_solid_block_coarsens_to_a_solid_block() {
        let mut l = LimbSpec::empty([8, 8, 8]);
        for x in 0..8 {
            for y in 0..8 {
                for z in 0..8 {
                    l.voxels.push((x, y, z, 7, 3));
                }
            }
        }
        let v = volume(l);
        let c2 = v.coarsened(2);
        assert_eq!(c2.size(), [4, 4, 4]);
        assert_eq!(c2.voxel_count(), 64);
        assert_eq!(c2.voxel(3, 3, 3), Some([7, 3]));
        let c4 = v.coarsened(4);
        assert_eq!(c4.size(), [2, 2, 2]);
        assert_eq!(c4.voxel_count(), 8);
    }

    #[test]
    fn a_one_cell_shell_stays_closed_at_4x() {
        let mut l = LimbSpec::empty([16, 16, 16]);
        for x in 0..16u8 {
            for y in 0..16u8 {
                l.voxels.push((x, y, 0, 2, 0));
            }
        }
        let c = volume(l).coarsened(4);
        // The plane is a quarter of each 4x4x4 block: every block of the bottom layer fills.
        assert_eq!(c.voxel_count(), 16);
        assert!((0..16).all(|i| c.voxel(i % 4, i / 4, 0) == Some([2, 0])));
    }

    #[test]
    fn a_cell_is_filled_from_a_faces_worth_of_fine_cells_and_takes_their_visible_majority() {
        let mut l = LimbSpec::empty([4, 4, 2]);
        // Coarse cell (0, 0, 0): 4 of 8 filled, three of colour 5 and one of colour 9.
        l.voxels = vec![
            (0, 0, 0, 5, 1),
            (1, 0, 0, 5, 1),
            (0, 1, 0, 5, 2),
            (1, 1, 0, 9, 2),
            // Coarse cell (1, 0, 0): 3 of 8, stays empty.
            (2, 0, 0, 4, 1),
            (3, 0, 0, 4, 1),
            (2, 1, 0, 4, 1),
        ];
        let c = volume(l).coarsened(2);
        assert_eq!(c.size(), [2, 2, 1]);
        // Normals 1 and 2 tie twice each: the smaller wins.
        assert_eq!(c.voxel(0, 0, 0), Some([5, 1]));
        assert_eq!(c.voxel(1, 0, 0), None);
        assert_eq!(c.voxel_count(), 1);
    }

    #[test]
    fn hidden_voxels_do_not_colour_a_cell_that_has_visible_ones() {
        // A 4x4x4 solid of colour 1 with its inner 2x2x2 core coloured 2: every coarse cell
        // covers one core voxel (hidden) and seven shell voxels (visible).
        let mut l = LimbSpec::empty([4, 4, 4]);
        for x in 0..4u8 {
            for y in 0..4u8 {
                for z in 0..4u8 {
                    let core = (1..3).contains(&x) && (1..3).contains(&y) && (1..3).contains(&z);
                    l.voxels.push((x, y, z, if core { 2 } else { 1 }, 0));
                }
            }
        }
        let c = volume(l).coarsened(2);
        assert_eq!(c.voxel_count(), 8);
        assert!((0..8).all(|i| c.voxel(i & 1, (i >> 1) & 1, i >> 2) == Some([1, 0])));
    }

    #[test]
    fn odd_sizes_clip_the_last_cells() {
        // 5 cells along x: the last coarse cell at 2x covers one fine column of two cells.
        let mut l = LimbSpec::empty([5, 1, 1]);
        l.voxels = vec![(4, 0, 0, 3, 0)];
        let c = volume(l).coarsened(2);
        assert_eq!(c.size(), [3, 1, 1]);
        assert_eq!(c.voxel(2, 0, 0), Some([3, 0]));
        assert_eq!(c.voxel_count(), 1);
    }
}
