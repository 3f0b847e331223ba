//! `modex render LEVEL.wmb` and `modex view LEVEL.wmb [--bench]`: a level drawn by the
//! rasterizer. Block models carry texture × lightmap in their baked surfaces
//! (`modex_mdl::wmb::surface`) and are drawn at light 1.0; flat surfaces and the entities' models
//! are lit by the INFO object's sun and ambient colour; sprites are turned to face the camera.
//! Entities whose bounding sphere lies outside the view are skipped before they are posed.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use glam::Vec3;
use modex::{with_threads, Camera, DepthBuffer, DrawStats, Palette, Target};
use modex_assets::Asset;
use modex_mdl::wmb::object::color_rgb;
use modex_mdl::wmb::surface::SurfaceKind;
use modex_raster::{Entity, Light, PreparedModel, RasterPixel, Renderer};
use modex_voxel::VoxelPixel;

use super::model::palette_or_quake;
use super::target::{save_png, DrawInto, Targets};
use super::wmb::{load_level, Level, Shape};
use crate::cli::{parse_size, RenderArgs, TargetFormat, ViewArgs};

/// Vertical field of view, degrees (GameStudio's default camera arc is 60 degrees horizontal
/// at 4:3, about 47 vertical).
const FOV_Y: f32 = 47.0;
/// Eye height above a POSITION object, which marks where the player stands.
const EYE_HEIGHT: f32 = 0.0;
/// Walking speed, units per second (Shift runs at 3x).
const WALK: f32 = 200.0;

/// The scene's light from the INFO object: the sun from its azimuth and elevation, ambient and
/// sun strength from its colours (grey levels, 0..1 each; the sun doubled so that albedo 50
/// receives it whole).
fn info_light(level: &Level) -> Light {
    let Some(info) = level.file.info() else {
        return Light::default();
    };
    let (az, el) = (info.azimuth.to_radians(), info.elevation.to_radians());
    let towards = Vec3::new(el.cos() * az.cos(), el.cos() * az.sin(), el.sin());
    let grey = |w: u32| {
        let c = color_rgb(w);
        (c[0] as f32 + c[1] as f32 + c[2] as f32) / (3.0 * 255.0)
    };
    Light {
        direction: -towards,
        ambient: grey(info.ambient_color),
        diffuse: 2.0 * grey(info.sun_color),
    }
}

/// The prepared level: the renderer and every model prepared once.
struct Scene<'l> {
    level: &'l Level,
    renderer: Renderer,
    blocks: Vec<(SurfaceKind, PreparedModel<'l>)>,
    files: Vec<Vec<PreparedModel<'l>>>,
}

impl<'l> Scene<'l> {
    fn new(level: &'l Level, palette: &Palette) -> Scene<'l> {
        let mut renderer = Renderer::new(palette);
        renderer.light = info_light(level);
        let blocks = level
            .blocks
            .iter()
            .map(|b| (b.kind, renderer.prepare(&b.model)))
            .collect();
        let files = level
            .files
            .iter()
            .map(|f| f.models.iter().map(|m| renderer.prepare(m)).collect())
            .collect();
        Scene {
            level,
            renderer,
            blocks,
            files,
        }
    }

    /// The default camera: the first POSITION object looking along its pan and tilt, else above
    /// the level's bounds looking at their centre.
    fn start_camera(&self, w: usize, h: usize) -> Camera {
        if let Some((origin, angle)) = self.level.start() {
            let eye = origin + Vec3::Z * EYE_HEIGHT;
            return Camera {
                far: 100_000.0,
                near: 1.0,
                ..Camera::look_at(
                    eye,
                    eye + direction(angle.x, angle.y),
                    FOV_Y.to_radians(),
                    w,
                    h,
                )
            };
        }
        let (lo, hi) = self.level.bounds();
        above(lo, hi, FOV_Y.to_radians(), w, h)
    }

    /// Draw the level into `target` (cleared first) and return the statistics and how many
    /// entities were culled.
    fn draw<T: Target>(
        &self,
        target: &mut T,
        depth: &mut DepthBuffer,
        camera: &Camera,
    ) -> Result<(DrawStats, usize)>
    where
        T::Px: RasterPixel,
    {
        target.fill(T::flat([0, 0, 0], self.renderer.palette()));
        depth.clear();
        let r = &self.renderer;
        let mut stats = DrawStats::default();
        // Surfaces with their light baked in, and the sky, at light 1.0: ambient makes up the
        // difference to 1 and the sun is left out (albedo 0).
        let full = Entity {
            ambient: (1.0 - r.light.ambient) * 100.0,
            albedo: 0.0,
            ..Entity::default()
        };
        for (kind, m) in &self.blocks {
            let e = match kind {
                SurfaceKind::Lightmapped | SurfaceKind::Sky => full,
                SurfaceKind::Flat => Entity::default(),
            };
            stats += r.draw(target, depth, camera, m, &e)?;
        }
        let view = camera.view();
        let (tan_y, aspect) = match camera.projection {
            modex::Projection::Perspective { fov_y } => ((fov_y / 2.0).tan(), camera.aspect()),
            _ => (f32::INFINITY, 1.0),
        };
        let tan_x = tan_y * aspect;
        let mut culled = 0;
        for p in &self.level.placed {
            let f = &self.level.files[p.file];
            // Cull by the bounding sphere in view space before posing.
            let scale = p.scale.abs().max_element();
            let centre = p.origin + f.centre() * scale;
            let radius = f.radius() * scale;
            let c = view.transform_point3(centre);
            let z = -c.z;
            let outside = z + radius < camera.near
                || z - radius > camera.far
                || c.x.abs() - radius * (1.0 + tan_x * tan_x).sqrt() > z * tan_x
                || c.y.abs() - radius * (1.0 + tan_y * tan_y).sqrt() > z * tan_y;
            if outside {
                culled += 1;
                continue;
            }
            let mut e = Entity {
                position: p.origin,
                pan: p.angle.x,
                tilt: p.angle.y,
                roll: p.angle.z,
                scale: p.scale,
                ambient: p.ambient,
                albedo: p.albedo,
                ..Entity::default()
            };
            if f.shape == Shape::Sprite {
                let d = camera.eye - p.origin;
                e.pan = d.y.atan2(d.x).to_degrees();
                e.tilt = d.z.atan2(d.truncate().length()).to_degrees();
                e.roll = 0.0;
                e.ambient = full.ambient;
                e.albedo = 0.0;
                e.overlay = false;
            }
            for m in &self.files[p.file] {
                stats += r.draw(target, depth, camera, m, &e)?;
            }
        }
        Ok((stats, culled))
    }
}

/// From where [`above`] looks down on a level: south-west of its centre and high up.
const ABOVE: Vec3 = Vec3::new(-0.45, -0.55, 0.7);
/// Part of the picture's half width and height the level's box may fill in [`above`].
const ABOVE_FILL: f32 = 0.95;

/// The camera above the box `lo..=hi`, looking at its centre from [`ABOVE`], as close as lets
/// every corner of the box into the picture. Levels are flat and wide: the bounding sphere
/// `Camera::framing` fits for models put the eye 1.3 diagonals away, and bestiary, a row of
/// cages 5 600 units long with a room 9 000 units east, then filled a sliver of the picture.
fn above(lo: Vec3, hi: Vec3, fov_y: f32, w: usize, h: usize) -> Camera {
    let centre = (lo + hi) * 0.5;
    let size = (hi - lo).length().max(1.0);
    let back = ABOVE.normalize();
    let probe = Camera::look_at(centre + back, centre, fov_y, w, h);
    let view = probe.view();
    let tan_y = (fov_y * 0.5).tan() * ABOVE_FILL;
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

/// The unit vector of pan and tilt (degrees), GameStudio's: pan 0 looks along +X, 90 along +Y.
fn direction(pan: f32, tilt: f32) -> Vec3 {
    let (p, t) = (pan.to_radians(), tilt.to_radians());
    Vec3::new(t.cos() * p.cos(), t.cos() * p.sin(), t.sin())
}

struct Picture<'a, 'l> {
    scene: &'a Scene<'l>,
    depth: DepthBuffer,
    camera: Camera,
    stats: DrawStats,
    culled: usize,
}

impl DrawInto for Picture<'_, '_> {
    fn draw_into<T: Target>(&mut self, target: &mut T) -> Result<()>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        let (stats, culled) = self.scene.draw(target, &mut self.depth, &self.camera)?;
        self.stats = stats;
        self.culled = culled;
        Ok(())
    }
}

fn open(asset: &Asset, paths: &[std::path::PathBuf], palette: &Palette) -> Result<Level> {
    let level = load_level(asset.path(), asset.bytes(), paths, palette)?;
    log::info!(
        "{}: {} block models, {} of {} entities placed from {} files",
        level.name,
        level.blocks.len(),
        level.found,
        level.file.entities().count(),
        level.files.len()
    );
    Ok(level)
}

/// `modex render LEVEL.wmb -o out.png`.
pub fn render(args: &RenderArgs, asset: &Asset) -> Result<()> {
    let palette = palette_or_quake(args.palette.as_deref())?;
    let level = open(asset, &args.path, &palette)?;
    let (w, h) = parse_size(&args.size)?;
    let scene = Scene::new(&level, &palette);
    let mut picture = Picture {
        scene: &scene,
        depth: DepthBuffer::new(w, h),
        camera: scene.start_camera(w, h),
        stats: DrawStats::default(),
        culled: 0,
    };
    with_threads(args.threads.unwrap_or(0), || {
        save_png(args.format, (w, h), &palette, &args.output, &mut picture)
    })??;
    log::info!("wrote {}", args.output.display());
    Ok(())
}

/// Where the walker is and looks.
struct Walker {
    eye: Vec3,
    pan: f32,
    tilt: f32,
}

impl Walker {
    fn camera(&self, like: &Camera) -> Camera {
        Camera {
            eye: self.eye,
            target: self.eye + direction(self.pan, self.tilt),
            ..*like
        }
    }
}

fn walker_from(camera: &Camera) -> Walker {
    let d = (camera.target - camera.eye).normalize_or(Vec3::X);
    Walker {
        eye: camera.eye,
        pan: d.y.atan2(d.x).to_degrees(),
        tilt: d.z.asin().to_degrees(),
    }
}

/// The bench's fixed flight from the start: 300 frames along the view direction, turning a full
/// circle, the level's size setting the distance.
const BENCH_FRAMES: usize = 300;

fn bench(args: &ViewArgs, scene: &Scene, (w, h): (usize, usize)) -> Result<()> {
    let start = scene.start_camera(w, h);
    let (lo, hi) = scene.level.bounds();
    let reach = (hi - lo).length() * 0.25;
    let mut walker = walker_from(&start);
    let mut indexed = modex::IndexedFrame::new(w, h);
    let mut argb = modex::Surface::<modex::Argb8888>::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    let path = match args.format {
        TargetFormat::Indexed8 => "8",
        _ => "8888",
    };
    let format = if path == "8" {
        TargetFormat::Indexed8
    } else {
        TargetFormat::Argb8888
    };
    let threads = if let Some(t) = args.threads {
        t
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    };
    let step = reach / BENCH_FRAMES as f32;
    let elapsed = with_threads(threads, || -> Result<Duration> {
        let t0 = Instant::now();
        for i in 0..BENCH_FRAMES {
            walker.pan = walker_from(&start).pan + 360.0 * i as f32 / BENCH_FRAMES as f32;
            walker.eye += direction(walker.pan, 0.0) * step;
            let mut picture = Picture {
                scene,
                depth,
                camera: walker.camera(&start),
                stats: DrawStats::default(),
                culled: 0,
            };
            // Drawn without presenting: the line measures drawing alone.
            match format {
                TargetFormat::Indexed8 => picture.draw_into(&mut indexed)?,
                _ => picture.draw_into(&mut argb)?,
            }
            depth = picture.depth;
        }
        Ok(t0.elapsed())
    })??;
    let fps = BENCH_FRAMES as f64 / elapsed.as_secs_f64();
    println!(
        "BENCH level={} size={w}x{h} path={path} threads={threads} fps={fps:.1}",
        scene.level.name
    );
    Ok(())
}

/// `modex view LEVEL.wmb`: walk with WASD or the arrows, look with the mouse (held left button)
/// or the arrows, Shift runs, Q/E up and down, F shows the frame statistics in the title, G
/// switches the pixel format (8-bit, 565, 4444, 8888).
pub fn view(args: &ViewArgs, asset: &Asset) -> Result<()> {
    use modex_desktop::minifb::{Key, KeyRepeat, MouseButton, MouseMode};
    use modex_desktop::WindowPresenter;

    let palette = palette_or_quake(args.palette.as_deref())?;
    let level = open(asset, &args.path, &palette)?;
    let (w, h) = parse_size(&args.size)?;
    let scene = Scene::new(&level, &palette);
    if args.bench {
        return bench(args, &scene, (w, h));
    }
    let start = scene.start_camera(w, h);
    let mut walker = walker_from(&start);
    let mut win = WindowPresenter::open(&level.name, w, h, args.scale, false)
        .context("cannot open a window")?;
    let mut format = args.format;
    let mut show_stats = false;
    let mut targets = Targets::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    let mut last = Instant::now();
    let mut mouse: Option<(f32, f32)> = None;
    let mut fps = 0.0f32;
    loop {
        let now = Instant::now();
        let dt = (now - last).as_secs_f32().min(0.1);
        last = now;
        fps = fps * 0.9 + 0.1 / dt.max(1e-4);
        {
            let window = win.window();
            let down = |k| window.is_key_down(k);
            let pressed = |k| window.is_key_pressed(k, KeyRepeat::No);
            let run = if down(Key::LeftShift) || down(Key::RightShift) {
                3.0
            } else {
                1.0
            };
            let speed = WALK * run * dt;
            let forward = direction(walker.pan, walker.tilt);
            let right = direction(walker.pan - 90.0, 0.0);
            if down(Key::W) || down(Key::Up) {
                walker.eye += forward * speed;
            }
            if down(Key::S) || down(Key::Down) {
                walker.eye -= forward * speed;
            }
            if down(Key::D) {
                walker.eye += right * speed;
            }
            if down(Key::A) {
                walker.eye -= right * speed;
            }
            if down(Key::E) {
                walker.eye.z += speed;
            }
            if down(Key::Q) {
                walker.eye.z -= speed;
            }
            if down(Key::Left) {
                walker.pan += 90.0 * dt;
            }
            if down(Key::Right) {
                walker.pan -= 90.0 * dt;
            }
            if down(Key::PageUp) {
                walker.tilt = (walker.tilt + 60.0 * dt).min(89.0);
            }
            if down(Key::PageDown) {
                walker.tilt = (walker.tilt - 60.0 * dt).max(-89.0);
            }
            let pos = window.get_mouse_pos(MouseMode::Pass);
            if let (Some((x, y)), true) = (pos, window.get_mouse_down(MouseButton::Left)) {
                if let Some((px, py)) = mouse {
                    walker.pan -= (x - px) * 0.3;
                    walker.tilt = (walker.tilt - (y - py) * 0.3).clamp(-89.0, 89.0);
                }
                mouse = Some((x, y));
            } else {
                mouse = None;
            }
            if pressed(Key::F) {
                show_stats = !show_stats;
            }
            if pressed(Key::G) {
                format = match format {
                    TargetFormat::Indexed8 => TargetFormat::Rgb565,
                    TargetFormat::Rgb565 => TargetFormat::Argb4444,
                    TargetFormat::Argb4444 => TargetFormat::Argb8888,
                    TargetFormat::Argb8888 => TargetFormat::Indexed8,
                };
            }
        }
        let mut picture = Picture {
            scene: &scene,
            depth,
            camera: walker.camera(&start),
            stats: DrawStats::default(),
            culled: 0,
        };
        let open = targets.show(format, &mut win, &palette, &mut picture)?;
        depth = picture.depth;
        let title = if show_stats {
            format!(
                "{} [{}] {:.0} fps, {} triangles ({} drawn), {} entities culled",
                level.name,
                format.name(),
                fps,
                picture.stats.triangles,
                picture.stats.rasterized,
                picture.culled
            )
        } else {
            format!(
                "{} [{}] WASD/arrows walk, mouse looks, Shift runs, F stats",
                level.name,
                format.name()
            )
        };
        win.window_mut().set_title(&title);
        if !open {
            return Ok(());
        }
        let spent = now.elapsed();
        if spent < Duration::from_millis(5) {
            std::thread::sleep(Duration::from_millis(5) - spent);
        }
    }
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
}
