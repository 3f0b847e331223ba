//! Lighting: the sun and ambient of a scene, per-vertex Gouraud intensities from the MDL normal table,
//! and the palette shade table (colormap) the 8-bit path lights through.
//!
//! Intensities are fixed point with [`LIGHT_ONE`] = 256 meaning "the skin as painted". The 8-bit path
//! cannot multiply colours, so, as Quake's software renderer did, it looks the lit colour up in a
//! table of [`SHADE_LEVELS`] rows of 256 palette indices, one row per light level, built once from the
//! palette. The true-colour paths multiply each channel instead.

use glam::Vec3;
use std::sync::OnceLock;

use modex::{NearestColours, Palette};
use modex_mdl::normals::{mdl_normals, MDL_NORMAL_COUNT};

/// Fixed-point intensity meaning 1.0 (the skin colour unchanged).
pub const LIGHT_ONE: i32 = 256;
/// Brightest intensity the pipeline carries (just under 2.0: overbright, as Quake's colormap allowed).
pub const LIGHT_MAX: i32 = 2 * LIGHT_ONE - 1;
/// Rows in the 8-bit shade table. Row `k` holds the palette lit by `k / 32`: row 32 is the identity,
/// rows above it are overbright.
pub const SHADE_LEVELS: usize = 64;
/// The shade-table row that leaves colours unchanged.
pub const SHADE_IDENTITY: usize = 32;
/// Fixed-point intensity units per shade-table row.
pub const LIGHT_PER_LEVEL: i32 = LIGHT_ONE / SHADE_IDENTITY as i32;

/// The scene's light: one directional "sun" plus ambient light, in world space (Z up).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Light {
    /// Direction the light travels (from the sun towards the scene); need not be normalised.
    pub direction: Vec3,
    /// Light every surface receives, 0..2 (1 = skin colour).
    pub ambient: f32,
    /// Sun strength for a fully reflective (albedo 100) surface facing it, 0..2.
    pub diffuse: f32,
}

impl Default for Light {
    /// Sun from above, behind the default camera's left shoulder.
    fn default() -> Self {
        Light {
            direction: Vec3::new(0.5, 0.8, -1.0),
            ambient: 0.35,
            diffuse: 1.3,
        }
    }
}

/// How strongly a surface reflects the scene's light: factors on the ambient and on the sun
/// term of [`Light::intensity`] (an A7 material's `ambient` and `diffuse`, already turned into
/// light factors). [`Material::PLAIN`] leaves the light as the scene gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Factor on the ambient light (the scene's and the entity's own).
    pub ambient: f32,
    /// Factor on the sun.
    pub diffuse: f32,
}

impl Material {
    /// The light as the scene gives it: models outside a level, the demo, the viewers.
    pub const PLAIN: Material = Material {
        ambient: 1.0,
        diffuse: 1.0,
    };

    /// A GameStudio material's `ambient` and `diffuse` (0..255) as light factors: `2 v / 255`.
    /// The engine's fixed-function path modulates the texture by twice the lit vertex colour
    /// (Direct3D's `MODULATE2X`, as its lightmaps are stored at half range), so a factor of 255
    /// doubles the light and 128 leaves it as it is. Measured on Ackmania's own screenshots
    /// (`docs/lighting.md`): its default-material track shows exactly `400/255` times the light
    /// without a material.
    pub const fn acknex(ambient: u8, diffuse: u8) -> Material {
        Material {
            ambient: 2.0 * ambient as f32 / 255.0,
            diffuse: 2.0 * diffuse as f32 / 255.0,
        }
    }
}

impl Default for Material {
    fn default() -> Self {
        Material::PLAIN
    }
}

impl Light {
    /// A sun over the camera's left shoulder (from above, left and behind the eye), so whatever the
    /// camera looks at is lit from the front with a visible shading gradient: the viewer's and the
    /// headless renders' light.
    pub fn over_shoulder(camera: &modex::Camera, ambient: f32, diffuse: f32) -> Light {
        let forward = camera.forward();
        let right = forward.cross(Vec3::Z).normalize_or(Vec3::X);
        let up = right.cross(forward);
        Light {
            direction: forward + right * 0.6 - up * 0.8,
            ambient,
            diffuse,
        }
    }

    /// The per-vertex intensity (fixed point, [`LIGHT_ONE`] = 1.0) for a surface whose normal has
    /// cosine `n_dot_l` with the direction towards the sun.
    ///
    /// The A5 entity fields give the ranges but not the formula (the manual: `ambient` -100..+100,
    /// `albedo` 0..100 "light reflectivity"). We use
    /// `Ma (ambient_scene + ambient_entity / 100) + Md diffuse * albedo / 100 * max(0, n . l)`,
    /// clamped to 0..[`LIGHT_MAX`]: albedo scales only the sun, ambient adds uniformly, as the
    /// fields' names say, and the material's factors `Ma`, `Md` ([`Material`]) weigh the two as
    /// Direct3D's fixed-function lighting weighs them by the material's ambient and diffuse.
    #[inline]
    pub fn intensity(
        &self,
        n_dot_l: f32,
        entity_ambient: f32,
        entity_albedo: f32,
        material: Material,
    ) -> f32 {
        let lit = material.ambient * (self.ambient + entity_ambient / 100.0)
            + material.diffuse * self.diffuse * (entity_albedo / 100.0) * n_dot_l.max(0.0);
        (lit * LIGHT_ONE as f32).clamp(0.0, LIGHT_MAX as f32)
    }

    /// Unit vector from the surface towards the sun.
    pub fn towards_sun(&self) -> Vec3 {
        (-self.direction).normalize_or(Vec3::Z)
    }
}

/// For each of the 162 table normals, the cosine with `towards_light` (model space): Quake's
/// "shadedots". Lighting a vertex is then one table read, whatever the model's size.
pub fn normal_table_dots(towards_light: Vec3) -> [f32; MDL_NORMAL_COUNT] {
    let mut dots = [0.0; MDL_NORMAL_COUNT];
    for (d, n) in dots.iter_mut().zip(mdl_normals()) {
        *d = Vec3::from_array(*n).dot(towards_light);
    }
    dots
}

/// Palette-derived tables for the 8-bit target: the shade table (colormap) and the RGB → index
/// lookup that maps true-colour skins into the palette. Both are built on first use, then shared
/// between draws and threads: a renderer that only draws true colour never asks for them (the
/// colormap's 16 128 palette searches were 27 % of a one-shot `modex render` of a model in 8888).
#[derive(Debug, Clone)]
pub struct ShadeTable {
    palette: Palette,
    /// The colormap, built when an 8-bit draw first asks ([`ShadeTable::colormap`]).
    colormap: OnceLock<ColormapTables>,
    /// RGB → nearest index among 1..=255, exact, built on first use (only 8-bit pictures of
    /// true-colour skins ask). Index 0 is left out so a true-colour texel can never turn into the
    /// overlay key by accident.
    rgb: OnceLock<NearestColours>,
}

/// `SHADE_LEVELS` rows of 256 palette indices (index `c` lit to row `level`'s brightness), as
/// bytes and as words. (Not `pixel::Colormap`, the 8-bit lighting that reads them.)
#[derive(Debug, Clone)]
struct ColormapTables {
    bytes: Vec<u8>,
    /// The same indices one per 32-bit word, for the 8-bit AVX2 kernel's gather.
    words: Vec<u32>,
}

impl ColormapTables {
    fn new(palette: &Palette) -> ColormapTables {
        let colors = &palette.colors;
        let mut bytes = vec![0u8; SHADE_LEVELS * 256];
        for (level, row) in bytes.chunks_exact_mut(256).enumerate() {
            for (c, out) in row.iter_mut().enumerate() {
                *out = if level == SHADE_IDENTITY {
                    // Exactly the identity, even where the palette repeats a colour.
                    c as u8
                } else {
                    // Row `level` serves every light from `level` up to the next row
                    // (`level_of` rounds down), so it holds the colour at the middle of that
                    // range, rounded: built at the row's floor, every shaded pixel came out on
                    // average half a row (1.6 % of its brightness) too dark.
                    // Row 0 stays the floor: no light is black.
                    let middle = if level == 0 { 0 } else { 2 * level + 1 };
                    let rgb = colors[c].map(|v| {
                        ((v as usize * middle + SHADE_IDENTITY) / (2 * SHADE_IDENTITY)).min(255)
                            as u8
                    });
                    palette.nearest(rgb)
                };
            }
        }
        ColormapTables {
            words: bytes.iter().map(|&c| c as u32).collect(),
            bytes,
        }
    }
}

impl ShadeTable {
    /// The tables of `palette` (each built when first asked for).
    pub fn new(palette: &Palette) -> ShadeTable {
        ShadeTable {
            palette: palette.clone(),
            colormap: OnceLock::new(),
            rgb: OnceLock::new(),
        }
    }

    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    fn built(&self) -> &ColormapTables {
        self.colormap
            .get_or_init(|| ColormapTables::new(&self.palette))
    }

    /// The whole shade table, `SHADE_LEVELS` rows of 256.
    pub fn colormap(&self) -> &[u8] {
        &self.built().bytes
    }

    /// [`ShadeTable::colormap`] one index per 32-bit word: a vector kernel gathers its shades
    /// from it directly (from the bytes, each gathered word had to be masked and shifted).
    pub fn colormap_words(&self) -> &[u32] {
        &self.built().words
    }

    /// Palette index `index` lit by fixed-point intensity `light`.
    #[inline]
    pub fn shade(&self, index: u8, light: i32) -> u8 {
        self.colormap()[level_of(light) * 256 + index as usize]
    }

    /// The palette index (1..=255) nearest to an RGB colour, exactly (as
    /// [`Palette::nearest_in`]`(rgb, 1..=255)`).
    #[inline]
    pub fn index_of(&self, rgb: [u8; 3]) -> u8 {
        self.rgb
            .get_or_init(|| NearestColours::new(&self.palette, 1..=255))
            .nearest(rgb)
    }
}

/// Shade-table row for fixed-point intensity `light` (clamped).
#[inline]
pub fn level_of(light: i32) -> usize {
    (light / LIGHT_PER_LEVEL).clamp(0, SHADE_LEVELS as i32 - 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_row_and_darkening() {
        let t = ShadeTable::new(&Palette::quake());
        for i in 0..=255u8 {
            assert_eq!(t.shade(i, LIGHT_ONE), i);
        }
        // Quake's white at intensity 0 is black.
        let black = t.shade(254, 0);
        assert_eq!(t.palette().colors[black as usize], [0, 0, 0]);
        // Half light is darker than full light for a bright colour.
        let half = t.palette().colors[t.shade(254, LIGHT_ONE / 2) as usize];
        assert!(half[0] < 200 && half[0] > 60, "{half:?}");
    }

    #[test]
    fn rgb_lookup_never_returns_the_overlay_key() {
        let t = ShadeTable::new(&Palette::quake());
        assert_ne!(t.index_of([0, 0, 0]), 0);
        assert_eq!(
            t.palette().colors[t.index_of([255, 255, 255]) as usize],
            [255, 255, 255]
        );
        // Exact for dark 565 colours, which sit at the bottom of their 8x8x8 cells.
        for v in 0..32u8 {
            let c = [
                (v << 3) | (v >> 2),
                (v << 3) | (v >> 2),
                ((v / 2) << 3) | (v >> 3),
            ];
            assert_eq!(t.index_of(c), t.palette().nearest_in(c, 1..=255), "{c:?}");
        }
    }

    #[test]
    fn intensity_follows_the_entity_fields() {
        let l = Light {
            direction: -Vec3::Z,
            ambient: 0.25,
            diffuse: 1.0,
        };
        let plain = Material::PLAIN;
        assert_eq!(l.intensity(1.0, 0.0, 100.0, plain), 1.25 * 256.0);
        assert_eq!(l.intensity(-1.0, 0.0, 100.0, plain), 0.25 * 256.0);
        assert_eq!(l.intensity(1.0, 0.0, 0.0, plain), 0.25 * 256.0);
        assert_eq!(l.intensity(0.0, -100.0, 50.0, plain), 0.0);
        assert_eq!(l.intensity(1.0, 100.0, 100.0, plain), LIGHT_MAX as f32);
        // A material weighs ambient and sun apart: ambient x 2, sun x 0.5.
        let m = Material {
            ambient: 2.0,
            diffuse: 0.5,
        };
        assert_eq!(l.intensity(1.0, 25.0, 100.0, m), (2.0 * 0.5 + 0.5) * 256.0);
        assert_eq!(l.intensity(-1.0, 25.0, 100.0, m), 2.0 * 0.5 * 256.0);
        let dots = normal_table_dots(Vec3::Z);
        assert_eq!(dots[5], 1.0); // entry 5 is (0, 0, 1)
    }

    #[test]
    fn acknex_materials_modulate_twice_the_light() {
        // 128 of 255 leaves the light as it is (within a half step); 255 doubles it.
        let half = Material::acknex(128, 128);
        assert!((half.ambient - 1.0).abs() < 0.01 && (half.diffuse - 1.0).abs() < 0.01);
        assert_eq!(
            Material::acknex(255, 0),
            Material {
                ambient: 2.0,
                diffuse: 0.0
            }
        );
    }
}
