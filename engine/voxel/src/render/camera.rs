//! Cameras for voxel scenes: the games' own view, and a camera framed on what a scene draws.
//!
//! Framing is the core's one rule ([`Camera::framing`]), applied to the scene's world bounds, so a
//! voxel unit and an MDL model shown by the same viewer are framed alike.

use glam::{Mat4, Vec3};
use modex::{Camera, Projection};

use crate::model::NoFrames;
use crate::scene::{world_bounds, Instance};

/// The games' view: orthographic, 30 degrees above the horizon, looking from the south-east so north
/// points to the upper right of the screen, `view_height` world units tall, centred on `target`.
pub fn game_camera(target: Vec3, view_height: f32, width: usize, height: usize) -> Camera {
    let mut c = Camera::orbit(
        target,
        1000.0,
        45f32.to_radians(),
        30f32.to_radians(),
        1.0,
        width,
        height,
    );
    c.projection = Projection::Orthographic {
        height: view_height,
    };
    c.near = 1.0;
    c.far = 4000.0;
    c
}

/// A camera framing everything `instances` draw ([`world_bounds`]): looking from `base`'s direction
/// with `base`'s projection kind and viewport, framed by [`Camera::framing`] (Z up). Orthographic
/// cameras get the view height that fits the bounds with a 10 % margin; perspective cameras keep
/// their field of view and back off until the bounds' sphere fits. A scene that draws nothing keeps
/// `base`.
pub fn frame_scene(instances: &[Instance<'_>], base: &Camera) -> Result<Camera, NoFrames> {
    let Some((lo, hi)) = world_bounds(instances)? else {
        return Ok(*base);
    };
    let dir = (base.eye - base.target).normalize_or(Vec3::NEG_Y);
    Ok(Camera::framing(
        dir,
        lo,
        hi,
        base.projection,
        base.width,
        base.height,
    ))
}

/// A camera's matrices and screen, worked out once per draw: a [`Camera`] builds its view matrix
/// each time it is asked, and a draw's set-up asks for every limb.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ViewMatrices {
    pub view: Mat4,
    pub view_projection: Mat4,
    pub width: usize,
    pub height: usize,
    pub near: f32,
    pub far: f32,
    /// Parallel rays, which step affinely across pixels.
    pub orthographic: bool,
}

impl ViewMatrices {
    /// The matrices of `camera`.
    pub fn of(camera: &Camera) -> ViewMatrices {
        ViewMatrices {
            view: camera.view(),
            view_projection: camera.view_projection(),
            width: camera.width,
            height: camera.height,
            near: camera.near,
            far: camera.far,
            orthographic: matches!(camera.projection, Projection::Orthographic { .. }),
        }
    }
}
