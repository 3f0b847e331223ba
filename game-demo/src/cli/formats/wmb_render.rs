//! `modex render LEVEL.wmb` and `modex view LEVEL.wmb [--bench]`: a level drawn by
//! `modex_view::level::LevelScene` (the picture the web page shows), into a PNG, a window the
//! user walks through, or the bench's fixed flight.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use glam::Vec3;
use modex::{with_threads, Camera, DepthBuffer, DrawStats, Palette, Target};
use modex_assets::Asset;
use modex_raster::RasterPixel;
use modex_view::colours::{choose, Colours};
use modex_view::level::{direction, Level, LevelScene as Scene, Viewpoint};
use modex_voxel::VoxelPixel;

use super::model::palette_or_quake;
use super::target::{save_png, Targets};
use super::wmb::load_level;
use crate::cli::{camera_arg, parse_size, LevelCamera, RenderArgs, TargetFormat, ViewArgs};
use modex_view::target::{AnyTarget, Drawing};

/// Walking speed, units per second (Shift runs at 3x).
const WALK: f32 = 200.0;

struct Picture<'a, 'l> {
    scene: &'a Scene<'l>,
    depth: DepthBuffer,
    camera: Camera,
    stats: DrawStats,
    culled: usize,
}

impl Drawing for Picture<'_, '_> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), modex_view::ViewError>
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

/// The viewpoint the flags ask for, said in one log line (the camera as a `--camera` argument, so
/// a user can take it from there): `--camera`, else `--start`, else the orbit of `--yaw`/`--pitch`,
/// else the default (the start when there is one, else the overview).
fn viewpoint(
    level: &Level,
    place: &LevelCamera,
    yaw: Option<f32>,
    pitch: Option<f32>,
) -> Viewpoint {
    let start = level.start();
    let (viewpoint, said) = if let Some(at) = place.camera {
        (Viewpoint::At(at), format!("seen from {}", camera_arg(&at)))
    } else if yaw.is_some() || pitch.is_some() {
        (
            Viewpoint::Orbit {
                yaw: yaw.unwrap_or(0.0),
                pitch,
            },
            format!(
                "seen orbiting the centre (yaw {}, pitch {})",
                yaw.unwrap_or(0.0),
                pitch.map_or("of the overview".to_string(), |p| p.to_string())
            ),
        )
    } else {
        let said = match start {
            Some(s) => format!("seen from the player's start ({})", camera_arg(&s)),
            None if place.start => "seen from the overview: the level has no start (no \
                                    POSITION object, no player entity)"
                .to_string(),
            None => "seen from the overview (the level has no start)".to_string(),
        };
        (Viewpoint::Default, said)
    };
    log::info!("{}: {said}", level.name);
    viewpoint
}

/// `modex render LEVEL.wmb -o out.png [--yaw Y] [--pitch P | --start | --camera X,Y,Z,PAN,TILT]`.
pub fn render(args: &RenderArgs, asset: &Asset) -> Result<()> {
    let palette = palette_or_quake(args.palette.as_deref())?;
    let level = open(asset, &args.path, &palette)?;
    let (w, h) = parse_size(&args.size)?;
    // Levels are true colour: 8888 unless asked; 8-bit through the level's own palette, else one
    // built from its surfaces and models.
    let given = args.palette.is_some();
    let own = level.own_palette();
    let choice = choose(
        args.format,
        Colours::TrueColour,
        &palette,
        given,
        own,
        level.models(),
    );
    for line in &choice.said {
        log::info!("{}: {line}", level.name);
    }
    let (format, palette) = (choice.format, choice.palette);
    let scene = Scene::new(&level, &palette);
    let mut picture = Picture {
        scene: &scene,
        depth: DepthBuffer::new(w, h),
        camera: scene.camera(viewpoint(&level, &args.place, args.yaw, args.pitch), w, h),
        stats: DrawStats::default(),
        culled: 0,
    };
    with_threads(args.threads.unwrap_or(0), || {
        save_png(format, (w, h), &palette, &args.output, &mut picture)
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
    let (lo, hi) = scene.level().bounds();
    let reach = (hi - lo).length() * 0.25;
    let mut walker = walker_from(&start);
    // Any of the four formats (8-bit through the viewer's palette: the line measures drawing).
    let format = args.format;
    let mut target = AnyTarget::new(format, w, h);
    let mut depth = DepthBuffer::new(w, h);
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
            target.draw(&mut picture)?;
            depth = picture.depth;
        }
        Ok(t0.elapsed())
    })??;
    let fps = BENCH_FRAMES as f64 / elapsed.as_secs_f64();
    println!(
        "BENCH level={} size={w}x{h} path={} threads={threads} fps={fps:.1}",
        scene.level().name,
        format.name()
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
    let start = scene.camera(viewpoint(&level, &args.place, args.yaw, args.pitch), w, h);
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
