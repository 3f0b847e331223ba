//! What one draw did, the same counters for every renderer.
//!
//! The demo's statistics overlay, the viewers and the benches add up the draws of a frame, triangles
//! and voxels alike, so both renderers return this one type: the rasterizer fills the triangle
//! counters, the ray-marcher the limb and ray counters.

use std::ops::{Add, AddAssign};

/// Counters of one draw (or, added up, of a frame).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Triangles submitted to the rasterizer.
    pub triangles: usize,
    /// Triangles rasterized after culling and clipping (a clipped triangle may count more than once).
    pub rasterized: usize,
    /// Voxel limbs that had something on screen.
    pub limbs: usize,
    /// Rays the ray-marcher cast (pixels under the outlines of the limbs' occupied boxes).
    pub rays: usize,
}

impl AddAssign for DrawStats {
    fn add_assign(&mut self, o: DrawStats) {
        self.triangles += o.triangles;
        self.rasterized += o.rasterized;
        self.limbs += o.limbs;
        self.rays += o.rays;
    }
}

impl Add for DrawStats {
    type Output = DrawStats;
    fn add(mut self, o: DrawStats) -> DrawStats {
        self += o;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_every_counter() {
        let a = DrawStats {
            triangles: 1,
            rasterized: 2,
            limbs: 3,
            rays: 4,
        };
        assert_eq!(
            a + a,
            DrawStats {
                triangles: 2,
                rasterized: 4,
                limbs: 6,
                rays: 8
            }
        );
    }
}
