//! The demo's voxel units, built voxel by voxel from shape functions and written as VXL/HVA files
//! with [`modex_vxl::encode`]: a tank (body, `TUR` and `BARL` pieces, as the game splits them), an
//! APC (body only) and a helicopter whose rotor is a second limb spun by an 8-frame HVA animation.
//!
//! Normals are what the game's artists baked in: for each surface voxel, the direction away from
//! its filled neighbourhood, snapped to the nearest entry of the Red Alert 2 table (mode 4).

use glam::Vec3;
use modex::normals::nearest_index;
use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};
use modex_vxl::VxlNormalTable;

/// Normals mode written into every limb: Red Alert 2's 244-entry table.
pub const NORMALS_MODE: u8 = 4;

/// A limb under construction: a colour (palette index) per cell, 0 = empty.
struct Grid {
    size: [usize; 3],
    cells: Vec<u8>,
}

impl Grid {
    fn from_fn(size: [usize; 3], f: impl Fn(f32, f32, f32) -> Option<u8>) -> Grid {
        let mut cells = vec![0u8; size[0] * size[1] * size[2]];
        for z in 0..size[2] {
            for y in 0..size[1] {
                for x in 0..size[0] {
                    // Sample at the cell centre.
                    if let Some(c) = f(x as f32 + 0.5, y as f32 + 0.5, z as f32 + 0.5) {
                        cells[(z * size[1] + y) * size[0] + x] = c.max(1);
                    }
                }
            }
        }
        Grid { size, cells }
    }

    fn get(&self, x: i32, y: i32, z: i32) -> u8 {
        let [sx, sy, sz] = self.size.map(|v| v as i32);
        if x < 0 || y < 0 || z < 0 || x >= sx || y >= sy || z >= sz {
            return 0;
        }
        self.cells[((z * sy + y) * sx + x) as usize]
    }

    /// The surface voxels with baked normal indices.
    fn voxels(&self, table: &VxlNormalTable) -> Vec<(u8, u8, u8, u8, u8)> {
        let mut out = Vec::new();
        let [sx, sy, sz] = self.size.map(|v| v as i32);
        for z in 0..sz {
            for y in 0..sy {
                for x in 0..sx {
                    let c = self.get(x, y, z);
                    if c == 0 {
                        continue;
                    }
                    let exposed = [
                        (1, 0, 0),
                        (-1, 0, 0),
                        (0, 1, 0),
                        (0, -1, 0),
                        (0, 0, 1),
                        (0, 0, -1),
                    ]
                    .iter()
                    .any(|&(dx, dy, dz)| self.get(x + dx, y + dy, z + dz) == 0);
                    if !exposed {
                        continue;
                    }
                    let mut n = Vec3::ZERO;
                    for dz in -2..=2 {
                        for dy in -2..=2 {
                            for dx in -2..=2 {
                                if self.get(x + dx, y + dy, z + dz) == 0 {
                                    n += Vec3::new(dx as f32, dy as f32, dz as f32);
                                }
                            }
                        }
                    }
                    let n = n.normalize_or(Vec3::Z);
                    out.push((
                        x as u8,
                        y as u8,
                        z as u8,
                        c,
                        nearest_index(table.entries, n.to_array()) as u8,
                    ));
                }
            }
        }
        out
    }

    /// A limb spanning `min..max` in model units.
    fn limb(&self, name: &str, min: Vec3, max: Vec3) -> LimbSpec {
        let table = VxlNormalTable::for_mode(NORMALS_MODE).expect("mode 4 exists");
        let mut l = LimbSpec::empty(self.size.map(|v| v as u8));
        l.name = name.to_string();
        l.voxels = self.voxels(&table);
        l.min = min.to_array();
        l.max = max.to_array();
        l.normals_mode = NORMALS_MODE;
        l
    }

    /// A limb at one model unit per voxel, centred in x and y, standing on z = 0.
    fn centred_limb(&self, name: &str) -> LimbSpec {
        let s = Vec3::new(
            self.size[0] as f32,
            self.size[1] as f32,
            self.size[2] as f32,
        );
        self.limb(
            name,
            Vec3::new(-s.x / 2.0, -s.y / 2.0, 0.0),
            Vec3::new(s.x / 2.0, s.y / 2.0, s.z),
        )
    }
}

/// Row-major 3x4 transform: rotation about Z by `angle`, then translation `t`.
fn rot_z_translate(angle: f32, t: Vec3) -> [f32; 12] {
    let (s, c) = angle.sin_cos();
    [c, -s, 0.0, t.x, s, c, 0.0, t.y, 0.0, 0.0, 1.0, t.z]
}

/// One generated file: its name in `data/demo/units/` and its bytes.
pub type UnitFile = (String, Vec<u8>);

fn piece(name: &str, vxl: VxlSpec, hva: HvaSpec) -> [UnitFile; 2] {
    [
        (format!("{name}.vxl"), vxl.encode()),
        (format!("{name}.hva"), hva.encode()),
    ]
}

// Quake palette indices used by the units.
const TRACK: u8 = 2;
const TRACK_LIGHT: u8 = 5;
const OLIVE: u8 = 54;
const OLIVE_LIGHT: u8 = 57;
const STEEL: u8 = 6;
const SAND: u8 = 164;
const SAND_DARK: u8 = 167;
const HELI_GREEN: u8 = 180;
const GLASS: u8 = 42;

/// Where the tank's turret sits on its body, in model units (the demo's `Pose::turret_offset`).
pub const TANK_TURRET_OFFSET: Vec3 = Vec3::new(-2.0, 0.0, 8.0);

fn tank() -> Vec<UnitFile> {
    let body = Grid::from_fn([30, 20, 9], |x, y, z| {
        let track = !(5.0..15.0).contains(&y);
        if track && z < 5.0 {
            // Track ends rounded off at the bottom and top runs.
            let inset = match z as i32 {
                0 => 2.0,
                4 => 1.0,
                _ => 0.0,
            };
            if x >= 1.0 + inset && x <= 29.0 - inset {
                return Some(if (x as i32) % 3 == 0 {
                    TRACK_LIGHT
                } else {
                    TRACK
                });
            }
            return None;
        }
        if (3.0..17.0).contains(&y) && (3.0..8.0).contains(&z) && x >= 2.0 && x <= 27.5 - (z - 3.0)
        {
            return Some(if z >= 7.0 { OLIVE_LIGHT } else { OLIVE });
        }
        None
    });
    let turret = Grid::from_fn([14, 12, 6], |x, y, z| {
        let (dx, dy) = ((x - 7.0) / 7.0, (y - 6.0) / 6.0);
        let shrink = 1.0 - (z / 6.0) * 0.35;
        (dx * dx + dy * dy <= shrink * shrink).then(|| {
            if z >= 5.0 && (x - 5.0).abs() < 1.5 && (y - 6.0).abs() < 1.5 {
                TRACK
            } else {
                OLIVE_LIGHT
            }
        })
    });
    let barrel = Grid::from_fn([18, 4, 4], |x, y, z| {
        let r = (y - 2.0).hypot(z - 2.0);
        (r <= if x > 15.0 { 2.0 } else { 1.3 }).then_some(STEEL)
    });
    let mut out = Vec::new();
    out.extend(piece(
        "tank",
        VxlSpec::single(body.centred_limb("body")),
        HvaSpec::identity(1, 1),
    ));
    out.extend(piece(
        "tanktur",
        VxlSpec::single(turret.centred_limb("turret")),
        HvaSpec::identity(1, 1),
    ));
    // The barrel starts inside the turret and points forward (+X), at the turret's mid height.
    out.extend(piece(
        "tankbarl",
        VxlSpec::single(barrel.limb(
            "barrel",
            Vec3::new(2.0, -2.0, 1.5),
            Vec3::new(20.0, 2.0, 5.5),
        )),
        HvaSpec::identity(1, 1),
    ));
    out
}

fn apc() -> Vec<UnitFile> {
    let body = Grid::from_fn([26, 16, 12], |x, y, z| {
        for wx in [5.0, 21.0] {
            let wheel = (x - wx).hypot(z - 3.5) <= 3.5;
            if wheel && !(3.0..13.0).contains(&y) {
                return Some(TRACK);
            }
        }
        let inside =
            (2.0..14.0).contains(&y) && (3.0..11.0).contains(&z) && (1.0..25.0).contains(&x);
        // Sloped nose: the front top is cut away.
        let nose = x - 25.0 + (z - 7.0).max(0.0) * 1.5;
        if inside && nose <= 0.0 {
            let window = (8.0..10.0).contains(&z) && x > 17.0 && (3.0..13.0).contains(&y);
            return Some(if window {
                GLASS
            } else if z >= 10.0 {
                SAND
            } else {
                SAND_DARK
            });
        }
        None
    });
    piece(
        "apc",
        VxlSpec::single(body.centred_limb("hull")),
        HvaSpec::identity(1, 1),
    )
    .to_vec()
}

/// Frames of the helicopter's rotor animation.
pub const HELI_FRAMES: usize = 8;

fn heli() -> Vec<UnitFile> {
    let fuselage = Grid::from_fn([30, 12, 11], |x, y, z| {
        // Cabin: an ellipsoid at the front; boom: a thin bar to the tail; skids below.
        let (dx, dy, dz) = ((x - 20.0) / 10.0, (y - 6.0) / 5.0, (z - 6.0) / 4.5);
        if dx * dx + dy * dy + dz * dz <= 1.0 {
            let glass = x > 25.0 && z > 5.0;
            return Some(if glass { GLASS } else { HELI_GREEN });
        }
        if x < 12.0 && (y - 6.0).abs() < 1.2 && (z - 7.0).abs() < 1.2 {
            return Some(HELI_GREEN);
        }
        if x < 3.0 && (y - 6.0).abs() < 0.6 && (6.0..11.0).contains(&z) {
            return Some(HELI_GREEN);
        }
        let skid = (y - 2.0).abs() < 0.6 || (y - 10.0).abs() < 0.6;
        if skid && z < 1.0 && (13.0..27.0).contains(&x) {
            return Some(TRACK);
        }
        None
    });
    let rotor = Grid::from_fn([32, 32, 1], |x, y, _| {
        let (dx, dy) = (x - 16.0, y - 16.0);
        let blade = (dx.abs() < 1.0 || dy.abs() < 1.0) && dx.hypot(dy) <= 16.0;
        blade.then_some(TRACK_LIGHT)
    });
    let s = Vec3::new(30.0, 12.0, 11.0);
    let fuselage_limb = fuselage.limb(
        "fuselage",
        Vec3::new(-s.x / 2.0, -s.y / 2.0, 0.0),
        Vec3::new(s.x / 2.0, s.y / 2.0, s.z),
    );
    let rotor_limb = rotor.limb(
        "rotor",
        Vec3::new(-16.0, -16.0, 0.0),
        Vec3::new(16.0, 16.0, 1.0),
    );
    let vxl = VxlSpec {
        limbs: vec![fuselage_limb, rotor_limb],
        ..VxlSpec::default()
    };
    // HVA translations are multiplied by the first layer's scale (1/12) when drawn: store hub * 12.
    let hub = Vec3::new(5.0, 0.0, 11.0) * 12.0;
    let mut hva = HvaSpec::identity(2, HELI_FRAMES);
    for (f, frame) in hva.frames.iter_mut().enumerate() {
        // Four blades: a quarter turn brings the rotor back to its first picture.
        let angle = f as f32 / HELI_FRAMES as f32 * std::f32::consts::FRAC_PI_2;
        frame[1] = rot_z_translate(angle, hub);
    }
    piece("heli", vxl, hva).to_vec()
}

/// Every unit file of the demo.
pub fn generate() -> Vec<UnitFile> {
    let mut out = tank();
    out.extend(apc());
    out.extend(heli());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex::DirSource;
    use modex_voxel::{TypeKind, VoxelSet, VoxelType};

    #[test]
    fn units_load_through_the_game_rules() {
        let dir = std::env::temp_dir().join(format!("modex-demo-units-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, bytes) in generate() {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        let src = DirSource::new(&dir);
        let tank = VoxelSet::load(&VoxelType::new("tank", TypeKind::Vehicle, true), &src);
        assert!(tank.failure.is_none(), "{:?}", tank.failure);
        assert!(tank.body.is_some() && tank.turret.is_some() && tank.barrel.is_some());
        let apc = VoxelSet::load(&VoxelType::new("apc", TypeKind::Vehicle, false), &src);
        assert!(apc.body.is_some() && apc.turret.is_none());
        let heli = VoxelSet::load(&VoxelType::new("heli", TypeKind::Aircraft, false), &src);
        let body = heli.body.as_ref().unwrap();
        assert_eq!(body.vxl.limbs.len(), 2);
        assert_eq!(body.frame_count(), HELI_FRAMES);
        // Only surface voxels are stored, and there are plenty of them.
        assert!(tank.unit().voxel_count() > 1000);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
