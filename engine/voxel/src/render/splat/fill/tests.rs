//! The vector face fill against the scalar one: random faces drawn into random bands give the same
//! colour and depth bytes through both, and so do whole frames of the battlefield's units.

use glam::Vec3;
use modex::{Argb8888, Camera, Palette, Rgb565, Rng};
use proptest::prelude::*;

use super::super::band::FaceBand;
use super::super::FaceRaster;
use super::{self as fill, FaceFill, Scalar};
use crate::render::occlusion::tests::{crowd, draw, load};
use crate::render::pixel::Shade;
use modex_vxl::Vpl;

/// One random face: screen edges, depth steps, centre (band-relative y) and depth there.
#[derive(Debug, Clone)]
struct Face {
    e1: [f32; 2],
    e2: [f32; 2],
    dz: [f32; 2],
    centre: [f32; 2],
    fz: f32,
}

fn face() -> impl Strategy<Value = Face> {
    let edge = || [-14.0f32..14.0, -14.0f32..14.0];
    (
        edge(),
        edge(),
        [-3.0f32..3.0, -3.0f32..3.0],
        [-12.0f32..60.0, -12.0f32..40.0],
        0.0f32..12.0,
    )
        .prop_map(|(e1, e2, dz, centre, fz)| Face {
            e1,
            e2,
            dz,
            centre,
            fz,
        })
}

/// `faces` drawn one after another into a band `width` wide of `rows` rows from screen row `y0`,
/// whose depths and pixels start from `seed` (ties with the faces' centre depths, infinities and
/// NaNs among them), with row fill `fill`: the band's pixels and depth bits.
fn draw_faces<P: Shade, F: FaceFill>(
    faces: &[Face],
    (width, y0, rows): (usize, usize, usize),
    seed: u64,
    pixel: impl Fn(u32) -> P,
    fill: F,
) -> (Vec<P>, Vec<u32>) {
    let mut rng = Rng::new(seed);
    let n = width * rows;
    let mut depth: Vec<f32> = (0..n)
        .map(|i| match rng.below(16) {
            0 => f32::INFINITY,
            1 => f32::NAN,
            2 => faces[i % faces.len()].fz,
            _ => rng.range(-1.0, 14.0),
        })
        .collect();
    let mut pixels: Vec<P> = (0..n).map(|_| pixel(rng.next_u32())).collect();
    let mut band = FaceBand {
        width,
        y0,
        top: y0 as f32,
        last_x: (width - 1) as f32,
        last_y: (y0 + rows - 1) as f32,
        last_xi: (width - 1) as i32,
        last_yi: (y0 + rows - 1) as i32,
        pixels: &mut pixels,
        depth: &mut depth,
        fill,
    };
    for (k, f) in faces.iter().enumerate() {
        let raster = FaceRaster::new(f.e1, f.e2, f.dz);
        if raster.inv_det == 0.0 {
            continue;
        }
        let lit = pixel(0x9e37_79b9u32.wrapping_mul(k as u32 + 1));
        band.face(f.centre[0], y0 as f32 + f.centre[1], f.fz, &raster, lit);
    }
    (pixels, depth.iter().map(|d| d.to_bits()).collect())
}

/// Both fills over the same faces and band, in one pixel format.
fn same_bytes<P: Shade + PartialEq + std::fmt::Debug>(
    faces: &[Face],
    band: (usize, usize, usize),
    seed: u64,
    pixel: impl Fn(u32) -> P + Copy,
) -> Result<(), TestCaseError> {
    let Some(avx2) = fill::avx2_fill() else {
        return Ok(());
    };
    let scalar = draw_faces(faces, band, seed, pixel, Scalar);
    let vector = draw_faces(faces, band, seed, pixel, avx2);
    prop_assert_eq!(&scalar.1, &vector.1, "depths differ");
    prop_assert!(scalar.0 == vector.0, "pixels differ");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Random faces, from stamped slivers to scanned faces wider than the band, partly outside
    /// it, over random depths: the same pixels and depth bits through the vector and the scalar
    /// fill, in 8-bit, 565 and 8888.
    #[test]
    fn the_vector_fill_writes_the_scalar_fills_bytes(
        faces in proptest::collection::vec(face(), 1..12),
        width in 1usize..70,
        y0 in 0usize..30,
        rows in 1usize..40,
        seed in any::<u64>(),
    ) {
        let band = (width, y0, rows);
        same_bytes(&faces, band, seed, |v| v as u8)?;
        same_bytes(&faces, band, seed, |v| Rgb565(v as u16))?;
        same_bytes(&faces, band, seed, Argb8888)?;
    }
}

/// The property above is not vacuous: on this CPU the vector fill runs (or the skip is said),
/// and random faces scan rows of every length up to past eight pixels.
#[test]
fn the_vector_fill_is_exercised() {
    if fill::avx2_fill().is_none() {
        eprintln!("skipped: this CPU has no AVX2, so only the scalar fill runs here");
        return;
    }
    fill::FACES.with(|r| r.set(0));
    let mut rng = Rng::new(43);
    let faces: Vec<Face> = (0..200)
        .map(|_| Face {
            e1: [rng.range(-14.0, 14.0), rng.range(-14.0, 14.0)],
            e2: [rng.range(-14.0, 14.0), rng.range(-14.0, 14.0)],
            dz: [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)],
            centre: [rng.range(-5.0, 50.0), rng.range(-5.0, 30.0)],
            fz: rng.range(0.0, 12.0),
        })
        .collect();
    let avx2 = fill::avx2_fill().unwrap();
    let a = draw_faces(&faces, (48, 4, 26), 7, |v| v as u8, Scalar);
    let b = draw_faces(&faces, (48, 4, 26), 7, |v| v as u8, avx2);
    assert_eq!(a, b);
    let rows = fill::FACES.with(|r| r.get());
    assert!(rows > 100, "{rows} faces filled by vectors");
}

/// Whole frames: the demo's units, a 1000-unit battlefield at 960x540 under the demo's camera
/// (cells of one to a few pixels) and a close crowd (large cells, long rows), drawn with the
/// vector fill and with the scalar one, give the same pixels and depth bits, 8-bit and 8888.
#[test]
fn frames_are_the_same_with_either_fill() {
    if fill::avx2_fill().is_none() {
        eprintln!("skipped: this CPU has no AVX2, so only the scalar fill runs here");
        return;
    }
    let sets = [load("tank", true), load("apc", false), load("heli", false)];
    let vpl = Vpl::from_palette(&Palette::quake(), 32);
    let cases = [(340.0, 960, 540, 1000, 200.0), (120.0, 480, 270, 60, 40.0)];
    for (distance, w, h, units, spread) in cases {
        let cam = Camera::orbit(Vec3::ZERO, distance, 0.6, 0.62, 50f32.to_radians(), w, h);
        let scene = crowd(&sets, units, spread, cam.eye);
        let both = |name: &str, frames: &dyn Fn() -> (Vec<u8>, Vec<u32>)| {
            fill::scalar_only(true);
            let scalar = frames();
            fill::scalar_only(false);
            fill::FACES.with(|r| r.set(0));
            let vector = frames();
            let rows = fill::FACES.with(|r| r.get());
            assert!(rows > 1000, "{name}: only {rows} faces filled by vectors");
            let covered = scalar
                .1
                .iter()
                .filter(|&&d| d != f32::INFINITY.to_bits())
                .count();
            assert!(covered > w * h / 4, "{name}: {covered} pixels covered");
            assert!(scalar == vector, "{name}: pixels or depths differ");
        };
        both(&format!("{units} units, 8-bit"), &|| {
            draw::<u8>(&scene, &cam, &vpl, false, true, 300.0)
        });
        both(&format!("{units} units, 8888"), &|| {
            let (p, d) = draw::<Argb8888>(&scene, &cam, &vpl, false, true, 300.0);
            (p.iter().flat_map(|p| p.0.to_le_bytes()).collect(), d)
        });
    }
}

/// Faces from six to eleven rows tall, at every fraction of a row: the vector fill's one-block
/// path (at most eight rows) and its loop over blocks (more) both write the scalar fill's bytes,
/// the faces of exactly eight and nine rows among them.
#[test]
fn faces_either_side_of_eight_rows_match_the_scalar_fill() {
    let Some(avx2) = fill::avx2_fill() else {
        eprintln!("skipped: this CPU has no AVX2, so only the scalar fill runs here");
        return;
    };
    let mut heights = [0usize; 16];
    let mut faces = Vec::new();
    for i in 0..240 {
        let h = 5.0 + i as f32 * 0.025;
        let slant = (i % 7) as f32 * 0.4 - 1.2;
        let f = Face {
            e1: [3.0 + (i % 5) as f32, slant],
            e2: [0.3 * slant, h],
            dz: [0.25, -0.5],
            centre: [20.0 + (i % 9) as f32 * 0.37, 12.0 + (i % 11) as f32 * 0.093],
            fz: 1.0 + (i % 13) as f32 * 0.5,
        };
        let raster = FaceRaster::new(f.e1, f.e2, f.dz);
        let ry = raster.reach[1];
        let (ya, yb) = (f.centre[1] - ry - 0.5, f.centre[1] + ry - 0.5);
        let rows = (yb.floor() - ya.ceil() + 1.0).max(0.0) as usize;
        heights[rows.min(15)] += 1;
        faces.push(f);
    }
    assert!(
        heights[8] > 0 && heights[9] > 0 && heights[7] > 0,
        "rows per face: {heights:?}"
    );
    for seed in 0..4 {
        let a = draw_faces(&faces, (48, 0, 40), seed, |v| v as u8, Scalar);
        let b = draw_faces(&faces, (48, 0, 40), seed, |v| v as u8, avx2);
        assert_eq!(a, b, "seed {seed}");
        let a = draw_faces(&faces, (48, 0, 40), seed, Argb8888, Scalar);
        let b = draw_faces(&faces, (48, 0, 40), seed, Argb8888, avx2);
        assert!(a == b, "8888, seed {seed}");
    }
}

/// Faces centred on rows that are NaN, infinite, far beyond 2^24 or exactly on the band's edges:
/// the vector fill's clip of a face's rows (MAXSS / MINSS and truncations of its own) gives the
/// scalar fill's bytes, including where it leaves the face to the scalar fill.
#[test]
fn faces_at_odd_rows_match_the_scalar_fill() {
    let Some(avx2) = fill::avx2_fill() else {
        eprintln!("skipped: this CPU has no AVX2, so only the scalar fill runs here");
        return;
    };
    let rows = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        3e9,
        -3e9,
        (1 << 24) as f32,
        (1 << 24) as f32 + 7.0,
        -0.0,
        0.0,
        -4.5,
        -3.5,
        3.0,
        20.5,
        29.5,
        33.0,
    ];
    let faces: Vec<Face> = rows
        .iter()
        .enumerate()
        .map(|(i, &y)| Face {
            e1: [4.0 + i as f32 * 0.1, 0.7],
            e2: [-0.4, 5.0 + i as f32 * 0.2],
            dz: [0.25, -0.5],
            centre: [17.0 + i as f32, y],
            fz: 2.0 + i as f32 * 0.3,
        })
        .collect();
    for (y0, seed) in [(0, 1), (5, 2), ((1 << 24) - 10, 3)] {
        let band = (40, y0, 30);
        let a = draw_faces(&faces, band, seed, |v| v as u8, Scalar);
        let b = draw_faces(&faces, band, seed, |v| v as u8, avx2);
        assert_eq!(a, b, "band from row {y0}");
    }
}

/// A small (stamped) face centred on NaN, an infinity or 2^31 pixels and more off the band, where
/// the stamp's first pixel comes out negative and the face goes to the scanned fill (lever 34b),
/// draws nothing through either fill: every pixel and depth of the band stays as it was. (The
/// same faces made edge-on, which `draw_faces` skips, give the untouched band: the band's
/// starting depths depend only on the faces' centre depths.)
#[test]
fn a_stamped_face_centred_off_every_band_draws_nothing() {
    let small = |centre: [f32; 2]| Face {
        e1: [1.5, 0.2],
        e2: [-0.3, 1.2],
        dz: [0.1, 0.2],
        centre,
        fz: 5.0,
    };
    assert!(FaceRaster::new([1.5, 0.2], [-0.3, 1.2], [0.1, 0.2])
        .stamp
        .is_some());
    let far = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        2_147_483_648.0,
        -2_147_483_648.0,
        3e9,
        -3e9,
        f32::MAX,
    ];
    let faces: Vec<Face> = far
        .iter()
        .flat_map(|&v| [small([v, 4.0]), small([4.0, v]), small([v, v])])
        .collect();
    let edge_on: Vec<Face> = faces
        .iter()
        .map(|f| Face {
            e1: [0.0, 0.0],
            e2: [0.0, 0.0],
            ..f.clone()
        })
        .collect();
    let band = (40, 3, 20);
    let untouched = draw_faces(&edge_on, band, 7, |v| v as u8, Scalar);
    assert_eq!(draw_faces(&faces, band, 7, |v| v as u8, Scalar), untouched);
    if let Some(avx2) = fill::avx2_fill() {
        assert_eq!(draw_faces(&faces, band, 7, |v| v as u8, avx2), untouched);
    } else {
        eprintln!("skipped the vector fill: this CPU has no AVX2");
    }
}
