//! Debug outlines: the screen edges of every limb's box, for the viewer's "show bounds" (a limb
//! whose voxels look misplaced shows at once whether its box or its contents are off).

use glam::Vec2;
use modex::{draw_line, Camera, Target};

use crate::model::NoFrames;
use crate::scene::{box_corners, limbs_of, Instance, BOX_EDGES};

/// Screen outlines (the 12 edges) of every limb's whole box, in draw order. Limbs with a corner
/// behind the camera are left out.
pub fn limb_outlines(
    instances: &[Instance<'_>],
    camera: &Camera,
) -> Result<Vec<[(Vec2, Vec2); 12]>, NoFrames> {
    let mut out = Vec::new();
    for placed in limbs_of(instances)? {
        let size = placed.model.volumes()[placed.limb].size();
        let projected: Option<Vec<Vec2>> = box_corners([0; 3], size)
            .iter()
            .map(|&c| {
                camera
                    .project(placed.grid_to_world.transform_point3(c))
                    .map(|p| p.truncate())
            })
            .collect();
        let Some(p) = projected else { continue };
        out.push(BOX_EDGES.map(|(i, j)| (p[i], p[j])));
    }
    Ok(out)
}

/// Draw [`limb_outlines`] into `target` in `px` (over whatever is there, no depth test).
pub fn draw_limb_outlines<T: Target>(
    instances: &[Instance<'_>],
    camera: &Camera,
    target: &mut T,
    px: T::Px,
) -> Result<(), NoFrames> {
    for edges in limb_outlines(instances, camera)? {
        for (a, b) in edges {
            draw_line(target, a, b, px);
        }
    }
    Ok(())
}
