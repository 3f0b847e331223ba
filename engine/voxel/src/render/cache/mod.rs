//! The voxel draw cache: what Westwood built for Tiberian Sun and Red Alert 2. Each limb of a
//! unit piece (body, turret, barrel) is drawn once per cache key, by the direct draw (march or
//! splat), into a small sprite that keeps, per covered pixel, the voxel's colour index and normal
//! index and its view depth *relative to the unit's origin*; later draws of the same key blit the
//! sprite depth-tested at the origin's pixel, at depth = the origin's view depth + the stored
//! offset. The depth buffer holds view depth (distance along the view axis, what the direct draw
//! and the rasterizer write, for both projections), which is affine in world space, so the offsets
//! are exact for both projections.
//!
//! **Orthographic cameras only** (the Westwood games' projection). A perspective picture of a
//! unit also depends on where it is seen from, so a sprite would serve only units seen from
//! nearly the same place. That was built and measured (a key with the origin's *view cell*:
//! direction in 0.7-degree steps, depth in 0.5 % steps, within 0.5 pixel of the exact corners) and
//! removed (issue 30): on the 1000-unit 1080p battlefield about half the ~2 000 pieces recorded
//! again every frame, and a recording costs a direct draw plus extracting its spans, so the cached
//! perspective frame was slower than the direct one (12.0 against 19.6 frames/s;
//! docs/benchmarks-history.md, "Round 6b", and docs/benchmarks.md, issue 30). A perspective draw
//! through the cache is the direct draw ([`key::Context::of`] is `None`), counted as direct.
//!
//! **Why shade at the blit.** The sprite stores what the marcher or the splat found, not the lit
//! pixel: the blit shades it with the limb's table for this draw's light
//! ([`LimbShade`](super::light::LimbShade), the same per-format `Shade::shade` as the direct
//! draw), so one entry serves the 8-bit and the true-colour paths, and a moving sun (the demo's)
//! invalidates nothing. Each entry rebuilds its table when the light changes, for the normal
//! indices its pixels use only.
//!
//! **Key** ([`DrawCache`]): the model (by identity: the cache borrows the models for its lifetime,
//! so an address is never reused while it lives), the piece (body, turret, barrel), the limb, the
//! facing rounded to [`DrawCache::facings`] per turn (default [`DEFAULT_FACINGS`] = the game's 256
//! steps): the body's facing, and for turret and barrel body + turret facing rounded once, which is
//! their whole rotation on an upright unit; the first HVA frame in which the limb has its current
//! matrix (a limb the animation does not move has one entry); the barrel's recoil in
//! [`RECOIL_STEPS`](key::RECOIL_STEPS) per unit; and, for a tilted, rolled or scaled unit
//! (plugins), both facings and the exact bits of tilt, roll and scale. Not in the key: the position. Camera and options are the
//! cache's *context*: a change of the camera's orientation, projection or viewport (exact bits; the
//! eye's position excluded: it only moves an orthographic picture) or of the splat rule empties
//! the cache.
//!
//! **Phase.** A sprite is recorded with its unit's origin moved (in the screen plane) onto the
//! nearest pixel corner, and blitted with the origin rounded to the nearest corner: so every sprite
//! of a key is the same picture whoever recorded it, the pieces of a unit stay aligned with each
//! other, and a frame drawn through a warm cache is the frame drawn through a cold one (up to
//! rounding where a voxel's edge passes exactly through a pixel centre).
//!
//! **What is drawn directly** (in its place in scene order, so equal depths resolve as before):
//! translucent and invisible units (after everything opaque, far to near, as today), and a piece
//! with a limb the screen edge cuts when it would be recorded.
//!
//! **Error bound** (tested in `engine/voxel/tests/draw_cache.rs` on the demo's units at the 1080p
//! battlefield's scale). A hit at a pose whose facings are on their steps and whose origin is on a
//! pixel corner draws exactly the direct draw's pixels and depths (depth offsets are exact by
//! Sterbenz's lemma). At any other pose the blit is the direct draw of the pose snapped to its key
//! (facings to their steps, at most half a step; origin to its pixel corner, at most half a pixel
//! each way) up to 0.5 % of the unit's pixels; against the direct draw of the pose itself at most
//! 25 % of the unit's covered pixels differ (10 % on average over 60 random poses; each differing
//! pixel has one of its colour within one pixel in the direct draw) and at most 5 % show a colour
//! the direct draw has nowhere within one pixel (face slivers that half a step of rotation shows
//! or hides).
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

mod blit;
mod key;
mod plan;
mod record;
mod store;

use modex::{BlendTables, Camera, DrawStats};

use super::job::{self, Job};
use super::march::{DrawContext, Screen};
use super::pixel::Shade;
use super::RenderOptions;
use crate::model::NoFrames;
use crate::scene::Instance;
use key::Context;
use modex_vxl::Vpl;
use plan::Plan;
use record::Recorder;

pub use key::DEFAULT_FACINGS;
pub use store::{CacheStats, DrawCache, DEFAULT_BUDGET_BYTES};

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
    cache.begin(context);
    let mut plan = Plan::sort(cache, instances, camera)?;

    let mut fresh = None;
    let tables: &BlendTables = super::blend_tables(vpl, &mut fresh);
    let recorder = Recorder::new(camera, vpl, tables, opts);
    let recording_rays = plan.record(cache, &recorder, opts.parallel)?;

    // The direct pieces' jobs, one list per piece (so they keep their place among the blits),
    // and the translucent units' jobs, far to near, after everything opaque.
    let pages = vpl.page_count();
    let mut jobs: Vec<Vec<Job<'m>>> = Vec::with_capacity(plan.direct.len());
    for piece in &plan.direct {
        jobs.push(job::prepare(
            std::slice::from_ref(piece),
            camera,
            opts,
            pages,
        )?);
    }
    let translucent = job::prepare(&plan.translucent, camera, opts, pages)?;

    cache.refresh_shades(opts, pages);
    let (items, limbs, blitted) = plan.items(cache, &jobs, &translucent);
    let screen = Screen::new(camera);
    let ctx = DrawContext {
        screen: &screen,
        vpl,
        tables,
    };
    let rays = blit::draw_bands(&items, &ctx, pixels, depth.values_mut(), opts.parallel);
    drop(items);

    let mut stats = plan.stats;
    stats.pixels += blitted;
    cache.evict(&mut stats);
    stats.entries = cache.entries.len();
    stats.bytes = cache.bytes;
    cache.last = stats;
    Ok(DrawStats {
        limbs,
        rays: rays + recording_rays,
        ..DrawStats::default()
    })
}
