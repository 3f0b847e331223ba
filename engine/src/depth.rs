//! A depth buffer shared by the triangle rasterizer and the voxel ray-marcher, so MDL models and voxel
//! units mix in one scene with correct occlusion.
//!
//! Values are view-space depth (`1/w` is interpolated by the rasterizer but stored converted to depth)
//! and smaller means nearer. A cleared buffer holds `f32::INFINITY`.

/// A per-pixel depth buffer.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthBuffer {
    width: usize,
    height: usize,
    depth: Vec<f32>,
}

impl DepthBuffer {
    /// A buffer cleared to infinity (nothing drawn yet).
    pub fn new(width: usize, height: usize) -> Self {
        DepthBuffer {
            width,
            height,
            depth: vec![f32::INFINITY; width * height],
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Reset every value to infinity.
    pub fn clear(&mut self) {
        self.depth.fill(f32::INFINITY);
    }

    /// All depths, row-major.
    pub fn values(&self) -> &[f32] {
        &self.depth
    }

    /// All depths, row-major, for renderers that test and write them.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.depth
    }

    /// The depth at (x, y), `None` outside.
    pub fn get(&self, x: usize, y: usize) -> Option<f32> {
        (x < self.width && y < self.height).then(|| self.depth[y * self.width + x])
    }

    /// Store `z` at (x, y) if it is nearer than what is there; returns whether it was.
    #[inline]
    pub fn test_and_set(&mut self, x: usize, y: usize, z: f32) -> bool {
        if x >= self.width || y >= self.height {
            return false;
        }
        let d = &mut self.depth[y * self.width + x];
        if z < *d {
            *d = z;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearer_wins() {
        let mut d = DepthBuffer::new(2, 2);
        assert!(d.test_and_set(1, 1, 5.0));
        assert!(!d.test_and_set(1, 1, 6.0));
        assert!(d.test_and_set(1, 1, 4.0));
        assert_eq!(d.get(1, 1), Some(4.0));
        assert!(!d.test_and_set(2, 0, 1.0));
        d.clear();
        assert_eq!(d.get(1, 1), Some(f32::INFINITY));
    }
}
