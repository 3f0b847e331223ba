//! The nearest-surface test of `tests/facing.rs` applied to level geometry seen from inside:
//! testlevel's blocks (the shared LotterShock level, never copied into the repository; skipped
//! loudly without it, failing under `CI`) drawn with back faces culled must show, on nearly every
//! pixel, the surface the same blocks drawn with no culling show nearest: the floor, walls and
//! ceiling face into the level. With the file's winding left as it is, the culled picture would
//! show the outside of the far walls, or nothing.

use glam::Vec3;
use modex::{Argb8888, Camera, DepthBuffer, Surface};
use modex_mdl::wmb::surface::level_models;
use modex_mdl::wmb::WmbFile;
use modex_raster::{Cull, Entity, Renderer};

const SIZE: (usize, usize) = (192, 144);
/// Share of pixels that must show the nearest surface.
const MIN_PERCENT: f64 = 98.0;

fn draw(
    models: &[modex_mdl::Model],
    camera: &Camera,
    cull: Cull,
) -> (Surface<Argb8888>, DepthBuffer) {
    let (w, h) = SIZE;
    let mut renderer = Renderer::new(&modex::Palette::quake());
    renderer.cull = cull;
    let mut target = Surface::<Argb8888>::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    for m in models {
        let prepared = renderer.prepare(m);
        renderer
            .draw(
                &mut target,
                &mut depth,
                camera,
                &prepared,
                &Entity::default(),
            )
            .unwrap();
    }
    (target, depth)
}

#[test]
fn testlevel_seen_from_inside_shows_its_nearest_surfaces() {
    let Some(dir) = modex_testkit::samples_dir("wmb") else {
        return;
    };
    let bytes = std::fs::read(dir.join("lottershock/Game/Level/testlevel.wmb")).unwrap();
    let file = WmbFile::parse(&bytes).unwrap();
    let models: Vec<modex_mdl::Model> = level_models(&file).into_iter().map(|m| m.model).collect();
    // Inside the main hall (floor at z = 0, ceiling at z = 256), looking three ways.
    for target in [
        Vec3::new(0.0, 1000.0, 100.0),
        Vec3::new(1500.0, -1500.0, 60.0),
        Vec3::new(-1500.0, -2500.0, 200.0),
    ] {
        let eye = Vec3::new(0.0, -1500.0, 128.0);
        let mut camera = Camera::look_at(eye, target, 60f32.to_radians(), SIZE.0, SIZE.1);
        camera.near = 1.0;
        camera.far = 20_000.0;
        let (picture, culled) = draw(&models, &camera, Cull::Back);
        let (_, all) = draw(&models, &camera, Cull::None);
        // `MODEX_WMB_DUMP=DIR` keeps the culled pictures, to look at.
        if let Some(d) = std::env::var_os("MODEX_WMB_DUMP") {
            let path = std::path::Path::new(&d).join(format!("inside_{}.png", target.x as i32));
            modex::pngio::save_target(&path, &picture, &modex::Palette::quake()).unwrap();
        }
        let (mut covered, mut right) = (0usize, 0usize);
        for (c, a) in culled.values().iter().zip(all.values()) {
            if a.is_finite() {
                covered += 1;
                if c.is_finite() && (c - a).abs() <= 1.0 + 0.001 * a {
                    right += 1;
                }
            }
        }
        let share = 100.0 * right as f64 / covered.max(1) as f64;
        println!("towards {target}: {share:.2} % of {covered} pixels show the nearest surface");
        assert!(
            covered > SIZE.0 * SIZE.1 / 2,
            "the view is inside the level"
        );
        assert!(share >= MIN_PERCENT, "{share:.2} % towards {target}");
    }
}
