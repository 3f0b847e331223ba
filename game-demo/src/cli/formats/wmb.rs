//! WMB7 levels in the commands: the level as the renderer draws it (block
//! models with baked surfaces, and the entities' files found, decoded and placed). Rendering and
//! walking are in `wmb_render.rs`, exports in `wmb_export.rs`, the file search in `wmb_files.rs`
//! (`info` is `modex_view::info`'s, given that search).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use glam::{Vec2, Vec3};
use modex::Palette;
use modex_mdl::hmp::HmpFile;
use modex_mdl::mdl7::{self, Mdl7File};
use modex_mdl::wmb::surface::{level_models, LevelModel};
use modex_mdl::wmb::{EntityKind, Object, WmbFile};
use modex_mdl::{Frame, MdlFile, Model, Triangle};

use super::wmb_files::EntityFiles;

/// What an entity's file is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A model, terrain or nested level, posed by the entity.
    Mesh,
    /// An image drawn as a quad turned to face the camera.
    Sprite,
}

/// A decoded entity file: its models and their box (frame 0), with the sphere around that box in
/// model space for culling.
pub struct Placeable {
    /// The file's name without folder and extension (what an export names its materials after).
    pub name: String,
    pub models: Vec<Model>,
    pub shape: Shape,
    /// Lowest and highest corner of frame 0 of the models, model space.
    pub lo: Vec3,
    pub hi: Vec3,
}

impl Placeable {
    /// The centre of the models' box, model space.
    pub fn centre(&self) -> Vec3 {
        (self.lo + self.hi) * 0.5
    }

    /// The radius of the sphere around the models' box.
    pub fn radius(&self) -> f32 {
        (self.hi - self.lo).length() * 0.5
    }
}

/// One placed entity.
pub struct Placed {
    /// Index into [`Level::files`].
    pub file: usize,
    pub origin: Vec3,
    /// Pan, tilt, roll in degrees.
    pub angle: Vec3,
    pub scale: Vec3,
    pub ambient: f32,
    pub albedo: f32,
}

/// A level ready to draw.
pub struct Level {
    pub name: String,
    pub file: WmbFile,
    pub blocks: Vec<LevelModel>,
    pub files: Vec<Placeable>,
    pub placed: Vec<Placed>,
    /// Entities whose file was found and decoded.
    pub found: usize,
}

/// Decode the entity file at `path` (MDL, HMP, WMB or an image); `None` after a log line when it
/// cannot be read.
fn load_placeable(
    path: &Path,
    files: &EntityFiles,
    palette: &Palette,
    depth: usize,
) -> Option<Placeable> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            log::warn!("{}: {e} (drawn as nothing)", path.display());
            return None;
        }
    };
    let name = path.file_name()?.to_string_lossy().to_string();
    let result: Result<(Vec<Model>, Shape)> = (|| {
        if mdl7::sniff(&bytes) {
            let mut f = Mdl7File::parse_with_palette(&bytes, palette)?;
            let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let mut find = |skin: &str| -> Option<Vec<u8>> {
                let base = skin.rsplit(['/', '\\']).next().unwrap_or(skin);
                let p = files
                    .lookup(base)
                    .or_else(|| Some(folder.join(base)).filter(|p| p.is_file()))?;
                std::fs::read(p).ok()
            };
            for problem in f.resolve_skins(&mut find) {
                log::warn!("{name}: {problem}");
            }
            Ok((
                f.parts().into_iter().map(|p| p.model).collect(),
                Shape::Mesh,
            ))
        } else if modex_mdl::mdl::sniff(&bytes) {
            Ok((
                vec![MdlFile::parse_with_palette(&bytes, palette)?.model],
                Shape::Mesh,
            ))
        } else if modex_mdl::hmp::sniff(&bytes) {
            Ok((
                vec![HmpFile::parse_with_palette(&bytes, palette)?.model],
                Shape::Mesh,
            ))
        } else if modex_mdl::wmb::sniff(&bytes) {
            // A nested level: its blocks (its own entities are not placed again).
            let w = WmbFile::parse(&bytes)?;
            let _ = depth;
            Ok((
                level_models(&w).into_iter().map(|m| m.model).collect(),
                Shape::Mesh,
            ))
        } else {
            let (w, h, rgba) = modex_mdl::external::decode_image(&name, &bytes)?;
            Ok((vec![sprite_quad(w, h, rgba)], Shape::Sprite))
        }
    })();
    match result {
        Ok((models, shape)) => {
            let models: Vec<Model> = models
                .into_iter()
                .filter(|m| !m.triangles.is_empty())
                .collect();
            let positions: Vec<Vec3> = models
                .iter()
                .filter_map(|m| m.frames.first())
                .flat_map(|f| f.positions.iter().copied())
                .collect();
            let (lo, hi) = Frame::compute_bbox(&positions);
            Some(Placeable {
                name: path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                models,
                shape,
                lo,
                hi,
            })
        }
        Err(e) => {
            log::warn!("{}: {e:#} (drawn as nothing)", path.display());
            None
        }
    }
}

/// An image as a quad in the model's Y-Z plane, its front towards +X (the entity's forward axis,
/// turned to the camera at each draw), centred on the origin, one unit per pixel.
fn sprite_quad(w: usize, h: usize, rgba: Vec<u8>) -> Model {
    let (hw, hh) = (w as f32 / 2.0, h as f32 / 2.0);
    let positions = vec![
        Vec3::new(0.0, hw, hh),
        Vec3::new(0.0, -hw, hh),
        Vec3::new(0.0, -hw, -hh),
        Vec3::new(0.0, hw, -hh),
    ];
    let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
    Model {
        frames: vec![Frame {
            name: String::new(),
            normals: vec![Vec3::X; 4],
            positions,
            normal_indices: None,
            bbox_min,
            bbox_max,
        }],
        uvs: vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(0.0, 1.0),
        ],
        // Counter-clockwise seen from +X: (0, y, z) with y to the left.
        triangles: vec![
            Triangle {
                vertices: [0, 2, 1],
                uvs: [0, 2, 1],
            },
            Triangle {
                vertices: [0, 3, 2],
                uvs: [0, 3, 2],
            },
        ],
        skins: vec![modex_mdl::external::rgba_skin(7, w, h, rgba)],
    }
}

/// Open a level: decode it, bake its blocks, find, decode and place its entities' files (each
/// file decoded once).
pub fn load_level(
    path: &Path,
    bytes: &[u8],
    paths: &[PathBuf],
    palette: &Palette,
) -> Result<Level> {
    let file = WmbFile::parse(bytes)?;
    let files = EntityFiles::new(path, paths);
    let blocks = level_models(&file);
    let mut by_path: HashMap<PathBuf, Option<usize>> = HashMap::new();
    let mut decoded = Vec::new();
    let mut placed = Vec::new();
    let mut found = 0;
    for e in file.entities() {
        let Some(p) = files.find(&e.file) else {
            continue;
        };
        let index = *by_path.entry(p.clone()).or_insert_with(|| {
            load_placeable(&p, &files, palette, 0).map(|pl| {
                decoded.push(pl);
                decoded.len() - 1
            })
        });
        let Some(index) = index else {
            continue;
        };
        found += 1;
        placed.push(Placed {
            file: index,
            origin: e.origin,
            angle: e.angle,
            scale: e.scale,
            ambient: e.ambient,
            albedo: if e.kind == EntityKind::Old {
                50.0
            } else {
                e.albedo
            },
        });
    }
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(Level {
        name,
        file,
        blocks,
        files: decoded,
        placed,
        found,
    })
}

impl Level {
    /// The start position: the first POSITION object, else `None`.
    pub fn start(&self) -> Option<(Vec3, Vec3)> {
        self.file.objects.iter().find_map(|o| match o {
            Object::Position { origin, angle, .. } => Some((*origin, *angle)),
            _ => None,
        })
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
            if f.shape == Shape::Sprite {
                let r = f.radius() * p.scale.abs().max_element();
                lo = lo.min(p.origin - Vec3::splat(r));
                hi = hi.max(p.origin + Vec3::splat(r));
                continue;
            }
            let m = modex_raster::Entity {
                position: p.origin,
                pan: p.angle.x,
                tilt: p.angle.y,
                roll: p.angle.z,
                scale: p.scale,
                ..modex_raster::Entity::default()
            }
            .matrix();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Bestiary has no blocks, no POSITION and no PATH: the default camera frames its bounds, the
    /// posed boxes of its 44 entities. Its floor is at z = 0 (the deepest model reaches 100 below,
    /// the rooms 450 above); boxes of `origin ± radius` reached from 710 below to 714 above.
    #[test]
    fn bestiary_bounds_are_its_posed_entity_boxes() {
        let Some(dir) = modex_testkit::samples_dir("wmb") else {
            return;
        };
        let path = dir.join("lottershock/Game/Level/bestiary.wmb");
        let bytes = std::fs::read(&path).unwrap();
        let level = load_level(&path, &bytes, &[], &Palette::quake()).unwrap();
        assert!(level.start().is_none());
        let (lo, hi) = level.bounds();
        assert!(lo.z > -150.0 && hi.z < 600.0, "{lo} {hi}");
        // The row of cages along -y and, 8 300 units east, room_quarters_01 (its origin at
        // x = 9 500, turned by 180 degrees, so it reaches west of it): genuine content, which the
        // bounds keep.
        assert!(lo.y < -5000.0 && hi.y > 300.0, "{lo} {hi}");
        assert!(lo.x < 0.0 && hi.x > 9000.0 && hi.x < 10000.0, "{lo} {hi}");
    }
}
