//! CLI rendering of 3D GameStudio models and terrain: the interactive viewer and headless renders.
//! All drawing is `modex_raster`; this module picks the camera and the keys, and `target` the
//! pixel format.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use modex::{with_threads, Camera, DepthBuffer, Target};
use modex_assets::Asset;
use modex_raster::{framing_camera, Entity, PreparedModel, RasterPixel, Renderer};
use modex_view::colours::{choose, Colours};
use modex_view::model::{bounds_model, default_pitch};
use modex_voxel::VoxelPixel;

use super::model::{load_models, palette_or_quake};
use super::target::{save_png, Targets};
use crate::cli::{parse_size, RenderArgs, TargetFormat, ViewArgs};
use modex_view::target::Drawing;

/// The viewer's opening pitch, degrees.
const VIEW_PITCH: f32 = 15.0;
/// Animation speed of the viewer's playback, frames per second.
const PLAY_FPS: f32 = 10.0;

/// One picture of a prepared model, drawable into any target format.
struct Picture<'a> {
    renderer: &'a Renderer,
    depth: DepthBuffer,
    camera: Camera,
    /// One prepared model per part (MDL7: per group and skin), all drawn with the one entity.
    models: &'a [PreparedModel<'a>],
    entity: Entity,
    wireframe: bool,
}

impl Drawing for Picture<'_> {
    /// Clear to black, draw the model, then its wireframe if asked.
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), modex_view::ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        modex_view::model::draw_picture(
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
        let fmt = match self.format {
            TargetFormat::Indexed8 => "8-bit",
            TargetFormat::Rgb565 => "565",
            TargetFormat::Argb4444 => "4444",
            TargetFormat::Argb8888 => "8888",
        };
        format!(
            "{name} | frame {}/{frames} \"{frame_name}\"{} | skin {}/{skins} | {fmt}{} | arrows rotate, +/- zoom, ,/. frame, space play, F format, S skin, W wire",
            self.frame.floor() as usize + 1,
            if self.playing { " (playing)" } else { "" },
            self.skin + 1,
            if self.wireframe { " + wire" } else { "" },
        )
    }
}

/// `modex view model.mdl`: a window with rotate, zoom, frame stepping, playback, format, skin and
/// wireframe keys (listed in the title bar).
pub fn view(args: &ViewArgs, asset: &Asset) -> Result<()> {
    use modex_desktop::minifb::{Key, KeyRepeat};
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
    let mut win =
        WindowPresenter::open(&name, w, h, args.scale, false).context("cannot open a window")?;
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
    // A several-part model draws each part with its own skin: S has nothing to switch.
    let skins = if prepared.len() == 1 {
        prepared[0].skin_count()
    } else {
        1
    };
    let mut targets = Targets::new(w, h);
    let mut depth = DepthBuffer::new(w, h);
    let mut last = Instant::now();
    let mut title = String::new();
    loop {
        let now = Instant::now();
        let dt = (now - last).as_secs_f32().min(0.1);
        last = now;
        {
            let window = win.window();
            let down = |k| window.is_key_down(k);
            let pressed = |k| window.is_key_pressed(k, KeyRepeat::No);
            let turn = 90.0 * dt;
            if down(Key::Left) {
                st.yaw -= turn;
            }
            if down(Key::Right) {
                st.yaw += turn;
            }
            if down(Key::Up) {
                st.pitch = (st.pitch + turn).min(89.0);
            }
            if down(Key::Down) {
                st.pitch = (st.pitch - turn).max(-89.0);
            }
            if down(Key::Equal) || down(Key::NumPadPlus) || down(Key::PageUp) {
                st.zoom = (st.zoom * (1.0 + dt)).min(20.0);
            }
            if down(Key::Minus) || down(Key::NumPadMinus) || down(Key::PageDown) {
                st.zoom = (st.zoom / (1.0 + dt)).max(0.05);
            }
            if pressed(Key::Period) || pressed(Key::N) {
                st.frame = ((st.frame.floor() as usize + 1) % frames) as f32;
            }
            if pressed(Key::Comma) || pressed(Key::P) {
                st.frame = ((st.frame.floor() as usize + frames - 1) % frames) as f32;
            }
            if pressed(Key::Space) {
                st.playing = !st.playing;
            }
            if pressed(Key::F) {
                st.format = match st.format {
                    TargetFormat::Indexed8 => TargetFormat::Rgb565,
                    TargetFormat::Rgb565 => TargetFormat::Argb4444,
                    TargetFormat::Argb4444 => TargetFormat::Argb8888,
                    TargetFormat::Argb8888 => TargetFormat::Indexed8,
                };
            }
            if pressed(Key::S) {
                st.skin = (st.skin + 1) % skins;
            }
            if pressed(Key::W) {
                st.wireframe = !st.wireframe;
            }
        }
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
        };
        let open = targets.show(st.format, &mut win, &palette, &mut picture)?;
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
