//! A model or a voxel unit, decoded once, drawn for each view the page asks for through
//! `modex_view`, the functions `modex render` calls.

use modex::{Camera, DepthBuffer, Palette, Target, TargetFormat};
use modex_assets::Format;
use modex_mdl::Model;
use modex_raster::{Entity, PreparedModel, RasterPixel, Renderer};
use modex_view::colours::Colours;
use modex_view::model::{self, SkinSources};
use modex_view::target::{AnyTarget, Drawing};
use modex_view::voxel::{self, LoadedUnit};
use modex_view::ViewError;
use modex_voxel::{Instance, Pose, RenderOptions, VoxelPixel};
use modex_vxl::Vpl;

use crate::colouring::Colouring;
use crate::error::ShowError;
use crate::files::Dropped;
use crate::view::View;

/// The renderer's skins and mip levels, prepared once per part so orbiting does not rebuild them.
type PreparedParts<'m> = Vec<PreparedModel<'m>>;

self_cell::self_cell!(
    /// A file's decoded parts with the prepared skins that borrow them, owned together, so
    /// the next file shown frees both (safe code cannot otherwise hold a borrow beside its owner).
    struct Parts {
        owner: Vec<Model>,
        #[covariant]
        dependent: PreparedParts,
    }
);

/// A decoded model: its parts, the renderer prepared for them (skins and mip levels), its format.
pub struct ShownModel {
    parts: Parts,
    renderer: Renderer,
    format: Format,
    /// The palette the renderer was made with: the Quake palette, or the 8-bit palette of
    /// true-colour skins while an 8-bit view is shown.
    palette: Palette,
    colouring: Colouring,
    name: String,
}

/// A decoded voxel unit with its lighting pages.
pub struct ShownUnit {
    unit: LoadedUnit,
}

impl ShownModel {
    /// Decode `name` (of `format`) with its external skins among `dropped`; 8-bit skins through
    /// `given` (`--palette`), else the Quake palette, as `modex render`.
    pub fn load(
        name: &str,
        format: Format,
        bytes: &[u8],
        dropped: &Dropped,
        given: Option<&Palette>,
    ) -> Result<ShownModel, ShowError> {
        let palette = given.cloned().unwrap_or_else(Palette::quake);
        let skins = SkinSources {
            folder: dropped.source(),
            extra: None,
        };
        let models = model::load_models(format, name, bytes, &palette, &skins)?;
        let colours = Colours::of_models(&models);
        log::info!("{name}: drawn in {} unless asked", colours.describe());
        let renderer = Renderer::new(&palette);
        let parts = Parts::new(models, |models| {
            models.iter().map(|m| renderer.prepare(m)).collect()
        });
        Ok(ShownModel {
            parts,
            renderer,
            format,
            palette,
            colouring: Colouring::new(colours, given.cloned()),
            name: name.to_string(),
        })
    }

    /// The format a view is drawn in and its palette ([`Colouring`]); the renderer and its
    /// prepared skins are remade when the palette changes.
    fn colours_for(&mut self, asked: Option<TargetFormat>) -> TargetFormat {
        let models = self.parts.borrow_owner();
        let (format, palette) = self.colouring.pick(&self.name, asked, || None, models);
        if palette != self.palette {
            let renderer = Renderer::new(&palette);
            self.parts.with_dependent_mut(|models, parts| {
                *parts = models.iter().map(|m| renderer.prepare(m)).collect();
            });
            self.renderer = renderer;
            self.palette = palette;
        }
        format
    }

    /// The most frames of any part.
    pub fn frames(&self) -> usize {
        model::frame_count(self.parts.borrow_owner())
    }

    /// The model's actions: runs of frames whose names differ only in their trailing number
    /// (`run1`..`run6`, `attack01`..), as the games group them, of the part with the most frames.
    pub fn actions(&self) -> Vec<Action> {
        let models = self.parts.borrow_owner();
        let Some(model) = models.iter().max_by_key(|m| m.frames.len()) else {
            return Vec::new();
        };
        actions(model.frames.iter().map(|f| f.name.as_str()))
    }

    /// The yaw and pitch a view without them is drawn at (where the page's orbit starts).
    pub fn default_angles(&self) -> (f32, f32) {
        let bounds = model::bounds_model(self.parts.borrow_owner(), 0);
        let pitch = model::default_pitch(&bounds, modex_view::DEFAULT_PITCH);
        (modex_view::DEFAULT_YAW, pitch)
    }

    /// Draw `view` as RGBA8 into `out` through `canvas`, as `modex render` draws it (`zoom` 1 is
    /// its camera).
    pub fn draw(
        &mut self,
        view: &View,
        canvas: &mut Canvas,
        out: &mut Vec<u8>,
    ) -> Result<(), ShowError> {
        let format = self.colours_for(view.format);
        let frames = self.frames();
        if view.frame >= frames {
            return Err(ShowError::Frame {
                frame: view.frame,
                frames,
            });
        }
        let (w, h) = view.size;
        let mut camera = model::render_camera(
            self.parts.borrow_owner(),
            view.frame,
            view.yaw,
            view.pitch,
            (w, h),
        );
        if view.zoom != 1.0 {
            // The viewer's zoom: the eye moves along its line of sight.
            let offset = camera.eye - camera.target;
            camera.eye = camera.target + offset / view.zoom;
            camera.near /= view.zoom.max(1.0);
        }
        view.pan_camera(&mut camera);
        model::light_for(&mut self.renderer, &camera, self.format);
        let (target, depth) = canvas.fit(format, (w, h));
        let mut shot = ModelShot {
            depth,
            renderer: &self.renderer,
            camera,
            models: self.parts.borrow_dependent(),
            entity: Entity {
                frame: view.frame as f32,
                ..Entity::default()
            },
        };
        into_rgba(target, &self.palette, out, &mut shot)?;
        Ok(())
    }
}

impl ShownUnit {
    /// Decode the unit whose body is `name`, its HVA and other pieces among `dropped`, lit by
    /// `given` (`--palette`: a VPL's pages, or pages made from any other palette), else a VPL
    /// among them or the unit's palette (the crate's rule, as `modex render`).
    pub fn load(
        name: &str,
        bytes: &[u8],
        dropped: &Dropped,
        given: Option<Vpl>,
    ) -> Result<ShownUnit, ShowError> {
        let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
        let unit = voxel::load_unit(stem, bytes, dropped.source(), given)?;
        Ok(ShownUnit { unit })
    }

    /// The most HVA frames of any piece.
    pub fn frames(&self) -> usize {
        let s = &self.unit.set;
        [&s.body, &s.turret, &s.barrel]
            .into_iter()
            .flatten()
            .map(|m| m.frame_count())
            .max()
            .unwrap_or(1)
    }

    /// Draw `view` as RGBA8 into `out` through `canvas`, as `modex render` draws it.
    pub fn draw(
        &mut self,
        view: &View,
        canvas: &mut Canvas,
        out: &mut Vec<u8>,
    ) -> Result<(), ShowError> {
        if view.facing > 255 {
            return Err(ShowError::Facing(view.facing));
        }
        let scene = [Instance {
            unit: self.unit.set.unit(),
            pose: Pose {
                facing: view.facing as f32,
                frame: view.frame,
                ..Pose::default()
            },
        }];
        let (w, h) = view.size;
        let mut camera = voxel::render_camera(&scene, view.yaw, view.pitch, (w, h))?;
        if view.zoom != 1.0 {
            if let modex::Projection::Orthographic { height } = &mut camera.projection {
                *height /= view.zoom;
            }
        }
        view.pan_camera(&mut camera);
        // Voxel units are palettized: 8-bit unless another format is asked, as `modex render`.
        let format = view.format.unwrap_or(TargetFormat::Indexed8);
        let (target, depth) = canvas.fit(format, (w, h));
        // The ray-marcher draws only the unit: the rest stays as a new target is (zero).
        target.clear();
        let mut shot = UnitShot {
            depth,
            scene: &scene,
            camera,
            vpl: &self.unit.vpl,
        };
        target.draw(&mut shot)?;
        // What `modex render` saves: the pixels the unit does not cover transparent.
        target.write_rgba8_covered(&self.unit.vpl.palette, shot.depth, out);
        Ok(())
    }
}

/// A run of frames played as one animation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// The frames' name without its trailing number (`frame` when they have none).
    pub name: String,
    /// The first frame.
    pub first: usize,
    /// How many frames.
    pub count: usize,
}

/// Consecutive frames whose `names` without trailing digits agree, as one action each.
pub fn actions<'n>(names: impl IntoIterator<Item = &'n str>) -> Vec<Action> {
    let mut out: Vec<Action> = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        let stem = name.trim().trim_end_matches(|c: char| c.is_ascii_digit());
        let stem = stem.trim_end_matches(['_', ' ', '-']);
        let stem = if stem.is_empty() { "frame" } else { stem };
        match out.last_mut() {
            Some(a) if a.name == stem => a.count += 1,
            _ => out.push(Action {
                name: stem.to_string(),
                first: i,
                count: 1,
            }),
        }
    }
    out
}

/// One picture of a model.
struct ModelShot<'a> {
    depth: &'a mut DepthBuffer,
    renderer: &'a Renderer,
    camera: Camera,
    models: &'a [PreparedModel<'a>],
    entity: Entity,
}

impl Drawing for ModelShot<'_> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        let (r, c) = (self.renderer, &self.camera);
        model::draw_picture(target, self.depth, r, c, self.models, &self.entity, false)?;
        Ok(())
    }
}

/// One picture of a posed unit.
struct UnitShot<'a> {
    depth: &'a mut DepthBuffer,
    scene: &'a [Instance<'a>],
    camera: Camera,
    vpl: &'a Vpl,
}

impl Drawing for UnitShot<'_> {
    fn draw<T: Target>(&mut self, target: &mut T) -> Result<(), ViewError>
    where
        T::Px: RasterPixel + VoxelPixel,
    {
        // As `modex render` draws it (through the page's kept depth buffer) onto a cleared
        // target (`ShownUnit::draw` clears it).
        modex_view::voxel::draw_shot(
            target,
            self.depth,
            self.scene,
            &self.camera,
            self.vpl,
            &RenderOptions::default(),
        )?;
        Ok(())
    }
}

/// The render target and depth buffer of the page's draws, kept from one draw to the next while
/// the format and size stay (a model turned or a level walked draws every animation frame: a
/// fresh target and depth buffer each time were an eighth of a draw, docs/benchmarks.md "Web").
pub struct Canvas {
    target: AnyTarget,
    depth: DepthBuffer,
}

impl Default for Canvas {
    fn default() -> Canvas {
        Canvas {
            target: AnyTarget::new(TargetFormat::Argb8888, 0, 0),
            depth: DepthBuffer::new(0, 0),
        }
    }
}

impl Canvas {
    /// The target (`modex_view::target`, the one format switch) and depth buffer for a `size`
    /// draw in `format`, holding what the last draw left: every drawing clears them first.
    pub fn fit(
        &mut self,
        format: TargetFormat,
        (w, h): (usize, usize),
    ) -> (&mut AnyTarget, &mut DepthBuffer) {
        self.target.fit(format, w, h);
        if (self.depth.width(), self.depth.height()) != (w, h) {
            self.depth = DepthBuffer::new(w, h);
        }
        (&mut self.target, &mut self.depth)
    }
}

/// Draw `drawing` into `target` and write its RGBA8 pixels (what `modex render` saves: palette
/// colours for the 8-bit frame) into `out`.
pub fn into_rgba(
    target: &mut AnyTarget,
    palette: &Palette,
    out: &mut Vec<u8>,
    drawing: &mut impl Drawing,
) -> Result<(), ViewError> {
    target.draw(drawing)?;
    target.write_rgba8(palette, out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_named_alike_but_for_their_number_are_one_action() {
        let names = [
            "stand1", "stand2", "run01", "run02", "run03", "pain_1", "", "stand3",
        ];
        let got: Vec<(String, usize, usize)> = actions(names)
            .into_iter()
            .map(|a| (a.name, a.first, a.count))
            .collect();
        let want = [
            ("stand", 0, 2),
            ("run", 2, 3),
            ("pain", 5, 1),
            ("frame", 6, 1),
            ("stand", 7, 1),
        ];
        let want: Vec<(String, usize, usize)> = want
            .iter()
            .map(|(n, f, c)| (n.to_string(), *f, *c))
            .collect();
        assert_eq!(got, want);
    }
}
