//! The marcher: a grid-space ray through the occupied box with a 3D DDA (Amanatides & Woo),
//! skipping empty space with the distance field, to the first filled cell.

use glam::Vec3;
use modex::float::floor_i32;

use super::LimbVolume;

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
    /// March a grid-space ray `origin + t * dir` for `t` in `[t_min, t_max]` with a 3D DDA
    /// (Amanatides & Woo) and return the first filled cell. Non-finite input misses.
    ///
    /// Empty space is skipped with the distance field: in a cell at distance `D > 1` from anything
    /// filled, every cell within `D - 1` of it is empty, so the ray jumps to where it leaves that
    /// cube and the DDA resumes in the cell it enters there (`Dda::skip`), which is the cell, and
    /// the entry time, the cell-by-cell march reaches (the reference the tests hold it to).
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
    /// skipping marcher must agree with bit for bit (tests).
    #[cfg(test)]
    pub(crate) fn march_plain(
        &self,
        origin: Vec3,
        dir: Vec3,
        t_min: f32,
        t_max: f32,
    ) -> Option<Hit> {
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
    /// Inlined: it is made once per ray under a perspective view, where out of line it cost the
    /// marcher 0.26 M instructions on the 13-unit 360x240 frame (docs/benchmarks.md, issue 43,
    /// lever 13), and the compiler's own choice changed with unrelated code.
    #[inline]
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
    use super::super::test_volume as volume;
    use super::*;
    use modex_vxl::encode::LimbSpec;
    use proptest::prelude::*;

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
