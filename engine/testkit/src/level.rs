//! WMB level objects for tests: an entity and an INFO object with the values the shared samples
//! and GameStudio use, so a test names only what it is about
//! (`Entity { origin, ..level::entity(file) }`).

use glam::Vec3;
use modex_mdl::wmb::{Entity, EntityKind, Info};

/// A new-style entity (the A7 record, type 7) placing `file` at the origin, unturned, at scale 1,
/// with the rest as GameStudio leaves a fresh entity: 20 skills at 0, albedo 50, no name,
/// action, flags, ambient, path or material.
pub fn entity(file: &str) -> Entity {
    Entity {
        kind: EntityKind::New,
        origin: Vec3::ZERO,
        angle: Vec3::ZERO,
        scale: Vec3::ONE,
        name: String::new(),
        file: file.into(),
        action: String::new(),
        skills: vec![0.0; 20],
        flags: 0,
        ambient: 0.0,
        albedo: 50.0,
        path: 0,
        entity2: 0,
        material: String::new(),
        string1: String::new(),
        string2: String::new(),
    }
}

/// A level's INFO object lit by `sun_color` and `ambient_color` (`0x00RRGGBB`), with the sun
/// from azimuth 0 at elevation 60 and the compiler version 7.35, as in Ackmania's four tracks;
/// no flags, gamma, fog or lightmap size code.
pub fn info(sun_color: u32, ambient_color: u32) -> Info {
    Info {
        origin: Vec3::ZERO,
        azimuth: 0.0,
        elevation: 60.0,
        flags: 0,
        version: 7.35,
        gamma: 0,
        lightmap_size: 0,
        unused: [0; 2],
        sun_color,
        ambient_color,
        fog_colors: [0; 4],
    }
}
