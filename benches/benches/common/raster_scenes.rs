//! The raster bench's scenes, shared by `raster.rs` (modex against euc and retrofire) and
//! `llvmpipe.rs` (modex against Mesa's llvmpipe), so both benches draw exactly the same triangles,
//! skins and cameras.

use glam::{Vec2, Vec3};
use modex::{Camera, DepthBuffer, Palette, Target};
use modex_mdl::{MdlFile, Model};
use modex_raster::{framing_camera, Entity, Light, PreparedModel, RasterPixel, Renderer};
use modex_testkit::models::{floor, noise_skin, quads, small_triangles, sphere, Quad};

pub struct Scene {
    pub name: &'static str,
    pub model: Model,
    /// Camera for a given viewport size.
    pub camera: fn(&Model, usize, usize) -> Camera,
    /// Pixels processed per frame (for throughput): covered pixels, times the layers for overdraw.
    /// (Read by the raster bench only.)
    #[allow(dead_code)]
    pub layers: usize,
}

fn front_cam(_: &Model, w: usize, h: usize) -> Camera {
    Camera::look_at(Vec3::ZERO, Vec3::Y, 60f32.to_radians(), w, h)
}

fn sphere_cam(_: &Model, w: usize, h: usize) -> Camera {
    Camera::look_at(
        Vec3::new(0.0, -3.2, 0.8),
        Vec3::ZERO,
        60f32.to_radians(),
        w,
        h,
    )
}

fn floor_cam(_: &Model, w: usize, h: usize) -> Camera {
    Camera::look_at(
        Vec3::new(0.0, -150.0, 1.5),
        Vec3::new(0.0, -120.0, 0.0),
        70f32.to_radians(),
        w,
        h,
    )
}

fn model_cam(m: &Model, w: usize, h: usize) -> Camera {
    framing_camera(m, 0, 120.0, 20.0, w, h)
}

pub fn scenes() -> Vec<Scene> {
    // At distance 10 a 60-degree view is 11.5 high and up to 20.5 wide (16:9): these quads cover it.
    let full = |y: f32| Quad {
        y,
        half_x: 12.0 * y / 10.0,
        half_z: 7.0 * y / 10.0,
        repeat: 8.0,
    };
    let mut s = vec![
        Scene {
            name: "fill",
            model: quads(&[full(10.0)], noise_skin(256, 1)),
            camera: front_cam,
            layers: 1,
        },
        Scene {
            name: "mesh10k",
            model: sphere(1.5, 50, 100, Vec2::new(4.0, 2.0), noise_skin(128, 2)),
            camera: sphere_cam,
            layers: 1,
        },
        Scene {
            name: "small100k",
            model: small_triangles(100_000, 0x5eed_0001, noise_skin(64, 3)),
            camera: front_cam,
            layers: 1,
        },
        Scene {
            name: "overdraw4_f2b",
            model: quads(
                &[full(10.0), full(11.0), full(12.0), full(13.0)],
                noise_skin(256, 4),
            ),
            camera: front_cam,
            layers: 4,
        },
        Scene {
            name: "overdraw4_b2f",
            model: quads(
                &[full(13.0), full(12.0), full(11.0), full(10.0)],
                noise_skin(256, 4),
            ),
            camera: front_cam,
            layers: 4,
        },
        Scene {
            name: "floor",
            // 400 x 400 at z = 0, the texture repeated 100 times each way.
            model: floor(0.0, 200.0, 100.0, noise_skin(64, 5)),
            camera: floor_cam,
            layers: 1,
        },
    ];
    match modex_testkit::samples_dir("mdl") {
        Some(dir) => {
            let bytes = std::fs::read(dir.join("assimp/minigun.MDL")).expect("minigun.MDL");
            let m = MdlFile::parse(&bytes).expect("minigun parses").model;
            s.push(Scene {
                name: "minigun",
                model: m,
                camera: model_cam,
                layers: 1,
            });
        }
        None => println!("NOTICE: samples not found, the minigun scene is skipped"),
    }
    s
}

pub fn renderer(cam: &Camera) -> Renderer {
    let mut r = Renderer::new(&Palette::quake());
    r.light = Light::over_shoulder(cam, 0.35, 1.3);
    r
}

pub fn frame<T: Target>(
    r: &Renderer,
    t: &mut T,
    d: &mut DepthBuffer,
    cam: &Camera,
    m: &PreparedModel,
) where
    T::Px: RasterPixel,
{
    // Cleared inside the fill's bands (as llvmpipe clears inside its tiles): the same pixels as
    // `t.fill` and `d.clear()` before `draw`.
    r.clear_and_draw(
        t,
        d,
        cam,
        m,
        &Entity::default(),
        T::flat([0, 0, 0], r.palette()),
    )
    .expect("bench targets, depth and camera share one size");
}
