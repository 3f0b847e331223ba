//! Skin decoding shared by the MDL and HMP loaders.
//!
//! GameStudio skins are raw pixel arrays, rows top-down, in one of a handful of formats named by a
//! small type number. The low three bits select the pixel format, bit `0x08` says that three mipmap
//! levels follow the image:
//!
//! | type | format | bytes per pixel | stored as |
//! |---|---|---|---|
//! | 0 | palette index | 1 | index into "the level palette" (Quake 1 palette by default) |
//! | 2 | RGB 565 | 2 | red in the high 5 bits |
//! | 3 | ARGB 4444 | 2 | alpha in bits 12..15, blue in bits 0..3 |
//! | 4 | RGB 888 | 3 | B, G, R |
//! | 5 | ARGB 8888 | 4 | B, G, R, A |
//! | 6 | embedded DDS | – | `width` holds the byte count |
//!
//! The 888 format is not in the A5 manual; it was measured in real MDL5 and HMP7 files (see
//! `NOTES-mdl-hmp.md`). The 4444 bit order follows the manual; one popular reader swaps alpha and
//! blue, which the notes record as wrong.
//!
//! Decoding keeps the stored pixels ([`SkinPixels`], indices for 8-bit skins so a palette can be
//! swapped later) and adds an RGBA8 image of the top mipmap level for the renderer and PNG export.
//! Mipmap levels are skipped: the software renderer derives what it needs from level 0.

use modex::{Argb4444, ByteReader, ErrorKind, FormatResult, Palette, Pixel, Rgb565};

use crate::model::{Skin, SkinPixels};
use crate::texels::Rgba8;

/// Bit that marks "three mipmap levels follow the image".
pub(crate) const MIPMAP_FLAG: u32 = 0x08;

/// Largest skin side we accept. The A5 engine's textures topped out far below this; anything larger
/// in a header is corruption, and refusing it early gives a clearer error than a size mismatch.
pub const MAX_SKIN_SIDE: usize = 16384;

/// The pixel format part of a skin type (`type & 7`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PixelFormat {
    /// Type 0: palette indices.
    Indexed8,
    /// Type 2: RGB 565.
    Rgb565,
    /// Type 3: ARGB 4444.
    Argb4444,
    /// Type 4: B, G, R bytes.
    Rgb888,
    /// Type 5: B, G, R, A bytes.
    Argb8888,
}

impl PixelFormat {
    /// The format for a base type (without the mipmap flag), `None` for non-image types.
    pub fn from_kind(kind: u32) -> Option<PixelFormat> {
        match kind {
            0 => Some(PixelFormat::Indexed8),
            2 => Some(PixelFormat::Rgb565),
            3 => Some(PixelFormat::Argb4444),
            4 => Some(PixelFormat::Rgb888),
            5 => Some(PixelFormat::Argb8888),
            _ => None,
        }
    }

    /// Bytes per stored pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            PixelFormat::Indexed8 => 1,
            PixelFormat::Rgb565 | PixelFormat::Argb4444 => 2,
            PixelFormat::Rgb888 => 3,
            PixelFormat::Argb8888 => 4,
        }
    }
}

/// A human-readable name of a skin type for `info` output.
pub fn kind_name(kind: u32) -> &'static str {
    match kind {
        0 => "8-bit indexed",
        1 => "reference",
        2 => "RGB 565",
        3 => "ARGB 4444",
        4 => "RGB 888",
        5 => "ARGB 8888",
        6 => "DDS",
        7 => "external file",
        _ => "unknown",
    }
}

/// Bytes of the three mipmap levels after a `pixels`-pixel image: n/4 + n/16 + n/64 pixels
/// (the sizes are multiples of 8 in valid files, so the per-level sizes are exact).
pub(crate) fn mipmap_bytes(pixels: usize, bpp: usize) -> Option<usize> {
    (pixels / 4 + pixels / 16 + pixels / 64).checked_mul(bpp)
}

/// Read one image of `width * height` pixels of `format` (plus the mipmaps when `mipmaps`) at the
/// reader's position and decode it. `field` names the skin in errors (e.g. `"skin[0]"`).
///
/// Sizes are checked against the bytes left before anything is allocated.
pub(crate) fn read_image(
    r: &mut ByteReader<'_>,
    kind: u32,
    mipmaps: bool,
    width: usize,
    height: usize,
    palette: &Palette,
    field: &str,
) -> FormatResult<Skin> {
    let format = PixelFormat::from_kind(kind).ok_or_else(|| {
        r.error(
            format!("{field}.type"),
            ErrorKind::Unsupported(format!("skin type {kind} is not an image type")),
        )
    })?;
    check_side(r, width, &format!("{field}.width"))?;
    check_side(r, height, &format!("{field}.height"))?;
    let bpp = format.bytes_per_pixel();
    let count = width * height; // both <= MAX_SKIN_SIDE: no overflow
    r.check_count(count, bpp, &format!("{field}.pixels"))?;
    let data = r.bytes(count * bpp, &format!("{field}.pixels"))?;
    if mipmaps {
        let extra = mipmap_bytes(count, bpp).unwrap_or(usize::MAX);
        r.skip(extra, &format!("{field}.mipmaps"))?;
    }
    let pixels = decode_pixels(format, data);
    let rgba = to_rgba(&pixels, palette);
    Ok(Skin {
        kind,
        has_mipmaps: mipmaps,
        width,
        height,
        pixels,
        rgba,
    })
}

/// Refuse zero and absurd skin sides, naming the field.
fn check_side(r: &ByteReader<'_>, side: usize, field: &str) -> FormatResult<()> {
    if side == 0 || side > MAX_SKIN_SIDE {
        return Err(r.error(
            field,
            ErrorKind::OutOfRange {
                value: side as i64,
                min: 1,
                max: MAX_SKIN_SIDE as i64,
            },
        ));
    }
    Ok(())
}

/// Turn stored bytes into typed pixels (B G R [A] reordered to R G B [A]).
fn decode_pixels(format: PixelFormat, data: &[u8]) -> SkinPixels {
    match format {
        PixelFormat::Indexed8 => SkinPixels::Indexed(data.into()),
        PixelFormat::Rgb565 => SkinPixels::Rgb565(
            data.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        ),
        PixelFormat::Argb4444 => SkinPixels::Argb4444(
            data.chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
        ),
        PixelFormat::Rgb888 => {
            SkinPixels::Rgb888(data.chunks_exact(3).map(|c| [c[2], c[1], c[0]]).collect())
        }
        PixelFormat::Argb8888 => SkinPixels::Argb8888(
            data.chunks_exact(4)
                .map(|c| [c[2], c[1], c[0], c[3]])
                .collect(),
        ),
    }
}

/// RGBA8 of stored pixels; 8-bit indices go through `palette`. DDS and external skins give an
/// empty vector (nothing decoded).
pub(crate) fn to_rgba(pixels: &SkinPixels, palette: &Palette) -> Rgba8 {
    match pixels {
        SkinPixels::Indexed(p) => {
            let table: Vec<[u8; 4]> = (0..=255u8).map(|i| palette.rgba(i)).collect();
            expand(p, |&i| table[i as usize])
        }
        SkinPixels::Rgb565(p) => expand(p, |&v| Rgb565(v).to_rgba()),
        SkinPixels::Argb4444(p) => expand(p, |&v| Argb4444(v).to_rgba()),
        SkinPixels::Rgb888(p) => expand(p, |&[r, g, b]| [r, g, b, 255]),
        SkinPixels::Argb8888(p) => expand(p, |&c| c),
        SkinPixels::Dds(_)
        | SkinPixels::External(_)
        | SkinPixels::Rgba
        | SkinPixels::RgbaBlackKey => Rgba8::default(),
    }
}

/// Convert every pixel, into texels allocated once at their final size (a slice's mapped iterator
/// knows its length; a `flat_map` of bytes would not, and would grow its buffer repeatedly).
#[inline]
fn expand<T>(pixels: &[T], f: impl Fn(&T) -> [u8; 4]) -> Rgba8 {
    pixels.iter().map(f).collect()
}

impl Skin {
    /// RGBA8 of this skin with another palette (the level palette of a game, say). Only 8-bit skins
    /// depend on the palette; true-colour skins give the same bytes as [`Skin::rgba`].
    pub fn rgba_with_palette(&self, palette: &Palette) -> Rgba8 {
        match self.pixels {
            SkinPixels::Rgba | SkinPixels::RgbaBlackKey => self.rgba.clone(),
            _ => to_rgba(&self.pixels, palette),
        }
    }

    /// Drop the stored copy of a true-colour skin (565, 4444, 888, 8888) whose RGBA is decoded:
    /// its [`Skin::rgba`] says all the stored form says for drawing, texels and overlay key
    /// ([`SkinPixels::Rgba`], [`SkinPixels::RgbaBlackKey`]). A level keeps its hundreds of skins
    /// this way, each texel once (issue 40's memory target: the stored copies of one large
    /// level's embedded skins were 31 MB); a viewer of one model keeps the stored form, which
    /// `info` and the exporters read. 8-bit, DDS and external skins are left as they are.
    pub fn drop_stored(&mut self) {
        if self.rgba.texel_count() != self.width * self.height {
            return;
        }
        self.pixels = match self.pixels {
            SkinPixels::Rgb565(_) | SkinPixels::Rgb888(_) => SkinPixels::RgbaBlackKey,
            SkinPixels::Argb4444(_) | SkinPixels::Argb8888(_) => SkinPixels::Rgba,
            _ => return,
        };
    }

    /// Re-decode the RGBA8 image with `palette` (8-bit skins only change).
    pub fn set_palette(&mut self, palette: &Palette) {
        if matches!(self.pixels, SkinPixels::Indexed(_)) {
            self.rgba = to_rgba(&self.pixels, palette);
        }
    }

    /// Whether the skin has decoded RGBA pixels (false for DDS and external skins).
    pub fn is_decoded(&self) -> bool {
        !self.rgba.is_empty()
    }
}

/// A DDS skin kept as bytes. Its width and height are read from the DDS header when it is one
/// (`"DDS "`, then a 124-byte header with height at +12 and width at +16); otherwise both are 0.
pub(crate) fn dds_skin(kind: u32, mipmaps: bool, bytes: &[u8]) -> Skin {
    // DXT1/3/5 are decoded so renderers can draw the skin as the engine did; other DDS kinds keep
    // their bytes with an empty RGBA (and are drawn with a blank stand-in).
    let (width, height, rgba) = match crate::dds::decode(bytes) {
        Some((w, h, rgba)) => (w, h, Rgba8::from(rgba)),
        None => {
            let (w, h) = dds_size(bytes).unwrap_or((0, 0));
            (w, h, Rgba8::default())
        }
    };
    Skin {
        kind,
        has_mipmaps: mipmaps,
        width,
        height,
        pixels: SkinPixels::Dds(bytes.into()),
        rgba,
    }
}

/// Width and height from a DDS header, if `bytes` starts with one.
pub(crate) fn dds_size(bytes: &[u8]) -> Option<(usize, usize)> {
    if bytes.len() < 128 || &bytes[..4] != b"DDS " {
        return None;
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((word(16) as usize, word(12) as usize))
}

/// The FourCC of a DDS file's pixel format (e.g. `"DXT1"`), for `info`.
pub fn dds_fourcc(bytes: &[u8]) -> Option<String> {
    if bytes.len() < 128 || &bytes[..4] != b"DDS " {
        return None;
    }
    let cc = &bytes[84..88];
    if cc.iter().all(|&c| c == 0) {
        return Some("uncompressed".into());
    }
    Some(String::from_utf8_lossy(cc).into_owned())
}

/// A GameStudio material record (skin type flag 0x10, in MDL7 and HMP7 skins alike): four RGBA
/// colours, 0..1, and a specular power. One type for both formats, since the record is the same.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Material {
    /// Diffuse RGBA.
    pub diffuse: [f32; 4],
    /// Ambient RGBA.
    pub ambient: [f32; 4],
    /// Specular RGBA.
    pub specular: [f32; 4],
    /// Emissive RGBA.
    pub emissive: [f32; 4],
    /// Specular power.
    pub power: f32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(kind: u32, mip: bool, w: usize, h: usize, data: &[u8]) -> FormatResult<Skin> {
        let mut r = ByteReader::new(data, "MDL");
        read_image(&mut r, kind, mip, w, h, &Palette::quake(), "skin[0]")
    }

    #[test]
    fn rgb888_and_8888_are_stored_bgr() {
        let s = read(4, false, 1, 1, &[1, 2, 3]).unwrap();
        assert_eq!(s.pixels, SkinPixels::Rgb888(vec![[3, 2, 1]].into()));
        assert_eq!(s.rgba, vec![3, 2, 1, 255]);
        let s = read(5, false, 1, 1, &[1, 2, 3, 4]).unwrap();
        assert_eq!(s.rgba, vec![3, 2, 1, 4]);
    }

    #[test]
    fn argb4444_has_alpha_in_the_top_nibble() {
        // 0xF00F: alpha 15, red 0, green 0, blue 15.
        let s = read(3, false, 1, 1, &0xF00Fu16.to_le_bytes()).unwrap();
        assert_eq!(s.rgba, vec![0, 0, 255, 255]);
    }

    #[test]
    fn rgb565_has_red_in_the_high_bits() {
        let s = read(2, false, 1, 1, &0xF800u16.to_le_bytes()).unwrap();
        assert_eq!(s.rgba, vec![255, 0, 0, 255]);
    }

    #[test]
    fn indexed_goes_through_the_palette_and_can_be_swapped() {
        let s = read(0, false, 2, 1, &[0, 255]).unwrap();
        let q = Palette::quake();
        assert_eq!(&s.rgba[..4], &q.rgba(0));
        let grey = Palette::grey_ramp();
        assert_eq!(
            s.rgba_with_palette(&grey),
            vec![0, 0, 0, 255, 255, 255, 255, 255]
        );
    }

    #[test]
    fn mipmaps_are_skipped() {
        // 8x8 565 skin: 128 bytes + (16 + 4 + 1) * 2 = 42 bytes of mipmaps.
        let data = vec![0u8; 128 + 42 + 1];
        let mut r = ByteReader::new(&data, "MDL");
        read_image(&mut r, 2, true, 8, 8, &Palette::quake(), "s").unwrap();
        assert_eq!(r.remaining(), 1);
    }

    #[test]
    fn zero_and_absurd_sizes_are_refused() {
        let e = read(2, false, 0, 4, &[0; 64]).unwrap_err();
        assert_eq!(e.field, "skin[0].width");
        let e = read(2, false, 4, 100_000, &[0; 64]).unwrap_err();
        assert_eq!(e.field, "skin[0].height");
        let e = read(5, false, 16, 16, &[0; 64]).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{e}");
        let e = read(9 & 7, false, 1, 1, &[0; 4]).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Unsupported(_)));
    }

    #[test]
    fn dds_size_reads_the_header() {
        let mut b = vec![0u8; 128];
        b[..4].copy_from_slice(b"DDS ");
        b[12..16].copy_from_slice(&64u32.to_le_bytes());
        b[16..20].copy_from_slice(&32u32.to_le_bytes());
        b[84..88].copy_from_slice(b"DXT1");
        assert_eq!(dds_size(&b), Some((32, 64)));
        assert_eq!(dds_fourcc(&b).as_deref(), Some("DXT1"));
        assert_eq!(dds_size(b"DDS "), None);
    }
}
