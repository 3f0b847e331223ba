//! CLI for Westwood voxels (VXL, HVA, VPL): the interactive viewer and headless renders
//! (`info` is `modex_view::info`'s).
//! All decoding is `modex_vxl`, the loading rules (companion files, lighting pages) and drawing
//! are `modex_voxel`; this module picks the camera and the output format, and maps keys.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use modex::{Argb8888, Camera, IndexedFrame, OpenedFile, Surface, Target};
use modex_raster::RasterPixel;
use modex_voxel::{
    draw_limb_outlines, frame_scene, lighting_for, Instance, LightSource, Pose, RenderOptions,
    Shading, TableChoice, VoxelPixel, VoxelSet,
};
use modex_vxl::Vpl;

use modex_assets::{Asset, Format, PaletteFile};

use super::target::save_png;
use crate::cli::{parse_size, RenderArgs, ViewArgs};
use modex_view::target::Drawing;

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
}

impl Drawing for Shot<'_> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), modex_view::ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        modex_view::voxel::draw_shot(target, self.scene, &self.camera, self.vpl, &self.opts)?;
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
    };
    modex::with_threads(args.threads.unwrap_or(0), || {
        // Voxel units are palettized: 8-bit unless another format is asked.
        save_png(
            args.format.unwrap_or(modex::TargetFormat::Indexed8),
            (w, h),
            &vpl.palette,
            out,
            &mut shot,
        )
    })??;
    log::info!("wrote {}", out.display());
    Ok(())
}

/// What the viewer shows; changed by keys, drawn by [`ViewState::draw`].
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
    bounds: bool,
    true_colour: bool,
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
            bounds: false,
            true_colour: false,
        }
    }
}

const VIEW_HELP: &str =
    "keys: Left/Right facing, A/D turret, R recoil, Up/Down pitch, PgUp/PgDn yaw, \
N/P frame, Space play/pause, T normal table, L lighting, G light source, B limb bounds, \
C 8-bit/8888, O ortho/perspective, Esc quit";

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

    fn status(&self, frames: usize) -> String {
        format!(
            "facing {:.0} turret {:.0} frame {}/{} table {:?} lighting {:?} light {:?}{}{}",
            self.facing,
            self.turret,
            self.frame,
            frames,
            self.table,
            self.shading,
            self.light,
            if self.bounds { " bounds" } else { "" },
            if self.true_colour { " 8888" } else { " 8-bit" },
        )
    }

    /// Draw the unit as the state says; returns RGBA8 pixels.
    fn draw(&self, set: &VoxelSet, vpl: &Vpl, w: usize, h: usize) -> Result<Vec<u8>> {
        let pose = Pose {
            facing: self.facing,
            turret_facing: self.turret,
            recoil: self.recoil,
            frame: self.frame,
            ..Pose::default()
        };
        let scene = [Instance {
            unit: set.unit(),
            pose,
        }];
        // Frame the unit standing still so the camera does not breathe with the animation.
        let still = [Instance {
            unit: set.unit(),
            pose: Pose::default(),
        }];
        let mut base = modex_view::voxel::base_camera(self.yaw, self.pitch, w, h);
        if self.perspective {
            base.projection = modex::Projection::Perspective { fov_y: 0.6 };
        }
        let camera = frame_scene(&still, &base)?;
        let opts = RenderOptions {
            shading: self.shading,
            table: self.table,
            light: self.light,
            sun: None,
            parallel: true,
            ..RenderOptions::default()
        };
        let mut shot = Shot {
            scene: &scene,
            camera,
            vpl,
            opts,
        };
        if self.true_colour {
            let mut s = Surface::<Argb8888>::new(w, h);
            s.clear(Argb8888(0xff20_2030));
            self.outlined(s, &mut shot)
        } else {
            self.outlined(IndexedFrame::new(w, h), &mut shot)
        }
    }

    /// `shot` drawn into `target`, the limb outlines over it in green when asked; RGBA8 pixels.
    fn outlined<T: Target>(&self, mut target: T, shot: &mut Shot<'_>) -> Result<Vec<u8>>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        shot.draw(&mut target)?;
        if self.bounds {
            let green = T::flat([0, 255, 0], &shot.vpl.palette);
            draw_limb_outlines(shot.scene, &shot.camera, &mut target, green)?;
        }
        Ok(target.to_rgba8(&shot.vpl.palette))
    }
}

/// `modex view unit.vxl`: the unit in a window, turning and animating.
pub fn view(args: &ViewArgs, asset: &Asset) -> Result<()> {
    use modex::present::Present;
    use modex_desktop::minifb::{Key, KeyRepeat};
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
    let title = format!("modex view {}", args.file.display());
    let mut win = WindowPresenter::open(&title, w, h, args.scale, false)?;
    eprintln!("{VIEW_HELP}");
    let defaults = ViewState::default();
    let mut st = ViewState {
        yaw: args.yaw.unwrap_or(defaults.yaw),
        pitch: args.pitch.unwrap_or(defaults.pitch),
        ..defaults
    };
    let mut last_status = String::new();
    let mut next_tick = Instant::now();
    loop {
        let window = win.window();
        let down = |k| window.is_key_down(k);
        let pressed = |k| window.is_key_pressed(k, KeyRepeat::No);
        if down(Key::Left) {
            st.facing = (st.facing + 255.0) % 256.0;
        }
        if down(Key::Right) {
            st.facing = (st.facing + 1.0) % 256.0;
        }
        if down(Key::A) {
            st.turret = (st.turret + 254.0) % 256.0;
        }
        if down(Key::D) {
            st.turret = (st.turret + 2.0) % 256.0;
        }
        if down(Key::Up) {
            st.pitch = (st.pitch + 1.0).min(89.0);
        }
        if down(Key::Down) {
            st.pitch = (st.pitch - 1.0).max(-89.0);
        }
        if down(Key::PageUp) {
            st.yaw += 2.0;
        }
        if down(Key::PageDown) {
            st.yaw -= 2.0;
        }
        st.recoil = if down(Key::R) {
            3.0
        } else {
            (st.recoil - 0.5).max(0.0)
        };
        if pressed(Key::N) {
            st.frame = (st.frame + 1) % frames.max(1);
        }
        if pressed(Key::P) {
            st.frame = (st.frame + frames.max(1) - 1) % frames.max(1);
        }
        if pressed(Key::Space) {
            st.playing = !st.playing;
        }
        if pressed(Key::T) {
            st.next_table();
        }
        if pressed(Key::L) {
            st.next_shading();
        }
        if pressed(Key::G) {
            st.next_light();
        }
        if pressed(Key::B) {
            st.bounds = !st.bounds;
        }
        if pressed(Key::C) {
            st.true_colour = !st.true_colour;
        }
        if pressed(Key::O) {
            st.perspective = !st.perspective;
        }
        let now = Instant::now();
        if st.playing && now >= next_tick {
            st.frame = (st.frame + 1) % frames.max(1);
            next_tick = now + Duration::from_millis(100);
        }
        let status = st.status(frames);
        if status != last_status {
            eprintln!("{status}");
            last_status = status;
        }
        let rgba = st.draw(&set, &vpl, w, h)?;
        if !win.present_rgba(w, h, &rgba)? {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(15));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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

    #[test]
    fn viewer_states_draw_and_keys_cycle() {
        let dir = unit_dir();
        let asset = Asset::open(dir.join("tank.vxl")).unwrap();
        let set = load_set(&asset).unwrap();
        assert!(set.barrel.is_some());
        let vpl = load_vpl(asset.file(), None, &set).unwrap();
        let mut st = ViewState::default();
        let plain = st.draw(&set, &vpl, 64, 48).unwrap();
        assert!(plain.chunks(4).any(|p| p[..3] != [0, 0, 0]));
        st.bounds = true;
        let with_bounds = st.draw(&set, &vpl, 64, 48).unwrap();
        assert_ne!(plain, with_bounds);
        st.true_colour = true;
        st.perspective = true;
        assert_eq!(st.draw(&set, &vpl, 64, 48).unwrap().len(), 64 * 48 * 4);
        for _ in 0..6 {
            st.next_table();
        }
        assert_eq!(st.table, TableChoice::Declared);
        st.next_shading();
        st.next_light();
        assert!(st.status(4).contains("Free"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
