//! MDL7 skins: a 28-byte header (`u8 type, 3 pad, i32 width, i32 height, name[16]`, stepped by the
//! declared skin record size) and what its type says follows.
//!
//! `type & 7` is the base format (0 8-bit, 1 reference to skin `width`, 2 565, 3 4444, 4 888,
//! 5 8888, 6 embedded DDS of `width` bytes, 7 external file name of `width` bytes); `0x08` three
//! mipmap levels follow the pixels, `0x10` a material record follows, `0x20` an i32 length and
//! effect text follow, in that order. An 8-bit skin of size 0x0 occurs in real files
//! (`Glockenkessel.mdl`): it holds no pixels and is drawn with the material colour or grey.

use modex::{ByteReader, FormatError, FormatResult, Palette};

use super::{Mdl7Header, FORMAT};
use crate::model::{Skin, SkinPixels};
use crate::skin;
pub use crate::skin::Material;

const FLAG_MIPMAPS: u8 = 0x08;
const FLAG_MATERIAL: u8 = 0x10;
const FLAG_EFFECT: u8 = 0x20;
/// Largest effect text accepted (the engine's effects are a few kilobytes).
const MAX_EFFECT: usize = 1 << 20;

/// Where a skin's pixels come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkinSource {
    /// Stored in the file (types 0, 2..6).
    Embedded,
    /// Type 1: the pixels of an earlier skin of the group (resolved into a copy).
    Reference(usize),
    /// Type 7: a file beside the model (see `Skin::pixels`, [`SkinPixels::External`]).
    External(String),
}

/// A skin record with what it carried besides pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Mdl7Skin {
    /// Byte offset of the skin header.
    pub offset: usize,
    /// The type byte as stored.
    pub raw_type: u8,
    /// The name field.
    pub name: String,
    /// The pixels (references are resolved; external files are left to the caller).
    pub skin: Skin,
    /// Where the pixels come from.
    pub source: SkinSource,
    /// The material record (type flag 0x10).
    pub material: Option<Material>,
    /// Effect text (type flag 0x20).
    pub effect: Option<String>,
}

fn empty_skin(kind: u32, mipmaps: bool, pixels: SkinPixels) -> Skin {
    Skin {
        kind,
        has_mipmaps: mipmaps,
        width: 0,
        height: 0,
        pixels,
        rgba: Default::default(),
    }
}

pub(super) fn read_skins(
    r: &mut ByteReader<'_>,
    h: &Mdl7Header,
    group: &str,
    count: usize,
    palette: &Palette,
) -> FormatResult<Vec<Mdl7Skin>> {
    r.check_count(count, h.sizes.skin, &format!("{group}.numskins"))?;
    let mut skins: Vec<Mdl7Skin> = Vec::with_capacity(count);
    for i in 0..count {
        let offset = r.pos();
        let f = format!("{group}.skin[{i}]");
        let raw_type = r.u8(&format!("{f}.typ"))?;
        r.skip(3, &format!("{f}.pad"))?;
        let width = r.i32(&format!("{f}.width"))?;
        let height = r.i32(&format!("{f}.height"))?;
        let name = r.fixed_str(16, &format!("{f}.texture_name"))?;
        r.seek(offset + h.sizes.skin, &format!("{f}.end"))?;
        let kind = (raw_type & 7) as u32;
        let mipmaps = raw_type & FLAG_MIPMAPS != 0;
        let size_of = |v: i32, field: &str| -> FormatResult<usize> {
            usize::try_from(v).map_err(|_| {
                FormatError::out_of_range(
                    FORMAT,
                    format!("{f}.{field}"),
                    offset + if field == "width" { 4 } else { 8 },
                    v as i64,
                    0,
                    i32::MAX as i64,
                )
            })
        };
        let (skin, source) = match kind {
            1 => {
                let target = size_of(width, "width")?;
                let Some(t) = skins.get(target) else {
                    return Err(FormatError::out_of_range(
                        FORMAT,
                        format!("{f}.width"),
                        offset + 4,
                        target as i64,
                        0,
                        i as i64 - 1,
                    ));
                };
                (t.skin.clone(), SkinSource::Reference(target))
            }
            6 => {
                let n = size_of(width, "width")?;
                r.check_count(n, 1, &format!("{f}.dds"))?;
                let bytes = r.bytes(n, &format!("{f}.dds"))?;
                (skin::dds_skin(kind, mipmaps, bytes), SkinSource::Embedded)
            }
            7 => {
                let n = size_of(width, "width")?;
                let at = r.pos();
                let text = r.fixed_str(n, &format!("{f}.file_name"))?;
                if text.is_empty() {
                    return Err(FormatError::invalid(
                        FORMAT,
                        format!("{f}.file_name"),
                        at,
                        "empty external texture name",
                    ));
                }
                (
                    empty_skin(kind, mipmaps, SkinPixels::External(text.clone())),
                    SkinSource::External(text),
                )
            }
            _ => {
                let (w, hgt) = (size_of(width, "width")?, size_of(height, "height")?);
                if w == 0 && hgt == 0 {
                    // Seen in real files: a placeholder without pixels.
                    (
                        empty_skin(kind, mipmaps, SkinPixels::Indexed(Default::default())),
                        SkinSource::Embedded,
                    )
                } else {
                    (
                        skin::read_image(r, kind, mipmaps, w, hgt, palette, &f)?,
                        SkinSource::Embedded,
                    )
                }
            }
        };
        let material = if raw_type & FLAG_MATERIAL != 0 {
            let start = r.pos();
            let mut v = [0f32; 17];
            for x in &mut v {
                *x = r.f32(&format!("{f}.material"))?;
            }
            r.seek(start + h.sizes.material, &format!("{f}.material.end"))?;
            let c = |k: usize| [v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]];
            Some(Material {
                diffuse: c(0),
                ambient: c(1),
                specular: c(2),
                emissive: c(3),
                power: v[16],
            })
        } else {
            None
        };
        let effect = if raw_type & FLAG_EFFECT != 0 {
            let at = r.pos();
            let n = r.count_i32(&format!("{f}.effect_length"))?;
            if n > MAX_EFFECT {
                return Err(FormatError::out_of_range(
                    FORMAT,
                    format!("{f}.effect_length"),
                    at,
                    n as i64,
                    0,
                    MAX_EFFECT as i64,
                ));
            }
            Some(r.fixed_str(n, &format!("{f}.effect"))?)
        } else {
            None
        };
        skins.push(Mdl7Skin {
            offset,
            raw_type,
            name,
            skin,
            source,
            material,
            effect,
        });
    }
    Ok(skins)
}
