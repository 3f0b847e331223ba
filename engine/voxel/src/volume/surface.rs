//! The surface of a limb: the voxels a splat can show, those with a face towards an empty cell
//! that light from outside the occupied box reaches, with everything a splat reads about them in
//! four bytes, column by column, so a draw walks neither the masks nor the hidden interior.

use super::occupancy::DIST_MAX_CELLS;
use super::LimbVolume;

/// A voxel with at least one open face, as the splat reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SurfaceVoxel {
    /// Its z in the column (limbs are at most 255 cells along each axis).
    pub z: u8,
    pub colour: u8,
    pub normal: u8,
    /// Its faces whose neighbour cell is empty: bit `2a` for the face towards -axis `a`, `2a + 1`
    /// towards +axis `a`. A voxel none of whose open faces looks at the camera is hidden by its
    /// own neighbours, so the splat skips it.
    pub open: u8,
}

/// How many surface columns a side of a [`SurfaceBrick`] spans, as a shift: 4 x 4 columns.
pub(crate) const BRICK_SHIFT: usize = 2;

/// The box of the surface voxels of a brick of 4 x 4 (x, y) columns ([`BRICK_SHIFT`]): the
/// least and greatest cell coordinates along each axis of any of them (inclusive), so a voxel
/// test of the whole box answers for every voxel of those columns at once (`render::splat`).
/// A brick with no surface voxel is `EMPTY_BRICK` (never asked about: the walk visits only
/// columns with surface voxels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SurfaceBrick {
    pub lo: [u8; 3],
    pub hi: [u8; 3],
}

/// A brick holding no surface voxel (`lo` above `hi`).
const EMPTY_BRICK: SurfaceBrick = SurfaceBrick {
    lo: [u8::MAX; 3],
    hi: [0; 3],
};

/// One column's run of [`SurfaceVoxel`]s (ascending z).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SurfaceColumn {
    x: u8,
    y: u8,
    start: u32,
    end: u32,
}

impl LimbVolume {
    /// The surface voxels and their columns (see [`LimbVolume::surface`]), from the masks: each
    /// filled cell's six neighbours tested once at load.
    pub(super) fn build_surface(&mut self) {
        let outside = self.outside_cells();
        // A neighbour cell shows the face between them when it is empty and light from outside
        // the box can reach it: cells outside the occupied box always, cells inside it when the
        // flood fill reached them (or when the box was too large to fill).
        let shows = |n: [usize; 3]| {
            if self.occupied(n[0], n[1], n[2]) {
                return false;
            }
            let Some(outside) = &outside else {
                return true;
            };
            if (0..3).any(|a| n[a] < self.lo[a] || n[a] >= self.hi[a]) {
                return true;
            }
            let i = self.dist_index(n[0], n[1], n[2]);
            outside
                .get(i / 64)
                .is_some_and(|w| w & (1 << (i % 64)) != 0)
        };
        let (mut surface, mut columns) = (Vec::new(), Vec::new());
        for y in 0..self.size[1] {
            for x in 0..self.size[0] {
                let c = x + y * self.size[0];
                let start = surface.len();
                let mut rank = self.base[c] as usize;
                for w in 0..self.words {
                    let mut bits = self.masks[c * self.words + w];
                    while bits != 0 {
                        let z = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let p = [x, y, z];
                        let mut open = 0u8;
                        for a in 0..3 {
                            let mut n = p;
                            let below = p[a] == 0 || {
                                n[a] = p[a] - 1;
                                shows(n)
                            };
                            n = p;
                            n[a] = p[a] + 1;
                            let above = shows(n);
                            open |= (below as u8) << (2 * a) | (above as u8) << (2 * a + 1);
                        }
                        let [colour, normal] = self.data[rank];
                        rank += 1;
                        // Sizes come from u8 fields, so every coordinate fits a u8.
                        if open != 0 {
                            surface.push(SurfaceVoxel {
                                z: z as u8,
                                colour,
                                normal,
                                open,
                            });
                        }
                    }
                }
                if surface.len() > start {
                    columns.push(SurfaceColumn {
                        x: x as u8,
                        y: y as u8,
                        start: start as u32,
                        end: surface.len() as u32,
                    });
                }
            }
        }
        self.bricks_across = self.size[0].div_ceil(1 << BRICK_SHIFT);
        let down = self.size[1].div_ceil(1 << BRICK_SHIFT);
        self.bricks = vec![EMPTY_BRICK; self.bricks_across * down];
        for c in &columns {
            let run = &surface[c.start as usize..c.end as usize];
            let (Some(first), Some(last)) = (run.first(), run.last()) else {
                continue;
            };
            let i = usize::from(c.y >> BRICK_SHIFT) * self.bricks_across
                + usize::from(c.x >> BRICK_SHIFT);
            let b = &mut self.bricks[i];
            for (a, (lo, hi)) in [(c.x, c.x), (c.y, c.y), (first.z, last.z)]
                .into_iter()
                .enumerate()
            {
                b.lo[a] = b.lo[a].min(lo);
                b.hi[a] = b.hi[a].max(hi);
            }
        }
        self.surface = surface;
        self.surface_columns = columns;
    }

    /// The brick of surface columns holding column (`x`, `y`) ([`SurfaceBrick`]), `None` outside
    /// the limb.
    #[inline]
    pub(crate) fn surface_brick(&self, x: usize, y: usize) -> Option<&SurfaceBrick> {
        let across = self.bricks_across;
        let (bx, by) = (x >> BRICK_SHIFT, y >> BRICK_SHIFT);
        if bx >= across {
            return None;
        }
        self.bricks.get(by * across + bx)
    }

    /// The empty cells of the occupied box that a ray from outside the box can reach, one bit
    /// per cell in [`LimbVolume::dist_index`] order: a flood fill (6-connected, each cell queued
    /// once) from the empty cells on the box's sides. `None` above [`DIST_MAX_CELLS`] cells.
    ///
    /// Why: VXL units are hollow shells, and the inner sides of their far walls face the camera
    /// through the hollow. A ray's cells before its first hit are empty and 6-connected (the DDA
    /// steps one axis at a time) from its entry into the box, so the face it enters its first hit
    /// through always borders a cell reached here; faces on enclosed cavities can never be the
    /// nearest, and the splat need not draw them.
    fn outside_cells(&self) -> Option<Vec<u64>> {
        let b = self.box_size();
        let n = b[0] * b[1] * b[2];
        if n == 0 || n > DIST_MAX_CELLS {
            return None;
        }
        let mut reached = vec![0u64; n.div_ceil(64)];
        // Cells to spread from, packed as x | y << 8 | z << 16 (sizes are u8 fields): 4 bytes
        // a cell, each cell queued at most once.
        let mut queue: Vec<u32> = Vec::new();
        let visit = |p: [usize; 3], reached: &mut Vec<u64>, queue: &mut Vec<u32>| {
            if self.bit(p[0], p[1], p[2]) {
                return;
            }
            let i = self.dist_index(p[0], p[1], p[2]);
            if let Some(w) = reached.get_mut(i / 64) {
                if *w & (1 << (i % 64)) == 0 {
                    *w |= 1 << (i % 64);
                    queue.push((p[0] | p[1] << 8 | p[2] << 16) as u32);
                }
            }
        };
        let (lo, hi) = (self.lo, self.hi);
        for y in lo[1]..hi[1] {
            for x in lo[0]..hi[0] {
                for z in lo[2]..hi[2] {
                    let p = [x, y, z];
                    if (0..3).any(|a| p[a] == lo[a] || p[a] + 1 == hi[a]) {
                        visit(p, &mut reached, &mut queue);
                    }
                }
            }
        }
        while let Some(packed) = queue.pop() {
            let p = [0, 8, 16].map(|shift| (packed >> shift) as usize & 0xff);
            for a in 0..3 {
                if p[a] > lo[a] {
                    let mut q = p;
                    q[a] -= 1;
                    visit(q, &mut reached, &mut queue);
                }
                if p[a] + 1 < hi[a] {
                    let mut q = p;
                    q[a] += 1;
                    visit(q, &mut reached, &mut queue);
                }
            }
        }
        Some(reached)
    }

    /// The normal indices (bit `i % 64` of word `i / 64`) of the surface voxels with an open
    /// face among `faces` (bits as [`SurfaceVoxel::open`]): the only voxels a splat showing
    /// those faces shades. All six faces give every surface voxel's normal.
    pub(crate) fn normals_facing(&self, faces: u8) -> [u64; 4] {
        let mut set = [0u64; 4];
        for (f, s) in self.face_normals.iter().enumerate() {
            if faces & (1 << f) != 0 {
                for (w, &bits) in set.iter_mut().zip(s) {
                    *w |= bits;
                }
            }
        }
        set
    }

    /// How many columns hold surface voxels, and how many surface voxels there are: what a
    /// splat of the limb walks per band it touches, and what it draws (the band count's cost
    /// estimate, `render::march`).
    pub(crate) fn surface_size(&self) -> (usize, usize) {
        (self.surface_columns.len(), self.surface.len())
    }

    /// Every column holding surface voxels (at least one open face), as `(x, y, voxels)` with
    /// the column's surface voxels in ascending z, y outer and x inner: the splat's walk over the
    /// limb, each voxel it may show once.
    #[inline]
    pub(crate) fn surface_columns(&self) -> impl Iterator<Item = (usize, usize, &[SurfaceVoxel])> {
        self.surface_columns.iter().map(|c| {
            let run = self
                .surface
                .get(c.start as usize..c.end as usize)
                .unwrap_or(&[]);
            (usize::from(c.x), usize::from(c.y), run)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_volume as volume;
    use super::*;
    use modex_vxl::encode::LimbSpec;
    use proptest::prelude::*;

    /// Surface voxels: a sealed hollow box shows only its outer faces; a hole in one wall lets
    /// the inside faces show too (they are reachable from outside the box).
    #[test]
    fn faces_on_sealed_cavities_are_not_open() {
        let shell = |hole: bool| {
            let mut l = LimbSpec::filled_box([6, 6, 6], 1, 0);
            l.voxels.retain(|v| {
                let wall = [v.0, v.1, v.2].iter().any(|&c| c == 0 || c == 5);
                wall && !(hole && v.0 == 0 && v.1 == 2 && v.2 == 2)
            });
            volume(l)
        };
        let open_faces = |v: &LimbVolume| {
            v.surface_columns()
                .flat_map(|(x, y, col)| col.iter().map(move |s| (x, y, s.z, s.open)))
                .collect::<Vec<_>>()
        };
        let sealed = shell(false);
        // Every wall voxel has an outer face; none has a face towards the hollow.
        let faces = open_faces(&sealed);
        assert_eq!(faces.len(), sealed.voxel_count());
        for &(x, y, z, open) in &faces {
            for (a, p) in [x, y, z as usize].into_iter().enumerate() {
                let inward = match p {
                    0 => 1 << (2 * a + 1),
                    5 => 1 << (2 * a),
                    _ => 0,
                };
                assert_eq!(open & inward, 0, "({x}, {y}, {z}) {open:06b}");
            }
        }
        let holed = shell(true);
        // The wall voxel opposite the hole shows its face towards the hollow.
        let far = open_faces(&holed)
            .into_iter()
            .find(|&(x, y, z, _)| (x, y, z) == (5, 2, 2))
            .unwrap();
        assert_ne!(far.3 & 1, 0, "{:06b}", far.3);
    }

    proptest! {
        /// A brick's box is the least box holding the surface voxels of its columns: each of
        /// them lies in it, and each of its sides touches one of them.
        #[test]
        fn a_brick_is_the_box_of_its_columns_surface(
            seed in proptest::collection::vec((0u8..11, 0u8..9, 0u8..7), 1..150),
        ) {
            let mut l = LimbSpec::empty([11, 9, 7]);
            l.voxels = seed.iter().map(|&(x, y, z)| (x, y, z, 1, 0)).collect();
            l.voxels.sort_by_key(|v| (v.1, v.0, v.2));
            l.voxels.dedup_by_key(|v| (v.1, v.0, v.2));
            let v = volume(l);
            let mut want = std::collections::HashMap::new();
            for (x, y, col) in v.surface_columns() {
                for s in col {
                    let p = [x as u8, y as u8, s.z];
                    let key = (x >> BRICK_SHIFT, y >> BRICK_SHIFT);
                    let b = want.entry(key).or_insert(SurfaceBrick { lo: p, hi: p });
                    for (a, &c) in p.iter().enumerate() {
                        b.lo[a] = b.lo[a].min(c);
                        b.hi[a] = b.hi[a].max(c);
                    }
                }
            }
            for (&(bx, by), b) in &want {
                let got = v.surface_brick(bx << BRICK_SHIFT, by << BRICK_SHIFT);
                prop_assert_eq!(got, Some(b));
            }
            // Past the limb's columns: no brick.
            prop_assert_eq!(v.surface_brick(11 + 4, 0), None);
        }
    }

    proptest! {
        /// A voxel's open faces are exactly those whose neighbour is empty and connected (by
        /// empty cells, 6-neighbour steps) to outside the occupied box, by brute force.
        #[test]
        fn open_faces_border_cells_reachable_from_outside(
            seed in proptest::collection::vec((0u8..6, 0u8..5, 0u8..7), 1..120),
        ) {
            let mut l = LimbSpec::empty([6, 5, 7]);
            l.voxels = seed.iter().map(|&(x, y, z)| (x, y, z, 1, 0)).collect();
            l.voxels.sort_by_key(|v| (v.1, v.0, v.2));
            l.voxels.dedup_by_key(|v| (v.1, v.0, v.2));
            let v = volume(l);
            let (lo, hi) = v.bounds();
            let inside = |p: [i32; 3]| (0..3).all(|a| p[a] >= lo[a] as i32 && p[a] < hi[a] as i32);
            let filled = |p: [i32; 3]| inside(p) && v.occupied(p[0] as usize, p[1] as usize, p[2] as usize);
            // Flood from everything outside the box, one cell beyond it.
            let mut reached = std::collections::HashSet::new();
            let mut stack = Vec::new();
            for x in lo[0] as i32 - 1..=hi[0] as i32 {
                for y in lo[1] as i32 - 1..=hi[1] as i32 {
                    for z in lo[2] as i32 - 1..=hi[2] as i32 {
                        if !inside([x, y, z]) {
                            reached.insert([x, y, z]);
                            stack.push([x, y, z]);
                        }
                    }
                }
            }
            while let Some(p) = stack.pop() {
                for a in 0..3 {
                    for d in [-1, 1] {
                        let mut q = p;
                        q[a] += d;
                        if inside(q) && !filled(q) && reached.insert(q) {
                            stack.push(q);
                        }
                    }
                }
            }
            let mut seen = 0;
            for (x, y, col) in v.surface_columns() {
                for s in col {
                    let p = [x as i32, y as i32, i32::from(s.z)];
                    for a in 0..3 {
                        for (k, d) in [-1, 1].into_iter().enumerate() {
                            let mut q = p;
                            q[a] += d;
                            let want = !filled(q) && (reached.contains(&q) || !inside(q));
                            prop_assert_eq!(s.open & (1 << (2 * a + k)) != 0, want, "{:?} axis {} side {}", p, a, d);
                        }
                    }
                    seen += 1;
                }
            }
            // And no voxel with an open face is missing from the surface.
            let mut want_seen = 0;
            for x in lo[0]..hi[0] {
                for y in lo[1]..hi[1] {
                    for z in lo[2]..hi[2] {
                        let p = [x as i32, y as i32, z as i32];
                        if !filled(p) {
                            continue;
                        }
                        let shows = (0..6).any(|f| {
                            let mut q = p;
                            q[f / 2] += if f % 2 == 1 { 1 } else { -1 };
                            !filled(q) && (reached.contains(&q) || !inside(q))
                        });
                        want_seen += usize::from(shows);
                    }
                }
            }
            prop_assert_eq!(seen, want_seen);
        }
    }
}
