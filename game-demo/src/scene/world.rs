//! The demo's simulation: units driving seeded loops over the terrain, turrets tracking the nearest
//! enemy, barrels recoiling when they fire, helicopters circling with their rotors turning, props
//! animating, and a sun that slowly walks round the sky.
//!
//! Everything advances by a fixed step ([`STEP`]) from a seed, so frame N is the same on every machine
//! and at any real frame rate: that is what makes the headless frames usable as golden images.

use std::f32::consts::TAU;

use glam::Vec3;
use rayon::prelude::*;

use super::assets::Assets;
use super::terrain;
use super::units::{HELI_FRAMES, TANK_TURRET_OFFSET};
use modex::Rng;

/// Simulation step in seconds (60 steps per second of scene time).
pub const STEP: f32 = 1.0 / 60.0;

/// World steps per light step: the sun moves once every 10 steps (six times a second of scene
/// time, 1.5 degrees of its circle each time), as a game's lighting changed in steps, so the
/// terrain, lit by nothing else that moves, is drawn once per light step and kept in between
/// while the camera stands still (`super::ground`; it was a quarter of the 1000-unit orthographic
/// frame). 10 divides the golden frames' steps (0, 150, 420), whose sun is the one they always had.
pub const LIGHT_STEP: u64 = 10;

/// Units in the default demo (and its golden frames).
pub const DEFAULT_UNITS: usize = 13;

/// The seed of the demo's world: the units' paths and the props that `modex demo`, its bench, its
/// golden frames and the examples drawing the bench's frames all share.
pub const DEMO_SEED: u64 = 1994;

/// The default demo's units by kind, in draw order; larger worlds repeat this mix.
const UNIT_MIX: [(UnitKind, usize); 3] =
    [(UnitKind::Tank, 6), (UnitKind::Apc, 4), (UnitKind::Heli, 3)];

/// What a unit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    /// Tracked tank with turret and barrel.
    Tank,
    /// Armoured personnel carrier.
    Apc,
    /// Helicopter.
    Heli,
}

/// One unit's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Which model it is.
    pub kind: UnitKind,
    /// Its side (0 or 1); tanks aim at units of the other side.
    pub team: u8,
    /// Loop: centre, radii, angular speed (radians per second, signed), current angle.
    centre: Vec3,
    radius: [f32; 2],
    speed: f32,
    angle: f32,
    /// World position.
    pub position: Vec3,
    /// Facing in the game's 256 steps (0 = north, clockwise).
    pub facing: f32,
    /// Turret facing relative to the body, 256 steps.
    pub turret: f32,
    /// Barrel recoil in model units (decays to 0).
    pub recoil: f32,
    reload: f32,
    /// HVA animation frame.
    pub frame: usize,
}

impl Unit {
    /// A unit placed from outside the simulation, e.g. by the network client drawing what the server
    /// says: it stands where it is put and drives no loop of its own.
    pub fn placed(
        kind: UnitKind,
        team: u8,
        position: Vec3,
        facing: f32,
        turret: f32,
        recoil: f32,
        frame: usize,
    ) -> Unit {
        Unit {
            kind,
            team,
            centre: position,
            radius: [0.0; 2],
            speed: 0.0,
            angle: 0.0,
            position,
            facing,
            turret,
            recoil,
            reload: f32::INFINITY,
            frame,
        }
    }
}

impl Unit {
    /// A unit on a seeded loop: centre near the middle of the map, radii by kind, 12..30 units per
    /// second either way round. The order of the draws from `rng` is part of the demo's golden frames.
    fn seeded(rng: &mut Rng, kind: UnitKind, team: u8) -> Unit {
        let (lo, hi) = if kind == UnitKind::Heli {
            (90.0, 170.0)
        } else {
            (40.0, 150.0)
        };
        let centre = Vec3::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0), 0.0);
        let radius = [rng.range(lo, hi), rng.range(lo, hi)];
        let dir = if rng.below(2) == 0 { 1.0 } else { -1.0 };
        // Angular speed for a ground speed of 12..30 units per second.
        let speed = dir * rng.range(12.0, 30.0) / ((radius[0] + radius[1]) / 2.0);
        Unit {
            kind,
            team,
            centre,
            radius,
            speed,
            angle: rng.range(0.0, TAU),
            position: Vec3::ZERO,
            facing: 0.0,
            turret: 0.0,
            recoil: 0.0,
            reload: rng.range(0.5, 3.0),
            frame: 0,
        }
    }
}

/// A prop's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Prop {
    /// A windmill (else a flag).
    pub is_windmill: bool,
    /// Where it stands.
    pub position: Vec3,
    /// Heading in degrees.
    pub pan: f32,
    /// Animation position in frames (fraction = interpolation towards the next frame).
    pub frame: f32,
    rate: f32,
}

/// The whole scene state.
#[derive(Debug, Clone, PartialEq)]
pub struct World {
    /// Steps taken.
    pub steps: u64,
    /// The units, in draw order.
    pub units: Vec<Unit>,
    /// The props, in draw order.
    pub props: Vec<Prop>,
    /// Terrain vertex positions (frame 0 of the HMP), for heights.
    heights: Vec<Vec3>,
}

/// Angle of a direction in the game's facing units: 0 = +Y (north), 64 = +X (east).
fn facing_of(d: Vec3) -> f32 {
    (d.x.atan2(d.y) / TAU * 256.0).rem_euclid(256.0)
}

/// Positions as columns, so a tank's search over them is straight-line arithmetic the compiler
/// vectorises.
#[derive(Debug, Clone, Default)]
struct Positions {
    x: Vec<f32>,
    y: Vec<f32>,
    z: Vec<f32>,
}

impl FromIterator<Vec3> for Positions {
    fn from_iter<I: IntoIterator<Item = Vec3>>(iter: I) -> Positions {
        let mut out = Positions::default();
        for p in iter {
            out.x.push(p.x);
            out.y.push(p.y);
            out.z.push(p.z);
        }
        out
    }
}

/// The position of `others` nearest `me`, the first of equally near ones: what
/// `Iterator::min_by` by `f32::total_cmp` of `p.distance_squared(me)` picks (the same sums in
/// glam's order, compared by `total_cmp`'s own integer key, NaN included). `keys` is scratch.
fn nearest(others: &Positions, me: Vec3, keys: &mut Vec<i32>) -> Option<Vec3> {
    keys.clear();
    keys.extend(
        others
            .x
            .iter()
            .zip(&others.y)
            .zip(&others.z)
            .map(|((&x, &y), &z)| {
                let (dx, dy, dz) = (x - me.x, y - me.y, z - me.z);
                total_order_key((dx * dx) + (dy * dy) + (dz * dz))
            }),
    );
    let min = keys.iter().copied().min()?;
    let i = keys.iter().position(|&k| k == min)?;
    Some(Vec3::new(others.x[i], others.y[i], others.z[i]))
}

/// The integer whose order is `f32::total_cmp`'s (the key it compares), so a float can be a
/// sort or `min` key.
pub(crate) fn total_order_key(v: f32) -> i32 {
    let k = v.to_bits() as i32;
    k ^ (((k >> 31) as u32) >> 1) as i32
}

/// Signed shortest difference a - b in facing units, in -128..128.
fn facing_delta(a: f32, b: f32) -> f32 {
    (a - b + 128.0).rem_euclid(256.0) - 128.0
}

impl World {
    /// A world of a dozen-plus units ([`DEFAULT_UNITS`]) and a few props, from `seed`, over the
    /// terrain `heights`.
    pub fn new(seed: u64, heights: Vec<Vec3>) -> World {
        World::with_units(seed, heights, DEFAULT_UNITS)
    }

    /// The demo's world ([`DEMO_SEED`]) of `count` units over the demo terrain of `assets`: what
    /// `modex demo` and its bench draw.
    pub fn demo(assets: &Assets, count: usize) -> World {
        World::with_units(
            DEMO_SEED,
            assets.terrain.model.frames[0].positions.clone(),
            count,
        )
    }

    /// A world of `count` units, as `modex demo --bench` scales it. The first [`DEFAULT_UNITS`]
    /// units and the props come from the seed exactly as in [`World::new`] (so the default demo and
    /// its golden frames do not change); more units are drawn from the same generator after the
    /// props, in the same 6 tanks : 4 APCs : 3 helicopters mix over the same loops, and fewer
    /// keep the first `count`.
    pub fn with_units(seed: u64, heights: Vec<Vec3>, count: usize) -> World {
        let mut rng = Rng::new(seed);
        let mut units = Vec::new();
        for (kind, n) in UNIT_MIX {
            for i in 0..n {
                units.push(Unit::seeded(&mut rng, kind, (i % 2) as u8));
            }
        }
        let mut props = Vec::new();
        for i in 0..6 {
            let a = i as f32 / 6.0 * TAU + rng.range(-0.3, 0.3);
            let r = rng.range(170.0, 215.0);
            props.push(Prop {
                is_windmill: i % 3 == 0,
                position: Vec3::new(a.cos() * r, a.sin() * r, 0.0),
                pan: rng.range(0.0, 360.0),
                frame: rng.range(0.0, 8.0),
                rate: if i % 3 == 0 {
                    3.0
                } else {
                    rng.range(7.0, 10.0)
                },
            });
        }
        units.truncate(count);
        for j in units.len()..count {
            // The j-th unit's place in the repeating mix of DEFAULT_UNITS.
            let mut slot = j % DEFAULT_UNITS;
            let kind = UNIT_MIX
                .iter()
                .find_map(|&(kind, n)| {
                    if slot < n {
                        Some(kind)
                    } else {
                        slot -= n;
                        None
                    }
                })
                .unwrap_or(UnitKind::Tank);
            units.push(Unit::seeded(&mut rng, kind, (j % 2) as u8));
        }
        let mut w = World {
            steps: 0,
            units,
            props,
            heights,
        };
        for p in &mut w.props {
            p.position.z = terrain::height_at(&w.heights, p.position.x, p.position.y) - 1.0;
        }
        w.place_units();
        w
    }

    /// Ground height at (x, y).
    pub fn ground(&self, x: f32, y: f32) -> f32 {
        terrain::height_at(&self.heights, x, y)
    }

    fn place_units(&mut self) {
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let at =
                |a: f32| u.centre + Vec3::new(a.cos() * u.radius[0], a.sin() * u.radius[1], 0.0);
            let p = at(u.angle);
            let ahead = at(u.angle + u.speed.signum() * 0.01);
            let lift = if u.kind == UnitKind::Heli { 70.0 } else { 0.0 };
            let z = terrain::height_at(&self.heights, p.x, p.y) + lift;
            let facing = facing_of(ahead - p);
            let u = &mut self.units[i];
            u.position = Vec3::new(p.x, p.y, z);
            u.facing = facing;
        }
    }

    /// Seconds of scene time.
    pub fn time(&self) -> f32 {
        self.steps as f32 * STEP
    }

    /// Direction towards the sun: circles the sky once every 40 seconds, 50 degrees up, moving
    /// in light steps of [`LIGHT_STEP`] world steps.
    pub fn sun(&self) -> Vec3 {
        let steps = self.steps - self.steps % LIGHT_STEP;
        let a = steps as f32 * STEP * TAU / 40.0;
        let elev = 50f32.to_radians();
        Vec3::new(a.cos() * elev.cos(), a.sin() * elev.cos(), elev.sin())
    }

    /// Advance one fixed step.
    pub fn step(&mut self) {
        self.steps += 1;
        for u in &mut self.units {
            u.angle += u.speed * STEP;
        }
        self.place_units();
        let t = self.time();
        // For each team a tank is on, the positions of every unit of another team, in the
        // units' order: each tank searches them all (with 1000 units a quarter of a million
        // distances a step, serial in every bench frame; docs/benchmarks.md, issue 43, lever 14).
        // The searches only read positions, so they run on the pool, each tank's alone (its
        // result is the same whoever computes it); the turrets are then turned in the units'
        // order. Serial, the search was ~2.5 M instructions before every frame's parallel draw.
        let mut others: Vec<Option<Positions>> = vec![None; 256];
        let tanks: Vec<usize> = (0..self.units.len())
            .filter(|&i| self.units[i].kind == UnitKind::Tank)
            .collect();
        for &i in &tanks {
            let team = self.units[i].team;
            others[team as usize].get_or_insert_with(|| {
                self.units
                    .iter()
                    .filter(|u| u.team != team)
                    .map(|u| u.position)
                    .collect()
            });
        }
        let (units, others) = (&self.units, &others);
        let targets: Vec<Option<Vec3>> = tanks
            .par_iter()
            .map_init(Vec::new, |keys, &i| {
                let enemies = others[units[i].team as usize].as_ref()?;
                nearest(enemies, units[i].position, keys)
            })
            .collect();
        for (&i, target) in tanks.iter().zip(targets) {
            // Tanks aim at the nearest unit of the other team and fire when on target.
            let me = self.units[i].position;
            let u = &mut self.units[i];
            if let Some(target) = target {
                let want = facing_delta(facing_of(target - me), u.facing);
                let turn = facing_delta(want, u.turret).clamp(-48.0 * STEP, 48.0 * STEP);
                u.turret = (u.turret + turn).rem_euclid(256.0);
                u.reload -= STEP;
                if u.reload <= 0.0 && facing_delta(want, u.turret).abs() < 3.0 {
                    u.recoil = 4.0;
                    u.reload = 2.5 + (i as f32 * 0.37) % 1.5;
                }
            }
            u.recoil = (u.recoil - 10.0 * STEP).max(0.0);
        }
        for u in &mut self.units {
            if u.kind == UnitKind::Heli {
                u.frame = ((t * 30.0) as usize) % HELI_FRAMES;
            }
        }
        for p in &mut self.props {
            p.frame = (p.frame + p.rate * STEP) % 8.0;
        }
    }

    /// Where the tank turret sits (shared with the drawing code).
    pub fn turret_offset(&self) -> Vec3 {
        TANK_TURRET_OFFSET
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sort key orders floats as `total_cmp` does: signed zeros, infinities, NaNs of both
    /// signs, subnormals and ordinary values.
    #[test]
    fn the_depth_key_orders_as_total_cmp() {
        let mut values = vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            1e-45,
            -1e-45,
            f32::MAX,
            f32::MIN,
        ];
        values.extend((0..200).map(|i| (i as f32 * 0.731).sin() * 1e3));
        for a in &values {
            for b in &values {
                assert_eq!(
                    total_order_key(*a).cmp(&total_order_key(*b)),
                    a.total_cmp(b),
                    "{a} against {b}"
                );
            }
        }
    }

    /// The tanks' target search picks what `min_by` picked: ties (equal distances, both
    /// zeros), NaN and infinite positions included.
    #[test]
    fn nearest_is_the_first_nearest() {
        let mut rng = Rng::new(43);
        let mut f = || (rng.next_u64() % 7) as f32 - 3.0;
        for case in 0..400 {
            let mut others: Vec<Vec3> =
                (0..(case % 13)).map(|_| Vec3::new(f(), f(), 0.0)).collect();
            if case % 17 == 0 {
                others.insert(others.len() / 2, Vec3::new(f32::NAN, 0.0, 0.0));
                others.push(Vec3::new(f32::INFINITY, 0.0, 0.0));
                others.insert(others.len() / 3, Vec3::new(0.0, -f32::NAN, 0.0));
            }
            let me = Vec3::new(f(), -0.0, 0.0);
            let want = others
                .iter()
                .min_by(|a, b| a.distance_squared(me).total_cmp(&b.distance_squared(me)))
                .copied();
            assert_eq!(
                want.map(|p| p.to_array().map(f32::to_bits)),
                nearest(&others.iter().copied().collect(), me, &mut Vec::new())
                    .map(|p| p.to_array().map(f32::to_bits)),
                "case {case}"
            );
        }
    }

    fn flat() -> Vec<Vec3> {
        (0..terrain::GRID * terrain::GRID)
            .map(|i| {
                Vec3::new(
                    -terrain::SIZE / 2.0 + (i % terrain::GRID) as f32 * terrain::CELL,
                    -terrain::SIZE / 2.0 + (i / terrain::GRID) as f32 * terrain::CELL,
                    5.0,
                )
            })
            .collect()
    }

    #[test]
    fn facing_convention() {
        assert_eq!(facing_of(Vec3::Y), 0.0);
        assert!((facing_of(Vec3::X) - 64.0).abs() < 1e-4);
        assert!((facing_of(-Vec3::Y) - 128.0).abs() < 1e-4);
        assert!((facing_of(-Vec3::X) - 192.0).abs() < 1e-4);
        assert_eq!(facing_delta(10.0, 250.0), 16.0);
        assert_eq!(facing_delta(250.0, 10.0), -16.0);
    }

    #[test]
    fn deterministic_and_lively() {
        let mut a = World::new(5, flat());
        let mut b = World::new(5, flat());
        assert!(a.units.len() >= 12);
        for _ in 0..600 {
            a.step();
            b.step();
        }
        assert_eq!(a, b);
        // Ground units stay on the ground, helicopters above it.
        for u in &a.units {
            let lift = u.position.z - 5.0;
            match u.kind {
                UnitKind::Heli => assert!((lift - 70.0).abs() < 1e-3),
                _ => assert!(lift.abs() < 1e-3),
            }
        }
        // Ten seconds in, some tank has fired and turrets have turned.
        assert!(a
            .units
            .iter()
            .any(|u| u.kind == UnitKind::Tank && u.turret != 0.0));
        let mut fired = false;
        let mut w = World::new(5, flat());
        for _ in 0..600 {
            w.step();
            fired |= w.units.iter().any(|u| u.recoil > 0.0);
        }
        assert!(fired);
        // The sun moves.
        assert!(a.sun().dot(World::new(5, flat()).sun()) < 0.999);
    }

    #[test]
    fn more_units_keep_the_default_ones() {
        assert_eq!(UNIT_MIX.iter().map(|m| m.1).sum::<usize>(), DEFAULT_UNITS);
        let base = World::new(5, flat());
        assert_eq!(World::with_units(5, flat(), DEFAULT_UNITS), base);
        let big = World::with_units(5, flat(), 1000);
        assert_eq!(big.units.len(), 1000);
        assert_eq!(big.units[..DEFAULT_UNITS], base.units[..]);
        assert_eq!(big.props, base.props);
        let tanks = big
            .units
            .iter()
            .filter(|u| u.kind == UnitKind::Tank)
            .count();
        let helis = big
            .units
            .iter()
            .filter(|u| u.kind == UnitKind::Heli)
            .count();
        assert!((455..=470).contains(&tanks), "{tanks} tanks");
        assert!((225..=235).contains(&helis), "{helis} helicopters");
        // The extra units are new loops, not copies of the first ones.
        assert_ne!(big.units[DEFAULT_UNITS].position, base.units[0].position);
        let few = World::with_units(5, flat(), 3);
        assert_eq!(few.units[..], base.units[..3]);
    }

    #[test]
    fn units_move_along_their_facing() {
        let mut w = World::new(9, flat());
        let before: Vec<Vec3> = w.units.iter().map(|u| u.position).collect();
        w.step();
        for (u, p) in w.units.iter().zip(before) {
            let moved = u.position - p;
            let heading = Vec3::new(
                (u.facing / 256.0 * TAU).sin(),
                (u.facing / 256.0 * TAU).cos(),
                0.0,
            );
            assert!(moved.truncate().extend(0.0).normalize().dot(heading) > 0.99);
        }
    }
}
