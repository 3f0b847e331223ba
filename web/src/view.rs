//! What the page is asked to draw.

use modex::TargetFormat;

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
        }
    }
}
