//! PS2 geometry: the `sPs2Geometry` header, the mesh table and each mesh's VIF batches, decoded by
//! the rules of librwgta's `convertStripPS2`.
//!
//! ```text
//! sPs2Geometry (0x40)   f32 bound[4]; u32 size (low 20 bits: bytes of header + table + DMA data,
//!                       high 12 bits: mesh count); u32 flags; u16 numVerts; u16 dmaOffset;
//!                       u16 boundBox[6]; f32 scale[3] 0x28; f32 pos[3] 0x34
//! mesh (0x30 each)      f32 bound[4]; f32 uvScale[2] 0x10; u32 unknown 0x18; u32 dmaPacket 0x1C;
//!                       u16 numTriangles 0x20; s16 matID 0x22; f16 min[3], max[3]
//! mesh data             at end of mesh table + dmaPacket: a DMA tag qword (QWC in the low 16 bits),
//!                       then QWC qwords of VIF codes
//! ```
//!
//! A batch is `6C018000` + the qword `{0, 0, n, n}` (n = word 4 & 0x7FFF), then items up to `MSCAL`
//! (`14000006`): STMASK + STROW, the `79` positions (V3-16 signed); STMASK + STROW, the `76` UVs
//! (V2-8 unsigned); `6F` pre-light (V4-5) when the flags say so; `6A` normals (V3-8 signed) when
//! the flags say so; `6C` bone weights (V4-32) when the geometry has a skin. librwgta asserts this
//! exact order; here every item is found by its VIF code, so runs of zero words (VIF NOPs) are skipped
//! and unknown codes and Manhunt 2's `6E` block are stepped over by their encoded size with a logged
//! note. An UNPACK's sign bit must match librwgta's (clear for 79/6F/6A/6C, set for 76), and every
//! attribute the flags announce must be present with at least `n` elements.
//!
//! Every batch after the first repeats the previous batch's last 2 vertices; they are dropped, so a
//! mesh's vertices are the sum of its batches minus the overlaps.

use glam::{Vec2, Vec3};
use modex::{ByteReader, ErrorKind, FormatError, FormatResult};

use super::container::Image;
use super::{
    invalid, strip, BoneWeight, Mesh, Vertex, FLAG_NORMALS, FLAG_PRELIGHT, FLAG_SKIN, FORMAT,
};

/// Size of `sPs2Geometry`.
pub const PS2_GEOMETRY_SIZE: usize = 0x40;
/// Size of one mesh-table entry.
pub const MESH_SIZE: usize = 0x30;
/// The first word of every batch: UNPACK V4-32 of one qword to address 0 (FLG set).
pub const BATCH_HEADER: u32 = 0x6C01_8000;
/// `MSCAL 6`: runs the microprogram on the batch; ends it.
pub const MSCAL: u32 = 0x1400_0006;
/// STMASK command word (one mask word follows).
pub const STMASK: u32 = 0x2000_0000;
/// STROW command word (four row words follow).
pub const STROW: u32 = 0x3000_0000;
/// UNPACK's "unsigned" bit (USN) in the VIF code.
pub const UNPACK_UNSIGNED: u32 = 0x4000;
/// UNPACK command bytes of each attribute.
pub const UNPACK_POSITIONS: u8 = 0x79;
/// V2-8 UVs.
pub const UNPACK_UVS: u8 = 0x76;
/// V4-5 pre-light.
pub const UNPACK_PRELIGHT: u8 = 0x6F;
/// V3-8 normals.
pub const UNPACK_NORMALS: u8 = 0x6A;
/// V4-32 bone weights.
pub const UNPACK_WEIGHTS: u8 = 0x6C;
/// Manhunt 2's unknown V4-8 block.
pub const UNPACK_MANHUNT2: u8 = 0x6E;
/// Position decoding divisor (librwgta's `32767.5`).
pub const POSITION_DIVISOR: f32 = 32767.5;
/// UV decoding divisor (librwgta's `127.5`).
pub const UV_DIVISOR: f32 = 127.5;
/// Normal decoding divisor.
pub const NORMAL_DIVISOR: f32 = 128.0;

/// The PS2 geometry of one geometry object.
pub(crate) struct Ps2Geometry {
    pub flags: u32,
    pub declared_vertices: u16,
    pub bound: [f32; 4],
    pub scale: Vec3,
    pub pos: Vec3,
    pub meshes: Vec<Mesh>,
}

fn finite_vec3(r: &mut ByteReader, field: &str) -> FormatResult<Vec3> {
    let mut v = [0f32; 3];
    for c in &mut v {
        let at = r.pos();
        *c = r.f32(field)?;
        if !c.is_finite() {
            return Err(FormatError::invalid(
                FORMAT,
                field,
                at,
                format!("{c} is not finite"),
            ));
        }
    }
    Ok(Vec3::from_array(v))
}

/// Read the PS2 geometry at `at` (right after the 0x20-byte geometry object).
pub(crate) fn read_ps2_geometry(
    image: &Image,
    at: usize,
    field: &str,
    materials: usize,
    has_skin: bool,
) -> FormatResult<Ps2Geometry> {
    let mut r = image.reader_at(at, field)?;
    r.check_count(1, PS2_GEOMETRY_SIZE, &format!("{field}.ps2"))?;
    let mut bound = [0f32; 4];
    for b in &mut bound {
        *b = r.f32(&format!("{field}.ps2.bound"))?;
    }
    let size_at = r.pos();
    let size = r.u32(&format!("{field}.ps2.size"))?;
    let flags = r.u32(&format!("{field}.ps2.flags"))?;
    let declared_vertices = r.u16(&format!("{field}.ps2.vertex_count"))?;
    r.seek(at + 0x28, field)?;
    let scale = finite_vec3(&mut r, &format!("{field}.ps2.scale"))?;
    let pos = finite_vec3(&mut r, &format!("{field}.ps2.pos"))?;
    let mesh_count = (size >> 20) as usize;
    let bytes = (size & 0xF_FFFF) as usize;
    let table_end = PS2_GEOMETRY_SIZE + mesh_count * MESH_SIZE;
    if bytes < table_end || at + bytes > image.bytes().len() {
        return Err(FormatError::out_of_range(
            FORMAT,
            format!("{field}.ps2.size"),
            size_at,
            bytes as i64,
            table_end as i64,
            image.bytes().len().saturating_sub(at) as i64,
        ));
    }
    if flags & FLAG_SKIN != 0 && !has_skin {
        return Err(invalid(
            format!("{field}.ps2.flags"),
            size_at + 4,
            "skin flag set but the geometry has no skin",
        ));
    }
    // The geometry's bytes: header, mesh table, DMA data.
    let block = &image.bytes()[at..at + bytes];
    let layout = Layout {
        image,
        base: at,
        dma_start: table_end,
        flags,
        has_skin,
        scale,
        pos,
    };
    image.spend(mesh_count, &format!("{field}.ps2.size"), size_at)?;
    let mut meshes = Vec::with_capacity(mesh_count);
    for i in 0..mesh_count {
        let mfield = format!("{field}.mesh[{i}]");
        meshes.push(read_mesh(
            block,
            &layout,
            PS2_GEOMETRY_SIZE + i * MESH_SIZE,
            &mfield,
            materials,
        )?);
    }
    Ok(Ps2Geometry {
        flags,
        declared_vertices,
        bound,
        scale,
        pos,
        meshes,
    })
}

/// What a mesh's batches need from their geometry.
struct Layout<'i, 'a> {
    /// The file, for the decode budget.
    image: &'i Image<'a>,
    /// File offset of the PS2 geometry (block offsets are relative to it).
    base: usize,
    /// Block offset of the DMA data (end of the mesh table).
    dma_start: usize,
    flags: u32,
    has_skin: bool,
    scale: Vec3,
    pos: Vec3,
}

/// A reader over the geometry block whose errors carry file offsets.
fn block_err(e: FormatError, base: usize) -> FormatError {
    FormatError {
        offset: e.offset + base,
        ..e
    }
}

fn read_mesh(
    block: &[u8],
    layout: &Layout<'_, '_>,
    entry: usize,
    field: &str,
    materials: usize,
) -> FormatResult<Mesh> {
    let base = layout.base;
    let mut r = ByteReader::new(block, FORMAT);
    r.seek(entry + 0x10, field)
        .map_err(|e| block_err(e, base))?;
    let mut uv_scale = [0f32; 2];
    for s in &mut uv_scale {
        let at = r.pos();
        *s = r
            .f32(&format!("{field}.uv_scale"))
            .map_err(|e| block_err(e, base))?;
        if !s.is_finite() {
            return Err(invalid(
                format!("{field}.uv_scale"),
                base + at,
                "not finite",
            ));
        }
    }
    let rd = |r: &mut ByteReader, f: &str| r.u32(f).map_err(|e| block_err(e, base));
    let unknown = rd(&mut r, &format!("{field}.unknown"))?;
    let packet_at = r.pos();
    let dma_packet = rd(&mut r, &format!("{field}.dma_packet"))? as usize;
    let declared_triangles = r
        .u16(&format!("{field}.triangle_count"))
        .map_err(|e| block_err(e, base))?;
    let mat_at = r.pos();
    let material = r
        .i16(&format!("{field}.material"))
        .map_err(|e| block_err(e, base))?;
    if material < 0 || material as usize >= materials {
        return Err(FormatError::out_of_range(
            FORMAT,
            format!("{field}.material"),
            base + mat_at,
            material.into(),
            0,
            materials as i64 - 1,
        ));
    }
    // The DMA tag qword, then QWC qwords of VIF codes.
    let start = layout
        .dma_start
        .checked_add(dma_packet)
        .filter(|&s| s < block.len());
    let Some(start) = start else {
        return Err(FormatError::out_of_range(
            FORMAT,
            format!("{field}.dma_packet"),
            base + packet_at,
            dma_packet as i64,
            0,
            block.len().saturating_sub(layout.dma_start + 1) as i64,
        ));
    };
    let mut r = ByteReader::new(block, FORMAT);
    r.seek(start, field).map_err(|e| block_err(e, base))?;
    let qwc = (rd(&mut r, &format!("{field}.dma_tag"))? & 0xFFFF) as usize;
    let end = start + (qwc + 1) * 16;
    if end > block.len() {
        return Err(FormatError::new(
            FORMAT,
            format!("{field}.dma_tag.qwc"),
            base + start,
            ErrorKind::Truncated {
                needed: (qwc + 1) * 16,
                available: block.len() - start,
            },
        ));
    }
    let words = Words {
        data: &block[start + 16..end],
        base: base + start + 16,
    };
    let (vertices, keys, batches) =
        read_batches(&words, layout, [uv_scale[0], uv_scale[1]], field)?;
    let mut triangles = strip::triangles(&keys);
    strip::face_out(&vertices, &mut triangles);
    if vertices.len() != declared_triangles as usize + 2 {
        log::warn!(
            "{FORMAT}: {field}: {} strip vertices where triangle_count {declared_triangles} implies {}",
            vertices.len(),
            declared_triangles as usize + 2
        );
    }
    Ok(Mesh {
        material: material as usize,
        uv_scale,
        declared_triangles,
        unknown,
        batches,
        vertices,
        triangles,
    })
}

/// The VIF words of one mesh, with the file offset of the first.
struct Words<'a> {
    data: &'a [u8],
    base: usize,
}

impl<'a> Words<'a> {
    fn len(&self) -> usize {
        self.data.len() / 4
    }

    fn offset(&self, i: usize) -> usize {
        self.base + 4 * i
    }

    fn get(&self, i: usize, field: &str) -> FormatResult<u32> {
        match self.data.get(4 * i..4 * i + 4) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(FormatError::new(
                FORMAT,
                field,
                self.offset(i),
                ErrorKind::Truncated {
                    needed: 4,
                    available: self.data.len().saturating_sub(4 * i),
                },
            )),
        }
    }

    /// `n` words starting at `i` must exist (they belong to the item at `i - 1`).
    fn need(&self, i: usize, n: usize, field: &str) -> FormatResult<()> {
        if i.checked_add(n).is_some_and(|e| e <= self.len()) {
            return Ok(());
        }
        Err(FormatError::new(
            FORMAT,
            field,
            self.offset(i),
            ErrorKind::Truncated {
                needed: n * 4,
                available: self.data.len().saturating_sub(4 * i),
            },
        ))
    }

    fn bytes(&self, i: usize, n: usize) -> &'a [u8] {
        &self.data[4 * i..4 * i + n]
    }
}

/// The attribute data of one batch: the bytes after each UNPACK code.
#[derive(Default)]
struct BatchData<'a> {
    positions: Option<&'a [u8]>,
    uvs: Option<&'a [u8]>,
    prelight: Option<&'a [u8]>,
    normals: Option<&'a [u8]>,
    weights: Option<&'a [u8]>,
}

/// Bytes of one UNPACK element, from the command byte (`vn` components of `vl` bits; V4-5 is 2).
fn unpack_element_size(cmd: u8) -> usize {
    let vn = ((cmd >> 2) & 3) as usize + 1;
    match cmd & 3 {
        0 => 4 * vn,
        1 => 2 * vn,
        2 => vn,
        _ => 2,
    }
}

/// Words taken by a VIF code other than UNPACK (including the code), or `None` when the code is not
/// a VIF command.
fn command_words(code: u32) -> Option<usize> {
    let cmd = (code >> 24) & 0x7F;
    let num = (code >> 16) & 0xFF;
    let imm = code & 0xFFFF;
    match cmd {
        // NOP, STCYCL, OFFSET, BASE, ITOP, STMOD, MSKPATH3, MARK, FLUSHE, FLUSH, FLUSHA, MSCAL,
        // MSCALF, MSCNT
        0x00..=0x07 | 0x10 | 0x11 | 0x13 | 0x14 | 0x15 | 0x17 => Some(1),
        0x20 => Some(2),
        0x30 | 0x31 => Some(5),
        // MPG: NUM 64-bit instructions (0 = 256)
        0x4A => Some(1 + 2 * if num == 0 { 256 } else { num as usize }),
        // DIRECT / DIRECTHL: IMM qwords (0 = 65536)
        0x50 | 0x51 => Some(1 + 4 * if imm == 0 { 65536 } else { imm as usize }),
        _ => None,
    }
}

type Decoded = (Vec<Vertex>, Vec<strip::VertexKey>, usize);

/// Decode every batch of one mesh's VIF words.
fn read_batches(
    words: &Words,
    layout: &Layout<'_, '_>,
    uv_scale: [f32; 2],
    field: &str,
) -> FormatResult<Decoded> {
    let mut vertices = Vec::new();
    let mut keys = Vec::new();
    let mut batches = 0;
    let mut i = 0;
    let mut notes = Notes::default();
    loop {
        while i < words.len() && words.get(i, field)? == 0 {
            i += 1;
        }
        if i >= words.len() {
            break;
        }
        let bfield = format!("{field}.batch[{batches}]");
        let code = words.get(i, &bfield)?;
        if code != BATCH_HEADER {
            return Err(invalid(
                format!("{bfield}.header"),
                words.offset(i),
                format!("VIF code {code:08X} where a batch starts with {BATCH_HEADER:08X}"),
            ));
        }
        words.need(i + 1, 4, &format!("{bfield}.header"))?;
        let count = (words.get(i + 4, &bfield)? & 0x7FFF) as usize;
        let count_at = words.offset(i + 4);
        i += 5;
        let (data, next) = read_items(words, i, count, layout, &bfield, &mut notes)?;
        i = next;
        let skip = if batches == 0 { 0 } else { 2 };
        if count < skip {
            return Err(invalid(
                format!("{bfield}.vertex_count"),
                count_at,
                format!("{count} vertices, but every batch after the first repeats 2"),
            ));
        }
        layout
            .image
            .spend(count - skip, &format!("{bfield}.vertex_count"), count_at)?;
        vertices.reserve(count - skip);
        for v in skip..count {
            let (vertex, key) = decode_vertex(&data, v, layout, uv_scale);
            vertices.push(vertex);
            keys.push(key);
        }
        batches += 1;
    }
    notes.log(field);
    Ok((vertices, keys, batches))
}

/// What a mesh's batches held that was stepped over: logged once per mesh, not once per batch, so a
/// Manhunt 2 model with hundreds of `6E` blocks gives one line per mesh.
#[derive(Default)]
struct Notes(std::collections::BTreeMap<String, (usize, usize)>);

impl Notes {
    fn add(&mut self, what: String, at: usize) {
        self.0.entry(what).or_insert((0, at)).0 += 1;
    }

    fn log(&self, field: &str) {
        if self.0.is_empty() {
            return;
        }
        let list: Vec<String> = self
            .0
            .iter()
            .map(|(what, (n, at))| format!("{n} x {what} (first at byte {at})"))
            .collect();
        log::info!("{FORMAT}: {field}: stepped over {}", list.join(", "));
    }
}

/// Read the items of one batch from word `i` up to and including its MSCAL; returns the attribute
/// data and the word after the MSCAL.
fn read_items<'a>(
    words: &Words<'a>,
    mut i: usize,
    count: usize,
    layout: &Layout<'_, '_>,
    field: &str,
    notes: &mut Notes,
) -> FormatResult<(BatchData<'a>, usize)> {
    let mut data = BatchData::default();
    loop {
        let code = words.get(i, &format!("{field}.mscal"))?;
        let at = words.offset(i);
        if code == 0 {
            i += 1;
            continue;
        }
        let cmd = ((code >> 24) & 0x7F) as u8;
        if cmd & 0x60 == 0x60 {
            let num = match (code >> 16) & 0xFF {
                0 => 256,
                n => n as usize,
            };
            let size = unpack_element_size(cmd);
            let nwords = (num * size).div_ceil(4);
            let ifield = format!("{field}.unpack[{cmd:02X}]");
            words.need(i + 1, nwords, &ifield)?;
            let bytes = words.bytes(i + 1, num * size);
            let unsigned = code & UNPACK_UNSIGNED != 0;
            let (slot, want_unsigned, wanted) = match cmd {
                UNPACK_POSITIONS => (&mut data.positions, false, true),
                UNPACK_UVS => (&mut data.uvs, true, true),
                UNPACK_PRELIGHT => (&mut data.prelight, false, layout.flags & FLAG_PRELIGHT != 0),
                UNPACK_NORMALS => (&mut data.normals, false, layout.flags & FLAG_NORMALS != 0),
                UNPACK_WEIGHTS => (&mut data.weights, false, layout.has_skin),
                other => {
                    let what = if other == UNPACK_MANHUNT2 {
                        format!("UNPACK {other:02X} (Manhunt 2 block)")
                    } else {
                        format!("UNPACK {other:02X}")
                    };
                    notes.add(what, at);
                    i += 1 + nwords;
                    continue;
                }
            };
            if !wanted {
                notes.add(format!("UNPACK {cmd:02X} (not announced by the flags)"), at);
            } else {
                if unsigned != want_unsigned {
                    return Err(invalid(
                        ifield,
                        at,
                        format!(
                            "UNPACK {code:08X} has the unsigned bit {}, librwgta's layout has it {}",
                            if unsigned { "set" } else { "clear" },
                            if want_unsigned { "set" } else { "clear" }
                        ),
                    ));
                }
                if slot.is_some() {
                    return Err(invalid(ifield, at, "attribute given twice in one batch"));
                }
                if num < count {
                    return Err(FormatError::new(
                        FORMAT,
                        format!("{ifield}.num"),
                        at,
                        ErrorKind::OutOfRange {
                            value: num as i64,
                            min: count as i64,
                            max: 256,
                        },
                    ));
                }
                *slot = Some(bytes);
            }
            i += 1 + nwords;
            continue;
        }
        if cmd == 0x14 {
            if code != MSCAL {
                notes.add(format!("MSCAL {code:08X} (ends the batch)"), at);
            }
            i += 1;
            break;
        }
        let Some(n) = command_words(code) else {
            return Err(invalid(
                format!("{field}.vif"),
                at,
                format!("unknown VIF code {code:08X} (its size is not known)"),
            ));
        };
        if code != STMASK && code != STROW {
            notes.add(format!("VIF code {code:08X}"), at);
        }
        words.need(i + 1, n - 1, &format!("{field}.vif"))?;
        i += n;
    }
    let at = words.offset(i.saturating_sub(1));
    let missing = |what: &str| invalid(format!("{field}.{what}"), at, "missing from the batch");
    if data.positions.is_none() {
        return Err(missing("positions (UNPACK 79)"));
    }
    if data.uvs.is_none() {
        return Err(missing("uvs (UNPACK 76)"));
    }
    if layout.flags & FLAG_PRELIGHT != 0 && data.prelight.is_none() {
        return Err(missing("prelight (UNPACK 6F)"));
    }
    if layout.flags & FLAG_NORMALS != 0 && data.normals.is_none() {
        return Err(missing("normals (UNPACK 6A)"));
    }
    if layout.has_skin && data.weights.is_none() {
        return Err(missing("weights (UNPACK 6C)"));
    }
    Ok((data, i))
}

fn le16(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

fn le32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

/// Decode vertex `v` of a batch whose data [`read_items`] checked to hold at least `v + 1` elements.
fn decode_vertex(
    data: &BatchData,
    v: usize,
    layout: &Layout<'_, '_>,
    uv_scale: [f32; 2],
) -> (Vertex, strip::VertexKey) {
    let mut key = strip::VertexKey::default();
    let p = data.positions.expect("checked by read_items");
    let raw = [
        le16(p, 6 * v) as i16,
        le16(p, 6 * v + 2) as i16,
        le16(p, 6 * v + 4) as i16,
    ];
    key.position = raw;
    let position = Vec3::new(raw[0] as f32, raw[1] as f32, raw[2] as f32) / POSITION_DIVISOR
        * layout.scale
        + layout.pos;
    let t = data.uvs.expect("checked by read_items");
    key.uv = [t[2 * v], t[2 * v + 1]];
    let uv = Vec2::new(
        t[2 * v] as f32 / UV_DIVISOR * uv_scale[0],
        t[2 * v + 1] as f32 / UV_DIVISOR * uv_scale[1],
    );
    let prelight = data.prelight.map(|c| {
        let c = le16(c, 2 * v);
        key.prelight = c;
        decode_prelight(c)
    });
    let normal = data.normals.map(|n| {
        let raw = [n[3 * v] as i8, n[3 * v + 1] as i8, n[3 * v + 2] as i8];
        key.normal = raw;
        Vec3::new(raw[0] as f32, raw[1] as f32, raw[2] as f32) / NORMAL_DIVISOR
    });
    let weights = data.weights.map(|w| {
        let mut out = [BoneWeight {
            bone: 0,
            weight: 0.0,
        }; 4];
        for (j, o) in out.iter_mut().enumerate() {
            let word = le32(w, 16 * v + 4 * j);
            key.weights[j] = word;
            *o = decode_weight(word);
        }
        out
    });
    (
        Vertex {
            position,
            uv,
            normal,
            prelight,
            weights,
        },
        key,
    )
}

/// RGB555 + 1-bit alpha to RGBA8 (librwgta: `c * 255 / 31`, alpha 0 or 255).
pub fn decode_prelight(c: u16) -> [u8; 4] {
    let five = |s: u16| ((s & 0x1F) as u32 * 255 / 31) as u8;
    [
        five(c),
        five(c >> 5),
        five(c >> 10),
        if c & 0x8000 != 0 { 255 } else { 0 },
    ]
}

/// One skin word: the weight is the word with its low byte cleared, as `f32` bits; the bone is
/// bits 2..7 (librwgta: "not sure how many bits are an index"), 0 when the weight is 0.
pub fn decode_weight(word: u32) -> BoneWeight {
    let weight = f32::from_bits(word & !0xFF);
    let bone = if weight == 0.0 {
        0
    } else {
        ((word >> 2) & 0x3F) as u8
    };
    BoneWeight { bone, weight }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpack_sizes_match_the_vif_table() {
        assert_eq!(unpack_element_size(UNPACK_POSITIONS), 6);
        assert_eq!(unpack_element_size(UNPACK_UVS), 2);
        assert_eq!(unpack_element_size(UNPACK_PRELIGHT), 2);
        assert_eq!(unpack_element_size(UNPACK_NORMALS), 3);
        assert_eq!(unpack_element_size(UNPACK_WEIGHTS), 16);
        assert_eq!(unpack_element_size(UNPACK_MANHUNT2), 4);
    }

    #[test]
    fn prelight_and_weights_decode_as_librwgta() {
        assert_eq!(decode_prelight(0x801F), [255, 0, 0, 255]);
        assert_eq!(decode_prelight(0x03E0), [0, 255, 0, 0]);
        assert_eq!(decode_prelight(0x0421), [8, 8, 8, 0]);
        let w = decode_weight(0.5f32.to_bits() | (5 << 2));
        assert_eq!((w.bone, w.weight), (5, 0.5));
        assert_eq!(decode_weight(7 << 2).bone, 0);
    }
}
