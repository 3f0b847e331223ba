//! What the page is asked to draw.

use modex::{trig, Camera, Projection, TargetFormat};

/// What to draw: the URL parameters of the page, meaning what they mean to `modex render`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// `size=WxH`.
    pub size: (usize, usize),
    /// `yaw`, degrees; `None`: `modex render`'s default (30, or a level's start camera).
    pub yaw: Option<f32>,
    /// `pitch`, degrees; `None`: `modex render`'s default (10, or 45 for a flat model).
    pub pitch: Option<f32>,
    /// `format`; `None`: `modex render`'s default, which follows the content (8888 for levels
    /// and true-colour skins, 8-bit for palettized ones).
    pub format: Option<TargetFormat>,
    /// `frame`.
    pub frame: usize,
    /// `facing` (voxel units, 0..=255).
    pub facing: u32,
    /// The mouse wheel's zoom; 1 is `modex render`'s framing.
    pub zoom: f32,
    /// The drag's pan: how far the picture moved right and down, in picture heights.
    pub pan: (f32, f32),
}

impl Default for View {
    fn default() -> View {
        View {
            size: (640, 480),
            yaw: None,
            pitch: None,
            format: None,
            frame: 0,
            facing: 0,
            zoom: 1.0,
            pan: (0.0, 0.0),
        }
    }
}

impl View {
    /// Move `camera` by [`View::pan`]: eye and target together, across the line of sight, so
    /// what was at the picture's centre follows the pointer (perspective: at the target's
    /// distance).
    pub fn pan_camera(&self, camera: &mut Camera) {
        if self.pan == (0.0, 0.0) {
            return;
        }
        let visible = match camera.projection {
            Projection::Perspective { fov_y } => {
                2.0 * (camera.target - camera.eye).length() * trig::tan(fov_y * 0.5)
            }
            Projection::Orthographic { height } => height,
        };
        let forward = (camera.target - camera.eye).normalize_or_zero();
        let right = forward.cross(camera.up).normalize_or_zero();
        let up = right.cross(forward);
        let shift = (up * self.pan.1 - right * self.pan.0) * visible;
        camera.eye += shift;
        camera.target += shift;
    }
}
