//! The VXL model decoder: header, palettes (skipped), layer headers, run-length encoded body and layer
//! info records ("tailers").
//!
//! The byte layout, all little-endian, was measured on real files (every sample and 189 models of
//! a public mod parse with it): a 32-byte header (magic, u32 palette count, layer count, info
//! record count and body size), the palettes, 28-byte layer headers (name, info record index, two
//! unknown words), the body, then 92-byte info records (span table offsets, scale, a 3x4
//! transform, bounds, size, normals mode); such a file is exactly `32 + 770 * palettes + 28 *
//! layers + body + 92 * records` bytes long. Where that layout and the game's own loading rules
//! (`vxl-hva.txt`) say different things the rules decide how the file is *read*:
//!
//! - Every measured file has one palette, so its layer headers start at byte 802. The game skips
//!   one 770-byte palette (two remap bytes and 768 colour bytes) per the header's palette count,
//!   so the palette count decides where the layer headers start. We do the same: a file with 0 or
//!   2 palettes loads.
//! - A layer header names the index of its first info record; the game uses only that record, so a
//!   file may hold more info records than layers. Real files always use `layer i -> record i`.
//! - The palettes, the internal names and the placement transform do not affect drawing; the names
//!   and transform are kept for `modex info` only.
//!
//! Voxels are stored sparse, column by column (column `x + y * xsize`), which is also how the
//! ray-marcher's occupancy masks are built (in `modex-voxel`).

use glam::Vec3;
use modex::{ByteReader, ErrorKind, FormatError, FormatResult};

const FORMAT: &str = "VXL";
/// The magic at the start of every VXL.
pub const MAGIC: &[u8; 16] = b"Voxel Animation\0";

/// Whether `data` starts like a VXL model (format detection).
pub fn sniff(data: &[u8]) -> bool {
    data.starts_with(MAGIC)
}
/// Size of the fixed header fields before the palettes.
pub const HEADER_SIZE: usize = 32;
/// One palette: remap start, remap end, 256 RGB triples.
pub const PALETTE_SIZE: usize = 2 + 768;
/// One layer header: name, info index, two unknown words.
pub const LAYER_HEADER_SIZE: usize = 28;
/// One layer info record (tailer).
pub const TAILER_SIZE: usize = 92;

/// One filled voxel of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Voxel {
    /// Height in the column, `0..zsize`.
    pub z: u8,
    /// Palette index (looked up through the VPL page, not the file's own palette).
    pub colour: u8,
    /// Index into the normal table chosen by the first layer's selector.
    pub normal: u8,
}

/// One layer ("limb") of a model, already decoded to sparse columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Limb {
    /// Name from the layer header (not used by the game; shown by `modex info`).
    pub name: String,
    /// Index of the info record this layer uses (the layer header's first-record index).
    pub info_index: usize,
    /// The scale the layer was built at (the "HVA multiplier", usually 1/12).
    pub scale: f32,
    /// Placement transform from the info record, row-major 3x4. The game ignores it (the HVA places
    /// layers); kept for inspection.
    pub transform: [f32; 12],
    /// Bounding box corner with the smallest coordinates, in model units.
    pub min: Vec3,
    /// Bounding box corner with the largest coordinates, in model units.
    pub max: Vec3,
    /// X, Y, Z size in voxels.
    pub size: [u8; 3],
    /// Normal table selector: 0 = unlit, 1..=4 = table (values above 4 are kept here and refused
    /// when the model is assembled for drawing).
    pub normals_mode: u8,
    /// `column_start[c]..column_start[c + 1]` indexes [`Limb::voxels`] for column
    /// `c = x + y * xsize`; length `xsize * ysize + 1`.
    pub column_start: Vec<u32>,
    /// All voxels, column by column, ascending z within a column.
    pub voxels: Vec<Voxel>,
}

impl Limb {
    /// Number of filled voxels.
    pub fn voxel_count(&self) -> usize {
        self.voxels.len()
    }

    /// The voxels of column (x, y), ascending z; empty outside the limb.
    pub fn column(&self, x: usize, y: usize) -> &[Voxel] {
        let (xs, ys) = (self.size[0] as usize, self.size[1] as usize);
        if x >= xs || y >= ys {
            return &[];
        }
        let c = x + y * xs;
        &self.voxels[self.column_start[c] as usize..self.column_start[c + 1] as usize]
    }

    /// Every filled voxel as (x, y, voxel).
    pub fn iter_voxels(&self) -> impl Iterator<Item = (u8, u8, Voxel)> + '_ {
        let xs = self.size[0] as usize;
        (0..self.column_start.len().saturating_sub(1)).flat_map(move |c| {
            let (x, y) = ((c % xs.max(1)) as u8, (c / xs.max(1)) as u8);
            self.voxels[self.column_start[c] as usize..self.column_start[c + 1] as usize]
                .iter()
                .map(move |v| (x, y, *v))
        })
    }

    /// The largest normal index any voxel uses (0 for an empty limb).
    pub fn max_normal_index(&self) -> u8 {
        self.voxels.iter().map(|v| v.normal).max().unwrap_or(0)
    }

    /// Size of one voxel in model units along each axis: `(max - min) / size`.
    pub fn voxel_extent(&self) -> Vec3 {
        let s = Vec3::new(
            self.size[0].max(1) as f32,
            self.size[1].max(1) as f32,
            self.size[2].max(1) as f32,
        );
        (self.max - self.min) / s
    }
}

/// A decoded VXL file.
#[derive(Debug, Clone, PartialEq)]
pub struct Vxl {
    /// Number of palettes the header declares (each skipped).
    pub palette_count: u32,
    /// Number of info records in the file (may exceed the layer count).
    pub tailer_count: u32,
    /// Size of the voxel body in bytes.
    pub body_size: u32,
    /// The first palette's RGB bytes, when there is one. The game never uses it (colours come from
    /// VOXELS.VPL); `modex` uses it only when no VPL is given.
    pub embedded_palette: Option<Box<[u8; 768]>>,
    /// The layers, in file order.
    pub limbs: Vec<Limb>,
}

impl Vxl {
    /// Total filled voxels over all layers.
    pub fn voxel_count(&self) -> usize {
        self.limbs.iter().map(Limb::voxel_count).sum()
    }
}

/// Decode a VXL file.
pub fn decode(data: &[u8]) -> FormatResult<Vxl> {
    let mut r = ByteReader::new(data, FORMAT);
    r.expect_magic(MAGIC, "header.magic")?;
    let palette_count = r.u32("header.palette_count")?;
    let limb_count_at = r.pos();
    let limb_count = r.u32("header.limb_count")? as usize;
    let tailer_count = r.u32("header.tailer_count")? as usize;
    let body_size_at = r.pos();
    let body_size = r.u32("header.body_size")? as usize;
    if limb_count == 0 {
        // The game would read the first layer's scale from outside the model: refuse instead.
        return Err(FormatError::invalid(
            FORMAT,
            "header.limb_count",
            limb_count_at,
            "a model needs at least one layer",
        ));
    }

    // Palettes: skipped, but their count decides where the layer headers start.
    let embedded_palette = if palette_count > 0 && r.remaining() >= PALETTE_SIZE {
        let mut p = Box::new([0u8; 768]);
        p.copy_from_slice(&data[HEADER_SIZE + 2..HEADER_SIZE + PALETTE_SIZE]);
        Some(p)
    } else {
        None
    };
    r.check_count(palette_count as usize, PALETTE_SIZE, "palettes")?;
    r.skip(palette_count as usize * PALETTE_SIZE, "palettes")?;

    r.check_count(limb_count, LAYER_HEADER_SIZE, "layer_headers")?;
    let mut headers = Vec::with_capacity(limb_count);
    for i in 0..limb_count {
        let name = r.fixed_str(16, &format!("layer[{i}].name"))?;
        let at = r.pos();
        let info = r.u32(&format!("layer[{i}].info_index"))? as usize;
        if info >= tailer_count {
            return Err(FormatError::out_of_range(
                FORMAT,
                format!("layer[{i}].info_index"),
                at,
                info as i64,
                0,
                tailer_count as i64 - 1,
            ));
        }
        r.skip(8, &format!("layer[{i}].unknown"))?;
        headers.push((name, info));
    }

    let body_start = r.pos();
    if body_size > r.remaining() {
        return Err(FormatError::new(
            FORMAT,
            "header.body_size",
            body_size_at,
            ErrorKind::TooLarge {
                value: body_size as u64,
                limit: r.remaining() as u64,
            },
        ));
    }
    let body = &data[body_start..body_start + body_size];
    r.skip(body_size, "body")?;

    r.check_count(tailer_count, TAILER_SIZE, "tailers")?;
    let mut tailers = Vec::with_capacity(tailer_count);
    for i in 0..tailer_count {
        tailers.push(read_tailer(&mut r, i)?);
    }

    // Layers may share an info record, and then their span tables too. Each layer's decoded columns
    // and occupancy cost memory in proportion to its span tables, so a file is refused when its
    // layers together would need more span-table bytes than the body holds: otherwise a few bytes
    // of layer headers pointing at one large record could claim gigabytes. Real files give every
    // layer its own record and meet this exactly.
    let mut span_bytes = 0usize;
    for (i, (_, info)) in headers.iter().enumerate() {
        let s = tailers[*info].size;
        span_bytes += 8 * s[0] as usize * s[1] as usize;
        if span_bytes > body_size {
            return Err(FormatError::new(
                FORMAT,
                format!("layer[{i}].info_index"),
                HEADER_SIZE + palette_count as usize * PALETTE_SIZE + i * LAYER_HEADER_SIZE + 16,
                ErrorKind::TooLarge {
                    value: span_bytes as u64,
                    limit: body_size as u64,
                },
            ));
        }
    }

    let mut limbs = Vec::with_capacity(limb_count);
    for (i, (name, info)) in headers.into_iter().enumerate() {
        let t = &tailers[info];
        let (column_start, voxels) = decode_spans(body, body_start, t, i)?;
        limbs.push(Limb {
            name,
            info_index: info,
            scale: t.scale,
            transform: t.transform,
            min: t.min,
            max: t.max,
            size: t.size,
            normals_mode: t.normals_mode,
            column_start,
            voxels,
        });
    }
    Ok(Vxl {
        palette_count,
        tailer_count: tailer_count as u32,
        body_size: body_size as u32,
        embedded_palette,
        limbs,
    })
}

/// One layer info record as stored.
#[derive(Debug, Clone)]
struct Tailer {
    at: usize,
    span_start: usize,
    span_end: usize,
    span_data: usize,
    scale: f32,
    transform: [f32; 12],
    min: Vec3,
    max: Vec3,
    size: [u8; 3],
    normals_mode: u8,
}

fn read_tailer(r: &mut ByteReader<'_>, i: usize) -> FormatResult<Tailer> {
    let at = r.pos();
    let f = |s: &str| format!("tailer[{i}].{s}");
    let span_start = r.u32(&f("span_start_offset"))? as usize;
    let span_end = r.u32(&f("span_end_offset"))? as usize;
    let span_data = r.u32(&f("span_data_offset"))? as usize;
    let scale = r.f32(&f("scale"))?;
    let mut transform = [0f32; 12];
    for v in &mut transform {
        *v = r.f32(&f("transform"))?;
    }
    let mut b = [0f32; 6];
    for v in &mut b {
        *v = r.f32(&f("bounds"))?;
    }
    let size = [r.u8(&f("xsize"))?, r.u8(&f("ysize"))?, r.u8(&f("zsize"))?];
    let normals_mode = r.u8(&f("normals_mode"))?;
    Ok(Tailer {
        at,
        span_start,
        span_end,
        span_data,
        scale,
        transform,
        min: Vec3::new(b[0], b[1], b[2]),
        max: Vec3::new(b[3], b[4], b[5]),
        size,
        normals_mode,
    })
}

/// Decode one layer's span tables and RLE columns. All offsets are relative to the body, and no read
/// leaves the body: a span pointing outside it is an error naming the layer and column.
fn decode_spans(
    body: &[u8],
    body_start: usize,
    t: &Tailer,
    limb: usize,
) -> FormatResult<(Vec<u32>, Vec<Voxel>)> {
    let shift = |mut e: FormatError| {
        e.offset += body_start;
        e
    };
    let (xs, ys, zs) = (t.size[0] as usize, t.size[1] as usize, t.size[2] as usize);
    let columns = xs * ys;
    let mut r = ByteReader::new(body, FORMAT);
    let field = |s: &str| format!("layer[{limb}].{s}");

    r.seek(t.span_start, &field("span_start_offset"))
        .map_err(shift)?;
    r.check_count(columns, 4, &field("span_start"))
        .map_err(shift)?;
    let mut starts = Vec::with_capacity(columns);
    for _ in 0..columns {
        // check_count above guarantees these reads succeed; the field name is only built on error.
        starts.push(
            r.i32("span_start")
                .map_err(|e| shift(rename(e, field("span_start"))))?,
        );
    }
    // The end table only repeats what the runs already say; check that it is inside the body so a
    // file that "cannot be read in full" is refused like the game would.
    r.seek(t.span_end, &field("span_end_offset"))
        .map_err(shift)?;
    r.check_count(columns, 4, &field("span_end"))
        .map_err(shift)?;
    if t.span_data > body.len() {
        return Err(FormatError::out_of_range(
            FORMAT,
            field("span_data_offset"),
            t.at + 8,
            t.span_data as i64,
            0,
            body.len() as i64,
        ));
    }

    let mut column_start = Vec::with_capacity(columns + 1);
    let mut voxels = Vec::new();
    for (c, &start) in starts.iter().enumerate() {
        column_start.push(voxels.len() as u32);
        if start < 0 {
            continue; // -1: empty column
        }
        let pos = t.span_data.checked_add(start as usize);
        let Some(pos) = pos.filter(|&p| p <= body.len()) else {
            return Err(FormatError::out_of_range(
                FORMAT,
                field(&format!("span_start[{c}]")),
                body_start + t.span_start + 4 * c,
                start as i64,
                0,
                (body.len() - t.span_data) as i64,
            ));
        };
        r.seek(pos, "span").map_err(shift)?;
        let run_err = |e: FormatError| shift(rename(e, field(&format!("column[{c}].run"))));
        let mut z = 0usize;
        while z < zs {
            let cf = || field(&format!("column[{c}].run"));
            let run_at = r.pos();
            let skip = r.u8("run").map_err(run_err)? as usize;
            let count = r.u8("run").map_err(run_err)? as usize;
            if skip == 0 && count == 0 {
                // A run that neither skips nor fills never reaches the top: refuse it rather than
                // spin over the rest of the body.
                return Err(FormatError::invalid(
                    FORMAT,
                    cf(),
                    body_start + run_at,
                    "empty run (skip 0, count 0) before the column top",
                ));
            }
            z += skip;
            if z + count > zs {
                return Err(FormatError::invalid(
                    FORMAT,
                    cf(),
                    body_start + run_at,
                    format!("run reaches z {} in a column {zs} high", z + count),
                ));
            }
            let pairs = r.bytes(count * 2, "run").map_err(run_err)?;
            for p in pairs.chunks_exact(2) {
                voxels.push(Voxel {
                    z: z as u8,
                    colour: p[0],
                    normal: p[1],
                });
                z += 1;
            }
            r.u8("run").map_err(run_err)?; // the count again
        }
    }
    column_start.push(voxels.len() as u32);
    Ok((column_start, voxels))
}

/// Give an error the full field name (built only when an error happens, not per byte read).
fn rename(mut e: FormatError, field: String) -> FormatError {
    e.field = field;
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{LimbSpec, VxlSpec};

    #[test]
    fn round_trips_a_small_model() {
        let mut spec = VxlSpec::single(LimbSpec::filled_box([3, 2, 4], 7, 2));
        spec.limbs[0].voxels.retain(|v| (v.0 + v.1 + v.2) % 2 == 0);
        let bytes = spec.encode();
        let v = decode(&bytes).unwrap();
        assert_eq!(v.limbs.len(), 1);
        let l = &v.limbs[0];
        assert_eq!(l.size, [3, 2, 4]);
        let mut got: Vec<_> = l
            .iter_voxels()
            .map(|(x, y, v)| (x, y, v.z, v.colour, v.normal))
            .collect();
        got.sort();
        let mut want = spec.limbs[0].voxels.clone();
        want.sort();
        assert_eq!(got, want);
        assert_eq!(bytes.len(), spec.encoded_len());
    }

    #[test]
    fn bad_magic_and_truncation_are_errors() {
        let bytes = VxlSpec::single(LimbSpec::filled_box([2, 2, 2], 1, 0)).encode();
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(matches!(
            decode(&bad).unwrap_err().kind,
            ErrorKind::BadMagic { .. }
        ));
        for cut in [10, 40, 802, 830, bytes.len() - 1] {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn empty_run_is_refused_not_looped() {
        let mut spec = VxlSpec::single(LimbSpec::filled_box([1, 1, 4], 1, 0));
        spec.raw_column_override = Some(vec![0, 0, 0]);
        let e = decode(&spec.encode()).unwrap_err();
        assert!(e.field.contains("run"), "{e}");
    }

    #[test]
    fn run_past_column_top_is_refused() {
        let mut spec = VxlSpec::single(LimbSpec::filled_box([1, 1, 2], 1, 0));
        spec.raw_column_override = Some(vec![0, 3, 1, 0, 1, 0, 1, 0, 3]);
        assert!(decode(&spec.encode()).is_err());
    }

    #[test]
    fn span_outside_body_is_refused() {
        let mut spec = VxlSpec::single(LimbSpec::filled_box([2, 1, 1], 1, 0));
        spec.span_start_override = Some(vec![0, 100_000]);
        let e = decode(&spec.encode()).unwrap_err();
        assert!(e.field.contains("span_start[1]"), "{e}");
    }

    #[test]
    fn layers_sharing_one_large_record_cannot_claim_unbounded_memory() {
        let big = LimbSpec::empty([200, 200, 255]);
        let mut spec = VxlSpec {
            limbs: vec![big],
            ..VxlSpec::default()
        };
        spec.layer_count_override = Some(50);
        spec.info_index_override = Some(vec![0; 50]);
        let e = decode(&spec.encode()).unwrap_err();
        assert_eq!(e.field, "layer[1].info_index");
        assert!(matches!(e.kind, ErrorKind::TooLarge { .. }));
    }

    #[test]
    fn layer_naming_a_missing_info_record_is_refused() {
        let mut spec = VxlSpec::single(LimbSpec::filled_box([1, 1, 1], 1, 0));
        spec.info_index_override = Some(vec![3]);
        let e = decode(&spec.encode()).unwrap_err();
        assert_eq!(e.field, "layer[0].info_index");
    }

    #[test]
    fn a_layer_uses_only_its_first_info_record() {
        // Two layers, three info records; layer 1 names record 2, record 1 is never used.
        let a = LimbSpec::filled_box([1, 1, 1], 1, 0);
        let b = LimbSpec::filled_box([2, 1, 1], 2, 0);
        let c = LimbSpec::filled_box([3, 1, 1], 3, 0);
        let mut spec = VxlSpec {
            limbs: vec![a, b, c],
            ..VxlSpec::default()
        };
        spec.layer_count_override = Some(2);
        spec.info_index_override = Some(vec![0, 2]);
        let v = decode(&spec.encode()).unwrap();
        assert_eq!(v.limbs.len(), 2);
        assert_eq!(v.tailer_count, 3);
        assert_eq!(v.limbs[1].size, [3, 1, 1]);
        assert_eq!(v.limbs[1].voxels[0].colour, 3);
    }
}
