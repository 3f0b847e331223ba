//! `modex render LEVEL.wmb` and `modex view LEVEL.wmb [--bench]`: a level drawn by
//! `modex_view::level::LevelScene` (the picture the web page shows), into a PNG, a window the
//! user flies or walks through (`modex_view::level::Walker`, keys from the one table, `keys`), or
//! the bench's fixed flight.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex::{with_threads, Camera, DepthBuffer, DrawStats, Palette, Target};
use modex_assets::Asset;
use modex_raster::RasterPixel;
use modex_view::colours::{choose, Colours};
use modex_view::level::{
    direction, Collider, Level, LevelScene as Scene, Mode, Motion, Start, Viewpoint, Walker,
};
use modex_voxel::VoxelPixel;

use super::hud::Hud;
use super::keys::{Action, Drag, KeyState, Viewer};
use super::model::palette_or_quake;
use super::target::{self, save_png, Targets};
use super::wmb::load_level;
use crate::cli::{camera_arg, parse_size, LevelCamera, RenderArgs, ViewArgs};
use modex_view::target::{AnyTarget, Drawing};

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

/// The camera at `view`, with the rest of `like` (its field of view, near and far planes).
fn camera_at(view: &Start, like: &Camera) -> Camera {
    Camera {
        eye: view.eye,
        target: view.eye + direction(view.pan, view.tilt),
        ..*like
    }
}

/// Where `camera` is and looks, as pan and tilt.
fn view_of(camera: &Camera) -> Start {
    Start::of_camera(camera)
}

/// The bench's fixed flight from the start: 300 frames along the view direction, turning a full
/// circle, the level's size setting the distance.
const BENCH_FRAMES: usize = 300;

fn bench(args: &ViewArgs, scene: &Scene, (w, h): (usize, usize)) -> Result<()> {
    let start = scene.start_camera(w, h);
    let (lo, hi) = scene.level().bounds();
    let reach = (hi - lo).length() * 0.25;
    let mut view = view_of(&start);
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
            view.pan = view_of(&start).pan + 360.0 * i as f32 / BENCH_FRAMES as f32;
            view.eye += direction(view.pan, 0.0) * step;
            let mut picture = Picture {
                scene,
                depth,
                camera: camera_at(&view, &start),
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

/// Turn the walker by the keys of one frame `dt` seconds long and the mouse's `drag`, and say
/// how it is to move.
fn steer(walker: &mut Walker, keys: &impl KeyState, drag: (f32, f32), dt: f32) -> Motion {
    // Right and dragging right turn right; Up and dragging up look up (the page's rule too).
    walker.look(Action::Turn.axis(keys), Action::Tilt.axis(keys), drag, dt);
    Motion {
        forward: Action::Move.axis(keys),
        right: Action::Strafe.axis(keys),
        up: Action::Rise.axis(keys),
        run: Action::Run.held(keys),
    }
}

/// What the walker does, for the title and the statistics.
fn mode_label(walker: &Walker) -> &'static str {
    match walker.mode {
        Mode::Fly => "flying",
        Mode::Walk if walker.on_ground() => "walking",
        Mode::Walk => "walking (falling)",
    }
}

/// `modex view LEVEL.wmb`: fly (or, after G, walk) through the level with the keys of the one
/// key table: W/A/S/D move, the arrows or the mouse (held left button) look, Shift runs, Q/E
/// down and up; F1 lists them over the picture.
pub fn view(args: &ViewArgs, asset: &Asset) -> Result<()> {
    use modex_desktop::WindowPresenter;

    let palette = palette_or_quake(args.palette.as_deref())?;
    let level = open(asset, &args.path, &palette)?;
    let (w, h) = parse_size(&args.size)?;
    let scene = Scene::new(&level, &palette);
    if args.bench {
        return bench(args, &scene, (w, h));
    }
    let start = scene.camera(viewpoint(&level, &args.place, args.yaw, args.pitch), w, h);
    let world = Collider::of_level(&level);
    log::info!(
        "{}: walking (G) collides with {} triangles",
        level.name,
        world.len()
    );
    let mut walker = Walker::at(&view_of(&start), Mode::Fly);
    let mut win = WindowPresenter::open(&level.name, w, h, args.window_scale(w, h), false)
        .context("cannot open a window")?;
    let mut format = args.format;
    let mut targets = Targets::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    let mut hud = Hud::new(Viewer::Level);
    let mut drag = Drag::default();
    let mut last = Instant::now();
    let mut title = String::new();
    // What the last frame culled, for the statistics.
    let mut culled = 0;
    loop {
        let now = Instant::now();
        let dt = (now - last).as_secs_f32().min(0.1);
        last = now;
        {
            let keys = win.window();
            hud.read_keys(keys);
            let moved = drag.moved(keys);
            let motion = steer(&mut walker, keys, moved, dt);
            if Action::Walk.pressed(keys) {
                walker.toggle();
                log::info!("{}: {}", level.name, mode_label(&walker));
            }
            if Action::Camera.pressed(keys) {
                println!("{}", camera_arg(&walker.view()));
            }
            if Action::Format.pressed(keys) {
                format = target::next(format);
            }
            walker.step(&world, motion, dt);
        }
        let mut picture = Picture {
            scene: &scene,
            depth,
            camera: camera_at(&walker.view(), &start),
            stats: DrawStats::default(),
            culled: 0,
        };
        let eye = walker.eye();
        let extra = [
            format!("{culled} entities culled"),
            format!(
                "{} at {:.0},{:.0},{:.0}",
                mode_label(&walker),
                eye.x,
                eye.y,
                eye.z
            ),
        ];
        let mut shown = hud.over(&mut picture, format, &palette, &extra);
        let open = targets.show(format, &mut win, &palette, &mut shown)?;
        hud.frame(now.elapsed().as_secs_f32().max(dt), picture.stats);
        culled = picture.culled;
        depth = picture.depth;
        let new_title = format!(
            "{} [{}] {} | F1 keys",
            level.name,
            format.name(),
            mode_label(&walker)
        );
        if new_title != title {
            win.window_mut().set_title(&new_title);
            title = new_title;
        }
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
    use crate::cli::formats::keys::Held;
    use glam::Vec3;
    use modex_desktop::minifb::Key;

    #[test]
    fn the_tables_keys_steer_the_walker() {
        let start = Start {
            eye: Vec3::new(1.0, 2.0, 3.0),
            pan: 90.0,
            tilt: 0.0,
        };
        let mut walker = Walker::at(&start, Mode::Fly);
        let keys = Held(vec![
            Key::Right,
            Key::Up,
            Key::W,
            Key::A,
            Key::PageUp,
            Key::LeftShift,
        ]);
        let motion = steer(&mut walker, &keys, (0.0, 0.0), 0.5);
        assert_eq!(
            motion,
            Motion {
                forward: 1.0,
                right: -1.0,
                up: 1.0,
                run: true
            }
        );
        // Right turns right (the pan falls), Up looks up.
        assert_eq!((walker.pan, walker.tilt), (45.0, 30.0));
        // Dragging left and down turns left and looks down, as Left and Down do.
        steer(&mut walker, &Held(Vec::new()), (-10.0, 10.0), 0.5);
        assert_eq!((walker.pan, walker.tilt), (48.0, 27.0));
        // The camera is where the walker's eye is and looks where it looks.
        let like = start.camera(64, 48);
        let camera = camera_at(&walker.view(), &like);
        let back = view_of(&camera);
        assert!((back.eye - start.eye).length() < 1e-4);
        assert!((back.pan - 48.0).abs() < 1e-3 && (back.tilt - 27.0).abs() < 1e-3);
        assert_eq!(mode_label(&walker), "flying");
    }
}
