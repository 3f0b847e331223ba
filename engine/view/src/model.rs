//! Models and terrain (MDL2..MDL7, IDPO, HMP, GTA Stories MDL): loaded from bytes, framed, lit and
//! drawn as `modex render` draws them.

use modex::{Camera, DepthBuffer, DrawStats, FileSource, Palette, Target};
use modex_assets::Format;
use modex_mdl::hmp::HmpFile;
use modex_mdl::mdl::MdlFile;
use modex_mdl::mdl7::{self, Mdl7File};
use modex_mdl::{Frame, Model, StoriesModel};
use modex_raster::{framing_camera, Entity, Light, PreparedModel, RasterPixel, Renderer};

use crate::ViewError;

/// The sun over the camera's left shoulder: its ambient part.
pub const AMBIENT: f32 = 0.35;
/// The sun over the camera's left shoulder: its diffuse part.
pub const DIFFUSE: f32 = 1.3;
/// Height over width at or below which a model counts as flat for the default view.
const FLAT_SHARE: f32 = 0.05;
/// The default pitch of a flat model, degrees.
const FLAT_PITCH: f32 = 45.0;

/// Where a model's external skins are looked for: the model's own folder first (any case), then
/// an extra source (`--skins DIR`).
pub struct SkinSources<'a> {
    /// The files beside the model.
    pub folder: &'a dyn FileSource,
    /// More files to search after the folder.
    pub extra: Option<&'a dyn FileSource>,
}

/// The renderer models of a model file: one for MDL2..5, HMP and Stories models, one per group and
/// skin for MDL7 (whose external skins are found through `skins`). 8-bit skins are read through
/// `palette`; `name` names the file in messages. Each missing or unreadable skin is logged once.
pub fn load_models(
    format: Format,
    name: &str,
    bytes: &[u8],
    palette: &Palette,
    skins: &SkinSources<'_>,
) -> Result<Vec<Model>, ViewError> {
    let models = match format {
        Format::Mdl if mdl7::sniff(bytes) => load_mdl7_parts(name, bytes, palette, skins)?,
        Format::Mdl => vec![MdlFile::parse_with_palette(bytes, palette)?.model],
        Format::Hmp => vec![HmpFile::parse_with_palette(bytes, palette)?.model],
        Format::StoriesMdl => vec![StoriesModel::parse(bytes)?.to_model()],
        format => return Err(ViewError::NotAModel { format }),
    };
    if models.is_empty() {
        return Err(ViewError::NoTriangles {
            name: name.to_string(),
        });
    }
    Ok(models)
}

/// The parts of an MDL7 file, external skins resolved: a name's last path part is looked up in
/// the model's folder, then in the extra source.
fn load_mdl7_parts(
    name: &str,
    bytes: &[u8],
    palette: &Palette,
    skins: &SkinSources<'_>,
) -> Result<Vec<Model>, ViewError> {
    let mut file = Mdl7File::parse_with_palette(bytes, palette)?;
    let mut find = |skin: &str| -> Option<Vec<u8>> {
        // A name may carry a path from the artist's machine: only its last part is looked up.
        let base = skin.rsplit(['/', '\\']).next().unwrap_or(skin);
        [Some(skins.folder), skins.extra]
            .into_iter()
            .flatten()
            .find_map(|src| src.read(base).ok().flatten())
    };
    for problem in file.resolve_skins(&mut find) {
        log::warn!("{name}: {problem}; drawn in its material colour or grey");
    }
    Ok(file.parts().into_iter().map(|p| p.model).collect())
}

/// The most frames any part has (0 for static models).
pub fn frame_count(models: &[Model]) -> usize {
    models.iter().map(|m| m.frames.len()).max().unwrap_or(0)
}

/// A stand-in holding frame `frame` of every part in one vertex list, so the one framing rule sees
/// the whole model.
pub fn bounds_model(models: &[Model], frame: usize) -> Model {
    let positions: Vec<glam::Vec3> = models
        .iter()
        .filter_map(|m| m.frames.get(frame % m.frames.len().max(1)))
        .flat_map(|f| f.positions.iter().copied())
        .collect();
    let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
    Model {
        frames: vec![Frame {
            name: String::new(),
            normals: vec![glam::Vec3::Z; positions.len()],
            positions,
            normal_indices: None,
            bbox_min,
            bbox_max,
        }],
        uvs: Vec::new(),
        triangles: Vec::new(),
        skins: Vec::new(),
    }
}

/// The pitch of `render` and `view` when none is given. A flat model (a water plane, a decal:
/// its box at most 5 % as high as it is wide) is seen from 45 degrees instead: from the default
/// it would be a sliver seen nearly edge-on.
pub fn default_pitch(bounds: &Model, pitch: f32) -> f32 {
    let Some(f) = bounds.frames.first() else {
        return pitch;
    };
    let size = f.bbox_max - f.bbox_min;
    let wide = size.x.max(size.y);
    if wide > 0.0 && size.z <= wide * FLAT_SHARE {
        pitch.max(FLAT_PITCH)
    } else {
        pitch
    }
}

/// `modex render`'s camera: frame `frame` of every part fitted into a `width` x `height` view
/// from `yaw` degrees or [`crate::DEFAULT_YAW`], at `pitch` degrees or [`default_pitch`] of
/// [`crate::DEFAULT_PITCH`].
pub fn render_camera(
    models: &[Model],
    frame: usize,
    yaw: Option<f32>,
    pitch: Option<f32>,
    (width, height): (usize, usize),
) -> Camera {
    let bounds = bounds_model(models, frame);
    let pitch = pitch.unwrap_or_else(|| default_pitch(&bounds, crate::DEFAULT_PITCH));
    let yaw = yaw.unwrap_or(crate::DEFAULT_YAW);
    framing_camera(&bounds, 0, yaw, pitch, width, height)
}

/// Light `renderer` for `camera` as `render` and `view` do: the sun over the camera's left
/// shoulder, except for GTA Stories models, whose pre-light is the model's light (ambient 1, no
/// sun) so the baked colours are shown as they are.
pub fn light_for(renderer: &mut Renderer, camera: &Camera, format: Format) {
    renderer.light = Light::over_shoulder(camera, AMBIENT, DIFFUSE);
    if format == Format::StoriesMdl {
        renderer.light = Light {
            ambient: 1.0,
            diffuse: 0.0,
            ..renderer.light
        };
    }
}

/// One picture of a prepared model: cleared to black, every part drawn with the one entity, then
/// the wireframe in white if asked. Returns what the parts' draws counted (the viewer's
/// statistics).
pub fn draw_picture<T: Target>(
    target: &mut T,
    depth: &mut DepthBuffer,
    renderer: &Renderer,
    camera: &Camera,
    models: &[PreparedModel<'_>],
    entity: &Entity,
    wireframe: bool,
) -> Result<DrawStats, ViewError>
where
    T::Px: RasterPixel,
{
    target.fill(T::flat([0, 0, 0], renderer.palette()));
    depth.clear();
    let mut stats = DrawStats::default();
    for model in models {
        stats += renderer.draw(target, depth, camera, model, entity)?;
    }
    if wireframe {
        for model in models {
            renderer.draw_wireframe(target, camera, model, entity, [255, 255, 255]);
        }
    }
    Ok(stats)
}
