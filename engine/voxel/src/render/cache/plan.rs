//! How one draw through the cache draws each piece, decided before anything is drawn: blitted
//! limb by limb (a use per limb, and a miss for each key to record first), or directly (pieces
//! whose origin is not on screen's finite plane, or cut by the screen edge when recorded);
//! translucent units apart, after everything opaque.

use rustc_hash::FxHashSet;

use glam::Vec2;
use modex::Camera;

use super::super::job::Job;
use super::blit::{Blit, Item};
use super::key::{on_pixel, only, Key, Projector};
use super::record::{Miss, Recorder};
use super::store::{CacheStats, DrawCache};
use crate::model::{NoFrames, VoxelModel};
use crate::scene::{Instance, PieceRole, Pose};

/// One piece to blit.
#[derive(Clone, Copy)]
struct Use {
    key: Key,
    /// Screen position of its unit's origin in this draw.
    origin: Vec2,
    /// View depth of its unit's origin.
    origin_depth: f32,
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

/// Where a unit's origin is in this draw: on screen, and at which view depth.
struct UnitOrigin {
    at: Vec2,
    depth: f32,
}

/// How this draw draws each piece, in scene order, as [`Plan::sort`] decided: blitted limb by
/// limb (uses, and the misses to record first) or directly; translucent units apart.
#[derive(Default)]
pub(super) struct Plan<'m> {
    slots: Vec<Slot>,
    uses: Vec<Use>,
    misses: Vec<Miss<'m>>,
    /// The keys of `misses`: a key's first use in the draw records it, later uses are hits.
    pending: FxHashSet<Key>,
    /// The pieces drawn directly.
    pub(super) direct: Vec<Instance<'m>>,
    pub(super) translucent: Vec<Instance<'m>>,
    /// The one-piece instance of each blitted piece, should a recording fail.
    pieces: Vec<Instance<'m>>,
    pub(super) stats: CacheStats,
}

impl<'m> Plan<'m> {
    /// Sort every piece of `instances` into blits (one per limb, with its key) or the direct
    /// draw, keeping scene order (the camera is orthographic: `key::Context::of`).
    pub(super) fn sort(
        cache: &mut DrawCache<'m>,
        instances: &[Instance<'m>],
        camera: &Camera,
    ) -> Result<Plan<'m>, NoFrames> {
        let mut plan = Plan::default();
        let projector = Projector::of(camera);
        for inst in instances {
            if !inst.pose.alpha.is_opaque() {
                plan.translucent.push(*inst);
                plan.stats.direct += inst.unit.pieces().count();
                continue;
            }
            let (at, depth) = projector.project(inst.pose.position);
            let origin = UnitOrigin { at, depth };
            for (role, model) in inst.unit.pieces() {
                let piece = Instance {
                    unit: only(&inst.unit, role),
                    pose: inst.pose,
                };
                if !at.is_finite() || !depth.is_finite() {
                    let slot = plan.direct_slot(piece);
                    plan.slots.push(slot);
                    continue;
                }
                plan.blit(cache, camera, piece, (role, model), &origin)?;
            }
        }
        Ok(plan)
    }

    /// `piece` (of `role`, `model`) blitted limb by limb: a use per limb with voxels and a frame,
    /// and a miss for each key no entry and no earlier use of this draw has.
    fn blit(
        &mut self,
        cache: &mut DrawCache<'m>,
        camera: &Camera,
        piece: Instance<'m>,
        (role, model): (PieceRole, &'m VoxelModel),
        origin: &UnitOrigin,
    ) -> Result<(), NoFrames> {
        let tick = cache.tick;
        let first = self.uses.len();
        for limb in 0..model.vxl.limbs.len() {
            if model.volumes()[limb].voxel_count() == 0 {
                continue;
            }
            let Some(frame) = cache.keys.canonical_frame(model, limb, piece.pose.frame)? else {
                continue;
            };
            let (key, record) = cache.keys.key(model, role, limb, frame, &piece.pose);
            if let Some(e) = cache.entries.get_mut(&key) {
                e.last_used = tick;
                self.stats.hits += 1;
            } else if self.pending.insert(key) {
                // Only a recording needs its origin moved onto a pixel corner (a projection and,
                // off the corner, an inverse matrix: kept off the hits, most of the limbs).
                let position = on_pixel(camera, record.position);
                self.misses.push(Miss {
                    key,
                    model,
                    limb,
                    instance: Instance {
                        unit: piece.unit,
                        pose: Pose { position, ..record },
                    },
                });
            } else {
                self.stats.hits += 1;
            }
            self.uses.push(Use {
                key,
                origin: origin.at,
                origin_depth: origin.depth,
            });
        }
        self.slots.push(Slot::Blit {
            first,
            count: self.uses.len() - first,
            piece: self.pieces.len(),
        });
        self.pieces.push(piece);
        Ok(())
    }

    /// `piece` goes to the direct draw: the slot that draws it there.
    fn direct_slot(&mut self, piece: Instance<'m>) -> Slot {
        let slot = Slot::Direct(self.direct.len());
        self.direct.push(piece);
        self.stats.direct += 1;
        slot
    }

    /// Record the misses into `cache` (in parallel when `opts.parallel`, each into its own
    /// scratch rows); pieces with a limb the screen edge cut go to the direct draw. Returns the
    /// rays the recordings cast.
    pub(super) fn record(
        &mut self,
        cache: &mut DrawCache<'m>,
        recorder: &Recorder<'_>,
        parallel: bool,
    ) -> Result<usize, NoFrames> {
        if self.misses.is_empty() {
            return Ok(0);
        }
        let recorded = recorder.record_all(&mut cache.scratch, &self.misses, parallel);
        let (mut rays, mut failed) = (0, Vec::new());
        for (m, r) in self.misses.iter().zip(recorded) {
            match r? {
                Some(rec) => {
                    self.stats.misses += 1;
                    rays += rec.rays;
                    cache.insert(m, rec);
                }
                None => failed.push(m.key),
            }
        }
        self.draw_directly_where(&failed);
        Ok(rays)
    }

    /// A piece with a limb whose recording the screen edge cut (`failed`) is drawn directly this
    /// time, wherever it is used (its limbs' uses had been counted as hits, but for the
    /// recorders).
    fn draw_directly_where(&mut self, failed: &[Key]) {
        if failed.is_empty() {
            return;
        }
        let mut converted = 0;
        for i in 0..self.slots.len() {
            if let Slot::Blit {
                first,
                count,
                piece,
            } = self.slots[i]
            {
                let mine = &self.uses[first..first + count];
                if mine.iter().any(|u| failed.contains(&u.key)) {
                    converted += mine.len();
                    self.slots[i] = self.direct_slot(self.pieces[piece]);
                }
            }
        }
        self.stats.hits = (self.stats.hits + failed.len()).saturating_sub(converted);
    }

    /// What the banded pass draws, in order: every piece in scene order (its sprites, or the
    /// jobs of `direct`, one list per direct piece), then the translucent jobs. Returns the items,
    /// the limbs they draw and the sprite pixels they blit.
    pub(super) fn items<'p>(
        &self,
        cache: &'p DrawCache<'m>,
        direct: &'p [Vec<Job<'m>>],
        translucent: &'p [Job<'m>],
    ) -> (Vec<Item<'p, 'p>>, usize, usize) {
        let (mut limbs, mut pixels) = (0, 0);
        let mut items = Vec::with_capacity(self.slots.len() + 1);
        for slot in &self.slots {
            match *slot {
                Slot::Blit { first, count, .. } => {
                    for u in &self.uses[first..first + count] {
                        let Some(e) = cache.entries.get(&u.key) else {
                            continue;
                        };
                        let Some(b) = Blit::at(e, u.origin, u.origin_depth) else {
                            continue;
                        };
                        limbs += 1;
                        pixels += b.entry.sprite.colour.len();
                        items.push(Item::Blit(b));
                    }
                }
                Slot::Direct(d) => {
                    limbs += direct[d].len();
                    items.push(Item::Jobs(&direct[d]));
                }
            }
        }
        limbs += translucent.len();
        items.push(Item::Jobs(translucent));
        (items, limbs, pixels)
    }
}
