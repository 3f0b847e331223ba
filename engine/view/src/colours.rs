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
use modex_raster::BLANK_RGB;

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
/// NeuQuant's sampling factor for a full sample: 1 looks at every texel given, 30 at a
/// thirtieth; 10 is the quality its authors recommend.
const SAMPLE_FACTOR: i32 = 10;

/// A palette for drawing `models` (their skins' RGBA texels, as decoded) in 8 bits: index 0
/// black (transparent in the rasterizer), indices 1..=255 the colours of the texels as lighting
/// shows them, from deep shadow to overbright (`shade`), so shaded surfaces find near colours
/// and keep their hue instead of drifting to the nearest grey or a tinted neighbour:
/// - a few colours (a material colour, flat parts) are kept exactly, each at as many
///   brightnesses as the palette has room for (`few_colours`);
/// - else NeuQuant's colours of the texels, each learned as it is and at `STRATA` brightnesses
///   spread over the range: half of them every n-th texel of every skin, half the texels as the
///   surfaces show them, each by the area it covers (`shown_texels`).
///
/// Transparent texels (alpha below 128) are left out. Without any texel (skin files missing, DDS
/// kinds not decoded), the palette of the grey the renderer draws such skins with
/// ([`modex_raster::BLANK_RGB`]).
pub fn content_palette<'a>(models: impl IntoIterator<Item = &'a Model>) -> Palette {
    let models: Vec<&Model> = models.into_iter().collect();
    let skins: Vec<&[u8]> = models
        .iter()
        .flat_map(|m| &m.skins)
        .map(|s| s.rgba.as_bytes())
        .filter(|p| !p.is_empty())
        .collect();
    let texels: usize = skins.iter().map(|p| p.len() / 4).sum();
    let blank = [BLANK_RGB[0], BLANK_RGB[1], BLANK_RGB[2], 255];
    if texels == 0 {
        return few_colours(std::iter::once(&blank[..])).unwrap_or_else(Palette::quake);
    }
    // Half the sample is every `stride`-th texel, so every skin's colours are learned, bounded;
    // the other half is the texels as the surfaces show them (`shown_texels`).
    let budget = MAX_SAMPLES / (STRATA + 1) / 2;
    let stride = texels.div_ceil(budget).max(1);
    let shown = shown_texels(&models, budget);
    let opaque = || {
        skins
            .iter()
            .flat_map(|p| p.chunks_exact(4))
            .step_by(stride)
            .chain(shown.iter().map(|t| &t[..]))
            .filter(|t| t[3] >= 128)
    };
    if let Some(palette) = few_colours(opaque()) {
        return palette;
    }
    let mut sample = Vec::with_capacity(4 * (STRATA + 1) * (texels.min(budget) + shown.len()));
    for (j, t) in opaque().enumerate() {
        // The texel as it is: the 8-bit skin stores its nearest colour, and every shade of it
        // is lit from that one, so an error there is carried into every light.
        sample.extend_from_slice(&t[..3]);
        sample.push(255);
        // Then one brightness from each stratum, a different one for each texel, so the texels
        // of one colour together cover the range without gaps.
        for k in 0..STRATA {
            let level = k * STRATA + (j * 5 + k * 3) % STRATA;
            sample.extend(t[..3].iter().map(|&c| shaded(c, shade(level))));
            sample.push(255);
        }
    }
    if sample.is_empty() {
        return few_colours(std::iter::once(&blank[..])).unwrap_or_else(Palette::quake);
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

/// About `count` texels of `models` as their surfaces show them: points spread evenly over the
/// triangles of each model's first frame (so each texel counts by the surface it covers), each
/// read from the skin the model is drawn with by default (skin 0) at that point's UV, nearest
/// texel, wrapped as the rasterizer wraps.
///
/// Why: texels counted once each in the skin say nothing of how much of the picture they fill. A
/// racing driver's blue suit is a small corner of a skin that is mostly his face, and a sword
/// whose skin file is missing is one grey texel (its stand-in colour) covering a whole part: with
/// only the skin's texels learned, the palette held 8 blues for a model that is mostly blue, the
/// grey none, and both were drawn over a step too red in 8 bits (ackmen01, zorroLotti).
fn shown_texels(models: &[&Model], count: usize) -> Vec<[u8; 4]> {
    // The skin a model is drawn with, when its texels are all there: (texels, width, height).
    fn skin_of(m: &Model) -> Option<(&[u8], usize, usize)> {
        let s = m.skins.first()?;
        let rgba = s.rgba.as_bytes();
        (s.width > 0 && s.height > 0 && rgba.len() >= s.width * s.height * 4)
            .then_some((rgba, s.width, s.height))
    }
    // A triangle's area in the first frame and its UVs, when both can be read: the one rule for
    // the total and for the walk, so the two agree.
    let shown = |m: &Model, t: &modex_mdl::Triangle| {
        let f = m.frames.first()?;
        let [a, b, c] = t.vertices.map(|v| f.positions.get(v as usize).copied());
        let area = 0.5 * f64::from((b? - a?).cross(c? - a?).length());
        let [u0, u1, u2] = t.uvs.map(|i| m.uvs.get(i as usize).copied());
        area.is_finite().then_some((area, [u0?, u1?, u2?]))
    };
    let drawn = || models.iter().filter(|m| skin_of(m).is_some());
    let total: f64 = drawn()
        .flat_map(|m| m.triangles.iter().filter_map(|t| shown(m, t)))
        .map(|(area, _)| area)
        .sum();
    if total.is_nan() || total <= 0.0 || count == 0 {
        return Vec::new();
    }
    let step = total / count as f64;
    let mut out = Vec::with_capacity(count + 1);
    // Area carried from triangle to triangle, so triangles smaller than a step still get their
    // share; the points inside a triangle follow the R2 sequence (Roberts 2018), even and
    // without a random source, so the palette is the same on every run.
    let mut carried = 0.0f64;
    let mut n = 0u64;
    for m in drawn() {
        let Some((rgba, w, h)) = skin_of(m) else {
            continue;
        };
        for (area, [uv0, uv1, uv2]) in m.triangles.iter().filter_map(|t| shown(m, t)) {
            carried += area;
            while carried >= step && out.len() <= count {
                carried -= step;
                n += 1;
                let (mut r, mut s) = (
                    (0.5 + n as f64 * 0.754_877_666_246_692_7).fract() as f32,
                    (0.5 + n as f64 * 0.569_840_290_998_053_3).fract() as f32,
                );
                if r + s > 1.0 {
                    (r, s) = (1.0 - r, 1.0 - s);
                }
                let p = uv0 + (uv1 - uv0) * r + (uv2 - uv0) * s;
                let x = ((p.x * w as f32).floor() as i64).rem_euclid(w as i64) as usize;
                let y = ((p.y * h as f32).floor() as i64).rem_euclid(h as i64) as usize;
                let i = 4 * (y * w + x);
                out.push([rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]);
            }
        }
    }
    out
}

/// When `texels` hold few distinct colours (at most 255 / [`FEW_SHADES`]), a palette of exactly
/// those colours, each at an even share of the 255 entries, at brightnesses spread over the
/// range of [`shade`]; else `None`.
fn few_colours<'a>(texels: impl Iterator<Item = &'a [u8]>) -> Option<Palette> {
    let mut seen = std::collections::BTreeSet::new();
    for t in texels {
        seen.insert([t[0], t[1], t[2]]);
        if seen.len() * FEW_SHADES > 255 {
            return None;
        }
    }
    if seen.is_empty() {
        return None;
    }
    let per_colour = 255 / seen.len();
    let mut colors = [[0u8; 3]; 256];
    let mut next = 1;
    for c in &seen {
        for k in 0..per_colour {
            let u = k as f32 / (per_colour - 1).max(1) as f32;
            colors[next] = c.map(|v| shaded(v, shade_along(u)));
            next += 1;
        }
    }
    Some(Palette { colors })
}

/// Channel `c` at brightness `shade` out of 256, rounded, at most 255.
fn shaded(c: u8, shade: u32) -> u8 {
    ((c as u32 * shade + 128) >> 8).min(255) as u8
}

/// Brightnesses a texel is learned at, out of 256: [`LEVELS`] steps of equal ratio from 9/8
/// (the overbright a sun adds to ambient) down to 1/8 (deep shadow), the range a lit scene
/// spans. Learning each texel at a few fixed brightnesses (1, 5/8, 3/8, 3/16) left gaps
/// between them: a lit gradient of one colour fell into bands, and where a shaded grey's nearest
/// colour was a tinted one, keypad keys turned cyan and brown in 8 bits (docs/benchmarks.md
/// "8-bit colours").
fn shade(level: usize) -> u32 {
    shade_along(level as f32 / (LEVELS - 1) as f32)
}

/// The brightness `u` of the way (0..=1) from the brightest shade to the darkest.
fn shade_along(u: f32) -> u32 {
    const BRIGHTEST: f32 = 288.0;
    const DARKEST: f32 = 32.0;
    (BRIGHTEST * (DARKEST / BRIGHTEST).powf(u)).round() as u32
}

/// Fewest brightnesses a colour of [`few_colours`] is kept at: steps of 7 % over the range
/// (a keypad key's 31 colours at 8 brightnesses each fell into bands 37 % apart).
const FEW_SHADES: usize = 32;
/// Brightness levels of [`shade`].
const LEVELS: usize = STRATA * STRATA;
/// Brightnesses learned per texel, one from each of this many equal parts of the range.
const STRATA: usize = 8;

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

    /// The largest channel difference from `c` to the nearest of `pal`'s entries 1..=255.
    fn near(pal: &Palette, c: [u8; 3]) -> i32 {
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
    }

    #[test]
    fn the_content_palette_holds_the_content_colours_and_keeps_index_0_black() {
        // Sand and sky, each in 2048 slightly different tones (more colours than a palette
        // holds, so NeuQuant builds it): the Quake palette has neither; the built one has both,
        // at every brightness they are learned at, within a few steps.
        let mut rgba = Vec::new();
        for i in 0..4096u32 {
            let (c, d) = if i % 2 == 0 {
                ([222u8, 184, 135], i / 2 % 16)
            } else {
                ([90, 140, 220], i / 2 % 16)
            };
            rgba.extend(c.map(|v| v - d as u8 + (i / 32 % 8) as u8));
            rgba.push(255);
        }
        // A transparent texel does not count.
        rgba.extend([255, 0, 255, 0]);
        let model = model_with(SkinPixels::Argb8888(Vec::new().into()), rgba);
        let pal = content_palette([&model]);
        assert_eq!(pal.colors[0], [0, 0, 0]);
        for c in [[222u8, 184, 135], [90, 140, 220]] {
            // The middle of each stratum (its ends are learned from fewer texels).
            for level in (STRATA / 2..LEVELS).step_by(STRATA) {
                let shaded = c.map(|v| shaded(v, shade(level)));
                assert!(
                    near(&pal, shaded) <= 8,
                    "{shaded:?}: {}",
                    near(&pal, shaded)
                );
            }
        }
        assert!(near(&pal, [255, 0, 255]) > 60);
        assert!(!is_stock(&pal));
        assert!(is_stock(&Palette::quake()));
    }

    #[test]
    fn shown_texels_count_each_texel_by_the_surface_it_covers() {
        // A two-texel skin, blue and red; a triangle three times the area of the other shows
        // only blue, the small one only red: the sample is three blue to one red, whatever the
        // texel counts in the skin say.
        use glam::{Vec2, Vec3};
        use modex_mdl::{Frame, Triangle};
        let mut model = model_with(SkinPixels::Rgba, vec![0, 0, 255, 255, 255, 0, 0, 255]);
        model.skins[0].width = 2;
        let positions = vec![
            Vec3::ZERO,
            Vec3::new(3.0, 0.0, 0.0),
            Vec3::new(0.0, 2.0, 0.0),
            Vec3::new(10.0, 0.0, 0.0),
            Vec3::new(11.0, 0.0, 0.0),
            Vec3::new(10.0, 2.0, 0.0),
        ];
        let (bbox_min, bbox_max) = Frame::compute_bbox(&positions);
        model.frames = vec![Frame {
            name: String::new(),
            normals: vec![Vec3::Z; positions.len()],
            positions,
            normal_indices: None,
            bbox_min,
            bbox_max,
        }];
        model.uvs = vec![
            Vec2::new(0.1, 0.2),
            Vec2::new(0.4, 0.2),
            Vec2::new(0.1, 0.8),
            Vec2::new(0.6, 0.2),
            Vec2::new(0.9, 0.2),
            Vec2::new(0.6, 0.8),
        ];
        model.triangles = vec![
            Triangle {
                vertices: [0, 1, 2],
                uvs: [0, 1, 2],
            },
            Triangle {
                vertices: [3, 4, 5],
                uvs: [3, 4, 5],
            },
        ];
        let shown = shown_texels(&[&model], 400);
        let blue = shown.iter().filter(|t| **t == [0, 0, 255, 255]).count();
        let red = shown.iter().filter(|t| **t == [255, 0, 0, 255]).count();
        assert_eq!(blue + red, shown.len());
        assert!((299..=301).contains(&blue), "{blue} blue, {red} red");
        assert!((99..=101).contains(&red), "{blue} blue, {red} red");
    }

    #[test]
    fn few_colours_are_kept_exactly_even_from_one_texel() {
        // A material-only skin: one texel of its diffuse colour. NeuQuant learning from eight
        // texels left its starting grey ramp, and the magenta sphere was drawn grey in 8 bits.
        let magenta = [230u8, 20, 240];
        let model = model_with(SkinPixels::Rgba, vec![230, 20, 240, 255]);
        let pal = content_palette([&model]);
        assert_eq!(pal.colors[0], [0, 0, 0]);
        // The colour itself and every brightness lighting makes of it, within one level.
        for shade in 32..=288 {
            let lit = magenta.map(|v| shaded(v, shade));
            assert!(near(&pal, lit) <= 1, "{lit:?}: {}", near(&pal, lit));
        }
    }
}
