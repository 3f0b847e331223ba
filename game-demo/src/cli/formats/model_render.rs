//! CLI rendering of 3D GameStudio models and terrain: the interactive viewer and headless renders.
//! All drawing is `modex_raster`; this module picks the camera and maps the keys (`keys`, the one
//! table), `target` the pixel format and `hud` what is drawn over the picture.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use modex::{with_threads, Camera, DepthBuffer, DrawStats, Target};
use modex_assets::Asset;
use modex_raster::{framing_camera, Entity, PreparedModel, RasterPixel, Renderer};
use modex_view::colours::{choose, Colours};
use modex_view::model::{bounds_model, default_pitch};
use modex_voxel::VoxelPixel;

use super::hud::Hud;
use super::keys::{Action, Drag, Viewer};
use super::model::{load_models, palette_or_quake};
use super::target::{self, save_png, Targets};
use crate::cli::{parse_size, RenderArgs, TargetFormat, ViewArgs};
use modex_view::target::Drawing;

/// The viewer's opening pitch, degrees.
const VIEW_PITCH: f32 = 15.0;
/// Animation speed of the viewer's playback, frames per second.
const PLAY_FPS: f32 = 10.0;
/// Degrees the view turns per pixel the mouse is dragged (the level viewer's too).
pub const DRAG: f32 = 0.3;

/// One picture of a prepared model, drawable into any target format.
struct Picture<'a> {
    renderer: &'a Renderer,
    depth: DepthBuffer,
    camera: Camera,
    /// One prepared model per part (MDL7: per group and skin), all drawn with the one entity.
    models: &'a [PreparedModel<'a>],
    entity: Entity,
    wireframe: bool,
    /// What the last draw counted.
    stats: DrawStats,
}

impl Drawing for Picture<'_> {
    /// Clear to black, draw the model, then its wireframe if asked.
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), modex_view::ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        self.stats = modex_view::model::draw_picture(
            target,
            &mut self.depth,
            self.renderer,
            &self.camera,
            self.models,
            &self.entity,
            self.wireframe,
        )?;
        Ok(())
    }
}

/// `modex render model.mdl -o out.png ...`: auto-framed from the frame's bounding box.
pub fn render(args: &RenderArgs, asset: &Asset) -> Result<()> {
    let palette = palette_or_quake(args.palette.as_deref())?;
    let models = load_models(asset, &palette, args.skins.as_deref())?;
    let (w, h) = parse_size(&args.size)?;
    let frames = models.iter().map(|m| m.frames.len()).max().unwrap_or(0);
    let model = &models[0];
    let frame = args.frame as usize;
    if frame >= frames {
        bail!(
            "--frame {frame} is out of range: the model has {frames} frames (0..{})",
            frames.saturating_sub(1)
        );
    }
    if let Some(n) = args.nextframe {
        if n as usize >= frames {
            bail!("--nextframe {n} is out of range: the model has {frames} frames");
        }
    }
    if !(0.0..=1.0).contains(&args.fraction) {
        bail!("--fraction must be within 0..1");
    }
    if !model.skins.is_empty() && args.skin >= model.skins.len() {
        bail!(
            "--skin {} is out of range: the model has {} skins",
            args.skin,
            model.skins.len()
        );
    }
    let (format, palette) =
        format_and_palette(args, &asset.path().display().to_string(), &models, palette);
    let mut renderer = Renderer::new(&palette);
    let camera = modex_view::model::render_camera(&models, frame, args.yaw, args.pitch, (w, h));
    modex_view::model::light_for(&mut renderer, &camera, asset.format());
    let prepared: Vec<PreparedModel> = models.iter().map(|m| renderer.prepare(m)).collect();
    let entity = Entity {
        frame: frame as f32 + args.fraction.min(0.9999),
        nextframe: args.nextframe.map(|n| n as usize),
        skin: args.skin,
        ..Entity::default()
    };
    let out = &args.output;
    let mut picture = Picture {
        renderer: &renderer,
        depth: DepthBuffer::new(w, h),
        camera,
        models: &prepared,
        entity,
        wireframe: false,
        stats: DrawStats::default(),
    };
    with_threads(args.threads.unwrap_or(0), || {
        save_png(format, (w, h), &palette, out, &mut picture)
    })??;
    log::info!("wrote {}", out.display());
    Ok(())
}

/// `--format`, else the content's, and the palette of an 8-bit picture
/// ([`modex_view::colours::choose`]), each said in a log line.
pub fn format_and_palette(
    args: &RenderArgs,
    name: &str,
    models: &[modex_mdl::Model],
    palette: modex::Palette,
) -> (TargetFormat, modex::Palette) {
    let given = args.palette.is_some();
    let colours = Colours::of_models(models);
    let choice = choose(args.format, colours, &palette, given, None, models);
    for line in &choice.said {
        log::info!("{name}: {line}");
    }
    (choice.format, choice.palette)
}

/// The viewer's state.
struct ViewState {
    yaw: f32,
    pitch: f32,
    zoom: f32,
    frame: f32,
    playing: bool,
    format: TargetFormat,
    skin: usize,
    wireframe: bool,
}

impl ViewState {
    fn title(&self, name: &str, frames: usize, frame_name: &str, skins: usize) -> String {
        format!(
            "{name} | frame {}/{frames} \"{frame_name}\"{} | skin {}/{skins} | {}{} | F1 keys",
            self.frame.floor() as usize + 1,
            if self.playing { " (playing)" } else { "" },
            self.skin + 1,
            format_label(self.format),
            if self.wireframe { " + wire" } else { "" },
        )
    }

    /// The keys of one frame `dt` seconds long (the one table's bindings): `frames` animation
    /// frames, `skins` skins; the mouse moved `drag` pixels with its button held.
    fn read_keys(
        &mut self,
        keys: &impl super::keys::KeyState,
        drag: (f32, f32),
        dt: f32,
        frames: usize,
        skins: usize,
    ) {
        let turn = 90.0 * dt;
        // Dragging right and down turns as Right and Down do.
        self.yaw += Action::Turn.axis(keys) * turn + drag.0 * DRAG;
        self.pitch =
            (self.pitch + Action::Tilt.axis(keys) * turn - drag.1 * DRAG).clamp(-89.0, 89.0);
        let zoom = Action::Zoom.axis(keys);
        if zoom != 0.0 {
            self.zoom = (self.zoom * (1.0 + dt).powf(zoom)).clamp(0.05, 20.0);
        }
        let step = Action::Frame.step(keys);
        if step != 0 {
            let n = frames.max(1) as i64;
            self.frame = (self.frame.floor() as i64 + step as i64).rem_euclid(n) as f32;
        }
        if Action::Play.pressed(keys) {
            self.playing = !self.playing;
        }
        if Action::Format.pressed(keys) {
            self.format = target::next(self.format);
        }
        if Action::Skin.pressed(keys) {
            self.skin = (self.skin + 1) % skins.max(1);
        }
        if Action::Wireframe.pressed(keys) {
            self.wireframe = !self.wireframe;
        }
    }
}

/// A format as the title bar names it.
fn format_label(format: TargetFormat) -> &'static str {
    match format {
        TargetFormat::Indexed8 => "8-bit",
        f => f.name(),
    }
}

/// `modex view model.mdl`: a window with orbit, zoom, frame stepping, playback, format, skin and
/// wireframe keys, as the one key table binds them (F1 lists them over the picture).
pub fn view(args: &ViewArgs, asset: &Asset) -> Result<()> {
    use modex_desktop::WindowPresenter;

    let palette = palette_or_quake(args.palette.as_deref())?;
    let models = load_models(asset, &palette, args.skins.as_deref())?;
    if models.iter().all(|m| m.frames.is_empty()) {
        bail!("the model has no frames to show");
    }
    let (w, h) = parse_size(&args.size)?;
    let mut renderer = Renderer::new(&palette);
    let prepared: Vec<PreparedModel> = models.iter().map(|m| renderer.prepare(m)).collect();
    let model = &models[0];
    let bounds = bounds_model(&models, 0);
    let name = args
        .file
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut win = WindowPresenter::open(&name, w, h, args.window_scale(w, h), false)
        .context("cannot open a window")?;
    let mut st = ViewState {
        yaw: args.yaw.unwrap_or(120.0),
        pitch: args
            .pitch
            .unwrap_or_else(|| default_pitch(&bounds_model(&models, 0), VIEW_PITCH)),
        zoom: 1.0,
        frame: 0.0,
        // Skeletal MDL7 models open playing their animation (Space stops it).
        playing: modex_mdl::mdl7::sniff(asset.bytes()) && models.iter().any(|m| m.frames.len() > 1),
        format: TargetFormat::Indexed8,
        skin: 0,
        wireframe: false,
    };
    let frames = models.iter().map(|m| m.frames.len()).max().unwrap_or(1);
    // A several-part model draws each part with its own skin: the skin key has nothing to switch.
    let skins = if prepared.len() == 1 {
        prepared[0].skin_count()
    } else {
        1
    };
    let mut targets = Targets::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    let mut hud = Hud::new(Viewer::Model);
    let mut drag = Drag::default();
    let mut last = Instant::now();
    let mut title = String::new();
    loop {
        let now = Instant::now();
        let dt = (now - last).as_secs_f32().min(0.1);
        last = now;
        let moved = drag.moved(win.window());
        st.read_keys(win.window(), moved, dt, frames, skins);
        hud.read_keys(win.window());
        if st.playing {
            st.frame = (st.frame + dt * PLAY_FPS) % frames as f32;
        }
        let fi = st.frame.floor() as usize;
        let frame_name = model.frames.get(fi).map_or("", |f| f.name.as_str());
        let new_title = st.title(&name, frames, frame_name, skins);
        if new_title != title {
            win.window_mut().set_title(&new_title);
            title = new_title;
        }
        let mut camera = framing_camera(&bounds, 0, st.yaw, st.pitch, w, h);
        let offset = camera.eye - camera.target;
        camera.eye = camera.target + offset / st.zoom;
        camera.near /= st.zoom.max(1.0);
        modex_view::model::light_for(&mut renderer, &camera, asset.format());
        let entity = Entity {
            // Interpolate only while playing; stepping shows whole frames.
            frame: if st.playing { st.frame } else { fi as f32 },
            skin: st.skin,
            ..Entity::default()
        };
        let mut picture = Picture {
            renderer: &renderer,
            depth,
            camera,
            models: &prepared,
            entity,
            wireframe: st.wireframe,
            stats: DrawStats::default(),
        };
        let extra = [format!("frame {}/{frames} \"{frame_name}\"", fi + 1)];
        let mut shown = hud.over(&mut picture, st.format, &palette, &extra);
        let open = targets.show(st.format, &mut win, &palette, &mut shown)?;
        hud.frame(now.elapsed().as_secs_f32().max(dt), picture.stats);
        depth = picture.depth;
        if !open {
            return Ok(());
        }
        // The window presents as fast as we draw; leave the shared CPU some air at ~100 Hz.
        let spent = now.elapsed();
        if spent < Duration::from_millis(10) {
            std::thread::sleep(Duration::from_millis(10) - spent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::formats::keys::Held;
    use modex_desktop::minifb::Key;

    #[test]
    fn the_tables_keys_change_the_model_view() {
        let mut st = ViewState {
            yaw: 0.0,
            pitch: 0.0,
            zoom: 1.0,
            frame: 0.0,
            playing: false,
            format: TargetFormat::Indexed8,
            skin: 0,
            wireframe: false,
        };
        let press = |st: &mut ViewState, keys: &[Key]| {
            st.read_keys(&Held(keys.to_vec()), (0.0, 0.0), 0.1, 4, 2)
        };
        press(&mut st, &[Key::Tab, Key::K, Key::X, Key::Space, Key::Comma]);
        assert_eq!(st.format, TargetFormat::Rgb565);
        assert_eq!((st.skin, st.wireframe, st.playing), (1, true, true));
        // Back one from the first frame is the last.
        assert_eq!(st.frame, 3.0);
        press(&mut st, &[Key::Period, Key::Right, Key::Up, Key::Equal]);
        assert_eq!(st.frame, 0.0);
        assert!(st.yaw > 0.0 && st.pitch > 0.0 && st.zoom > 1.0);
        // The old keys do nothing now: F is the statistics (the hud's), W moves in levels.
        let before = (st.format, st.wireframe, st.skin);
        press(&mut st, &[Key::F, Key::W, Key::S]);
        assert_eq!((st.format, st.wireframe, st.skin), before);
        // Dragging the mouse right and down turns the model as Right and Down do.
        let (yaw, pitch) = (st.yaw, st.pitch);
        st.read_keys(&Held(Vec::new()), (10.0, 10.0), 0.1, 4, 2);
        assert!(st.yaw > yaw && st.pitch < pitch);
    }
}
