//! The WMB7 writer: a [`WmbFile`] laid out as the compiler does (header, then the lists), so that
//! `WmbFile::parse(&encode(&f)) == f`. Used by the round-trip tests, the fuzz seeds and tests that
//! need a small level of their own. Strings longer than their field are cut; every record gets
//! its canonical size.

use super::object::{Entity, EntityKind, Object};
use super::{header::LIST_COUNT, ListKind, WmbFile, HEADER_SIZE, MAGIC};

/// Little-endian byte sink.
#[derive(Default)]
struct Out(Vec<u8>);

impl Out {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn vec3(&mut self, v: glam::Vec3) {
        for c in v.to_array() {
            self.f32(c);
        }
    }
    /// `s` as Windows-1252 (what the decoder reads; characters outside it become `?`) in a field
    /// of `n` bytes, NUL-padded and cut at `n - 1` bytes so a NUL always ends it.
    fn str(&mut self, s: &str, n: usize) {
        let b = modex::windows1252::encode(s);
        let take = b.len().min(n.saturating_sub(1));
        self.0.extend_from_slice(&b[..take]);
        self.0.resize(self.0.len() + n - take, 0);
    }
    fn zeros(&mut self, n: usize) {
        self.0.resize(self.0.len() + n, 0);
    }
}

/// Encode a level.
pub fn encode(file: &WmbFile) -> Vec<u8> {
    let mut lists: Vec<Vec<u8>> = vec![Vec::new(); LIST_COUNT];
    for (kind, bytes) in &file.other_lists {
        lists[kind.index()] = bytes.clone();
    }
    lists[ListKind::Textures.index()] = textures(file);
    lists[ListKind::Materials.index()] = materials(file);
    lists[ListKind::Blocks.index()] = blocks(file);
    lists[ListKind::Objects.index()] = objects(file);
    lists[ListKind::Lightmaps.index()] = file.lightmaps.concat();
    lists[ListKind::LightmapsTerrain.index()] = terrain(file);
    let mut out = Out::default();
    out.0.extend_from_slice(MAGIC);
    let mut at = HEADER_SIZE as u32;
    for list in &lists {
        if list.is_empty() {
            out.u32(0);
            out.u32(0);
        } else {
            out.u32(at);
            out.u32(list.len() as u32);
            at += list.len() as u32;
        }
    }
    for list in lists {
        out.0.extend_from_slice(&list);
    }
    out.0
}

/// `u32 count`, `count` offsets relative to the list, then the records.
fn offset_list(records: Vec<Vec<u8>>) -> Vec<u8> {
    if records.is_empty() {
        return Vec::new();
    }
    let mut out = Out::default();
    out.u32(records.len() as u32);
    let mut at = 4 + 4 * records.len() as u32;
    for r in &records {
        out.u32(at);
        at += r.len() as u32;
    }
    for r in records {
        out.0.extend_from_slice(&r);
    }
    out.0
}

fn textures(file: &WmbFile) -> Vec<u8> {
    offset_list(
        file.textures
            .iter()
            .map(|t| {
                let mut o = Out::default();
                o.str(&t.name, 16);
                o.u32(t.width);
                o.u32(t.height);
                o.u32(t.kind);
                for l in t.legacy {
                    o.u32(l);
                }
                o.0.extend_from_slice(&t.data);
                o.0
            })
            .collect(),
    )
}

fn materials(file: &WmbFile) -> Vec<u8> {
    let mut o = Out::default();
    for m in &file.materials {
        for v in m.s.iter().chain(m.t.iter()) {
            o.f32(*v);
        }
        o.u32(m.texture);
        o.u32(m.flags);
        o.0.extend_from_slice(&m.tail);
        o.0.extend_from_slice(&m.name);
    }
    o.0
}

fn blocks(file: &WmbFile) -> Vec<u8> {
    if file.blocks.is_empty() {
        return Vec::new();
    }
    let mut o = Out::default();
    o.u32(file.blocks.len() as u32);
    for b in &file.blocks {
        o.vec3(b.mins);
        o.vec3(b.maxs);
        o.u32(b.content);
        o.u32(b.vertices.len() as u32);
        o.u32(b.triangles.len() as u32);
        o.u32(b.skins.len() as u32);
        for v in &b.vertices {
            o.vec3(v.position);
            o.f32(v.texture_uv.x);
            o.f32(v.texture_uv.y);
            o.f32(v.lightmap_uv.x);
            o.f32(v.lightmap_uv.y);
        }
        for t in &b.triangles {
            for v in t.vertices {
                o.u16(v);
            }
            o.u16(t.skin);
            o.u32(t.face);
        }
        for s in &b.skins {
            o.u16(s.texture);
            o.u16(s.lightmap);
            o.u32(s.material);
            o.f32(s.ambient);
            o.f32(s.albedo);
            o.u32(s.flags);
        }
    }
    o.0
}

fn terrain(file: &WmbFile) -> Vec<u8> {
    if file.terrain_lightmaps.is_empty() {
        return Vec::new();
    }
    let mut o = Out::default();
    o.u32(file.terrain_lightmaps.len() as u32);
    for t in &file.terrain_lightmaps {
        o.u32(t.object);
        o.u32(t.width);
        o.u32(t.height);
        o.0.extend_from_slice(&t.bgr);
    }
    o.0
}

fn objects(file: &WmbFile) -> Vec<u8> {
    offset_list(file.objects.iter().map(object).collect())
}

fn object(obj: &Object) -> Vec<u8> {
    let mut o = Out::default();
    match obj {
        Object::Position {
            origin,
            angle,
            unused,
            name,
        } => {
            o.u32(1);
            o.vec3(*origin);
            o.vec3(*angle);
            o.u32(unused[0]);
            o.u32(unused[1]);
            o.str(name, 20);
        }
        Object::Light {
            origin,
            color,
            range,
            flags,
        } => {
            o.u32(2);
            o.vec3(*origin);
            o.vec3(*color);
            o.f32(*range);
            o.u32(*flags);
        }
        Object::Entity(e) if e.kind == EntityKind::Old => old_entity(&mut o, e),
        Object::Entity(e) => new_entity(&mut o, e),
        Object::Sound {
            origin,
            volume,
            unused,
            range,
            flags,
            file,
        } => {
            o.u32(4);
            o.vec3(*origin);
            o.f32(*volume);
            o.u32(unused[0]);
            o.u32(unused[1]);
            o.u32(*range);
            o.u32(*flags);
            o.str(file, 33);
        }
        Object::Info(i) => {
            o.u32(5);
            o.vec3(i.origin);
            o.f32(i.azimuth);
            o.f32(i.elevation);
            o.u32(i.flags);
            o.f32(i.version);
            o.u8(i.gamma);
            o.u8(i.lightmap_size);
            o.0.extend_from_slice(&i.unused);
            o.u32(i.sun_color);
            o.u32(i.ambient_color);
            for c in i.fog_colors {
                o.u32(c);
            }
        }
        Object::Path(p) => {
            o.u32(6);
            o.str(&p.name, 20);
            o.f32(p.nodes.len() as f32);
            for u in p.unused {
                o.u32(u);
            }
            o.u32(p.num_edges_word);
            for n in &p.nodes {
                o.vec3(*n);
            }
            for s in &p.node_skills {
                for v in s {
                    o.f32(*v);
                }
            }
            for e in &p.edges {
                for v in [e.node1, e.node2, e.length, e.bezier, e.weight, e.skill] {
                    o.f32(v);
                }
            }
        }
        Object::Region {
            mins,
            maxs,
            words,
            name,
        } => {
            o.u32(8);
            o.vec3(*mins);
            o.vec3(*maxs);
            o.u32(words[0]);
            o.u32(words[1]);
            o.str(name, 20);
        }
        Object::Unknown { kind, bytes } => {
            o.u32(*kind);
            o.0.extend_from_slice(bytes);
        }
    }
    o.0
}

fn placement(o: &mut Out, e: &Entity) {
    o.vec3(e.origin);
    o.vec3(e.angle);
    o.vec3(e.scale);
}

fn old_entity(o: &mut Out, e: &Entity) {
    o.u32(3);
    placement(o, e);
    o.str(&e.name, 20);
    // The filename may run on into the action field (up to 33 bytes with its NUL); the action is
    // written only when the filename leaves it alone, as the decoder reads it.
    let start = o.0.len();
    o.str(&e.file, 33);
    if e.file.chars().count() < 13 {
        o.0.truncate(start + 13);
        o.str(&e.action, 20);
    }
    o.0.truncate(start + 36);
    o.zeros(start + 36 - o.0.len());
    for s in (0..8).map(|i| e.skills.get(i).copied().unwrap_or(0.0)) {
        o.f32(s);
    }
    o.u32(e.flags);
    o.f32(e.ambient);
}

fn new_entity(o: &mut Out, e: &Entity) {
    o.u32(7);
    placement(o, e);
    o.str(&e.name, 33);
    o.str(&e.file, 33);
    o.str(&e.action, 33);
    o.zeros(1);
    for s in (0..20).map(|i| e.skills.get(i).copied().unwrap_or(0.0)) {
        o.f32(s);
    }
    o.u32(e.flags);
    o.f32(e.ambient);
    o.f32(e.albedo);
    o.u32(e.path);
    o.u32(e.entity2);
    o.str(&e.material, 33);
    o.str(&e.string1, 33);
    o.str(&e.string2, 33);
    o.zeros(33);
}
