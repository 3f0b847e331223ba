//! How the demo's units travel as A5 entities.
//!
//! An A5 entity has a model file, a position, pan/tilt/roll, a frame and a fraction, a skin; the
//! demo's units also have a turret and a recoil, which an A5 entity does not. The mapping (also in
//! `docs/network.md`):
//!
//! | unit | entity field |
//! |---|---|
//! | kind | `type`: `tank.vxl`, `apc.vxl`, `heli.vxl` |
//! | position (world units = quants) | `position` |
//! | facing (256 steps, 0 = north, clockwise) | `pan` (A5 degrees: 0 = +X, counter-clockwise), `pan = 90 - facing * 360 / 256` |
//! | turret facing relative to the body | `roll` in degrees (a ground unit never rolls) |
//! | HVA frame | `frame` |
//! | barrel recoil 0..4 | `fraction` = recoil / 4 |
//! | team | `skin` |

use anyhow::{Context, Result};
use glam::Vec3;
use modex_demo::scene::world::{Unit, UnitKind};
use modex_net::{
    Angle, ClientEntity, EntityPosition, EntityState, NetString, PosResolution, Scale,
};

/// Largest recoil the simulation sets (`World::step`).
const MAX_RECOIL: f32 = 4.0;

fn model_name(kind: UnitKind) -> &'static str {
    match kind {
        UnitKind::Tank => "tank.vxl",
        UnitKind::Apc => "apc.vxl",
        UnitKind::Heli => "heli.vxl",
    }
}

fn kind_of(model: &[u8]) -> Option<UnitKind> {
    Some(match model {
        b"tank.vxl" => UnitKind::Tank,
        b"apc.vxl" => UnitKind::Apc,
        b"heli.vxl" => UnitKind::Heli,
        _ => return None,
    })
}

/// A5 pan in degrees from the game's facing.
fn pan_of(facing: f32) -> f64 {
    (90.0 - facing as f64 * 360.0 / 256.0).rem_euclid(360.0)
}

/// The game's facing from an A5 pan.
fn facing_of(pan: f64) -> f32 {
    ((90.0 - pan) * 256.0 / 360.0).rem_euclid(256.0) as f32
}

/// The entity a unit is sent as.
pub fn entity_of(u: &Unit) -> Result<EntityState> {
    let mut s = EntityState::new(NetString::from_latin1(model_name(u.kind)).expect("ASCII names"));
    s.position =
        EntityPosition::from_quants(u.position.as_dvec3().to_array(), PosResolution::Packed)
            .context("unit position")?;
    s.pan = Angle::from_degrees(pan_of(u.facing))?;
    s.roll = Angle::from_degrees(u.turret as f64 * 360.0 / 256.0)?;
    s.frame = i16::try_from(u.frame).context("unit frame")?;
    s.fraction = Scale::from_value((u.recoil / MAX_RECOIL).clamp(0.0, 1.0) as f64)?;
    s.skin = u.team;
    Ok(s)
}

/// The unit a client draws for an entity at server time `time`, extrapolated at most `max_ahead`
/// seconds past its last update; `None` for entities that are not demo units or have no position
/// yet.
pub fn unit_of(e: &ClientEntity, time: f64, max_ahead: f64) -> Option<Unit> {
    let kind = kind_of(e.state.model.as_bytes())?;
    if !e.has_position() {
        return None;
    }
    let p = e.position_at(time, max_ahead);
    let [pan, _tilt, roll] = e.angles_at(time, max_ahead);
    Some(Unit::placed(
        kind,
        e.state.skin,
        Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32),
        facing_of(pan),
        (roll * 256.0 / 360.0) as f32,
        e.state.fraction.value() as f32 * MAX_RECOIL,
        e.state.frame.max(0) as usize,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_and_pan_agree() {
        assert_eq!(pan_of(0.0), 90.0); // north is +Y
        assert_eq!(pan_of(64.0), 0.0); // east is +X
        for f in [0.0, 10.5, 64.0, 128.0, 200.25, 255.0] {
            assert!((facing_of(pan_of(f)) - f).abs() < 1e-3);
        }
    }
}
