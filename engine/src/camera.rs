//! One camera for every renderer, so triangles and voxels drawn into the same frame line up and share
//! the depth buffer.
//!
//! Conventions: right-handed world with **Z up** (3D GameStudio and Westwood both use Z as height),
//! the camera looks along its forward vector, screen x grows to the right and y downwards, and depth
//! stored in [`crate::DepthBuffer`] is the view-space distance along the forward axis.

use glam::{Mat4, Vec3, Vec4};

use crate::trig;

/// How the camera projects.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Projection {
    /// Perspective.
    Perspective {
        /// Vertical field of view in radians.
        fov_y: f32,
    },
    /// Orthographic (the Westwood games' view).
    Orthographic {
        /// Visible height in world units.
        height: f32,
    },
}

/// Position, orientation, projection and viewport.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Camera {
    /// Where the camera is.
    pub eye: Vec3,
    /// The point it looks at.
    pub target: Vec3,
    /// World up (Z for every format modex reads).
    pub up: Vec3,
    /// Perspective or orthographic.
    pub projection: Projection,
    /// Near clip plane distance (view depth).
    pub near: f32,
    /// Far clip plane distance (view depth).
    pub far: f32,
    /// Viewport size in pixels.
    pub width: usize,
    /// Viewport height in pixels.
    pub height: usize,
}

impl Camera {
    /// A perspective camera at `eye` looking at `target`, Z up.
    pub fn look_at(eye: Vec3, target: Vec3, fov_y: f32, width: usize, height: usize) -> Camera {
        Camera {
            eye,
            target,
            up: Vec3::Z,
            projection: Projection::Perspective { fov_y },
            near: 0.1,
            far: 10_000.0,
            width,
            height,
        }
    }

    /// A camera orbiting `target` at `distance`, `yaw` around Z and `pitch` above the horizon
    /// (radians). At yaw 0 and pitch 0 the eye sits at `target - distance * Y`, looking along +Y.
    pub fn orbit(
        target: Vec3,
        distance: f32,
        yaw: f32,
        pitch: f32,
        fov_y: f32,
        width: usize,
        height: usize,
    ) -> Camera {
        let dir = Camera::orbit_direction(yaw, pitch);
        Camera::look_at(target + dir * distance, target, fov_y, width, height)
    }

    /// The unit vector from an orbit camera's target to its eye at `yaw` around Z and `pitch` above
    /// the horizon (radians): yaw 0, pitch 0 is `-Y`.
    pub fn orbit_direction(yaw: f32, pitch: f32) -> Vec3 {
        Vec3::new(
            trig::sin(yaw) * trig::cos(pitch),
            -trig::cos(yaw) * trig::cos(pitch),
            trig::sin(pitch),
        )
    }

    /// A camera that frames the world box `lo..=hi`: it looks at the box's centre from direction
    /// `dir` (unit vector from the target towards the eye), Z up.
    ///
    /// This is the one framing rule of every viewer and headless render, models and voxels alike:
    /// - **Perspective**: the box's bounding sphere just fits the narrower of the two fields of
    ///   view (2 % margin); near and far planes hug the sphere.
    /// - **Orthographic**: the visible height fits the box's eight corners as seen along the view,
    ///   in both directions, with a 10 % margin; the eye stands well outside the box.
    pub fn framing(
        dir: Vec3,
        lo: Vec3,
        hi: Vec3,
        projection: Projection,
        width: usize,
        height: usize,
    ) -> Camera {
        let centre = (lo + hi) * 0.5;
        let radius = ((hi - lo).length() * 0.5).max(1e-3);
        let aspect = width.max(1) as f32 / height.max(1) as f32;
        match projection {
            Projection::Perspective { fov_y } => {
                let half_tan = trig::tan(fov_y * 0.5);
                let half = trig::atan(half_tan.min(half_tan * aspect));
                let distance = radius / trig::sin(half) * 1.02;
                let mut cam =
                    Camera::look_at(centre + dir * distance, centre, fov_y, width, height);
                cam.near = (distance - radius * 1.5).max(distance * 0.01);
                cam.far = distance + radius * 4.0;
                cam
            }
            Projection::Orthographic { .. } => {
                let mut c = Camera::look_at(
                    centre + dir * (radius * 4.0).max(100.0),
                    centre,
                    1.0,
                    width,
                    height,
                );
                c.near = 0.1;
                c.far = (radius * 8.0).max(400.0);
                let view = c.view();
                let (mut hx, mut hy) = (0f32, 0f32);
                for i in 0..8 {
                    let p = Vec3::new(
                        if i & 1 != 0 { hi.x } else { lo.x },
                        if i & 2 != 0 { hi.y } else { lo.y },
                        if i & 4 != 0 { hi.z } else { lo.z },
                    );
                    let v = view.transform_point3(p) - view.transform_point3(centre);
                    hx = hx.max(v.x.abs());
                    hy = hy.max(v.y.abs());
                }
                let h = (2.0 * hy).max(2.0 * hx / c.aspect()).max(1e-3) * 1.1;
                c.projection = Projection::Orthographic { height: h };
                c
            }
        }
    }

    /// Viewport width over height.
    pub fn aspect(&self) -> f32 {
        self.width.max(1) as f32 / self.height.max(1) as f32
    }

    /// World to view space (right-handed, looking down -Z in view space).
    pub fn view(&self) -> Mat4 {
        let up = if (self.target - self.eye).cross(self.up).length_squared() < 1e-12 {
            // Looking straight along `up`: any perpendicular up vector will do.
            Vec3::Y
        } else {
            self.up
        };
        Mat4::look_at_rh(self.eye, self.target, up)
    }

    /// View to clip space (OpenGL-style depth range -1..1 is not used; glam's RH 0..1 is).
    pub fn projection(&self) -> Mat4 {
        match self.projection {
            Projection::Perspective { fov_y } => {
                Mat4::perspective_rh(fov_y, self.aspect(), self.near, self.far)
            }
            Projection::Orthographic { height } => {
                let h = height * 0.5;
                let w = h * self.aspect();
                Mat4::orthographic_rh(-w, w, -h, h, self.near, self.far)
            }
        }
    }

    /// World to clip space.
    pub fn view_projection(&self) -> Mat4 {
        self.projection() * self.view()
    }

    /// The forward unit vector.
    pub fn forward(&self) -> Vec3 {
        (self.target - self.eye).normalize_or(Vec3::Y)
    }

    /// Project a world point to (screen x, screen y, view depth). `None` behind the near plane.
    /// Pixel centres are at half-integers: pixel (0, 0) covers 0.0..1.0.
    pub fn project(&self, p: Vec3) -> Option<Vec3> {
        let clip = self.view_projection() * Vec4::new(p.x, p.y, p.z, 1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let depth = -(self.view() * p.extend(1.0)).z;
        if depth < self.near {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(Vec3::new(
            (ndc.x + 1.0) * 0.5 * self.width as f32,
            (1.0 - ndc.y) * 0.5 * self.height as f32,
            depth,
        ))
    }

    /// The world-space ray through screen point (sx, sy): (origin, unit direction).
    pub fn ray(&self, sx: f32, sy: f32) -> (Vec3, Vec3) {
        let ndc_x = sx / self.width.max(1) as f32 * 2.0 - 1.0;
        let ndc_y = 1.0 - sy / self.height.max(1) as f32 * 2.0;
        let inv = self.view_projection().inverse();
        let a = inv.project_point3(Vec3::new(ndc_x, ndc_y, 0.0));
        let b = inv.project_point3(Vec3::new(ndc_x, ndc_y, 1.0));
        (a, (b - a).normalize_or(self.forward()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_projects_to_screen_centre() {
        let c = Camera::look_at(Vec3::new(0.0, -10.0, 5.0), Vec3::ZERO, 1.0, 320, 200);
        let p = c.project(Vec3::ZERO).unwrap();
        assert!((p.x - 160.0).abs() < 1e-3 && (p.y - 100.0).abs() < 1e-3);
        assert!((p.z - 125f32.sqrt()).abs() < 1e-3);
        // Up in the world is up on screen; +X is right when looking along +Y.
        assert!(c.project(Vec3::Z).unwrap().y < 100.0);
        assert!(c.project(Vec3::X).unwrap().x > 160.0);
        // Behind the camera.
        assert!(c.project(Vec3::new(0.0, -20.0, 10.0)).is_none());
    }

    #[test]
    fn ray_through_projection_hits_the_point() {
        for proj in [
            Projection::Perspective { fov_y: 0.9 },
            Projection::Orthographic { height: 20.0 },
        ] {
            let mut c = Camera::orbit(Vec3::new(1.0, 2.0, 0.0), 30.0, 0.7, 0.4, 0.9, 360, 240);
            c.projection = proj;
            let p = Vec3::new(2.0, 3.0, 1.5);
            let s = c.project(p).unwrap();
            let (o, d) = c.ray(s.x, s.y);
            let t = (p - o).dot(d);
            assert!((o + d * t - p).length() < 1e-2, "{proj:?}");
        }
    }

    #[test]
    fn framing_fits_the_box_in_both_projections() {
        let (lo, hi) = (Vec3::new(-3.0, -1.0, 0.0), Vec3::new(5.0, 2.0, 4.0));
        for proj in [
            Projection::Perspective { fov_y: 0.9 },
            Projection::Orthographic { height: 1.0 },
        ] {
            let dir = Camera::orbit_direction(0.6, 0.5);
            let c = Camera::framing(dir, lo, hi, proj, 320, 200);
            assert!((c.target - (lo + hi) * 0.5).length() < 1e-5);
            for i in 0..8 {
                let p = Vec3::new(
                    if i & 1 != 0 { hi.x } else { lo.x },
                    if i & 2 != 0 { hi.y } else { lo.y },
                    if i & 4 != 0 { hi.z } else { lo.z },
                );
                let s = c.project(p).expect("corner in front of the eye");
                assert!(
                    (0.0..=320.0).contains(&s.x) && (0.0..=200.0).contains(&s.y),
                    "{proj:?} {s}"
                );
                assert!(s.z > c.near && s.z < c.far);
            }
        }
    }

    #[test]
    fn straight_down_view_works() {
        let c = Camera::look_at(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, 1.0, 100, 100);
        let p = c.project(Vec3::ZERO).unwrap();
        assert!((p.x - 50.0).abs() < 1e-3 && (p.y - 50.0).abs() < 1e-3);
    }
}
