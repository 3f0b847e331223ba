//! Walking and flying through a level: the walker the level viewer's G key switches on.
//!
//! A walker is a body on its feet: a vertical capsule [`BODY_RADIUS`] round and [`BODY_HEIGHT`]
//! tall, the size of GameStudio's player model (about 60 units, its origin at its middle), with
//! the eye [`EYE_HEIGHT`](super::EYE_HEIGHT) above that origin, as `Level::eye_of` puts a player's
//! eye: [`EYE_ABOVE_FEET`] above the feet. So a walk begun at a start taken from a player entity
//! stands where that entity stands.
//!
//! Walking ([`Mode::Walk`]) moves on the ground plane along the pan, pulled down by [`GRAVITY`],
//! and collides with the [`Collider`]: the body is pushed out of every triangle nearer than its
//! radius, straight up off ground (a triangle facing up by at least [`GROUND`], so it stands
//! on slopes without sliding down; or an edge under its rounded bottom, which it rides as a
//! ball rolls onto a kerb), along the push elsewhere (it slides along walls). A move is also
//! tried from [`STEP_HEIGHT`] higher and set down again, and kept when it gets further and rose
//! no more than that: so steps up to that height are climbed and higher ones are not. Walking off a step of that height or less
//! follows it down instead of falling. Moves are cut into pieces of at most half the radius, so
//! the body cannot pass through a wall or a floor between two tests, at any speed.
//!
//! Flying ([`Mode::Fly`]) has no gravity and passes through everything: it is how a level is
//! looked at from anywhere, from outside it and into closed rooms (the viewer's only way of moving
//! before walking came), and what collides is walking.

mod closest;
mod collider;

pub use collider::Collider;

use glam::Vec3;

use super::camera::{direction, Start};

/// The body's radius, units.
pub const BODY_RADIUS: f32 = 16.0;
/// The body's height from the feet to the top of the head, units (GameStudio's player model).
pub const BODY_HEIGHT: f32 = 60.0;
/// The eye above the feet: [`EYE_HEIGHT`](super::EYE_HEIGHT) above the body's middle, where
/// GameStudio's player model has its origin.
pub const EYE_ABOVE_FEET: f32 = BODY_HEIGHT / 2.0 + super::EYE_HEIGHT;
/// The highest step a walker climbs, units.
pub const STEP_HEIGHT: f32 = 18.0;
/// Downward acceleration while walking, units per second squared (Quake's `sv_gravity`; a
/// GameStudio unit is about a Quake unit: a player is 56 to 60 units tall in both).
pub const GRAVITY: f32 = 800.0;
/// Walking speed, units per second (the level viewer's since it had walking keys).
pub const WALK_SPEED: f32 = 200.0;
/// How much faster running is.
pub const RUN_FACTOR: f32 = 3.0;
/// Degrees per second the view turns while a turn key is held (the viewers' Left and Right).
pub const TURN_RATE: f32 = 90.0;
/// Degrees per second the view tilts while a tilt key is held (the viewers' Up and Down).
pub const TILT_RATE: f32 = 60.0;
/// Degrees the view turns and tilts per pixel the mouse moves (mouse look).
pub const LOOK_PER_PIXEL: f32 = 0.3;
/// Fastest fall, units per second.
const MAX_FALL: f32 = 2000.0;
/// A triangle whose push has at least this much upward part is ground (about 45 degrees).
pub const GROUND: f32 = 0.7;
/// Longest move between two collision tests: half the radius.
const MAX_MOVE: f32 = BODY_RADIUS * 0.5;
/// Pushes out of the triangles per collision test, at most.
const ITERATIONS: usize = 4;
/// Most pieces one step is cut into (a longer step, after a stall, moves less than asked).
const MAX_PIECES: usize = 256;
/// How far below the lowest triangle a fall ends (the walker goes back to where it last stood).
const FALL_LIMIT: f32 = 2000.0;
/// Overlap not worth a push, units.
const SKIN: f32 = 1e-3;

/// Walking or flying.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// On the feet: gravity, steps, collision.
    Walk,
    /// Free: no gravity, no collision.
    Fly,
}

/// What the keys ask of one step, each part -1..=1.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Motion {
    /// Forward (positive) or back along the pan (flying: along the view, tilt included).
    pub forward: f32,
    /// Right (positive) or left.
    pub right: f32,
    /// Up (positive) or down; flying only.
    pub up: f32,
    /// Run at [`RUN_FACTOR`] times the speed.
    pub run: bool,
}

/// Which ways the body was pushed in one collision test.
#[derive(Debug, Clone, Copy, Default)]
struct Contact {
    ground: bool,
    ceiling: bool,
}

/// A body in a level, walking or flying, and where it looks.
#[derive(Debug, Clone)]
pub struct Walker {
    /// Where the feet are (the bottom of the body).
    pub feet: Vec3,
    /// Pan, degrees: 0 looks along +X, 90 along +Y.
    pub pan: f32,
    /// Tilt, degrees: up is positive.
    pub tilt: f32,
    /// Walking or flying.
    pub mode: Mode,
    /// Vertical speed, units per second (negative falls).
    fall: f32,
    grounded: bool,
    /// Where the feet last stood on ground.
    last_ground: Option<Vec3>,
    /// The triangles near the body, reused between tests.
    near: Vec<u32>,
}

impl Walker {
    /// A walker whose eye is where `start` says, looking where it looks.
    pub fn at(start: &Start, mode: Mode) -> Walker {
        Walker {
            feet: start.eye - Vec3::Z * EYE_ABOVE_FEET,
            pan: start.pan,
            tilt: start.tilt,
            mode,
            fall: 0.0,
            grounded: false,
            last_ground: None,
            near: Vec::new(),
        }
    }

    /// The eye.
    pub fn eye(&self) -> Vec3 {
        self.feet + Vec3::Z * EYE_ABOVE_FEET
    }

    /// Where the eye is and looks, as a start (for the camera, and the viewer's `--camera` line).
    pub fn view(&self) -> Start {
        Start {
            eye: self.eye(),
            pan: self.pan,
            tilt: self.tilt,
        }
    }

    /// Whether it stands on ground (walking; never while flying).
    pub fn on_ground(&self) -> bool {
        self.mode == Mode::Walk && self.grounded
    }

    /// Turn and tilt as the keys and the mouse ask, the one rule of every frontend: `turn` and
    /// `tilt` are held key axes (-1..=1; right turns right, up looks up) for `dt` seconds, `moved`
    /// the mouse's move in pixels (x right, y down: dragging right turns right, up looks up).
    pub fn look(&mut self, turn: f32, tilt: f32, moved: (f32, f32), dt: f32) {
        // Turning right is a falling pan (pan grows to the left).
        self.pan -= turn * TURN_RATE * dt + moved.0 * LOOK_PER_PIXEL;
        self.tilt =
            (self.tilt + tilt * TILT_RATE * dt - moved.1 * LOOK_PER_PIXEL).clamp(-89.0, 89.0);
    }

    /// Switch between walking and flying where it is: a walk begins by falling from here.
    pub fn toggle(&mut self) {
        self.mode = match self.mode {
            Mode::Walk => Mode::Fly,
            Mode::Fly => Mode::Walk,
        };
        self.fall = 0.0;
        self.grounded = false;
    }

    /// Move for `dt` seconds as `motion` asks, through `world` as the mode says.
    pub fn step(&mut self, world: &Collider, motion: Motion, dt: f32) {
        let dt = dt.clamp(0.0, 0.25);
        let speed = WALK_SPEED * if motion.run { RUN_FACTOR } else { 1.0 };
        if self.mode == Mode::Fly {
            let forward = direction(self.pan, self.tilt);
            let right = direction(self.pan - 90.0, 0.0);
            self.feet += (forward * motion.forward + right * motion.right + Vec3::Z * motion.up)
                * speed
                * dt;
            return;
        }
        let forward = direction(self.pan, 0.0);
        let right = direction(self.pan - 90.0, 0.0);
        let mut wish = forward * motion.forward + right * motion.right;
        // Diagonals are no faster.
        if wish.length_squared() > 1.0 {
            wish = wish.normalize();
        }
        let velocity = wish * speed;
        let falls = self.fall.abs().max((self.fall - GRAVITY * dt).abs());
        let travel = (velocity.length() + falls.min(MAX_FALL)) * dt;
        let pieces = ((travel / MAX_MOVE).ceil() as usize).clamp(1, MAX_PIECES);
        let h = dt / pieces as f32;
        for _ in 0..pieces {
            self.piece(world, velocity * h, h);
        }
        if let Some((lo, _)) = world.bounds() {
            if self.feet.z < lo.z - FALL_LIMIT {
                // Off the edge of the level: back to where it last stood.
                if let Some(at) = self.last_ground {
                    self.feet = at;
                } else {
                    self.feet.z = lo.z - FALL_LIMIT;
                }
                self.fall = 0.0;
            }
        }
    }

    /// One piece of a walking step: `delta` along the ground, then the fall of `h` seconds.
    fn piece(&mut self, world: &Collider, delta: Vec3, h: f32) {
        if delta != Vec3::ZERO {
            let start = self.feet;
            // No edge higher than a step carries the body up.
            let limit = start.z + STEP_HEIGHT;
            let plain = self.slide(world, start, delta, limit);
            let mut best = plain;
            if self.grounded {
                let (up, _) = self.vertical(world, start, STEP_HEIGHT, limit);
                let lifted = up.z - start.z;
                if lifted > SKIN {
                    let moved = self.slide(world, up, delta, limit);
                    let (down, contact) = self.vertical(world, moved, -lifted, limit);
                    let gain = |p: Vec3| (p - start).dot(delta);
                    if contact.ground && gain(down) > gain(plain) + SKIN * delta.length() {
                        best = down;
                    }
                }
            }
            self.feet = best;
        }
        let was_grounded = self.grounded;
        self.fall = (self.fall - GRAVITY * h).max(-MAX_FALL);
        // Falling, anything may be landed on.
        let (at, contact) = self.vertical(world, self.feet, self.fall * h, f32::INFINITY);
        self.feet = at;
        self.grounded = contact.ground && self.fall <= 0.0;
        if self.grounded || (contact.ceiling && self.fall > 0.0) {
            self.fall = 0.0;
        }
        if was_grounded && !self.grounded {
            // Down a step: follow the ground rather than fall off it.
            let (at, contact) = self.vertical(world, self.feet, -STEP_HEIGHT, f32::INFINITY);
            if contact.ground {
                self.feet = at;
                self.grounded = true;
                self.fall = 0.0;
            }
        }
        if self.grounded {
            self.last_ground = Some(self.feet);
        }
    }

    /// The feet moved from `from` by the horizontal `delta` (at most [`MAX_MOVE`]) and pushed
    /// out of what they ran into (edges up to `ride_limit` ridden, [`Walker::resolve`]).
    fn slide(&mut self, world: &Collider, from: Vec3, delta: Vec3, ride_limit: f32) -> Vec3 {
        self.resolve(world, from + delta, ride_limit).0
    }

    /// The feet moved from `from` up (positive) or down by `dz`, in pieces, stopping at the first
    /// ground (going down) or ceiling (going up) met; where they end and what stopped them.
    fn vertical(
        &mut self,
        world: &Collider,
        from: Vec3,
        dz: f32,
        ride_limit: f32,
    ) -> (Vec3, Contact) {
        let pieces = ((dz.abs() / MAX_MOVE).ceil() as usize).max(1);
        let mut at = from;
        for _ in 0..pieces {
            let (next, contact) =
                self.resolve(world, at + Vec3::Z * (dz / pieces as f32), ride_limit);
            at = next;
            if (dz < 0.0 && contact.ground) || (dz > 0.0 && contact.ceiling) {
                return (at, contact);
            }
        }
        (at, Contact::default())
    }

    /// The body with its feet at `feet` pushed out of every triangle nearer than its radius;
    /// edges under it no higher than `ride_limit` carry it, higher ones stop it.
    fn resolve(&mut self, world: &Collider, mut feet: Vec3, ride_limit: f32) -> (Vec3, Contact) {
        let mut contact = Contact::default();
        let reach = Vec3::splat(BODY_RADIUS * 2.0);
        world.near(
            feet - reach,
            feet + Vec3::Z * BODY_HEIGHT + reach,
            &mut self.near,
        );
        for _ in 0..ITERATIONS {
            let mut pushed = false;
            for &i in &self.near {
                let t = world.triangle(i);
                let bottom = feet + Vec3::Z * BODY_RADIUS;
                let top = feet + Vec3::Z * (BODY_HEIGHT - BODY_RADIUS);
                let (on_body, on_triangle) = closest::segment_triangle(bottom, top, t);
                let gap = on_body - on_triangle;
                let distance = gap.length();
                if distance >= BODY_RADIUS - SKIN {
                    continue;
                }
                let face = (t[1] - t[0]).cross(t[2] - t[0]).normalize_or(Vec3::Z);
                let n = if distance > 1e-4 {
                    gap / distance
                } else {
                    // The axis crosses the triangle: out on the side the body's middle is on.
                    let middle = (bottom + top) * 0.5;
                    if face.dot(middle - on_triangle) < 0.0 {
                        -face
                    } else {
                        face
                    }
                };
                let depth = BODY_RADIUS - distance;
                // An edge or corner under the rounded bottom (the push is not the face's).
                let under = n.dot(face).abs() < 0.999
                    && on_body.z <= bottom.z + 1e-3
                    && on_triangle.z < bottom.z - 1e-3;
                let across = gap.truncate().length().min(BODY_RADIUS);
                let below = bottom.z - on_triangle.z;
                if under && on_triangle.z <= ride_limit {
                    // The body rides on it, lifted until the bottom just touches, as it rolls
                    // up onto a step or off a ledge.
                    feet.z += (BODY_RADIUS * BODY_RADIUS - across * across).sqrt() - below;
                    contact.ground = true;
                } else if under {
                    // Too high to step onto: it stops the body as a wall does, level.
                    let away = if across > 1e-4 {
                        gap.truncate() / across
                    } else {
                        -direction(self.pan, 0.0).truncate()
                    };
                    let out = (BODY_RADIUS * BODY_RADIUS - below * below).sqrt() - across;
                    feet += away.extend(0.0) * out.max(0.0);
                } else if n.z >= GROUND {
                    feet.z += depth / n.z;
                    contact.ground = true;
                } else {
                    feet += n * depth;
                    contact.ceiling |= n.z <= -GROUND;
                }
                pushed = true;
            }
            if !pushed {
                break;
            }
        }
        (feet, contact)
    }
}
