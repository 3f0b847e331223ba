//! The cache's key: which sprite draws a limb of a piece at a pose, what a sprite was recorded
//! with besides its key (the context), and where on screen it goes (the origin's pixel corner).

use rustc_hash::FxHashMap;

use glam::{Mat3, Mat4, Vec2, Vec3};
use modex::{Camera, Projection};

use super::super::{RenderOptions, Splatting};
use crate::model::{NoFrames, VoxelModel};
use crate::scene::{PieceRole, Pose, Unit};

/// Facings per turn of the default key: the game's 256 steps.
pub const DEFAULT_FACINGS: u32 = 256;

/// Recoil steps per model unit in the barrel's key: 1/8 unit is at most 0.06 unit of error, a
/// fifth of a pixel at the battlefield's 1080p scale.
pub(crate) const RECOIL_STEPS: f32 = 8.0;

/// What a sprite was recorded with, besides its key: a change empties the cache.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Context {
    /// The view matrix's rotation, exact bits.
    rotation: [u32; 9],
    /// Orthographic view height, exact bits.
    height: u32,
    viewport: (usize, usize),
    near_far: [u32; 2],
    splat: Splatting,
}

impl Context {
    /// The context of a camera; `None` for a perspective camera (drawn directly: the cache's
    /// module docs say why) or one whose matrices are not finite.
    pub(super) fn of(camera: &Camera, opts: &RenderOptions) -> Option<Context> {
        let Projection::Orthographic { height } = camera.projection else {
            return None;
        };
        if !camera.view_projection().is_finite() || camera.width == 0 || camera.height == 0 {
            return None;
        }
        let r = Mat3::from_mat4(camera.view()).to_cols_array();
        Some(Context {
            rotation: r.map(f32::to_bits),
            height: height.to_bits(),
            viewport: (camera.width, camera.height),
            near_far: [camera.near.to_bits(), camera.far.to_bits()],
            splat: opts.splat,
        })
    }
}

/// Which sprite draws a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Key {
    /// The model's address (the cache borrows it, so it stays unique).
    model: usize,
    role: PieceRole,
    /// Quantised facing: the body's, or body + turret for turret and barrel of an upright unit.
    facing: u32,
    /// Quantised turret facing of a unit that is not upright (else 0).
    turret: u32,
    /// The limb of the piece.
    limb: usize,
    /// The first HVA frame in which the limb has the same matrix (so a limb that does not move
    /// in an animation, like the helicopter's fuselage under its turning rotor, has one entry).
    frame: usize,
    /// The barrel's recoil in [`RECOIL_STEPS`] per model unit (else 0).
    recoil: i32,
    /// Tilt, roll and scale bits of a unit that is not upright (else 0).
    attitude: [u32; 5],
}

/// `p` moved in the screen plane so that it projects onto the nearest pixel corner (whole screen
/// coordinates): where a recording places its unit, so every sprite of a key has the same phase
/// whoever recorded it, and the pieces of a unit, placed from its one origin, stay aligned. A
/// point already within 1/1000 pixel of a corner is kept as it is, so a pose there records
/// exactly its own direct draw.
#[inline]
pub(super) fn on_pixel(camera: &Camera, p: Vec3) -> Vec3 {
    let (s, _) = project(camera, p);
    let corner = anchor(s);
    if (s - corner).abs().max_element() < 1e-3 || !s.is_finite() {
        return p;
    }
    let vp = camera.view_projection();
    let clip = vp * p.extend(1.0);
    let (w, h) = (camera.width as f32, camera.height as f32);
    let ndc = Vec3::new(
        corner.x / w * 2.0 - 1.0,
        1.0 - corner.y / h * 2.0,
        clip.z / clip.w,
    );
    let moved = vp.inverse().project_point3(ndc);
    if moved.is_finite() {
        moved
    } else {
        p
    }
}

/// The pixel corner a sprite's anchor is blitted at for an origin at `s`: the nearest (where
/// [`on_pixel`] put the recording's origin).
pub(super) fn anchor(s: Vec2) -> Vec2 {
    s.round()
}

/// Where `p` is on screen and its view depth.
pub(super) fn project(camera: &Camera, p: Vec3) -> (Vec2, f32) {
    Projector::of(camera).project(p)
}

/// A camera's matrices, built once for many [`project`]s (a draw projects every unit's origin:
/// building them per unit was a fifth of sorting the draw's pieces).
pub(super) struct Projector {
    view_projection: Mat4,
    view: Mat4,
    size: Vec2,
}

impl Projector {
    pub(super) fn of(camera: &Camera) -> Projector {
        Projector {
            view_projection: camera.view_projection(),
            view: camera.view(),
            size: Vec2::new(camera.width as f32, camera.height as f32),
        }
    }

    /// [`project`] through these matrices: the same operations, so the same bits.
    pub(super) fn project(&self, p: Vec3) -> (Vec2, f32) {
        let clip = self.view_projection * p.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        let (w, h) = (self.size.x, self.size.y);
        let s = Vec2::new((ndc.x + 1.0) * 0.5 * w, (1.0 - ndc.y) * 0.5 * h);
        (s, -(self.view.transform_point3(p).z))
    }
}

/// The key's rules that need state: the facings per turn, and per (model address, limb) the
/// first frame with the same limb matrix, per frame (`None` where the limb is not drawn), found
/// once per model and limb.
pub(super) struct Keys {
    pub(super) facings: u32,
    frames: FxHashMap<(usize, usize), Vec<Option<usize>>>,
}

impl Keys {
    /// The rules for `facings` per turn.
    pub(super) fn new(facings: u32) -> Keys {
        Keys {
            facings,
            frames: FxHashMap::default(),
        }
    }

    /// The key step of a facing in game steps.
    fn quantise(&self, facing: f32) -> u32 {
        let steps = self.facings as f32 / 256.0;
        let k = (facing * steps).round();
        if k.is_finite() {
            (k as i64).rem_euclid(self.facings as i64) as u32
        } else {
            0
        }
    }

    /// `facing` moved onto its key step, not wrapped into one turn, so a facing already on a step
    /// is kept bit for bit (and the recording of such a pose is exactly its direct draw).
    fn snap(&self, facing: f32) -> f32 {
        let steps = self.facings as f32 / 256.0;
        let k = (facing * steps).round() / steps;
        if k.is_finite() {
            k
        } else {
            0.0
        }
    }

    /// The frame whose matrix limb `limb` of `model` has in `frame` (the first such), `None`
    /// when the limb is not drawn then.
    #[inline]
    pub(super) fn canonical_frame(
        &mut self,
        model: &VoxelModel,
        limb: usize,
        frame: usize,
    ) -> Result<Option<usize>, NoFrames> {
        let frames = model.frame_count().max(1);
        let id = (model as *const VoxelModel as usize, limb);
        if let std::collections::hash_map::Entry::Vacant(slot) = self.frames.entry(id) {
            let mut matrices = Vec::with_capacity(frames);
            for f in 0..frames {
                matrices.push(
                    model
                        .limb_matrix(limb, f)?
                        .map(|m| m.to_cols_array().map(f32::to_bits)),
                );
            }
            let first = (0..frames)
                .map(|f| {
                    matrices[f].map(|m| (0..=f).find(|&g| matrices[g] == Some(m)).unwrap_or(f))
                })
                .collect();
            slot.insert(first);
        }
        Ok(self.frames[&id][frame % frames])
    }

    /// The key of limb `limb` of a piece (drawn from `frame`, [`Self::canonical_frame`]) and the
    /// pose that records it.
    #[inline]
    pub(super) fn key(
        &self,
        model: &VoxelModel,
        role: PieceRole,
        limb: usize,
        frame: usize,
        pose: &Pose,
    ) -> (Key, Pose) {
        let f = self.quantise(pose.facing);
        let upright = pose.is_upright();
        let mut record = *pose;
        record.facing = self.snap(pose.facing);
        let (facing, turret) = if role == PieceRole::Body {
            (f, 0)
        } else if upright {
            // The turret's whole rotation, quantised once (not its two parts, whose errors add).
            let total = self.quantise(pose.facing + pose.turret_facing);
            record.turret_facing = self.snap(pose.facing + pose.turret_facing) - record.facing;
            (total, 0)
        } else {
            let t = self.quantise(pose.turret_facing);
            record.turret_facing = self.snap(pose.turret_facing);
            (f, t)
        };
        let recoil = if role == PieceRole::Barrel {
            let q = (pose.recoil * RECOIL_STEPS).round();
            let q = if q.is_finite() {
                q.clamp(-1e6, 1e6)
            } else {
                0.0
            };
            record.recoil = q / RECOIL_STEPS;
            q as i32
        } else {
            0
        };
        let attitude = if upright {
            [0; 5]
        } else {
            [
                pose.tilt.to_bits(),
                pose.roll.to_bits(),
                pose.scale.x.to_bits(),
                pose.scale.y.to_bits(),
                pose.scale.z.to_bits(),
            ]
        };
        let key = Key {
            model: model as *const VoxelModel as usize,
            role,
            facing,
            turret,
            limb,
            frame,
            recoil,
            attitude,
        };
        (key, record)
    }
}

/// The unit with only the piece `role` of it.
pub(super) fn only<'m>(unit: &Unit<'m>, role: PieceRole) -> Unit<'m> {
    Unit {
        body: unit.body.filter(|_| role == PieceRole::Body),
        turret: unit.turret.filter(|_| role == PieceRole::Turret),
        barrel: unit.barrel.filter(|_| role == PieceRole::Barrel),
    }
}
