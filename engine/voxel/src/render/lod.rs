//! Which level of detail a limb is drawn from ([`Lod`]), as mipmapping chooses a texture level:
//! the coarsest level whose cell still projects to at most about one pixel.
//!
//! A limb's fine cell footprint is the width and height in pixels of one projected cell, taken at
//! the corner of its occupied box where it is largest (the one nearest the eye): the measure
//! [`SPLAT_FOOTPRINT`](super::SPLAT_FOOTPRINT) uses. A level-`L` cell is `2^L` fine cells wide, so
//! its footprint is `2^L` times that. The limb is drawn from the largest `L` (at most 2) with
//! `2^L x footprint <= LOD_FOOTPRINT`: a limb whose fine cells already cover more than half of
//! [`LOD_FOOTPRINT`] (every unit near the eye) stays exact, and a coarse level is only ever drawn
//! where its cells are at most about a pixel, so each of its cells still splats to one pixel and
//! the coarse solid (`volume/lod.rs`) differs from the fine one by less than a pixel at its
//! outline. Perspective cameras only: an orthographic view draws every unit at one scale, through
//! the draw cache.

use glam::{Mat4, Vec3, Vec4};

use super::camera::ViewMatrices;

/// Whether a draw may use the coarser levels of its limbs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lod {
    /// Every limb from its own cells: the exact picture.
    #[default]
    Off,
    /// Under a perspective camera, each limb from the coarsest level whose cell projects to at
    /// most [`LOD_FOOTPRINT`] pixels (units near the eye stay exact).
    Auto,
}

/// Largest footprint in pixels of one cell of the level a limb is drawn from (see the module
/// docs): a coarse level is chosen only where its cells are at most this wide and high.
pub const LOD_FOOTPRINT: f32 = 1.0;

/// The level (0 = exact, 1 = cells 2 wide, 2 = cells 4 wide) limb `grid_to_world`, whose occupied
/// box has corners `corners` (grid space), is drawn from under `lod` through `camera`.
pub(crate) fn level(
    lod: Lod,
    grid_to_world: &Mat4,
    camera: &ViewMatrices,
    corners: &[Vec3; 8],
) -> usize {
    if lod == Lod::Off || camera.orthographic {
        return 0;
    }
    let footprint = cell_footprint(grid_to_world, camera, corners);
    if footprint.is_nan() || footprint <= 0.0 {
        return 0;
    }
    let mut level = 0;
    while level < 2 && footprint * (2u32 << level) as f32 <= LOD_FOOTPRINT {
        level += 1;
    }
    level
}

/// The largest width or height in pixels of one projected cell over the box's corners (infinite
/// when a corner is behind the eye, so such limbs stay exact).
fn cell_footprint(grid_to_world: &Mat4, camera: &ViewMatrices, corners: &[Vec3; 8]) -> f32 {
    let clip = camera.view_projection * *grid_to_world;
    let (hw, hh) = (camera.width as f32 * 0.5, camera.height as f32 * 0.5);
    let axes = [clip.x_axis, clip.y_axis, clip.z_axis];
    let mut largest = 0.0f32;
    for c in corners {
        let p: Vec4 = clip * c.extend(1.0);
        if p.w.is_nan() || p.w <= 0.0 {
            return f32::INFINITY;
        }
        // d(ndc) per cell step along each axis: (a - ndc * a.w) / w, in pixels.
        let (nx, ny) = (p.x / p.w, p.y / p.w);
        let (mut fx, mut fy) = (0.0f32, 0.0f32);
        for a in &axes {
            fx += ((a.x - nx * a.w) / p.w).abs();
            fy += ((a.y - ny * a.w) / p.w).abs();
        }
        largest = largest.max(fx * hw).max(fy * hh);
    }
    largest
}
