//! A WMB7 level as the renderer draws it: its blocks baked into surface models
//! (`modex_mdl::wmb::surface`), and its entities' files found, decoded once each and placed. The
//! binary (`modex render/view/export LEVEL.wmb`) and the web page build the same [`Level`] and
//! draw it through the same [`LevelScene`], so both show the same picture; each frontend decides
//! only where entity files are looked for ([`EntityFiles`]: the game's folders on disk, or the
//! dropped files). A [`Walker`] walks or flies through it, colliding with its [`Collider`].

mod camera;
mod images;
mod placeable;
mod scene;
mod walk;

use std::collections::{HashMap, HashSet};

use glam::Vec3;
use modex::Palette;
use modex_mdl::wmb::surface::{level_models, LevelModel};
use modex_mdl::wmb::{EntityKind, Object, WmbFile};
use modex_mdl::Model;
use rayon::prelude::*;

use crate::ViewError;

pub use camera::{
    above, above_from, direction, orbit, orbit_pitch, Start, Viewpoint, ABOVE, ABOVE_FILL, FOV_Y,
};
pub use placeable::sprite_quad;
pub use scene::{
    info_colors, info_light, LevelScene, DEFAULT_AMBIENT, DEFAULT_SUN, MTL_FLAT, MTL_MODEL,
    SKY_COLOR,
};
pub use walk::{
    Collider, Mode, Motion, Walker, BODY_HEIGHT, BODY_RADIUS, EYE_ABOVE_FEET, GRAVITY,
    LOOK_PER_PIXEL, RUN_FACTOR, STEP_HEIGHT, TILT_RATE, TURN_RATE, WALK_SPEED,
};

/// Where a level's entity files are looked for. `info` only asks where a file is; drawing a level
/// reads it. Shared between threads: a level's files are read and decoded on every core
/// ([`Level::load`]).
pub trait EntityFiles: Sync {
    /// Where the entity file `name` (as the level stores it) is found, as `info --json` shows it:
    /// relative to the game's root with forward slashes (on the page, the dropped file's name);
    /// `None` when it is not found.
    fn find(&self, name: &str) -> Option<String>;
    /// Whether the entity file `name` is found.
    fn has(&self, name: &str) -> bool {
        self.find(name).is_some()
    }
    /// Where the search starts, as `info` shows it (a folder on disk, or "the dropped files").
    fn root(&self) -> String;
    /// The file `name` names (only its last part counts; any case): a key naming the file found
    /// (two names of one file give one key, so it is decoded once) and its bytes. `Ok(None)` when
    /// it is not found, `Err` when it is found and cannot be read.
    fn read(&self, name: &str) -> std::io::Result<Option<(String, Vec<u8>)>>;
    /// A file a model's skin names (`name`, only its last part), looked up as entity files are
    /// and then beside the model whose key [`EntityFiles::read`] gave: a key naming the file
    /// found (as [`EntityFiles::read`]'s: models naming one texture file get one key, so it is
    /// decoded once for the level) and its bytes.
    fn read_beside(&self, name: &str, model: &str) -> Option<(String, Vec<u8>)>;
    /// The key [`EntityFiles::read_beside`] gives for the same arguments, without reading the
    /// file: the level's image cache asks for the key first and reads only files it has not
    /// decoded yet (one texture file is named by up to 22 models of a level). The default reads
    /// the file; sources that can locate a file without reading it override this.
    fn key_beside(&self, name: &str, model: &str) -> Option<String> {
        self.read_beside(name, model).map(|(key, _)| key)
    }
}

/// Entity files held in memory by name, found in any case: for a level put together in memory
/// (tests, tools), where there is no folder to search. The key of a file is its lower-case name.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles(Vec<(String, Vec<u8>)>);

impl MemoryFiles {
    /// Files of these names and bytes.
    pub fn new<N: Into<String>>(files: impl IntoIterator<Item = (N, Vec<u8>)>) -> MemoryFiles {
        MemoryFiles(files.into_iter().map(|(n, b)| (n.into(), b)).collect())
    }

    fn get(&self, name: &str) -> Option<&(String, Vec<u8>)> {
        self.0.iter().find(|(n, _)| name_key(n) == name_key(name))
    }
}

impl EntityFiles for MemoryFiles {
    fn find(&self, name: &str) -> Option<String> {
        self.get(name).map(|(n, _)| n.to_lowercase())
    }
    fn root(&self) -> String {
        "memory".into()
    }
    fn read(&self, name: &str) -> std::io::Result<Option<(String, Vec<u8>)>> {
        Ok(self.get(name).map(|(n, b)| (n.to_lowercase(), b.clone())))
    }
    fn read_beside(&self, name: &str, _model: &str) -> Option<(String, Vec<u8>)> {
        self.get(name).map(|(n, b)| (n.to_lowercase(), b.clone()))
    }
    fn key_beside(&self, name: &str, _model: &str) -> Option<String> {
        self.get(name).map(|(n, _)| n.to_lowercase())
    }
}

/// The part of a stored entity file name that is looked up: the level may store a folder
/// (`c:\\work\\Skin.TGA`, `sprites/flare.tga`), which GameStudio ignores.
pub fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The key two names of one file share: the [`base_name`] in lower case, by Unicode's rules (so
/// `RÜSTUNG.MDL` is `rüstung.mdl`, which ASCII case folding would miss).
pub fn name_key(name: &str) -> String {
    base_name(name).to_lowercase()
}

/// What an entity's file is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A model, terrain or nested level, posed by the entity.
    Mesh,
    /// An image drawn as a quad turned to face the camera.
    Sprite,
}

/// What of an entity's file blocks a walker ([`Collider`]), as GameStudio collides them (an
/// entity's own flags come first: `PASSABLE` ones block nothing, `POLYGON` ones block by their
/// triangles).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solid {
    /// Its box (frame 0), turned, scaled and moved with the entity: models (MDL), which the
    /// engine collides by their bounding box unless the entity's `POLYGON` flag is set.
    Box,
    /// Its triangles: terrain (HMP) and nested levels (WMB), whose box would wall in everything
    /// that stands on or inside them.
    Surface,
    /// Nothing: sprites, which turn to the camera and are flares and decals.
    Nothing,
}

/// A decoded entity file: its models and their box (frame 0).
pub struct Placeable {
    /// The file's name without folder and extension (what an export names its materials after).
    pub name: String,
    /// Its models (an MDL7's groups, or one), none without triangles.
    pub models: Vec<Model>,
    /// What of it blocks a walker.
    pub solid: Solid,
    /// Lowest corner of frame 0 of the models, model space.
    pub lo: Vec3,
    /// Highest corner of frame 0 of the models, model space.
    pub hi: Vec3,
}

impl Placeable {
    /// How it is placed: sprites, the one kind of file that blocks nothing, turn to the camera.
    pub fn shape(&self) -> Shape {
        if self.solid == Solid::Nothing {
            Shape::Sprite
        } else {
            Shape::Mesh
        }
    }

    /// The centre of the models' box, model space.
    pub fn centre(&self) -> Vec3 {
        (self.lo + self.hi) * 0.5
    }

    /// The radius of the sphere around the models' box (what culling tests).
    pub fn radius(&self) -> f32 {
        (self.hi - self.lo).length() * 0.5
    }
}

/// Eye height above a standing entity's origin when its model is not known, units (a GameStudio
/// player model is about 60 units tall with its origin at its middle).
pub const EYE_HEIGHT: f32 = 24.0;

/// Whether an entity's action or name names the player (`player`, `player_walk`, `Player1`,
/// `act_player`): the scripts' convention in the published games, case ignored.
pub fn names_player(word: &str) -> bool {
    word.to_ascii_lowercase().contains("player")
}

/// One placed entity.
pub struct Placed {
    /// Index into [`Level::files`].
    pub file: usize,
    /// Where it stands.
    pub origin: Vec3,
    /// Pan, tilt, roll in degrees.
    pub angle: Vec3,
    /// Scale per axis.
    pub scale: Vec3,
    /// Its ambient light, percent.
    pub ambient: f32,
    /// How much of the sun it takes, percent.
    pub albedo: f32,
    /// Whether its action or name names the player ([`names_player`]): the walker's own body,
    /// which does not block the walker.
    pub player: bool,
    /// Its flags as the level stores them (`modex_mdl::wmb::ENTITY_PASSABLE`, `ENTITY_POLYGON`:
    /// what a walker collides with, [`Collider`]).
    pub flags: u32,
}

/// What reading and decoding one entity file gave ([`Level::load`]).
enum Outcome {
    /// Found under this key; decoded, or `None` when it does not decode (already logged).
    Read(String, Option<Placeable>),
    /// Not found.
    Missing,
    /// Found and not readable, for this reason.
    Unreadable(String),
}

/// A level ready to draw.
pub struct Level {
    /// The level's name (its file name without extension).
    pub name: String,
    /// The decoded file.
    pub file: WmbFile,
    /// Its blocks, one model per surface page and kind.
    pub blocks: Vec<LevelModel>,
    /// The entity files found and decoded, each once.
    pub files: Vec<Placeable>,
    /// The entities whose file was found and decoded.
    pub placed: Vec<Placed>,
    /// How many entities were placed (`placed.len()`).
    pub found: usize,
}

impl Level {
    /// Open the level `name` (its file name, for messages) from its bytes: decode it, bake its
    /// blocks, find, decode and place its entities' files (each decoded once; a file not found is
    /// logged once and drawn as nothing, as one that does not decode).
    pub fn load(
        name: &str,
        bytes: &[u8],
        files: &dyn EntityFiles,
        palette: &Palette,
    ) -> Result<Level, ViewError> {
        let file = WmbFile::parse(bytes)?;
        for w in &file.warnings {
            log::warn!("{name}: {w}");
        }
        let blocks = level_models(&file);
        // The files the entities name, each once, in the order of their first entity (only a
        // name's last part counts, in any case: `name_key`).
        let mut seen = HashSet::new();
        let names: Vec<&str> = file
            .entities()
            .map(|e| e.file.as_str())
            .filter(|n| seen.insert(name_key(n)))
            .collect();
        // Each read and decoded apart from the others, on every core: a large level's files are
        // hundreds of models and image skins, most of its load time (issue 40). Each file's bytes
        // are dropped once decoded. The lookup's messages (not found, unreadable) come after, in
        // the order of the entities; a file's decode warnings come as each thread decodes it.
        // Skin files are decoded once for the level, whichever model names them first.
        let images = images::Images::default();
        let outcomes: Vec<Outcome> = names
            .par_iter()
            .map(|name| match files.read(name) {
                Ok(Some((key, bytes))) => {
                    let p = placeable::load(&key, &bytes, files, &images, palette);
                    Outcome::Read(key, p)
                }
                Ok(None) => Outcome::Missing,
                Err(e) => Outcome::Unreadable(e.to_string()),
            })
            .collect();
        // Two names of one file (its key) give one decoded file.
        let mut by_key: HashMap<String, Option<usize>> = HashMap::new();
        let mut by_name: HashMap<String, Option<usize>> = HashMap::new();
        let mut decoded = Vec::new();
        for (name, outcome) in names.iter().zip(outcomes) {
            let index = match outcome {
                Outcome::Read(key, p) => *by_key.entry(key).or_insert_with(|| {
                    p.map(|p| {
                        decoded.push(p);
                        decoded.len() - 1
                    })
                }),
                Outcome::Missing => {
                    log::warn!("entity file {name} not found (drawn as nothing)");
                    None
                }
                Outcome::Unreadable(err) => {
                    log::warn!("{name}: {err} (drawn as nothing)");
                    None
                }
            };
            by_name.insert(name_key(name), index);
        }
        let mut placed = Vec::new();
        for e in file.entities() {
            let Some(&Some(index)) = by_name.get(&name_key(&e.file)) else {
                continue;
            };
            placed.push(Placed {
                file: index,
                origin: e.origin,
                angle: e.angle,
                scale: e.scale,
                ambient: e.ambient,
                // Old entities have no albedo field; GameStudio's default is 50.
                albedo: if e.kind == EntityKind::Old {
                    50.0
                } else {
                    e.albedo
                },
                player: names_player(&e.action) || names_player(&e.name),
                flags: e.flags,
            });
        }
        let stem = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
        Ok(Level {
            name: stem.to_string(),
            found: placed.len(),
            file,
            blocks,
            files: decoded,
            placed,
        })
    }

    /// Where the player starts (`--start`): the first POSITION object (where the player's view is),
    /// else the entity whose action or name names the player ([`names_player`]), seen from its
    /// eye ([`Level::eye_of`]) along its pan; `None` when there is neither (frontends then show the
    /// overview, [`camera::above`]).
    pub fn start(&self) -> Option<Start> {
        let position = self.file.objects.iter().find_map(|o| match o {
            Object::Position { origin, angle, .. } => Some(Start {
                eye: *origin,
                pan: angle.x,
                tilt: angle.y,
            }),
            _ => None,
        });
        position.or_else(|| {
            let e = self
                .file
                .entities()
                .find(|e| names_player(&e.action) || names_player(&e.name))?;
            e.origin.is_finite().then(|| Start {
                eye: self.eye_of(e.origin, e.angle),
                pan: e.angle.x,
                tilt: 0.0,
            })
        })
    }

    /// The eye of an entity standing at `origin` turned by `angle`: 80 % of the way from its
    /// origin up to the top of its placed model (GameStudio's player templates lift the camera
    /// to the model's eyes, near the top of its box), else [`EYE_HEIGHT`] above the origin when
    /// its file was not found.
    pub fn eye_of(&self, origin: Vec3, angle: Vec3) -> Vec3 {
        let top = self
            .placed
            .iter()
            .find(|p| p.origin == origin && p.angle == angle)
            .and_then(|p| {
                let f = &self.files[p.file];
                (!f.models.is_empty()).then_some(f.hi.z * p.scale.z)
            })
            .filter(|t| t.is_finite() && *t > 0.0);
        origin + Vec3::Z * top.map_or(EYE_HEIGHT, |t| 0.8 * t)
    }

    /// Every model the level draws: its blocks' surfaces and its entity files' models (what its
    /// 8-bit palette is built from, `crate::colours::content_palette`).
    pub fn models(&self) -> impl Iterator<Item = &Model> {
        self.blocks
            .iter()
            .map(|b| &b.model)
            .chain(self.files.iter().flat_map(|f| &f.models))
    }

    /// The palette in the level's `palettes` list: its last 768 bytes, 256 R G B triples (the
    /// shared levels' lists are 784 bytes, 16 bytes of zeros before them). `None` without one.
    pub fn own_palette(&self) -> Option<Palette> {
        let (_, bytes) = self
            .file
            .other_lists
            .iter()
            .find(|(k, _)| *k == modex_mdl::wmb::ListKind::Palettes)?;
        let rgb = bytes.get(bytes.len().checked_sub(768)?..)?;
        Palette::from_rgb_bytes(rgb).ok()
    }

    /// Lowest and highest corner of the blocks and the placed entities: each model's box (frame
    /// 0) turned, scaled and moved as its entity places it; a sprite, which turns to the camera,
    /// by the sphere around it. (Boxes of `origin ± radius` reached 710 units below bestiary's
    /// floor: its rooms' models stand on their origins.)
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let mut lo = Vec3::splat(f32::INFINITY);
        let mut hi = Vec3::splat(f32::NEG_INFINITY);
        if let Some((a, b)) = self.file.block_bounds() {
            lo = lo.min(a);
            hi = hi.max(b);
        }
        for p in &self.placed {
            let f = &self.files[p.file];
            if f.models.is_empty() {
                continue;
            }
            if f.shape() == Shape::Sprite {
                let r = f.radius() * p.scale.abs().max_element();
                lo = lo.min(p.origin - Vec3::splat(r));
                hi = hi.max(p.origin + Vec3::splat(r));
                continue;
            }
            let m = p.entity().matrix();
            for i in 0..8 {
                let corner = Vec3::new(
                    if i & 1 == 0 { f.lo.x } else { f.hi.x },
                    if i & 2 == 0 { f.lo.y } else { f.hi.y },
                    if i & 4 == 0 { f.lo.z } else { f.hi.z },
                );
                let w = m.transform_point3(corner);
                lo = lo.min(w);
                hi = hi.max(w);
            }
        }
        if !lo.is_finite() || !hi.is_finite() || lo.x > hi.x {
            (Vec3::splat(-100.0), Vec3::splat(100.0))
        } else {
            (lo, hi)
        }
    }
}

impl Placed {
    /// The renderer's entity for this placement: origin, angles, scale and light.
    pub fn entity(&self) -> modex_raster::Entity {
        modex_raster::Entity {
            position: self.origin,
            pan: self.angle.x,
            tilt: self.angle.y,
            roll: self.angle.z,
            scale: self.scale,
            ambient: self.ambient,
            albedo: self.albedo,
            material: MTL_MODEL,
            ..modex_raster::Entity::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_mdl::wmb::{encode::encode, Entity};

    fn empty_level(objects: Vec<Object>) -> WmbFile {
        WmbFile {
            objects,
            ..Default::default()
        }
    }

    fn entity(file: &str, origin: Vec3, path: u32) -> Object {
        Object::Entity(Entity {
            origin,
            path,
            ..modex_testkit::level::entity(file)
        })
    }

    /// The level's bytes, written by the crate's writer and read back (what a frontend gets).
    fn load(objects: Vec<Object>, files: &MemoryFiles) -> Level {
        let bytes = encode(&empty_level(objects));
        Level::load("game/levels/Start.WMB", &bytes, files, &Palette::quake()).unwrap()
    }

    #[test]
    fn the_start_is_the_first_position_else_the_player_entity_else_none() {
        let files = MemoryFiles::default();
        let mut player = entity("hero.mdl", Vec3::new(10.0, 20.0, 30.0), 0);
        if let Object::Entity(e) = &mut player {
            e.action = "Player_Walk".into();
            e.angle = Vec3::new(90.0, 0.0, 0.0);
        }
        let guard = entity("guard.mdl", Vec3::ZERO, 0);
        // The player's model is not found: its eye is EYE_HEIGHT above its origin.
        let level = load(vec![guard.clone(), player.clone()], &files);
        assert_eq!(level.name, "Start");
        let start = level.start().expect("the player entity");
        assert_eq!(start.eye, Vec3::new(10.0, 20.0, 30.0 + EYE_HEIGHT));
        assert_eq!((start.pan, start.tilt), (90.0, 0.0));
        let camera = LevelScene::new(&level, &Palette::quake()).start_camera(64, 48);
        assert_eq!(camera.eye, start.eye);
        let d = (camera.target - camera.eye).normalize();
        assert!((d - Vec3::Y).length() < 1e-4, "{d}");

        // A POSITION comes first, wherever it is in the file.
        let position = Object::Position {
            origin: Vec3::new(1.0, 2.0, 3.0),
            angle: Vec3::new(180.0, -10.0, 0.0),
            unused: [0; 2],
            name: "start".into(),
        };
        let level = load(vec![player, position], &files);
        let start = level.start().unwrap();
        assert_eq!(
            (start.eye, start.pan, start.tilt),
            (Vec3::new(1.0, 2.0, 3.0), 180.0, -10.0)
        );
        // Neither: no start (the overview).
        assert!(load(vec![guard], &files).start().is_none());
        assert!(names_player("act_PLAYER") && !names_player("playe"));
    }

    #[test]
    fn entity_files_are_decoded_once_and_missing_ones_drawn_as_nothing() {
        // A 2x1 TGA (uncompressed true colour, bottom-up): a sprite.
        let mut tga = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 32, 8];
        tga.extend([0, 0, 255, 255, 0, 255, 0, 255]);
        let files = MemoryFiles::new([("Flare.tga", tga)]);
        let level = load(
            vec![
                entity("flare.TGA", Vec3::new(0.0, 0.0, 0.0), 0),
                entity("sprites\\FLARE.tga", Vec3::new(100.0, 0.0, 0.0), 0),
                entity("gone.mdl", Vec3::new(-100.0, 0.0, 0.0), 0),
            ],
            &files,
        );
        assert_eq!(level.files.len(), 1);
        assert_eq!(level.files[0].name, "flare");
        assert_eq!(level.files[0].shape(), Shape::Sprite);
        assert_eq!(level.found, 2);
        assert_eq!(level.placed.len(), 2);
        assert_eq!(level.placed[1].origin, Vec3::new(100.0, 0.0, 0.0));
        // Bounds: each sprite by the sphere around its quad (2x1 pixels, radius ~1.118).
        let (lo, hi) = level.bounds();
        assert!(
            (lo.x + 1.118).abs() < 1e-3 && (hi.x - 101.118).abs() < 1e-3,
            "{lo} {hi}"
        );
    }

    fn info(sun_color: u32, ambient_color: u32) -> Object {
        Object::Info(modex_testkit::level::info(sun_color, ambient_color))
    }

    #[test]
    fn zero_info_colours_take_the_engine_defaults_and_others_are_kept() {
        let files = MemoryFiles::default();
        let level = load(vec![info(0, 0)], &files);
        assert_eq!(
            info_colors(&level),
            ([DEFAULT_SUN; 3], [DEFAULT_AMBIENT; 3])
        );
        let light = info_light(&level);
        assert!((light.ambient - DEFAULT_AMBIENT as f32 / 255.0).abs() < 1e-6);
        assert!((light.diffuse - 2.0 * DEFAULT_SUN as f32 / 255.0).abs() < 1e-6);
        let level = load(vec![info(0x00939393, 0x00102030)], &files);
        assert_eq!(info_colors(&level), ([0x93; 3], [0x10, 0x20, 0x30]));
    }

    #[test]
    fn where_nothing_is_drawn_the_picture_has_the_sky_colour() {
        use modex::{Argb8888, DepthBuffer, Surface, Target};
        let files = MemoryFiles::default();
        let level = load(vec![info(0, 0)], &files);
        let palette = Palette::quake();
        let scene = LevelScene::new(&level, &palette);
        let (w, h) = (16, 12);
        let mut target: Surface<Argb8888> = Surface::new(w, h);
        // Start from a colour the clear must replace.
        target.fill(Argb8888(0xff12_3456));
        let mut depth = DepthBuffer::new(w, h);
        let camera = scene.start_camera(w, h);
        scene.draw(&mut target, &mut depth, &camera).unwrap();
        let sky = <Surface<Argb8888> as Target>::flat(SKY_COLOR, &palette);
        assert!(target.pixels().iter().all(|&p| p == sky));
    }
}
