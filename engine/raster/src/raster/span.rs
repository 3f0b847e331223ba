//! Span filling and the parallel band driver.
//!
//! The frame is cut into horizontal bands of [`BAND_HEIGHT`] rows; triangles are binned by the bands
//! their rows touch, and rayon fills the bands in parallel, each drawing its triangles in submission
//! order. A pixel's value depends only on the triangle's setup and the pixel's row and column (every
//! span starts from the attribute planes, never from a neighbouring row), and each band owns its rows
//! outright, so one thread and N threads produce identical pixels.
//!
//! The span loop is one generic function, monomorphised per [`Paint`] (per target format and overlay
//! mode): the per-format work is one inlined call, so no format pays for another's branches.

use rayon::prelude::*;

use super::setup::{Attrs, TriSetup};

/// Rows per band. Small enough to balance 2..16 threads on a 200-row frame, large enough that the
/// per-band bookkeeping vanishes next to the filling.
pub const BAND_HEIGHT: usize = 16;

/// What a target does with one textured, lit, depth-tested pixel: the only per-format code.
pub trait Paint: Sync {
    /// The target's pixel type.
    type Px: Copy + Send + Sync;
    /// Texture size in texels; texture coordinates wrap at these.
    fn texture_size(&self) -> (u32, u32);
    /// Paint texel `index` (row-major) lit by fixed-point `light` ([`super::LIGHT_ONE`] = 1.0) into
    /// `dst`. Returns `false` when the texel is transparent: nothing was written and the depth buffer
    /// must stay untouched.
    fn paint(&self, index: usize, light: i32, dst: &mut Self::Px) -> bool;
}

/// Depth handling of a fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DepthMode {
    /// Draw only where nearer than the buffer, and store the new depth (the default).
    #[default]
    TestAndWrite,
    /// Test but do not store (translucent passes).
    TestOnly,
    /// Ignore the buffer entirely.
    Off,
}

#[inline(always)]
fn wrap(t: i32, size: u32) -> u32 {
    if (t as u32) < size {
        t as u32
    } else {
        t.rem_euclid(size as i32) as u32
    }
}

/// Fill one span: `px` and `depth` are the span's pixels and depths, `a` the attributes at its first
/// pixel centre, `d` their step per pixel.
#[inline(always)]
fn fill_span<P: Paint, const TEST: bool, const WRITE: bool>(
    painter: &P,
    px: &mut [P::Px],
    depth: &mut [f32],
    mut a: Attrs,
    d: &Attrs,
    tw: u32,
    th: u32,
) {
    for (p, z_buf) in px.iter_mut().zip(depth.iter_mut()) {
        let w = 1.0 / a.inv_w;
        let z = a.depth_w * w;
        // `z < buffer` is false for NaN, so a degenerate value never draws.
        if !TEST || z < *z_buf {
            let u = wrap((a.u_w * w) as i32, tw);
            let v = wrap((a.v_w * w) as i32, th);
            // Rounded, so an exactly-unlit 1.0 stays the identity row after interpolation noise.
            let light = (a.light_w * w + 0.5) as i32;
            if painter.paint((v * tw + u) as usize, light, p) && WRITE {
                *z_buf = z;
            }
        }
        a.add(d);
    }
}

/// Fill the rows `y0..y0 + rows` of `tri` that lie in a band.
#[allow(clippy::too_many_arguments)]
#[inline]
fn fill_band_tri<P: Paint, const TEST: bool, const WRITE: bool>(
    painter: &P,
    tri: &TriSetup,
    px: &mut [P::Px],
    depth: &mut [f32],
    width: usize,
    band_y0: usize,
    rows: usize,
) {
    let (tw, th) = painter.texture_size();
    let first = (tri.y_first.max(band_y0 as i32)) as usize;
    let last = (tri.y_last as usize).min(band_y0 + rows - 1);
    for y in first..=last {
        let Some((x0, x1)) = tri.span(y as i32, width) else {
            continue;
        };
        let row = (y - band_y0) * width;
        let (x0, x1) = (x0 as usize, x1 as usize);
        let a = tri.attrs_at(x0 as i32, y as i32);
        fill_span::<P, TEST, WRITE>(
            painter,
            &mut px[row + x0..=row + x1],
            &mut depth[row + x0..=row + x1],
            a,
            &tri.dadx,
            tw,
            th,
        );
    }
}

thread_local! {
    /// Per-thread bin storage reused by [`fill`].
    static BINS: std::cell::RefCell<Vec<Vec<TriSetup>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Fill set-up triangles into a `width` x `height` frame (`px` and `depth` both row-major, same
/// size) using the current rayon pool. Triangles are drawn in slice order within every pixel.
pub fn fill<P: Paint>(
    painter: &P,
    tris: &[TriSetup],
    px: &mut [P::Px],
    depth: &mut [f32],
    width: usize,
    height: usize,
    mode: DepthMode,
) {
    let n = width * height;
    if n == 0 || px.len() < n || depth.len() < n || tris.is_empty() {
        return;
    }
    let (tw, th) = painter.texture_size();
    if tw == 0 || th == 0 {
        return;
    }
    let bands = height.div_ceil(BAND_HEIGHT);
    // Bins hold copies, not indices: a band then reads its triangles sequentially instead of
    // gathering them from all over the setup array (measured: with 100k small triangles the
    // gather's cache misses were a fifth of the frame). The bin storage is kept per thread and
    // reused from frame to frame: fresh multi-megabyte allocations cost more in page faults than
    // the binning itself (perf: page faults and memmove were a third of the small-triangle frame).
    let mut bins = BINS.with(|b| std::mem::take(&mut *b.borrow_mut()));
    bins.resize_with(bands.max(bins.len()), Vec::new);
    for bin in &mut bins {
        bin.clear();
    }
    for t in tris {
        let b0 = t.y_first.max(0) as usize / BAND_HEIGHT;
        let b1 = (t.y_last.max(0) as usize / BAND_HEIGHT).min(bands - 1);
        for bin in &mut bins[b0..=b1] {
            bin.push(*t);
        }
    }
    let chunk = width * BAND_HEIGHT;
    px[..n]
        .par_chunks_mut(chunk)
        .zip(depth[..n].par_chunks_mut(chunk))
        .zip(bins[..bands].par_iter())
        .enumerate()
        .for_each(|(b, ((px, depth), bin))| {
            let y0 = b * BAND_HEIGHT;
            let rows = px.len() / width;
            for t in bin {
                match mode {
                    DepthMode::TestAndWrite => {
                        fill_band_tri::<P, true, true>(painter, t, px, depth, width, y0, rows)
                    }
                    DepthMode::TestOnly => {
                        fill_band_tri::<P, true, false>(painter, t, px, depth, width, y0, rows)
                    }
                    DepthMode::Off => {
                        fill_band_tri::<P, false, false>(painter, t, px, depth, width, y0, rows)
                    }
                }
            }
        });
    BINS.with(|b| *b.borrow_mut() = bins);
}
