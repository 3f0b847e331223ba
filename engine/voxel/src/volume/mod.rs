//! Per-limb volumes for the ray-marcher and the splats, built once from the decoded spans, by
//! what each reads:
//!
//! - [`occupancy`]: one bit per cell, stored as `ceil(zsize / 64)` `u64` words per (x, y) column,
//!   so a 255^3 limb costs at most 2 MB whatever the file claims. Colours and normals stay sparse:
//!   a column's voxels sit in file order (ascending z) and the voxel of a filled cell is found in
//!   O(1) as `column_base + popcount(bits below z)`. Beside it a Chebyshev distance field over the
//!   occupied box (the bounds of the filled cells; files pad their boxes), one byte per cell,
//!   built at load and left out for boxes above 4 M cells.
//! - [`surface`]: the voxels with a face towards an empty cell that light from outside can reach,
//!   four bytes each, column by column: all a splat reads.
//! - [`lod`]: the coarser levels of a limb (cells 2 and 4 fine cells wide), each itself a
//!   `LimbVolume`, built at load for limbs seen from far away.
//! - [`dda`]: the marcher. Rays only march the occupied box and skip empty space with the distance
//!   field (limbs without one march cell by cell testing one bit per step).

mod dda;
mod facing;
mod lod;
mod occupancy;
mod surface;

use modex_vxl::Limb;

pub use dda::Hit;
pub(crate) use dda::RayDir;
use facing::FacingLists;
pub(crate) use facing::FacingVoxel;
pub(crate) use lod::LOD_FACTORS;
use surface::SurfaceColumn;
pub(crate) use surface::{SurfaceBrick, SurfaceVoxel, BRICK_SHIFT};

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
    /// more than [`occupancy::DIST_MAX_CELLS`] cells: those limbs march cell by cell.
    dist: Vec<u8>,
    /// The voxels with at least one open face (neighbour cell empty), column by column in the
    /// splat's walk order: the only voxels a splat can show, with everything it reads about them
    /// in four bytes, so a draw walks neither the masks nor the hidden interior.
    surface: Vec<SurfaceVoxel>,
    /// The columns holding surface voxels, y outer, x inner, each with its run of `surface`.
    surface_columns: Vec<SurfaceColumn>,
    /// The boxes of the surface voxels of each brick of 4 x 4 columns ([`SurfaceBrick`]), brick
    /// rows of `bricks_across` bricks: a tested splat skips a brick hidden as a whole.
    bricks: Vec<SurfaceBrick>,
    bricks_across: usize,
    /// Per open face bit (as [`SurfaceVoxel::open`]), the normal indices of the surface voxels
    /// with that face open, 256 bits each: a splat shades only the voxels with an open face
    /// among those it shows, so its shading table needs only their indices
    /// ([`LimbVolume::normals_facing`]). The table is rebuilt every frame the light or the limb
    /// turns, so the sets are taken once at load rather than by walking the surface each draw
    /// (2.4 % of hmec at 128x128 for the one set of all surface normals it replaced).
    face_normals: [[u64; 4]; 6],
    /// The surface voxels each set of faces can show, listed the first time a perspective splat
    /// asks ([`LimbVolume::facing_voxels`]).
    facing: FacingLists,
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
            bricks: Vec::new(),
            bricks_across: 0,
            face_normals: [[0; 4]; 6],
            facing: FacingLists::new(),
        };
        v.dist = v.distance_field();
        v.build_surface();
        for s in &v.surface {
            for (f, set) in v.face_normals.iter_mut().enumerate() {
                if s.open & (1 << f) != 0 {
                    add_normal(set, s.normal);
                }
            }
        }
        v
    }

    /// Extent of the occupied box in cells.
    fn box_size(&self) -> [usize; 3] {
        std::array::from_fn(|a| self.hi[a] - self.lo[a])
    }

    /// Size in cells.
    pub fn size(&self) -> [usize; 3] {
        self.size
    }

    /// Filled cells.
    pub fn voxel_count(&self) -> usize {
        self.data.len()
    }

    /// Occupied bounds: the smallest box of cells holding every filled voxel, as `(lo, hi)` with
    /// `hi` exclusive (`([0; 3], [0; 3])` for an empty limb). Files pad their boxes; rays and screen
    /// footprints only need this part.
    pub fn bounds(&self) -> ([usize; 3], [usize; 3]) {
        (self.lo, self.hi)
    }
}

/// Adds normal index `normal` to `set`, a set of the 256 indices as bits (bit `i % 64` of word
/// `i / 64`): the form [`LimbVolume::normals_facing`] gives and a shading table takes.
pub(crate) fn add_normal(set: &mut [u64; 4], normal: u8) {
    set[usize::from(normal) / 64] |= 1 << (normal % 64);
}

/// The volume of a one-limb model written by `modex-vxl`'s writer (tests of every part).
#[cfg(test)]
fn test_volume(spec: modex_vxl::encode::LimbSpec) -> LimbVolume {
    let v = modex_vxl::vxl::decode(&modex_vxl::encode::VxlSpec::single(spec).encode()).unwrap();
    LimbVolume::from_limb(&v.limbs[0])
}

#[cfg(test)]
mod tests {
    use super::test_volume as volume;
    use modex_vxl::encode::LimbSpec;

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

    /// The normal sets per shown faces are those of the surface voxels with an open face among
    /// them, for every combination of faces (random limbs, every normal index).
    #[test]
    fn normals_facing_are_the_surface_voxels_normals() {
        let mut rng = modex::Rng::new(40);
        for _ in 0..40 {
            let mut l = LimbSpec::empty([9, 7, 11]);
            for x in 0..9u8 {
                for y in 0..7u8 {
                    for z in 0..11u8 {
                        if rng.range(0.0, 1.0) < 0.4 {
                            let normal = rng.range(0.0, 256.0) as u8;
                            l.voxels.push((x, y, z, 1, normal));
                        }
                    }
                }
            }
            let v = volume(l);
            for faces in 0..64u8 {
                let mut want = [0u64; 4];
                for (_, _, column) in v.surface_columns() {
                    for s in column.iter().filter(|s| s.open & faces != 0) {
                        super::add_normal(&mut want, s.normal);
                    }
                }
                assert_eq!(v.normals_facing(faces), want, "faces {faces:#b}");
            }
        }
    }
}
