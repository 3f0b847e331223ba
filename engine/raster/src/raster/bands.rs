//! The parallel band driver: the frame cut into horizontal bands of [`BAND_HEIGHT`] rows.
//!
//! Triangles are binned by the bands their rows touch ([`BandBins`], filled by the parallel set-up
//! itself), and rayon fills the bands in parallel, each drawing its triangles in submission order.
//! Each band owns its rows outright and a span's pixels depend only on its triangle and position
//! (`span.rs`), so one thread and N threads produce identical pixels.
//!
//! On a one-thread pool there is nothing to balance, and a frame that fits the cache is drawn as a
//! single band with nothing binned (the pixels are the same, since bands only partition rows); a
//! larger frame is still binned, so that each band's rows stay in the cache while its triangles
//! are drawn (`entity::streams`).

use super::setup::TriSetup;
use super::span::{fill_band_tri, DepthMode, Paint, Rows};

/// Rows per band. Small enough to balance 2..16 threads on a 200-row frame, large enough that the
/// per-band bookkeeping vanishes next to the filling.
pub const BAND_HEIGHT: usize = 16;

/// Fill `tris` (in order) into a band of whole rows.
#[inline]
fn fill_band<'t, P: Paint>(
    painter: &P,
    mode: DepthMode,
    tris: impl Iterator<Item = &'t TriSetup>,
    mut band: Rows<'_, P::Px>,
) {
    for t in tris {
        match mode {
            DepthMode::TestAndWrite => fill_band_tri::<P, true, true>(painter, t, &mut band),
            DepthMode::TestOnly => fill_band_tri::<P, true, false>(painter, t, &mut band),
            DepthMode::Off => fill_band_tri::<P, false, false>(painter, t, &mut band),
        }
    }
}

/// The bands of `frame`, top to bottom: [`BAND_HEIGHT`] rows each (the last may be shorter).
fn bands<'f, Px>(frame: Rows<'f, Px>) -> impl Iterator<Item = Rows<'f, Px>> {
    let chunk = frame.width * BAND_HEIGHT;
    let width = frame.width;
    frame
        .px
        .chunks_mut(chunk)
        .zip(frame.depth.chunks_mut(chunk))
        .enumerate()
        .map(move |(b, (px, depth))| Rows {
            px,
            depth,
            width,
            y0: b * BAND_HEIGHT,
        })
}

/// Set-up triangles binned by band as they were set up: for each chunk of the model's triangles
/// (set up in parallel, one task per chunk), for each band of [`BAND_HEIGHT`] rows the chunk's
/// triangles touching it, in file order. Each set-up task writes its records straight into the
/// bands they touch, so nothing is copied or binned between set-up and fill, and a band reads its
/// triangles sequentially, chunk after chunk: copying every record into bins on the calling thread
/// after the set-up was the serial part that held two threads to 1.08x one on small triangles
/// (docs/benchmarks-history.md, round 5). Kept from draw to draw: the vectors keep their capacity.
#[derive(Debug, Default)]
pub struct BandBins {
    bands: usize,
    chunks: Vec<ChunkBins>,
    /// Chunks in use (`chunks` may hold more from a bigger draw).
    used: usize,
}

/// One set-up chunk's triangles, per band.
#[derive(Debug, Default)]
pub struct ChunkBins {
    bins: Vec<Vec<TriSetup>>,
    count: usize,
}

impl BandBins {
    /// Empty bins for `chunks` chunks over a frame `height` rows high.
    pub fn reset(&mut self, chunks: usize, height: usize) {
        self.bands = height.div_ceil(BAND_HEIGHT);
        self.used = chunks;
        self.chunks
            .resize_with(chunks.max(self.chunks.len()), ChunkBins::default);
        for c in &mut self.chunks[..chunks] {
            c.bins.resize_with(self.bands.max(c.bins.len()), Vec::new);
            for b in &mut c.bins {
                b.clear();
            }
            c.count = 0;
        }
    }

    /// The chunks in use, to be filled in parallel by the set-up.
    pub fn chunks_mut(&mut self) -> &mut [ChunkBins] {
        &mut self.chunks[..self.used]
    }

    /// Triangles set up (each counted once, however many bands it touches).
    pub fn count(&self) -> usize {
        self.chunks[..self.used].iter().map(|c| c.count).sum()
    }
}

impl ChunkBins {
    /// Add a set-up triangle to every band its rows touch.
    #[inline]
    pub fn push(&mut self, t: TriSetup) {
        let last = self.bins.len().saturating_sub(1);
        let b0 = (t.y_first.max(0) as usize / BAND_HEIGHT).min(last);
        let b1 = (t.y_last.max(0) as usize / BAND_HEIGHT).min(last);
        if let Some(bins) = self.bins.get_mut(b0..=b1) {
            for bin in bins {
                bin.push(t);
            }
        }
        self.count += 1;
    }
}

/// The triangles of one fill.
#[derive(Debug, Clone, Copy)]
pub enum Triangles<'a> {
    /// In drawing order, not binned (drawn on one thread as one band, or binned by [`fill`]).
    InOrder(&'a [TriSetup]),
    /// Binned by band at set-up, for a frame of the fill's height.
    Binned(&'a BandBins),
}

impl<'a> From<&'a [TriSetup]> for Triangles<'a> {
    fn from(t: &'a [TriSetup]) -> Self {
        Triangles::InOrder(t)
    }
}

impl<'a> From<&'a Vec<TriSetup>> for Triangles<'a> {
    fn from(t: &'a Vec<TriSetup>) -> Self {
        Triangles::InOrder(t)
    }
}

thread_local! {
    /// This thread's bins, kept from draw to draw so their vectors keep their capacity: the
    /// renderer's set-up bins into them, and [`fill_cleared`] bins triangles given in order.
    static BINS: std::cell::RefCell<BandBins> = std::cell::RefCell::new(BandBins::default());
}

/// Run `f` with this thread's reusable [`BandBins`]. The store is taken out for the call, so a
/// nested call (none today) would get fresh bins rather than a borrow error.
pub fn with_bins<R>(f: impl FnOnce(&mut BandBins) -> R) -> R {
    let mut bins = BINS.with(|b| std::mem::take(&mut *b.borrow_mut()));
    let r = f(&mut bins);
    BINS.with(|b| *b.borrow_mut() = bins);
    r
}

/// Fill set-up triangles into a `width` x `height` frame (`px` and `depth` both row-major, same
/// size) using the current rayon pool. Triangles are drawn in their order (file order) within
/// every pixel. (The tests' entry; the renderer calls [`fill_cleared`].)
#[cfg(test)]
pub fn fill<'t, P: Paint>(
    painter: &P,
    tris: impl Into<Triangles<'t>>,
    px: &mut [P::Px],
    depth: &mut [f32],
    width: usize,
    height: usize,
    mode: DepthMode,
) {
    if let Some(frame) = Rows::frame(px, depth, width, height) {
        fill_cleared(painter, tris, frame, mode, None)
    }
}

/// [`fill`], first clearing the frame to `clear` (and the depths to infinity) when it is given.
///
/// The clear is done band by band, each band's rows just before its triangles, inside the band's
/// job: the rows are then still in the cache when the triangles are drawn into them (first touch),
/// and the clear runs on every thread instead of before the parallel part. A serial clear of a
/// 1920x1080 8888 frame writes 16 MB that the fill reads back from memory, and held two threads
/// to 1.5x one on the full-screen scenes (docs/benchmarks-history.md, round 6).
pub fn fill_cleared<'t, P: Paint>(
    painter: &P,
    tris: impl Into<Triangles<'t>>,
    frame: Rows<'_, P::Px>,
    mode: DepthMode,
    clear: Option<P::Px>,
) {
    let clear_all = |frame: Rows<'_, P::Px>| {
        if let Some(c) = clear {
            clear_rows(frame.px, frame.depth, c);
        }
    };
    let (tw, th) = painter.texture_size();
    if tw == 0 || th == 0 {
        clear_all(frame);
        return;
    }
    let bins = match tris.into() {
        Triangles::InOrder([]) => {
            clear_all(frame);
            return;
        }
        Triangles::InOrder(tris) if rayon::current_num_threads() == 1 => {
            // One thread: the whole frame is one band, so there is nothing to bin (copying every
            // set-up triangle into bins was a sixth of the small-triangle frame). Every pixel
            // still sees the triangles in order, so the pixels equal the banded fill's.
            match clear {
                None => fill_band(painter, mode, tris.iter(), frame),
                Some(c) => {
                    // Cleared band by band, each band then drawn while its rows are in the cache.
                    for band in bands(frame) {
                        clear_rows(band.px, band.depth, c);
                        fill_band(painter, mode, tris.iter(), band);
                    }
                }
            }
            return;
        }
        Triangles::InOrder(tris) => {
            with_bins(|bins| {
                bins.reset(1, frame.rows());
                for t in tris {
                    bins.chunks[0].push(*t);
                }
                fill_bins(painter, mode, bins, frame, clear);
            });
            return;
        }
        Triangles::Binned(bins) if bins.count() == 0 => {
            clear_all(frame);
            return;
        }
        Triangles::Binned(bins) => bins,
    };
    fill_bins(painter, mode, bins, frame, clear);
}

/// Clear rows to `c` and their depths to infinity (nothing drawn).
#[inline]
fn clear_rows<Px: Copy>(px: &mut [Px], depth: &mut [f32], c: Px) {
    px.fill(c);
    depth.fill(f32::INFINITY);
}

/// Fill binned triangles, the bands in parallel, each band's triangles chunk after chunk (the
/// band's rows cleared first when `clear` is given).
///
/// The bands are handed out from one queue: each of the pool's threads takes the next band until
/// none is left, so a thread that finds no free core on a loaded machine holds up at most the band
/// it has, and a frame costs one spawned job per extra thread. Rayon's splitting of the bands
/// (`par_chunks_mut`) cost a fifth of a sub-millisecond frame in job plumbing and wake-ups
/// (docs/benchmarks-history.md, round 6).
fn fill_bins<P: Paint>(
    painter: &P,
    mode: DepthMode,
    bins: &BandBins,
    frame: Rows<'_, P::Px>,
    clear: Option<P::Px>,
) {
    let chunks = &bins.chunks[..bins.used];
    let threads = rayon::current_num_threads().min(frame.rows().div_ceil(BAND_HEIGHT));
    let queue = std::sync::Mutex::new(bands(frame));
    let work = || loop {
        // A panic while holding the lock cannot leave the iterator half-advanced: take it anyway.
        let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
        let Some(band) = next else {
            break;
        };
        if let Some(c) = clear {
            clear_rows(band.px, band.depth, c);
        }
        let b = band.y0 / BAND_HEIGHT;
        let tris = chunks
            .iter()
            .flat_map(|c| c.bins.get(b).into_iter().flatten());
        fill_band(painter, mode, tris, band)
    };
    rayon::scope(|s| {
        for _ in 1..threads {
            s.spawn(|_| work());
        }
        work();
    });
}
