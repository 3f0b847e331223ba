//! `--plugin`, `--each-frame`, `--each-entity`: the demo as the engine side of A5-style plugins.
//!
//! Every frame, before drawing: the terrain, the props, the units and the models plugins spawned are
//! written into their `A4_ENTITY` (positions, angles in degrees, frame, ...), the camera and the
//! time into `camera`, `time` and `total_ticks`; each `--each-entity` function runs once per entity;
//! what the plugins changed is read back into the frame's [`Overrides`]. After drawing and before
//! presenting, each `--each-frame` function runs with the frame buffer lockable in the draw path's
//! own format (1 byte per pixel for the 8-bit frame, 4 for 8888).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use modex::{Argb8888, IndexedFrame, Opacity, Surface};
use modex_demo::scene::draw::FOV_DEGREES;
use modex_demo::scene::world::{Unit, STEP};
use modex_demo::scene::{Look, Overrides, World};
use modex_mdl::{MdlFile, Model};
use modex_plugin::effects::Effects;
use modex_plugin::{CameraState, EntityKey, EntityState, FrameBuffer, Packet, PluginHost};
use modex_raster::Entity;
use modex_voxel::Pose;

use crate::cli::DemoArgs;

/// `--plugin builtin`: the Rust versions of the example effects.
pub const BUILTIN: &str = "builtin";

/// Entity keys: the kind in the high 32 bits, the index in the world's list in the low ones.
const TERRAIN: u64 = 0;
const PROP: u64 = 1 << 32;
const UNIT: u64 = 2 << 32;

/// Narrowest and widest field of view a plugin can set.
const FOV_RANGE: (f32, f32) = (1.0, 170.0);

/// The demo's plugins and the state they keep between frames.
pub struct Plugins {
    host: PluginHost,
    each_frame: Vec<String>,
    each_entity: Vec<String>,
    /// Field of view in degrees, as plugins last left `camera.arc`.
    fov: f32,
    /// Spawned entities' models by file name (`None`: could not be loaded, reported once).
    models: HashMap<String, Option<Model>>,
    data_dir: PathBuf,
    /// What the entities looked like when written, to tell plugin changes from rounding.
    written: HashMap<EntityKey, EntityState>,
    frames: u64,
}

impl Plugins {
    /// Load `--plugin` libraries and check that every `--each-frame` / `--each-entity` name is
    /// exported by one of them. `None` when no plugin option is given.
    pub fn from_args(args: &DemoArgs, data_dir: &Path) -> Result<Option<Plugins>> {
        if args.plugins.is_empty() && args.each_frame.is_empty() && args.each_entity.is_empty() {
            return Ok(None);
        }
        let mut host = PluginHost::new();
        for p in &args.plugins {
            if p.as_os_str() == BUILTIN {
                host.add(Box::<Effects>::default());
            } else {
                host.load(p)?;
            }
        }
        for name in args.each_frame.iter().chain(&args.each_entity) {
            host.resolve(name)?;
        }
        Ok(Some(Plugins {
            host,
            each_frame: args.each_frame.clone(),
            each_entity: args.each_entity.clone(),
            fov: FOV_DEGREES,
            models: HashMap::new(),
            data_dir: data_dir.to_path_buf(),
            written: HashMap::new(),
            frames: 0,
        }))
    }

    /// Write the engine state, run the each-entity functions, and return what changed.
    pub fn before_draw(&mut self, world: &World, camera: CameraState) -> Result<Overrides<'_>> {
        let mut list: Vec<(EntityKey, &str, EntityState)> = Vec::new();
        list.push((
            EntityKey::Engine(TERRAIN),
            "terrain.hmp",
            EntityState::default(),
        ));
        for (i, p) in world.props.iter().enumerate() {
            let name = if p.is_windmill {
                "windmill.mdl"
            } else {
                "flag.mdl"
            };
            list.push((EntityKey::Engine(PROP | i as u64), name, prop_state(p)));
        }
        for (i, u) in world.units.iter().enumerate() {
            list.push((
                EntityKey::Engine(UNIT | i as u64),
                unit_name(u),
                unit_state(u),
            ));
        }
        self.written = list.iter().map(|(k, _, s)| (*k, rounded(s))).collect();
        self.host.sync_entities(list);
        self.host.set_time(STEP, world.time() as f64);
        self.host.set_camera(&CameraState {
            arc: self.fov,
            ..camera
        });
        for name in &self.each_entity {
            self.host.call_each_entity(name)?;
        }
        self.read_camera();

        let mut o = Overrides {
            fov_degrees: Some(self.fov),
            ..Overrides::default()
        };
        o.terrain = self.look(EntityKey::Engine(TERRAIN), raster_entity);
        o.props = (0..world.props.len())
            .map(|i| self.look(EntityKey::Engine(PROP | i as u64), raster_entity))
            .collect();
        o.units = world
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| self.look(EntityKey::Engine(UNIT | i as u64), |s| unit_pose(u, s)))
            .collect();
        let spawned = self.host.spawned();
        for (_, model, _) in &spawned {
            if !self.models.contains_key(model) {
                let loaded = load_model(&self.data_dir, model);
                if let Err(e) = &loaded {
                    log::warn!("ent_create: model {model} not drawn: {e:#}");
                }
                self.models.insert(model.clone(), loaded.ok());
            }
        }
        for (_, model, state) in spawned {
            if let Some(Some(m)) = self.models.get(&model) {
                o.extra.push((m, raster_entity(&state)));
            }
        }
        Ok(o)
    }

    fn look<T>(&self, key: EntityKey, convert: impl Fn(&EntityState) -> T) -> Look<T> {
        if self.host.is_removed(key) {
            return Look::Hidden;
        }
        match (self.host.entity(key), self.written.get(&key)) {
            (Some(now), _) if now.invisible => Look::Hidden,
            (Some(now), Some(before)) if now != *before => Look::Replace(convert(&now)),
            _ => Look::Same,
        }
    }

    fn read_camera(&mut self) {
        let arc = self.host.camera().arc;
        if arc.is_finite() {
            self.fov = arc.clamp(FOV_RANGE.0, FOV_RANGE.1);
        }
    }

    /// Run the each-frame functions on the 8-bit frame just drawn.
    pub fn after_draw_indexed(&mut self, frame: &mut IndexedFrame) -> Result<()> {
        let (width, height) = (frame.width(), frame.height());
        self.each_frame(FrameBuffer {
            bytes: frame.pixels_mut(),
            pitch: width,
            width,
            height,
            bpp: 1,
        })
    }

    /// Run the each-frame functions on the 8888 surface just drawn. The plugin sees native-endian
    /// 0xAARRGGBB words; the surface's pixels are copied out and back around the calls.
    pub fn after_draw_argb(&mut self, surface: &mut Surface<Argb8888>) -> Result<()> {
        if self.each_frame.is_empty() {
            return self.each_frame_done();
        }
        let (width, height) = (surface.width(), surface.height());
        let mut bytes: Vec<u8> = surface
            .pixels()
            .iter()
            .flat_map(|p| p.0.to_ne_bytes())
            .collect();
        self.each_frame(FrameBuffer {
            bytes: &mut bytes,
            pitch: width * 4,
            width,
            height,
            bpp: 4,
        })?;
        for (p, b) in surface.pixels_mut().iter_mut().zip(bytes.chunks_exact(4)) {
            p.0 = u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
        }
        Ok(())
    }

    fn each_frame(&mut self, frame: FrameBuffer<'_>) -> Result<()> {
        for name in &self.each_frame {
            let f = FrameBuffer {
                bytes: &mut *frame.bytes,
                ..frame
            };
            self.host.call_each_frame(name, f)?;
        }
        self.each_frame_done()
    }

    fn each_frame_done(&mut self) -> Result<()> {
        self.read_camera();
        self.host.take_errors();
        self.frames += 1;
        Ok(())
    }

    /// Let plugins send user packets of at most `limit` bytes (a network session is running).
    pub fn open_network(&mut self, limit: usize) {
        self.host.set_network(Some(limit));
    }

    /// The user packets plugins sent since the last call.
    pub fn take_packets(&mut self) -> Vec<Packet> {
        self.host.take_packets()
    }

    /// Hand a user packet from the network to the plugins (`data` starts with 17).
    pub fn receive_packet(&mut self, from: i64, data: &[u8]) {
        self.host.receive_packet(from, data);
        self.host.take_errors();
    }

    /// One line for the end of a run.
    pub fn summary(&self) -> String {
        let (created, removed) = self.host.created_and_removed();
        format!(
            "plugins {}: {} frames, {created} entities created, {removed} removed, {} alive",
            self.host.names().join(", "),
            self.frames,
            self.host.spawned().len()
        )
    }
}

/// `EntityState` as it reads back when nothing changed it (fixed-point rounding).
fn rounded(s: &EntityState) -> EntityState {
    let mut e = modex_plugin::A4Entity::default();
    s.write_to(&mut e);
    EntityState::read_from(&e)
}

fn prop_state(p: &modex_demo::scene::world::Prop) -> EntityState {
    EntityState {
        position: p.position.to_array(),
        pan: p.pan,
        frame: p.frame,
        albedo: 80.0,
        ..EntityState::default()
    }
}

fn unit_name(u: &Unit) -> &'static str {
    use modex_demo::scene::world::UnitKind;
    match u.kind {
        UnitKind::Tank => "tank.vxl",
        UnitKind::Apc => "apc.vxl",
        UnitKind::Heli => "heli.vxl",
    }
}

/// A unit's facing (256 steps clockwise from north) as an A5 pan (degrees counter-clockwise from
/// east), and back.
fn facing_to_pan(facing: f32) -> f32 {
    (90.0 - facing * 360.0 / 256.0).rem_euclid(360.0)
}

fn pan_to_facing(pan: f32) -> f32 {
    ((90.0 - pan) * 256.0 / 360.0).rem_euclid(256.0)
}

fn unit_state(u: &Unit) -> EntityState {
    EntityState {
        position: u.position.to_array(),
        pan: facing_to_pan(u.facing),
        frame: u.frame as f32,
        ..EntityState::default()
    }
}

/// A changed unit as the ray-marcher draws it: position, facing (pan), tilt, roll, scale, frame
/// and opacity.
fn unit_pose(u: &Unit, s: &EntityState) -> Pose {
    Pose {
        position: s.position.into(),
        facing: pan_to_facing(s.pan),
        turret_facing: u.turret,
        turret_offset: modex_demo::scene::units::TANK_TURRET_OFFSET,
        recoil: u.recoil,
        frame: s.frame.max(0.0) as usize,
        tilt: s.tilt,
        roll: s.roll,
        scale: s.scale.into(),
        alpha: opacity(s),
    }
}

/// An MDL model entity as the rasterizer draws it.
fn raster_entity(s: &EntityState) -> Entity {
    Entity {
        position: s.position.into(),
        pan: s.pan,
        tilt: s.tilt,
        roll: s.roll,
        scale: s.scale.into(),
        frame: s.frame.max(0.0),
        nextframe: (s.nextframe >= 1.0).then(|| s.nextframe as usize - 1),
        skin: s.skin.max(0.0) as usize,
        ambient: s.ambient,
        albedo: s.albedo,
        alpha: opacity(s),
        ..Entity::default()
    }
}

/// How opaque an entity is drawn: its `alpha` when `TRANSPARENT` is set, nothing when `INVISIBLE`.
fn opacity(s: &EntityState) -> Opacity {
    if s.invisible {
        Opacity::from_percent(0.0)
    } else if s.transparent {
        Opacity::from_percent(s.alpha)
    } else {
        Opacity::OPAQUE
    }
}

/// An `ent_create` model: the name as a path, else in the demo's data folder or its props.
fn load_model(data_dir: &Path, name: &str) -> Result<Model> {
    let candidates = [
        PathBuf::from(name),
        data_dir.join(name),
        data_dir.join("props").join(name),
    ];
    let path = candidates
        .iter()
        .find(|p| p.is_file())
        .with_context(|| format!("no file {name} (looked beside the demo's data too)"))?;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(MdlFile::parse(&bytes)
        .with_context(|| path.display().to_string())?
        .model)
}

/// The demo camera as `camera` shows it (the field of view is the plugins' own, set by the host).
pub fn camera_state(scene: &modex_demo::scene::SceneRenderer) -> CameraState {
    let c = scene.camera();
    CameraState {
        position: c.eye.to_array(),
        pan: scene.view.yaw.to_degrees(),
        tilt: scene.view.pitch.to_degrees(),
        roll: 0.0,
        arc: FOV_DEGREES,
        ambient: 0.0,
        size: [c.width as u32, c.height as u32],
    }
}
