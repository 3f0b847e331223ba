//! An MDL7 writer that follows the layout measured on real files, for tests: the decoder's
//! property tests (what is written is read, for every record-size variant seen in real files) and
//! the rasterizer's golden renders of a skinned two-bone model share it. Front faces are written
//! clockwise, as GameStudio stores them.

use glam::{Mat4, Vec3};

/// What the writer writes.
#[derive(Debug, Clone)]
pub struct Spec {
    /// (bone, triangle, vertex) record sizes.
    pub sizes: (u16, u16, u16),
    /// (parent, rest position); 0xFFFF for a root.
    pub bones: Vec<(u16, [f32; 3])>,
    /// The groups.
    pub groups: Vec<GroupSpec>,
}

/// (name, sparse (index, position), bone matrices (bone, matrix))
pub type FrameSpec = (String, Vec<(u16, [f32; 3])>, Vec<(u16, Mat4)>);

/// One group to write.
#[derive(Debug, Clone)]
pub struct GroupSpec {
    /// 2x2 RGB565 skins.
    pub skins: usize,
    /// UVs.
    pub uvs: Vec<[f32; 2]>,
    /// (vertex indices, uv indices, skin)
    pub tris: Vec<([u16; 3], [u16; 3], i32)>,
    /// (position, bone)
    pub verts: Vec<([f32; 3], u16)>,
    /// Frames.
    pub frames: Vec<FrameSpec>,
    /// (bone, [(vertex, weight)])
    pub weights: Vec<(i32, Vec<(i32, f32)>)>,
}

fn put_vertex(out: &mut Vec<u8>, size: u16, p: [f32; 3], word: u16) {
    for v in p {
        out.extend(v.to_le_bytes());
    }
    out.extend(word.to_le_bytes());
    if size == 26 {
        for v in [0.0f32, 0.0, 1.0] {
            out.extend(v.to_le_bytes());
        }
    } else {
        out.extend([0u8, 0]);
    }
}

/// The MDL7 file's bytes.
pub fn write(spec: &Spec) -> Vec<u8> {
    let (bs, ts, vs) = spec.sizes;
    let mut out = Vec::new();
    out.extend(b"MDL7");
    out.extend(0i32.to_le_bytes());
    out.extend((spec.bones.len() as u32).to_le_bytes());
    out.extend((spec.groups.len() as u32).to_le_bytes());
    out.extend(0u32.to_le_bytes()); // data size, patched below
    out.extend(0i32.to_le_bytes());
    out.extend(0i32.to_le_bytes());
    for s in [bs, 28, 16, 68, 8, ts, vs, vs, 68, 24] {
        out.extend(s.to_le_bytes());
    }
    for (parent, p) in &spec.bones {
        out.extend(parent.to_le_bytes());
        out.extend([0u8, 0]);
        for v in p {
            out.extend(v.to_le_bytes());
        }
        if bs == 36 {
            out.extend([b'b'; 20]);
        }
    }
    for g in &spec.groups {
        out.push(1);
        out.push(if g.weights.is_empty() { 0 } else { 1 });
        out.push(4);
        out.push(0);
        // A wrong groupdata_size, as real files have: the reader must not use it.
        out.extend(12345i32.to_le_bytes());
        out.extend([0u8; 16]);
        for n in [
            g.skins,
            g.uvs.len(),
            g.tris.len(),
            g.verts.len(),
            g.frames.len(),
        ] {
            out.extend((n as i32).to_le_bytes());
        }
        for k in 0..g.skins {
            out.extend([2u8, 0, 0, 0]);
            out.extend(2i32.to_le_bytes());
            out.extend(2i32.to_le_bytes());
            out.extend([0u8; 16]);
            let c: u16 = if k == 0 { 0xF800 } else { 0x07E0 };
            for _ in 0..4 {
                out.extend(c.to_le_bytes());
            }
        }
        for uv in &g.uvs {
            out.extend(uv[0].to_le_bytes());
            out.extend(uv[1].to_le_bytes());
        }
        for (v, st, mat) in &g.tris {
            for i in v.iter().chain(st) {
                out.extend(i.to_le_bytes());
            }
            if ts >= 16 {
                out.extend(mat.to_le_bytes());
            }
            if ts == 26 {
                out.extend([0xFFu8; 6]);
                out.extend((-1i32).to_le_bytes());
            }
        }
        for (p, bone) in &g.verts {
            put_vertex(&mut out, vs, *p, *bone);
        }
        for (name, fv, bt) in &g.frames {
            let mut n = [0u8; 16];
            n[..name.len()].copy_from_slice(name.as_bytes());
            out.extend(n);
            out.extend((fv.len() as u32).to_le_bytes());
            out.extend((bt.len() as u32).to_le_bytes());
            for (i, p) in fv {
                put_vertex(&mut out, vs, *p, *i);
            }
            for (bone, m) in bt {
                for v in m.to_cols_array() {
                    out.extend(v.to_le_bytes());
                }
                out.extend(bone.to_le_bytes());
                out.extend([0u8, 0]);
            }
        }
    }
    for (gi, g) in spec.groups.iter().enumerate() {
        if g.weights.is_empty() {
            continue;
        }
        out.extend([0u8, 0, 0, 0]);
        out.extend((gi as i32).to_le_bytes());
        out.extend((g.weights.len() as i32).to_le_bytes());
        out.extend(0i32.to_le_bytes());
        for (bone, ws) in &g.weights {
            out.extend(bone.to_le_bytes());
            out.extend([0u8; 20]);
            out.extend((ws.len() as i32).to_le_bytes());
            for (v, w) in ws {
                out.extend(v.to_le_bytes());
                out.extend(w.to_le_bytes());
            }
        }
    }
    let len = out.len() as u32;
    out[16..20].copy_from_slice(&len.to_le_bytes());
    out
}

/// A bar of 5 segments along +X on two bones: bone 1 (the outer half) turns 60 degrees about
/// the joint at x = 40 in frame 1. Two groups: the inner half (red skin) and the outer (green).
pub fn bent_bar() -> Vec<u8> {
    let joint = Vec3::new(40.0, 0.0, 0.0);
    let bend = Mat4::from_translation(joint)
        * Mat4::from_rotation_z(60f32.to_radians())
        * Mat4::from_translation(-joint);
    let bar = |x0: f32, x1: f32, bone: u16| -> Vec<([f32; 3], u16)> {
        let mut v = Vec::new();
        for x in [x0, x1] {
            for (y, z) in [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)] {
                v.push(([x, y, z], bone));
            }
        }
        v
    };
    // The 6 faces of a box with corners 0..3 at x0 and 4..7 at x1, counter-clockwise outside;
    // each triangle is written clockwise, as GameStudio stores front faces.
    let faces: [[u16; 4]; 6] = [
        [0, 3, 2, 1],
        [4, 5, 6, 7],
        [0, 1, 5, 4],
        [1, 2, 6, 5],
        [2, 3, 7, 6],
        [3, 0, 4, 7],
    ];
    let tris: Vec<([u16; 3], [u16; 3], i32)> = faces
        .iter()
        .flat_map(|f| {
            [
                ([f[0], f[2], f[1]], [0, 2, 1], 0),
                ([f[0], f[3], f[2]], [0, 3, 2], 0),
            ]
        })
        .collect();
    let uvs = vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
    let frames = vec![
        (
            "rest".to_string(),
            vec![],
            vec![(0u16, Mat4::IDENTITY), (1, Mat4::IDENTITY)],
        ),
        (
            "bent".to_string(),
            vec![],
            vec![(0u16, Mat4::IDENTITY), (1, bend)],
        ),
    ];
    // Materials count the skins of all groups: the inner group's one red skin is 0, the outer
    // group's red and green skins are 1 and 2.
    let group = |verts, skins: usize, material: i32| GroupSpec {
        skins,
        uvs: uvs.clone(),
        tris: tris.iter().map(|&(v, st, _)| (v, st, material)).collect(),
        verts,
        frames: frames.clone(),
        weights: vec![],
    };
    write(&Spec {
        sizes: (36, 26, 26),
        bones: vec![(0xFFFF, [0.0; 3]), (0, [40.0, 0.0, 0.0])],
        groups: vec![
            group(bar(0.0, 40.0, 0), 1, 0),
            group(bar(40.0, 80.0, 1), 2, 2),
        ],
    })
}
