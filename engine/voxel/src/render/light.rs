//! How voxels are lit: the light direction and, once per limb per draw, the shading of each of the
//! limb's 256 normal indices, so lighting costs a table lookup per pixel.
//!
//! Lighting, as the games' map renderers reverse-engineered it: the game light is horizontal,
//! `(-1, 0, 0)` rotated 45 degrees about Z for Tiberian Sun and 90 for Red Alert 2 in world space
//! (the same light those renderers describe in the unit's own frame, "rotated by facing - 45
//! degrees"); `H = normalize(L + Z)`, `page = clamp((max(n.L, 0) + spec(n.H)) * 16)` and the
//! pixel is `palette[vpl[page][colour]]` in every format (the 8-bit frame holds the index, the
//! true-colour ones its colour, as the games' 16-bit screens did). [`Shading::Free`] is ambient +
//! diffuse instead, `colour * (0.6 + 0.4 max(n.H, 0))` in true colour (lit from the half vector so
//! roofs catch light, which the horizontal game light never does) and the page of that brightness
//! in 8-bit.

use glam::{Mat3, Vec3, Vec4};
use modex_vxl::VxlNormalTable;

use super::RenderOptions;
use crate::volume::add_normal;

/// How voxels are shaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shading {
    /// The game's VPL pages in every format: a voxel is `palette[vpl[page][colour]]`, the page
    /// chosen by its normal (`NOTES-vxl.md`). The games drew voxels this way into their 16-bit
    /// screens, so the true-colour picture is the 8-bit one through the palette.
    #[default]
    Game,
    /// Ambient + diffuse: true colour multiplies the palette colour by the brightness, the
    /// 8-bit path picks the VPL page of that brightness.
    Free,
    /// No lighting: colours as stored.
    Unlit,
}

/// Which game's light direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LightSource {
    /// Red Alert 2's light for models shaded with table 4, Tiberian Sun's otherwise.
    #[default]
    Auto,
    /// Tiberian Sun's light: `(-1, 0, 0)` turned 45 degrees about Z.
    TiberianSun,
    /// Red Alert 2's light: `(-1, 0, 0)` turned 90 degrees about Z.
    RedAlert2,
}

impl LightSource {
    /// Direction towards the light in world space, for a model shaded with normal table
    /// `table_mode`.
    pub fn direction(self, table_mode: u8) -> Vec3 {
        let ra2 = match self {
            LightSource::Auto => table_mode == 4,
            LightSource::TiberianSun => false,
            LightSource::RedAlert2 => true,
        };
        let angle = if ra2 { 90f32 } else { 45f32 }.to_radians();
        Mat3::from_rotation_z(angle) * Vec3::new(-1.0, 0.0, 0.0)
    }
}

/// The shading of one limb in one draw, per normal index. Only the renderer builds and reads it
/// (the type is public only because the sealed [`super::VoxelPixel`] formats read it).
pub struct LimbShade {
    /// Whether the limb is lit at all (its layer's selector is not 0 and shading is on).
    pub(crate) lit: bool,
    /// VPL page per normal index (8-bit targets, and true colour when `by_page`).
    pub(crate) page: [u8; 256],
    /// Brightness per normal index in 1/256 (true-colour targets unless `by_page`). Under
    /// `by_page` nothing reads it, and it is left at 256 (not computed: 2 M instructions of the
    /// 1000-unit 1080p frame's tables; docs/benchmarks.md, issue 43).
    pub(crate) gain: [u16; 256],
    /// True colour is lit through the pages too ([`Shading::Game`]): the palette colour of
    /// `vpl[page][colour]`, as the game showed it, rather than the colour times `gain`.
    pub(crate) by_page: bool,
}

impl LimbShade {
    /// The shading of a limb whose normals `table` turns into world space by `linear` (its
    /// grid-to-world linear part without the grid scale), lit through `page_count` VPL pages.
    /// With `used`, only the normal indices marked there (bit `i % 64` of word `i / 64`) are
    /// computed (the others keep the unlit defaults): a splat or a cached sprite reads a
    /// fraction of the 256, and their tables are rebuilt whenever the light moves. `None`
    /// computes them all (a marched limb may hit any voxel).
    ///
    /// Why bits: the indices to compute are read off the set bits, a few instructions each,
    /// where a flag per index cost a test of all 256 (3.5 M instructions of the 1000-unit 1080p
    /// frame's 2 039 tables, a fifth of their cost; docs/benchmarks.md, issue 43, lever 40a).
    pub(crate) fn new_for(
        lit: bool,
        table: Option<VxlNormalTable>,
        linear: Mat3,
        opts: &RenderOptions,
        page_count: usize,
        used: Option<&[u64; 4]>,
    ) -> LimbShade {
        let mut page = [8u8; 256];
        let mut gain = [256u16; 256];
        let by_page = opts.shading == Shading::Game;
        let Some(table) = table else {
            return LimbShade {
                lit,
                page,
                gain,
                by_page,
            };
        };
        let l = opts
            .sun
            .unwrap_or_else(|| opts.light.direction(table.mode))
            .normalize_or(Vec3::Z);
        let h = (l + Vec3::Z).normalize();
        // Normals transform by the inverse transpose; for the rotations real files use this is the
        // rotation itself.
        let normal_matrix = if linear.determinant().abs() > 1e-12 {
            linear.inverse().transpose()
        } else {
            linear
        };
        let top = page_count.saturating_sub(1) as f32;
        // Only the table's real entries need computing: indices past it clamp to its last entry
        // (and 253..255 are special in the game path), so they copy that entry's result below.
        let real = table.len().min(256);
        if real == 0 {
            return LimbShade {
                lit,
                page,
                gain,
                by_page,
            };
        }
        // The indices to compute, ascending; with `used`, an index past the table needs its
        // last entry.
        let mut indices = [0u8; 256];
        let mut count = 0;
        match used {
            None => {
                for (k, i) in indices[..real].iter_mut().enumerate() {
                    *i = k as u8;
                }
                count = real;
            }
            Some(u) => {
                let below = |w: usize| match real.saturating_sub(64 * w) {
                    0 => 0,
                    n if n >= 64 => u64::MAX,
                    n => (1u64 << n) - 1,
                };
                let mut bits: [u64; 4] = std::array::from_fn(|w| u[w] & below(w));
                if (0..4).any(|w| u[w] & !below(w) != 0) {
                    bits[(real - 1) / 64] |= 1 << ((real - 1) % 64);
                }
                for (w, &word) in bits.iter().enumerate() {
                    let mut b = word;
                    while b != 0 {
                        indices[count] = (64 * w) as u8 + b.trailing_zeros() as u8;
                        count += 1;
                        b &= b - 1;
                    }
                }
            }
        }
        // Whole chunks of four: the spare lanes of the last repeat its last index (the same
        // result, written to the same entry again). Why padded here rather than each lane's index
        // clamped to the chunk: those clamps were ~35 instructions of a chunk's ~230
        // (docs/benchmarks.md, issue 43, lever 41).
        let padded = count.next_multiple_of(4);
        if count > 0 {
            let last = indices[count - 1];
            indices[count..padded].fill(last);
        }
        let lanes = Lanes::new(normal_matrix, l, h);
        for chunk in indices[..padded].chunks_exact(4) {
            let normals = std::array::from_fn(|k| table.get(chunk[k]));
            if by_page {
                let lit = lanes.light::<false>(normals, top);
                for (k, &i) in chunk.iter().enumerate() {
                    page[i as usize] = lit.page[k] as u8;
                }
                continue;
            }
            let lit = lanes.light::<true>(normals, top);
            for (k, &i) in chunk.iter().enumerate() {
                let i = i as usize;
                page[i] = match opts.shading {
                    Shading::Game => lit.page[k] as u8,
                    Shading::Free => page_for_brightness(lit.free[k], page_count),
                    Shading::Unlit => 8,
                };
                gain[i] = lit.gain[k] as u16;
            }
        }
        for i in real..256 {
            page[i] = page[real - 1];
            gain[i] = gain[real - 1];
        }
        if opts.shading == Shading::Game {
            page[253..].fill(16f32.min(top) as u8);
        }
        LimbShade {
            lit,
            page,
            gain,
            by_page,
        }
    }
}

/// `flags` (a flag per normal index) as the bit set [`LimbShade::new_for`] takes.
pub(crate) fn normal_bits(flags: &[bool; 256]) -> [u64; 4] {
    let mut bits = [0u64; 4];
    for (i, _) in flags.iter().enumerate().filter(|(_, &f)| f) {
        add_normal(&mut bits, i as u8);
    }
    bits
}

/// Four normals of a limb's table lit at once, one per lane of a vector ([`LimbShade::new_for`]).
///
/// Why: the tables were 40 M instructions of the 1000-unit 1080p frame (2 150 limbs, about 120
/// normals each), one normal at a time through glam's scalar `Vec3`. The lanes do exactly the
/// scalar operations in the scalar order (`Mat3 * Vec3` as glam sums it, `normalize_or_zero`,
/// the two dot products, the specular quotient), each an IEEE operation rounded the same way in
/// a lane as alone, so every table entry is the same bits (tested against the one-at-a-time
/// table below).
struct Lanes {
    /// The normal matrix's columns, each component splat across the lanes.
    m: [[Vec4; 3]; 3],
    /// The light and half vectors' components, splat.
    l: [Vec4; 3],
    h: [Vec4; 3],
}

/// What [`Lanes::light`] gives per lane, each before its cast: the game shading's page
/// (`clamp((max(n.L, 0) + max(n.H / (3 - 3 n.H + n.H), 0)) * 16, 0, top)`), the ambient and
/// diffuse brightness `free = 0.6 + 0.4 max(n.H, 0)` and its gain `round(free * 256)`.
struct Lit {
    page: [f32; 4],
    free: [f32; 4],
    gain: [f32; 4],
}

/// `f32::max(v, 0.0)` per lane, up to the sign of a zero (which no entry's cast can see): NaN
/// gives 0.
#[inline]
fn max_zero(v: Vec4) -> Vec4 {
    Vec4::select(v.cmpgt(Vec4::ZERO), v, Vec4::ZERO)
}

/// `round_half_away` (the scalar form, kept for the tests) per lane: the same truncation
/// (glam's `trunc` keeps NaN, infinities and values of 2^23 and above as they are, as the
/// scalar early return does), the same exact fraction, the same comparisons.
#[inline]
fn round_half_away4(v: Vec4) -> Vec4 {
    let t = v.trunc();
    let f = v - t;
    let up = Vec4::select(f.cmpge(Vec4::splat(0.5)), t + Vec4::ONE, t);
    let r = Vec4::select(f.cmple(Vec4::splat(-0.5)), t - Vec4::ONE, up);
    r.copysign(v)
}

impl Lanes {
    fn new(m: Mat3, l: Vec3, h: Vec3) -> Lanes {
        let splat3 = |v: Vec3| v.to_array().map(Vec4::splat);
        Lanes {
            m: [splat3(m.x_axis), splat3(m.y_axis), splat3(m.z_axis)],
            l: splat3(l),
            h: splat3(h),
        }
    }

    /// With `GAIN` false the gains are not worked out (left 0: [`LimbShade::gain`] says why).
    #[inline]
    fn light<const GAIN: bool>(&self, normals: [[f32; 3]; 4], top: f32) -> Lit {
        let t: [Vec4; 3] = std::array::from_fn(|c| Vec4::from_array(normals.map(|n| n[c])));
        let [c0, c1, c2] = &self.m;
        // glam's `Mat3 * Vec3`: x_axis * v.x, plus y_axis * v.y, plus z_axis * v.z.
        let n: [Vec4; 3] = std::array::from_fn(|r| c0[r] * t[0] + c1[r] * t[1] + c2[r] * t[2]);
        let dot = |a: &[Vec4; 3], b: &[Vec4; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        // `normalize_or_zero`: times 1 / sqrt(n.n) when that is finite and positive, else zero.
        let len = Vec4::from_array(dot(&n, &n).to_array().map(f32::sqrt));
        let rcp = Vec4::ONE / len;
        let ok = rcp.is_finite_mask() & rcp.cmpgt(Vec4::ZERO);
        let n = n.map(|c| Vec4::select(ok, c * rcp, Vec4::ZERO));
        let nh = dot(&n, &self.h);
        let three = Vec4::splat(3.0);
        let spec = max_zero(nh / (three - three * nh + nh));
        let d = max_zero(dot(&n, &self.l));
        // `f32::clamp(0, top)`: below 0 is 0, above `top` is `top`, NaN stays (and casts to 0).
        let page = (d + spec) * Vec4::splat(16.0);
        let page = Vec4::select(page.cmplt(Vec4::ZERO), Vec4::ZERO, page);
        let page = Vec4::select(page.cmpgt(Vec4::splat(top)), Vec4::splat(top), page);
        let free = Vec4::splat(0.6) + Vec4::splat(0.4) * max_zero(nh);
        let gain = if GAIN {
            round_half_away4(free * Vec4::splat(256.0)).to_array()
        } else {
            [0.0; 4]
        };
        Lit {
            page: page.to_array(),
            free: free.to_array(),
            gain,
        }
    }
}

/// `v.round()` (halves away from zero) without the libm call baseline x86-64 makes for it (no
/// rounding instruction before SSE4.1): a quarter of a limb table's cost. Exact: `v - trunc(v)`
/// is exact in `f32`, and values of 2^23 and above (and NaN, infinities) are already whole. The
/// tables use its four-lane form ([`round_half_away4`]); this one is what the tests hold it to.
#[cfg(test)]
fn round_half_away(v: f32) -> f32 {
    if v.is_nan() || v.abs() >= 8_388_608.0 {
        return v;
    }
    let t = v as i32 as f32;
    let f = v - t;
    let r = if f >= 0.5 {
        t + 1.0
    } else if f <= -0.5 {
        t - 1.0
    } else {
        t
    };
    // -0.3 rounds to -0.0.
    r.copysign(v)
}

/// The VPL page of brightness `b` in the game's pages (inverse of the page brightness ramp of
/// [`modex_vxl::Vpl::from_palette`]).
fn page_for_brightness(b: f32, pages: usize) -> u8 {
    let unit = 8.0 * pages as f32 / 32.0;
    let p = if b <= 1.0 {
        (b - 0.67) / 0.33 * unit
    } else {
        unit + (b - 1.0) / 0.85 * ((pages as f32 - 1.0) - unit)
    };
    p.round().clamp(0.0, pages.saturating_sub(1) as f32) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_the_std_rounding() {
        let mut rng = modex::Rng::new(7);
        let edges = [
            0.5f32, 1.5, 2.5, -0.5, -1.5, 0.49999997, 153.5, 255.5, 256.0, -0.0, 1e9,
        ];
        let random = (0..100_000).map(|_| rng.range(-300.0, 300.0));
        for v in edges.into_iter().chain(random) {
            assert_eq!(round_half_away(v).to_bits(), v.round().to_bits(), "{v}");
            // The four-lane form, in every lane.
            let four = round_half_away4(Vec4::new(v, -v, v * 0.5, v + 1e7)).to_array();
            let one = [v, -v, v * 0.5, v + 1e7].map(round_half_away);
            assert_eq!(four.map(f32::to_bits), one.map(f32::to_bits), "{v}");
        }
        let odd = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -8_388_609.5];
        let four = round_half_away4(Vec4::from_array(odd)).to_array();
        assert!(four[0].is_nan());
        assert_eq!(four[1..], odd.map(round_half_away)[1..]);
        for v in [f32::INFINITY, f32::NEG_INFINITY, 8_388_609.0, -8_388_609.0] {
            assert_eq!(round_half_away(v), v.round());
        }
        assert!(round_half_away(f32::NAN).is_nan());
        // Every gain the tables can hold, through the same cast.
        for k in 0..=100_000 {
            let v = 153.0 + k as f32 * (103.5 / 100_000.0);
            assert_eq!(round_half_away(v) as u16, v.round() as u16, "{v}");
        }
    }

    /// The table one normal at a time, as it was built before the lanes ([`Lanes`]): glam's
    /// scalar `Vec3` operations, in the order the lanes must reproduce.
    fn one_at_a_time(
        table: VxlNormalTable,
        m: Mat3,
        opts: &RenderOptions,
        page_count: usize,
        used: Option<&[bool; 256]>,
    ) -> LimbShade {
        let mut shade = LimbShade::new_for(true, None, m, opts, page_count, None);
        let l = opts.sun.unwrap().normalize_or(Vec3::Z);
        let h = (l + Vec3::Z).normalize();
        let top = page_count.saturating_sub(1) as f32;
        let real = table.len().min(256);
        let wanted =
            |i: usize| used.is_none_or(|u| u[i] || (i == real - 1 && u[real..].iter().any(|&b| b)));
        for i in (0..real).filter(|&i| wanted(i)) {
            let n = (m * Vec3::from(table.get(i as u8))).normalize_or_zero();
            let d = n.dot(l).max(0.0);
            let nh = n.dot(h);
            let free = 0.6 + 0.4 * nh.max(0.0);
            shade.page[i] = match opts.shading {
                Shading::Game => {
                    let spec = (nh / (3.0 - 3.0 * nh + nh)).max(0.0);
                    ((d + spec) * 16.0).clamp(0.0, top) as u8
                }
                Shading::Free => page_for_brightness(free, page_count),
                Shading::Unlit => 8,
            };
            shade.gain[i] = round_half_away(free * 256.0) as u16;
        }
        for i in real..256 {
            shade.page[i] = shade.page[real - 1];
            shade.gain[i] = shade.gain[real - 1];
        }
        if opts.shading == Shading::Game {
            shade.page[253..].fill(16f32.min(top) as u8);
        }
        shade
    }

    /// The tables built four normals per vector are the one-at-a-time tables, entry for entry:
    /// every normal table, every shading, random turns, scales and suns, degenerate matrices
    /// (zero, NaN, huge), all or some normal indices used.
    #[test]
    fn lanes_build_the_one_at_a_time_tables() {
        let mut rng = modex::Rng::new(43);
        let mut matrices = vec![
            Mat3::IDENTITY,
            Mat3::ZERO,
            Mat3::from_diagonal(Vec3::new(1e-30, 1e30, 1.0)),
            Mat3::from_cols(Vec3::NAN, Vec3::X, Vec3::Y),
            Mat3::from_diagonal(Vec3::splat(f32::INFINITY)),
        ];
        for _ in 0..200 {
            let turn = Mat3::from_rotation_z(rng.range(-7.0, 7.0))
                * Mat3::from_rotation_x(rng.range(-7.0, 7.0))
                * Mat3::from_rotation_y(rng.range(-7.0, 7.0));
            let scale = Vec3::new(
                rng.range(0.1, 3.0),
                rng.range(0.1, 3.0),
                rng.range(-3.0, 3.0),
            );
            matrices.push(turn * Mat3::from_diagonal(scale));
        }
        for (k, m) in matrices.into_iter().enumerate() {
            let mode = 1 + (k % 4) as u8;
            let table = VxlNormalTable::for_mode(mode).unwrap();
            let sun = Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let used: [bool; 256] = std::array::from_fn(|_| rng.range(0.0, 1.0) < 0.3);
            for shading in [Shading::Game, Shading::Free, Shading::Unlit] {
                let opts = RenderOptions {
                    shading,
                    sun: Some(sun),
                    ..RenderOptions::default()
                };
                for (pages, used) in [(32, None), (16, Some(&used)), (1, Some(&used))] {
                    let linear = m;
                    // `new_for` inverts and transposes; the reference gets the matrix it uses.
                    let normal = if linear.determinant().abs() > 1e-12 {
                        linear.inverse().transpose()
                    } else {
                        linear
                    };
                    let bits = used.map(normal_bits);
                    let got =
                        LimbShade::new_for(true, Some(table), linear, &opts, pages, bits.as_ref());
                    let want = one_at_a_time(table, normal, &opts, pages, used);
                    assert_eq!(got.page, want.page, "pages, matrix {k} {shading:?}");
                    if got.by_page {
                        // Never read under the game's shading, and not computed.
                        assert!(got.gain.iter().all(|&g| g == 256), "matrix {k}");
                    } else {
                        assert_eq!(got.gain, want.gain, "gains, matrix {k} {shading:?}");
                    }
                    if shading == Shading::Game && k >= 5 && pages == 32 {
                        // A real turn lights the table unevenly: the comparison is not of
                        // defaults.
                        let distinct = got.page[..table.len()].iter().any(|&p| p != got.page[0]);
                        assert!(distinct, "matrix {k}: one page for the whole table");
                    }
                }
            }
        }
    }

    #[test]
    fn brightness_page_round_trip() {
        assert_eq!(page_for_brightness(1.0, 32), 8);
        assert_eq!(page_for_brightness(0.6, 32), 0);
        assert_eq!(page_for_brightness(1.85, 32), 31);
    }
}
