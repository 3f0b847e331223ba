//! The textures list: `u32 count`, `count` offsets relative to the list, and at each offset
//! `{char name[16]; u32 width, height, type; u32 legacy[3]}` followed by the pixels.
//!
//! `type & 7` is the pixel format (2 = 565, 4 = 888 stored B G R, 5 = 8888 stored B G R A, 6 = DDS
//! whose `width` is its byte size); `+8` means mip levels follow, four in all in every real file
//! (each half the size of the one before), and `legacy` then holds the byte offsets of levels 1..3
//! from the start of the texture record.

use modex::{ByteReader, ErrorKind, FormatResult, Pixel, Rgb565};

use super::Within;
use crate::skin::MAX_SKIN_SIDE;

/// Size of a texture record before its pixels.
pub const TEXTURE_HEADER_SIZE: usize = 40;
/// The mipmap flag of a texture type.
pub const TEXTURE_MIPMAPS: u32 = 8;
/// Levels stored when the mipmap flag is set.
pub const MIP_LEVELS: usize = 4;

/// A level texture as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texture {
    /// The name (up to 16 bytes; `#` marks animated or special textures).
    pub name: String,
    /// Width in pixels (for DDS: the byte count).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The type word as stored (format in the low 3 bits, `+8` mipmaps).
    pub kind: u32,
    /// The three words after the type: the offsets of mip levels 1..3 in the real files.
    pub legacy: [u32; 3],
    /// The pixels of every stored level, as stored, without any bytes that followed them.
    pub data: Vec<u8>,
}

impl Texture {
    /// The pixel format (`type & 7`).
    pub fn format(&self) -> u32 {
        self.kind & 7
    }

    /// Whether mip levels follow the first one.
    pub fn has_mipmaps(&self) -> bool {
        self.kind & TEXTURE_MIPMAPS != 0
    }

    /// Bytes per pixel of an image format, `None` for DDS and unknown formats.
    pub fn bytes_per_pixel(&self) -> Option<usize> {
        match self.format() {
            2 => Some(2),
            4 => Some(3),
            5 => Some(4),
            _ => None,
        }
    }

    /// `(width, height, byte size)` of every stored level, first level first.
    pub fn level_sizes(&self) -> Vec<(usize, usize, usize)> {
        level_sizes(self.kind, self.width as usize, self.height as usize)
    }

    /// Level `level` as RGBA8, top row first: `(width, height, pixels)`. DDS textures are decoded
    /// (DXT1/3/5) at their first level only; `None` for what cannot be decoded.
    pub fn rgba(&self, level: usize) -> Option<(usize, usize, Vec<u8>)> {
        if self.format() == 6 {
            return if level == 0 {
                crate::dds::decode(&self.data)
            } else {
                None
            };
        }
        let sizes = self.level_sizes();
        let &(w, h, len) = sizes.get(level)?;
        let start: usize = sizes[..level].iter().map(|s| s.2).sum();
        let bytes = self.data.get(start..start + len)?;
        let mut out = vec![0u8; w * h * 4];
        match self.format() {
            2 => {
                for (o, c) in out.chunks_exact_mut(4).zip(bytes.chunks_exact(2)) {
                    o.copy_from_slice(&Rgb565(u16::from_le_bytes([c[0], c[1]])).to_rgba());
                }
            }
            4 => {
                for (o, c) in out.chunks_exact_mut(4).zip(bytes.chunks_exact(3)) {
                    o.copy_from_slice(&[c[2], c[1], c[0], 255]);
                }
            }
            5 => {
                for (o, c) in out.chunks_exact_mut(4).zip(bytes.chunks_exact(4)) {
                    o.copy_from_slice(&[c[2], c[1], c[0], c[3]]);
                }
            }
            _ => return None,
        }
        Some((w, h, out))
    }
}

/// `(width, height, bytes)` of each stored level of a texture of `kind` and size.
pub(crate) fn level_sizes(kind: u32, width: usize, height: usize) -> Vec<(usize, usize, usize)> {
    let bpp = match kind & 7 {
        2 => 2,
        4 => 3,
        5 => 4,
        6 => return vec![(0, 0, width)],
        _ => return Vec::new(),
    };
    let levels = if kind & TEXTURE_MIPMAPS != 0 {
        MIP_LEVELS
    } else {
        1
    };
    (0..levels)
        .map(|i| {
            let (w, h) = ((width >> i).max(1), (height >> i).max(1));
            (w, h, w * h * bpp)
        })
        .collect()
}

/// Read the textures list.
pub(crate) fn read_textures(r: &mut ByteReader<'_>) -> FormatResult<Vec<Texture>> {
    if r.remaining() == 0 {
        return Ok(Vec::new());
    }
    let start = r.pos();
    let count = r.u32("textures.count")? as usize;
    r.check_count(count, 4, "textures.count")?;
    let mut offsets = Vec::with_capacity(count);
    for i in 0..count {
        offsets.push(
            r.u32("textures.offset")
                .named(|| format!("textures.offset[{i}]"))? as usize,
        );
    }
    let end = r.len();
    let mut textures = Vec::with_capacity(count);
    for (i, &offset) in offsets.iter().enumerate() {
        let record = || format!("texture[{i}]");
        r.seek(start.saturating_add(offset).min(end + 1), "offset")
            .within(record)?;
        textures.push(read_texture(r).within(record)?);
    }
    Ok(textures)
}

fn read_texture(r: &mut ByteReader<'_>) -> FormatResult<Texture> {
    let name = super::fixed_text(r, 16, "name")?;
    let width = r.u32("width")?;
    let height = r.u32("height")?;
    let kind_at = r.pos();
    let kind = r.u32("type")?;
    let legacy = [
        r.u32("legacy[0]")?,
        r.u32("legacy[1]")?,
        r.u32("legacy[2]")?,
    ];
    let format = kind & 7;
    if !matches!(format, 2 | 4 | 5 | 6) {
        let mut r2 = r.clone();
        let _ = r2.seek(kind_at, "type");
        return Err(r2.error(
            "type",
            ErrorKind::Unsupported(format!("texture type {kind} (format {format})")),
        ));
    }
    if format != 6 {
        for (side, what) in [(width, "width"), (height, "height")] {
            if side == 0 || side as usize > MAX_SKIN_SIDE {
                return Err(r.error(
                    what,
                    ErrorKind::OutOfRange {
                        value: side as i64,
                        min: 1,
                        max: MAX_SKIN_SIDE as i64,
                    },
                ));
            }
        }
    }
    let total: usize = level_sizes(kind, width as usize, height as usize)
        .iter()
        .map(|s| s.2)
        .sum();
    r.check_count(total, 1, "pixels")?;
    let data = r.bytes(total, "pixels")?.to_vec();
    Ok(Texture {
        name,
        width,
        height,
        kind,
        legacy,
        data,
    })
}
