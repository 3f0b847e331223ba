//! The voxel draw cache: what Westwood built for Tiberian Sun and Red Alert 2. Each limb of a
//! unit piece (body, turret, barrel) is drawn once per cache key, by the direct draw (march or
//! splat), into a small sprite that keeps, per covered pixel, the voxel's colour index and normal
//! index and its view depth *relative to the unit's origin*; later draws of the same key blit the
//! sprite depth-tested at the origin's pixel, at depth = the origin's view depth + the stored
//! offset. The depth buffer holds view depth (distance along the view axis, what the direct draw
//! and the rasterizer write, for both projections), which is affine in world space, so the offsets
//! are exact for both projections.
//!
//! **Perspective cameras** (the demo's). An orthographic sprite serves a key anywhere on screen; a
//! perspective picture of a unit also depends on where it is seen from. So a perspective key adds
//! the origin's *view cell*: its direction in the camera frame as two angles in
//! [`VIEW_DIRECTION_STEP`]s (0.7 degrees) and its view depth in [`VIEW_DEPTH_STEP`]s (0.5 %); the
//! sprite is recorded through the camera itself with the unit moved to the cell's canonical origin
//! (its centre, moved onto a pixel corner), and blitted translated to the unit's origin. (Recording
//! with the projection linearised at the origin, the first idea, was measured first: at
//! the demo's 340 units the linearisation alone moves the corners of a tank's limb boxes by 1.5 to
//! 3.5 pixels at 1080p, since the units are ~30 world units across with turret and barrel, not
//! 10; moving the unit, not linearising the camera, leaves only the cell's own error, 0.1 to
//! 0.5 pixel.) Each draw checks every piece: the 8 corners of each of its limbs' boxes are
//! projected at the pose and at the canonical origin, and a piece with a corner more than
//! [`PERSPECTIVE_BOUND_PX`] (0.5) pixel from where the sprite puts it is drawn directly — units
//! near the eye draw exactly as without the cache. Cells share nothing across units that stand
//! apart, so under perspective each unit records its own sprites, again when it turns a facing
//! step or moves to another cell (docs/benchmarks.md, "Round 6").
//!
//! **Why shade at the blit.** The sprite stores what the marcher or the splat found, not the lit
//! pixel: the blit shades it with the limb's table for this draw's light ([`LimbShade`], the same
//! per-format `Shade::shade` as the direct draw), so one entry serves the 8-bit and the true-colour
//! paths, and a moving sun (the demo's) invalidates nothing. Each entry rebuilds its table when
//! the light changes, for the normal indices its pixels use only.
//!
//! **Key** ([`DrawCache`]): the model (by identity: the cache borrows the models for its lifetime,
//! so an address is never reused while it lives), the piece (body, turret, barrel), the limb, the
//! facing rounded to [`DrawCache::facings`] per turn (default [`DEFAULT_FACINGS`] = the game's 256
//! steps): the body's facing, and for turret and barrel body + turret facing rounded once, which is
//! their whole rotation on an upright unit; the first HVA frame in which the limb has its current
//! matrix (a limb the animation does not move has one entry); the barrel's recoil in
//! [`RECOIL_STEPS`] per unit; and, for a tilted, rolled or scaled unit (plugins), both facings and
//! the exact bits of tilt, roll and scale. Not in the key: the position. Camera and options are the
//! cache's *context*: a change of the camera's orientation, projection or viewport (exact bits; the
//! eye's position excluded: it only moves an orthographic picture, and a perspective key's cell is
//! taken relative to the eye) or of the splat rule empties the cache.
//!
//! **Phase.** A sprite is recorded with its unit's origin moved (in the screen plane) onto the
//! nearest pixel corner, and blitted with the origin rounded to the nearest corner: so every sprite
//! of a key is the same picture whoever recorded it, the pieces of a unit stay aligned with each
//! other, and a frame drawn through a warm cache is the frame drawn through a cold one (up to
//! rounding where a cell edge passes exactly through a pixel centre).
//!
//! **What is drawn directly** (in its place in scene order, so equal depths resolve as before):
//! translucent and invisible units (after everything opaque, far to near, as today), pieces of a
//! perspective camera over [`PERSPECTIVE_BOUND_PX`] or behind the near plane, and a piece with a
//! limb the screen edge cuts when it would be recorded.
//!
//! **Error bound** (tested in `engine/voxel/tests/draw_cache.rs` on the demo's units at the 1080p
//! battlefield's scale). A hit at a pose whose facings are on their steps and whose origin is on a
//! pixel corner draws exactly the direct draw's pixels and depths (depth offsets are exact by
//! Sterbenz's lemma). At any other pose the blit is the direct draw of the pose snapped to its key
//! (facings to their steps, at most half a step; origin to its pixel corner, at most half a pixel
//! each way) up to 0.5 % of the unit's pixels; against the direct draw of the pose itself at most
//! [`ERROR_BOUND_PERCENT`] % of the unit's covered pixels differ (10 % on average over 60 random
//! poses) and at most [`FAR_BOUND_PERCENT`] % show a colour the direct draw has nowhere within one
//! pixel (face slivers that half a step of rotation shows or hides). Under the demo's perspective
//! camera at 1920x1080 (units spread over the battlefield, near and far): the same mean (10.5 % of
//! covered pixels differ, against 10.5 % orthographic), at most 4.1 % without their colour within
//! one pixel, the 25 % bound for units of 2000 pixels and more (a far 1600-pixel tank reaches
//! 28 %: its outline is a larger share of it).
//!
//! **Memory.** Entries are charged their bytes (spans, per-pixel colour, normal and depth, shading
//! tables); after each draw the least recently used go until the total is within the budget
//! ([`DrawCache::with_budget`], default [`DEFAULT_BUDGET_BYTES`]). A draw's own entries are never
//! evicted while it draws, so a frame whose working set alone exceeds the budget still draws
//! correctly and the cache shrinks back after it. Besides the entries each recording worker keeps
//! one scratch of full-width rows (the tallest limb's rows).
//!
//! **Threads.** Misses are recorded in parallel, each independently of the others, the first pose in
//! scene order recording each key; blits and direct draws run over the direct draw's row bands with
//! every pixel seeing them in scene order: 1 and N threads give identical pixels.

use std::collections::HashMap;

use glam::{Mat3, Vec2, Vec3};
use modex::{BlendTables, Camera, DrawStats, Opacity, Projection};
use rayon::prelude::*;

use super::job::{self, limb_shade};
use super::light::LimbShade;
use super::march::{self, Screen};
use super::pixel::{Mixer, Shade};
use super::{RenderOptions, Splatting};
use crate::model::{NoFrames, VoxelModel};
use crate::scene::{box_corners, limbs_of, Instance, PieceRole, Pose, Unit};
use modex_vxl::Vpl;

/// Facings per turn of the default key: the game's 256 steps.
pub const DEFAULT_FACINGS: u32 = 256;

/// Recoil steps per model unit in the barrel's key: 1/8 unit is at most 0.06 unit of error, a
/// fifth of a pixel at the battlefield's 1080p scale.
pub const RECOIL_STEPS: f32 = 8.0;

/// Default memory budget of a cache: 48 MiB, enough for the demo's 1000-unit battlefield at
/// 1920x1080 (docs/benchmarks.md, "Round 6").
pub const DEFAULT_BUDGET_BYTES: usize = 48 << 20;

/// The tested bound on the share of a unit's covered pixels that a cached draw may change against
/// the direct draw at [`DEFAULT_FACINGS`] (each changed pixel lies within one pixel of a direct
/// pixel of the same colour).
pub const ERROR_BOUND_PERCENT: f32 = 25.0;

/// The tested bound on the share of a unit's covered pixels that a cached draw at
/// [`DEFAULT_FACINGS`] shows in a colour the direct draw has nowhere within one pixel (a face
/// sliver that half a pixel of phase or half a facing step shows or hides).
pub const FAR_BOUND_PERCENT: f32 = 5.0;

/// Perspective cameras: the view-direction step of the key, in radians each way (half a game
/// facing step, 0.70 degrees): the origin's direction in the camera frame, in these steps, is
/// part of the view cell whose canonical origin a sprite is recorded at.
pub const VIEW_DIRECTION_STEP: f32 = std::f32::consts::TAU / 512.0;

/// Perspective cameras: the ratio between successive view depths of the key (1.005, steps of
/// 0.5 %).
pub const VIEW_DEPTH_STEP: f32 = 1.005;

/// Perspective cameras: a piece is cached only while its sprite, recorded at its view cell's
/// canonical origin and blitted at its own, puts every corner of its limbs' boxes within this
/// many pixels of where the camera projects it (the error of moving the picture instead of the
/// unit, from the key's quantisation of direction and depth); nearer or larger pieces are drawn
/// directly.
pub const PERSPECTIVE_BOUND_PX: f32 = 0.5;

/// What the last draw through a cache did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Pieces blitted from an entry that was already there.
    pub hits: usize,
    /// Pieces whose entry was recorded in this draw (each key recorded once, then blitted).
    pub misses: usize,
    /// Pieces drawn directly: translucent, perspective camera, or cut by the screen edge.
    pub direct: usize,
    /// Entries after the draw.
    pub entries: usize,
    /// Sprite pixels blitted (depth-tested) in the draw.
    pub pixels: usize,
    /// Bytes charged to the entries after the draw.
    pub bytes: usize,
    /// Entries evicted after the draw to stay within the budget.
    pub evicted: usize,
}

/// A voxel draw cache, kept across frames (module docs: key, bound, budget).
pub struct DrawCache<'m> {
    budget: usize,
    facings: u32,
    bytes: usize,
    tick: u64,
    context: Option<Context>,
    entries: HashMap<Key, Entry<'m>>,
    /// Per (model address, limb): the first frame with the same limb matrix, per frame; `None`
    /// where the limb is not drawn.
    frames: HashMap<(usize, usize), Vec<Option<usize>>>,
    /// The recording workers' scratch rows.
    scratch: Vec<Scratch>,
    last: CacheStats,
}

impl Default for DrawCache<'_> {
    fn default() -> Self {
        DrawCache::new()
    }
}

impl<'m> DrawCache<'m> {
    /// An empty cache with the default budget and facings.
    pub fn new() -> DrawCache<'m> {
        DrawCache {
            budget: DEFAULT_BUDGET_BYTES,
            facings: DEFAULT_FACINGS,
            bytes: 0,
            tick: 0,
            context: None,
            entries: HashMap::new(),
            frames: HashMap::new(),
            scratch: Vec::new(),
            last: CacheStats::default(),
        }
    }

    /// The same with a memory budget of `bytes`.
    pub fn with_budget(mut self, bytes: usize) -> DrawCache<'m> {
        self.budget = bytes;
        self
    }

    /// The same with `n` facings per turn in the key (at least 1; finer facings shrink the
    /// quantisation error and multiply the entries).
    pub fn with_facings(mut self, n: u32) -> DrawCache<'m> {
        self.facings = n.max(1);
        self.clear();
        self
    }

    /// Facings per turn in the key.
    pub fn facings(&self) -> u32 {
        self.facings
    }

    /// The memory budget in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// What the last draw did.
    pub fn stats(&self) -> CacheStats {
        self.last
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }
}

/// What a sprite was recorded with, besides its key: a change empties the cache.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Context {
    /// The view matrix's rotation, exact bits.
    rotation: [u32; 9],
    /// Orthographic view height, exact bits.
    height: u32,
    viewport: (usize, usize),
    near_far: [u32; 2],
    splat: Splatting,
    /// A perspective camera (then `height` holds the field of view's bits).
    perspective: bool,
}

impl Context {
    /// The context of a camera; `None` for one whose matrices are not finite.
    fn of(camera: &Camera, opts: &RenderOptions) -> Option<Context> {
        let (height, perspective) = match camera.projection {
            Projection::Orthographic { height } => (height, false),
            Projection::Perspective { fov_y } => (fov_y, true),
        };
        if !camera.view_projection().is_finite() || camera.width == 0 || camera.height == 0 {
            return None;
        }
        let r = Mat3::from_mat4(camera.view()).to_cols_array();
        Some(Context {
            rotation: r.map(f32::to_bits),
            height: height.to_bits(),
            viewport: (camera.width, camera.height),
            near_far: [camera.near.to_bits(), camera.far.to_bits()],
            splat: opts.splat,
            perspective,
        })
    }
}

/// Which sprite draws a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    /// The model's address (the cache borrows it, so it stays unique).
    model: usize,
    role: PieceRole,
    /// Quantised facing: the body's, or body + turret for turret and barrel of an upright unit.
    facing: u32,
    /// Quantised turret facing of a unit that is not upright (else 0).
    turret: u32,
    /// The limb of the piece.
    limb: usize,
    /// The first HVA frame in which the limb has the same matrix (so a limb that does not move
    /// in an animation, like the helicopter's fuselage under its turning rotor, has one entry).
    frame: usize,
    /// The barrel's recoil in [`RECOIL_STEPS`] per model unit (else 0).
    recoil: i32,
    /// Tilt, roll and scale bits of a unit that is not upright (else 0).
    attitude: [u32; 5],
    /// Perspective cameras: the origin's quantised direction in the camera frame (two angles in
    /// [`VIEW_DIRECTION_STEP`]s), view depth (in [`VIEW_DEPTH_STEP`]s) and its phase in
    /// [`PERSPECTIVE_PHASES`] (x, y); else 0.
    view: [i32; 5],
}

/// The light an entry's shading tables were built for.
#[derive(Debug, Clone, Copy, PartialEq)]
struct LightKey {
    shading: super::Shading,
    table: crate::model::TableChoice,
    light: super::LightSource,
    sun: Option<[u32; 3]>,
    pages: usize,
}

impl LightKey {
    fn of(opts: &RenderOptions, pages: usize) -> LightKey {
        LightKey {
            shading: opts.shading,
            table: opts.table,
            light: opts.light,
            sun: opts.sun.map(|s| s.to_array().map(f32::to_bits)),
            pages,
        }
    }
}

/// One cached piece.
struct Entry<'m> {
    model: &'m VoxelModel,
    sprite: Sprite,
    /// Per sprite limb: the model's limb index, its normals' linear map at recording and the
    /// normal indices its pixels use (only those are shaded).
    limbs: Vec<SpriteLimb>,
    /// Shading per sprite limb for `light`.
    shades: Vec<LimbShade>,
    light: Option<LightKey>,
    last_used: u64,
    bytes: usize,
}

/// One limb of a sprite.
struct SpriteLimb {
    limb: usize,
    linear: Mat3,
    used: [bool; 256],
}

/// A run of covered pixels in one row of a sprite, all of one limb.
#[derive(Debug, Clone, Copy)]
struct Span {
    /// Row from the sprite's top.
    row: u32,
    /// Column from the sprite's left.
    x: u32,
    len: u32,
    /// Index into the entry's limbs.
    limb: u32,
    /// Index of its first pixel in the per-pixel arrays.
    start: u32,
}

/// A piece's recorded pixels.
struct Sprite {
    /// The sprite's top-left pixel, from the pixel its unit's origin was on when recorded.
    corner: (i64, i64),
    /// Rows from the top (spans' rows are below it).
    rows: u32,
    /// Covered runs, by row, then left to right.
    spans: Vec<Span>,
    colour: Vec<u8>,
    normal: Vec<u8>,
    /// View depth minus the view depth of its unit's origin.
    depth: Vec<f32>,
}

impl Sprite {
    fn bytes(&self) -> usize {
        std::mem::size_of::<Sprite>()
            + self.spans.len() * std::mem::size_of::<Span>()
            + self.colour.len() * (2 + std::mem::size_of::<f32>())
    }
}

/// A recorded pixel: what the marcher or splat found, before shading. The recording draws each
/// job with a [`LimbShade`] whose `gain` holds the job's index (see [`tag_shade`]), so `shade`
/// packs limb, colour and normal.
#[derive(Debug, Clone, Copy, Default)]
struct Found(u32);

impl Found {
    fn limb(self) -> u32 {
        self.0 >> 16
    }
    fn colour(self) -> u8 {
        (self.0 >> 8) as u8
    }
    fn normal(self) -> u8 {
        self.0 as u8
    }
}

impl Shade for Found {
    #[inline(always)]
    fn shade(_: &Vpl, limb: &LimbShade, colour: u8, normal: u8) -> Found {
        Found((limb.gain[0] as u32) << 16 | (colour as u32) << 8 | normal as u32)
    }
    fn mixer(tables: &BlendTables, alpha: Opacity) -> Mixer<'_> {
        // Never used: only opaque limbs are recorded.
        <u8 as Shade>::mixer(tables, alpha)
    }
    fn mix(src: Found, _: Found, _: &Mixer<'_>) -> Found {
        src
    }
    fn draw_pixels(
        instances: &[Instance<'_>],
        camera: &Camera,
        vpl: &Vpl,
        opts: &RenderOptions,
        pixels: &mut [Found],
        depth: &mut modex::DepthBuffer,
    ) -> Result<DrawStats, NoFrames> {
        super::draw_pixels(instances, camera, vpl, opts, pixels, depth)
    }
}

/// The recording's stand-in shading of job `k`: it carries only the tag [`Found`] reads.
fn tag_shade(k: usize) -> LimbShade {
    LimbShade {
        lit: true,
        page: [0; 256],
        gain: [k as u16; 256],
    }
}

/// A perspective camera's view cell of a unit origin: the origin's direction in the camera
/// frame (two angles) and its view depth, quantised, and the cell's canonical origin, where a
/// sprite of the cell is recorded through the camera itself.
#[derive(Clone, Copy)]
struct ViewCell {
    cell: [i32; 5],
    /// The canonical origin (world): the cell's direction and depth, moved onto a pixel corner.
    canonical: Vec3,
    /// Its screen position (a pixel corner).
    at: Vec2,
}

impl ViewCell {
    /// The cell of a unit whose origin is at `p` under the perspective `camera`, `None` when it
    /// is behind the near plane or not finite.
    fn of(camera: &Camera, p: Vec3) -> Option<ViewCell> {
        let (at, _) = project(camera, p);
        if !at.is_finite() {
            return None;
        }
        let (_, phase) = anchor(at, PERSPECTIVE_PHASES);
        let view = camera.view();
        let o = view.transform_point3(p);
        let d = -o.z;
        if !o.is_finite() || d <= camera.near.max(1e-3) {
            return None;
        }
        let step = VIEW_DIRECTION_STEP;
        let dstep = VIEW_DEPTH_STEP.ln();
        let qa = ((o.x / d).atan() / step).round();
        let qe = ((o.y / d).atan() / step).round();
        let qd = (d.ln() / dstep).round();
        if !(qa.abs() < 1e6 && qe.abs() < 1e6 && qd.abs() < 1e6) {
            return None;
        }
        let dq = (qd * dstep).exp();
        let c_view = Vec3::new((qa * step).tan() * dq, (qe * step).tan() * dq, -dq);
        let canonical = on_grid(
            camera,
            view.inverse().transform_point3(c_view),
            phase / PERSPECTIVE_PHASES,
        );
        let (at, depth) = project(camera, canonical);
        if !canonical.is_finite() || !at.is_finite() || depth.is_nan() || depth <= camera.near {
            return None;
        }
        Some(ViewCell {
            cell: [
                qa as i32,
                qe as i32,
                qd as i32,
                phase.x as i32,
                phase.y as i32,
            ],
            canonical,
            at,
        })
    }

    /// The largest distance in pixels between where the camera puts a corner of the boxes of
    /// `piece`'s limbs (its origin at `origin` on screen) and where the cell's sprite, recorded
    /// at the canonical origin and blitted at `origin`, puts it: the error of moving the picture
    /// instead of the unit, before rounding the origin to its pixel. Infinite when a corner is
    /// behind the eye.
    fn error(&self, camera: &Camera, piece: &Instance<'_>, origin: Vec2) -> Result<f32, NoFrames> {
        let p = piece.pose.position;
        let shift = self.canonical - p;
        let mut worst = 0f32;
        for placed in limbs_of(std::slice::from_ref(piece))? {
            let volume = &placed.model.volumes()[placed.limb];
            if volume.voxel_count() == 0 {
                continue;
            }
            let (lo, hi) = volume.bounds();
            for c in box_corners(lo, hi) {
                let q = placed.grid_to_world.transform_point3(c);
                let (a, da) = project(camera, q);
                let (b, db) = project(camera, q + shift);
                if da.is_nan() || db.is_nan() || da.min(db) <= camera.near {
                    return Ok(f32::INFINITY);
                }
                let e = ((a - origin) - (b - self.at)).length();
                worst = if e.is_nan() {
                    f32::INFINITY
                } else {
                    worst.max(e)
                };
            }
        }
        Ok(worst)
    }
}

/// One piece to blit.
#[derive(Clone, Copy)]
struct Use {
    key: Key,
    /// Screen position of its unit's origin in this draw.
    origin: Vec2,
    /// View depth of its unit's origin.
    origin_depth: f32,
    /// Phases per pixel its origin is rounded to (1, or [`PERSPECTIVE_PHASES`]).
    phases: f32,
}

/// A limb whose key has no entry yet, with the pose that will record it.
struct Miss<'m> {
    key: Key,
    model: &'m VoxelModel,
    limb: usize,
    instance: Instance<'m>,
}

/// `p` moved in the screen plane so that it projects onto the nearest pixel corner (whole screen
/// coordinates): where a recording places its unit, so every sprite of a key has the same phase
/// whoever recorded it, and the pieces of a unit, placed from its one origin, stay aligned. A
/// point already within 1/1000 pixel of a corner is kept as it is, so a pose there records
/// exactly its own direct draw.
fn on_pixel(camera: &Camera, p: Vec3) -> Vec3 {
    on_grid(camera, p, Vec2::ZERO)
}

/// Sub-pixel phases per pixel each way in a perspective key: 1, the origin rounded to whole
/// pixels as for orthographic cameras. 2 (half pixels) was measured: it halves the phase error
/// (mean share of differing pixels 4.8 % instead of 10.5 %) but a moving unit then changes key
/// every few frames, and the 1000-unit 1080p bench fell from 788 to 238 hits per frame
/// (docs/benchmarks.md, "Round 6b").
pub const PERSPECTIVE_PHASES: f32 = 1.0;

/// The pixel a sprite's anchor is blitted at for an origin at `s` with `phases` per pixel, and
/// the origin's phase on that grid (in 1 / `phases` pixels).
fn anchor(s: Vec2, phases: f32) -> (Vec2, Vec2) {
    let q = (s * phases).round();
    let at = (q / phases + 0.25).floor();
    (at, q - at * phases)
}

/// [`on_pixel`] with the pixel corner moved by `phase` pixels.
fn on_grid(camera: &Camera, p: Vec3, phase: Vec2) -> Vec3 {
    let (s, _) = project(camera, p);
    let corner = s.round() + phase;
    if (s - corner).abs().max_element() < 1e-3 || !s.is_finite() {
        return p;
    }
    let vp = camera.view_projection();
    let clip = vp * p.extend(1.0);
    let (w, h) = (camera.width as f32, camera.height as f32);
    let ndc = Vec3::new(
        corner.x / w * 2.0 - 1.0,
        1.0 - corner.y / h * 2.0,
        clip.z / clip.w,
    );
    let moved = vp.inverse().project_point3(ndc);
    if moved.is_finite() {
        moved
    } else {
        p
    }
}

/// Where `p` is on screen and its view depth.
fn project(camera: &Camera, p: Vec3) -> (Vec2, f32) {
    let clip = camera.view_projection() * p.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    let (w, h) = (camera.width as f32, camera.height as f32);
    let s = Vec2::new((ndc.x + 1.0) * 0.5 * w, (1.0 - ndc.y) * 0.5 * h);
    (s, -(camera.view().transform_point3(p).z))
}

impl<'m> DrawCache<'m> {
    /// The key step of a facing in game steps.
    fn quantise(&self, facing: f32) -> u32 {
        let steps = self.facings as f32 / 256.0;
        let k = (facing * steps).round();
        if k.is_finite() {
            (k as i64).rem_euclid(self.facings as i64) as u32
        } else {
            0
        }
    }

    /// `facing` moved onto its key step, not wrapped into one turn, so a facing already on a step
    /// is kept bit for bit (and the recording of such a pose is exactly its direct draw).
    fn snap(&self, facing: f32) -> f32 {
        let steps = self.facings as f32 / 256.0;
        let k = (facing * steps).round() / steps;
        if k.is_finite() {
            k
        } else {
            0.0
        }
    }

    /// The frame whose matrix limb `limb` of `model` has in `frame` (the first such), `None`
    /// when the limb is not drawn then.
    fn canonical_frame(
        &mut self,
        model: &VoxelModel,
        limb: usize,
        frame: usize,
    ) -> Result<Option<usize>, NoFrames> {
        let frames = model.frame_count().max(1);
        let id = (model as *const VoxelModel as usize, limb);
        if let std::collections::hash_map::Entry::Vacant(slot) = self.frames.entry(id) {
            let mut matrices = Vec::with_capacity(frames);
            for f in 0..frames {
                matrices.push(
                    model
                        .limb_matrix(limb, f)?
                        .map(|m| m.to_cols_array().map(f32::to_bits)),
                );
            }
            let first = (0..frames)
                .map(|f| {
                    matrices[f].map(|m| (0..=f).find(|&g| matrices[g] == Some(m)).unwrap_or(f))
                })
                .collect();
            slot.insert(first);
        }
        Ok(self.frames[&id][frame % frames])
    }

    /// The key of limb `limb` of a piece (drawn from `frame`, [`Self::canonical_frame`]) and the
    /// pose that records it.
    fn key(
        &self,
        model: &VoxelModel,
        role: PieceRole,
        limb: usize,
        frame: usize,
        pose: &Pose,
    ) -> (Key, Pose) {
        let f = self.quantise(pose.facing);
        let upright = pose.is_upright();
        let mut record = *pose;
        record.facing = self.snap(pose.facing);
        let (facing, turret) = if role == PieceRole::Body {
            (f, 0)
        } else if upright {
            // The turret's whole rotation, quantised once (not its two parts, whose errors add).
            let total = self.quantise(pose.facing + pose.turret_facing);
            record.turret_facing = self.snap(pose.facing + pose.turret_facing) - record.facing;
            (total, 0)
        } else {
            let t = self.quantise(pose.turret_facing);
            record.turret_facing = self.snap(pose.turret_facing);
            (f, t)
        };
        let recoil = if role == PieceRole::Barrel {
            let q = (pose.recoil * RECOIL_STEPS).round();
            let q = if q.is_finite() {
                q.clamp(-1e6, 1e6)
            } else {
                0.0
            };
            record.recoil = q / RECOIL_STEPS;
            q as i32
        } else {
            0
        };
        let attitude = if upright {
            [0; 5]
        } else {
            [
                pose.tilt.to_bits(),
                pose.roll.to_bits(),
                pose.scale.x.to_bits(),
                pose.scale.y.to_bits(),
                pose.scale.z.to_bits(),
            ]
        };
        let key = Key {
            model: model as *const VoxelModel as usize,
            role,
            facing,
            turret,
            limb,
            frame,
            recoil,
            attitude,
            view: [0; 5],
        };
        (key, record)
    }
}

/// The unit with only the piece `role` of it.
fn only<'m>(unit: &Unit<'m>, role: PieceRole) -> Unit<'m> {
    Unit {
        body: unit.body.filter(|_| role == PieceRole::Body),
        turret: unit.turret.filter(|_| role == PieceRole::Turret),
        barrel: unit.barrel.filter(|_| role == PieceRole::Barrel),
    }
}

/// What draws one piece, in scene order.
#[derive(Clone, Copy)]
enum Slot {
    /// Blitted, limb by limb: `count` uses from `first`; `piece` indexes the one-piece instances.
    Blit {
        first: usize,
        count: usize,
        piece: usize,
    },
    /// Drawn directly: index into the direct pieces.
    Direct(usize),
}

/// Draw `instances` through `cache`: cached pieces blitted, the others drawn directly, opaque
/// pieces in scene order (so equal depths resolve as in the direct draw: the first drawn keeps
/// the pixel), translucent units after them far to near as [`super::draw`] draws them. Sizes are
/// checked by the caller.
pub(crate) fn draw_cached<'m, P: Shade>(
    cache: &mut DrawCache<'m>,
    instances: &[Instance<'m>],
    camera: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
    pixels: &mut [P],
    depth: &mut modex::DepthBuffer,
) -> Result<DrawStats, NoFrames> {
    let Some(context) = Context::of(camera, opts) else {
        cache.last = CacheStats {
            direct: instances.iter().map(|i| i.unit.pieces().count()).sum(),
            entries: cache.entries.len(),
            bytes: cache.bytes,
            ..CacheStats::default()
        };
        return P::draw_pixels(instances, camera, vpl, opts, pixels, depth);
    };
    if cache.context != Some(context) {
        cache.clear();
        cache.context = Some(context);
    }
    cache.tick += 1;
    let tick = cache.tick;
    let mut stats = CacheStats::default();

    // Sort every piece into blits (one per limb, with its key) or the direct draw, keeping
    // scene order.
    let mut slots: Vec<Slot> = Vec::new();
    let mut uses: Vec<Use> = Vec::new();
    let mut misses: Vec<Miss<'m>> = Vec::new();
    let mut pending: HashMap<Key, usize> = HashMap::new();
    let mut direct: Vec<Instance<'m>> = Vec::new();
    let mut translucent: Vec<Instance<'m>> = Vec::new();
    // The one-piece instance of each blitted piece, should a recording fail.
    let mut pieces: Vec<Instance<'m>> = Vec::new();
    for inst in instances {
        if !inst.pose.alpha.is_opaque() {
            translucent.push(*inst);
            stats.direct += inst.unit.pieces().count();
            continue;
        }
        let (origin, origin_depth) = project(camera, inst.pose.position);
        let cell = if context.perspective {
            ViewCell::of(camera, inst.pose.position)
        } else {
            None
        };
        for (role, model) in inst.unit.pieces() {
            let piece = Instance {
                unit: only(&inst.unit, role),
                pose: inst.pose,
            };
            let within = match (&cell, context.perspective) {
                (_, false) => true,
                (None, true) => false,
                (Some(c), true) => {
                    origin.is_finite() && c.error(camera, &piece, origin)? <= PERSPECTIVE_BOUND_PX
                }
            };
            if !origin.is_finite() || !origin_depth.is_finite() || !within {
                slots.push(Slot::Direct(direct.len()));
                direct.push(piece);
                stats.direct += 1;
                continue;
            }
            let first = uses.len();
            for limb in 0..model.vxl.limbs.len() {
                if model.volumes()[limb].voxel_count() == 0 {
                    continue;
                }
                let Some(frame) = cache.canonical_frame(model, limb, inst.pose.frame)? else {
                    continue;
                };
                let (mut key, record) = cache.key(model, role, limb, frame, &inst.pose);
                let position = match &cell {
                    Some(c) => {
                        key.view = c.cell;
                        c.canonical
                    }
                    None => on_pixel(camera, record.position),
                };
                if let Some(e) = cache.entries.get_mut(&key) {
                    e.last_used = tick;
                    stats.hits += 1;
                } else if let std::collections::hash_map::Entry::Vacant(v) = pending.entry(key) {
                    v.insert(misses.len());
                    misses.push(Miss {
                        key,
                        model,
                        limb,
                        instance: Instance {
                            unit: piece.unit,
                            pose: Pose { position, ..record },
                        },
                    });
                } else {
                    stats.hits += 1;
                }
                uses.push(Use {
                    key,
                    origin,
                    origin_depth,
                    phases: if cell.is_some() {
                        PERSPECTIVE_PHASES
                    } else {
                        1.0
                    },
                });
            }
            slots.push(Slot::Blit {
                first,
                count: uses.len() - first,
                piece: pieces.len(),
            });
            pieces.push(piece);
        }
    }

    // Record the misses, in parallel, each into its own scratch rows.
    let screen = Screen::new(camera);
    // The 8-bit translucency tables are the VPL's own, unless its palette was changed since.
    let own;
    let tables = match vpl.blend_tables() {
        Some(t) => t,
        None => {
            own = BlendTables::new(&vpl.palette);
            &own
        }
    };
    let mut recording_rays = 0;
    if !misses.is_empty() {
        let record_opts = RenderOptions {
            parallel: false,
            ..*opts
        };
        let record = |scratch: &mut Scratch, m: &Miss<'m>| {
            record(
                &m.instance,
                m.limb,
                camera,
                vpl,
                tables,
                &record_opts,
                scratch,
            )
        };
        // One scratch per worker, kept across draws (fresh full-width rows every draw cost page
        // faults), each taking an equal run of the misses in order.
        let workers = if opts.parallel {
            rayon::current_num_threads().clamp(1, misses.len())
        } else {
            1
        };
        if cache.scratch.len() < workers {
            cache.scratch.resize_with(workers, Scratch::default);
        }
        let run = misses.len().div_ceil(workers);
        let recorded: Vec<Result<Option<Recording>, NoFrames>> = if workers > 1 {
            let runs: Vec<Vec<_>> = cache.scratch[..workers]
                .par_iter_mut()
                .zip(misses.par_chunks(run))
                .map(|(scratch, ms)| ms.iter().map(|m| record(scratch, m)).collect())
                .collect();
            runs.into_iter().flatten().collect()
        } else {
            let scratch = &mut cache.scratch[0];
            misses.iter().map(|m| record(scratch, m)).collect()
        };
        let mut failed: Vec<Key> = Vec::new();
        for (m, r) in misses.iter().zip(recorded) {
            match r? {
                Some(rec) => {
                    stats.misses += 1;
                    recording_rays += rec.rays;
                    let bytes = rec.sprite.bytes()
                        + rec.limbs.len()
                            * (std::mem::size_of::<LimbShade>()
                                + std::mem::size_of::<SpriteLimb>());
                    cache.bytes += bytes;
                    cache.entries.insert(
                        m.key,
                        Entry {
                            model: m.model,
                            sprite: rec.sprite,
                            limbs: rec.limbs,
                            shades: Vec::new(),
                            light: None,
                            last_used: tick,
                            bytes,
                        },
                    );
                }
                None => failed.push(m.key),
            }
        }
        // A piece with a limb whose recording the screen edge cut is drawn directly this time,
        // wherever it is used (its limbs' uses had been counted as hits, but for the recorders).
        if !failed.is_empty() {
            let mut converted = 0;
            for slot in slots.iter_mut() {
                if let Slot::Blit {
                    first,
                    count,
                    piece,
                } = *slot
                {
                    let mine = &uses[first..first + count];
                    if mine.iter().any(|u| failed.contains(&u.key)) {
                        *slot = Slot::Direct(direct.len());
                        direct.push(pieces[piece]);
                        stats.direct += 1;
                        converted += mine.len();
                    }
                }
            }
            stats.hits = (stats.hits + failed.len()).saturating_sub(converted);
        }
    }

    // The direct pieces' jobs, one list per piece (so they keep their place among the blits),
    // and the translucent units' jobs, far to near, after everything opaque.
    let mut jobs: Vec<Vec<job::Job<'m>>> = Vec::with_capacity(direct.len());
    for piece in &direct {
        jobs.push(job::prepare(
            std::slice::from_ref(piece),
            camera,
            opts,
            vpl.page_count(),
        )?);
    }
    let translucent = job::prepare(&translucent, camera, opts, vpl.page_count())?;
    let pass = Pass {
        uses,
        slots,
        jobs: &jobs,
        translucent: &translucent,
        screen: &screen,
        tables,
        recording_rays,
    };
    finish(cache, stats, tick, pass, vpl, camera, pixels, depth, opts)
}

/// What one draw's banded pass draws, in order.
struct Pass<'p, 'j> {
    uses: Vec<Use>,
    slots: Vec<Slot>,
    /// Per direct piece, its jobs.
    jobs: &'p [Vec<job::Job<'j>>],
    /// The translucent units' jobs, far to near.
    translucent: &'p [job::Job<'j>],
    screen: &'p Screen,
    tables: &'p BlendTables,
    /// Rays cast recording this draw's misses.
    recording_rays: usize,
}

/// The shading refresh, the banded draw of every slot and the eviction.
#[allow(clippy::too_many_arguments)]
fn finish<'m, P: Shade>(
    cache: &mut DrawCache<'m>,
    mut stats: CacheStats,
    tick: u64,
    pass: Pass<'_, '_>,
    vpl: &Vpl,
    camera: &Camera,
    pixels: &mut [P],
    depth: &mut modex::DepthBuffer,
    opts: &RenderOptions,
) -> Result<DrawStats, NoFrames> {
    let Pass {
        uses,
        slots,
        jobs,
        translucent,
        screen,
        tables,
        recording_rays,
    } = pass;
    // Shading tables for this draw's light, rebuilt only where the light changed.
    let light = LightKey::of(opts, vpl.page_count());
    let refresh = |e: &mut Entry<'m>| {
        if e.last_used == tick && e.light != Some(light) {
            e.shades = e
                .limbs
                .iter()
                .map(|l| limb_shade(e.model, l.limb, l.linear, opts, light.pages, Some(&l.used)))
                .collect();
            e.light = Some(light);
        }
    };
    if opts.parallel {
        cache.entries.par_iter_mut().for_each(|(_, e)| refresh(e));
    } else {
        cache.entries.values_mut().for_each(refresh);
    }

    // Every piece in scene order, then the translucent jobs, in row bands.
    let mut limbs = 0;
    let mut items: Vec<Item<'_, '_>> = Vec::with_capacity(slots.len() + 1);
    for slot in &slots {
        match *slot {
            Slot::Blit { first, count, .. } => {
                for u in &uses[first..first + count] {
                    let Some(e) = cache.entries.get(&u.key) else {
                        continue;
                    };
                    let s = &e.sprite;
                    let (at, _) = anchor(u.origin, u.phases);
                    // Far off screen (and beyond any i64 arithmetic on its rows): nothing to draw.
                    if at.abs().max_element() > 1e9 {
                        continue;
                    }
                    limbs += 1;
                    stats.pixels += s.colour.len();
                    items.push(Item::Blit(Blit {
                        entry: e,
                        x: s.corner.0 + at.x as i64,
                        y: s.corner.1 + at.y as i64,
                        depth: u.origin_depth,
                    }));
                }
            }
            Slot::Direct(d) => {
                limbs += jobs[d].len();
                items.push(Item::Jobs(&jobs[d]));
            }
        }
    }
    limbs += translucent.len();
    items.push(Item::Jobs(translucent));
    let rays = draw_bands(
        &items,
        vpl,
        (screen, tables),
        camera.width,
        pixels,
        depth.values_mut(),
        opts.parallel,
    );
    drop(items);

    // Stay within the budget: the least recently used go first, never this draw's.
    if cache.bytes > cache.budget {
        let mut old: Vec<(u64, Key, usize)> = cache
            .entries
            .iter()
            .filter(|(_, e)| e.last_used < tick)
            .map(|(k, e)| (e.last_used, *k, e.bytes))
            .collect();
        old.sort_by_key(|&(t, _, _)| t);
        for (_, k, bytes) in old {
            if cache.bytes <= cache.budget {
                break;
            }
            cache.entries.remove(&k);
            cache.bytes -= bytes;
            stats.evicted += 1;
        }
    }
    stats.entries = cache.entries.len();
    stats.bytes = cache.bytes;
    cache.last = stats;
    Ok(DrawStats {
        limbs,
        rays: rays + recording_rays,
        ..DrawStats::default()
    })
}

/// One thing the banded pass draws.
enum Item<'c, 'j> {
    Blit(Blit<'c>),
    Jobs(&'j [job::Job<'j>]),
}

/// Reused buffers of one recording thread: full-width rows, since the jobs address the screen.
#[derive(Default)]
struct Scratch {
    pixels: Vec<Found>,
    depth: Vec<f32>,
}

/// A recorded sprite and its limbs.
struct Recording {
    sprite: Sprite,
    limbs: Vec<SpriteLimb>,
    /// Rays the recording cast (counted in the draw's statistics).
    rays: usize,
}

/// Draw the one-piece `instance` alone through the direct path (jobs, march or splat) into
/// scratch rows and keep what it covered. `None` when the screen cuts a limb.
#[allow(clippy::too_many_arguments)]
fn record(
    instance: &Instance<'_>,
    limb: usize,
    camera: &Camera,
    vpl: &Vpl,
    tables: &BlendTables,
    opts: &RenderOptions,
    scratch: &mut Scratch,
) -> Result<Option<Recording>, NoFrames> {
    let screen = &Screen::new(camera);
    let mut jobs = job::prepare(
        std::slice::from_ref(instance),
        camera,
        opts,
        vpl.page_count(),
    )?;
    jobs.retain(|j| j.limb == limb);
    if jobs.len() != 1 || jobs[0].clipped {
        return Ok(None);
    }
    // The unit's origin is on a pixel corner (`on_pixel`, or a perspective cell's anchor); the
    // sprite is kept relative to it.
    let (origin, origin_depth) = project(camera, instance.pose.position);
    let (anchor, _) = anchor(origin, PERSPECTIVE_PHASES);
    let anchor = (anchor.x as i64, anchor.y as i64);
    let mut limbs: Vec<SpriteLimb> = jobs
        .iter()
        .map(|j| SpriteLimb {
            limb: j.limb,
            linear: j.linear,
            used: [false; 256],
        })
        .collect();
    let width = camera.width;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (k, j) in jobs.iter_mut().enumerate() {
        j.shade = tag_shade(k);
        x0 = x0.min(j.rect[0]);
        y0 = y0.min(j.rect[1]);
        x1 = x1.max(j.rect[2]);
        y1 = y1.max(j.rect[3]);
    }
    let mut sprite = Sprite {
        corner: (x0.min(x1) as i64 - anchor.0, y0.min(y1) as i64 - anchor.1),
        rows: y1.saturating_sub(y0) as u32,
        spans: Vec::new(),
        colour: Vec::new(),
        normal: Vec::new(),
        depth: Vec::new(),
    };
    if jobs.is_empty() {
        return Ok(Some(Recording {
            sprite,
            limbs,
            rays: 0,
        }));
    }
    let n = (y1 - y0) * width;
    if scratch.depth.len() < n {
        scratch.depth.resize(n, f32::INFINITY);
        scratch.pixels.resize(n, Found::default());
    }
    let (px, dp) = (&mut scratch.pixels[..n], &mut scratch.depth[..n]);
    let rays = march::march_band(screen, &jobs, vpl, tables, y0, px, dp);
    for y in y0..y1 {
        let row = (y - y0) * width;
        let mut open: Option<usize> = None;
        for x in x0..=x1 {
            let i = row + x;
            let covered = x < x1 && dp[i].is_finite();
            let limb = if covered { px[i].limb() } else { u32::MAX };
            if let Some(k) = open {
                if sprite.spans[k].limb != limb {
                    open = None;
                }
            }
            if !covered {
                continue;
            }
            let f = px[i];
            if open.is_none() {
                sprite.spans.push(Span {
                    row: (y - y0) as u32,
                    x: (x - x0) as u32,
                    len: 0,
                    limb,
                    start: sprite.colour.len() as u32,
                });
                open = Some(sprite.spans.len() - 1);
            }
            if let Some(k) = open {
                sprite.spans[k].len += 1;
            }
            sprite.colour.push(f.colour());
            sprite.normal.push(f.normal());
            if let Some(l) = limbs.get_mut(limb as usize) {
                l.used[f.normal() as usize] = true;
            }
            sprite.depth.push(dp[i] - origin_depth);
            dp[i] = f32::INFINITY;
        }
    }
    Ok(Some(Recording {
        sprite,
        limbs,
        rays,
    }))
}

/// A sprite placed for this draw.
struct Blit<'c> {
    entry: &'c Entry<'c>,
    /// Screen position of its top-left pixel.
    x: i64,
    y: i64,
    /// This origin's view depth, to which the stored offsets are added.
    depth: f32,
}

/// Draw every item, in order, over row bands of `pixels` and `depth` (`width` wide), on the
/// current rayon pool when `parallel`: the direct draw's banding, and every pixel sees the items
/// in the same order whatever the banding, so any thread count gives the same pixels. Returns the
/// rays the direct items cast.
fn draw_bands<P: Shade>(
    items: &[Item<'_, '_>],
    vpl: &Vpl,
    (screen, tables): (&Screen, &BlendTables),
    width: usize,
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
) -> usize {
    march::over_bands(width, pixels, depth, parallel, |y0, p, d| {
        let mut rays = 0;
        for item in items {
            match item {
                Item::Blit(b) => blit(b, vpl, width, y0, p, d),
                Item::Jobs(jobs) => {
                    rays += march::march_band(screen, jobs, vpl, tables, y0, p, d);
                }
            }
        }
        rays
    })
}

/// Blit the sprite's rows that fall in band rows `y0..` (`pixels.len() / width` of them): per
/// covered run, a depth-tested copy shaded by the run's limb.
#[inline]
fn blit<P: Shade>(
    b: &Blit<'_>,
    vpl: &Vpl,
    width: usize,
    y0: usize,
    pixels: &mut [P],
    depth: &mut [f32],
) {
    let rows = pixels.len() / width.max(1);
    let (band_top, band_end) = (y0 as i64, (y0 + rows) as i64);
    let w = width as i64;
    {
        let s = &b.entry.sprite;
        if b.y >= band_end || b.y + s.rows as i64 <= band_top || s.spans.is_empty() {
            return;
        }
        // The sprite's rows inside the band.
        let first = (band_top - b.y).max(0) as u32;
        let last = (band_end - b.y).min(s.rows as i64) as u32;
        let from = if first == 0 {
            0
        } else {
            s.spans.partition_point(|sp| sp.row < first)
        };
        for sp in s.spans[from..].iter().take_while(|sp| sp.row < last) {
            let y = b.y + sp.row as i64;
            let xa = b.x + sp.x as i64;
            let (lo, hi) = (xa.max(0), (xa + sp.len as i64).min(w));
            if lo >= hi {
                continue;
            }
            let skip = (lo - xa) as usize;
            let n = (hi - lo) as usize;
            let start = sp.start as usize + skip;
            let at = (y - band_top) as usize * width + lo as usize;
            let shade = &b.entry.shades[sp.limb as usize];
            let src = start..start + n;
            let (colour, normal, offset) = (
                &s.colour[src.clone()],
                &s.normal[src.clone()],
                &s.depth[src],
            );
            let (dst_p, dst_d) = (&mut pixels[at..at + n], &mut depth[at..at + n]);
            // Branch-free: in a crowd drawn nearest first the depth test is unpredictable, and a
            // shade is two table reads (measured: see docs/benchmarks.md, Round 6).
            for k in 0..n {
                let z = b.depth + offset[k];
                let d = dst_d[k];
                let front = z < d;
                let lit = P::shade(vpl, shade, colour[k], normal[k]);
                // `min` is the select for depths (never NaN here; equal depths keep the old),
                // and indexing a pair is one for pixels, neither compiled to a branch.
                dst_d[k] = z.min(d);
                dst_p[k] = [dst_p[k], lit][front as usize];
            }
        }
    }
}
