//! A small VXL/HVA writer.
//!
//! It exists so tests (here, in `modex-voxel`, in the fuzz seeds and in the benches) can build
//! tiny models in code, including deliberately broken ones, instead of shipping binary fixtures,
//! and so the demo can ship units it generated itself. It writes the layout [`crate::vxl`] and
//! [`crate::hva`] read, with hooks to corrupt single fields.

use crate::hva::IDENTITY;

/// A voxel to write: (x, y, z, colour, normal index).
pub type VoxelSpec = (u8, u8, u8, u8, u8);

/// One layer to write.
#[derive(Debug, Clone, PartialEq)]
pub struct LimbSpec {
    /// The layer name (up to 15 bytes are stored).
    pub name: String,
    /// X, Y, Z size in voxels.
    pub size: [u8; 3],
    /// The filled cells.
    pub voxels: Vec<VoxelSpec>,
    /// The "HVA multiplier" stored in the info record.
    pub scale: f32,
    /// Bounding box corner with the smallest coordinates, in model units.
    pub min: [f32; 3],
    /// Bounding box corner with the largest coordinates, in model units.
    pub max: [f32; 3],
    /// Normal table selector (0 = unlit, 1..=4).
    pub normals_mode: u8,
}

impl LimbSpec {
    /// An empty layer of `size`, centred on the origin in X and Y, standing on Z = 0, one model unit
    /// per voxel, scale 1/12, normals mode 2.
    pub fn empty(size: [u8; 3]) -> LimbSpec {
        let s = size.map(|v| v as f32);
        LimbSpec {
            name: "limb".into(),
            size,
            voxels: Vec::new(),
            scale: 1.0 / 12.0,
            min: [-s[0] / 2.0, -s[1] / 2.0, 0.0],
            max: [s[0] / 2.0, s[1] / 2.0, s[2]],
            normals_mode: 2,
        }
    }

    /// A layer of `size` completely filled with `colour` and `normal`.
    pub fn filled_box(size: [u8; 3], colour: u8, normal: u8) -> LimbSpec {
        let mut l = LimbSpec::empty(size);
        for x in 0..size[0] {
            for y in 0..size[1] {
                for z in 0..size[2] {
                    l.voxels.push((x, y, z, colour, normal));
                }
            }
        }
        l
    }
}

/// A VXL file to write.
#[derive(Debug, Clone, PartialEq)]
pub struct VxlSpec {
    /// Number of (dummy) palettes written after the header.
    pub palette_count: u32,
    /// The layers; one info record is written per entry.
    pub limbs: Vec<LimbSpec>,
    /// Write this many layer headers (and put it in the header) instead of `limbs.len()`.
    pub layer_count_override: Option<u32>,
    /// Info record index stored in each layer header instead of `i`.
    pub info_index_override: Option<Vec<u32>>,
    /// Replace the RLE bytes of column 0 of layer 0.
    pub raw_column_override: Option<Vec<u8>>,
    /// Replace layer 0's span start table.
    pub span_start_override: Option<Vec<i32>>,
}

impl Default for VxlSpec {
    fn default() -> Self {
        VxlSpec {
            palette_count: 1,
            limbs: Vec::new(),
            layer_count_override: None,
            info_index_override: None,
            raw_column_override: None,
            span_start_override: None,
        }
    }
}

impl VxlSpec {
    /// A one-layer model.
    pub fn single(limb: LimbSpec) -> VxlSpec {
        VxlSpec {
            limbs: vec![limb],
            ..VxlSpec::default()
        }
    }

    fn layer_count(&self) -> usize {
        self.layer_count_override
            .map(|n| n as usize)
            .unwrap_or(self.limbs.len())
    }

    /// The exact size [`VxlSpec::encode`] produces when no override changes the body.
    pub fn encoded_len(&self) -> usize {
        let body: usize = self.limbs.iter().map(|l| limb_body(l).len()).sum();
        32 + 770 * self.palette_count as usize
            + 28 * self.layer_count()
            + body
            + 92 * self.limbs.len()
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut offsets = Vec::new(); // (span_start, span_end, span_data) per limb
        let mut body = Vec::new();
        for (i, l) in self.limbs.iter().enumerate() {
            let base = body.len() as u32;
            let columns = l.size[0] as usize * l.size[1] as usize;
            let mut starts = vec![-1i32; columns];
            let mut ends = vec![-1i32; columns];
            let mut data = Vec::new();
            for c in 0..columns {
                let (x, y) = (
                    (c % l.size[0] as usize) as u8,
                    (c / l.size[0] as usize) as u8,
                );
                let col = if i == 0 && c == 0 && self.raw_column_override.is_some() {
                    self.raw_column_override.clone().unwrap()
                } else {
                    encode_column(l, x, y)
                };
                if col.is_empty() {
                    continue;
                }
                starts[c] = data.len() as i32;
                data.extend_from_slice(&col);
                ends[c] = data.len() as i32 - 1;
            }
            if i == 0 {
                if let Some(s) = &self.span_start_override {
                    starts = s.clone();
                }
            }
            let span_start = base;
            let span_end = base + 4 * starts.len() as u32;
            let span_data = span_end + 4 * ends.len() as u32;
            for v in starts.iter().chain(&ends) {
                body.extend_from_slice(&v.to_le_bytes());
            }
            body.extend_from_slice(&data);
            offsets.push((span_start, span_end, span_data));
        }

        let mut out = Vec::new();
        out.extend_from_slice(crate::vxl::MAGIC);
        for v in [
            self.palette_count,
            self.layer_count() as u32,
            self.limbs.len() as u32,
            body.len() as u32,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for p in 0..self.palette_count {
            out.extend_from_slice(&[16, 31]);
            // A recognisable grey ramp, shifted per palette.
            for c in 0..256u32 {
                let g = (c + p) as u8;
                out.extend_from_slice(&[g, g, g]);
            }
        }
        for i in 0..self.layer_count() {
            let mut name = [0u8; 16];
            let n = self
                .limbs
                .get(i)
                .map(|l| l.name.as_bytes())
                .unwrap_or(b"extra");
            name[..n.len().min(15)].copy_from_slice(&n[..n.len().min(15)]);
            out.extend_from_slice(&name);
            let info = self
                .info_index_override
                .as_ref()
                .and_then(|v| v.get(i).copied())
                .unwrap_or(i as u32);
            out.extend_from_slice(&info.to_le_bytes());
            out.extend_from_slice(&1u32.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes());
        }
        out.extend_from_slice(&body);
        for (l, (s, e, d)) in self.limbs.iter().zip(offsets) {
            for v in [s, e, d] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&l.scale.to_le_bytes());
            for v in IDENTITY {
                out.extend_from_slice(&v.to_le_bytes());
            }
            for v in l.min.iter().chain(&l.max) {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&l.size);
            out.push(l.normals_mode);
        }
        out
    }
}

/// A pure translation as a row-major 3x4 transform.
pub fn translation(t: [f32; 3]) -> [f32; 12] {
    let mut m = IDENTITY;
    m[3] = t[0];
    m[7] = t[1];
    m[11] = t[2];
    m
}

fn limb_body(l: &LimbSpec) -> Vec<u8> {
    let columns = l.size[0] as usize * l.size[1] as usize;
    let data: usize = (0..columns)
        .map(|c| {
            encode_column(
                l,
                (c % l.size[0] as usize) as u8,
                (c / l.size[0] as usize) as u8,
            )
            .len()
        })
        .sum();
    vec![0; 8 * columns + data]
}

/// RLE-encode one column: runs of (skip, count, pairs, count) until z reaches the top. Empty
/// columns encode to nothing (span -1).
fn encode_column(l: &LimbSpec, x: u8, y: u8) -> Vec<u8> {
    let mut col: Vec<(u8, u8, u8)> = l
        .voxels
        .iter()
        .filter(|v| v.0 == x && v.1 == y)
        .map(|v| (v.2, v.3, v.4))
        .collect();
    if col.is_empty() {
        return Vec::new();
    }
    col.sort();
    col.dedup_by_key(|v| v.0);
    let zs = l.size[2] as usize;
    let mut out = Vec::new();
    let mut z = 0usize;
    let mut i = 0;
    while i < col.len() {
        let skip = col[i].0 as usize - z;
        let mut j = i;
        while j + 1 < col.len() && col[j + 1].0 == col[j].0 + 1 && j + 1 - i < 255 {
            j += 1;
        }
        let count = j - i + 1;
        // Skips above 255 are split into empty runs.
        let mut skip_left = skip;
        while skip_left > 255 {
            out.extend_from_slice(&[255, 0, 0]);
            skip_left -= 255;
        }
        out.push(skip_left as u8);
        out.push(count as u8);
        for v in &col[i..=j] {
            out.push(v.1);
            out.push(v.2);
        }
        out.push(count as u8);
        z = col[j].0 as usize + 1;
        i = j + 1;
    }
    if z < zs {
        out.extend_from_slice(&[(zs - z) as u8, 0, 0]);
    }
    out
}

/// An HVA file to write.
#[derive(Debug, Clone, PartialEq)]
pub struct HvaSpec {
    /// The 16-byte name field (real files hold junk here).
    pub name: [u8; 16],
    /// The 16-byte name of each section.
    pub section_names: Vec<[u8; 16]>,
    /// `frames[f][s]`: transform of section `s` in frame `f`.
    pub frames: Vec<Vec<[f32; 12]>>,
    /// Store this frame count in the header instead of `frames.len()`.
    pub frame_count_override: Option<u32>,
}

impl HvaSpec {
    /// `frame_count` frames of `sections` identity transforms.
    pub fn identity(sections: usize, frame_count: usize) -> HvaSpec {
        HvaSpec {
            name: *b"test\0\0\0\0\0\0\0\0\0\0\0\0",
            section_names: (0..sections)
                .map(|i| {
                    let mut n = [0u8; 16];
                    let s = format!("section{i}");
                    n[..s.len()].copy_from_slice(s.as_bytes());
                    n
                })
                .collect(),
            frames: vec![vec![IDENTITY; sections]; frame_count],
            frame_count_override: None,
        }
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.name);
        let fc = self
            .frame_count_override
            .unwrap_or(self.frames.len() as u32);
        out.extend_from_slice(&fc.to_le_bytes());
        out.extend_from_slice(&(self.section_names.len() as u32).to_le_bytes());
        for n in &self.section_names {
            out.extend_from_slice(n);
        }
        for f in &self.frames {
            for m in f {
                for v in m {
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
        }
        out
    }
}
