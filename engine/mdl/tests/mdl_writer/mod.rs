//! A tiny MDL and HMP writer for tests: builds small files in code so every layout rule and every
//! error path can be exercised without third-party samples.
#![allow(dead_code)]

/// One frame: name bytes (16, may hold garbage after the NUL), type word, vertices.
#[derive(Clone, Debug)]
pub struct TestFrame {
    pub name: [u8; 16],
    /// The frame's type word (0 byte-packed, 2 word-packed).
    pub kind: i32,
    /// Raw positions and normal index.
    pub verts: Vec<([u16; 3], u8)>,
}

impl TestFrame {
    pub fn new(name: &str, kind: i32, verts: Vec<([u16; 3], u8)>) -> Self {
        let mut n = [0u8; 16];
        n[..name.len()].copy_from_slice(name.as_bytes());
        TestFrame {
            name: n,
            kind,
            verts,
        }
    }
}

/// A skin record: type word, (MDL5/HMP) width and height, raw bytes after them.
#[derive(Clone, Debug)]
pub struct TestSkin {
    pub kind: u32,
    pub width: i32,
    pub height: i32,
    pub data: Vec<u8>,
}

impl TestSkin {
    /// A skin of `kind` (with +8 mipmaps when asked) filled with a byte ramp of the right size.
    pub fn image(kind: u32, width: usize, height: usize) -> Self {
        let bpp = [1, 0, 2, 2, 3, 4][(kind & 7) as usize];
        let n = width * height;
        let mut len = n * bpp;
        if kind & 8 != 0 {
            len += (n / 4 + n / 16 + n / 64) * bpp;
        }
        TestSkin {
            kind,
            width: width as i32,
            height: height as i32,
            data: (0..len).map(|i| (i * 7 + 3) as u8).collect(),
        }
    }
}

/// A model in MDL terms; `write` lays it out for a given magic.
#[derive(Clone, Debug)]
pub struct TestModel {
    pub magic: [u8; 4],
    pub scale: [f32; 3],
    pub offset: [f32; 3],
    pub skin_width: i32,
    pub skin_height: i32,
    pub skins: Vec<TestSkin>,
    /// MDL3/4/5: (u, v) shorts. MDL2: (s, t) with onseam flags below.
    pub skin_verts: Vec<(i16, i16)>,
    pub onseam: Vec<bool>,
    /// (vertex indices, uv indices); MDL2 uses `faces_front` instead of uv indices.
    pub tris: Vec<([i16; 3], [i16; 3])>,
    pub faces_front: Vec<bool>,
    pub num_verts: i32,
    pub frames: Vec<TestFrame>,
}

pub fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}
pub fn put_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

impl TestModel {
    /// A tetrahedron with one 8x8 565 skin, 4 skin vertices and `frames` frames (byte-packed
    /// for MDL3, word-packed otherwise).
    pub fn tetrahedron(magic: &[u8; 4], frames: usize) -> Self {
        let word = !matches!(magic, b"MDL3" | b"MDL2" | b"IDPO");
        let kind = if word { 2 } else { 0 };
        let s = |v: u16| if word { v * 256 } else { v };
        let frames = (0..frames)
            .map(|f| {
                let d = f as u16;
                TestFrame::new(
                    &format!("stand{}", f + 1),
                    kind,
                    // As GameStudio writes them: normals pointing into the mesh (+Z at the
                    // corner at the origin, -X, -Y and -Z at the others).
                    vec![
                        ([s(0), s(0), s(d)], 5),
                        ([s(10), s(0), s(0)], 143),
                        ([s(0), s(10), s(0)], 104),
                        ([s(0), s(0), s(10)], 84),
                    ],
                )
            })
            .collect();
        TestModel {
            magic: *magic,
            scale: [0.5, 0.25, 2.0],
            offset: [-1.0, 2.0, 3.0],
            skin_width: 8,
            skin_height: 8,
            skins: vec![TestSkin::image(2, 8, 8)],
            skin_verts: vec![(0, 0), (8, 0), (0, 8), (-2, 9)],
            onseam: vec![false, true, false, false],
            // Clockwise seen from outside, as GameStudio writes them.
            tris: vec![
                ([0, 1, 2], [0, 1, 2]),
                ([0, 3, 1], [0, 3, 1]),
                ([1, 3, 2], [1, 3, 2]),
                ([0, 2, 3], [0, 2, 3]),
            ],
            faces_front: vec![true, false, true, true],
            num_verts: 4,
            frames,
        }
    }

    pub fn is_quake(&self) -> bool {
        &self.magic == b"MDL2" || &self.magic == b"IDPO"
    }

    pub fn header(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.magic);
        put_i32(&mut out, if &self.magic == b"IDPO" { 6 } else { 0 });
        for v in self.scale.iter().chain(&self.offset) {
            put_f32(&mut out, *v);
        }
        put_f32(&mut out, 12.5); // bounding radius
        for v in [1.0e30f32, f32::NAN, -7.0] {
            put_f32(&mut out, v); // eye: garbage on purpose
        }
        let mdl5 = &self.magic == b"MDL5";
        put_i32(&mut out, self.skins.len() as i32);
        put_i32(&mut out, if mdl5 { 0 } else { self.skin_width });
        put_i32(&mut out, if mdl5 { 0 } else { self.skin_height });
        put_i32(&mut out, self.num_verts);
        put_i32(&mut out, self.tris.len() as i32);
        put_i32(&mut out, self.frames.len() as i32);
        put_i32(
            &mut out,
            if self.is_quake() {
                0
            } else {
                self.skin_verts.len() as i32
            },
        );
        put_i32(&mut out, 0); // flags
        put_i32(&mut out, 0); // bones / size
        assert_eq!(out.len(), 84);
        out
    }

    pub fn write(&self) -> Vec<u8> {
        let mut out = self.header();
        let mdl5 = &self.magic == b"MDL5";
        for s in &self.skins {
            put_i32(&mut out, s.kind as i32);
            if mdl5 {
                put_i32(&mut out, s.width);
                put_i32(&mut out, s.height);
            }
            out.extend_from_slice(&s.data);
        }
        if self.is_quake() {
            for (i, &(s, t)) in self.skin_verts.iter().enumerate() {
                put_i32(
                    &mut out,
                    self.onseam.get(i).copied().unwrap_or(false) as i32,
                );
                put_i32(&mut out, s as i32);
                put_i32(&mut out, t as i32);
            }
            for (i, (v, _)) in self.tris.iter().enumerate() {
                put_i32(
                    &mut out,
                    self.faces_front.get(i).copied().unwrap_or(true) as i32,
                );
                for k in v {
                    put_i32(&mut out, *k as i32);
                }
            }
        } else {
            for &(u, v) in &self.skin_verts {
                out.extend_from_slice(&u.to_le_bytes());
                out.extend_from_slice(&v.to_le_bytes());
            }
            for (v, uv) in &self.tris {
                for k in v.iter().chain(uv) {
                    out.extend_from_slice(&k.to_le_bytes());
                }
            }
        }
        for f in &self.frames {
            let word = !self.is_quake() && &self.magic != b"MDL3" && f.kind == 2;
            put_i32(&mut out, f.kind);
            let vert = |out: &mut Vec<u8>, p: [u16; 3], n: u8| {
                if word {
                    for c in p {
                        out.extend_from_slice(&c.to_le_bytes());
                    }
                    out.extend_from_slice(&[n, 0]);
                } else {
                    out.extend_from_slice(&[p[0] as u8, p[1] as u8, p[2] as u8, n]);
                }
            };
            let lo = (0..3).map(|k| f.verts.iter().map(|v| v.0[k]).min().unwrap_or(0));
            let hi = (0..3).map(|k| f.verts.iter().map(|v| v.0[k]).max().unwrap_or(0));
            let lo: Vec<u16> = lo.collect();
            let hi: Vec<u16> = hi.collect();
            vert(&mut out, [lo[0], lo[1], lo[2]], 0);
            vert(&mut out, [hi[0], hi[1], hi[2]], 0);
            out.extend_from_slice(&f.name);
            for &(p, n) in &f.verts {
                vert(&mut out, p, n);
            }
        }
        out
    }
}

/// A terrain in HMP terms.
#[derive(Clone, Debug)]
pub struct TestTerrain {
    pub magic: [u8; 4],
    pub scale: [f32; 3],
    pub offset: [f32; 3],
    pub trisize: [f32; 2],
    pub fnumverts_x: f32,
    /// Raw skin records (type, width, height, then bytes), written as is.
    pub skins: Vec<Vec<u8>>,
    pub num_verts: i32,
    pub num_frames: i32,
    /// (height, two normal bytes).
    pub verts: Vec<(u16, u8, u8)>,
}

impl TestTerrain {
    /// A `cols` x `rows` HMP7 terrain whose height is `10 * col + row`.
    pub fn grid(cols: usize, rows: usize) -> Self {
        TestTerrain {
            magic: *b"HMP7",
            scale: [1.0, 1.0, 0.5],
            offset: [-100.0, -50.0, -4.0],
            trisize: [8.0, 4.0],
            fnumverts_x: cols as f32,
            skins: vec![],
            num_verts: (cols * rows) as i32,
            num_frames: 1,
            verts: (0..rows)
                .flat_map(|r| (0..cols).map(move |c| ((10 * c + r) as u16, 0u8, 0u8)))
                .collect(),
        }
    }

    pub fn write(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&self.magic);
        put_i32(&mut out, 0);
        for v in self.scale.iter().chain(&self.offset) {
            put_f32(&mut out, *v);
        }
        put_i32(&mut out, 0);
        put_f32(&mut out, self.trisize[0]);
        put_f32(&mut out, self.trisize[1]);
        put_f32(&mut out, self.fnumverts_x);
        put_i32(&mut out, self.skins.len() as i32);
        put_i32(&mut out, 0);
        put_i32(&mut out, 0);
        put_i32(&mut out, self.num_verts);
        put_i32(&mut out, 0);
        put_i32(&mut out, self.num_frames);
        put_i32(&mut out, 0);
        put_i32(&mut out, 0);
        put_i32(&mut out, 0);
        assert_eq!(out.len(), 84);
        for s in &self.skins {
            out.extend_from_slice(s);
        }
        for _ in 0..self.num_frames.max(0) {
            put_i32(&mut out, 2);
            for v in [0u16, 0, 0, 0, 65535, 65535, 65535, 0] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            let mut name = [0u8; 16];
            name[..6].copy_from_slice(b"height");
            out.extend_from_slice(&name);
            for &(h, a, b) in &self.verts {
                out.extend_from_slice(&h.to_le_bytes());
                out.extend_from_slice(&[a, b]);
            }
        }
        out
    }
}

/// An HMP skin record: type, width, height, payload.
pub fn hmp_skin(kind: u32, width: i32, height: i32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    put_i32(&mut out, kind as i32);
    put_i32(&mut out, width);
    put_i32(&mut out, height);
    out.extend_from_slice(payload);
    out
}
