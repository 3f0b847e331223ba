//! External skins: image files a model names instead of embedding (MDL7 and HMP type 7).
//!
//! GameStudio loaded them from the model's folder, names compared without regard to case as on
//! Windows. The file is decoded by its contents: TGA, BMP and PNG through the `image` crate, PCX
//! through the `pcx` crate (`image` has no PCX reader), DDS through [`crate::dds`]. A skin whose
//! file is missing or unreadable is drawn with its material's diffuse colour, or grey without one,
//! and the caller is told which file (one log line per file, so a model naming a missing texture
//! on twelve groups says so once).

use std::io::Cursor;

use crate::model::{Skin, SkinPixels};
use crate::texels::Rgba8;

/// Largest decoded side accepted, as for embedded skins.
const MAX_SIDE: usize = crate::skin::MAX_SKIN_SIDE;

/// Why an image file could not be read as a skin.
#[derive(Debug, thiserror::Error)]
pub enum ExternalSkinError {
    /// The decoder refused the bytes.
    #[error("{name}: {why}")]
    Decode {
        /// The file name.
        name: String,
        /// What the decoder said.
        why: String,
    },
    /// The image is larger than any skin the engine drew.
    #[error("{name}: {width}x{height} is larger than {MAX_SIDE} on a side")]
    TooLarge {
        /// The file name.
        name: String,
        /// Width.
        width: usize,
        /// Height.
        height: usize,
    },
}

/// Decode an image file to `(width, height, RGBA8 top row first)`. `name` picks nothing (the bytes
/// decide); it names the file in errors.
pub fn decode_image(
    name: &str,
    bytes: &[u8],
) -> Result<(usize, usize, Vec<u8>), ExternalSkinError> {
    let err = |why: String| ExternalSkinError::Decode {
        name: name.to_string(),
        why,
    };
    let (w, h, rgba) = if bytes.starts_with(b"DDS ") {
        crate::dds::decode(bytes).ok_or_else(|| err("DDS kind not decoded".into()))?
    } else if bytes.first() == Some(&0x0A) && bytes.get(2) == Some(&1) {
        decode_pcx(bytes).map_err(|e| err(e.to_string()))?
    } else {
        let format = image::guess_format(bytes)
            .or_else(|_| {
                // TGA has no magic: go by the name.
                if name.to_ascii_lowercase().ends_with(".tga") {
                    Ok(image::ImageFormat::Tga)
                } else {
                    Err(image::ImageError::Unsupported(
                        image::error::UnsupportedError::from(
                            image::error::ImageFormatHint::Unknown,
                        ),
                    ))
                }
            })
            .map_err(|e| err(e.to_string()))?;
        let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(MAX_SIDE as u32);
        limits.max_image_height = Some(MAX_SIDE as u32);
        reader.limits(limits);
        let img = reader
            .decode()
            .map_err(|e| err(e.to_string()))?
            .into_rgba8();
        (img.width() as usize, img.height() as usize, img.into_raw())
    };
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(ExternalSkinError::TooLarge {
            name: name.to_string(),
            width: w,
            height: h,
        });
    }
    Ok((w, h, rgba))
}

fn decode_pcx(bytes: &[u8]) -> std::io::Result<(usize, usize, Vec<u8>)> {
    let mut r = pcx::Reader::from_mem(bytes)?;
    let (w, h) = (r.width() as usize, r.height() as usize);
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(std::io::Error::other(format!("{w}x{h} too large")));
    }
    let mut rgba = vec![0u8; w * h * 4];
    if r.is_paletted() {
        let mut idx = vec![0u8; w * h];
        for row in idx.chunks_exact_mut(w.max(1)) {
            r.next_row_paletted(row)?;
        }
        let mut pal = [0u8; 768];
        r.read_palette(&mut pal)?;
        for (o, &i) in rgba.chunks_exact_mut(4).zip(&idx) {
            let c = &pal[i as usize * 3..i as usize * 3 + 3];
            o.copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    } else {
        let mut rgb = vec![0u8; w * 3];
        for out in rgba.chunks_exact_mut(w.max(1) * 4) {
            r.next_row_rgb(&mut rgb)?;
            for (o, c) in out.chunks_exact_mut(4).zip(rgb.chunks_exact(3)) {
                o.copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
    }
    Ok((w, h, rgba))
}

/// A `width` x `height` skin of decoded RGBA pixels, keeping the stored `kind` (7 for a file).
pub fn rgba_skin(kind: u32, width: usize, height: usize, rgba: impl Into<Rgba8>) -> Skin {
    Skin {
        kind,
        has_mipmaps: false,
        width,
        height,
        pixels: SkinPixels::Rgba,
        rgba: rgba.into(),
    }
}

/// An image file decoded once: its size and texels, shared by every skin made of it
/// ([`Image::skin`] copies no texel), so a level whose models name one texture file twenty times
/// holds it once.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Width in texels.
    pub width: usize,
    /// Height in texels.
    pub height: usize,
    /// RGBA8, top row first.
    pub rgba: Rgba8,
}

impl Image {
    /// The image of `width` x `height` texels `rgba` (RGBA8, top row first).
    pub fn new(width: usize, height: usize, rgba: impl Into<Rgba8>) -> Image {
        Image {
            width,
            height,
            rgba: rgba.into(),
        }
    }

    /// Decode the image file `name` (which names it in errors) from its `bytes`
    /// ([`decode_image`]).
    pub fn decode(name: &str, bytes: &[u8]) -> Result<Image, ExternalSkinError> {
        decode_image(name, bytes).map(|(w, h, rgba)| Image::new(w, h, rgba))
    }

    /// A skin of type `kind` showing this image, sharing its texels.
    pub fn skin(&self, kind: u32) -> Skin {
        rgba_skin(kind, self.width, self.height, self.rgba.clone())
    }
}

/// Grey (0.5) for skins with no colour of their own.
pub const FALLBACK_GREY: [f32; 3] = [0.5, 0.5, 0.5];

/// A 1x1 skin of one colour (`rgb` in 0..1): the stand-in for a missing file or a skin without
/// pixels, so the model still shows its shape in the colour its material gives.
pub fn flat_skin(kind: u32, rgb: [f32; 3]) -> Skin {
    let c = rgb.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
    rgba_skin(kind, 1, 1, vec![c[0], c[1], c[2], 255])
}
