//! PNG in and out: indexed PNGs for 8-bit frames (so palette indices survive exactly, which the golden
//! tests and the frame-by-frame exports rely on) and RGBA PNGs for true-colour surfaces.

use std::io::Cursor;
use std::path::Path;

use crate::frame::IndexedFrame;
use crate::palette::Palette;
use crate::target::Target;

/// PNG encoding or decoding failed, or the PNG is of a kind this function does not take.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("PNG encoding")]
    /// The png crate could not encode.
    Encode(#[from] png::EncodingError),
    #[error("PNG decoding")]
    /// The png crate could not decode.
    Decode(#[from] png::DecodingError),
    #[error("I/O on {path}")]
    /// A file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    #[error("PNG is not what was expected: {0}")]
    /// The image is not of the kind or size the caller needs.
    Unexpected(String),
}

/// Encode an 8-bit frame as an indexed PNG carrying `palette`.
pub fn encode_indexed(frame: &IndexedFrame, palette: &Palette) -> Result<Vec<u8>, PngError> {
    encode_indexed_keyed(frame, palette, None)
}

/// [`encode_indexed`], with palette index `transparent` (if any) shown transparent by viewers:
/// a `tRNS` chunk giving that entry alpha 0 and the entries before it 255. The indices are
/// written as they are, so they still survive exactly.
pub fn encode_indexed_keyed(
    frame: &IndexedFrame,
    palette: &Palette,
    transparent: Option<u8>,
) -> Result<Vec<u8>, PngError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, frame.width() as u32, frame.height() as u32);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette.to_rgb_bytes());
        if let Some(key) = transparent {
            let mut alpha = vec![255u8; usize::from(key) + 1];
            alpha[usize::from(key)] = 0;
            enc.set_trns(alpha);
        }
        let mut w = enc.write_header()?;
        w.write_image_data(frame.pixels())?;
        w.finish()?;
    }
    Ok(out)
}

/// Encode RGBA8 pixels (row-major, 4 bytes each) as an RGBA PNG.
pub fn encode_rgba(width: usize, height: usize, rgba: &[u8]) -> Result<Vec<u8>, PngError> {
    if rgba.len() != width * height * 4 {
        return Err(PngError::Unexpected(format!(
            "{} bytes for a {width}x{height} RGBA image",
            rgba.len()
        )));
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width as u32, height as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header()?;
        w.write_image_data(rgba)?;
        w.finish()?;
    }
    Ok(out)
}

/// Write bytes to a file, naming the path in the error.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), PngError> {
    std::fs::write(path, bytes).map_err(|source| PngError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Save an 8-bit frame as an indexed PNG.
pub fn save_indexed(path: &Path, frame: &IndexedFrame, palette: &Palette) -> Result<(), PngError> {
    write_file(path, &encode_indexed(frame, palette)?)
}

/// Save any render target: an 8-bit frame as an indexed PNG (palette indices survive exactly), a
/// true-colour surface as an RGBA PNG of its colours.
pub fn save_target<T: Target>(path: &Path, target: &T, palette: &Palette) -> Result<(), PngError> {
    if let Some(frame) = target.as_indexed() {
        return save_indexed(path, frame, palette);
    }
    let (w, h) = target.size();
    save_rgba(path, w, h, &target.to_rgba8(palette))
}

/// Save RGBA8 pixels as a PNG.
pub fn save_rgba(path: &Path, width: usize, height: usize, rgba: &[u8]) -> Result<(), PngError> {
    write_file(path, &encode_rgba(width, height, rgba)?)
}

/// Decode an 8-bit indexed PNG back into a frame and its palette (entries past the PLTE are black).
pub fn decode_indexed(bytes: &[u8]) -> Result<(IndexedFrame, Palette), PngError> {
    let mut dec = png::Decoder::new(Cursor::new(bytes));
    dec.set_transformations(png::Transformations::IDENTITY);
    let mut reader = dec.read_info()?;
    let info = reader.info();
    if info.color_type != png::ColorType::Indexed || info.bit_depth != png::BitDepth::Eight {
        return Err(PngError::Unexpected(format!(
            "{:?} {:?}, expected 8-bit indexed",
            info.color_type, info.bit_depth
        )));
    }
    let (w, h) = (info.width as usize, info.height as usize);
    let mut palette = Palette {
        colors: [[0; 3]; 256],
    };
    if let Some(plte) = &info.palette {
        for (c, rgb) in palette.colors.iter_mut().zip(plte.chunks_exact(3)) {
            c.copy_from_slice(rgb);
        }
    }
    let mut buf = vec![0u8; w * h];
    reader.next_frame(&mut buf)?;
    let frame = IndexedFrame::from_pixels(w, h, buf)
        .ok_or_else(|| PngError::Unexpected("size mismatch".into()))?;
    Ok((frame, palette))
}

/// Decode any PNG to RGBA8: returns (width, height, pixels).
pub fn decode_rgba(bytes: &[u8]) -> Result<(usize, usize, Vec<u8>), PngError> {
    let mut dec = png::Decoder::new(Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = dec.read_info()?;
    let (w, h) = (reader.info().width as usize, reader.info().height as usize);
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| PngError::Unexpected("image too large".into()))?;
    let mut buf = vec![0u8; size];
    let info = reader.next_frame(&mut buf)?;
    buf.truncate(info.buffer_size());
    let rgba = match (info.color_type, info.bit_depth) {
        (png::ColorType::Rgba, png::BitDepth::Eight) => buf,
        (png::ColorType::GrayscaleAlpha, png::BitDepth::Eight) => buf
            .chunks_exact(2)
            .flat_map(|c| [c[0], c[0], c[0], c[1]])
            .collect(),
        (ct, bd) => {
            return Err(PngError::Unexpected(format!(
                "{ct:?} {bd:?} after expansion"
            )))
        }
    };
    Ok((w, h, rgba))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_round_trip_keeps_indices_and_palette() {
        let mut f = IndexedFrame::new(7, 3);
        for (i, p) in f.pixels_mut().iter_mut().enumerate() {
            *p = (i * 37) as u8;
        }
        let pal = Palette::quake();
        let bytes = encode_indexed(&f, &pal).unwrap();
        let (g, p2) = decode_indexed(&bytes).unwrap();
        assert_eq!(g, f);
        assert_eq!(p2, pal);
        // The same file decodes to the palette's colours as RGBA.
        let (w, h, rgba) = decode_rgba(&bytes).unwrap();
        assert_eq!((w, h), (7, 3));
        assert_eq!(rgba, f.to_rgba8(&pal));
    }

    #[test]
    fn rgba_round_trip() {
        let rgba: Vec<u8> = (0..5 * 4 * 4).map(|i| (i * 11) as u8).collect();
        let bytes = encode_rgba(5, 4, &rgba).unwrap();
        assert_eq!(decode_rgba(&bytes).unwrap(), (5, 4, rgba));
        assert!(encode_rgba(5, 4, &[0; 3]).is_err());
        assert!(decode_indexed(&bytes).is_err());
        assert!(decode_rgba(b"not a png").is_err());
    }

    #[test]
    fn targets_save_indexed_or_rgba_by_format() {
        let dir = std::env::temp_dir().join(format!("modex-save-target-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pal = Palette::quake();
        let mut f = IndexedFrame::new(3, 2);
        f.set(2, 1, 77);
        save_target(&dir.join("f.png"), &f, &pal).unwrap();
        let (g, _) = decode_indexed(&std::fs::read(dir.join("f.png")).unwrap()).unwrap();
        assert_eq!(g, f);
        let mut s = crate::Surface::<crate::Argb4444>::new(3, 2);
        s.set(0, 0, crate::Argb4444(0xf0f0));
        save_target(&dir.join("s.png"), &s, &pal).unwrap();
        let (w, h, rgba) = decode_rgba(&std::fs::read(dir.join("s.png")).unwrap()).unwrap();
        assert_eq!((w, h, &rgba[..4]), (3, 2, &[0u8, 255, 0, 255][..]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
