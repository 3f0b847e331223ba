//! Westwood voxel units (VXL with its HVA and a VPL or palette): loaded from bytes and the files
//! beside them, framed and drawn as `modex render` draws them.

use glam::Vec3;
use modex::{Camera, DepthBuffer, DrawStats, FileSource, Projection, Target};
use modex_voxel::{draw, frame_scene, lighting_for, Instance, RenderOptions, VoxelPixel, VoxelSet};
use modex_vxl::Vpl;

use crate::ViewError;

/// A unit and the lighting pages it is drawn with.
pub struct LoadedUnit {
    /// Its pieces (body, turret, barrel), each a VXL + HVA pair.
    pub set: VoxelSet,
    /// Its lighting pages.
    pub vpl: Vpl,
}

/// The unit whose body VXL is `vxl_bytes` (file stem `stem`), its HVA and other pieces from
/// `folder`, lit by `given` if the user chose a palette, else by the crate's rule
/// ([`modex_voxel::lighting_for`]: a VPL in the folder, else the unit's palette). Problems with
/// optional pieces are logged.
pub fn load_unit(
    stem: &str,
    vxl_bytes: &[u8],
    folder: &dyn FileSource,
    given: Option<Vpl>,
) -> Result<LoadedUnit, ViewError> {
    let set = VoxelSet::load_unit_from(stem, vxl_bytes, folder)?;
    for p in &set.problems {
        log::warn!("{p}");
    }
    let vpl = lighting_for(&set, given, folder)?;
    Ok(LoadedUnit { set, vpl })
}

/// The viewer's and `render`'s camera before framing: an orthographic orbit around the origin.
pub fn base_camera(yaw: f32, pitch: f32, width: usize, height: usize) -> Camera {
    let mut c = Camera::orbit(
        Vec3::ZERO,
        1000.0,
        yaw.to_radians(),
        pitch.to_radians(),
        0.6,
        width,
        height,
    );
    c.projection = Projection::Orthographic { height: 100.0 };
    c
}

/// `modex render`'s camera: the scene fitted into a `width` x `height` orthographic view from
/// `yaw` degrees or [`crate::DEFAULT_YAW`], at `pitch` degrees or [`crate::DEFAULT_PITCH`].
pub fn render_camera(
    scene: &[Instance<'_>],
    yaw: Option<f32>,
    pitch: Option<f32>,
    (width, height): (usize, usize),
) -> Result<Camera, ViewError> {
    let yaw = yaw.unwrap_or(crate::DEFAULT_YAW);
    let base = base_camera(yaw, pitch.unwrap_or(crate::DEFAULT_PITCH), width, height);
    Ok(frame_scene(scene, &base)?)
}

/// `scene` drawn into `target` through `depth`, cleared first (and made the target's size), as
/// `modex render`, the viewer and the page draw a unit; what the ray-marcher counted. The depth
/// buffer then says which pixels the unit covers (finite depths): `render` keys the others
/// transparent in its 8-bit PNG ([`crate::target::AnyTarget::save_png_covered`]).
pub fn draw_shot<T: Target>(
    target: &mut T,
    depth: &mut DepthBuffer,
    scene: &[Instance<'_>],
    camera: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
) -> Result<DrawStats, ViewError>
where
    T::Px: VoxelPixel,
{
    let (w, h) = target.size();
    if (depth.width(), depth.height()) == (w, h) {
        depth.clear();
    } else {
        *depth = DepthBuffer::new(w, h);
    }
    Ok(draw(scene, camera, vpl, opts, target, depth)?)
}
