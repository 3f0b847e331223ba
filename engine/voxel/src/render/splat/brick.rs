//! Bricks of surface columns tested as a whole before their voxels are (lever 32 in
//! docs/benchmarks.md, issue 43).
//!
//! Why: in a partly hidden limb every facing voxel is tested against the band's tiles before its
//! faces are set up ([`TileDepth::hides_voxel`]); in the 1000-unit 1080p perspective frame that
//! is ~624 k tests of ~130-160 instructions, 84 % of which say hidden. Hidden voxels come in
//! lumps (the lower part of a limb behind the unit in front), so the voxels of a brick of 4 x 4
//! columns ([`SurfaceBrick`], its box made at load) are tested once as a box, when the walk
//! first comes to one of its columns, and a brick hidden then is skipped column by column
//! without a test per voxel. The walk's order is unchanged.
//!
//! Exact: a brick is hidden when every band pixel within the voxel test's reach of the box's
//! projected corners holds a depth below the nearest depth the voxel test gives any voxel of
//! the box. The box's projection holds every voxel centre's (screen x and y are ratios of
//! affine maps with a positive denominator over the box, so their extremes lie at its
//! corners; view depth is affine, least at a corner), so each voxel's own test box lies within
//! the brick's and its own bound at or above the brick's; margins far above rounding cover the
//! two ways the centres are computed. Depths only decrease while a band is drawn, so every
//! voxel of a brick found hidden would be found hidden by its own test whenever the walk
//! reaches it, this limb's own earlier voxels included: skipping it changes no pixel, no
//! depth, no tile (the voxel test marks nothing). A brick found not hidden is left to its
//! voxels' own tests.

use super::Splat;
use crate::render::occlusion::TileDepth;
use crate::volume::{LimbVolume, SurfaceBrick, BRICK_SHIFT};
use glam::Vec4;

/// What is known of a brick in this draw.
const UNKNOWN: u8 = 0;
const HIDDEN: u8 = 1;
const SHOWN: u8 = 2;

/// Bricks across a limb (x below 256: `u8` grid coordinates).
const ACROSS: usize = 256 >> BRICK_SHIFT;

/// What a limb's draw found about the bricks of the brick row it is walking. The walk goes y
/// outer, x inner (`LimbVolume::surface_columns`), so it finishes one row of bricks before it
/// starts the next: one row's answers are all it needs, and they fit on the stack.
pub(super) struct BrickMemo {
    row: usize,
    state: [u8; ACROSS],
}

impl BrickMemo {
    /// Nothing known yet.
    #[inline(always)]
    pub fn new() -> BrickMemo {
        BrickMemo {
            row: usize::MAX,
            state: [UNKNOWN; ACROSS],
        }
    }

    /// Whether column (`x`, `y`) of `volume` lies in a brick `test` finds hidden, asked once a
    /// brick per draw.
    #[inline(always)]
    pub fn hidden(
        &mut self,
        volume: &LimbVolume,
        (x, y): (usize, usize),
        test: impl FnOnce(&SurfaceBrick) -> bool,
    ) -> bool {
        let row = y >> BRICK_SHIFT;
        if row != self.row {
            self.state = [UNKNOWN; ACROSS];
            self.row = row;
        }
        let Some(s) = self.state.get_mut(x >> BRICK_SHIFT) else {
            return false;
        };
        if *s == UNKNOWN {
            *s = match volume.surface_brick(x, y) {
                Some(b) if test(b) => HIDDEN,
                _ => SHOWN,
            };
            #[cfg(test)]
            tests::HIDDEN_BRICKS.with(|n| n.set(n.get() + usize::from(*s == HIDDEN)));
        }
        *s == HIDDEN
    }
}

/// Corner lanes' steps along the grid's x and y (`Splat::brick_hidden`).
const X_STEPS: Vec4 = Vec4::new(0.0, 1.0, 0.0, 1.0);
const Y_STEPS: Vec4 = Vec4::new(0.0, 0.0, 1.0, 1.0);

/// How far outside the projection of a brick's corners a voxel centre's may land by rounding
/// alone, in pixels (far above it: the two are computed by a few multiply-adds and a division
/// each, within a few ulps of coordinates below 2^11).
const SCREEN_MARGIN: f32 = 1.0 / 16.0;

impl Splat {
    /// Whether every voxel of `brick` is hidden in the band of `tiles` ([`TileDepth::hides_voxel`]
    /// with `reach` and the depth margin `half`, as `Splat::draw_multi` asks it of each voxel),
    /// against the band's `depth` as it is now (module doc).
    #[inline(never)]
    pub(super) fn brick_hidden<const AFFINE: bool>(
        &self,
        brick: &SurfaceBrick,
        tiles: &TileDepth,
        depth: &[f32],
        reach: f32,
        half: f32,
    ) -> bool {
        let (lo, hi) = (brick.lo.map(f32::from), brick.hi.map(f32::from));
        let s = &self.to_screen;
        let p0 = *s * Vec4::new(lo[0] + 0.5, lo[1] + 0.5, lo[2] + 0.5, 1.0);
        let (dx, dy, dz) = (
            s.x_axis * (hi[0] - lo[0]),
            s.y_axis * (hi[1] - lo[1]),
            s.z_axis * (hi[2] - lo[2]),
        );
        // One screen coordinate of the eight corners as two vectors (corners at low and high
        // z), lanes in the order (lo, lo), (hi, lo), (lo, hi), (hi, hi) of x and y: eight
        // corners for the instructions of two.
        let corners = |a: usize| {
            let near_z = Vec4::splat(p0[a]) + X_STEPS * dx[a] + Y_STEPS * dy[a];
            (near_z, near_z + Vec4::splat(dz[a]))
        };
        let ((x_a, x_b), (y_a, y_b)) = (corners(0), corners(1));
        let ((z_a, z_b), (w_a, w_b)) = (corners(2), corners(3));
        let (sx, sy) = if AFFINE {
            ([x_a, x_b], [y_a, y_b])
        } else {
            let (r_a, r_b) = (w_a.recip(), w_b.recip());
            ([x_a * r_a, x_b * r_b], [y_a * r_a, y_b * r_b])
        };
        // The voxel test answers "not hidden" for a centre behind the eye or far off screen
        // (`|s| >= 1e6`), a reach of 1e4 or more and no finite bound: a brick near any of these
        // is left to its voxels. NaN fails every compare.
        let far = Vec4::splat(9e5);
        let fine = sx[0].abs().cmplt(far)
            & sx[1].abs().cmplt(far)
            & sy[0].abs().cmplt(far)
            & sy[1].abs().cmplt(far)
            & z_a.abs().cmplt(Vec4::splat(1e30))
            & z_b.abs().cmplt(Vec4::splat(1e30));
        // In front of the eye with room to spare: every centre's w then comes out positive
        // whatever the rounding (the voxel test needs `w > 0`; `Splat::new` keeps the box beyond
        // the near plane, so this holds for all but limbs reaching from the near plane to a
        // thousand times as far).
        let least_w = Vec4::splat(1e-3 * w_a.max(w_b).max_element());
        let front = w_a.cmpgt(least_w) & w_b.cmpgt(least_w) & least_w.cmpgt(Vec4::ZERO);
        if !(fine.all() && (AFFINE || front.all()) && reach < 1e4) {
            return false;
        }
        let (x0, x1) = (
            sx[0].min(sx[1]).min_element(),
            sx[0].max(sx[1]).max_element(),
        );
        let (y0, y1) = (
            sy[0].min(sy[1]).min_element(),
            sy[0].max(sy[1]).max_element(),
        );
        let near = z_a.min(z_b).min_element();
        // The voxel test's bound for the nearest centre (`Splat::draw_multi`), less a margin
        // far above the rounding of the centres' depths (it only ever grows with the depth).
        let near = near - half - 1e-4 * near.abs();
        let near = near - (1e-5 * near.abs() + 1e-4);
        let m = SCREEN_MARGIN;
        tiles.hides_box([x0 - m, x1 + m], [y0 - m, y1 + m], reach, near, depth)
    }
}

#[cfg(test)]
mod tests;
