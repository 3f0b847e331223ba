//! Where a level is seen from: the start position (a POSITION object, else the player entity:
//! `Level::start`), `--camera`'s pan and tilt, else above the level's bounds.

use glam::Vec3;
use modex::{trig, Camera};

/// Vertical field of view, degrees (GameStudio's default camera arc is 60 degrees horizontal
/// at 4:3, about 47 vertical).
pub const FOV_Y: f32 = 47.0;

/// From where [`above`] looks down on a level: south-west of its centre and high up.
pub const ABOVE: Vec3 = Vec3::new(-0.45, -0.55, 0.7);
/// Part of the picture's half width and height the level's box may fill in [`above`].
pub const ABOVE_FILL: f32 = 0.95;

/// A start position: the eye (a POSITION object marks where the player's view is) and where it
/// looks, GameStudio's pan and tilt in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Start {
    /// The eye.
    pub eye: Vec3,
    /// Pan, degrees: 0 looks along +X, 90 along +Y.
    pub pan: f32,
    /// Tilt, degrees: up is positive.
    pub tilt: f32,
}

impl Start {
    /// Where `camera` is and looks, as pan and tilt: where a walk through the level begins
    /// when the picture shown is not at a start (the overview, an orbit).
    pub fn of_camera(camera: &Camera) -> Start {
        let d = (camera.target - camera.eye).normalize_or(Vec3::X);
        Start {
            eye: camera.eye,
            pan: d.y.atan2(d.x).to_degrees(),
            tilt: d.z.asin().to_degrees(),
        }
    }

    /// The camera at this start.
    pub fn camera(&self, w: usize, h: usize) -> Camera {
        Camera {
            far: 100_000.0,
            near: 1.0,
            ..Camera::look_at(
                self.eye,
                self.eye + direction(self.pan, self.tilt),
                FOV_Y.to_radians(),
                w,
                h,
            )
        }
    }
}

/// The camera above the box `lo..=hi`, looking at its centre from [`ABOVE`], as close as lets
/// every corner of the box into the picture. Levels are flat and wide: the bounding sphere
/// `Camera::framing` fits for models put the eye 1.3 diagonals away, and bestiary, a row of
/// cages 5 600 units long with a room 9 000 units east, then filled a sliver of the picture.
pub fn above(lo: Vec3, hi: Vec3, fov_y: f32, w: usize, h: usize) -> Camera {
    above_from(lo, hi, ABOVE.normalize(), fov_y, w, h)
}

/// [`above`] from the unit direction `back` (from the centre towards the eye) instead of
/// [`ABOVE`].
pub fn above_from(lo: Vec3, hi: Vec3, back: Vec3, fov_y: f32, w: usize, h: usize) -> Camera {
    let centre = (lo + hi) * 0.5;
    let size = (hi - lo).length().max(1.0);
    let probe = Camera::look_at(centre + back, centre, fov_y, w, h);
    let view = probe.view();
    let tan_y = trig::tan(fov_y * 0.5) * ABOVE_FILL;
    let tan_x = tan_y * probe.aspect();
    // A corner at view offset (x, y, z) from the centre is in the picture from distance d when
    // |x| <= (d - z) tan_x and |y| <= (d - z) tan_y (z towards the eye).
    let mut distance = 0.0f32;
    for i in 0..8 {
        let corner = Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        );
        let c = view.transform_vector3(corner - centre);
        distance = distance
            .max(c.x.abs() / tan_x + c.z)
            .max(c.y.abs() / tan_y + c.z);
    }
    let distance = distance.max(size * 0.05);
    Camera {
        far: distance + size * 2.0,
        near: (distance - size).max(distance / 1000.0),
        ..Camera::look_at(centre + back * distance, centre, fov_y, w, h)
    }
}

/// Where a level is seen from: the one rule `modex render`, `modex view` and the page follow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Viewpoint {
    /// The player's start when the level has one ([`super::Level::start`]), else the overview
    /// ([`above`]): what every frontend shows first.
    Default,
    /// The orbit round the level's centre (`--yaw`, `--pitch`), as a model's camera orbits it:
    /// the eye goes round by `yaw` degrees from the overview's side and, given a `pitch`, rises
    /// to that elevation, fitted to the bounds again. Yaw 0 without a pitch is the overview.
    Orbit {
        /// Degrees round the centre, counter-clockwise seen from above.
        yaw: f32,
        /// Elevation above the horizon, degrees; `None` keeps the overview's.
        pitch: Option<f32>,
    },
    /// An eye, pan and tilt given in engine units and degrees (`--camera X,Y,Z,PAN,TILT`, as WED
    /// and the scripts write a camera).
    At(Start),
}

impl Viewpoint {
    /// The camera for a `w` x `h` picture of a level whose start is `start` and whose box is
    /// `bounds`.
    pub fn camera(
        self,
        start: Option<Start>,
        bounds: (Vec3, Vec3),
        (w, h): (usize, usize),
    ) -> Camera {
        match self {
            Viewpoint::At(s) => s.camera(w, h),
            Viewpoint::Default => match start {
                Some(s) => s.camera(w, h),
                None => orbit(bounds, 0.0, None, (w, h)),
            },
            Viewpoint::Orbit { yaw, pitch } => orbit(bounds, yaw, pitch, (w, h)),
        }
    }
}

/// [`Viewpoint::Orbit`]'s camera: above the box `lo..=hi`, turned round its centre.
pub fn orbit(
    (lo, hi): (Vec3, Vec3),
    yaw: f32,
    pitch: Option<f32>,
    (w, h): (usize, usize),
) -> Camera {
    let pitch = pitch.map(|p| p.clamp(-MAX_PITCH, MAX_PITCH));
    if yaw == 0.0 && pitch.is_none() {
        return above(lo, hi, FOV_Y.to_radians(), w, h);
    }
    let back = ABOVE.normalize();
    let azimuth = trig::atan2(back.y, back.x) + yaw.to_radians();
    let elevation = pitch.map_or(trig::asin(back.z), f32::to_radians);
    let back = Vec3::new(
        trig::cos(elevation) * trig::cos(azimuth),
        trig::cos(elevation) * trig::sin(azimuth),
        trig::sin(elevation),
    );
    above_from(lo, hi, back, FOV_Y.to_radians(), w, h)
}

/// The elevation [`orbit`] draws at without a pitch, degrees (where a frontend's orbit starts).
pub fn orbit_pitch() -> f32 {
    trig::asin(ABOVE.normalize().z).to_degrees()
}

/// The steepest pitch, degrees: straight down, the camera's up vector would be the view line.
const MAX_PITCH: f32 = 89.0;

/// The unit vector of pan and tilt (degrees), GameStudio's: pan 0 looks along +X, 90 along +Y.
pub fn direction(pan: f32, tilt: f32) -> Vec3 {
    let (p, t) = (pan.to_radians(), tilt.to_radians());
    Vec3::new(
        trig::cos(t) * trig::cos(p),
        trig::cos(t) * trig::sin(p),
        trig::sin(t),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each corner of `lo..=hi` on screen, as `camera` projects it.
    fn corners(camera: &Camera, lo: Vec3, hi: Vec3) -> Vec<Vec3> {
        (0..8)
            .map(|i| {
                let c = Vec3::new(
                    if i & 1 == 0 { lo.x } else { hi.x },
                    if i & 2 == 0 { lo.y } else { hi.y },
                    if i & 4 == 0 { lo.z } else { hi.z },
                );
                camera.project(c).expect("in front of the eye")
            })
            .collect()
    }

    #[test]
    fn above_fits_every_corner_of_a_flat_wide_level_tightly() {
        // Bestiary's shape: a long row and a room far to the east, not tall.
        let (lo, hi) = (
            Vec3::new(-420.0, -5600.0, 0.0),
            Vec3::new(10100.0, 800.0, 450.0),
        );
        let (w, h) = (1280, 720);
        let camera = above(lo, hi, FOV_Y.to_radians(), w, h);
        let on_screen = corners(&camera, lo, hi);
        let margin = |p: &Vec3| {
            let mx = p.x.min(w as f32 - p.x) / (w as f32 / 2.0);
            let my = p.y.min(h as f32 - p.y) / (h as f32 / 2.0);
            mx.min(my)
        };
        for p in &on_screen {
            assert!(
                margin(p) >= 1.0 - ABOVE_FILL - 1e-3,
                "{p} outside the picture"
            );
        }
        // Tight: some corner touches the 95 % frame.
        let closest = on_screen.iter().map(margin).fold(f32::INFINITY, f32::min);
        assert!((closest - (1.0 - ABOVE_FILL)).abs() < 1e-3, "{closest}");
        let centre = (lo + hi) * 0.5;
        assert!((camera.target - centre).length() < 1e-3);
        // The camera it replaces, 0.9 diagonals out, cut a corner off: bestiary's row of cages
        // ran out of the picture's bottom edge.
        let size = (hi - lo).length();
        let old = Camera::look_at(
            centre + ABOVE.normalize() * size * 0.9,
            centre,
            FOV_Y.to_radians(),
            w,
            h,
        );
        assert!(corners(&old, lo, hi).iter().any(|p| margin(p) < 0.0));
    }

    #[test]
    fn turning_the_camera_above_orbits_the_centre_and_keeps_the_level_in_view() {
        let (lo, hi) = (Vec3::new(-100.0, -50.0, 0.0), Vec3::new(300.0, 250.0, 80.0));
        let centre = (lo + hi) * 0.5;
        let plain = orbit((lo, hi), 0.0, None, (320, 240));
        assert_eq!(plain.eye, above(lo, hi, FOV_Y.to_radians(), 320, 240).eye);
        let round = orbit((lo, hi), 90.0, None, (320, 240));
        let (a, b) = (plain.eye - centre, round.eye - centre);
        // A quarter turn counter-clockwise seen from above, at the same elevation.
        let turn = b.y.atan2(b.x) - a.y.atan2(a.x);
        let turn = (turn.to_degrees() + 360.0) % 360.0;
        assert!((turn - 90.0).abs() < 1e-2, "{turn}");
        assert!((a.z / a.length() - b.z / b.length()).abs() < 1e-4);
        let down = orbit((lo, hi), 0.0, Some(90.0), (320, 240));
        let d = (down.eye - centre).normalize();
        assert!((d.z - MAX_PITCH.to_radians().sin()).abs() < 1e-4, "{d}");
        for camera in [round, down] {
            for i in 0..8 {
                let c = Vec3::new(
                    if i & 1 == 0 { lo.x } else { hi.x },
                    if i & 2 == 0 { lo.y } else { hi.y },
                    if i & 4 == 0 { lo.z } else { hi.z },
                );
                let p = camera.project(c).expect("in front");
                assert!(
                    p.x >= 0.0 && p.x <= 320.0 && p.y >= 0.0 && p.y <= 240.0,
                    "{p}"
                );
            }
        }
        // Even with a start, an orbit goes round the centre; the default stands at the start;
        // `--camera` stands where it says.
        let start = Start {
            eye: Vec3::new(5.0, 6.0, 7.0),
            pan: 10.0,
            tilt: 0.0,
        };
        let size = (320, 240);
        let orbiting = Viewpoint::Orbit {
            yaw: 90.0,
            pitch: None,
        };
        assert_eq!(orbiting.camera(Some(start), (lo, hi), size).eye, round.eye);
        assert_eq!(
            Viewpoint::Default.camera(Some(start), (lo, hi), size).eye,
            start.eye
        );
        assert_eq!(
            Viewpoint::Default.camera(None, (lo, hi), size).eye,
            plain.eye
        );
        let at = Start {
            eye: Vec3::new(-1.0, 2.0, 3.0),
            pan: 90.0,
            tilt: -30.0,
        };
        let c = Viewpoint::At(at).camera(Some(start), (lo, hi), size);
        assert_eq!(c.eye, at.eye);
        let d = (c.target - c.eye).normalize();
        assert!((d - direction(90.0, -30.0)).length() < 1e-4, "{d}");
    }

    #[test]
    fn direction_follows_gamestudio_pan_and_tilt() {
        assert!((direction(0.0, 0.0) - Vec3::X).length() < 1e-6);
        assert!((direction(90.0, 0.0) - Vec3::Y).length() < 1e-6);
        assert!((direction(0.0, 90.0) - Vec3::Z).length() < 1e-6);
    }
}
