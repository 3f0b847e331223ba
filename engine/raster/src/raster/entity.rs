//! The draw call: a model as an A5 entity sees it (position, pan/tilt/roll, scale, frame and
//! nextframe, skin, ambient, albedo, overlay flag) drawn by a [`Renderer`] into any
//! [`modex::Target`] of [`RasterPixel`]s.
//!
//! Pipeline per draw: vertex stage (interpolate the two frames, transform to clip space, light each
//! vertex through the normal table) → triangle stage (texture coordinates, near/guard-band clipping,
//! setup with back-face culling) → band-parallel span filling. The vertex and triangle stages run in
//! parallel chunks whose results are concatenated in file order, so the output never depends on the
//! number of threads.

use glam::{Mat4, Quat, Vec2, Vec3, Vec4};
use modex::blend::{BlendTables, Opacity};
use modex::float::floor_f32;
use modex::{draw_line, Camera, DepthBuffer, DrawStats, Palette, Projection, SizeMismatch, Target};
use rayon::prelude::*;
use std::sync::Arc;

use modex_mdl::Model;

use super::bands::{with_bins, BandBins, ChunkBins, Triangles};
use super::clip::{by_codes, clip_triangle, ClipPlanes, ClipVertex, Clipped};
use super::light::{normal_table_dots, Light, Material, ShadeTable};
use super::pixel::sealed::FillTextured;
use super::pixel::{RasterPixel, TexturedFill};
use super::setup::{Cull, Projected, TriSetup};
use super::shared::SharedTextures;
use super::span::{DepthMode, Rows};

/// Where the triangle stage puts its set-up records.
enum SetupOut<'o> {
    /// In file order (one thread, a frame that [`streams`]).
    InOrder(&'o mut Vec<TriSetup>),
    /// Binned by band in parallel chunks (several threads, or a larger frame).
    Binned(&'o mut BandBins),
}
use super::texture::Texture;

/// What an A5 entity says about how to draw its model (the `A4_ENTITY` fields that matter here).
///
/// Numbering: frames and skins count from 0 here; A5 scripts count both from 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entity {
    /// World position.
    pub position: Vec3,
    /// Heading in degrees: rotation around Z.
    pub pan: f32,
    /// Pitch in degrees, positive = nose up.
    pub tilt: f32,
    /// Roll in degrees, around the model's X axis.
    pub roll: f32,
    /// Scale factors per axis.
    pub scale: Vec3,
    /// Animation frame. The integer part picks the frame; the fractional part interpolates towards
    /// `nextframe` (or the following frame), as A5's `frame` does. Frame numbers wrap around.
    pub frame: f32,
    /// Interpolation target frame; `None` means the frame after `frame`.
    pub nextframe: Option<usize>,
    /// Skin number (wraps around the model's skins).
    pub skin: usize,
    /// Entity ambient light, -100..+100 (A5 `ambient`).
    pub ambient: f32,
    /// Light reflectivity, 0..100 (A5 `albedo`).
    pub albedo: f32,
    /// How the surface weighs ambient light and sun (A7 `material`'s ambient and diffuse);
    /// [`Material::PLAIN`] by default.
    pub material: Material,
    /// Overlay mode: index 0 of 8-bit skins and 0x0000 of 16-bit skins are not drawn.
    pub overlay: bool,
    /// Opacity (A5's `alpha` where the entity is `TRANSPARENT`): below opaque the entity is mixed
    /// over what is behind it and tests depth without writing it, so draw such entities after the
    /// opaque ones, far to near; invisible draws nothing.
    pub alpha: Opacity,
}

impl Default for Entity {
    fn default() -> Self {
        Entity {
            position: Vec3::ZERO,
            pan: 0.0,
            tilt: 0.0,
            roll: 0.0,
            scale: Vec3::ONE,
            frame: 0.0,
            nextframe: None,
            skin: 0,
            ambient: 0.0,
            albedo: 50.0,
            material: Material::PLAIN,
            overlay: false,
            alpha: Opacity::OPAQUE,
        }
    }
}

impl Entity {
    /// Rotation of the entity (pan, then tilt, then roll, as A5 applies them).
    pub fn rotation(&self) -> Quat {
        Quat::from_rotation_z(self.pan.to_radians())
            * Quat::from_rotation_y(-self.tilt.to_radians())
            * Quat::from_rotation_x(self.roll.to_radians())
    }

    /// Model to world.
    pub fn matrix(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation(), self.position)
    }

    /// The two frames to draw and the fraction between them, for a model with `count` frames.
    pub fn frames(&self, count: usize) -> (usize, usize, f32) {
        if count == 0 {
            return (0, 0, 0.0);
        }
        let f = if self.frame.is_finite() {
            self.frame.max(0.0)
        } else {
            0.0
        };
        let whole = f.floor();
        let i0 = (whole as u64 % count as u64) as usize;
        let i1 = self.nextframe.map_or((i0 + 1) % count, |n| n % count);
        (i0, i1, f - whole)
    }
}

/// A model with its skins prepared for drawing with one palette.
#[derive(Debug, Clone)]
pub struct PreparedModel<'m> {
    model: &'m Model,
    /// Shared with other models showing the same skins ([`SharedTextures`]).
    skins: Vec<Arc<Texture>>,
}

impl<'m> PreparedModel<'m> {
    /// The model these skins were prepared for.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// The texture for skin number `skin` (wrapping), or the blank stand-in when the model has no
    /// drawable skin.
    pub(crate) fn texture(&self, skin: usize) -> &Texture {
        &self.skins[skin % self.skins.len()]
    }

    /// The mip levels of skin number `skin` (wrapping) as drawn into true-colour targets: (width,
    /// height, packed RGBA texels `r | g << 8 | b << 16 | a << 24`, top row first), level 0 (the
    /// skin) first, each further level half the size of the one before, down to 1x1; texels an
    /// alpha-tested skin cuts out are 0 (`Texture::cutout`). For giving
    /// another renderer the same levels (the llvmpipe bench) or looking at them.
    pub fn skin_levels(&self, skin: usize) -> impl Iterator<Item = (u32, u32, &[u32])> + '_ {
        let tex = self.texture(skin);
        // An alpha-tested skin is drawn through its keyed form (cut texels 0) in every mode.
        let keyed = tex.keyed(false);
        tex.levels.iter().enumerate().map(move |(i, l)| {
            let texels = if keyed {
                tex.overlay_level(i)
            } else {
                tex.rgba_level(i)
            };
            (l.width, l.height, texels)
        })
    }

    /// Number of skins (at least 1: the blank stand-in).
    pub fn skin_count(&self) -> usize {
        self.skins.len()
    }
}

/// Draws models: the palette tables, the scene light and the fixed-function state.
#[derive(Debug, Clone)]
pub struct Renderer {
    /// The palette's shade table (and the palette itself), built by [`Renderer::new`].
    shades: ShadeTable,
    /// The scene's sun and ambient light.
    pub light: Light,
    /// Which faces are drawn.
    pub cull: Cull,
    /// Depth test and write of [`Renderer::draw`].
    pub depth_mode: DepthMode,
    /// Sample skins through their mip levels (built at [`Renderer::prepare`]), each span at the
    /// level its texel-to-pixel ratio asks for, as A5 drew through Direct3D: on by default; off
    /// draws every pixel from the full-size skin (minified skins shimmer).
    pub mipmaps: bool,
    /// The palette's 8-bit mixing tables for translucent entities, built on first use and shared
    /// by clones.
    blend: Arc<BlendTables>,
}

/// Vertex-stage output.
#[derive(Debug, Clone, Copy)]
struct Lit {
    clip: Vec4,
    depth: f32,
    light: f32,
    /// [`ClipPlanes::vertex_code`] for the draw's viewport.
    code: u8,
    /// The vertex projected to the viewport, when `code` is 0 (inside every plane) and the
    /// projection succeeded; `None` otherwise.
    at: Option<Projected>,
}

thread_local! {
    /// Per-thread storage for the transformed vertices of a draw, reused across draws.
    static LIT: std::cell::RefCell<Vec<Lit>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Per-thread storage for the set-up triangles of a draw, reused across draws.
    static SETUPS: std::cell::RefCell<Vec<TriSetup>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Work items per parallel chunk in the vertex and triangle stages.
const CHUNK: usize = 2048;

/// Triangles set up and filled together when drawing on one thread into a frame that
/// [`streams`].
const STREAM_BATCH: usize = 256;

/// The largest frame (colour and depth bytes) a one-thread draw streams its triangles into (see
/// [`streams`]): beyond this the frame does not stay in the caches between two triangles.
const STREAM_FRAME_BYTES: usize = 4 << 20;

/// Whether a draw on one thread into a `width` x `height` frame of `px_bytes`-byte pixels streams
/// its triangles ([`STREAM_BATCH`] at a time, each batch filled over the whole frame in file order)
/// rather than binning them all by band first and filling band after band, as several threads do.
///
/// Streaming keeps the set-up records in the cache; binning keeps the frame's rows there. Small
/// triangles scattered over a frame larger than the cache make every triangle's rows a miss when
/// streamed: small100k at 1920x1080 on one thread went from 111-176 ms streamed to 70-74 ms binned
/// (8888; 565 114-124 to 68 ms), while at 640x480 (2.5 MB of colour and depth in 8888) the two
/// are within the noise (docs/benchmarks.md, "The short rows"). Both give the same pixels: bands
/// only partition the rows.
fn streams(width: usize, height: usize, px_bytes: usize) -> bool {
    width.saturating_mul(height).saturating_mul(px_bytes + 4) <= STREAM_FRAME_BYTES
}

impl Renderer {
    /// A renderer for `palette` (builds the shade table: tens of milliseconds).
    pub fn new(palette: &Palette) -> Renderer {
        Renderer {
            shades: ShadeTable::new(palette),
            light: Light::default(),
            cull: Cull::Back,
            depth_mode: DepthMode::TestAndWrite,
            mipmaps: true,
            blend: Arc::new(BlendTables::new(palette)),
        }
    }

    /// The palette this renderer lights 8-bit targets through and maps true-colour skins into; the
    /// palette to give [`modex::Target::flat`] for clear and line colours.
    pub fn palette(&self) -> &Palette {
        self.shades.palette()
    }

    /// Prepare a model's skins for this renderer's palette.
    pub fn prepare<'m>(&self, model: &'m Model) -> PreparedModel<'m> {
        self.prepare_sharing(model, &SharedTextures::new())
    }

    /// Prepare a model's skins for this renderer's palette, sharing each texture with the other
    /// models prepared through `shared` that show the same skin (a level's hundreds of models:
    /// each texture file held once). `shared` must only be used with this renderer (its
    /// textures' 8-bit forms are this renderer's palette's).
    pub fn prepare_sharing<'m>(
        &self,
        model: &'m Model,
        shared: &SharedTextures<'m>,
    ) -> PreparedModel<'m> {
        let mut skins: Vec<Arc<Texture>> = model
            .skins
            .iter()
            .map(|s| {
                let t = shared.get(s, &self.shades);
                if t.is_none() {
                    log::warn!(
                        "skin type {} ({}x{}) cannot be drawn; using a blank one",
                        s.kind,
                        s.width,
                        s.height
                    );
                }
                t.unwrap_or_else(|| Arc::new(Texture::blank(&self.shades)))
            })
            .collect();
        if skins.is_empty() {
            skins.push(Arc::new(Texture::blank(&self.shades)));
        }
        PreparedModel { model, skins }
    }

    /// Vertex stage: clip position, view depth and intensity per model vertex.
    fn vertices(
        &self,
        camera: &Camera,
        model: &Model,
        entity: &Entity,
        (planes, width, height): (&ClipPlanes, usize, usize),
        out: &mut Vec<Lit>,
    ) {
        out.clear();
        let (i0, i1, t) = entity.frames(model.frames.len());
        let (Some(f0), Some(f1)) = (model.frames.get(i0), model.frames.get(i1)) else {
            return;
        };
        let n = f0.positions.len();
        let model_m = entity.matrix();
        let mv = camera.view() * model_m;
        let mvp = camera.projection() * mv;
        let depth_row = -mv.row(2);
        let to_sun = (entity.rotation().inverse() * self.light.towards_sun()).normalize_or(Vec3::Z);
        let dots = normal_table_dots(to_sun);
        let light = self.light;
        let (amb, alb, material) = (entity.ambient, entity.albedo, entity.material);
        let intensity = |f: &modex_mdl::Frame, i: usize| -> f32 {
            let d = match &f.normal_indices {
                Some(idx) => idx
                    .get(i)
                    .map_or(0.0, |&k| dots[(k as usize).min(dots.len() - 1)]),
                None => f.normals.get(i).map_or(0.0, |n| n.dot(to_sun)),
            };
            light.intensity(d, amb, alb, material)
        };
        let interpolate = t > 0.0 && i0 != i1 && f1.positions.len() == n;
        let shared = vertex_stage_projects(n, model.triangles.len());
        let lit = |i: usize| -> Lit {
            let (p, l) = if interpolate {
                (
                    f0.positions[i].lerp(f1.positions[i], t),
                    intensity(f0, i) * (1.0 - t) + intensity(f1, i) * t,
                )
            } else {
                (f0.positions[i], intensity(f0, i))
            };
            let p4 = p.extend(1.0);
            let (clip, depth) = (mvp * p4, depth_row.dot(p4));
            let code = planes.vertex_code(clip, depth, l);
            let at = if code == 0 && shared {
                let v = ClipVertex {
                    clip,
                    ..ClipVertex::default()
                };
                Projected::of(&v, width, height)
            } else {
                None
            };
            Lit {
                clip,
                depth,
                light: l,
                code,
                at,
            }
        };
        if n > CHUNK && rayon::current_num_threads() > 1 {
            out.par_extend((0..n).into_par_iter().with_min_len(CHUNK).map(lit));
        } else {
            out.extend((0..n).map(lit));
        }
    }

    /// Triangle stage: set up every visible (piece of a) triangle, in file order.
    /// `(width, height)` is the target's size in pixels.
    fn setups(
        &self,
        model: &Model,
        triangles: &[modex_mdl::Triangle],
        lit: &[Lit],
        tex: &Texture,
        (width, height): (usize, usize),
        out: SetupOut<'_>,
    ) {
        let stage = TriangleStage {
            model,
            lit,
            size: Vec2::new(tex.width as f32, tex.height as f32),
            planes: ClipPlanes::new(width, height),
            wh: (width, height),
            cull: self.cull,
            projected: vertex_stage_projects(lit.len(), model.triangles.len()),
        };
        match out {
            SetupOut::InOrder(out) => {
                out.clear();
                stage.run(triangles, out);
            }
            SetupOut::Binned(bins) => {
                // One task per chunk, each binning its records by band as it sets them up.
                bins.reset(triangles.len().div_ceil(CHUNK), height);
                bins.chunks_mut()
                    .par_iter_mut()
                    .zip(triangles.par_chunks(CHUNK))
                    .for_each(|(bins, tris)| stage.run(tris, bins));
            }
        }
    }

    /// Draw `model` as `entity` sees it into `target`, testing and writing `depth`. Returns the
    /// triangle counters (`triangles`, `rasterized`) of [`DrawStats`]. The target, the depth buffer
    /// and the camera's viewport must have the same size, as for the ray-marcher; otherwise
    /// nothing is drawn and the sizes are returned as the error.
    pub fn draw<T: Target>(
        &self,
        target: &mut T,
        depth: &mut DepthBuffer,
        camera: &Camera,
        model: &PreparedModel,
        entity: &Entity,
    ) -> Result<DrawStats, SizeMismatch>
    where
        T::Px: RasterPixel,
    {
        self.draw_into(target, depth, camera, model, entity, None)
    }

    /// Clear `target` to `background` and `depth` to infinity (far), then [`Renderer::draw`]:
    /// the same pixels as `target.fill(background)`, `depth.clear()` and a draw, but faster on
    /// several threads and on big frames, because each band's rows are cleared inside its
    /// parallel job just before its triangles are drawn into them (still in the cache), instead of
    /// the whole frame being cleared on one thread first. For the first draw of a frame (the
    /// terrain, a bench's scene). Sizes are checked as for `draw`; on a mismatch nothing is cleared.
    pub fn clear_and_draw<T: Target>(
        &self,
        target: &mut T,
        depth: &mut DepthBuffer,
        camera: &Camera,
        model: &PreparedModel,
        entity: &Entity,
        background: T::Px,
    ) -> Result<DrawStats, SizeMismatch>
    where
        T::Px: RasterPixel,
    {
        self.draw_into(target, depth, camera, model, entity, Some(background))
    }

    /// [`Renderer::draw`], clearing first when `clear` is given (the first set-up batch's fill
    /// does the clear, band by band; later batches draw over cleared rows).
    fn draw_into<T: Target>(
        &self,
        target: &mut T,
        depth: &mut DepthBuffer,
        camera: &Camera,
        model: &PreparedModel,
        entity: &Entity,
        mut clear: Option<T::Px>,
    ) -> Result<DrawStats, SizeMismatch>
    where
        T::Px: RasterPixel,
    {
        SizeMismatch::check(target, depth, camera)?;
        let (w, h) = target.size();
        let mut stats = DrawStats {
            triangles: model.model.triangles.len(),
            ..DrawStats::default()
        };
        if entity.alpha.is_invisible() {
            if let Some(c) = clear {
                target.pixels_mut().fill(c);
                depth.clear();
            }
            return Ok(stats);
        }
        let blend = self.blend.table(entity.alpha);
        // A translucent entity must not hide what is drawn behind it after it.
        let mode = match (entity.alpha.is_opaque(), self.depth_mode) {
            (false, DepthMode::TestAndWrite) => DepthMode::TestOnly,
            (_, mode) => mode,
        };
        // Both reused from draw to draw on this thread: fresh multi-megabyte buffers every frame
        // cost more in page faults than filling them (see `bands::fill`).
        let mut lit = LIT.with(|c| std::mem::take(&mut *c.borrow_mut()));
        self.vertices(
            camera,
            model.model,
            entity,
            (&ClipPlanes::new(w, h), w, h),
            &mut lit,
        );
        let tex = model.texture(entity.skin);
        let fill = |tris: Triangles, target: &mut T, depth: &mut DepthBuffer, clear| {
            let job = TexturedFill {
                tris,
                tex,
                shades: &self.shades,
                overlay: entity.overlay,
                mode,
                mipmaps: self.mipmaps,
                opacity: entity.alpha,
                blend,
            };
            if let Some(frame) = Rows::frame(target.pixels_mut(), depth.values_mut(), w, h) {
                T::Px::fill_textured(&job, frame, clear);
            }
        };
        let mut setups = SETUPS.with(|c| std::mem::take(&mut *c.borrow_mut()));
        if rayon::current_num_threads() == 1 && streams(w, h, std::mem::size_of::<T::Px>()) {
            // On one thread into a frame that stays in the cache, set up and fill a few hundred
            // triangles at a time: the set-up records then never leave the cache (100k triangles
            // of them are 14 MB written and read back otherwise). Triangles still reach every
            // pixel in file order, so the pixels are the same.
            for tris in model.model.triangles.chunks(STREAM_BATCH) {
                let out = SetupOut::InOrder(&mut setups);
                self.setups(model.model, tris, &lit, tex, (w, h), out);
                stats.rasterized += setups.len();
                fill(Triangles::InOrder(&setups), target, depth, clear.take());
            }
        } else {
            // On several threads, or into a larger frame, the set-up's (parallel) chunks bin
            // their records by band themselves, and the bands are filled (in parallel) one
            // after another, each while its rows are in the cache.
            with_bins(|bins| {
                let out = SetupOut::Binned(bins);
                self.setups(model.model, &model.model.triangles, &lit, tex, (w, h), out);
                stats.rasterized += bins.count();
                fill(Triangles::Binned(bins), target, depth, clear.take());
            });
        }
        SETUPS.with(|c| *c.borrow_mut() = setups);
        LIT.with(|c| *c.borrow_mut() = lit);
        if let Some(c) = clear {
            // A model without triangles: no fill ran to clear.
            target.pixels_mut().fill(c);
            depth.clear();
        }
        Ok(stats)
    }

    /// Draw the edges of the model's (front-facing, when culling) triangles in a flat colour, on top
    /// of whatever is there, ignoring depth, with the one line routine ([`modex::draw_line`]).
    pub fn draw_wireframe<T: Target>(
        &self,
        target: &mut T,
        camera: &Camera,
        model: &PreparedModel,
        entity: &Entity,
        rgb: [u8; 3],
    ) {
        let (w, h) = target.size();
        let color = T::flat(rgb, self.palette());
        let mut lit = Vec::new();
        let planes = ClipPlanes::new(w, h);
        self.vertices(camera, model.model, entity, (&planes, w, h), &mut lit);
        let screen: Vec<Option<Vec2>> = lit
            .iter()
            .map(|v| {
                (v.clip.z >= 0.0 && v.clip.w > 0.0).then(|| {
                    let n = v.clip.truncate() / v.clip.w;
                    Vec2::new((n.x + 1.0) * 0.5 * w as f32, (1.0 - n.y) * 0.5 * h as f32)
                })
            })
            .collect();
        for tri in &model.model.triangles {
            let pts: Option<Vec<Vec2>> = tri
                .vertices
                .iter()
                .map(|&i| screen.get(i as usize).copied().flatten())
                .collect();
            let Some(p) = pts else { continue };
            let area = (p[1] - p[0]).perp_dot(p[2] - p[0]);
            let visible = match self.cull {
                Cull::Back => area < 0.0,
                Cull::Front => area > 0.0,
                Cull::None => true,
            };
            if visible {
                for k in 0..3 {
                    draw_line(target, p[k], p[(k + 1) % 3], color);
                }
            }
        }
    }
}

/// What the triangle stage puts its set-up records into.
trait SetupSink {
    fn put(&mut self, t: TriSetup);
}

impl SetupSink for Vec<TriSetup> {
    #[inline(always)]
    fn put(&mut self, t: TriSetup) {
        self.push(t);
    }
}

impl SetupSink for ChunkBins {
    #[inline(always)]
    fn put(&mut self, t: TriSetup) {
        self.push(t);
    }
}

/// Whether the vertex stage projects the vertices (`Lit::at`) of a model of `vertices` vertices
/// and `triangles` triangles. Projecting there pays when triangles share vertices (a closed mesh
/// uses each about six times); for a soup of separate triangles it only moves the same work
/// earlier (+1.5 % instructions on 100k separate triangles), so there the triangle stage
/// projects.
fn vertex_stage_projects(vertices: usize, triangles: usize) -> bool {
    2 * vertices < 3 * triangles
}

/// What the triangle stage of one draw shares across its chunks of triangles.
struct TriangleStage<'a> {
    model: &'a Model,
    lit: &'a [Lit],
    /// The texture's size in texels (texture coordinates are scaled by it).
    size: Vec2,
    planes: ClipPlanes,
    wh: (usize, usize),
    cull: Cull,
    /// [`vertex_stage_projects`] for this model.
    projected: bool,
}

impl TriangleStage<'_> {
    /// Set up `tris` into `out`, with the early cull of projected triangles compiled in only
    /// when the vertex stage projected: the soup of separate triangles it does not project pays
    /// nothing for it (callgrind: the test compiled in for every model cost small100k 1.2 %
    /// instructions).
    #[inline(always)]
    fn run<S: SetupSink>(&self, tris: &[modex_mdl::Triangle], out: &mut S) {
        if self.projected {
            self.run_with::<S, true>(tris, out)
        } else {
            self.run_with::<S, false>(tris, out)
        }
    }

    /// The triangle stage for `tris`: texture coordinates, clipping, set-up, in file order.
    /// With `PROJECTED` (the vertex stage projected the vertices), a triangle inside every
    /// plane whose projected area the cull refuses is dropped before its texture coordinates are
    /// worked out.
    fn run_with<S: SetupSink, const PROJECTED: bool>(
        &self,
        tris: &[modex_mdl::Triangle],
        out: &mut S,
    ) {
        let TriangleStage {
            model,
            lit,
            size,
            ref planes,
            wh: (width, height),
            cull,
            ..
        } = *self;
        for tri in tris {
            let (Some(l0), Some(l1), Some(l2)) = (
                lit.get(tri.vertices[0] as usize),
                lit.get(tri.vertices[1] as usize),
                lit.get(tri.vertices[2] as usize),
            ) else {
                continue;
            };
            let codes = [l0.code, l1.code, l2.code];
            if let Some(None) = by_codes(codes, true) {
                // All three outside one plane: what `clip_triangle` answers, without its work.
                continue;
            }
            if let (true, 0, Some(p0), Some(p1), Some(p2)) = (
                PROJECTED,
                codes[0] | codes[1] | codes[2],
                l0.at,
                l1.at,
                l2.at,
            ) {
                // Inside every plane and projected: the triangle is `Whole` (or, with texture
                // coordinates that are not finite, nothing), and `from_projected` culls it by the
                // sign of this area before anything else, so a culled one is dropped before its
                // texture coordinates are computed.
                let area = TriSetup::twice_area(
                    [p0.x as i64, p1.x as i64, p2.x as i64],
                    [p0.y as i64, p1.y as i64, p2.y as i64],
                );
                if !cull.draws(area) {
                    continue;
                }
            }
            let mut cv = [ClipVertex::default(); 3];
            for (c, (v, &uv)) in cv.iter_mut().zip([l0, l1, l2].into_iter().zip(&tri.uvs)) {
                let uv = model.uvs.get(uv as usize).copied().unwrap_or(Vec2::ZERO) * size;
                *c = ClipVertex {
                    clip: v.clip,
                    depth: v.depth,
                    u: uv.x,
                    v: uv.y,
                    light: v.light,
                };
            }
            // Move the texture coordinates by whole texture sizes so the smallest is in 0..size:
            // invisible (they wrap) and it keeps the span loop on its fast in-range path.
            let umin = cv[0].u.min(cv[1].u).min(cv[2].u);
            let vmin = cv[0].v.min(cv[1].v).min(cv[2].v);
            let du = floor_f32(umin / size.x) * size.x;
            let dv = floor_f32(vmin / size.y) * size.y;
            if du.is_finite() && dv.is_finite() {
                for c in &mut cv {
                    c.u -= du;
                    c.v -= dv;
                }
            }
            let uv_finite = cv.iter().all(|c| c.u.is_finite() && c.v.is_finite());
            let clipped = match by_codes(codes, uv_finite) {
                Some(answer) => answer,
                None => clip_triangle(&cv, planes),
            };
            match clipped {
                None => {}
                Some(Clipped::Whole) => {
                    let corners = [&cv[0], &cv[1], &cv[2]];
                    let s = match (l0.at, l1.at, l2.at) {
                        // Projected in the vertex stage: the same numbers `new` would compute.
                        (Some(p0), Some(p1), Some(p2)) => TriSetup::from_projected(
                            corners,
                            [
                                [p0.x as i64, p1.x as i64, p2.x as i64],
                                [p0.y as i64, p1.y as i64, p2.y as i64],
                            ],
                            [p0.inv_w, p1.inv_w, p2.inv_w],
                            width,
                            height,
                            cull,
                        ),
                        _ => TriSetup::new(corners, width, height, cull),
                    };
                    if let Some(s) = s {
                        out.put(s);
                    }
                }
                Some(Clipped::Cut(poly)) => {
                    let p = poly.as_slice();
                    for i in 1..p.len() - 1 {
                        let fan = [&p[0], &p[i], &p[i + 1]];
                        if let Some(s) = TriSetup::new(fan, width, height, cull) {
                            out.put(s);
                        }
                    }
                }
            }
        }
    }
}

/// Vertical field of view of [`framing_camera`], in degrees.
const FRAMING_FOV_Y_DEGREES: f32 = 50.0;

/// A camera orbiting a model's frame `frame` (the first frame if there is no such frame) so the
/// whole bounding box fills most of a `width` x `height` view: `yaw` around Z and `pitch` above the
/// horizon in degrees. At yaw 0 the eye is on the model's -Y side looking along +Y.
///
/// This is [`Camera::framing`] (the one framing rule of every viewer) with a 50-degree vertical
/// field of view, looking from [`Camera::orbit_direction`].
pub fn framing_camera(
    model: &Model,
    frame: usize,
    yaw: f32,
    pitch: f32,
    width: usize,
    height: usize,
) -> Camera {
    let positions = model
        .frames
        .get(frame)
        .or(model.frames.first())
        .map_or(&[][..], |f| &f.positions[..]);
    let (lo, hi) = modex_mdl::Frame::compute_bbox(positions);
    Camera::framing(
        Camera::orbit_direction(yaw.to_radians(), pitch.to_radians()),
        lo,
        hi,
        Projection::Perspective {
            fov_y: FRAMING_FOV_Y_DEGREES.to_radians(),
        },
        width,
        height,
    )
}
