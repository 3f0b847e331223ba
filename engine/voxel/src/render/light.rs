//! How voxels are lit: the light direction and, once per limb per draw, the shading of each of the
//! limb's 256 normal indices, so lighting costs a table lookup per pixel.
//!
//! Lighting, as the games' map renderers reverse-engineered it: the game light is horizontal,
//! `(-1, 0, 0)` rotated 45 degrees about Z for Tiberian Sun and 90 for Red Alert 2 in world space
//! (the same light those renderers describe in the unit's own frame, "rotated by facing - 45
//! degrees"); `H = normalize(L + Z)`, `page = clamp((max(n.L, 0) + spec(n.H)) * 16)` and the
//! 8-bit pixel is `vpl[page][colour]`. The true-colour path is ambient + diffuse,
//! `colour * (0.6 + 0.4 max(n.H, 0))` — lit from the half vector so roofs catch light, which the
//! horizontal game light never does.

use glam::{Mat3, Vec3};
use modex_vxl::VxlNormalTable;

use super::RenderOptions;

/// How voxels are shaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shading {
    /// The game's VPL pages (8-bit) / ambient + diffuse (true colour).
    #[default]
    Game,
    /// Ambient + diffuse in both paths (the 8-bit path picks the VPL page of that brightness).
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
    /// VPL page per normal index (8-bit targets).
    pub(crate) page: [u8; 256],
    /// Brightness per normal index in 1/256 (true-colour targets).
    pub(crate) gain: [u16; 256],
}

impl LimbShade {
    /// The shading of a limb whose normals `table` turns into world space by `linear` (its
    /// grid-to-world linear part without the grid scale), lit through `page_count` VPL pages.
    /// With `used`, only the normal indices marked there are computed (the others keep the unlit
    /// defaults): a splat or a cached sprite reads a fraction of the 256, and their tables are
    /// rebuilt whenever the light moves. `None` computes them all (a marched limb may hit any
    /// voxel).
    pub(crate) fn new_for(
        lit: bool,
        table: Option<VxlNormalTable>,
        linear: Mat3,
        opts: &RenderOptions,
        page_count: usize,
        used: Option<&[bool; 256]>,
    ) -> LimbShade {
        let mut page = [8u8; 256];
        let mut gain = [256u16; 256];
        let Some(table) = table else {
            return LimbShade { lit, page, gain };
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
            return LimbShade { lit, page, gain };
        }
        // With `used`, an index past the table needs its last entry.
        let wanted =
            |i: usize| used.is_none_or(|u| u[i] || (i == real - 1 && u[real..].iter().any(|&b| b)));
        for i in (0..real).filter(|&i| wanted(i)) {
            let n = (normal_matrix * Vec3::from(table.get(i as u8))).normalize_or_zero();
            let d = n.dot(l).max(0.0);
            let nh = n.dot(h);
            let free = 0.6 + 0.4 * nh.max(0.0);
            page[i] = match opts.shading {
                Shading::Game => {
                    let spec = (nh / (3.0 - 3.0 * nh + nh)).max(0.0);
                    ((d + spec) * 16.0).clamp(0.0, top) as u8
                }
                Shading::Free => page_for_brightness(free, page_count),
                Shading::Unlit => 8,
            };
            gain[i] = round_half_away(free * 256.0) as u16;
        }
        for i in real..256 {
            page[i] = page[real - 1];
            gain[i] = gain[real - 1];
        }
        if opts.shading == Shading::Game {
            page[253..].fill(16f32.min(top) as u8);
        }
        LimbShade { lit, page, gain }
    }
}

/// `v.round()` (halves away from zero) without the libm call baseline x86-64 makes for it (no
/// rounding instruction before SSE4.1): a quarter of a limb table's cost. Exact: `v - trunc(v)`
/// is exact in `f32`, and values of 2^23 and above (and NaN, infinities) are already whole.
#[inline]
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
        }
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

    #[test]
    fn brightness_page_round_trip() {
        assert_eq!(page_for_brightness(1.0, 32), 8);
        assert_eq!(page_for_brightness(0.6, 32), 0);
        assert_eq!(page_for_brightness(1.85, 32), 31);
    }
}
