//! GTA Stories `.mdl`: the writer's files decode back to what was written, every damaged file gives
//! a typed error naming the field, and the drawing and OBJ conversions keep their invariants.
//!
//! No sample file is public, so these files come from the project's writer
//! (`modex_testkit::stories`); the layout both follow is librwgta's (see `stories_mdl`).

use glam::Vec3;
use modex::ErrorKind;
use modex_mdl::obj::{encode_mtl, encode_obj};
use modex_mdl::stories_mdl::{self, Vertex, FLAG_NORMALS, FLAG_PRELIGHT, FLAG_SKIN};
use modex_mdl::stories_mdl_encode::{
    encode, encode_prelight, encode_with, quantise_normal, quantise_position, quantise_uv,
    EncodeOptions, StoriesSpec,
};
use modex_mdl::StoriesModel;
use modex_testkit::stories as samples;

fn bytes(spec: &StoriesSpec) -> Vec<u8> {
    encode(spec).expect("the samples fit the format")
}

fn parse(spec: &StoriesSpec) -> StoriesModel {
    StoriesModel::parse(&bytes(spec)).expect("the writer's file decodes")
}

/// `decoded` is `written` after the writer's quantisation, attribute by attribute.
fn assert_same_vertex(
    written: &Vertex,
    decoded: &Vertex,
    scale: Vec3,
    pos: Vec3,
    uv_scale: [f32; 2],
) {
    let q = quantise_position(written.position, scale, pos);
    let expect = Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32) / 32767.5 * scale + pos;
    assert!(
        (decoded.position - expect).abs().max_element()
            <= 1e-5 * (1.0 + expect.abs().max_element()),
        "{:?} vs {:?}",
        decoded.position,
        expect
    );
    // Within half a quantisation step of what was written.
    let step = scale / 32767.5;
    assert!(((decoded.position - written.position).abs() - step).max_element() <= 1e-4);
    let quv = quantise_uv(written.uv, uv_scale);
    assert!((decoded.uv.x - quv[0] as f32 / 127.5 * uv_scale[0]).abs() < 1e-6);
    assert!((decoded.uv.y - quv[1] as f32 / 127.5 * uv_scale[1]).abs() < 1e-6);
    match (written.normal, decoded.normal) {
        (Some(n), Some(d)) => {
            let qn = quantise_normal(n);
            assert_eq!(
                d,
                Vec3::new(qn[0] as f32, qn[1] as f32, qn[2] as f32) / 128.0
            );
        }
        (None, None) => {}
        other => panic!("normals differ: {other:?}"),
    }
    match (written.prelight, decoded.prelight) {
        (Some(c), Some(d)) => assert_eq!(encode_prelight(d), encode_prelight(c)),
        (None, None) => {}
        other => panic!("pre-light differs: {other:?}"),
    }
    match (written.weights, decoded.weights) {
        (Some(w), Some(d)) => {
            for (a, b) in w.iter().zip(&d) {
                assert_eq!(a.bone, b.bone);
                assert!((a.weight - b.weight).abs() <= a.weight.abs() / 32768.0);
            }
        }
        (None, None) => {}
        other => panic!("weights differ: {other:?}"),
    }
}

/// Everything `spec` says is in the decoded file, and writing the decoded file gives the same bytes.
fn assert_round_trip(spec: &StoriesSpec, options: EncodeOptions) {
    let file = encode_with(spec, options).unwrap();
    let m = StoriesModel::parse(&file).unwrap();
    assert_eq!(m.atomics.len(), spec.atomics.len());
    for (a, d) in spec.atomics.iter().zip(&m.atomics) {
        let g = &d.geometry;
        assert_eq!(d.model_info_id, a.model_info_id);
        assert_eq!(d.visibility_flags, a.visibility_flags);
        assert_eq!(g.scale, a.scale);
        assert_eq!(g.pos, a.pos);
        assert_eq!(g.materials, a.materials);
        assert_eq!(g.skin, a.skin);
        assert_eq!(g.meshes.len(), a.meshes.len());
        for (ms, md) in a.meshes.iter().zip(&g.meshes) {
            assert_eq!(md.material, ms.material);
            assert_eq!(md.uv_scale, ms.uv_scale);
            assert_eq!(md.vertices.len(), ms.strip.len(), "batch overlaps dropped");
            for (w, v) in ms.strip.iter().zip(&md.vertices) {
                assert_same_vertex(w, v, a.scale, a.pos, ms.uv_scale);
            }
        }
    }
    let again = encode_with(&StoriesSpec::from_model(&m), options).unwrap();
    if let Some(at) = again.iter().zip(&file).position(|(a, b)| a != b) {
        panic!("re-encoding the decoded file changes byte {at}");
    }
    assert_eq!(again.len(), file.len());
}

#[test]
fn cube_reads_back() {
    let m = parse(&samples::cube());
    assert_eq!(m.header.ident, 0x006D_646C);
    assert_eq!(m.clump_offset, 0x20);
    assert_eq!(m.atomics.len(), 1);
    let g = &m.atomics[0].geometry;
    assert_eq!(
        g.flags & (FLAG_NORMALS | FLAG_PRELIGHT),
        FLAG_NORMALS | FLAG_PRELIGHT
    );
    assert_eq!(g.materials[0].texture.as_deref(), Some("crate"));
    let mesh = &g.meshes[0];
    assert_eq!(mesh.batches, 1);
    assert_eq!(mesh.vertices.len(), 34);
    // 32 strip triangles, of which the 20 at the 5 joins between faces are degenerate.
    assert_eq!(mesh.triangles.len(), 12);
    assert_eq!(mesh.declared_triangles, 32);
    // Every triangle faces outwards: its normal agrees with the stored vertex normals.
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
        let face = (b.position - a.position).cross(c.position - a.position);
        assert!(
            face.dot(a.normal.unwrap()) > 0.0,
            "triangle {t:?} faces inwards"
        );
    }
    assert_round_trip(&samples::cube(), EncodeOptions::default());
}

#[test]
fn long_mesh_spans_several_batches() {
    let m = parse(&samples::long_band());
    let mesh = &m.atomics[0].geometry.meshes[0];
    // 64 vertices, then 62 new ones per batch (2 repeated): 64 + 9 * 62 >= 600.
    assert_eq!(mesh.batches, 10);
    assert_eq!(mesh.vertices.len(), 600);
    assert_eq!(mesh.triangles.len(), 598);
    for batch in [3, 4, 5, 17, 255, 256] {
        let options = EncodeOptions {
            batch_vertices: batch,
            extra_items: false,
        };
        assert_round_trip(&samples::long_band(), options);
        let m = StoriesModel::parse(&encode_with(&samples::long_band(), options).unwrap()).unwrap();
        let mesh = &m.atomics[0].geometry.meshes[0];
        assert_eq!(mesh.batches, 1 + (600 - batch).div_ceil(batch - 2));
        assert_eq!(mesh.vertices.len(), 600);
    }
}

#[test]
fn two_atomics_keep_their_materials() {
    let m = parse(&samples::two_atomics());
    assert_eq!(m.atomics.len(), 2);
    let [a, b] = [&m.atomics[0].geometry, &m.atomics[1].geometry];
    assert_eq!(a.materials[0].texture.as_deref(), Some("brick"));
    assert_eq!(b.materials[0].texture.as_deref(), Some("glass"));
    assert_ne!(a.materials[0].colour, b.materials[0].colour);
    assert_eq!(m.atomics[1].model_info_id, 7);
    assert!(b.meshes[0].vertices.iter().all(|v| v.normal.is_none()));
    assert_eq!(b.flags & FLAG_NORMALS, 0);
    assert_round_trip(&samples::two_atomics(), EncodeOptions::default());
}

#[test]
fn thousands_of_skinned_vertices() {
    let spec = samples::terrain(60);
    let m = parse(&spec);
    let g = &m.atomics[0].geometry;
    assert_eq!(g.flags & FLAG_SKIN, FLAG_SKIN);
    assert_eq!(g.skin.as_ref().unwrap().bones, 3);
    assert_eq!(g.meshes.len(), 59);
    assert_eq!(m.vertex_count(), 59 * 120);
    assert_eq!(m.triangle_count(), 59 * 118);
    assert_eq!(g.materials[1].matfx, Some(2));
    assert!(g.meshes.iter().all(|mesh| mesh.batches == 2));
    assert_round_trip(&spec, EncodeOptions::default());
}

#[test]
fn nops_unknown_codes_and_manhunt2_blocks_are_stepped_over() {
    let options = EncodeOptions {
        batch_vertices: 20,
        extra_items: true,
    };
    let plain = parse(&samples::two_atomics());
    let extra =
        StoriesModel::parse(&encode_with(&samples::two_atomics(), options).unwrap()).unwrap();
    for (a, b) in plain.meshes().zip(extra.meshes()) {
        assert_eq!(a.vertices, b.vertices);
        assert_eq!(a.triangles, b.triangles);
    }
    assert_round_trip(&samples::terrain(12), options);
}

#[test]
fn every_truncation_is_an_error() {
    for spec in [
        samples::cube(),
        samples::two_atomics(),
        samples::long_band(),
    ] {
        let file = bytes(&spec);
        for len in 0..file.len() {
            let e = StoriesModel::parse(&file[..len]).expect_err("a cut file must not decode");
            assert_eq!(e.format, stories_mdl::FORMAT);
            if len >= 12 {
                assert_eq!(e.field, "header.file_size", "cut at {len}");
                assert!(matches!(e.kind, ErrorKind::Truncated { .. }));
            }
        }
    }
}

// ---- damaged files: each names its field ----

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn put(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Offset of the first VIF word of atomic 0's mesh 0.
fn vif_start(b: &[u8], m: &StoriesModel) -> usize {
    let ps2 = m.atomics[0].geometry.offset + 0x20;
    let meshes = (u32_at(b, ps2 + 0x10) >> 20) as usize;
    let packet = u32_at(b, ps2 + 0x40 + 0x1C) as usize;
    ps2 + 0x40 + meshes * 0x30 + packet + 16
}

fn error_of(b: &[u8]) -> modex::FormatError {
    StoriesModel::parse(b).expect_err("damaged file decoded")
}

#[test]
fn damaged_files_name_the_field() {
    let good = bytes(&samples::cube());
    let m = StoriesModel::parse(&good).unwrap();
    let atomic = m.atomics[0].offset;
    let geometry = m.atomics[0].geometry.offset;

    let mut b = good.clone();
    b[0] = b'X';
    assert!(matches!(error_of(&b).kind, ErrorKind::BadMagic { .. }));

    // A pointer the table does not list: drop the geometry pointer's entry from the table.
    let mut b = good.clone();
    let table = u32_at(&b, 16) as usize;
    let count = u32_at(&b, 20) as usize;
    let slot = (0..count)
        .map(|i| table + 4 * i)
        .find(|&s| u32_at(&b, s) as usize == atomic + 0x14)
        .unwrap();
    let last = u32_at(&b, table + 4 * (count - 1));
    put(&mut b, slot, last);
    put(&mut b, 20, count as u32 - 1);
    let e = error_of(&b);
    assert_eq!(e.field, "atomic[0].geometry");
    assert_eq!(e.offset, atomic + 0x14);
    assert!(e.to_string().contains("not in the relocation table"), "{e}");

    // A field listed twice.
    let mut b = good.clone();
    let first = u32_at(&b, table);
    put(&mut b, table + 4, first);
    assert!(error_of(&b).to_string().contains("listed twice"));

    // A listed pointer outside the file.
    let mut b = good.clone();
    let past = b.len() as u32 + 100;
    put(&mut b, atomic + 0x14, past);
    let e = error_of(&b);
    assert!(e.field.starts_with("pointer (listed by reloc["), "{e}");
    assert_eq!(e.offset, atomic + 0x14);

    // A ring that loops without returning to the clump.
    let mut b = good.clone();
    put(&mut b, atomic + 0x1C, (atomic + 0x1C) as u32);
    let e = error_of(&b);
    assert_eq!(e.field, "atomic[1].link");

    // The root is not a clump.
    let mut b = good.clone();
    b[0x20] = 1;
    assert!(matches!(error_of(&b).kind, ErrorKind::Unsupported(_)));

    // A mesh naming a material the geometry does not have.
    let mut b = good.clone();
    let entry = geometry + 0x20 + 0x40;
    b[entry + 0x22] = 3;
    let e = error_of(&b);
    assert_eq!(e.field, "atomic[0].geometry.mesh[0].material");
    assert_eq!(e.offset, entry + 0x22);

    // Mesh count beyond the geometry's size.
    let mut b = good.clone();
    let size = u32_at(&b, geometry + 0x30);
    put(&mut b, geometry + 0x30, size | 0xFFF0_0000);
    assert_eq!(error_of(&b).field, "atomic[0].geometry.ps2.size");

    // A batch that does not start with 6C018000.
    let vif = vif_start(&good, &m);
    let mut b = good.clone();
    put(&mut b, vif, 0x6C02_8000);
    let e = error_of(&b);
    assert_eq!(e.field, "atomic[0].geometry.mesh[0].batch[0].header");
    assert_eq!(e.offset, vif);

    // UVs with the sign bit of positions.
    let mut b = good.clone();
    let uvs = (vif..vif + 400)
        .step_by(4)
        .find(|&o| u32_at(&b, o) >> 24 == 0x76)
        .unwrap();
    let signed = u32_at(&b, uvs) & !0x4000;
    put(&mut b, uvs, signed);
    let e = error_of(&b);
    assert_eq!(e.field, "atomic[0].geometry.mesh[0].batch[0].unpack[76]");
    assert_eq!(e.offset, uvs);

    // Positions with fewer elements than the batch's vertex count.
    let mut b = good.clone();
    let positions = vif + 5 * 4 + 7 * 4;
    assert_eq!(u32_at(&b, positions) >> 24, 0x79);
    put(&mut b, positions, 0x7900_0000 | (33 << 16));
    let e = error_of(&b);
    assert_eq!(
        e.field,
        "atomic[0].geometry.mesh[0].batch[0].unpack[79].num"
    );

    // An unknown VIF command.
    let mut b = good.clone();
    put(&mut b, vif + 5 * 4, 0x0800_0000);
    let e = error_of(&b);
    assert!(e.to_string().contains("unknown VIF code"), "{e}");

    // NaN scale.
    let mut b = good.clone();
    put(&mut b, geometry + 0x20 + 0x28, f32::NAN.to_bits());
    assert_eq!(error_of(&b).field, "atomic[0].geometry.ps2.scale");

    // A relocation table that does not fit.
    let mut b = good.clone();
    put(&mut b, 20, 1 << 30);
    let e = error_of(&b);
    assert_eq!(e.field, "header.reloc_count");
    assert!(matches!(e.kind, ErrorKind::TooLarge { .. }));
}

#[test]
fn sniff_is_the_ident() {
    assert!(stories_mdl::sniff(&bytes(&samples::cube())));
    assert!(stories_mdl::sniff(&[0x6c, 0x64, 0x6d, 0x00]));
    assert!(!stories_mdl::sniff(b"MDL5"));
    assert!(!stories_mdl::sniff(b"ldm"));
}

// ---- drawing and OBJ ----

#[test]
fn model_bakes_prelight_into_cells() {
    let file = parse(&samples::two_atomics());
    let model = file.to_model();
    model.check().unwrap();
    assert_eq!(model.vertex_count(), file.vertex_count());
    assert_eq!(model.triangles.len(), file.triangle_count());
    let skin = &model.skins[0];
    assert_eq!(skin.rgba.len(), skin.width * skin.height * 4);
    // The texel under each corner's UV holds that corner's pre-light times its material colour.
    let mut t = 0;
    for atomic in &file.atomics {
        let g = &atomic.geometry;
        for mesh in &g.meshes {
            let mat = stories_mdl::material_colour(&g.materials[mesh.material]);
            for tri in &mesh.triangles {
                let mt = &model.triangles[t];
                for (corner, &vertex) in tri.iter().enumerate() {
                    let uv = model.uvs[mt.uvs[corner] as usize];
                    let (x, y) = (
                        (uv.x * skin.width as f32) as usize,
                        (uv.y * skin.height as f32) as usize,
                    );
                    let texel = &skin.rgba[4 * (y * skin.width + x)..][..3];
                    let p = mesh.vertices[vertex as usize].prelight.unwrap();
                    for c in 0..3 {
                        let want = p[c] as f32 * mat[c] as f32 / 255.0;
                        assert!((texel[c] as f32 - want).abs() <= 1.0, "{texel:?} vs {want}");
                    }
                }
                t += 1;
            }
        }
    }
}

/// A minimal OBJ reader: what Blender would see.
struct ObjCounts {
    vertices: usize,
    coloured: usize,
    uvs: usize,
    normals: usize,
    faces: usize,
    materials_used: Vec<String>,
}

fn read_obj(text: &str) -> ObjCounts {
    let mut c = ObjCounts {
        vertices: 0,
        coloured: 0,
        uvs: 0,
        normals: 0,
        faces: 0,
        materials_used: Vec::new(),
    };
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        match parts.next() {
            Some("v") => {
                let n: Vec<f32> = parts.map(|p| p.parse().unwrap()).collect();
                assert!(n.len() == 3 || n.len() == 6, "{line}");
                c.vertices += 1;
                if n.len() == 6 {
                    assert!(n[3..].iter().all(|x| (0.0..=1.0).contains(x)));
                    c.coloured += 1;
                }
            }
            Some("vt") => c.uvs += 1,
            Some("vn") => c.normals += 1,
            Some("usemtl") => c.materials_used.push(parts.next().unwrap().to_owned()),
            Some("f") => {
                let corners: Vec<&str> = parts.collect();
                assert_eq!(corners.len(), 3, "{line}");
                for k in corners {
                    let idx: Vec<usize> = k
                        .split('/')
                        .filter(|s| !s.is_empty())
                        .map(|s| s.parse().unwrap())
                        .collect();
                    assert!(idx[0] >= 1 && idx[0] <= c.vertices, "{line}");
                    assert!(idx[1] >= 1 && idx[1] <= c.uvs, "{line}");
                }
                c.faces += 1;
            }
            _ => {}
        }
    }
    c
}

#[test]
fn obj_holds_every_vertex_face_and_material() {
    for spec in [samples::two_atomics(), samples::terrain(20)] {
        let file = parse(&spec);
        let obj = file.to_obj();
        let mut text = Vec::new();
        encode_obj(&obj, "model.mtl", &mut text).unwrap();
        let counts = read_obj(std::str::from_utf8(&text).unwrap());
        assert_eq!(counts.vertices, file.vertex_count());
        assert_eq!(counts.coloured, file.vertex_count());
        assert_eq!(counts.uvs, file.vertex_count());
        assert_eq!(counts.faces, file.triangle_count());
        let with_normals: usize = file
            .meshes()
            .flat_map(|m| &m.vertices)
            .filter(|v| v.normal.is_some())
            .count();
        assert_eq!(counts.normals, with_normals);
        assert_eq!(counts.materials_used.len(), file.material_count());
        let mut mtl = Vec::new();
        encode_mtl(&obj, &mut mtl).unwrap();
        let mtl = String::from_utf8(mtl).unwrap();
        for name in &counts.materials_used {
            assert!(mtl.contains(&format!("newmtl {name}\n")));
        }
    }
    // Positions are the file's own, without an axis swap.
    let file = parse(&samples::cube());
    let obj = file.to_obj();
    let v = file.atomics[0].geometry.meshes[0].vertices[0];
    assert_eq!(obj.positions[0], v.position.to_array());
    assert_eq!(obj.uvs[0], [v.uv.x, 1.0 - v.uv.y]);
}

#[test]
fn aliased_packets_cannot_multiply_the_decode() {
    use modex_mdl::stories_mdl_encode::{AtomicSpec, MeshSpec};
    // One mesh of 250 vertices, then 100 empty meshes whose packets are pointed at the big one.
    let big = samples::band_strip(Vec3::ZERO, 1.0, 1.0, 125);
    let mut meshes = vec![MeshSpec::new(0, big)];
    meshes.extend((0..100).map(|_| MeshSpec::new(0, Vec::new())));
    let spec = StoriesSpec {
        atomics: vec![AtomicSpec::new(
            vec![samples::material("t", [255; 4])],
            meshes,
        )],
    };
    let options = EncodeOptions {
        batch_vertices: 256,
        extra_items: false,
    };
    let mut b = encode_with(&spec, options).unwrap();
    let m = StoriesModel::parse(&b).unwrap();
    assert_eq!(m.vertex_count(), 250);
    let table = m.atomics[0].geometry.offset + 0x20 + 0x40;
    for i in 1..101 {
        put(&mut b, table + i * 0x30 + 0x1C, 0);
    }
    let e = error_of(&b);
    assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{e}");
    assert!(e.field.ends_with("vertex_count"), "{e}");
    // Fewer aliases stay within the budget and decode.
    let mut b = encode_with(&spec, options).unwrap();
    for i in 1..4 {
        put(&mut b, table + i * 0x30 + 0x1C, 0);
    }
    assert_eq!(StoriesModel::parse(&b).unwrap().vertex_count(), 4 * 250);
}
