//! Skins prepared for drawing: the texels each target reads, built once per model and palette.
//!
//! - For the 8-bit target, palette indices: 8-bit skins as stored; true-colour skins mapped to the
//!   palette through the [`ShadeTable`]'s prebuilt 15-bit lookup (never to index 0, which stays the
//!   overlay key; a raw all-zero texel maps to 0).
//! - For true-colour targets, packed RGBA (`r | g << 8 | b << 16 | a << 24`), once as is and once with
//!   the overlay key (index 0, or a raw value of 0 for 16/24/32-bit skins, as the manual says for
//!   16-bit ones) turned into the value 0, which no opaque texel can have.

use crate::model::{Skin, SkinPixels};

use super::light::ShadeTable;

/// Colour of the stand-in texture for models without a drawable skin (no skins, DDS, external).
pub const BLANK_RGB: [u8; 3] = [192, 192, 192];

/// A skin's texels in every form the targets read.
#[derive(Debug, Clone)]
pub struct Texture {
    pub width: u32,
    pub height: u32,
    /// Palette indices, for the 8-bit target.
    pub indexed: Vec<u8>,
    /// Packed RGBA, for true-colour targets (normal mode).
    pub rgba: Vec<u32>,
    /// Packed RGBA with overlay-transparent texels set to 0 (overlay mode).
    pub rgba_overlay: Vec<u32>,
}

#[inline]
fn pack(c: [u8; 4]) -> u32 {
    u32::from_le_bytes(c)
}

impl Texture {
    /// Prepare `skin`, or `None` when it has no pixels to draw (DDS, external, wrong sizes).
    pub fn from_skin(skin: &Skin, shades: &ShadeTable) -> Option<Texture> {
        let n = skin.width.checked_mul(skin.height)?;
        if n == 0 || skin.width > u16::MAX as usize || skin.height > u16::MAX as usize {
            return None;
        }
        // Whether each texel is the overlay key, and the texel colours.
        let (indexed, keys, rgba): (Vec<u8>, Vec<bool>, Vec<u32>) = match &skin.pixels {
            SkinPixels::Indexed(idx) => {
                if idx.len() != n {
                    return None;
                }
                let pal = shades.palette();
                let rgba = idx.iter().map(|&i| pack(pal.rgba(i))).collect();
                (idx.clone(), idx.iter().map(|&i| i == 0).collect(), rgba)
            }
            SkinPixels::External(_) => return None,
            other => {
                if skin.rgba.len() != n * 4 {
                    return None;
                }
                let keys: Vec<bool> = match other {
                    SkinPixels::Rgb565(v) | SkinPixels::Argb4444(v) if v.len() == n => {
                        v.iter().map(|&p| p == 0).collect()
                    }
                    SkinPixels::Rgb888(v) if v.len() == n => {
                        v.iter().map(|p| *p == [0; 3]).collect()
                    }
                    SkinPixels::Argb8888(v) if v.len() == n => {
                        v.iter().map(|p| *p == [0; 4]).collect()
                    }
                    // No overlay key is defined for DDS skins: every texel is drawn.
                    SkinPixels::Dds(_) => vec![false; n],
                    _ => return None,
                };
                let rgba: Vec<u32> = skin
                    .rgba
                    .chunks_exact(4)
                    .map(|c| pack([c[0], c[1], c[2], c[3]]))
                    .collect();
                let indexed = skin
                    .rgba
                    .chunks_exact(4)
                    .zip(&keys)
                    .map(|(c, &key)| {
                        if key {
                            0
                        } else {
                            shades.index_of([c[0], c[1], c[2]])
                        }
                    })
                    .collect();
                (indexed, keys, rgba)
            }
        };
        let rgba_overlay = rgba
            .iter()
            .zip(&keys)
            .map(|(&c, &key)| if key { 0 } else { c.max(1) })
            .collect();
        Some(Texture {
            width: skin.width as u32,
            height: skin.height as u32,
            indexed,
            rgba,
            rgba_overlay,
        })
    }

    /// (width, height) in texels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// A 1x1 texture of [`BLANK_RGB`], so a model without a drawable skin is still drawn, lit.
    pub fn blank(shades: &ShadeTable) -> Texture {
        let [r, g, b] = BLANK_RGB;
        let c = pack([r, g, b, 255]);
        Texture {
            width: 1,
            height: 1,
            indexed: vec![shades.index_of(BLANK_RGB)],
            rgba: vec![c],
            rgba_overlay: vec![c],
        }
    }
}
