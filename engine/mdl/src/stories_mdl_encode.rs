//! A writer for GTA Stories PS2 `.mdl` files, so the project can make the files its decoder is
//! tested against (no sample file is public): round-trip tests, property tests, fuzz seeds and the
//! CLI checks all use it.
//!
//! It writes the layout [`crate::stories_mdl`] reads, as librwgta's reader expects it: the chunk
//! header; the clump right after it with its atomics on a ring list; per atomic a geometry object,
//! the PS2 geometry (header, mesh table, one DMA packet per mesh), its material list, names, MatFX
//! and skin; and last the relocation table listing every non-NULL pointer field. Each mesh's strip
//! is cut into VIF batches of at most `batch_vertices` vertices, each batch after the first
//! repeating the previous batch's last 2 vertices, with the item order librwgta asserts
//! (`6C018000` header, STMASK + STROW + `79` positions, STMASK + STROW + `76` UVs, `6F` pre-light,
//! `6A` normals, `6C` weights, `MSCAL`).
//!
//! Values are quantised as the decoder reads them back: positions to s16 over the atomic's
//! `scale`/`pos` ([`AtomicSpec::fit`] chooses them from the positions), UVs to u8 over the mesh's
//! `uv_scale` (0..=2 × scale; negative UVs clamp to 0), normals to s8 / 128, pre-light to RGB555 +
//! alpha bit (alpha ≥ 128 sets it), weights to their `f32` bits with the low byte replaced by the
//! bone (bits 2..7). So `decode(encode(x))` equals `x` up to that quantisation, and re-encoding a
//! decoded file gives the same bytes.

use glam::{Vec2, Vec3};

use crate::stories_mdl::container::HEADER_SIZE;
use crate::stories_mdl::{
    BoneWeight, Material, SkinInfo, StoriesModel, Vertex, FLAG_NORMALS, FLAG_POSITIONS,
    FLAG_PRELIGHT, FLAG_SKIN, FLAG_UVS, MAGIC,
};

/// Vertices per VIF batch the writer uses by default (real files hold a few dozen).
pub const DEFAULT_BATCH_VERTICES: usize = 64;
/// A batch's UNPACK holds at most 256 elements.
pub const MAX_BATCH_VERTICES: usize = 256;
/// The PS2 geometry's size field has 20 bits of bytes.
pub const MAX_GEOMETRY_BYTES: usize = 0xF_FFFF;
/// ... and 12 bits of mesh count.
pub const MAX_MESHES: usize = 0xFFF;

/// What the writer refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// One atomic's PS2 geometry does not fit the 20-bit size field.
    #[error(
        "atomic {atomic}: PS2 geometry of {bytes} bytes exceeds the format's {MAX_GEOMETRY_BYTES}"
    )]
    GeometryTooLarge {
        /// The atomic.
        atomic: usize,
        /// Bytes it would take.
        bytes: usize,
    },
    /// One atomic has more meshes than the 12-bit count holds.
    #[error("atomic {atomic}: {meshes} meshes exceed the format's {MAX_MESHES}")]
    TooManyMeshes {
        /// The atomic.
        atomic: usize,
        /// Its meshes.
        meshes: usize,
    },
    /// A mesh names a material the atomic does not have.
    #[error("atomic {atomic} mesh {mesh}: material {material} of {materials}")]
    Material {
        /// The atomic.
        atomic: usize,
        /// The mesh.
        mesh: usize,
        /// The material it names.
        material: usize,
        /// The atomic's materials.
        materials: usize,
    },
    /// The batch size is outside 3..=256 (each batch must add a vertex beyond the 2 it repeats).
    #[error("batch size {0} is outside 3..=256")]
    BatchSize(usize),
}

/// One strip of one material.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshSpec {
    /// Index into the atomic's materials.
    pub material: usize,
    /// `uv = u8 / 127.5 * uv_scale` ([`MeshSpec::fit_uv_scale`] chooses it from the UVs).
    pub uv_scale: [f32; 2],
    /// The triangle strip's vertices (triangle `i` is `i, i+1, i+2`, odd ones swapped).
    pub strip: Vec<Vertex>,
}

impl MeshSpec {
    /// A mesh whose UV scale covers its UVs.
    pub fn new(material: usize, strip: Vec<Vertex>) -> MeshSpec {
        let mut m = MeshSpec {
            material,
            uv_scale: [1.0, 1.0],
            strip,
        };
        m.fit_uv_scale();
        m
    }

    /// Set `uv_scale` to half the largest UV per axis (u8 255 reads back as 2 × scale).
    pub fn fit_uv_scale(&mut self) {
        let max = self
            .strip
            .iter()
            .fold(Vec2::ZERO, |m, v| m.max(v.uv.max(Vec2::ZERO)));
        self.uv_scale = [max.x / 2.0, max.y / 2.0].map(|s| if s > 0.0 { s } else { 1.0 });
    }
}

/// One atomic: a geometry with its materials and meshes.
#[derive(Debug, Clone, PartialEq)]
pub struct AtomicSpec {
    /// `modelInfoId`.
    pub model_info_id: i16,
    /// `visIdFlag`.
    pub visibility_flags: u16,
    /// Position scale (`position = s16 / 32767.5 * scale + pos`).
    pub scale: Vec3,
    /// Position offset.
    pub pos: Vec3,
    /// The materials.
    pub materials: Vec<Material>,
    /// The meshes.
    pub meshes: Vec<MeshSpec>,
    /// A skin (the batches then carry weights).
    pub skin: Option<SkinInfo>,
}

impl AtomicSpec {
    /// An atomic whose `scale`/`pos` cover its meshes' positions.
    pub fn new(materials: Vec<Material>, meshes: Vec<MeshSpec>) -> AtomicSpec {
        let mut a = AtomicSpec {
            model_info_id: 0,
            visibility_flags: 0,
            scale: Vec3::ONE,
            pos: Vec3::ZERO,
            materials,
            meshes,
            skin: None,
        };
        a.fit();
        a
    }

    /// Set `pos` to the centre of the positions' box and `scale` to its half extent, so s16
    /// ±32767 spans the box.
    pub fn fit(&mut self) {
        let all: Vec<Vec3> = self
            .meshes
            .iter()
            .flat_map(|m| m.strip.iter().map(|v| v.position))
            .collect();
        if all.is_empty() {
            return;
        }
        let (lo, hi) = crate::model::Frame::compute_bbox(&all);
        self.pos = (lo + hi) / 2.0;
        let half = (hi - lo) / 2.0 * (32767.5 / 32767.0);
        self.scale = Vec3::select(half.cmpgt(Vec3::ZERO), half, Vec3::ONE);
    }

    /// The geometry flags the writer stores: positions and UVs always; normals, pre-light and
    /// weights when the first vertex of the first mesh has them (missing values in other vertices
    /// are written as zero normals, white opaque pre-light and zero weights).
    pub fn flags(&self) -> u32 {
        let first = self.meshes.iter().find_map(|m| m.strip.first());
        let mut f = FLAG_POSITIONS | FLAG_UVS;
        if let Some(v) = first {
            if v.normal.is_some() {
                f |= FLAG_NORMALS;
            }
            if v.prelight.is_some() {
                f |= FLAG_PRELIGHT;
            }
        }
        if self.skin.is_some() {
            f |= FLAG_SKIN;
        }
        f
    }
}

/// A whole file: the clump's atomics.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StoriesSpec {
    /// The atomics, in ring-list order.
    pub atomics: Vec<AtomicSpec>,
}

impl StoriesSpec {
    /// The spec that writes `model` again: its atomics, materials, skins, scales and strips.
    pub fn from_model(model: &StoriesModel) -> StoriesSpec {
        StoriesSpec {
            atomics: model
                .atomics
                .iter()
                .map(|a| {
                    let g = &a.geometry;
                    AtomicSpec {
                        model_info_id: a.model_info_id,
                        visibility_flags: a.visibility_flags,
                        scale: g.scale,
                        pos: g.pos,
                        materials: g.materials.clone(),
                        meshes: g
                            .meshes
                            .iter()
                            .map(|m| MeshSpec {
                                material: m.material,
                                uv_scale: m.uv_scale,
                                strip: m.vertices.clone(),
                            })
                            .collect(),
                        skin: g.skin.clone(),
                    }
                })
                .collect(),
        }
    }
}

/// How the writer lays out the VIF stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Vertices per batch at most (3..=256).
    pub batch_vertices: usize,
    /// Also write what real files may hold and readers must step over: runs of VIF NOPs between
    /// items, a `STCYCL`, and Manhunt 2's `6E` block after the normals.
    pub extra_items: bool,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            batch_vertices: DEFAULT_BATCH_VERTICES,
            extra_items: false,
        }
    }
}

/// Write `spec` with batches of [`DEFAULT_BATCH_VERTICES`].
pub fn encode(spec: &StoriesSpec) -> Result<Vec<u8>, EncodeError> {
    encode_with(spec, EncodeOptions::default())
}

/// Write `spec` laid out as `options` say.
pub fn encode_with(spec: &StoriesSpec, options: EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    let batch_vertices = options.batch_vertices;
    if !(3..=MAX_BATCH_VERTICES).contains(&batch_vertices) {
        return Err(EncodeError::BatchSize(batch_vertices));
    }
    let mut w = Image::default();
    w.alloc(HEADER_SIZE, 16);
    let clump = w.alloc(0x10, 16);
    w.data[clump] = 2;
    let head = clump + 8;
    let atomics: Vec<usize> = spec.atomics.iter().map(|_| w.alloc(0x30, 16)).collect();
    let links: Vec<usize> = atomics.iter().map(|a| a + 0x1C).collect();
    let ring = |i: isize| -> usize {
        if i < 0 || i as usize >= links.len() {
            head
        } else {
            links[i as usize]
        }
    };
    w.set_ptr(head, ring(0));
    w.set_ptr(head + 4, ring(links.len() as isize - 1));
    for (i, (a, &at)) in spec.atomics.iter().zip(&atomics).enumerate() {
        w.data[at] = 1;
        w.data[at + 2] = 5; // flags, as RslElementCreate sets them
        w.set_ptr(at + 0x18, clump);
        w.set_ptr(at + 0x1C, ring(i as isize + 1));
        w.set_ptr(at + 0x20, ring(i as isize - 1));
        w.set_u16(at + 0x28, a.model_info_id as u16);
        w.set_u16(at + 0x2A, a.visibility_flags);
        let geometry = write_geometry(&mut w, a, i, options)?;
        w.set_ptr(at + 0x14, geometry);
    }
    let table = w.alloc(0, 16);
    let mut relocs = std::mem::take(&mut w.relocs);
    relocs.sort_unstable();
    for r in &relocs {
        w.data.extend_from_slice(&r.to_le_bytes());
    }
    let file_size = w.data.len() as u32;
    w.data[0..4].copy_from_slice(&MAGIC);
    w.set_u32(4, 1); // shrink
    w.set_u32(8, file_size);
    w.set_u32(12, table as u32);
    w.set_u32(16, table as u32);
    w.set_u32(20, relocs.len() as u32);
    Ok(w.data)
}

/// The file being built, with the offsets of every pointer field written.
#[derive(Default)]
struct Image {
    data: Vec<u8>,
    relocs: Vec<u32>,
}

impl Image {
    /// Append `size` zero bytes at an `align`-aligned offset; returns the offset.
    fn alloc(&mut self, size: usize, align: usize) -> usize {
        let at = self.data.len().next_multiple_of(align);
        self.data.resize(at + size, 0);
        at
    }

    fn append(&mut self, bytes: &[u8], align: usize) -> usize {
        let at = self.alloc(0, align);
        self.data.extend_from_slice(bytes);
        at
    }

    fn set_u16(&mut self, at: usize, v: u16) {
        self.data[at..at + 2].copy_from_slice(&v.to_le_bytes());
    }

    fn set_u32(&mut self, at: usize, v: u32) {
        self.data[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// A pointer field: the target's file offset, listed in the relocation table.
    fn set_ptr(&mut self, at: usize, target: usize) {
        self.set_u32(at, target as u32);
        self.relocs.push(at as u32);
    }
}

fn write_geometry(
    w: &mut Image,
    a: &AtomicSpec,
    atomic: usize,
    options: EncodeOptions,
) -> Result<usize, EncodeError> {
    let n = a.meshes.len();
    if n > MAX_MESHES {
        return Err(EncodeError::TooManyMeshes { atomic, meshes: n });
    }
    let flags = a.flags();
    let mut dma = Vec::new();
    let mut packets = Vec::with_capacity(n);
    for (m, mesh) in a.meshes.iter().enumerate() {
        if mesh.material >= a.materials.len() {
            return Err(EncodeError::Material {
                atomic,
                mesh: m,
                material: mesh.material,
                materials: a.materials.len(),
            });
        }
        packets.push(dma.len());
        dma.extend(mesh_packet(a, mesh, flags, options));
    }
    let bytes = 0x40 + n * 0x30 + dma.len();
    if bytes > MAX_GEOMETRY_BYTES {
        return Err(EncodeError::GeometryTooLarge { atomic, bytes });
    }
    let g = w.alloc(0x20 + bytes, 16);
    w.data[g] = 8; // object type of a geometry (RslGeometryCreate)
    w.set_u16(g + 8, 1); // refCount
    w.set_u32(g + 0x1C, 0xAAAA_AAAA);
    let p = g + 0x20;
    let bound_centre = a.pos;
    let bound_radius = a.scale.length();
    for (i, v) in [bound_centre.x, bound_centre.y, bound_centre.z, bound_radius]
        .into_iter()
        .enumerate()
    {
        w.set_u32(p + 4 * i, v.to_bits());
    }
    w.set_u32(p + 0x10, ((n as u32) << 20) | bytes as u32);
    w.set_u32(p + 0x14, flags);
    let total: usize = a.meshes.iter().map(|m| m.strip.len()).sum();
    w.set_u16(p + 0x18, total.min(u16::MAX as usize) as u16);
    for (i, v) in a
        .scale
        .to_array()
        .into_iter()
        .chain(a.pos.to_array())
        .enumerate()
    {
        w.set_u32(p + 0x28 + 4 * i, v.to_bits());
    }
    for (m, mesh) in a.meshes.iter().enumerate() {
        let e = p + 0x40 + m * 0x30;
        // Bounds of the positions as they will read back, so a decoded file writes the same bytes.
        let stored: Vec<Vec3> = mesh
            .strip
            .iter()
            .map(|v| {
                let q = quantise_position(v.position, a.scale, a.pos);
                Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32) / 32767.5 * a.scale + a.pos
            })
            .collect();
        let (lo, hi) = crate::model::Frame::compute_bbox(&stored);
        let centre = (lo + hi) / 2.0;
        for (i, v) in [centre.x, centre.y, centre.z, (hi - lo).length() / 2.0]
            .into_iter()
            .enumerate()
        {
            w.set_u32(e + 4 * i, v.to_bits());
        }
        w.set_u32(e + 0x10, mesh.uv_scale[0].to_bits());
        w.set_u32(e + 0x14, mesh.uv_scale[1].to_bits());
        w.set_u32(e + 0x1C, packets[m] as u32);
        w.set_u16(
            e + 0x20,
            mesh.strip.len().saturating_sub(2).min(u16::MAX as usize) as u16,
        );
        w.set_u16(e + 0x22, mesh.material as u16);
        for (i, v) in lo.to_array().into_iter().chain(hi.to_array()).enumerate() {
            w.set_u16(e + 0x24 + 2 * i, f16_bits(v));
        }
    }
    let dma_at = p + 0x40 + n * 0x30;
    w.data[dma_at..dma_at + dma.len()].copy_from_slice(&dma);
    // Material list.
    if !a.materials.is_empty() {
        let list = w.alloc(4 * a.materials.len(), 4);
        w.set_ptr(g + 0x0C, list);
        for (i, m) in a.materials.iter().enumerate() {
            let at = write_material(w, m);
            w.set_ptr(list + 4 * i, at);
        }
    }
    w.set_u32(g + 0x10, a.materials.len() as u32);
    w.set_u32(g + 0x14, a.materials.len() as u32);
    if let Some(skin) = &a.skin {
        let s = w.alloc(0x34, 16);
        w.set_u32(s, skin.bones);
        w.set_u32(s + 4, skin.bones);
        if !skin.inverse_matrices.is_empty() {
            let bytes: Vec<u8> = skin
                .inverse_matrices
                .iter()
                .flatten()
                .flat_map(|f| f.to_le_bytes())
                .collect();
            let m = w.append(&bytes, 16);
            w.set_ptr(s + 0x0C, m);
        }
        w.set_ptr(g + 0x18, s);
    }
    Ok(g)
}

fn write_material(w: &mut Image, m: &Material) -> usize {
    let at = w.alloc(0x10, 4);
    w.data[at + 4..at + 8].copy_from_slice(&m.colour);
    w.set_u32(at + 8, 1); // refCount
    if let Some(name) = &m.texture {
        let mut bytes = name.as_bytes().to_vec();
        bytes.retain(|&b| b != 0);
        bytes.push(0);
        let s = w.append(&bytes, 1);
        w.set_ptr(at, s);
    }
    if let Some(effect) = m.matfx {
        let fx = w.alloc(0x10, 4);
        w.set_u32(fx + 0x0C, effect as u32);
        w.set_ptr(at + 0x0C, fx);
    }
    at
}

/// IEEE half-float bits of `v` (truncated mantissa; the bounds are informative only).
fn f16_bits(v: f32) -> u16 {
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xFF) as i32 - 127 + 15;
    if !v.is_finite() || exp >= 31 {
        return sign | 0x7C00;
    }
    if exp <= 0 {
        return sign;
    }
    sign | (exp as u16) << 10 | ((b >> 13) & 0x3FF) as u16
}

/// The DMA packet of one mesh: a DMA tag qword (QWC in the low 16 bits), then the VIF batches
/// padded to whole qwords.
fn mesh_packet(a: &AtomicSpec, mesh: &MeshSpec, flags: u32, options: EncodeOptions) -> Vec<u8> {
    let batch = options.batch_vertices;
    let mut vif: Vec<u32> = Vec::new();
    let n = mesh.strip.len();
    let mut start = 0;
    while start < n {
        let end = (start + batch).min(n);
        write_batch(
            &mut vif,
            a,
            mesh,
            &mesh.strip[start..end],
            flags,
            options.extra_items,
        );
        if end == n {
            break;
        }
        start = end - 2;
    }
    while vif.len() % 4 != 0 {
        vif.push(0);
    }
    let qwc = vif.len() / 4;
    let mut out = Vec::with_capacity(16 + vif.len() * 4);
    // DMA tag: QWC, id "end" (0x7) with nothing else, padding words 0.
    out.extend_from_slice(&((qwc as u32) | 0x7000_0000).to_le_bytes());
    out.extend_from_slice(&[0; 12]);
    for word in vif {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out
}

fn unpack(vif: &mut Vec<u32>, cmd: u8, unsigned: bool, num: usize, bytes: &[u8]) {
    let usn = if unsigned { 0x4000 } else { 0 };
    vif.push((cmd as u32) << 24 | ((num as u32 & 0xFF) << 16) | usn);
    for chunk in bytes.chunks(4) {
        let mut b = [0u8; 4];
        b[..chunk.len()].copy_from_slice(chunk);
        vif.push(u32::from_le_bytes(b));
    }
}

fn write_batch(
    vif: &mut Vec<u32>,
    a: &AtomicSpec,
    mesh: &MeshSpec,
    verts: &[Vertex],
    flags: u32,
    extra: bool,
) {
    let n = verts.len();
    vif.extend([0x6C01_8000, 0, 0, n as u32, n as u32 | 0x8000]);
    if extra {
        // NOPs, then STCYCL 4/4.
        vif.extend([0, 0, 0, 0x0100_0404]);
    }
    vif.extend([0x2000_0000, 0x4040_4040, 0x3000_0000, 0, 0, 0, 0]);
    let pos: Vec<u8> = verts
        .iter()
        .flat_map(|v| quantise_position(v.position, a.scale, a.pos))
        .flat_map(i16::to_le_bytes)
        .collect();
    unpack(vif, 0x79, false, n, &pos);
    vif.extend([0x2000_0000, 0x5050_5050, 0x3000_0000, 0, 0, 0, 0]);
    let uvs: Vec<u8> = verts
        .iter()
        .flat_map(|v| quantise_uv(v.uv, mesh.uv_scale))
        .collect();
    unpack(vif, 0x76, true, n, &uvs);
    if flags & FLAG_PRELIGHT != 0 {
        let c: Vec<u8> = verts
            .iter()
            .flat_map(|v| encode_prelight(v.prelight.unwrap_or([255; 4])).to_le_bytes())
            .collect();
        unpack(vif, 0x6F, false, n, &c);
    }
    if flags & FLAG_NORMALS != 0 {
        let nb: Vec<u8> = verts
            .iter()
            .flat_map(|v| quantise_normal(v.normal.unwrap_or(Vec3::ZERO)))
            .map(|b| b as u8)
            .collect();
        unpack(vif, 0x6A, false, n, &nb);
    }
    if extra {
        vif.extend([0, 0]);
        let mh2: Vec<u8> = (0..4 * n).map(|i| i as u8).collect();
        unpack(vif, 0x6E, false, n, &mh2);
    }
    if a.skin.is_some() {
        let zero = [BoneWeight {
            bone: 0,
            weight: 0.0,
        }; 4];
        let wb: Vec<u8> = verts
            .iter()
            .flat_map(|v| v.weights.unwrap_or(zero))
            .flat_map(|w| encode_weight(w).to_le_bytes())
            .collect();
        unpack(vif, 0x6C, false, n, &wb);
    }
    vif.push(0x1400_0006);
}

/// Position to s16 over `scale`/`pos` (rounded, clamped).
pub fn quantise_position(p: Vec3, scale: Vec3, pos: Vec3) -> [i16; 3] {
    let q = |v: f32, s: f32, o: f32| {
        if s == 0.0 {
            0
        } else {
            ((v - o) / s * 32767.5).round().clamp(-32768.0, 32767.0) as i16
        }
    };
    [
        q(p.x, scale.x, pos.x),
        q(p.y, scale.y, pos.y),
        q(p.z, scale.z, pos.z),
    ]
}

/// UV to u8 over `uv_scale` (rounded, clamped to 0..=255).
pub fn quantise_uv(uv: Vec2, uv_scale: [f32; 2]) -> [u8; 2] {
    let q = |v: f32, s: f32| {
        if s == 0.0 {
            0
        } else {
            (v / s * 127.5).round().clamp(0.0, 255.0) as u8
        }
    };
    [q(uv.x, uv_scale[0]), q(uv.y, uv_scale[1])]
}

/// Normal to s8 / 128 (rounded, clamped).
pub fn quantise_normal(n: Vec3) -> [i8; 3] {
    n.to_array()
        .map(|c| (c * 128.0).round().clamp(-128.0, 127.0) as i8)
}

/// RGBA8 to RGB555 + alpha bit (the nearest 5-bit level; alpha ≥ 128 sets bit 15).
pub fn encode_prelight(c: [u8; 4]) -> u16 {
    let five = |v: u8| ((v as u32 * 31 + 127) / 255) as u16;
    five(c[0]) | five(c[1]) << 5 | five(c[2]) << 10 | if c[3] >= 128 { 0x8000 } else { 0 }
}

/// A bone weight as its skin word: the weight's `f32` bits with the low byte holding the bone in
/// bits 2..7.
pub fn encode_weight(w: BoneWeight) -> u32 {
    (w.weight.to_bits() & !0xFF) | ((w.bone as u32 & 0x3F) << 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stories_mdl::vif::{decode_prelight, decode_weight};

    #[test]
    fn every_prelight_level_survives_a_round_trip() {
        for c in 0..=0xFFFFu16 {
            assert_eq!(encode_prelight(decode_prelight(c)), c);
        }
    }

    #[test]
    fn weights_round_trip() {
        for bone in 0..64u8 {
            let w = BoneWeight {
                bone,
                weight: 0.375,
            };
            assert_eq!(decode_weight(encode_weight(w)), w);
        }
    }

    #[test]
    fn half_floats() {
        assert_eq!(f16_bits(1.0), 0x3C00);
        assert_eq!(f16_bits(-2.0), 0xC000);
        assert_eq!(f16_bits(0.0), 0);
    }
}
