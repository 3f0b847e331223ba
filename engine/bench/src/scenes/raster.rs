//! The raster scenes: models, cameras and the light, the same for modex and the peers.
//!
//! These were `benches/benches/common/raster_scenes.rs`; `cargo bench --bench raster` (modex
//! against euc and retrofire) and `modex bench` (against llvmpipe and softpipe) both draw them
//! from here, so every figure of the project comes from the same triangles, skins and cameras.

use glam::{Vec2, Vec3};
use modex::{Camera, DepthBuffer, Palette, Target};
use modex_mdl::{MdlFile, Model};
use modex_raster::{framing_camera, Entity, Light, PreparedModel, RasterPixel, Renderer};
use modex_testkit::models::{floor, noise_skin, quads, small_triangles, sphere, Quad};

use crate::error::BenchError;

/// A raster scene: a model and how it is looked at.
pub struct Scene {
    /// The suite's name (`fill`, `model`, ...).
    pub name: &'static str,
    /// What is drawn (one frame, one skin).
    pub model: Model,
    /// Camera for a given viewport size.
    pub camera: fn(&Model, usize, usize) -> Camera,
    /// Layers of the overdraw scenes: pixels processed per frame are the covered pixels times
    /// this (the Mpixels/s figure).
    pub layers: usize,
    /// Where the model came from, for the report (`minigun.MDL from the samples`, `generated`).
    pub source: String,
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

/// At distance 10 a 60-degree view is 11.5 high and up to 20.5 wide (16:9): these quads cover it.
fn full(y: f32) -> Quad {
    Quad {
        y,
        half_x: 12.0 * y / 10.0,
        half_z: 7.0 * y / 10.0,
        repeat: 8.0,
    }
}

/// The minigun's triangle count: the generated stand-in has about as many.
const MINIGUN_TRIANGLES: usize = 1_000;

/// The raster scene `name` (one of [`super::NAMES`] of kind raster), or `None` for another name.
pub fn build(name: &str) -> Result<Option<Scene>, BenchError> {
    let scene = |name, model, camera, layers| Scene {
        name,
        model,
        camera,
        layers,
        source: "generated".into(),
    };
    Ok(Some(match name {
        "fill" => scene(
            "fill",
            quads(&[full(10.0)], noise_skin(256, 1)),
            front_cam,
            1,
        ),
        "mesh10k" => scene(
            "mesh10k",
            sphere(1.5, 50, 100, Vec2::new(4.0, 2.0), noise_skin(128, 2)),
            sphere_cam,
            1,
        ),
        "small100k" => scene(
            "small100k",
            small_triangles(100_000, 0x5eed_0001, noise_skin(64, 3)),
            front_cam,
            1,
        ),
        "overdraw4_f2b" => scene(
            "overdraw4_f2b",
            quads(
                &[full(10.0), full(11.0), full(12.0), full(13.0)],
                noise_skin(256, 4),
            ),
            front_cam,
            4,
        ),
        "overdraw4_b2f" => scene(
            "overdraw4_b2f",
            quads(
                &[full(13.0), full(12.0), full(11.0), full(10.0)],
                noise_skin(256, 4),
            ),
            front_cam,
            4,
        ),
        // 400 x 400 at z = 0, the texture repeated 100 times each way.
        "floor" => scene(
            "floor",
            floor(0.0, 200.0, 100.0, noise_skin(64, 5)),
            floor_cam,
            1,
        ),
        "model" => model()?,
        _ => return Ok(None),
    }))
}

/// The samples' minigun (`mdl/assimp/minigun.MDL`), else a lit sphere of about its triangle
/// count and skin size, framed the same way.
fn model() -> Result<Scene, BenchError> {
    if let Some(dir) = crate::samples::dir("mdl") {
        let path = dir.join("assimp/minigun.MDL");
        let bytes = std::fs::read(&path).map_err(|source| BenchError::Read {
            path: path.clone(),
            source,
        })?;
        let m = MdlFile::parse(&bytes)
            .map_err(|e| BenchError::Scene {
                scene: "model".into(),
                message: format!("{}: {e}", path.display()),
            })?
            .model;
        return Ok(Scene {
            name: "model",
            model: m,
            camera: model_cam,
            layers: 1,
            source: "minigun.MDL from the samples".into(),
        });
    }
    let (rings, segments) = (20, MINIGUN_TRIANGLES / 40);
    Ok(Scene {
        name: "model",
        model: sphere(
            1.0,
            rings,
            segments,
            Vec2::new(1.0, 1.0),
            noise_skin(256, 6),
        ),
        camera: model_cam,
        layers: 1,
        source: format!(
            "generated sphere of {} triangles (the samples' minigun.MDL was not found)",
            2 * rings * segments
        ),
    })
}

/// The renderer of every raster scene: the Quake palette (8-bit targets) and a light over the
/// viewer's shoulder.
pub fn renderer(cam: &Camera) -> Renderer {
    let mut r = Renderer::new(&Palette::quake());
    r.light = Light::over_shoulder(cam, 0.35, 1.3);
    r
}

/// One modex frame: clear colour and depth, draw the model.
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

/// Every raster scene of the suite, in its order.
pub fn all() -> Result<Vec<Scene>, BenchError> {
    let mut out = Vec::new();
    for n in super::NAMES
        .iter()
        .filter(|n| n.kind == super::SceneKind::Raster)
    {
        out.extend(build(n.name)?);
    }
    Ok(out)
}
