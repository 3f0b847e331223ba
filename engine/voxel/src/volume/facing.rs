//! A limb's surface voxels that a set of faces can show, in the walk's order, each with its
//! column: what a perspective splat walks instead of the columns (lever 56 in
//! docs/benchmarks.md, issue 43).
//!
//! Why: a perspective splat keeps only the faces some cell of the limb's box may show
//! (`Multi::facing` in `render::splat`); more than half of the surface voxels have none of them
//! open (the 1000-unit 1080p frame: 1.59 M voxels walked over two frames, 0.93 M of them
//! skipped that way), and a column holds about two surface voxels. Walking the columns then
//! costs a loop exit per column and a test per voxel whose outcome the branch predictor cannot
//! know (~200 k mispredicted branches a frame, cachegrind's branch simulator), besides the
//! column's own set-up. The voxels with a face in the set are the same for every draw with that
//! set, so they are listed once, the first time a draw asks for that set, and the walk becomes
//! one loop over them: the same voxels, in the same order, as the column walk keeps.
//!
//! Built lazily per set: a limb drawn only by the marcher, or only from one side (a viewer's
//! model), lists nothing or one set. At most one list per set of six face bits, each at most
//! the limb's surface (six bytes a voxel).

use std::sync::OnceLock;

use super::{LimbVolume, SurfaceVoxel};

/// A surface voxel and its column, as a facing list holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FacingVoxel {
    pub x: u8,
    pub y: u8,
    pub voxel: SurfaceVoxel,
}

/// The lists of one limb, one per set of face bits (six bits: 64 sets), built on first use.
///
/// A cache of what the surface already says: it takes no part in a volume's equality, and a
/// clone starts without lists.
pub(crate) struct FacingLists([OnceLock<Box<[FacingVoxel]>>; 64]);

impl FacingLists {
    pub fn new() -> FacingLists {
        FacingLists(std::array::from_fn(|_| OnceLock::new()))
    }
}

impl Clone for FacingLists {
    fn clone(&self) -> FacingLists {
        FacingLists::new()
    }
}

impl PartialEq for FacingLists {
    fn eq(&self, _: &FacingLists) -> bool {
        true
    }
}

impl std::fmt::Debug for FacingLists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.0.iter().filter(|l| l.get().is_some()).count();
        write!(f, "FacingLists({built} built)")
    }
}

impl LimbVolume {
    /// The surface voxels with an open face among `faces` (bits as [`SurfaceVoxel::open`]), with
    /// their columns, in [`LimbVolume::surface_columns`]' order (y outer, x inner, ascending z).
    pub(crate) fn facing_voxels(&self, faces: u8) -> &[FacingVoxel] {
        let faces = faces & 0x3f;
        self.facing.0[usize::from(faces)].get_or_init(|| {
            self.surface_columns()
                .flat_map(|(x, y, column)| {
                    // x and y are below 256 (`SurfaceColumn` keeps them as `u8`).
                    let (x, y) = (x as u8, y as u8);
                    column
                        .iter()
                        .filter(move |v| v.open & faces != 0)
                        .map(move |&voxel| FacingVoxel { x, y, voxel })
                })
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_volume as volume;
    use super::*;
    use modex_vxl::encode::LimbSpec;
    use proptest::prelude::*;

    proptest! {
        /// A facing list is the column walk's voxels with a face in the set, in its order, with
        /// their columns; asking twice gives the same list; clones and equality ignore lists.
        #[test]
        fn facing_lists_are_the_walk_filtered(
            cells in proptest::collection::vec((0u8..7, 0u8..6, 0u8..9), 1..60),
            faces in 0u8..64,
        ) {
            let mut l = LimbSpec::filled_box([7, 6, 9], 1, 0);
            l.voxels.retain(|v| cells.contains(&(v.0, v.1, v.2)));
            prop_assume!(!l.voxels.is_empty());
            let v = volume(l);
            let walked: Vec<FacingVoxel> = v
                .surface_columns()
                .flat_map(|(x, y, c)| {
                    c.iter()
                        .filter(|s| s.open & faces != 0)
                        .map(move |&voxel| FacingVoxel { x: x as u8, y: y as u8, voxel })
                        .collect::<Vec<_>>()
                })
                .collect();
            prop_assert_eq!(v.facing_voxels(faces), &walked[..]);
            prop_assert_eq!(v.facing_voxels(faces), &walked[..]);
            let c = v.clone();
            prop_assert!(c == v);
            prop_assert_eq!(c.facing_voxels(faces), &walked[..]);
        }
    }
}
