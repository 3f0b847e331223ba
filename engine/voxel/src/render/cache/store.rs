//! The cache and its entries: each key's sprite with the shading tables it is blitted with, kept
//! within the memory budget (least recently used first out).

use rustc_hash::FxHashMap;

use rayon::prelude::*;

use super::super::job::limb_shade;
use super::super::light::normal_bits;
use super::super::light::LimbShade;
use super::super::{LightSource, RenderOptions, Shading};
use super::key::{Context, Key, Keys, DEFAULT_FACINGS};
use super::record::{Miss, Recording, Scratch, Sprite, SpriteLimb};
use crate::model::{TableChoice, VoxelModel};

/// Default memory budget of a cache: 96 MiB. The demo's 1000-unit battlefield at 1920x1080 uses
/// every key it can (its 36 limb-and-frame pictures at 256 facings each: 9 216 entries, 71.7 MiB)
/// within about 1 200 frames and then records nothing; under the old 48 MiB it evicted and
/// recorded 30-50 limbs every frame forever, about a tenth of the orthographic frame's time
/// (docs/benchmarks.md, issue 43, "The draw cache's budget").
pub const DEFAULT_BUDGET_BYTES: usize = 96 << 20;

/// What the last draw through a cache did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Pieces blitted from an entry that was already there.
    pub hits: usize,
    /// Pieces whose entry was recorded in this draw (each key recorded once, then blitted).
    pub misses: usize,
    /// Pieces drawn directly: translucent, all of a perspective draw, or cut by the screen edge.
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

/// A voxel draw cache, kept across frames (its key, error bound and memory budget:
/// `docs/design.md`, "The voxel draw cache").
pub struct DrawCache<'m> {
    pub(super) budget: usize,
    pub(super) bytes: usize,
    pub(super) tick: u64,
    pub(super) context: Option<Context>,
    /// Hashed with FxHash, not the standard SipHash: the keys are the cache's own (no one chooses
    /// them to collide), SipHash over them was ~4 M instructions of a steady 1000-unit
    /// orthographic frame, and the entries are then visited in the same order in every run.
    pub(super) entries: FxHashMap<Key, Entry<'m>>,
    /// The key's facings and frame table.
    pub(super) keys: Keys,
    /// The recording workers' scratch rows.
    pub(super) scratch: Vec<Scratch>,
    pub(super) last: CacheStats,
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
            bytes: 0,
            tick: 0,
            context: None,
            entries: FxHashMap::default(),
            keys: Keys::new(DEFAULT_FACINGS),
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
        self.keys.facings = n.max(1);
        self.clear();
        self
    }

    /// Facings per turn in the key.
    pub fn facings(&self) -> u32 {
        self.keys.facings
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

    /// A draw in `context` begins: a changed context empties the cache, and the draw gets the
    /// next tick (its entries' `last_used`).
    pub(super) fn begin(&mut self, context: Context) {
        if self.context != Some(context) {
            self.clear();
            self.context = Some(context);
        }
        self.tick += 1;
    }
}

/// The light an entry's shading tables were built for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LightKey {
    shading: Shading,
    table: TableChoice,
    light: LightSource,
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
pub(super) struct Entry<'m> {
    pub(super) model: &'m VoxelModel,
    pub(super) sprite: Sprite,
    /// Per sprite limb: the model's limb index, its normals' linear map at recording and the
    /// normal indices its pixels use (only those are shaded).
    pub(super) limbs: Vec<SpriteLimb>,
    /// Shading per sprite limb for `light`.
    pub(super) shades: Vec<LimbShade>,
    pub(super) light: Option<LightKey>,
    pub(super) last_used: u64,
    pub(super) bytes: usize,
}

impl<'m> DrawCache<'m> {
    /// Keep `rec`, the recording of `miss`, as the entry of its key, charged its bytes.
    pub(super) fn insert(&mut self, miss: &Miss<'m>, rec: Recording) {
        let bytes = rec.sprite.bytes()
            + rec.limbs.len()
                * (std::mem::size_of::<LimbShade>() + std::mem::size_of::<SpriteLimb>());
        self.bytes += bytes;
        self.entries.insert(
            miss.key,
            Entry {
                model: miss.model,
                sprite: rec.sprite,
                limbs: rec.limbs,
                shades: Vec::new(),
                light: None,
                last_used: self.tick,
                bytes,
            },
        );
    }

    /// Shading tables for this draw's light (`opts`, `pages` VPL pages) in every entry this draw
    /// uses, rebuilt only where the light changed; on the pool when `opts.parallel`.
    pub(super) fn refresh_shades(&mut self, opts: &RenderOptions, pages: usize) {
        let (tick, light) = (self.tick, LightKey::of(opts, pages));
        let refresh = |e: &mut Entry<'m>| {
            if e.last_used == tick && e.light != Some(light) {
                e.shades = e
                    .limbs
                    .iter()
                    .map(|l| {
                        let used = normal_bits(&l.used);
                        limb_shade(e.model, l.limb, l.linear, opts, light.pages, Some(&used))
                    })
                    .collect();
                e.light = Some(light);
            }
        };
        if opts.parallel {
            self.entries.par_iter_mut().for_each(|(_, e)| refresh(e));
        } else {
            self.entries.values_mut().for_each(refresh);
        }
    }

    /// Stay within the budget: the least recently used go first, never this draw's (counted in
    /// `stats.evicted`).
    pub(super) fn evict(&mut self, stats: &mut CacheStats) {
        if self.bytes <= self.budget {
            return;
        }
        let mut old: Vec<(u64, Key, usize)> = self
            .entries
            .iter()
            .filter(|(_, e)| e.last_used < self.tick)
            .map(|(k, e)| (e.last_used, *k, e.bytes))
            .collect();
        old.sort_by_key(|&(t, _, _)| t);
        for (_, k, bytes) in old {
            if self.bytes <= self.budget {
                break;
            }
            self.entries.remove(&k);
            self.bytes -= bytes;
            stats.evicted += 1;
        }
    }
}
