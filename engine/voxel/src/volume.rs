//! Per-limb occupancy for the ray-marcher, built once from the decoded spans.
//!
//! Occupancy is dense and tiny: one bit per cell, stored as `ceil(zsize / 64)` `u64` words per
//! (x, y) column, so a 255^3 limb costs at most 2 MB whatever the file claims. Colours and normals
//! stay sparse: a column's voxels sit in file order (ascending z) and the voxel of a filled cell is
//! found in O(1) as `column_base + popcount(bits below z)`.
//!
//! Rays only march the occupied box (the bounds of the filled cells; files pad their boxes), and
//! skip empty space with a Chebyshev distance field over that box (one byte per cell, built at
//! load, left out for boxes above 4 M cells, which march cell by cell testing one bit per step).

use glam::Vec3;
use modex::float::floor_i32;

use modex_vxl::Limb;

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
    /// Occupied bounds (see [`LimbVolume::bounds`]).
    lo: [usize; 3],
    hi: [usize; 3],
    /// Chebyshev distance in cells from each cell of the occupied box to the nearest filled cell
    /// (0 = filled), capped at 255, indexed by [`LimbVolume::dist_index`]. Empty when the box holds
    /// more than [`DIST_MAX_CELLS`] cells: those limbs march cell by cell.
    dist: Vec<u8>,
    /// The voxels with at least one open face (neighbour cell empty), column by column in the
    /// splat's walk order: the only voxels a splat can show, with everything it reads about them
    /// in four bytes, so a draw walks neither the masks nor the hidden interior.
    surface: Vec<SurfaceVoxel>,
    /// The columns holding surface voxels, y outer, x inner, each with its run of `surface`.
    surface_columns: Vec<SurfaceColumn>,
    /// Which normal indices the surface voxels use: a splat's shading table needs only these,
    /// and the table is rebuilt every frame the light or the limb turns, so the set is taken
    /// once at load rather than by walking the surface each draw (2.4 % of hmec at 128x128).
    surface_normals: [bool; 256],
}

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

/// One column's run of [`SurfaceVoxel`]s (ascending z).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SurfaceColumn {
    x: u8,
    y: u8,
    start: u32,
    end: u32,
}

/// Largest occupied box (in cells) that gets a distance field: 4 MB of `u8`. Real units are far
/// below it (hmec's largest limb has a few ten thousand cells); a hostile 255^3 file is not.
const DIST_MAX_CELLS: usize = 1 << 22;

/// A ray's first filled cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Ray parameter where the ray enters the cell.
    pub t: f32,
    /// The cell (x, y, z).
    pub cell: [usize; 3],
    /// Its palette index.
    pub colour: u8,
    /// Its normal index.
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
        let (mut lo, mut hi) = ([usize::MAX; 3], [0usize; 3]);
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
                    for (a, p) in [c % size[0], c / size[0], z].into_iter().enumerate() {
                        lo[a] = lo[a].min(p);
                        hi[a] = hi[a].max(p + 1);
                    }
                }
            }
        }
        if data.is_empty() {
            lo = [0; 3];
        }
        let mut v = LimbVolume {
            size,
            words,
            masks,
            base,
            data,
            lo,
            hi,
            dist: Vec::new(),
            surface: Vec::new(),
            surface_columns: Vec::new(),
            surface_normals: [false; 256],
        };
        v.dist = v.distance_field();
        v.build_surface();
        for s in &v.surface {
            v.surface_normals[s.normal as usize] = true;
        }
        v
    }

    /// The normal indices the surface voxels (the only voxels a splat shows) use.
    pub(crate) fn surface_normals(&self) -> &[bool; 256] {
        &self.surface_normals
    }

    /// Extent of the occupied box in cells.
    fn box_size(&self) -> [usize; 3] {
        std::array::from_fn(|a| self.hi[a] - self.lo[a])
    }

    /// Index of cell (x, y, z) of the occupied box in [`LimbVolume::dist`]: z fastest, then x,
    /// then y.
    #[inline]
    fn dist_index(&self, x: usize, y: usize, z: usize) -> usize {
        let b = self.box_size();
        ((x - self.lo[0]) + (y - self.lo[1]) * b[0]) * b[2] + (z - self.lo[2])
    }

    /// The surface voxels and their columns (see [`LimbVolume::surface`]), from the masks: each
    /// filled cell's six neighbours tested once at load.
    fn build_surface(&mut self) {
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
        self.surface = surface;
        self.surface_columns = columns;
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

    /// Chebyshev distance transform of the occupied box: two raster passes of the 3x3x3 chamfer
    /// with unit weights (forward over the 13 neighbours already visited, backward over the other
    /// 13), which is exact for the chessboard metric.
    fn distance_field(&self) -> Vec<u8> {
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
    pub fn distance(&self, x: usize, y: usize, z: usize) -> Option<u8> {
        let p = [x, y, z];
        if self.dist.is_empty() || (0..3).any(|a| p[a] < self.lo[a] || p[a] >= self.hi[a]) {
            return None;
        }
        Some(self.dist[self.dist_index(x, y, z)])
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
        self.bit(x, y, z)
    }

    /// The occupancy bit of a cell known to lie inside the limb (the marcher's cells always do).
    #[inline(always)]
    fn bit(&self, x: usize, y: usize, z: usize) -> bool {
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

    /// Occupied bounds: the smallest box of cells holding every filled voxel, as `(lo, hi)` with
    /// `hi` exclusive (`([0; 3], [0; 3])` for an empty limb). Files pad their boxes; rays and screen
    /// footprints only need this part.
    pub fn bounds(&self) -> ([usize; 3], [usize; 3]) {
        (self.lo, self.hi)
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

    /// March a grid-space ray `origin + t * dir` for `t` in `[t_min, t_max]` with a 3D DDA
    /// (Amanatides & Woo) and return the first filled cell. Non-finite input misses.
    ///
    /// Empty space is skipped with the distance field: in a cell at distance `D > 1` from anything
    /// filled, every cell within `D - 1` of it is empty, so the ray jumps to where it leaves that
    /// cube and the DDA resumes in the cell it enters there (`Dda::skip`), which is the cell, and
    /// the entry time, the cell-by-cell march ([`LimbVolume::march_plain`]) reaches.
    pub fn march(&self, origin: Vec3, dir: Vec3, t_min: f32, t_max: f32) -> Option<Hit> {
        self.march_dir(origin, &RayDir::new(dir), t_min, t_max)
    }

    /// [`LimbVolume::march`] with the direction's constants prepared once, for the many parallel
    /// rays of an orthographic view.
    #[inline]
    pub(crate) fn march_dir(
        &self,
        origin: Vec3,
        dir: &RayDir,
        t_min: f32,
        t_max: f32,
    ) -> Option<Hit> {
        if self.dist.is_empty() {
            return self.march_plain_dir(origin, dir, t_min, t_max);
        }
        let mut r = Dda::start(self, origin, dir, t_min, t_max)?;
        for _ in 0..self.max_steps() {
            match self.dist[r.i] {
                0 => return self.hit(&r),
                1 => r.step()?,
                d => r.skip(d as i32 - 1)?,
            }
        }
        None
    }

    /// [`LimbVolume::march`] one cell at a time, without empty-space skipping: the reference the
    /// skipping marcher must agree with bit for bit.
    pub fn march_plain(&self, origin: Vec3, dir: Vec3, t_min: f32, t_max: f32) -> Option<Hit> {
        self.march_plain_dir(origin, &RayDir::new(dir), t_min, t_max)
    }

    fn march_plain_dir(&self, origin: Vec3, dir: &RayDir, t_min: f32, t_max: f32) -> Option<Hit> {
        let mut r = Dda::start(self, origin, dir, t_min, t_max)?;
        // Each step leaves one cell; a ray crosses at most x + y + z cells of the box.
        for _ in 0..self.max_steps() {
            let [x, y, z] = r.cell.map(|c| c as usize);
            // The cell is inside the box here: test its bit directly, rank only on a hit.
            if self.bit(x, y, z) {
                return self.hit(&r);
            }
            r.step()?;
        }
        None
    }

    fn max_steps(&self) -> usize {
        self.box_size().iter().sum::<usize>() + 3
    }

    #[inline]
    fn hit(&self, r: &Dda) -> Option<Hit> {
        let [x, y, z] = r.cell.map(|c| c as usize);
        let [colour, normal] = self.voxel(x, y, z)?;
        Some(Hit {
            t: r.t,
            cell: [x, y, z],
            colour,
            normal,
        })
    }
}

/// The constants of a ray direction: the same for every ray of an orthographic view of a limb.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RayDir {
    d: [f32; 3],
    /// `1 / d` (for the slab clip).
    inv: [f32; 3],
    step: [i32; 3],
    /// 1 when stepping up (the next boundary is the cell's upper face), 0 when stepping down.
    up: [i32; 3],
    finite: bool,
}

impl RayDir {
    pub(crate) fn new(dir: Vec3) -> RayDir {
        let d = dir.to_array();
        RayDir {
            d,
            inv: d.map(|v| if v != 0.0 { 1.0 / v } else { 0.0 }),
            step: d.map(|v| (v > 0.0) as i32 - (v < 0.0) as i32),
            up: d.map(|v| (v > 0.0) as i32),
            finite: dir.is_finite(),
        }
    }
}

/// State of one ray's DDA through the occupied box.
///
/// Boundary crossing times are computed in closed form, `t = (boundary - o) / d` with the
/// boundary's integer coordinate, rather than accumulated step by step: the time of every crossing
/// is then a function of the cell alone, so a marcher that jumps over empty cells resumes on exactly
/// the path (and the hit `t`) the cell-by-cell march takes.
///
/// Per-axis work is dispatched to code specialised for a constant axis (`advance::<A>`,
/// `jump::<A>`), so the arrays never need indexing by a run-time axis and stay in registers.
struct Dda {
    o: [f32; 3],
    d: [f32; 3],
    step: [i32; 3],
    up: [i32; 3],
    cell: [i32; 3],
    /// Time of the next boundary crossing per axis (infinite on axes the ray does not move along).
    t_next: [f32; 3],
    /// Time the ray entered the current cell.
    t: f32,
    t1: f32,
    lo: [i32; 3],
    hi: [i32; 3],
    /// Index of the cell in the distance field, and its change per step along each axis.
    i: usize,
    stride: [isize; 3],
}

impl Dda {
    /// Clip the ray to the occupied box and find its first cell; `None` when it misses the box.
    #[inline(always)]
    fn start(v: &LimbVolume, origin: Vec3, dir: &RayDir, t_min: f32, t_max: f32) -> Option<Dda> {
        if !(origin.is_finite() && dir.finite) || v.data.is_empty() {
            return None;
        }
        let (o, d) = (origin.to_array(), dir.d);
        let lo = v.lo.map(|c| c as i32);
        let hi = v.hi.map(|c| c as i32);
        // Slab clip against the occupied box.
        let (mut t0, mut t1) = (t_min, t_max);
        for a in 0..3 {
            if d[a] == 0.0 {
                if o[a] < lo[a] as f32 || o[a] >= hi[a] as f32 {
                    return None;
                }
            } else {
                let inv = dir.inv[a];
                let (mut ta, mut tb) = ((lo[a] as f32 - o[a]) * inv, (hi[a] as f32 - o[a]) * inv);
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
        let b = v.box_size();
        let stride = [b[2] as isize, (b[0] * b[2]) as isize, 1];
        let mut r = Dda {
            o,
            d,
            step: dir.step,
            up: dir.up,
            cell: [0; 3],
            t_next: [f32::INFINITY; 3],
            t: t0,
            t1,
            lo,
            hi,
            i: 0,
            stride: std::array::from_fn(|a| stride[a] * dir.step[a] as isize),
        };
        for a in 0..3 {
            r.cell[a] = floor_i32(o[a] + d[a] * t0).clamp(lo[a], hi[a] - 1);
            if d[a] != 0.0 {
                r.t_next[a] = r.crossing(a, r.cell[a]);
            }
        }
        r.i = r.index(b);
        Some(r)
    }

    #[inline(always)]
    fn index(&self, b: [usize; 3]) -> usize {
        let c: [usize; 3] = std::array::from_fn(|a| (self.cell[a] - self.lo[a]) as usize);
        (c[0] + c[1] * b[0]) * b[2] + c[2]
    }

    /// Time the ray leaves cell coordinate `c` along axis `a` (only for axes it moves along).
    #[inline(always)]
    fn crossing(&self, a: usize, c: i32) -> f32 {
        ((c + self.up[a]) as f32 - self.o[a]) / self.d[a]
    }

    /// The axis whose boundary comes first; ties go to the higher axis (as they always have).
    #[inline(always)]
    fn first(t: [f32; 3]) -> usize {
        if t[0] < t[1] {
            if t[0] < t[2] {
                0
            } else {
                2
            }
        } else if t[1] < t[2] {
            1
        } else {
            2
        }
    }

    /// Step into the next cell; `None` when the ray leaves the box or runs past `t1`.
    #[inline(always)]
    fn step(&mut self) -> Option<()> {
        match Self::first(self.t_next) {
            0 => self.advance::<0>(),
            1 => self.advance::<1>(),
            _ => self.advance::<2>(),
        }
    }

    #[inline(always)]
    fn advance<const A: usize>(&mut self) -> Option<()> {
        self.t = self.t_next[A];
        if self.t > self.t1 {
            return None;
        }
        self.cell[A] += self.step[A];
        if self.cell[A] < self.lo[A] || self.cell[A] >= self.hi[A] {
            return None;
        }
        self.i = self.i.wrapping_add_signed(self.stride[A]);
        self.t_next[A] = self.crossing(A, self.cell[A]);
        Some(())
    }

    /// Jump over the cube of cells within `r` of the current one (all empty) along the axes the ray
    /// moves forward on, clipped to the box, into the first cell past it; `None` when the ray leaves
    /// the box or runs past `t1` on the way.
    ///
    /// The cell-by-cell march visits boundary crossings in order of time, ties going to the higher
    /// axis. The exit from the cube is the first crossing out of it in that order, at time `t`
    /// along axis `a`; along every other axis the ray has by then made exactly the crossings that
    /// come before `(t, a)` in that order, which fixes its cell there. A guess from the exit point
    /// is corrected against the same closed-form crossing times, so the result is the very cell
    /// (and entry time) the plain march gets to.
    #[inline(always)]
    fn skip(&mut self, r: i32) -> Option<()> {
        let mut last = self.cell;
        let mut exit = [f32::INFINITY; 3];
        for a in 0..3 {
            if self.step[a] > 0 {
                last[a] = (self.cell[a] + r).min(self.hi[a] - 1);
            } else if self.step[a] < 0 {
                last[a] = (self.cell[a] - r).max(self.lo[a]);
            } else {
                continue;
            }
            exit[a] = self.crossing(a, last[a]);
        }
        match Self::first(exit) {
            0 => self.jump::<0>(last, exit[0]),
            1 => self.jump::<1>(last, exit[1]),
            _ => self.jump::<2>(last, exit[2]),
        }
    }

    /// Leave the cube across its face on axis `A` at time `t` (see [`Dda::skip`]).
    #[inline(always)]
    fn jump<const A: usize>(&mut self, last: [i32; 3], t: f32) -> Option<()> {
        if t > self.t1 {
            return None;
        }
        let next = last[A] + self.step[A];
        if next < self.lo[A] || next >= self.hi[A] {
            return None;
        }
        if A != 0 {
            self.settle::<0>(A, last[0], t);
        }
        if A != 1 {
            self.settle::<1>(A, last[1], t);
        }
        if A != 2 {
            self.settle::<2>(A, last[2], t);
        }
        self.cell[A] = next;
        self.t_next[A] = self.crossing(A, next);
        self.t = t;
        let b = [
            (self.hi[0] - self.lo[0]) as usize,
            (self.hi[1] - self.lo[1]) as usize,
            (self.hi[2] - self.lo[2]) as usize,
        ];
        self.i = self.index(b);
        Some(())
    }

    /// The cell along axis `B` once the crossing `(t, a)` is made: the one entered by the last
    /// crossing of `B` that comes before it, between the current cell and `last`.
    #[inline(always)]
    fn settle<const B: usize>(&mut self, a: usize, last: i32, t: f32) {
        let s = self.step[B];
        if s == 0 {
            return;
        }
        let precedes = |tb: f32| tb < t || (tb == t && B > a);
        let from = self.cell[B];
        let guess = floor_i32(self.o[B] + self.d[B] * t);
        let mut x = guess.clamp(from.min(last), from.max(last));
        while x != last && precedes(self.crossing(B, x)) {
            x += s;
        }
        while x != from && !precedes(self.crossing(B, x - s)) {
            x -= s;
        }
        self.cell[B] = x;
        self.t_next[B] = self.crossing(B, x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_vxl::encode::{LimbSpec, VxlSpec};
    use modex_vxl::vxl::decode;
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
                // Sampling every 0.002 can step over a sliver of a cell the ray only grazes, and then
                // finds a later hit.
                (Some(h), Some(b)) => prop_assert!(
                    (h.t - b).abs() < 0.01 || (h.t < b && grazing(origin, dir, h.t)),
                    "{h:?} vs {b}"
                ),
                (None, None) => {}
                // A ray grazing an edge may be caught by one method and not the other.
                (Some(h), None) => prop_assert!(h.t > t_max - 0.01 || grazing(origin, dir, h.t)),
                (None, Some(b)) => prop_assert!(grazing(origin, dir, b)),
            }
        }
    }

    proptest! {
        /// Skipping empty space lands on the cell-by-cell march's path: the same first hit, `t` bit
        /// for bit, or the same miss. Origins and directions are drawn from small grids of values
        /// as well, so rays along axes, through cell corners and tied crossings are common.
        #[test]
        fn skipping_matches_the_plain_dda(
            dims in (1usize..14, 1usize..14, 1usize..80),
            seed in proptest::collection::vec(proptest::array::uniform3(0.0f32..1.0), 0..300),
            o in proptest::array::uniform3(-0.6f32..1.6),
            snap in any::<bool>(),
            aim in proptest::option::of(proptest::array::uniform3(0.0f32..1.0)),
            d in proptest::array::uniform3(prop_oneof![-1.0f32..1.0, (-2i32..=2).prop_map(|v| v as f32 * 0.5)]),
            scale in prop_oneof![Just(1.0f32), 0.01f32..300.0],
            t_range in (-1.0f32..0.5, 0.0f32..400.0),
        ) {
            let dims = [dims.0, dims.1, dims.2];
            let mut l = LimbSpec::empty(dims.map(|v| v as u8));
            l.voxels = seed
                .iter()
                .map(|p| {
                    let [x, y, z] = std::array::from_fn(|a| (p[a] * dims[a] as f32) as u8);
                    (x, y, z, x ^ z, y)
                })
                .collect();
            l.voxels.sort_by_key(|v| (v.1, v.0, v.2));
            l.voxels.dedup_by_key(|v| (v.1, v.0, v.2));
            let v = volume(l);
            // Origins around the box, on half cells when `snap` (corners and faces).
            let origin = Vec3::from(std::array::from_fn(|a| {
                let c = o[a] * dims[a] as f32;
                if snap { (c * 2.0).round() * 0.5 } else { c }
            }));
            // Rays aimed into the box hit more often.
            let dir = match aim {
                Some(p) => Vec3::from(std::array::from_fn(|a| p[a] * dims[a] as f32)) - origin,
                None => Vec3::from(d),
            } * scale;
            let (t0, t1) = (t_range.0, t_range.0 + t_range.1 / scale);
            let hit = v.march(origin, dir, t0, t1);
            prop_assert_eq!(hit, v.march_plain(origin, dir, t0, t1));
        }

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

    #[test]
    fn bounds_are_those_of_the_filled_cells() {
        let mut l = LimbSpec::empty([10, 12, 70]);
        l.voxels = vec![(2, 3, 65, 1, 0), (7, 5, 4, 1, 0)];
        let v = volume(l);
        assert_eq!(v.bounds(), ([2, 3, 4], [8, 6, 66]));
        assert_eq!(v.distance(2, 3, 65), Some(0));
        assert_eq!(v.distance(2, 3, 64), Some(1));
        assert_eq!(v.distance(0, 0, 0), None);
        assert_eq!(
            volume(LimbSpec::empty([3, 3, 3])).bounds(),
            ([0; 3], [0; 3])
        );
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
