//! CLI for Westwood voxels (VXL, HVA, VPL): the interactive viewer and headless renders
//! (`info` is `modex_view::info`'s).
//! All decoding is `modex_vxl`, the loading rules (companion files, lighting pages) and drawing
//! are `modex_voxel`; this module picks the camera and the output format, and maps the keys (the
//! one table, `keys`).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use modex::{Camera, DepthBuffer, DrawStats, OpenedFile, Palette, Target, TargetFormat};
use modex_raster::RasterPixel;
use modex_voxel::{
    draw_limb_outlines, frame_scene, lighting_for, Instance, LightSource, Pose, RenderOptions,
    Shading, TableChoice, VoxelPixel, VoxelSet,
};
use modex_vxl::Vpl;

use modex_assets::{Asset, Format, PaletteFile};

use super::hud::Hud;
use super::keys::{Action, Drag, KeyState, Viewer};
use super::model_render::DRAG;
use super::target::{self, Targets};
use crate::cli::{parse_size, RenderArgs, ViewArgs};
use modex_view::target::{AnyTarget, Drawing};

/// The unit of a VXL file the frontend already read, with its pieces from the same folder.
fn load_set(asset: &Asset) -> Result<VoxelSet> {
    if asset.format() != Format::Vxl {
        bail!(
            "{} files are not drawn on their own: give the .vxl (its .hva is found beside it)",
            asset.format().name().to_uppercase()
        );
    }
    let set = VoxelSet::load_file(asset.file())?;
    for p in &set.problems {
        log::warn!("{p}");
    }
    Ok(set)
}

/// The lighting pages of `set`: `--palette` if given (read by the engine's one palette rule: a
/// VPL keeps its pages, any other palette is made into pages), else the crate's rule
/// ([`modex_voxel::lighting_for`]).
fn load_vpl(file: &OpenedFile, palette: Option<&Path>, set: &VoxelSet) -> Result<Vpl> {
    let given = palette
        .map(|p| PaletteFile::open(p).map(PaletteFile::into_vpl))
        .transpose()?;
    Ok(lighting_for(set, given, file.folder())?)
}

/// A posed scene of units, drawable into any target format.
struct Shot<'a> {
    scene: &'a [Instance<'a>],
    camera: Camera,
    vpl: &'a Vpl,
    opts: RenderOptions,
    /// Where the unit was drawn, after the draw: its covered pixels.
    depth: DepthBuffer,
}

impl Drawing for Shot<'_> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), modex_view::ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        modex_view::voxel::draw_shot(
            target,
            &mut self.depth,
            self.scene,
            &self.camera,
            self.vpl,
            &self.opts,
        )?;
        Ok(())
    }
}

/// `modex render unit.vxl -o out.png --facing 64 --frame 3`.
pub fn render(args: &RenderArgs, asset: &Asset) -> Result<()> {
    let set = load_set(asset)?;
    let vpl = load_vpl(asset.file(), args.palette.as_deref(), &set)?;
    let (w, h) = parse_size(&args.size)?;
    if args.facing > 255 {
        bail!("--facing {} is out of range 0..=255", args.facing);
    }
    let scene = [Instance {
        unit: set.unit(),
        pose: Pose {
            facing: args.facing as f32,
            frame: args.frame as usize,
            ..Pose::default()
        },
    }];
    let camera = modex_view::voxel::render_camera(&scene, args.yaw, args.pitch, (w, h))?;
    let out = &args.output;
    let mut shot = Shot {
        scene: &scene,
        camera,
        vpl: &vpl,
        opts: RenderOptions::default(),
        depth: DepthBuffer::new(w, h),
    };
    // Voxel units are palettized: 8-bit unless another format is asked. The pixels the unit
    // does not cover are transparent in every format with alpha, as the game drew a unit over
    // the map (8-bit: a key index made transparent in the PNG).
    let mut target = AnyTarget::new(args.format.unwrap_or(TargetFormat::Indexed8), w, h);
    modex::with_threads(args.threads.unwrap_or(0), || target.draw(&mut shot))??;
    target.save_png_covered(out, &vpl.palette, &shot.depth)?;
    log::info!("wrote {}", out.display());
    Ok(())
}

/// What the viewer shows; changed by keys ([`ViewState::read_keys`]), drawn by [`UnitPicture`].
#[derive(Debug, Clone)]
struct ViewState {
    facing: f32,
    turret: f32,
    recoil: f32,
    frame: usize,
    playing: bool,
    yaw: f32,
    pitch: f32,
    perspective: bool,
    table: TableChoice,
    shading: Shading,
    light: LightSource,
    /// The limbs' outlines over the unit (the wireframe key).
    outlines: bool,
    format: TargetFormat,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            facing: 0.0,
            turret: 0.0,
            recoil: 0.0,
            frame: 0,
            playing: true,
            yaw: 45.0,
            pitch: 30.0,
            perspective: false,
            table: TableChoice::Declared,
            shading: Shading::Game,
            light: LightSource::Auto,
            outlines: false,
            format: TargetFormat::Indexed8,
        }
    }
}

/// Facing steps (of the game's 256) a unit turns per second while its key is held.
const FACING_SPEED: f32 = 64.0;
/// Facing steps a turret turns per second.
const TURRET_SPEED: f32 = 128.0;
/// Degrees per second the camera orbits.
const ORBIT_SPEED: f32 = 90.0;

impl ViewState {
    fn next_table(&mut self) {
        self.table = match self.table {
            TableChoice::Declared => TableChoice::ByLargestIndex,
            TableChoice::ByLargestIndex => TableChoice::Force(1),
            TableChoice::Force(n) if n < 4 => TableChoice::Force(n + 1),
            TableChoice::Force(_) => TableChoice::Declared,
        };
    }

    fn next_shading(&mut self) {
        self.shading = match self.shading {
            Shading::Game => Shading::Free,
            Shading::Free => Shading::Unlit,
            Shading::Unlit => Shading::Game,
        };
    }

    fn next_light(&mut self) {
        self.light = match self.light {
            LightSource::Auto => LightSource::TiberianSun,
            LightSource::TiberianSun => LightSource::RedAlert2,
            LightSource::RedAlert2 => LightSource::Auto,
        };
    }

    /// The keys of one frame `dt` seconds long (the one table's bindings) for a unit of
    /// `frames` HVA frames; the mouse moved `drag` pixels with its button held.
    fn read_keys(&mut self, keys: &impl KeyState, drag: (f32, f32), dt: f32, frames: usize) {
        let frames = frames.max(1);
        self.facing =
            (self.facing + Action::Facing.axis(keys) * FACING_SPEED * dt).rem_euclid(256.0);
        self.turret =
            (self.turret + Action::Turret.axis(keys) * TURRET_SPEED * dt).rem_euclid(256.0);
        self.yaw += Action::Turn.axis(keys) * ORBIT_SPEED * dt + drag.0 * DRAG;
        self.pitch = (self.pitch + Action::Tilt.axis(keys) * ORBIT_SPEED * dt - drag.1 * DRAG)
            .clamp(-89.0, 89.0);
        self.recoil = if Action::Recoil.held(keys) {
            3.0
        } else {
            (self.recoil - 30.0 * dt).max(0.0)
        };
        let step = Action::Frame.step(keys);
        if step != 0 {
            self.frame = (self.frame as i64 + step as i64).rem_euclid(frames as i64) as usize;
        }
        if Action::Play.pressed(keys) {
            self.playing = !self.playing;
        }
        if Action::Normals.pressed(keys) {
            self.next_table();
        }
        if Action::Lighting.pressed(keys) {
            self.next_shading();
        }
        if Action::Light.pressed(keys) {
            self.next_light();
        }
        if Action::Wireframe.pressed(keys) {
            self.outlines = !self.outlines;
        }
        if Action::Format.pressed(keys) {
            self.format = target::next(self.format);
        }
        if Action::Projection.pressed(keys) {
            self.perspective = !self.perspective;
        }
    }

    fn status(&self, frames: usize) -> String {
        format!(
            "facing {:.0} turret {:.0} frame {}/{} table {:?} lighting {:?} light {:?}{} {}",
            self.facing,
            self.turret,
            self.frame,
            frames,
            self.table,
            self.shading,
            self.light,
            if self.outlines { " outlines" } else { "" },
            match self.format {
                TargetFormat::Indexed8 => "8-bit",
                f => f.name(),
            },
        )
    }
}

/// The unit as a [`ViewState`] poses and lights it, drawable into any target format.
struct UnitPicture<'a> {
    st: &'a ViewState,
    set: &'a VoxelSet,
    vpl: &'a Vpl,
    /// The viewer's depth buffer, kept from frame to frame.
    depth: &'a mut DepthBuffer,
    /// What the last draw counted.
    stats: DrawStats,
}

impl Drawing for UnitPicture<'_> {
    /// The background (8-bit: palette index 0; true colour: dark blue), the unit, then the limb
    /// outlines in green when asked.
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), modex_view::ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        let st = self.st;
        let (w, h) = target.size();
        let scene = [Instance {
            unit: self.set.unit(),
            pose: Pose {
                facing: st.facing,
                turret_facing: st.turret,
                recoil: st.recoil,
                frame: st.frame,
                ..Pose::default()
            },
        }];
        // Frame the unit standing still so the camera does not breathe with the animation.
        let still = [Instance {
            unit: self.set.unit(),
            pose: Pose::default(),
        }];
        let mut base = modex_view::voxel::base_camera(st.yaw, st.pitch, w, h);
        if st.perspective {
            base.projection = modex::Projection::Perspective { fov_y: 0.6 };
        }
        let camera = frame_scene(&still, &base)?;
        let opts = RenderOptions {
            shading: st.shading,
            table: st.table,
            light: st.light,
            sun: None,
            parallel: true,
            ..RenderOptions::default()
        };
        target.fill(background::<T>(&self.vpl.palette));
        self.stats =
            modex_view::voxel::draw_shot(target, self.depth, &scene, &camera, self.vpl, &opts)?;
        if st.outlines {
            let green = T::flat([0, 255, 0], &self.vpl.palette);
            draw_limb_outlines(&scene, &camera, target, green)?;
        }
        Ok(())
    }
}

/// The viewer's background: palette index 0 in 8-bit, dark blue in true colour.
fn background<T: Target>(palette: &Palette) -> T::Px {
    if T::FORMAT == TargetFormat::Indexed8 {
        let [r, g, b, _] = palette.rgba(0);
        T::flat([r, g, b], palette)
    } else {
        T::flat([0x20, 0x20, 0x30], palette)
    }
}

/// `modex view unit.vxl`: the unit in a window, turning and animating, with the keys of the one
/// key table (F1 lists them over the picture).
pub fn view(args: &ViewArgs, asset: &Asset) -> Result<()> {
    use modex_desktop::WindowPresenter;

    let set = load_set(asset)?;
    let vpl = load_vpl(asset.file(), args.palette.as_deref(), &set)?;
    let (w, h) = parse_size(&args.size)?;
    let frames = [&set.body, &set.turret, &set.barrel]
        .into_iter()
        .flatten()
        .map(|m| m.frame_count())
        .max()
        .unwrap_or(1);
    let title = format!("modex view {} | F1 keys", args.file.display());
    let mut win = WindowPresenter::open(&title, w, h, args.window_scale(w, h), false)?;
    let defaults = ViewState::default();
    let mut st = ViewState {
        yaw: args.yaw.unwrap_or(defaults.yaw),
        pitch: args.pitch.unwrap_or(defaults.pitch),
        ..defaults
    };
    let mut targets = Targets::new(w, h);
    let mut hud = Hud::new(Viewer::Voxel);
    let mut drag = Drag::default();
    let mut last_status = String::new();
    let mut last = Instant::now();
    let mut next_tick = Instant::now();
    let mut depth = DepthBuffer::new(w, h);
    loop {
        let now = Instant::now();
        let dt = (now - last).as_secs_f32().min(0.1);
        last = now;
        let moved = drag.moved(win.window());
        st.read_keys(win.window(), moved, dt, frames);
        hud.read_keys(win.window());
        if st.playing && now >= next_tick {
            st.frame = (st.frame + 1) % frames.max(1);
            next_tick = now + Duration::from_millis(100);
        }
        let status = st.status(frames);
        if status != last_status {
            eprintln!("{status}");
            last_status = status;
        }
        let mut picture = UnitPicture {
            st: &st,
            set: &set,
            vpl: &vpl,
            depth: &mut depth,
            stats: DrawStats::default(),
        };
        let extra = [format!("frame {}/{frames}", st.frame)];
        let mut shown = hud.over(&mut picture, st.format, &vpl.palette, &extra);
        let open = targets.show(st.format, &mut win, &vpl.palette, &mut shown)?;
        hud.frame(now.elapsed().as_secs_f32().max(dt), picture.stats);
        if !open {
            return Ok(());
        }
        let spent = now.elapsed();
        if spent < Duration::from_millis(15) {
            std::thread::sleep(Duration::from_millis(15) - spent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::formats::keys::Held;
    use modex_vxl::encode::{HvaSpec, LimbSpec, VxlSpec};

    fn unit_dir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("modex-voxel-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("tank.vxl"),
            VxlSpec::single(LimbSpec::filled_box([8, 4, 3], 100, 0)).encode(),
        )
        .unwrap();
        std::fs::write(dir.join("tank.hva"), HvaSpec::identity(1, 4).encode()).unwrap();
        std::fs::write(
            dir.join("tankbarl.vxl"),
            VxlSpec::single(LimbSpec::filled_box([6, 1, 1], 120, 0)).encode(),
        )
        .unwrap();
        std::fs::write(dir.join("tankbarl.hva"), HvaSpec::identity(1, 1).encode()).unwrap();
        dir
    }

    /// The unit drawn as `st` says into a 64 x 48 target of `st.format`; RGBA8 pixels.
    fn draw(st: &ViewState, set: &VoxelSet, vpl: &Vpl) -> Vec<u8> {
        let mut depth = DepthBuffer::new(64, 48);
        let mut picture = UnitPicture {
            st,
            set,
            vpl,
            depth: &mut depth,
            stats: DrawStats::default(),
        };
        let mut target = modex_view::target::AnyTarget::new(st.format, 64, 48);
        target.draw(&mut picture).unwrap();
        target.to_rgba8(&vpl.palette)
    }

    #[test]
    fn viewer_states_draw_and_keys_cycle() {
        use modex_desktop::minifb::Key;
        let dir = unit_dir();
        let asset = Asset::open(dir.join("tank.vxl")).unwrap();
        let set = load_set(&asset).unwrap();
        assert!(set.barrel.is_some());
        let vpl = load_vpl(asset.file(), None, &set).unwrap();
        let mut st = ViewState::default();
        let plain = draw(&st, &set, &vpl);
        assert!(plain.chunks(4).any(|p| p[..3] != [0, 0, 0]));
        // X: the limb outlines.
        st.read_keys(&Held(vec![Key::X]), (0.0, 0.0), 0.1, 4);
        assert!(st.outlines);
        let with_outlines = draw(&st, &set, &vpl);
        assert_ne!(plain, with_outlines);
        // Tab through every format, O for perspective: each draws.
        for _ in 0..4 {
            st.read_keys(&Held(vec![Key::Tab]), (0.0, 0.0), 0.1, 4);
            assert_eq!(draw(&st, &set, &vpl).len(), 64 * 48 * 4);
        }
        assert_eq!(st.format, TargetFormat::Indexed8);
        st.read_keys(&Held(vec![Key::O]), (0.0, 0.0), 0.1, 4);
        assert!(st.perspective);
        for _ in 0..6 {
            st.read_keys(&Held(vec![Key::T]), (0.0, 0.0), 0.1, 4);
        }
        assert_eq!(st.table, TableChoice::Declared);
        st.read_keys(&Held(vec![Key::L, Key::V]), (0.0, 0.0), 0.1, 4);
        assert!(st.status(4).contains("Free") && st.status(4).contains("TiberianSun"));
        // Facing and turret on their pairs, the frame on , and .
        st.read_keys(
            &Held(vec![Key::RightBracket, Key::Semicolon, Key::Comma]),
            (0.0, 0.0),
            0.25,
            4,
        );
        assert_eq!((st.facing, st.turret, st.frame), (16.0, 224.0, 3));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
