//! What a scene of voxel units is, independent of how it is loaded or drawn.
//!
//! A [`Unit`] is the pieces of one game object (body, turret, barrel), a [`Pose`] says where it
//! stands and how its pieces are turned, and an [`Instance`] is the two together. The loading rules
//! ([`crate::VoxelSet::unit`]) produce units, the ray-marcher draws instances, and camera framing
//! measures them ([`world_bounds`]); placing a piece's limbs in the world is done once, here, so the
//! three agree on where every limb is.
//!
//! Placement: a unit's body turns about Z by its facing and stands at its position; the turret sits
//! at `turret_offset` on the body and turns by `turret_facing` relative to it; the barrel rides on
//! the turret, pushed back along its own -X by the recoil. Within a piece each limb is placed by its
//! HVA frame ([`VoxelModel::limb_matrix`]).

use glam::{Mat4, Vec3};
use modex::Opacity;

use crate::model::{NoFrames, VoxelModel};

/// The pieces of one unit to draw.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unit<'a> {
    /// The hull.
    pub body: Option<&'a VoxelModel>,
    /// The turret, turned by [`Pose::turret_facing`].
    pub turret: Option<&'a VoxelModel>,
    /// The barrel, on the turret, pushed back by [`Pose::recoil`].
    pub barrel: Option<&'a VoxelModel>,
}

impl<'a> Unit<'a> {
    /// A unit made of a single model.
    pub fn single(model: &'a VoxelModel) -> Unit<'a> {
        Unit {
            body: Some(model),
            turret: None,
            barrel: None,
        }
    }

    pub(crate) fn pieces(&self) -> impl Iterator<Item = (PieceRole, &'a VoxelModel)> {
        [
            (PieceRole::Body, self.body),
            (PieceRole::Turret, self.turret),
            (PieceRole::Barrel, self.barrel),
        ]
        .into_iter()
        .filter_map(|(r, m)| m.map(|m| (r, m)))
    }

    /// Filled voxels over all pieces.
    pub fn voxel_count(&self) -> usize {
        self.pieces().map(|(_, m)| m.vxl.voxel_count()).sum()
    }
}

/// How a piece hangs on its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum PieceRole {
    Body,
    Turret,
    Barrel,
}

/// Where and how a unit stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// World position of the unit's origin.
    pub position: Vec3,
    /// Facing in the game's 256 steps: 0 = north (+Y), 64 = east (+X), clockwise seen from above.
    /// Fractions are allowed.
    pub facing: f32,
    /// Turret facing relative to the body, same units.
    pub turret_facing: f32,
    /// Where the turret sits on the body, in model units.
    pub turret_offset: Vec3,
    /// Barrel recoil: how far the barrel is pushed back along its own -X, in model units.
    pub recoil: f32,
    /// Animation frame (wraps modulo each piece's frame count).
    pub frame: usize,
    /// Tilt in degrees, nose up positive, applied after the facing (A5's `tilt`): the whole unit
    /// turns about its origin, so a plugin or script can lean or flip it.
    pub tilt: f32,
    /// Roll in degrees about the unit's own front axis, after the tilt (A5's `roll`).
    pub roll: f32,
    /// Scale per model axis (1 = as modelled; A5's `scale_x/y/z`), about the unit's origin.
    pub scale: Vec3,
    /// How much of the unit covers what is behind it (A5's `alpha`, quantised to eighths). A
    /// translucent unit is depth-tested but writes no depth, mixes its colour over the frame and
    /// is drawn after every opaque unit of the same draw, the translucent ones far to near (see
    /// [`crate::draw`]); an invisible one draws nothing.
    pub alpha: Opacity,
}

impl Default for Pose {
    fn default() -> Self {
        Pose {
            position: Vec3::ZERO,
            facing: 0.0,
            turret_facing: 0.0,
            turret_offset: Vec3::ZERO,
            recoil: 0.0,
            frame: 0,
            tilt: 0.0,
            roll: 0.0,
            scale: Vec3::ONE,
            alpha: Opacity::OPAQUE,
        }
    }
}

impl Pose {
    /// A facing given in degrees (0 = north, 90 = east).
    pub fn facing_from_degrees(deg: f32) -> f32 {
        deg / 360.0 * 256.0
    }

    fn rotation(facing: f32) -> Mat4 {
        // Facing 0 turns the model's +X (its front) to +Y; 64 keeps it on +X.
        Mat4::from_rotation_z((64.0 - facing) * std::f32::consts::TAU / 256.0)
    }

    /// Whether the unit stands as modelled: no tilt, roll or scale (the game's own poses).
    pub(crate) fn is_upright(&self) -> bool {
        self.tilt == 0.0 && self.roll == 0.0 && self.scale == Vec3::ONE
    }

    /// Tilt, roll and scale in the unit's own axes (front = +X, as the facing leaves it); the
    /// identity for an upright unit, so the game's own poses keep their exact matrices.
    fn attitude(&self) -> Mat4 {
        if self.is_upright() {
            return Mat4::IDENTITY;
        }
        Mat4::from_rotation_y(-self.tilt.to_radians())
            * Mat4::from_rotation_x(self.roll.to_radians())
            * Mat4::from_scale(self.scale)
    }

    /// The piece's frame (before its HVA limb matrices) to world space.
    pub(crate) fn piece_matrix(&self, role: PieceRole) -> Mat4 {
        let body =
            Mat4::from_translation(self.position) * Self::rotation(self.facing) * self.attitude();
        let turret = || {
            body * Mat4::from_translation(self.turret_offset)
                * Mat4::from_rotation_z(-self.turret_facing * std::f32::consts::TAU / 256.0)
        };
        match role {
            PieceRole::Body => body,
            PieceRole::Turret => turret(),
            PieceRole::Barrel => {
                turret() * Mat4::from_translation(Vec3::new(-self.recoil, 0.0, 0.0))
            }
        }
    }
}

/// One unit of a scene.
#[derive(Debug, Clone, Copy)]
pub struct Instance<'a> {
    /// What is drawn.
    pub unit: Unit<'a>,
    /// Where and how.
    pub pose: Pose,
}

/// One limb of a scene placed in the world.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlacedLimb<'a> {
    /// The piece it belongs to.
    pub model: &'a VoxelModel,
    /// Its index in the piece's layers (and volumes).
    pub limb: usize,
    /// Its grid space (cell (x, y, z) covers `[x, x + 1)` ...) to world space.
    pub grid_to_world: Mat4,
    /// Its unit's opacity.
    pub alpha: Opacity,
    /// Its unit's world position (translucent units are ordered by it).
    pub origin: Vec3,
}

/// Every drawable limb of the scene with its grid-to-world matrix, in draw order (instances, then
/// body, turret, barrel, then layers).
pub(crate) fn limbs_of<'a>(instances: &[Instance<'a>]) -> Result<Vec<PlacedLimb<'a>>, NoFrames> {
    let mut out = Vec::new();
    for inst in instances {
        for (role, model) in inst.unit.pieces() {
            let piece = inst.pose.piece_matrix(role);
            for limb in 0..model.vxl.limbs.len() {
                if let Some(m) = model.limb_matrix(limb, inst.pose.frame)? {
                    out.push(PlacedLimb {
                        model,
                        limb,
                        grid_to_world: piece * m,
                        alpha: inst.pose.alpha,
                        origin: inst.pose.position,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// World-space bounding box `(lo, hi)` of everything the scene draws (the limbs' whole boxes),
/// `None` when nothing is drawn. Framing a camera starts from it ([`crate::frame_scene`]).
pub fn world_bounds(instances: &[Instance<'_>]) -> Result<Option<(Vec3, Vec3)>, NoFrames> {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for placed in limbs_of(instances)? {
        let vol = &placed.model.volumes()[placed.limb];
        if vol.voxel_count() == 0 {
            continue;
        }
        for c in box_corners([0; 3], vol.size()) {
            let p = placed.grid_to_world.transform_point3(c);
            lo = lo.min(p);
            hi = hi.max(p);
        }
    }
    Ok(lo.is_finite().then_some((lo, hi)))
}

/// The 12 edges of a box as pairs of corner indices of [`box_corners`] (corners one bit apart),
/// in the order the outlines have always listed them.
pub(crate) const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (0, 2),
    (0, 4),
    (1, 3),
    (1, 5),
    (2, 3),
    (2, 6),
    (3, 7),
    (4, 5),
    (4, 6),
    (5, 7),
    (6, 7),
];

/// Grid-space corners of the cell box `lo..hi`; corner `i` takes `hi` on the axes of its set bits.
pub(crate) fn box_corners(lo: [usize; 3], hi: [usize; 3]) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        Vec3::from(std::array::from_fn(|a| {
            (if i & (1 << a) != 0 { hi[a] } else { lo[a] }) as f32
        }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_turns_the_front_clockwise_from_north() {
        let front = |f: f32| Pose::rotation(f).transform_vector3(Vec3::X);
        assert!((front(0.0) - Vec3::Y).length() < 1e-5);
        assert!((front(64.0) - Vec3::X).length() < 1e-5);
        assert!((front(128.0) + Vec3::Y).length() < 1e-5);
        assert_eq!(Pose::facing_from_degrees(90.0), 64.0);
    }

    #[test]
    fn box_edges_join_every_pair_of_corners_one_axis_apart() {
        let mut expected = Vec::new();
        for i in 0..8usize {
            for bit in [1usize, 2, 4] {
                if i & bit == 0 {
                    expected.push((i, i | bit));
                }
            }
        }
        assert_eq!(BOX_EDGES.to_vec(), expected);
    }
}
