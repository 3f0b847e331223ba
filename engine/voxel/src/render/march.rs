//! The per-pixel loop: for each pixel under a job's outline the camera ray is taken into the limb's
//! grid space and marched through the occupancy with a 3D DDA that skips empty space
//! ([`crate::LimbVolume::march`]), stopping where the depth already in the buffer would reject any
//! hit; the first filled cell is shaded and depth tested against the shared depth buffer, so MDL
//! models drawn by the triangle rasterizer with the same camera mix into the same scene.
//!
//! Rows are split into bands drawn in parallel with rayon; every pixel is computed by the same
//! operations in the same limb order whatever the banding, so 1 and N threads give identical frames.
//! The loop is generic over the pixel type, so each target format gets its own compiled loop with
//! the shading inlined, compiled in this crate (see the sealed pixel trait's `draw_pixels`).

use glam::{Mat4, Vec4};
use modex::{BlendTables, Camera};
use rayon::prelude::*;

use super::job::{Job, Projector};
use super::occlusion::{Seen, TileDepth};
use super::pixel::Shade;
use crate::vpl::Vpl;

/// Rows per parallel band.
const BAND_ROWS: usize = 8;

/// Per-pixel inputs shared by all jobs: NDC of pixel centres and the view-depth mapping.
pub(crate) struct Screen {
    width: usize,
    height: usize,
    /// NDC to view-space homogeneous (for depth on hit).
    ndc_to_view: Mat4,
    /// Skip limbs and splatted columns behind the band's max-depth tiles ([`TileDepth`]); off
    /// only to test that the skip changes no pixel.
    pub(crate) coarse_occlusion: bool,
}

impl Screen {
    pub fn new(camera: &Camera) -> Screen {
        Screen::with(&Projector::of(camera))
    }

    /// The screen of any projector (the draw cache records perspective sprites through an affine
    /// one).
    pub fn with(p: &Projector) -> Screen {
        Screen {
            width: p.width,
            height: p.height,
            ndc_to_view: p.view * p.view_projection.inverse(),
            coarse_occlusion: true,
        }
    }

    #[inline]
    fn ndc(&self, x: usize, y: usize) -> (f32, f32) {
        (
            (x as f32 + 0.5) / self.width as f32 * 2.0 - 1.0,
            1.0 - (y as f32 + 0.5) / self.height as f32 * 2.0,
        )
    }

    /// View depth at NDC (x, y) and ray parameter t between the near (t = 0) and far (t = 1) planes.
    #[inline]
    fn depth(&self, nx: f32, ny: f32, t: f32) -> f32 {
        let (za, zb) = self.depth_ends(nx, ny);
        za + t * (zb - za)
    }

    /// View depth at NDC (x, y) on the near and the far plane.
    #[inline]
    fn depth_ends(&self, nx: f32, ny: f32) -> (f32, f32) {
        let a = self.ndc_to_view * Vec4::new(nx, ny, 0.0, 1.0);
        let b = self.ndc_to_view * Vec4::new(nx, ny, 1.0, 1.0);
        (-a.z / a.w, -b.z / b.w)
    }

    /// The ray parameter past which every hit at pixel NDC (x, y) fails the depth test against
    /// `depth` (1 when the pixel is empty): rays over pixels already covered by something nearer
    /// stop there instead of marching the rest of the limb.
    ///
    /// A hit at `t` is drawn only if `za + t (zb - za) < depth`, which is increasing in `t`. The
    /// margin, far above the rounding of both sides, keeps this exact: a hit beyond the returned
    /// `t` would have been rejected, and hits before it are found and tested as before.
    #[inline]
    fn t_limit(&self, nx: f32, ny: f32, depth: f32) -> f32 {
        if !depth.is_finite() {
            return 1.0;
        }
        let (za, zb) = self.depth_ends(nx, ny);
        let range = zb - za;
        if range.is_nan() || range <= 0.0 {
            return 1.0;
        }
        let margin = 1e-5 + 1e-5 * (za.abs() + zb.abs() + depth.abs()) / range;
        let t = (depth - za) / range + margin;
        if t.is_nan() {
            1.0
        } else {
            t.min(1.0)
        }
    }
}

/// March every job over all rows of `pixels` and `depth` (both `screen.width` wide), in bands on
/// the current rayon pool when `parallel`. Returns the number of rays cast.
pub(crate) fn march_bands<P: Shade>(
    screen: &Screen,
    jobs: &[Job<'_>],
    vpl: &Vpl,
    tables: &BlendTables,
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
) -> usize {
    over_bands(screen.width, pixels, depth, parallel, |y0, p, d| {
        march_band(screen, jobs, vpl, tables, y0, p, d)
    })
}

/// Run `draw(first_row, pixels, depth)` over row bands of `pixels` and `depth` (both `width`
/// wide), on the current rayon pool when `parallel`, and sum what it returns (rays cast). The
/// direct draw and the draw cache share it, so both band the frame alike.
pub(crate) fn over_bands<P: Shade>(
    width: usize,
    pixels: &mut [P],
    depth: &mut [f32],
    parallel: bool,
    draw: impl Fn(usize, &mut [P], &mut [f32]) -> usize + Sync + Send,
) -> usize {
    // Any banding gives the same pixels (each pixel sees the draws in order); the bands only trade
    // load balance against splatted limbs being walked once per band they touch. One thread takes
    // the frame as one band; N threads get about four bands each, at least BAND_ROWS rows.
    let height = pixels.len() / width.max(1);
    let rows = if parallel {
        let bands = 4 * rayon::current_num_threads().max(1);
        height.div_ceil(bands).max(BAND_ROWS)
    } else {
        height.max(1)
    };
    let band = rows * width.max(1);
    let each = |(i, (p, d)): (usize, (&mut [P], &mut [f32]))| draw(i * rows, p, d);
    if parallel {
        pixels
            .par_chunks_mut(band)
            .zip(depth.par_chunks_mut(band))
            .enumerate()
            .map(each)
            .sum()
    } else {
        pixels
            .chunks_mut(band)
            .zip(depth.chunks_mut(band))
            .enumerate()
            .map(each)
            .sum()
    }
}

/// March one band of rows `y0..` for every job, shading each pixel whose hit passes the depth test.
/// (The draw cache records a piece's sprite through it, over just the piece's rows.)
pub(crate) fn march_band<P: Shade>(
    screen: &Screen,
    jobs: &[Job<'_>],
    vpl: &Vpl,
    tables: &BlendTables,
    y0: usize,
    pixels: &mut [P],
    depth: &mut [f32],
) -> usize {
    let rows = pixels.len() / screen.width.max(1);
    let y1 = y0 + rows;
    let mut rays = 0;
    let mut tiles = TileDepth::for_band(screen.width, y0, rows, screen.coarse_occlusion);
    for job in jobs {
        let ys = job.rect[1].max(y0)..job.rect[3].min(y1);
        if ys.is_empty() {
            continue;
        }
        let seen = tiles
            .as_mut()
            .map_or(Seen::Whole, |t| t.hides_job(job, depth));
        if seen == Seen::Hidden || job.hidden(depth, screen.width, y0) {
            continue;
        }
        // The job's tiles were refreshed by `hides_job`: its splatted columns test against them,
        // and they are stale once it has drawn.
        if let Some(splat) = &job.splat {
            let t = tiles.as_ref().filter(|_| seen == Seen::Partly);
            splat.draw_band(
                job.volume,
                &job.shade,
                vpl,
                screen.width,
                y0,
                pixels,
                depth,
                t,
            );
            if let Some(t) = &mut tiles {
                t.touched_job(job);
            }
            continue;
        }
        if let Some(t) = &mut tiles {
            t.touched_job(job);
        }
        // Translucent limbs mix over the frame and leave the depth as it was.
        let mixer = (!job.alpha.is_opaque()).then(|| P::mixer(tables, job.alpha));
        for y in ys {
            let (x0, x1) = job.row_span(y);
            for x in x0..x1 {
                rays += 1;
                let i = (y - y0) * screen.width + x;
                let (nx, ny) = screen.ndc(x, y);
                let t_max = screen.t_limit(nx, ny, depth[i]);
                let hit = match &job.affine {
                    Some([o, dx, dy, _]) => {
                        let origin = *o + *dx * x as f32 + *dy * y as f32;
                        job.volume.march_dir(origin, &job.ray_dir, 0.0, t_max)
                    }
                    None => {
                        let a = job.ndc_to_grid * Vec4::new(nx, ny, 0.0, 1.0);
                        let b = job.ndc_to_grid * Vec4::new(nx, ny, 1.0, 1.0);
                        if a.w == 0.0 || b.w == 0.0 {
                            continue;
                        }
                        let (oa, ob) = (a.truncate() / a.w, b.truncate() / b.w);
                        job.volume.march(oa, ob - oa, 0.0, t_max)
                    }
                };
                let Some(hit) = hit else {
                    continue;
                };
                let z = screen.depth(nx, ny, hit.t);
                if z < depth[i] {
                    let lit = P::shade(vpl, &job.shade, hit.colour, hit.normal);
                    match &mixer {
                        None => {
                            depth[i] = z;
                            pixels[i] = lit;
                        }
                        Some(m) => pixels[i] = P::mix(lit, pixels[i], m),
                    }
                }
            }
        }
    }
    rays
}
