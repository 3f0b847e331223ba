//! An entity's file decoded into what the level places: an MDL (any version), HMP terrain, a
//! nested level's blocks, or an image as a sprite quad.

use glam::{Vec2, Vec3};
use modex::Palette;
use modex_mdl::hmp::HmpFile;
use modex_mdl::mdl7::{self, Mdl7File};
use modex_mdl::wmb::surface::level_models;
use modex_mdl::wmb::WmbFile;
use modex_mdl::{Frame, MdlFile, Model, Triangle};

use super::images::Images;
use super::{EntityFiles, Placeable, Solid};

/// Decode the entity file `key` (as [`EntityFiles::read`] named it), its skin files through the
/// level's `images`; `None` after a log line when it does not decode.
pub(super) fn load(
    key: &str,
    bytes: &[u8],
    files: &dyn EntityFiles,
    images: &Images,
    palette: &Palette,
) -> Option<Placeable> {
    let file_name = key.rsplit(['/', '\\']).next().unwrap_or(key);
    let decoded: Result<(Vec<Model>, Solid), String> = if mdl7::sniff(bytes) {
        Mdl7File::parse_with_palette(bytes, palette)
            .map(|mut f| {
                let mut load = |skin: &str| images.load(files, skin, key);
                for problem in f.resolve_skin_images(&mut load) {
                    log::warn!("{file_name}: {problem}");
                }
                let models = f.parts().into_iter().map(|p| p.model).collect();
                (models, Solid::Box)
            })
            .map_err(|e| e.to_string())
    } else if modex_mdl::mdl::sniff(bytes) {
        MdlFile::parse_with_palette(bytes, palette)
            .map(|f| (vec![f.model], Solid::Box))
            .map_err(|e| e.to_string())
    } else if modex_mdl::hmp::sniff(bytes) {
        HmpFile::parse_with_palette(bytes, palette)
            .map(|f| (vec![f.model], Solid::Surface))
            .map_err(|e| e.to_string())
    } else if modex_mdl::wmb::sniff(bytes) {
        // A nested level: its blocks (its own entities are not placed again).
        WmbFile::parse(bytes)
            .map(|w| {
                let models = level_models(&w).into_iter().map(|m| m.model).collect();
                (models, Solid::Surface)
            })
            .map_err(|e| e.to_string())
    } else {
        modex_mdl::external::decode_image(file_name, bytes)
            .map(|(w, h, rgba)| (vec![sprite_quad(w, h, rgba)], Solid::Nothing))
            .map_err(|e| e.to_string())
    };
    let (models, solid) = match decoded {
        Ok(d) => d,
        Err(e) => {
            log::warn!("{key}: {e} (drawn as nothing)");
            return None;
        }
    };
    // A level draws its skins from their RGBA alone: the stored copies of true-colour skins go
    // (each texel held once; `Skin::drop_stored`).
    let models: Vec<Model> = models
        .into_iter()
        .filter(|m| !m.triangles.is_empty())
        .map(|mut m| {
            m.skins.iter_mut().for_each(modex_mdl::Skin::drop_stored);
            m
        })
        .collect();
    let positions: Vec<Vec3> = models
        .iter()
        .filter_map(|m| m.frames.first())
        .flat_map(|f| f.positions.iter().copied())
        .collect();
    let (lo, hi) = Frame::compute_bbox(&positions);
    let stem = file_name.rsplit_once('.').map_or(file_name, |(s, _)| s);
    Some(Placeable {
        name: stem.to_string(),
        models,
        solid,
        lo,
        hi,
    })
}

/// An image as a quad in the model's Y-Z plane, its front towards +X (the entity's forward axis,
/// turned to the camera at each draw), centred on the origin, one unit per pixel.
pub fn sprite_quad(w: usize, h: usize, rgba: Vec<u8>) -> Model {
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
