//! Coarse occlusion: a max-depth buffer of 8x8-pixel tiles over one band, tested before a limb or
//! a rasterised voxel is drawn, so work that would fail every depth test is never set up.
//!
//! Why: in the 1000-unit 1080p battlefield (perspective, units drawn nearest first) the splats
//! depth-test about 7.5 M face pixels per frame for 1.2 M pixels that end up showing a unit
//! (docs/benchmarks-history.md, "Round 7"): most tested pixels lose to nearer units. [`Footprint::hidden`]
//! catches a limb only when every pixel of its outline is covered, pixel by pixel; a tile's
//! largest depth answers for 64 pixels at once, and is cheap enough to ask per voxel.
//!
//! Exact by construction: a tile's recorded maximum is never below the largest depth its pixels
//! hold. Depths in a band only ever decrease while it is drawn (opaque draws write `z < d`,
//! translucent ones write no depth), so a maximum computed earlier is still an upper bound, and
//! a tile is only recomputed (from the band's depths) before it is asked about, after a job drew
//! over it ([`TileDepth::touched_footprint`]; until then a stale tile keeps its older bound).
//! Something whose every depth is at least `near` cannot pass the depth test anywhere in tiles whose maximum is below `near`,
//! so skipping it changes no pixel (tested against the unskipped draw in the tests below).
//!
//! What it costs is spent only where it may pay (measured: without these gates the 100-unit
//! frame took 9 % more instructions): a limb none of nine sampled pixels of whose rectangle is
//! nearer than it skips the tiles altogether, and a limb's rasterised voxels are tested one by one,
//! before their faces are set up, only when a quarter of its tiles are nearer than all of it
//! ([`Seen::Partly`]; [`TileDepth::hides_voxel`]), and when half of them are, a brick of 4 x 4
//! columns at a time first ([`Seen::Mostly`]; [`TileDepth::hides_box`], `splat::brick`: a hidden
//! brick's voxels are skipped without a test each). Whole voxel columns were tested before
//! (`hides_column`); with the voxel test in place that test cost 38 M instructions of the
//! 1000-unit 1080p frame for what the voxel test rejects anyway, and was removed
//! (docs/benchmarks.md, "Issue 43").
//!
//! The tiles are kept up to date per job, not per pixel: a job marks the tiles it drew over
//! stale, and the next job to ask recomputes them from the band's depths (units are drawn nearest
//! first, so what hides a limb was drawn by earlier jobs). Where a tile cannot answer for a voxel
//! (it also holds a farther depth, at the edges of the units in front, or it went stale), the
//! voxel's own pixels in that tile are read, so the voxel test is exact against the depths as
//! they are when the voxel comes (lever 4 in docs/benchmarks.md). Coverage masks updated as
//! each face row is tested were measured and dropped: they cost more than the faces they removed.

use super::convert::truncate;
use super::footprint::Footprint;
use glam::{Vec4, Vec4Swizzles};

/// Tile side in pixels.
const TILE: usize = 8;

/// What the tiles say about a job in one band ([`TileDepth::hides_footprint`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// Every tile under it holds only nearer depths: it cannot show.
    Hidden,
    /// Half or more of the tiles under it hold only nearer depths: as [`Seen::Partly`], and its
    /// voxels are worth testing a brick of columns at a time first (`render::splat`'s bricks:
    /// under half, most bricks are found not hidden and their tests are wasted).
    Mostly,
    /// A quarter or more of the tiles under it hold only nearer depths: some of its voxels may
    /// be hidden, so they are tested one by one.
    Partly,
    /// Too little of it is under nearer tiles to test its voxels.
    Whole,
}

/// The tiles of one band of rows: each tile's largest depth (an upper bound; infinite while the
/// tile is stale), and whether it is stale (a job drew over it since it was computed; all tiles
/// start stale, so a band pays only for the tiles some limb asks about).
pub(crate) struct TileDepth {
    /// Width of the band in pixels.
    width: usize,
    /// First row of the band (screen rows).
    y0: usize,
    /// Rows in the band.
    rows: usize,
    /// Tiles per tile row.
    across: usize,
    /// `y0` as a float, converted once, not per voxel ([`TileDepth::hides_voxel`]).
    y0_f: f32,
    max: Vec<f32>,
    stale: Vec<bool>,
    /// The tile columns the outline of the footprint last asked about
    /// ([`TileDepth::hides_footprint`]) reaches in each of its tile rows, from tile row
    /// `asked` on (`None` when that ask did not work them out): the tiles
    /// [`TileDepth::touched_asked`] marks stale once that job has drawn. Working them out once
    /// instead of twice a job (each row's span walks the outline's twelve edges) saved most of
    /// the marking's cost (docs/benchmarks.md, issue 43).
    asked: Option<usize>,
    spans: Vec<(usize, usize)>,
}

impl TileDepth {
    /// The tiles over a band of `rows` rows from screen row `y0`, `width` wide; `None` when
    /// coarse occlusion is off (then every caller draws as without it).
    pub fn for_band(width: usize, y0: usize, rows: usize, enabled: bool) -> Option<TileDepth> {
        if !enabled || width == 0 || rows == 0 {
            return None;
        }
        let across = width.div_ceil(TILE);
        let n = across * rows.div_ceil(TILE);
        Some(TileDepth {
            width,
            y0,
            rows,
            across,
            y0_f: y0 as f32,
            max: vec![f32::INFINITY; n],
            stale: vec![true; n],
            asked: None,
            spans: Vec::new(),
        })
    }

    /// Tile columns and rows (band-relative, exclusive ends) over screen rectangle `rect`
    /// (x0, y0, x1, y1, exclusive), widened by one pixel on every side and clipped to the band.
    #[inline]
    fn tiles_of(&self, rect: [usize; 4]) -> Option<(usize, usize, usize, usize)> {
        let x0 = rect[0].saturating_sub(1);
        let x1 = rect[2].saturating_add(1).min(self.width);
        let y0 = rect[1].saturating_sub(1).max(self.y0) - self.y0;
        let y1 = rect[3].saturating_add(1).min(self.y0 + self.rows);
        let y1 = y1.checked_sub(self.y0)?;
        (x0 < x1 && y0 < y1).then(|| {
            (
                x0 / TILE,
                (x1 - 1) / TILE + 1,
                y0 / TILE,
                (y1 - 1) / TILE + 1,
            )
        })
    }

    /// Recompute every stale tile over `rect` from the band's `depth` ([`TileDepth::hides_footprint`]
    /// does this as it asks).
    #[cfg(test)]
    pub fn refresh(&mut self, rect: [usize; 4], depth: &[f32]) {
        let Some((tx0, tx1, ty0, ty1)) = self.tiles_of(rect) else {
            return;
        };
        for ty in ty0..ty1 {
            for tx in tx0..tx1 {
                self.current(ty * self.across + tx, tx, ty, depth);
            }
        }
    }

    /// Tile `t` = (`tx`, `ty`)'s maximum, recomputed first when stale.
    #[inline]
    fn current(&mut self, t: usize, tx: usize, ty: usize, depth: &[f32]) -> f32 {
        if self.stale[t] {
            self.max[t] = self.compute(tx, ty, depth);
            self.stale[t] = false;
        }
        self.max[t]
    }

    /// The largest depth of tile (`tx`, `ty`) in the band's `depth`. A NaN pixel is left out: it
    /// fails every depth test (`z < NaN` is false), so nothing can ever be drawn there.
    #[inline(always)]
    fn compute(&self, tx: usize, ty: usize, depth: &[f32]) -> f32 {
        let x0 = tx * TILE;
        let n = TILE.min(self.width - x0);
        let (r0, r1) = (ty * TILE, ((ty + 1) * TILE).min(self.rows));
        if n == TILE && r1 - r0 == TILE {
            return full_tile_max(depth, r0 * self.width + x0, self.width);
        }
        tile_max(self.width, self.rows, tx, ty, depth)
    }
}

/// Where in a tile its maximum lies: row times [`TILE`] plus column ([`UNKNOWN`]: no pixel holds
/// it, or it was not looked for). A crowded band keeps one per tile beside its [`TileDepth`]
/// ([`Places`]).
///
/// Why: while that pixel still holds the maximum, a stale tile's maximum is unchanged
/// ([`refreshed`]). Of the 177 k tiles refreshed in the 1000-unit 1080p perspective frame,
/// 139 k had the maximum they had before (the ground's or another farther pixel that the limb
/// which made them stale did not cover), each a full read of its 64 depths (docs/benchmarks.md,
/// issue 43, "Levers 30-"). In a band that is not crowded a tile is seldom refreshed more than
/// once or twice, and looking for the place after each computation costs more than it saves.
pub(crate) type Place = u8;
/// No known place ([`Place`]).
const UNKNOWN: Place = 0xff;

/// The places of a band's tiles' maxima ([`Place`]), beside its [`TileDepth`] (not a field of
/// it: the voxel test, inlined into the splats' loops, reads the tiles, and a field more moved
/// their registers, +0.5 M instructions a 1000-unit frame). Empty: not kept.
#[derive(Default)]
pub(crate) struct Places(Vec<Place>);

impl Places {
    /// The places of a crowded band's `tiles`, none known yet.
    pub fn of(tiles: &TileDepth) -> Places {
        Places(vec![UNKNOWN; tiles.max.len()])
    }

    /// Whether none are kept (the band is not crowded).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Whether a stale tile (`tx`, `ty`) of a band `width` wide whose maximum `m` was found at
/// `place` still has it: that pixel still holds `m`. Exact: depths in a band only ever decrease
/// while it is drawn (module doc), so every other pixel is still at most `m` (a NaN pixel is
/// left out of the maximum and never written), and `m` is what a recompute would give. A place
/// always names a pixel of its own tile ([`tile_at`]), so any place kept answers rightly.
#[inline(always)]
fn refreshed(m: f32, place: Place, (width, tx, ty): (usize, usize, usize), depth: &[f32]) -> bool {
    if place == UNKNOWN {
        return false;
    }
    let (r, c) = (usize::from(place >> 3), usize::from(place & 7));
    depth
        .get((ty * TILE + r) * width + tx * TILE + c)
        .is_some_and(|d| d.to_bits() == m.to_bits())
}

/// Where in tile (`tx`, `ty`) of a band `width` wide and `rows` tall its maximum `m` lies (its
/// first pixel with the same bits), [`UNKNOWN`] when no pixel holds it (an all-NaN tile, or one
/// past `depth`'s end).
#[inline(never)]
fn tile_at(width: usize, rows: usize, (tx, ty): (usize, usize), m: f32, depth: &[f32]) -> Place {
    let x0 = tx * TILE;
    let n = TILE.min(width - x0);
    let (r0, r1) = (ty * TILE, ((ty + 1) * TILE).min(rows));
    for r in r0..r1 {
        let a = r * width + x0;
        let Some(row) = depth.get(a..a + n) else {
            return UNKNOWN;
        };
        if let Some(i) = row.iter().position(|d| d.to_bits() == m.to_bits()) {
            return ((r - r0) * TILE + i) as Place;
        }
    }
    UNKNOWN
}

/// [`tile_at`] of a whole tile whose top left pixel is `depth[a]` and whose rows are `width`
/// apart ([`full_tile_max`]), eight pixels of a row compared at a time (a float compare: for a
/// maximum of zero it may find a zero of the other sign, and [`refreshed`] then answers no, as
/// for an unknown place).
#[inline(never)]
fn full_tile_at(depth: &[f32], a: usize, width: usize, m: f32) -> Place {
    let mv = Vec4::splat(m);
    for r in 0..TILE {
        let Some(row) = depth
            .get(a + r * width..)
            .and_then(|d| d.first_chunk::<TILE>())
        else {
            return UNKNOWN;
        };
        let lo = Vec4::from_slice(&row[..4]).cmpeq(mv).bitmask();
        let hi = Vec4::from_slice(&row[4..]).cmpeq(mv).bitmask();
        let lanes = lo | hi << 4;
        if lanes != 0 {
            return (r * TILE) as Place + lanes.trailing_zeros() as Place;
        }
    }
    UNKNOWN
}

/// [`TileDepth::compute`] of any tile of a band `width` wide and `rows` tall, row by row.
fn tile_max(width: usize, rows: usize, tx: usize, ty: usize, depth: &[f32]) -> f32 {
    let x0 = tx * TILE;
    let n = TILE.min(width - x0);
    let (r0, r1) = (ty * TILE, ((ty + 1) * TILE).min(rows));
    let mut lanes = [f32::NEG_INFINITY; TILE];
    for r in r0..r1 {
        let a = r * width + x0;
        let Some(row) = depth.get(a..a + n) else {
            return f32::INFINITY;
        };
        // `d > m` is false for a NaN `d`: the select (SSE's `maxps`) keeps `m`.
        if let Ok(row) = <&[f32; TILE]>::try_from(row) {
            for (m, &d) in lanes.iter_mut().zip(row) {
                *m = if d > *m { d } else { *m };
            }
        } else {
            for (m, &d) in lanes.iter_mut().zip(row) {
                *m = if d > *m { d } else { *m };
            }
        }
    }
    lanes
        .iter()
        .fold(f32::NEG_INFINITY, |m, &d| if d > m { d } else { m })
}

impl TileDepth {
    /// The tile columns (exclusive end) of tile row `ty` that the outline of `footprint`
    /// reaches, within `tx0..tx1`; `outline` is [`Outline::of`] that footprint.
    #[inline]
    fn outline_row(
        &self,
        footprint: &Footprint,
        outline: Option<&Outline>,
        ty: usize,
        (tx0, tx1): (usize, usize),
    ) -> (usize, usize) {
        let top = (self.y0 + ty * TILE) as f32;
        let (s0, s1) = (top - 1.0, top + TILE as f32 + 1.0);
        let (x0, x1) = match outline {
            Some(outline) => outline.strip_span(s0, s1),
            None => footprint.strip_span(s0, s1),
        };
        let (x0, x1) = (
            x0.saturating_sub(1).max(tx0 * TILE),
            (x1 + 1).min(tx1 * TILE),
        );
        if x0 >= x1 {
            return (0, 0);
        }
        (x0 / TILE, (x1 - 1) / TILE + 1)
    }

    /// A job with `footprint` drew: the tiles its outline reaches are stale, recomputed before
    /// they are next asked about by a job. Their maxima stay as they were meanwhile: drawing only
    /// lowers depths, so they are still upper bounds.
    pub fn touched_footprint(&mut self, footprint: &Footprint) {
        let Some((tx0, tx1, ty0, ty1)) = self.tiles_of(footprint.rect) else {
            return;
        };
        let outline = Outline::of(footprint);
        for ty in ty0..ty1 {
            let (a, b) = self.outline_row(footprint, outline.as_ref(), ty, (tx0, tx1));
            let row = ty * self.across;
            if let Some(s) = self.stale.get_mut(row + a..row + b) {
                s.fill(true);
            }
        }
    }

    /// [`TileDepth::touched_footprint`] of the footprint the last [`TileDepth::hides_footprint`]
    /// asked about, from the spans that ask worked out; false (nothing marked) when it did not
    /// work them out (it answered from the rectangle alone), and then the caller marks the
    /// footprint itself. Only for the job asked about last: the caller knows which that was.
    pub fn touched_asked(&mut self) -> bool {
        let Some(ty0) = self.asked.take() else {
            return false;
        };
        for (ty, &(a, b)) in (ty0..).zip(&self.spans) {
            let row = ty * self.across;
            if let Some(s) = self.stale.get_mut(row + a..row + b) {
                s.fill(true);
            }
        }
        true
    }

    /// The job last asked about ([`TileDepth::hides_footprint`]), whose outline is `footprint`,
    /// drew: its tiles are stale, marked from the spans that ask worked out
    /// ([`TileDepth::touched_asked`]), else by walking the outline again
    /// ([`TileDepth::touched_footprint`]). The caller knows which job was asked about last.
    #[inline]
    pub fn touched_by_asked(&mut self, footprint: &Footprint) {
        if !self.touched_asked() {
            self.touched_footprint(footprint);
        }
    }

    /// A job drew into `rect`: its tiles are stale until refreshed.
    #[cfg(test)]
    pub fn touched(&mut self, rect: [usize; 4]) {
        let Some((tx0, tx1, ty0, ty1)) = self.tiles_of(rect) else {
            return;
        };
        for ty in ty0..ty1 {
            let row = ty * self.across;
            self.stale[row + tx0..row + tx1].fill(true);
            self.max[row + tx0..row + tx1].fill(f32::INFINITY);
        }
    }

    /// Whether every tile over `rect` holds only depths below `near`: then nothing in `rect` at
    /// depth `near` or beyond can be drawn.
    #[cfg(test)]
    fn covers(&self, rect: [usize; 4], near: f32) -> bool {
        let Some((tx0, tx1, ty0, ty1)) = self.tiles_of(rect) else {
            return false;
        };
        let hidden = (ty0..ty1).all(|ty| {
            let row = ty * self.across;
            self.max
                .get(row + tx0..row + tx1)
                .is_some_and(|m| m.iter().all(|&m| m < near))
        });
        #[cfg(test)]
        tests::SKIPS.with(|s| s.set(s.get() + usize::from(hidden)));
        hidden
    }

    /// What the tiles under a job's `footprint` (refreshed from the band's `depth` first) say:
    /// [`Seen`] against its box's nearest view depth.
    pub fn hides_footprint(&mut self, footprint: &Footprint, depth: &[f32]) -> Seen {
        self.hides_footprint_in::<false>(footprint, depth, &mut [])
    }

    /// [`TileDepth::hides_footprint`] in a crowded band, a stale tile refreshed only when the
    /// place of its maximum in `places` ([`Places::of`] this band) no longer holds it
    /// ([`Place`]), and the place of a maximum it recomputes noted there.
    pub fn hides_footprint_at(
        &mut self,
        footprint: &Footprint,
        depth: &[f32],
        places: &mut Places,
    ) -> Seen {
        self.hides_footprint_in::<true>(footprint, depth, &mut places.0)
    }

    /// [`TileDepth::hides_footprint`] (`PLACES` false: `places` unread) and
    /// [`TileDepth::hides_footprint_at`], apart so that the band without places runs the loop it
    /// ran before them, with no test of `places` per tile row.
    #[inline(always)]
    fn hides_footprint_in<const PLACES: bool>(
        &mut self,
        footprint: &Footprint,
        depth: &[f32],
        places: &mut [Place],
    ) -> Seen {
        // Splatted faces reach past the box by `FACE_LIMIT`'s 1e-4 of a cell; the margin is far
        // above that and the roundings of the two ways the depth is computed.
        let near = footprint.nearest - 1e-4 * footprint.nearest.abs() - 1e-2;
        self.asked = None;
        let Some((tx0, tx1, ty0, ty1)) = self.tiles_of(footprint.rect) else {
            return Seen::Whole;
        };
        if near.is_nan() || self.surely_seen(footprint.rect, near, depth) {
            return Seen::Whole;
        }
        let (mut all, mut under, mut tiles) = (true, 0usize, 0usize);
        self.spans.clear();
        let outline = Outline::of(footprint);
        // The job draws only within its outline (`Footprint::row_span`), so only the tiles that
        // reaches decide whether it is hidden, and only they are refreshed: its voxels' boxes lie
        // within it too. (The column tests of earlier rounds gained from the whole rectangle's
        // tiles; with the voxel test's pixel fallback the tiles beside the outline saved
        // nothing: 1000-unit 1080p frame, tile refresh 54.1 -> 48.9 M instructions, the limbs'
        // draws unchanged to the 0.1 M. Lever 7 in docs/benchmarks.md.)
        // A crowded band works out every row's span first (lever 37, below); the other bands
        // one row at a time as they go (two passes there cost more than lever 37 saved: the
        // 100-unit 1080p frame +42 k instructions).
        let mut total = 0;
        if PLACES {
            for ty in ty0..ty1 {
                let (a, b) = self.outline_row(footprint, outline.as_ref(), ty, (tx0, tx1));
                self.spans.push((a, b));
                total += b - a;
            }
        }
        for ty in ty0..ty1 {
            // In a crowded band, once too few of the limb's tiles are left to make a quarter of
            // them hidden, the answer is [`Seen::Whole`] whatever they hold (lever 37): the job
            // then draws without its tiles and marks them all stale again, so the refreshes of
            // the rest would be wasted. They keep their older bounds (upper bounds still). The
            // spans are all worked out above, for [`TileDepth::touched_asked`].
            if PLACES && (total - tiles + under) * 4 < total {
                self.asked = Some(ty0);
                return Seen::Whole;
            }
            let (a, b) = if PLACES {
                self.spans[ty - ty0]
            } else {
                let (a, b) = self.outline_row(footprint, outline.as_ref(), ty, (tx0, tx1));
                self.spans.push((a, b));
                (a, b)
            };
            // The row's tiles as slices, and whether its tiles are a whole eight rows tall,
            // worked out once a tile row ([`TileDepth::current`] per tile, the same values).
            // In a crowded band, a stale tile whose bound is already below `near` is not
            // refreshed (lever 36): a refresh only lowers a bound, so it would still count as
            // under the limb, and the limb's voxels (none nearer than `near`) and bricks read it
            // as hiding them either way. It stays stale (and still an upper bound), refreshed
            // when a job that needs it asks. (In the other bands the test cost more than it
            // saved: the 13-unit 360x240 frame +78 instructions, every tile there refreshed.)
            let row = ty * self.across;
            let whole_rows = ((ty + 1) * TILE).min(self.rows) - ty * TILE == TILE;
            let (width, first) = (self.width, ty * TILE * self.width);
            let Self { stale, max, .. } = self;
            let (Some(stale), Some(max)) = (
                stale.get_mut(row + a..row + b),
                max.get_mut(row + a..row + b),
            ) else {
                for tx in a..b {
                    let m = self.current(row + tx, tx, ty, depth);
                    all &= m < near;
                    under += usize::from(m < near);
                    tiles += 1;
                }
                continue;
            };
            if let Some(places) = places.get_mut(row + a..row + b).filter(|_| PLACES) {
                let here = stale.iter_mut().zip(max.iter_mut()).zip(places.iter_mut());
                for (tx, ((stale, m), place)) in (a..b).zip(here) {
                    // A stale tile already below `near` is left stale and unread (lever 36).
                    let mut below = *m < near;
                    if *stale && !below {
                        if !refreshed(*m, *place, (width, tx, ty), depth) {
                            let a = first + tx * TILE;
                            (*m, *place) = if whole_rows && tx * TILE + TILE <= width {
                                let m = full_tile_max(depth, a, width);
                                (m, full_tile_at(depth, a, width, m))
                            } else {
                                let m = tile_max(width, self.rows, tx, ty, depth);
                                (m, tile_at(width, self.rows, (tx, ty), m, depth))
                            };
                            below = *m < near;
                        }
                        *stale = false;
                    }
                    all &= below;
                    under += usize::from(below);
                    tiles += 1;
                }
                continue;
            }
            for (tx, (stale, m)) in (a..b).zip(stale.iter_mut().zip(max.iter_mut())) {
                if *stale {
                    *m = if whole_rows && tx * TILE + TILE <= width {
                        full_tile_max(depth, first + tx * TILE, width)
                    } else {
                        tile_max(width, self.rows, tx, ty, depth)
                    };
                    *stale = false;
                }
                all &= *m < near;
                under += usize::from(*m < near);
                tiles += 1;
            }
        }
        self.asked = Some(ty0);
        #[cfg(test)]
        tests::SKIPS.with(|s| s.set(s.get() + usize::from(all)));
        // Voxel tests pay for themselves only where a fair share of the limb is surely hidden:
        // a quarter of its tiles nearer than all of it (measured for the column tests of earlier
        // rounds against "some tile nearer than its far side": the 100-unit frame's turrets sit
        // over their bodies' tiles and had their columns tested for nothing; for the voxel
        // tests, every limb: +19 M instructions a 1000-unit 1080p frame, an eighth: -3 M).
        let any = under * 4 >= tiles && under > 0;
        match (all, any) {
            (true, _) => Seen::Hidden,
            (false, true) if under * 2 >= tiles => Seen::Mostly,
            (false, true) => Seen::Partly,
            (false, false) => Seen::Whole,
        }
    }

    /// Whether all of nine pixels spread over `rect` (in this band) hold depths at or beyond
    /// `near`, the limb's near side: nothing wholly nearer covers them, so the limb is neither
    /// hidden nor likely to have a quarter of its tiles hidden, and they are not worth refreshing. A heuristic only in what it
    /// spends: answering yes skips nothing, so pixels never depend on it.
    fn surely_seen(&self, rect: [usize; 4], near: f32, depth: &[f32]) -> bool {
        let (x0, x1) = (rect[0], rect[2].min(self.width));
        let (y0, y1) = (rect[1].max(self.y0), rect[3].min(self.y0 + self.rows));
        if x0 >= x1 || y0 >= y1 {
            return false;
        }
        let mut seen = 0;
        for j in 1..4 {
            let y = y0 + (y1 - y0) * j / 4 - self.y0;
            for i in 1..4 {
                let x = x0 + (x1 - x0) * i / 4;
                let d = depth
                    .get(y * self.width + x)
                    .copied()
                    .unwrap_or(f32::NEG_INFINITY);
                seen += usize::from(d >= near);
            }
        }
        seen == 9
    }
}

/// A footprint's twelve outline edges ([`Footprint::edges`]) four at a time, for
/// [`Outline::strip_span`]: [`Footprint::strip_span`]'s answer for every strip, with each edge's
/// slope divided out once a footprint instead of once a tile row, and the edges' ends clipped to
/// the strip with MINPS / MAXPS instead of `f32::min` / `f32::max`'s NaN-safe sequences.
///
/// Why: working out the outline's span of each tile row ([`TileDepth::outline_row`], ~480
/// instructions a row, two calls of `floorf` among them) was a third of
/// [`TileDepth::hides_footprint_at`] in the 1000-unit 1080p perspective frame (docs/benchmarks.md,
/// issue 43, lever 35).
///
/// Exact: only footprints whose edges and slopes are all finite get one ([`Outline::of`]), so no
/// lane ever holds a NaN (a finite difference of the clipped end times a finite slope is finite
/// or infinite, and a finite end plus it is not NaN), and then MINPS / MAXPS and the lanes'
/// arithmetic give `f32::min` / `f32::max`'s and the scalar expressions' values (the same
/// operations in the same order; at most a zero's sign may differ, which no span below sees).
pub(crate) struct Outline {
    ya: [Vec4; 3],
    xa: [Vec4; 3],
    yb: [Vec4; 3],
    /// Where the lower end is measured from: `xa` where `yb > ya`, `xb` elsewhere.
    xd: [Vec4; 3],
    /// `(xb - xa) / (yb - ya)` where `yb > ya`; 0 elsewhere, where the ends are then `xa` and
    /// `xb` whatever the strip (a finite length times 0 added to them: the same values, at
    /// most a zero's sign changed), with no select per strip.
    k: [Vec4; 3],
    /// The rectangle's first column and its end as floats.
    left: f32,
    right: f32,
}

impl Outline {
    /// `footprint`'s edges four at a time; `None` without edges (the rectangle answers) or with
    /// a NaN or infinite end or slope, or a rectangle too wide for a float to count its columns
    /// exactly (then [`Footprint::strip_span`] answers).
    #[inline]
    pub fn of(footprint: &Footprint) -> Option<Outline> {
        let edges = footprint.edges.as_ref()?;
        if footprint.rect[2] >= 1 << 24 {
            return None;
        }
        let lane = |g: usize, c: usize| {
            Vec4::new(
                edges[4 * g][c],
                edges[4 * g + 1][c],
                edges[4 * g + 2][c],
                edges[4 * g + 3][c],
            )
        };
        let (ya, xa, yb, xb): ([Vec4; 3], [Vec4; 3], [Vec4; 3], [Vec4; 3]) = (
            std::array::from_fn(|g| lane(g, 0)),
            std::array::from_fn(|g| lane(g, 1)),
            std::array::from_fn(|g| lane(g, 2)),
            std::array::from_fn(|g| lane(g, 3)),
        );
        // The mask's type is left to glam: `BVec4A` with SIMD, `BVec4` in the scalar wasm build.
        let sloped: [_; 3] = std::array::from_fn(|g| yb[g].cmpgt(ya[g]));
        let k: [Vec4; 3] = std::array::from_fn(|g| {
            Vec4::select(sloped[g], (xb[g] - xa[g]) / (yb[g] - ya[g]), Vec4::ZERO)
        });
        let finite = (0..3).all(|g| {
            ya[g].is_finite()
                && xa[g].is_finite()
                && yb[g].is_finite()
                && xb[g].is_finite()
                && k[g].is_finite()
        });
        finite.then_some(Outline {
            ya,
            xa,
            yb,
            xd: std::array::from_fn(|g| Vec4::select(sloped[g], xa[g], xb[g])),
            k,
            left: footprint.rect[0] as f32,
            right: footprint.rect[2] as f32,
        })
    }

    /// [`Footprint::strip_span`] of the footprint this was made of, the same pixels.
    ///
    /// Per edge as there: skipped unless it reaches the strip, its ends clipped to the strip
    /// along its slope, the smallest and largest end kept. Then, without `floor` (a call of
    /// `floorf` on x86-64's baseline): `floor(lo - 1.5)` clamped to at least the rectangle's
    /// first column `l` (an integer) is `max(lo - 1.5, l)` truncated, since `floor` is
    /// monotonic and `floor(max(v, l)) = max(floor(v), l)`, a value at least `l >= 0` truncates
    /// to its floor, and `as usize` saturates both the same way (infinity to `usize::MAX`); and
    /// `floor(u) + 1` (`u = hi + 0.5`) clamped to at most the rectangle's end `r` and then
    /// converted (negative to 0) is `min(u, r - 1)` truncated plus one where that is at least 0,
    /// and 0 below it (where `floor(u) + 1 <= 0`; `r - 1` is exact, `r < 2^24`).
    #[inline]
    fn strip_span(&self, s0: f32, s1: f32) -> (usize, usize) {
        let (s0v, s1v) = (Vec4::splat(s0), Vec4::splat(s1));
        let (mut lo, mut hi) = (Vec4::INFINITY, Vec4::NEG_INFINITY);
        for g in 0..3 {
            let (ya, xa, yb, xd, k) = (self.ya[g], self.xa[g], self.yb[g], self.xd[g], self.k[g]);
            let away = yb.cmplt(s0v) | ya.cmpgt(s1v);
            let xc = xa + (ya.max(s0v) - ya) * k;
            let xd = xd + (yb.min(s1v) - ya) * k;
            lo = Vec4::select(away, lo, lo.min(xc.min(xd)));
            hi = Vec4::select(away, hi, hi.max(xc.max(xd)));
        }
        let (lo, hi) = (lo.min_element(), hi.max_element());
        if lo > hi {
            return (0, 0);
        }
        let v = lo - 1.5;
        let x0 = if v > self.left { v } else { self.left } as usize;
        let u = hi + 0.5;
        let w = if u < self.right - 1.0 {
            u
        } else {
            self.right - 1.0
        };
        let x1 = if w >= 0.0 { w as usize + 1 } else { 0 };
        (x0, x1)
    }
}

/// [`TileDepth::compute`] of a whole tile (8 pixels wide and 8 rows tall), whose top left pixel
/// is `depth[a]` and whose rows are `width` apart: the same maximum (the same value; a zero's
/// sign may differ), and infinite where a row lies outside `depth` as there.
///
/// Why apart: the tile is checked against `depth` once, not row by row, and its eight rows are
/// a fixed count the compiler unrolls (the tile refresh was the largest part of
/// [`TileDepth::hides_footprint`], ~165 instructions a tile; docs/benchmarks.md, issue 43).
#[inline(always)]
fn full_tile_max(depth: &[f32], a: usize, width: usize) -> f32 {
    let Some(tile) = depth
        .get(a..)
        .and_then(|d| d.get(..(TILE - 1) * width + TILE))
    else {
        return f32::INFINITY;
    };
    // Lanes 0-3 and 4-7 of the rows. Written as vectors: as plain lanes the compiler unrolled
    // the rows and took the vectors apart into single maxima.
    let (mut lo, mut hi) = (Vec4::NEG_INFINITY, Vec4::NEG_INFINITY);
    for r in 0..TILE {
        let Some(row) = tile.get(r * width..).and_then(|d| d.first_chunk::<TILE>()) else {
            return f32::INFINITY;
        };
        lo = lane_max(Vec4::from_slice(&row[..4]), lo);
        hi = lane_max(Vec4::from_slice(&row[4..]), hi);
    }
    // The eight lanes' maximum in three MAXPS, not seven scalar selects in lane order (lever
    // 38): no lane is NaN (each starts at minus infinity and MAXPS keeps it for a NaN depth),
    // so any order gives the same value, at most a zero of the other sign where the maximum is
    // zero and both signs are there, which no use of a tile's bound tells apart (it is only
    // compared, and [`refreshed`] answers no for a zero of the other sign: a recompute).
    let m = lane_max(lo, hi);
    let m = lane_max(m, m.zwxy());
    lane_max(m, m.yxwz()).x
}

/// Per lane `if d > m { d } else { m }` ([`TileDepth::compute`]'s select: a NaN `d` keeps `m`).
#[inline(always)]
fn lane_max(d: Vec4, m: Vec4) -> Vec4 {
    // SSE's MAXPS is that select exactly: it answers its second operand unless the first is
    // greater (glam's `max` on x86-64 is one MAXPS of `self` and `rhs`).
    #[cfg(target_arch = "x86_64")]
    return d.max(m);
    #[cfg(not(target_arch = "x86_64"))]
    Vec4::select(d.cmpgt(m), d, m)
}

impl TileDepth {
    /// Whether a rasterised voxel cannot show in this band: every pixel of the band whose centre
    /// lies within `reach` pixels of its projected centre `(sx, sy)` (either axis) holds a depth
    /// below `near`, its nearest view depth; `depth` is the band's depth buffer as it is now. A
    /// voxel with no pixel in the band is hidden in it; NaN hides nothing.
    ///
    /// Tiles first, pixels where a tile cannot tell: a tile whose bound is below `near` answers
    /// for its pixels at once; in a tile that does not (at the edges of the units in front, where
    /// a tile also holds the ground's or another unit's farther depth, or a tile gone stale since
    /// it was refreshed), the pixels of the voxel's box in that tile are compared with `near`
    /// eight per row at a time, as they are now. So the answer is exact against what is drawn so
    /// far, earlier limbs and this limb's own earlier voxels alike, at about the cost of the tile
    /// test alone for voxels wholly behind full tiles. `reach` must be at least how far a voxel's
    /// covered pixel centres lie from its centre (the caller adds the rounding margin).
    #[inline(always)]
    pub fn hides_voxel(&self, depth: &[f32], (sx, sy): (f32, f32), reach: f32, near: f32) -> bool {
        // NaN and far-off centres fail this: not hidden.
        if !(sx.abs() < 1e6 && sy.abs() < 1e6 && reach < 1e4 && near > f32::MIN) {
            return false;
        }
        // The box of one point (the bounds lie within about 1e6 pixels of the band's first row,
        // checked above, as `reach_rect` asks).
        let Some(b) = self.reach_rect([sx, sx], [sy, sy], reach) else {
            return true;
        };
        let [x0, x1, y0, y1] = b;
        let shift = TILE.trailing_zeros();
        let (tx0, tx1) = (x0 >> shift, x1 >> shift);
        let (ty0, ty1) = (y0 >> shift, y1 >> shift);
        let (dx, dy) = (tx1 - tx0, ty1 - ty0);
        // The tiles alone first: behind full, nearer tiles (the common case inside a crowd) the
        // pixels need not be read. Where they cannot tell, the box's middle pixel, nearly
        // always the voxel's own: where it is not covered, the voxel shows, and no other pixel
        // need be read. A box of up to 2 x 2 tiles (about 92 % of the voxels in the 1000-unit
        // 1080p frame) without a branch per tile or row ([`TileDepth::corners_below`],
        // [`TileDepth::pixels_hide_2x2`]), a larger one by the loops.
        if dx | dy <= 1 {
            let below = self.corners_below((tx0, ty0), (dx, dy), near);
            if below != 0b1111
                && !(self.middle_covered(depth, b, near)
                    && self.pixels_hide_2x2(depth, b, below, near))
            {
                return false;
            }
        } else if !self.rect_hidden(depth, b, near) {
            return false;
        }
        #[cfg(test)]
        tests::SKIPS.with(|s| s.set(s.get() + 1));
        true
    }

    /// [`TileDepth::hides_voxel`] of a box of voxel centres (a brick of a splatted limb) rather
    /// than one: whether every pixel of the band whose centre lies within `reach` pixels of a
    /// point of screen rectangle `xs` x `ys` (either axis) holds a depth below `near`. Every
    /// voxel whose centre lies in the rectangle, with that `reach` and a bound at or above
    /// `near`, is then hidden by [`TileDepth::hides_voxel`] too, now and after any later draw
    /// in the band (depths only decrease): its pixels are a subset of these, rounded the same
    /// way (truncation is monotonic). The caller checks what `hides_voxel` checks first
    /// (finite, on-screen centres, `reach` below 1e4), so the four bounds lie within about
    /// 1e6 pixels of the band and [`truncate`] (one CVTTSS2SI each) answers `as i32` for them
    /// without its saturation tests (docs/benchmarks.md, issue 43, lever 34).
    pub fn hides_box(
        &self,
        xs: [f32; 2],
        ys: [f32; 2],
        reach: f32,
        near: f32,
        depth: &[f32],
    ) -> bool {
        self.reach_rect(xs, ys, reach)
            .is_none_or(|b| self.rect_hidden(depth, b, near))
    }

    /// The band rectangle `[x0, x1, y0, y1]` (inclusive; rows of the band) of the pixels whose
    /// centres lie within `reach` (either axis) of a point of screen rectangle `xs` x `ys`,
    /// clipped to the band; `None` when it holds no pixel. The bounds must lie within about 1e6
    /// pixels of the band's first row (the callers check it).
    ///
    /// Pixel p's centre p + 0.5 lies within reach when x - reach - 0.5 <= p <= x + reach - 0.5.
    /// Truncation, not floor: clamped at 0 below, the lower bounds are the same, and an upper
    /// bound can only grow (one more pixel tested). [`truncate`] (one CVTTSS2SI each) answers
    /// `as i32` without its saturation tests for bounds in that range, and for a reach below
    /// about -2^31, where `x1` (`y1`) is `i32::MIN` either way, the rectangle is empty either
    /// way (docs/benchmarks.md, issue 43, levers 33-34).
    #[inline(always)]
    fn reach_rect(&self, xs: [f32; 2], ys: [f32; 2], reach: f32) -> Option<[usize; 4]> {
        let (ya, yb) = (ys[0] - self.y0_f, ys[1] - self.y0_f);
        let x0 = truncate(xs[0] - reach - 0.5).max(0);
        let x1 = truncate(xs[1] + reach - 0.5).min(self.width as i32 - 1);
        let y0 = truncate(ya - reach - 0.5).max(0);
        let y1 = truncate(yb + reach - 0.5).min(self.rows as i32 - 1);
        (x0 <= x1 && y0 <= y1).then_some([x0 as usize, x1 as usize, y0 as usize, y1 as usize])
    }

    /// Whether every pixel of band rectangle `b` holds a depth below `near` now, by the loops:
    /// its tiles first, then (where they cannot tell) its middle pixel, then its pixels tile by
    /// tile. A box's test, and a voxel's whose box spans more than 2 x 2 tiles.
    #[inline(always)]
    fn rect_hidden(&self, depth: &[f32], b: [usize; 4], near: f32) -> bool {
        let [x0, x1, y0, y1] = b;
        let shift = TILE.trailing_zeros();
        self.tiles_below((x0 >> shift, x1 >> shift), (y0 >> shift, y1 >> shift), near)
            || (self.middle_covered(depth, b, near) && self.pixels_hide(depth, b, near))
    }

    /// Whether every tile of tile columns `tx0..=tx1` and tile rows `ty0..=ty1` has a bound below
    /// `near` (a NaN bound fails `m < near`; a tile past the buffer's end answers no).
    #[inline(always)]
    fn tiles_below(
        &self,
        (tx0, tx1): (usize, usize),
        (ty0, ty1): (usize, usize),
        near: f32,
    ) -> bool {
        (ty0..=ty1).all(|ty| {
            let row = ty * self.across;
            // A NaN maximum fails `m < near`.
            self.max
                .get(row + tx0..=row + tx1)
                .is_some_and(|t| t.iter().all(|&m| m < near))
        })
    }

    /// Which of the four tiles (`tx0`, `ty0`), (`tx0 + dx`, `ty0`), (`tx0`, `ty0 + dy`) and
    /// (`tx0 + dx`, `ty0 + dy`) (`dx`, `dy` at most 1) have a bound below `near`: bits 0 to 3
    /// ([`TileDepth::tiles_below`] of those tiles is all four bits; a NaN bound, or a tile past
    /// the buffer's end, has its bit clear).
    ///
    /// Why: a voxel's box spans one or two tiles each way, at random, and the loops over them
    /// mispredicted their exits about once a voxel (docs/benchmarks.md, issue 43, lever 48:
    /// the run's mispredicted branches 4.27 M -> 4.16 M). The four corner tiles are read and
    /// compared at once instead; where the box spans one tile in a direction the same tile is
    /// read twice, which changes no answer. A larger box (about 8 % of the voxels in the
    /// 1000-unit 1080p frame) takes [`TileDepth::tiles_below`]'s loops.
    #[inline(always)]
    fn corners_below(
        &self,
        (tx0, ty0): (usize, usize),
        (dx, dy): (usize, usize),
        near: f32,
    ) -> u32 {
        let (a, b) = (ty0 * self.across + tx0, (ty0 + dy) * self.across + tx0);
        let m = |i: usize| self.max.get(i).copied().unwrap_or(f32::NAN);
        let m = Vec4::new(m(a), m(a + dx), m(b), m(b + dx));
        m.cmplt(Vec4::splat(near)).bitmask()
    }

    /// Whether the middle pixel of the band rectangle `[x0, x1, y0, y1]` (inclusive) holds a
    /// depth below `near` (a NaN depth is not below it: not covered).
    #[inline(always)]
    fn middle_covered(&self, depth: &[f32], [x0, x1, y0, y1]: [usize; 4], near: f32) -> bool {
        let (cx, cy) = ((x0 + x1) / 2, (y0 + y1) / 2);
        depth.get(cy * self.width + cx).is_some_and(|&d| d < near)
    }

    /// [`TileDepth::pixels_hide`] of a rectangle `[x0, x1, y0, y1]` within 2 x 2 tiles, `below`
    /// their [`TileDepth::corners_below`]: each row's sixteen pixels from the first tile's left
    /// edge compared with `near` at once, the lanes outside the rectangle and in tiles whose
    /// bound is below `near` dropped by a mask (their pixels need not be below it: a NaN pixel
    /// is left out of a tile's bound), the rows' misses gathered and decided once.
    ///
    /// Why: the loops over the tiles and the rows, with an exit per tile and per row, were
    /// mispredicted often (their trip counts and the tiles' answers vary from voxel to voxel);
    /// here only the row loop's end is left (docs/benchmarks.md, issue 43, lever 49: the run's
    /// mispredicted branches 4.16 M -> 3.82 M, for 2-5 M more instructions a frame). Lanes past
    /// the band's right edge read the next row's first pixels and are masked off (`x1` is at
    /// most the last column); where the last row's sixteen pixels would run past `depth`'s
    /// end, the loops answer.
    #[inline(always)]
    fn pixels_hide_2x2(&self, depth: &[f32], b: [usize; 4], below: u32, near: f32) -> bool {
        let [x0, x1, y0, y1] = b;
        let left = x0 / TILE * TILE;
        let Some(area) = depth.get(y0 * self.width + left..y1 * self.width + left + 2 * TILE)
        else {
            return self.pixels_hide(depth, b, near);
        };
        // The rectangle's lanes (`x1 - left` is at most 15), less the lanes of the tiles whose
        // bound is below `near`: lanes 0-7 are the left tile's (bit 0 of `below`, bit 2 in the
        // lower tile row), 8-15 the right one's (bits 1 and 3).
        let lanes = (2u32 << (x1 - left)) - (1u32 << (x0 - left));
        let keep = |b: u32| lanes & !(((b & 1) * 0xff) | ((b & 2) * 0x7f80));
        let (upper, lower) = (keep(below), keep(below >> 2));
        let split = (y0 / TILE + 1) * TILE;
        let nearv = Vec4::splat(near);
        let mut open = 0;
        for r in y0..y1 + 1 {
            let Some(p) = area
                .get((r - y0) * self.width..)
                .and_then(|p| p.first_chunk::<{ 2 * TILE }>())
            else {
                return self.pixels_hide(depth, b, near);
            };
            // A NaN depth fails `d < near`: not covered.
            let covered = Vec4::from_slice(&p[..4]).cmplt(nearv).bitmask()
                | Vec4::from_slice(&p[4..8]).cmplt(nearv).bitmask() << 4
                | Vec4::from_slice(&p[8..12]).cmplt(nearv).bitmask() << 8
                | Vec4::from_slice(&p[12..]).cmplt(nearv).bitmask() << 12;
            let lanes = if r < split { upper } else { lower };
            open |= lanes & !covered;
        }
        open == 0
    }

    /// Whether every pixel of the band rectangle `x0..=x1`, `y0..=y1` (band rows) that lies in a
    /// tile whose bound is not below `near` holds a depth below `near` now (pixels of the other
    /// tiles are below it already).
    #[inline(always)]
    fn pixels_hide(&self, depth: &[f32], [x0, x1, y0, y1]: [usize; 4], near: f32) -> bool {
        let nearv = glam::Vec4::splat(near);
        for ty in y0 / TILE..=y1 / TILE {
            let row = ty * self.across;
            let (ra, rb) = (y0.max(ty * TILE), y1.min(ty * TILE + TILE - 1));
            for tx in x0 / TILE..=x1 / TILE {
                // A NaN bound fails `m < near`: its pixels are compared.
                if self.max.get(row + tx).is_some_and(|&m| m < near) {
                    continue;
                }
                let left = tx * TILE;
                let (a, b) = (x0.max(left) - left, x1.min(left + TILE - 1) - left);
                let lanes = (1u32 << (b + 1)) - (1u32 << a);
                for r in ra..=rb {
                    let s = r * self.width + left;
                    let Some(c) = depth.get(s..s + TILE) else {
                        // The band's last tile column, narrower than a tile: one at a time.
                        let covered = depth
                            .get(s + a..=s + b)
                            .is_some_and(|p| p.iter().all(|&d| d < near));
                        if !covered {
                            return false;
                        }
                        continue;
                    };
                    // A NaN depth fails `d < near`: not covered.
                    let lo = glam::Vec4::from_slice(&c[..4]).cmplt(nearv).bitmask();
                    let hi = glam::Vec4::from_slice(&c[4..]).cmplt(nearv).bitmask();
                    if (lo | hi << 4) & lanes != lanes {
                        return false;
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
pub(super) mod tests;
