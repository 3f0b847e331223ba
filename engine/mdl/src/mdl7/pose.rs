//! The pose step: a group's vertex positions and normals in one frame, outside the rasterizer.
//!
//! 1. Start from the main (rest) vertices and replace those the frame's sparse vertex list names.
//! 2. If the frame carries bone matrices, skin: each vertex moves by the weighted sum of its bones'
//!    matrices (the deformer weights of its group; a vertex without weights follows its own bone
//!    with weight 1, and a vertex with no bone stays). A bone the frame gives no matrix for keeps
//!    the identity. Normals turn with the same matrices and are renormalised.
//!
//! A frame's matrix of a bone is relative to its parent: it turns model space about the bone's own
//! joint (frame 0 of the animated LotterShock models is all identities, and each matrix keeps its
//! own joint within about a unit while the parent's rotation moves it by several), so the matrix
//! that moves a vertex is the product along the chain, root first: `W(b) = W(parent) * M(b)`.

use glam::{Mat4, Vec3};

use super::Mdl7File;

/// Positions and normals of every main vertex of a group in one frame.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupPose {
    /// One per main vertex.
    pub positions: Vec<Vec3>,
    /// One unit normal per main vertex.
    pub normals: Vec<Vec3>,
}

/// Pose group `group` of `file` in stored frame `frame` (`None` or a frame the group does not have:
/// the rest pose).
pub fn pose_group(file: &Mdl7File, group: usize, frame: Option<usize>) -> GroupPose {
    let Some(g) = file.groups.get(group) else {
        return GroupPose {
            positions: Vec::new(),
            normals: Vec::new(),
        };
    };
    let mut positions: Vec<Vec3> = g.vertices.iter().map(|v| v.position).collect();
    let mut normals: Vec<Vec3> = g.vertices.iter().map(|v| v.normal).collect();
    let Some(fr) = frame.and_then(|f| g.frames.get(f)) else {
        return GroupPose { positions, normals };
    };
    for fv in &fr.vertices {
        let i = fv.index as usize;
        if i < positions.len() {
            positions[i] = fv.position;
            normals[i] = fv.normal;
        }
    }
    // Bones are shared by all groups, and real files store the frame's matrices in one group only
    // (zorroLotti: group 0 of 11): take them from the first group that has them for this frame.
    let frame_index = frame.unwrap_or(0);
    let transforms = if fr.bone_transforms.is_empty() {
        file.groups
            .iter()
            .filter_map(|g| g.frames.get(frame_index))
            .map(|f| &f.bone_transforms[..])
            .find(|t| !t.is_empty())
            .unwrap_or(&[])
    } else {
        &fr.bone_transforms[..]
    };
    if transforms.is_empty() || file.bones.is_empty() {
        return GroupPose { positions, normals };
    }
    let mut local = vec![Mat4::IDENTITY; file.bones.len()];
    for t in transforms {
        if let Some(m) = local.get_mut(t.bone as usize) {
            *m = t.matrix;
        }
    }
    let matrices = world_matrices(file, &local);
    // Weighted bones per vertex from this group's bone deformers.
    let mut weights: Vec<Vec<(usize, f32)>> = vec![Vec::new(); positions.len()];
    for d in file
        .deformers
        .iter()
        .filter(|d| d.kind == 0 && d.group == group as i32)
    {
        for e in &d.elements {
            let Ok(bone) = usize::try_from(e.bone) else {
                continue;
            };
            if bone >= matrices.len() {
                continue;
            }
            for &(v, w) in &e.weights {
                if let Some(list) = weights.get_mut(v as usize) {
                    if w > 0.0 {
                        list.push((bone, w));
                    }
                }
            }
        }
    }
    for (i, (p, n)) in positions.iter_mut().zip(normals.iter_mut()).enumerate() {
        let list = &weights[i];
        let (pos, nor) = if list.is_empty() {
            match g.vertices[i].bone.map(|b| b as usize) {
                Some(b) if b < matrices.len() => {
                    let m = matrices[b];
                    (m.transform_point3(*p), m.transform_vector3(*n))
                }
                _ => continue,
            }
        } else {
            let total: f32 = list.iter().map(|&(_, w)| w).sum();
            let (mut sp, mut sn) = (Vec3::ZERO, Vec3::ZERO);
            for &(b, w) in list {
                let m = matrices[b];
                sp += m.transform_point3(*p) * (w / total);
                sn += m.transform_vector3(*n) * (w / total);
            }
            (sp, sn)
        };
        if pos.is_finite() {
            *p = pos;
        }
        *n = if nor.is_finite() {
            nor.normalize_or(*n)
        } else {
            *n
        };
    }
    GroupPose { positions, normals }
}

/// `W(b) = W(parent(b)) * M(b)` for every bone, root first. Parent chains are followed at most
/// `bones` steps, so a cycle in a broken file cannot loop.
fn world_matrices(file: &Mdl7File, local: &[Mat4]) -> Vec<Mat4> {
    let n = local.len();
    let mut world: Vec<Option<Mat4>> = vec![None; n];
    for b in 0..n {
        // The chain from b up to a computed bone or a root.
        let mut chain = vec![b];
        let mut cur = b;
        while world[cur].is_none() && chain.len() <= n {
            match file.bones[cur].parent.map(|p| p as usize) {
                Some(p) if p < n && world[p].is_none() && !chain.contains(&p) => {
                    chain.push(p);
                    cur = p;
                }
                _ => break,
            }
        }
        for &c in chain.iter().rev() {
            if world[c].is_some() {
                continue;
            }
            let parent = file.bones[c]
                .parent
                .map(|p| p as usize)
                .filter(|&p| p < n && p != c)
                .and_then(|p| world[p]);
            world[c] = Some(parent.map_or(local[c], |w| w * local[c]));
        }
    }
    world
        .into_iter()
        .map(|m| m.unwrap_or(Mat4::IDENTITY))
        .collect()
}
