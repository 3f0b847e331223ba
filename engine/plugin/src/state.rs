//! The engine's side of the exchange: entity and camera state in the engine's own units, and how
//! they map to the A5 structs a plugin reads and writes.

use modex::Fixed;

use crate::abi::{A4Entity, A4View, RawFixed, A4_INVISIBLE, A4_TRANSPARENT};

/// Which engine object an entity stands for. `Engine` keys are the engine's own (the demo numbers
/// its terrain, props and units); `Spawned` ones are made by `ent_create`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EntityKey {
    /// An entity the engine owns and writes before every hook.
    Engine(u64),
    /// An entity a plugin made with `ent_create`; it lives until `ent_remove`.
    Spawned(u64),
}

fn fx(v: f32) -> RawFixed {
    Fixed::from_f32(v).raw()
}

fn fl(v: RawFixed) -> f32 {
    Fixed(v).to_f32()
}

/// What the engine writes into an `A4_ENTITY` before a hook and reads back after it, in its own
/// units (quants, degrees, scale 1.0, A5's 0..100 ranges).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EntityState {
    /// Position in quants (world units).
    pub position: [f32; 3],
    /// Heading around Z in degrees.
    pub pan: f32,
    /// Pitch in degrees, positive = nose up.
    pub tilt: f32,
    /// Roll in degrees.
    pub roll: f32,
    /// Scale factors.
    pub scale: [f32; 3],
    /// Animation frame (the fraction interpolates).
    pub frame: f32,
    /// Interpolation target frame + 1; 0 = the following frame (A5's convention).
    pub nextframe: f32,
    /// Skin number.
    pub skin: f32,
    /// -100..+100.
    pub ambient: f32,
    /// 0..100.
    pub albedo: f32,
    /// 0..100 (50 is A5's default); drawn only when `transparent`.
    pub alpha: f32,
    /// The `TRANSPARENT` flag: drawn mixed over what is behind at `alpha` percent.
    pub transparent: bool,
    /// The `INVISIBLE` flag: not drawn.
    pub invisible: bool,
    /// Bounding box relative to the position.
    pub min: [f32; 3],
    /// Bounding box relative to the position.
    pub max: [f32; 3],
}

impl Default for EntityState {
    fn default() -> Self {
        EntityState {
            position: [0.0; 3],
            pan: 0.0,
            tilt: 0.0,
            roll: 0.0,
            scale: [1.0; 3],
            frame: 0.0,
            nextframe: 0.0,
            skin: 0.0,
            ambient: 0.0,
            albedo: 50.0,
            alpha: 50.0,
            transparent: false,
            invisible: false,
            min: [0.0; 3],
            max: [0.0; 3],
        }
    }
}

impl EntityState {
    /// Fill the engine-owned fields of `e` (the `TRANSPARENT` and `INVISIBLE` bits of `flags`
    /// included); skills, the other flags, light colour and the rest stay as the plugin left them.
    pub fn write_to(&self, e: &mut A4Entity) {
        [e.x, e.y, e.z] = self.position.map(fx);
        e.pan = fx(self.pan);
        e.tilt = fx(self.tilt);
        e.roll = fx(self.roll);
        [e.scale_x, e.scale_y, e.scale_z] = self.scale.map(fx);
        e.frame = fx(self.frame);
        e.nextframe = fx(self.nextframe);
        e.skin = fx(self.skin);
        e.ambient = fx(self.ambient);
        e.albedo = fx(self.albedo);
        e.alpha = fx(self.alpha);
        for (on, bit) in [
            (self.transparent, A4_TRANSPARENT),
            (self.invisible, A4_INVISIBLE),
        ] {
            e.flags = if on { e.flags | bit } else { e.flags & !bit };
        }
        e.min = self.min.map(fx);
        e.max = self.max.map(fx);
    }

    /// Read back what a plugin may have changed.
    pub fn read_from(e: &A4Entity) -> EntityState {
        EntityState {
            position: [e.x, e.y, e.z].map(fl),
            pan: fl(e.pan),
            tilt: fl(e.tilt),
            roll: fl(e.roll),
            scale: [e.scale_x, e.scale_y, e.scale_z].map(fl),
            frame: fl(e.frame),
            nextframe: fl(e.nextframe),
            skin: fl(e.skin),
            ambient: fl(e.ambient),
            albedo: fl(e.albedo),
            alpha: fl(e.alpha),
            transparent: e.flags & A4_TRANSPARENT != 0,
            invisible: e.flags & A4_INVISIBLE != 0,
            min: e.min.map(fl),
            max: e.max.map(fl),
        }
    }
}

/// What the engine writes into `camera` (an `A4_VIEW`) and reads back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraState {
    /// Eye position in quants.
    pub position: [f32; 3],
    /// Heading in degrees.
    pub pan: f32,
    /// Pitch in degrees.
    pub tilt: f32,
    /// Roll in degrees.
    pub roll: f32,
    /// Field of view in degrees.
    pub arc: f32,
    /// Brightness, -100..+100.
    pub ambient: f32,
    /// Screen size in pixels (read only for plugins).
    pub size: [u32; 2],
}

impl CameraState {
    /// Fill `v` (the plugin-only fields, such as `fog`, stay).
    pub fn write_to(&self, v: &mut A4View) {
        [v.x, v.y, v.z] = self.position.map(fx);
        v.pan = fx(self.pan);
        v.tilt = fx(self.tilt);
        v.roll = fx(self.roll);
        v.arc = fx(self.arc);
        v.ambient = fx(self.ambient);
        v.size_x = Fixed::from_int(self.size[0] as i32).raw();
        v.size_y = Fixed::from_int(self.size[1] as i32).raw();
        v.aspect = if self.size[1] > 0 {
            fx(self.size[0] as f32 / self.size[1] as f32)
        } else {
            Fixed::ONE.raw()
        };
    }

    /// Read back; the screen size is the engine's, whatever the plugin wrote.
    pub fn read_from(v: &A4View, size: [u32; 2]) -> CameraState {
        CameraState {
            position: [v.x, v.y, v.z].map(fl),
            pan: fl(v.pan),
            tilt: fl(v.tilt),
            roll: fl(v.roll),
            arc: fl(v.arc),
            ambient: fl(v.ambient),
            size,
        }
    }
}

/// `vec_rotate`: turn `v` by the euler angles `pan, tilt, roll` (degrees) as A5 does, the same
/// rotation the rasterizer gives an entity (roll about X, then tilt about Y, then pan about Z).
pub fn vec_rotate(v: &mut [RawFixed; 3], angles: &[RawFixed; 3]) {
    let [pan, tilt, roll] = angles.map(|a| fl(a).to_radians());
    let q = glam::Quat::from_rotation_z(pan)
        * glam::Quat::from_rotation_y(-tilt)
        * glam::Quat::from_rotation_x(roll);
    let r = q * glam::Vec3::from(v.map(fl));
    *v = r.to_array().map(fx);
}
