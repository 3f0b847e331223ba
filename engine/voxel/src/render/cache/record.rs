//! Recording a sprite: a miss's one-piece instance drawn alone through the direct path (jobs,
//! march or splat) into scratch rows whose "pixels" are what the direct draw found (limb, colour,
//! normal), then kept as runs of per-pixel colour, normal and depth offset relative to the unit's
//! origin. Misses are recorded in parallel, each independently of the others.

use glam::Mat3;
use modex::{BlendTables, Camera, DrawStats, Opacity};
use rayon::prelude::*;

use super::super::job;
use super::super::light::LimbShade;
use super::super::march::{self, Screen};
use super::super::pixel::{Mixer, Shade};
use super::super::RenderOptions;
use super::key::{anchor, project, Key};
use crate::model::{NoFrames, VoxelModel};
use crate::scene::Instance;
use modex_vxl::Vpl;

/// A limb whose key has no entry yet, with the pose that will record it.
pub(super) struct Miss<'m> {
    pub(super) key: Key,
    pub(super) model: &'m VoxelModel,
    pub(super) limb: usize,
    pub(super) instance: Instance<'m>,
}

/// Reused buffers of one recording thread: full-width rows, since the jobs address the screen.
#[derive(Default)]
pub(super) struct Scratch {
    pixels: Vec<Found>,
    depth: Vec<f32>,
}

/// A recorded sprite and its limbs.
pub(super) struct Recording {
    pub(super) sprite: Sprite,
    pub(super) limbs: Vec<SpriteLimb>,
    /// Rays the recording cast (counted in the draw's statistics).
    pub(super) rays: usize,
}

/// One limb of a sprite.
pub(super) struct SpriteLimb {
    pub(super) limb: usize,
    pub(super) linear: Mat3,
    pub(super) used: [bool; 256],
}

/// A run of covered pixels in one row of a sprite, all of one limb.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    /// Row from the sprite's top.
    pub(super) row: u32,
    /// Column from the sprite's left.
    pub(super) x: u32,
    pub(super) len: u32,
    /// Index into the entry's limbs.
    pub(super) limb: u32,
    /// Index of its first pixel in the per-pixel arrays.
    pub(super) start: u32,
}

/// A piece's recorded pixels.
pub(super) struct Sprite {
    /// The sprite's top-left pixel, from the pixel its unit's origin was on when recorded.
    pub(super) corner: (i64, i64),
    /// Rows from the top (spans' rows are below it).
    pub(super) rows: u32,
    /// Covered runs, by row, then left to right.
    pub(super) spans: Vec<Span>,
    pub(super) colour: Vec<u8>,
    pub(super) normal: Vec<u8>,
    /// View depth minus the view depth of its unit's origin.
    pub(super) depth: Vec<f32>,
}

impl Sprite {
    pub(super) fn bytes(&self) -> usize {
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
        super::super::draw_pixels(instances, camera, vpl, opts, pixels, depth)
    }
}

/// The recording's stand-in shading of job `k`: it carries only the tag [`Found`] reads.
fn tag_shade(k: usize) -> LimbShade {
    LimbShade {
        lit: true,
        page: [0; 256],
        gain: [k as u16; 256],
        by_page: false,
    }
}

/// What every recording of one draw shares: the draw's camera, lighting pages, translucency
/// tables and options (each recording runs on one thread: the misses are what is shared out).
pub(super) struct Recorder<'d> {
    camera: &'d Camera,
    vpl: &'d Vpl,
    tables: &'d BlendTables,
    opts: RenderOptions,
}

impl<'d> Recorder<'d> {
    /// The recorder of a draw with `opts`.
    pub(super) fn new(
        camera: &'d Camera,
        vpl: &'d Vpl,
        tables: &'d BlendTables,
        opts: &RenderOptions,
    ) -> Recorder<'d> {
        Recorder {
            camera,
            vpl,
            tables,
            opts: RenderOptions {
                parallel: false,
                ..*opts
            },
        }
    }

    /// Record every miss, in order; on the pool when `parallel`, one `scratch` per worker
    /// (kept across draws: fresh full-width rows every draw cost page faults), each taking an
    /// equal run of the misses in order.
    pub(super) fn record_all(
        &self,
        scratch: &mut Vec<Scratch>,
        misses: &[Miss<'_>],
        parallel: bool,
    ) -> Vec<Result<Option<Recording>, NoFrames>> {
        let workers = if parallel {
            rayon::current_num_threads().clamp(1, misses.len())
        } else {
            1
        };
        if scratch.len() < workers {
            scratch.resize_with(workers, Scratch::default);
        }
        let run = misses.len().div_ceil(workers);
        if workers > 1 {
            let runs: Vec<Vec<_>> = scratch[..workers]
                .par_iter_mut()
                .zip(misses.par_chunks(run))
                .map(|(scratch, ms)| ms.iter().map(|m| self.record(m, scratch)).collect())
                .collect();
            runs.into_iter().flatten().collect()
        } else {
            let scratch = &mut scratch[0];
            misses.iter().map(|m| self.record(m, scratch)).collect()
        }
    }

    /// Draw the miss's one-piece instance alone through the direct path (jobs, march or splat)
    /// into scratch rows and keep what its limb covered. `None` when the screen cuts a limb.
    fn record(
        &self,
        miss: &Miss<'_>,
        scratch: &mut Scratch,
    ) -> Result<Option<Recording>, NoFrames> {
        let Recorder {
            camera,
            vpl,
            tables,
            ref opts,
        } = *self;
        let (instance, limb) = (&miss.instance, miss.limb);
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
        // The unit's origin is on a pixel corner (`on_pixel`); the sprite is kept relative to it.
        let (origin, origin_depth) = project(camera, instance.pose.position);
        let anchor = anchor(origin);
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
            j.shade = tag_shade(k).into();
            x0 = x0.min(j.footprint.rect[0]);
            y0 = y0.min(j.footprint.rect[1]);
            x1 = x1.max(j.footprint.rect[2]);
            y1 = y1.max(j.footprint.rect[3]);
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
        // Each row's covered pixels, as runs of one limb: the uncovered pixels between runs are
        // skipped by a plain search for the next finite depth, and a run is taken whole, so the
        // per-pixel work is only the copy (a limb's rectangle is mostly uncovered; the old loop
        // asked every pixel whether a run was open: 30 M instructions a steady 1080p frame).
        for y in y0..y1 {
            let row = (y - y0) * width;
            let cols = row + x0..row + x1.max(x0);
            let (row_p, row_d) = (&px[cols.clone()], &mut dp[cols]);
            let mut x = 0;
            while let Some(skip) = first_covered(&row_d[x..]) {
                let first = x + skip;
                let limb = row_p[first].limb();
                let len = row_d[first..]
                    .iter()
                    .zip(&row_p[first..])
                    .position(|(d, f)| !d.is_finite() || f.limb() != limb)
                    .unwrap_or(row_d.len() - first);
                x = first + len;
                sprite.spans.push(Span {
                    row: (y - y0) as u32,
                    x: first as u32,
                    len: len as u32,
                    limb,
                    start: sprite.colour.len() as u32,
                });
                let used = limbs.get_mut(limb as usize).map(|l| &mut l.used);
                let run = &row_p[first..x];
                sprite.colour.extend(run.iter().map(|f| f.colour()));
                sprite.normal.extend(run.iter().map(|f| f.normal()));
                if let Some(used) = used {
                    for f in run {
                        used[f.normal() as usize] = true;
                    }
                }
                let depths = &mut row_d[first..x];
                sprite.depth.extend(depths.iter().map(|d| d - origin_depth));
                depths.fill(f32::INFINITY);
            }
        }
        Ok(Some(Recording {
            sprite,
            limbs,
            rays,
        }))
    }
}

/// Index of the first finite depth in `depths` (a pixel the draw covered: the scratch rows are
/// +inf elsewhere), eight depths at a time until a group holds one.
///
/// Why: most of a limb's rectangle is uncovered, and searching it one depth at a time (about
/// five instructions each) was most of a recording's own work, ~28 M instructions in a 1000-unit
/// 1080p orthographic frame that records 150 limbs. A depth is finite when its exponent bits
/// are not all ones; OR-ing that test over a group is branch-free and vectorises on plain
/// x86-64.
fn first_covered(depths: &[f32]) -> Option<usize> {
    const EXPONENT: u32 = 0x7f80_0000;
    let mut groups = depths.chunks_exact(8);
    let mut base = 0;
    for group in &mut groups {
        let any = group
            .iter()
            .fold(0, |any, d| any | ((d.to_bits() & EXPONENT) ^ EXPONENT));
        if any != 0 {
            return group.iter().position(|d| d.is_finite()).map(|i| base + i);
        }
        base += 8;
    }
    let rest = groups.remainder();
    rest.iter().position(|d| d.is_finite()).map(|i| base + i)
}

#[cfg(test)]
mod tests {
    use super::first_covered;
    use proptest::prelude::*;

    fn depth() -> impl Strategy<Value = f32> {
        prop_oneof![
            8 => Just(f32::INFINITY),
            1 => Just(f32::NEG_INFINITY),
            1 => Just(f32::NAN),
            2 => any::<f32>(),
        ]
    }

    proptest! {
        /// The grouped search finds what the one-by-one search finds, whatever the lengths and
        /// values (+inf, -inf and NaN are not covered; any finite value is).
        #[test]
        fn first_covered_is_the_first_finite_depth(
            depths in proptest::collection::vec(depth(), 0..70)
        ) {
            prop_assert_eq!(
                first_covered(&depths),
                depths.iter().position(|d| d.is_finite())
            );
        }
    }
}
