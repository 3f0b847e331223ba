//! Which pixel format shows a file's colours, and the palette its 8-bit picture is drawn with.
//!
//! # The format rule
//! `modex render` without `--format` draws palettized content (8-bit skins, voxel units, cutscenes)
//! into the 8-bit mode-X frame, as the games drew it, and true-colour content (levels, whose
//! textures and lightmaps are 565/888; 565/4444/888/8888, DDS and external image skins) into 8888,
//! so nothing is squeezed into a palette it was not made for ([`Colours::of_models`],
//! [`Colours::format`]).
//!
//! # The 8-bit palette of true-colour content
//! When 8-bit is asked for true-colour content, the picture is drawn with, in this order: the
//! palette the user gave (`--palette`); the file's own palette when it has one of its own; else a
//! palette built from the colours the content draws ([`content_palette`]). A level's `palettes`
//! list does not count when it holds the stock Quake palette ([`is_stock`]): the level compiler
//! writes that one into every level whatever its textures, and a desert drawn through it turns
//! pink.
//!
//! The palette is built by NeuQuant (`color_quant`, MIT, kept by the image-rs project, already
//! what the `image` and `gif` crates quantize with, pure Rust so the page builds it the same way):
//! a small, well-kept crate whose palettes keep the mean colour of the content, which the 8-bit
//! frame's nearest-colour mapping then keeps too (`imagequant`, the better-known choice, is GPL).
//! Index 0 stays black: the rasterizer keeps it for transparent texels.

use modex::{Palette, TargetFormat};
use modex_mdl::{Model, SkinPixels};

/// Whether content was made for a palette or in true colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colours {
    /// 8-bit palette indices (8-bit skins, voxel units, cutscene pictures), or nothing coloured.
    Palettized,
    /// 16- to 32-bit colour (levels, true-colour and image-file skins).
    TrueColour,
}

impl Colours {
    /// True colour when any skin of any model is stored in true colour (565, 4444, 888, 8888,
    /// DDS, or an external image file), else palettized.
    pub fn of_models<'a>(models: impl IntoIterator<Item = &'a Model>) -> Colours {
        let true_colour = models
            .into_iter()
            .flat_map(|m| &m.skins)
            .any(|s| !matches!(s.pixels, SkinPixels::Indexed(_)));
        if true_colour {
            Colours::TrueColour
        } else {
            Colours::Palettized
        }
    }

    /// The target format that shows these colours as made: 8-bit for palettized, 8888 for true
    /// colour.
    pub fn format(self) -> TargetFormat {
        match self {
            Colours::Palettized => TargetFormat::Indexed8,
            Colours::TrueColour => TargetFormat::Argb8888,
        }
    }

    /// How a frontend says which format it chose and why (`8888 (true-colour content)`).
    pub fn describe(self) -> String {
        let why = match self {
            Colours::Palettized => "palettized content",
            Colours::TrueColour => "true-colour content",
        };
        format!("{} ({why})", self.format().name())
    }
}

/// Whether `palette` is the stock Quake palette (what the level compiler writes into every
/// level's `palettes` list).
pub fn is_stock(palette: &Palette) -> bool {
    palette.colors == Palette::quake().colors
}

/// The palette an 8-bit picture of content of `colours` is drawn with, and what it is (for the
/// frontend's log line): the one the user gave (`given`, in `current`); for palettized content
/// `current` (the default); for true-colour content the file's `own` palette unless it is the
/// stock one, else [`content_palette`] of `models`.
pub fn palette_8bit<'a>(
    colours: Colours,
    current: &Palette,
    given: bool,
    own: Option<Palette>,
    models: impl IntoIterator<Item = &'a Model>,
) -> (Palette, &'static str) {
    if given {
        return (current.clone(), "the palette given");
    }
    match colours {
        Colours::Palettized => (current.clone(), "the default palette"),
        Colours::TrueColour => match own.filter(|p| !is_stock(p)) {
            Some(own) => (own, "the file's own palette"),
            None => (
                content_palette(models),
                "a palette built from its textures (the file has none of its own)",
            ),
        },
    }
}

/// The format and palette a picture is drawn with, as every frontend chooses them.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The format asked for, else the content's ([`Colours::format`]).
    pub format: TargetFormat,
    /// The palette 8-bit indices mean (for other formats, the palette 8-bit skins were decoded
    /// with).
    pub palette: Palette,
    /// What was chosen and why, one line each, for the frontend's log (`drawn in 8888
    /// (true-colour content)`, `8-bit through the file's own palette`).
    pub said: Vec<String>,
}

/// `asked` (the user's `--format`), else the format of `colours`; for an 8-bit picture, the
/// palette [`palette_8bit`] picks (`given`: `palette` is one the user gave).
pub fn choose<'a>(
    asked: Option<TargetFormat>,
    colours: Colours,
    palette: &Palette,
    given: bool,
    own: Option<Palette>,
    models: impl IntoIterator<Item = &'a Model>,
) -> Choice {
    let mut said = Vec::new();
    let format = asked.unwrap_or_else(|| {
        said.push(format!("drawn in {}", colours.describe()));
        colours.format()
    });
    if format != TargetFormat::Indexed8 {
        return Choice {
            format,
            palette: palette.clone(),
            said,
        };
    }
    let (palette, which) = palette_8bit(colours, palette, given, own, models);
    said.push(format!("8-bit through {which}"));
    Choice {
        format,
        palette,
        said,
    }
}

/// Most texels the quantizer learns from: more says nothing new about a level's colours and
/// costs time (a large level's surface pages hold tens of millions).
const MAX_SAMPLES: usize = 1 << 20;
/// NeuQuant's sampling factor: 1 looks at every texel given, 30 at a thirtieth; 10 is the
/// quality its authors recommend.
const SAMPLE_FACTOR: i32 = 10;

/// A palette for drawing `models` (their skins' RGBA texels, as decoded) in 8 bits: index 0
/// black (transparent in the rasterizer), indices 1..=255 NeuQuant's colours of the texels. The
/// darker shades lighting makes are taken in too: each texel is also learned at 5/8, 3/8 and 3/16
/// of its brightness, the range a lit scene spans between full light and shadow, so shaded
/// surfaces find near colours and keep their hue instead of drifting to the nearest grey.
/// Transparent texels (alpha below 128) are left out. Without any texel, the Quake palette.
pub fn content_palette<'a>(models: impl IntoIterator<Item = &'a Model>) -> Palette {
    let skins: Vec<&[u8]> = models
        .into_iter()
        .flat_map(|m| &m.skins)
        .map(|s| s.rgba.as_bytes())
        .filter(|p| !p.is_empty())
        .collect();
    let texels: usize = skins.iter().map(|p| p.len() / 4).sum();
    if texels == 0 {
        return Palette::quake();
    }
    // Every `stride`-th texel, so the sample is bounded and spread over every skin.
    let stride = texels.div_ceil(MAX_SAMPLES / SHADES.len()).max(1);
    let mut sample = Vec::with_capacity(4 * MAX_SAMPLES);
    for t in skins
        .iter()
        .flat_map(|p| p.chunks_exact(4))
        .step_by(stride)
        .filter(|t| t[3] >= 128)
    {
        for shade in SHADES {
            sample.extend(t[..3].iter().map(|&c| ((c as u32 * shade) >> 8) as u8));
            sample.push(255);
        }
    }
    if sample.is_empty() {
        return Palette::quake();
    }
    let quant = color_quant::NeuQuant::new(SAMPLE_FACTOR, 255, &sample);
    let mut colors = [[0u8; 3]; 256];
    for (c, rgb) in colors[1..]
        .iter_mut()
        .zip(quant.color_map_rgb().chunks_exact(3))
    {
        *c = [rgb[0], rgb[1], rgb[2]];
    }
    Palette { colors }
}

/// The brightness each texel is learned at, out of 256.
const SHADES: [u32; 4] = [256, 160, 96, 48];

#[cfg(test)]
mod tests {
    use super::*;
    use modex_mdl::Skin;

    fn model_with(pixels: SkinPixels, rgba: Vec<u8>) -> Model {
        let n = rgba.len() / 4;
        Model {
            skins: vec![Skin {
                kind: 5,
                has_mipmaps: false,
                width: n,
                height: 1,
                pixels,
                rgba: rgba.into(),
            }],
            frames: Vec::new(),
            uvs: Vec::new(),
            triangles: Vec::new(),
        }
    }

    #[test]
    fn true_colour_skins_ask_for_8888_and_indexed_ones_for_8_bit() {
        let indexed = model_with(SkinPixels::Indexed(vec![1].into()), vec![1, 2, 3, 255]);
        let rgb = model_with(
            SkinPixels::Rgb888(vec![[1, 2, 3]].into()),
            vec![1, 2, 3, 255],
        );
        assert_eq!(Colours::of_models([&indexed]), Colours::Palettized);
        assert_eq!(Colours::of_models([&indexed, &rgb]), Colours::TrueColour);
        assert_eq!(Colours::of_models([]), Colours::Palettized);
        assert_eq!(Colours::TrueColour.format(), TargetFormat::Argb8888);
        assert_eq!(Colours::TrueColour.describe(), "8888 (true-colour content)");
    }

    #[test]
    fn the_content_palette_holds_the_content_colours_and_keeps_index_0_black() {
        // Sand and sky: the Quake palette has neither; the built one has both within a few steps.
        let mut rgba = Vec::new();
        for i in 0..4096u32 {
            let c = if i % 2 == 0 {
                [222, 184, 135]
            } else {
                [90, 140, 220]
            };
            rgba.extend(c);
            rgba.push(255);
        }
        // A transparent texel does not count.
        rgba.extend([255, 0, 255, 0]);
        let pal = content_palette([&model_with(SkinPixels::Argb8888(Vec::new().into()), rgba)]);
        assert_eq!(pal.colors[0], [0, 0, 0]);
        let near = |c: [u8; 3]| {
            pal.colors[1..]
                .iter()
                .map(|p| {
                    (0..3)
                        .map(|i| (p[i] as i32 - c[i] as i32).abs())
                        .max()
                        .unwrap()
                })
                .min()
                .unwrap()
        };
        // Each colour at every brightness it is learned at (lit, half-lit, in shadow).
        for c in [[222u8, 184, 135], [90, 140, 220]] {
            for shade in SHADES {
                let shaded = c.map(|v| ((v as u32 * shade) >> 8) as u8);
                assert!(near(shaded) <= 6, "{shaded:?}: {}", near(shaded));
            }
        }
        assert!(near([255, 0, 255]) > 60);
        assert!(!is_stock(&pal));
        assert!(is_stock(&Palette::quake()));
    }
}
