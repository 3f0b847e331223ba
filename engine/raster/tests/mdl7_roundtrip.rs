//! MDL7 through a writer that follows the measured layout: property tests that what is written is
//! what is read (for every record-size variant seen in real files), that any cut file is refused
//! with a typed error, and golden renders of a skinned two-bone model in its rest pose and bent.

use std::path::PathBuf;

use glam::{Mat4, Vec3};
use modex::{DepthBuffer, IndexedFrame, Palette, Target};
use modex_raster::mdl7::{Mdl7File, SkinSource};
use modex_raster::{framing_camera, Entity, Light, Renderer};
use modex_testkit::Golden;
use proptest::prelude::*;

/// What the writer writes.
#[derive(Debug, Clone)]
struct Spec {
    /// (bone, triangle, vertex) record sizes.
    sizes: (u16, u16, u16),
    bones: Vec<(u16, [f32; 3])>,
    groups: Vec<GroupSpec>,
}

/// (name, sparse (index, position), bone matrices (bone, matrix))
type FrameSpec = (String, Vec<(u16, [f32; 3])>, Vec<(u16, Mat4)>);

#[derive(Debug, Clone)]
struct GroupSpec {
    /// 2x2 RGB565 skins.
    skins: usize,
    uvs: Vec<[f32; 2]>,
    /// (vertex indices, uv indices, skin)
    tris: Vec<([u16; 3], [u16; 3], i32)>,
    /// (position, bone)
    verts: Vec<([f32; 3], u16)>,
    frames: Vec<FrameSpec>,
    /// (bone, [(vertex, weight)])
    weights: Vec<(i32, Vec<(i32, f32)>)>,
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

fn write(spec: &Spec) -> Vec<u8> {
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

fn coord() -> impl Strategy<Value = f32> {
    -100.0f32..100.0
}

fn group(bones: usize) -> impl Strategy<Value = GroupSpec> {
    (1usize..12, 1usize..8, 0usize..3).prop_flat_map(move |(nv, nuv, skins)| {
        let bone = if bones == 0 {
            Just(0xFFFFu16).boxed()
        } else {
            (0..bones as u16).boxed()
        };
        let tri = (
            [0..nv as u16, 0..nv as u16, 0..nv as u16],
            [0..nuv as u16, 0..nuv as u16, 0..nuv as u16],
            -1i32..3,
        );
        let frame = (
            "[a-z]{1,8}",
            prop::collection::vec((0..nv as u16, [coord(), coord(), coord()]), 0..4),
            prop::collection::vec(
                (0..bones.max(1) as u16, coord())
                    .prop_map(|(b, t)| (b, Mat4::from_translation(Vec3::new(t, 0.0, 0.0)))),
                0..=bones.min(3),
            ),
        );
        (
            prop::collection::vec([0.0f32..1.0, 0.0f32..1.0], nuv),
            prop::collection::vec(tri, 1..10),
            prop::collection::vec(([coord(), coord(), coord()], bone), nv),
            prop::collection::vec(frame, 0..4),
            prop::collection::vec(
                (
                    0..bones.max(1) as i32,
                    prop::collection::vec((0..nv as i32, 0.1f32..1.0), 1..4),
                ),
                0..(bones.min(2) + 1),
            ),
        )
            .prop_map(move |(uvs, tris, verts, frames, weights)| GroupSpec {
                skins,
                uvs,
                tris,
                verts,
                frames,
                weights: if bones == 0 { Vec::new() } else { weights },
            })
    })
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        prop_oneof![Just(16u16), Just(36)],
        prop_oneof![Just(12u16), Just(16), Just(26)],
        prop_oneof![Just(16u16), Just(26)],
        0usize..4,
    )
        .prop_flat_map(|(bs, ts, vs, nb)| {
            (
                prop::collection::vec((any::<u16>(), [coord(), coord(), coord()]), nb),
                prop::collection::vec(group(nb), 1..3),
            )
                .prop_map(move |(bones, groups)| Spec {
                    sizes: (bs, ts, vs),
                    bones,
                    groups,
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn what_is_written_is_read(s in spec()) {
        let bytes = write(&s);
        let f = Mdl7File::parse(&bytes).unwrap();
        prop_assert_eq!(f.bones.len(), s.bones.len());
        prop_assert_eq!(f.groups.len(), s.groups.len());
        for (g, gs) in f.groups.iter().zip(&s.groups) {
            prop_assert_eq!(g.skins.len(), gs.skins);
            prop_assert_eq!(g.uvs.len(), gs.uvs.len());
            prop_assert_eq!(g.groupdata_size, 12345);
            for (t, (v, st, mat)) in g.triangles.iter().zip(&gs.tris) {
                prop_assert_eq!(&t.vertices, v);
                prop_assert_eq!(&t.uvs, st);
                let want = if s.sizes.1 >= 16 { u32::try_from(*mat).ok() } else { None };
                prop_assert_eq!(t.material, want);
                prop_assert_eq!(t.second, None);
            }
            for (v, (p, bone)) in g.vertices.iter().zip(&gs.verts) {
                prop_assert_eq!(v.position, Vec3::from_array(*p));
                prop_assert_eq!(v.bone, (*bone != 0xFFFF).then_some(*bone));
            }
            prop_assert_eq!(g.frames.len(), gs.frames.len());
            for (fr, (name, fv, bt)) in g.frames.iter().zip(&gs.frames) {
                prop_assert_eq!(&fr.name(), name);
                prop_assert_eq!(fr.vertices.len(), fv.len());
                prop_assert_eq!(fr.bone_transforms.len(), bt.len());
                for (a, (b, m)) in fr.bone_transforms.iter().zip(bt) {
                    prop_assert_eq!(a.bone, *b);
                    prop_assert_eq!(a.matrix, *m);
                }
            }
        }
        let deformers = s.groups.iter().filter(|g| !g.weights.is_empty()).count();
        prop_assert_eq!(f.deformers.len(), deformers);
        // Every part is a consistent model, every triangle is in one part.
        let parts = f.parts();
        let tris: usize = parts.iter().map(|p| p.model.triangles.len()).sum();
        prop_assert_eq!(tris, f.triangle_count());
        for p in &parts {
            prop_assert!(p.model.check().is_ok());
        }
    }

    #[test]
    fn a_cut_file_is_refused_with_a_typed_error(s in spec(), cut in 0.0f64..1.0) {
        let bytes = write(&s);
        let n = (bytes.len() as f64 * cut) as usize;
        // Cutting may only end inside the deformers when the last group has none: then the cut
        // file is a shorter valid one. Otherwise it must be refused.
        if let Err(e) = Mdl7File::parse(&bytes[..n]) {
            prop_assert!(e.offset <= n, "{e}");
        }
    }
}

#[test]
fn record_sizes_below_the_fields_read_are_refused() {
    let s = Spec {
        sizes: (36, 26, 26),
        bones: vec![],
        groups: vec![],
    };
    let mut b = write(&s);
    b[38..40].copy_from_slice(&10u16.to_le_bytes());
    let e = Mdl7File::parse(&b).unwrap_err();
    assert_eq!(e.field, "header.md7_triangle_stc_size");
    assert_eq!(e.offset, 38);
    assert!(e.to_string().contains("smaller"), "{e}");
}

#[test]
fn external_skins_resolve_through_the_caller_and_fall_back_to_the_material() {
    // One group with a type-7 skin naming a file, nothing else.
    let mut b = write(&Spec {
        sizes: (36, 16, 26),
        bones: vec![],
        groups: vec![GroupSpec {
            skins: 0,
            uvs: vec![[0.0, 0.0]],
            tris: vec![([0, 0, 0], [0, 0, 0], 0)],
            verts: vec![([0.0; 3], 0xFFFF)],
            frames: vec![],
            weights: vec![],
        }],
    });
    // Insert the skin after the group header (48 header + 44), and set numskins = 1.
    let at = 48 + 44;
    let mut skin = vec![7u8, 0, 0, 0];
    skin.extend(8i32.to_le_bytes());
    skin.extend(0i32.to_le_bytes());
    skin.extend([0u8; 16]);
    skin.extend(b"SKIN.PNG");
    b.splice(at..at, skin);
    b[48 + 24..48 + 28].copy_from_slice(&1i32.to_le_bytes());
    let f = Mdl7File::parse(&b).unwrap();
    assert_eq!(
        f.groups[0].skins[0].source,
        SkinSource::External("SKIN.PNG".into())
    );
    let mut png = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut png, 2, 1);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().unwrap();
        w.write_image_data(&[255, 0, 0, 255, 0, 0, 255, 128])
            .unwrap();
    }
    let mut found = f.clone();
    let problems = found.resolve_skins(&mut |n| (n == "SKIN.PNG").then(|| png.clone()));
    assert!(problems.is_empty());
    let s = &found.groups[0].skins[0].skin;
    assert_eq!((s.width, s.height), (2, 1));
    assert_eq!(s.rgba, [255, 0, 0, 255, 0, 0, 255, 128]);
    let mut missing = f.clone();
    let problems = missing.resolve_skins(&mut |_| None);
    assert_eq!(problems, ["skin file SKIN.PNG not found"]);
    let s = &missing.groups[0].skins[0].skin;
    assert_eq!(
        (s.width, s.height, &s.rgba[..]),
        (1, 1, &[128, 128, 128, 255][..])
    );
}

/// A bar of 5 segments along +X on two bones: bone 1 (the outer half) turns 60 degrees about
/// the joint at x = 40 in frame 1. Two groups: the inner half (red skin) and the outer (green).
fn bent_bar() -> Vec<u8> {
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

fn render_frame(file: &Mdl7File, frame: f32) -> (IndexedFrame, Palette) {
    let (w, h) = (160, 120);
    let palette = Palette::quake();
    let mut renderer = Renderer::new(&palette);
    let parts = file.parts();
    // Frame the inner half's rest pose, moved to the joint.
    let rest = &parts[0].model;
    let camera = framing_camera(rest, 0, 60.0, 30.0, w, h);
    let mut camera = camera;
    // Centre on the joint, far enough out for the bent half.
    let shift = Vec3::new(40.0, 0.0, 0.0) - camera.target;
    camera.target += shift;
    camera.eye = camera.target + (camera.eye + shift - camera.target) * 1.8;
    renderer.light = Light::over_shoulder(&camera, 0.35, 1.3);
    let mut target = IndexedFrame::new(w, h);
    target.fill(IndexedFrame::flat([0, 0, 0], renderer.palette()));
    let mut depth = DepthBuffer::new(w, h);
    let entity = Entity {
        frame,
        ..Entity::default()
    };
    for p in &parts {
        let prepared = renderer.prepare(&p.model);
        renderer
            .draw(&mut target, &mut depth, &camera, &prepared, &entity)
            .unwrap();
    }
    (target, palette)
}

#[test]
fn bent_bar_golden_renders() {
    let file = Mdl7File::parse(&bent_bar()).unwrap();
    assert_eq!(file.parts().len(), 2);
    let golden = Golden::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        "modex-raster",
    );
    for (name, frame) in [
        ("mdl7-bar-rest_8.png", 0.0),
        ("mdl7-bar-bent_8.png", 1.0),
        ("mdl7-bar-half_8.png", 0.5),
    ] {
        let (img, pal) = render_frame(&file, frame);
        golden
            .check_indexed(name, &img, &pal)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // The bend moves the outer bar's far end off the X axis: by 40 sin 60 in y.
    let pose = modex_raster::mdl7::pose_group(&file, 1, Some(1));
    let far = pose.positions[4];
    let (sin, cos) = 60f32.to_radians().sin_cos();
    let want = Vec3::new(40.0 + 40.0 * cos + 5.0 * sin, 40.0 * sin - 5.0 * cos, -5.0);
    assert!(far.distance(want) < 1e-3, "{far} vs {want}");
}

#[test]
fn a_corner_without_a_skin_vertex_is_drawn_at_texel_0_0() {
    // 2 of 800 published MDL7 files hold st_index 0xFFFF in a triangle; the engine loads them.
    let mut spec_file = bent_bar();
    let plain = Mdl7File::parse(&spec_file).unwrap();
    // The first triangle of group 0 starts after the header, the bones, the group header, its
    // one 2x2 565 skin and its UVs: patch its st_index[0].
    let g = &plain.groups[0];
    let first_tri = g.offset + 44 + (12 + 16 + 8) + g.uvs.len() * 8;
    assert_eq!(
        u16::from_le_bytes([spec_file[first_tri + 6], spec_file[first_tri + 7]]),
        plain.groups[0].triangles[0].uvs[0]
    );
    spec_file[first_tri + 6..first_tri + 8].copy_from_slice(&0xFFFFu16.to_le_bytes());
    let f = Mdl7File::parse(&spec_file).expect("0xFFFF skin-vertex indices load");
    assert_eq!(
        f.groups[0].triangles[0].uvs[0],
        modex_raster::mdl7::NO_SKIN_VERTEX
    );
    let part = &f.parts()[0].model;
    assert!(part.check().is_ok());
    // Corner 0 keeps its place when the winding turns (corners 1 and 2 swap).
    let uv = part.uvs[part.triangles[0].uvs[0] as usize];
    assert_eq!(uv, glam::Vec2::ZERO);
    assert_eq!(
        part.uvs.len(),
        g.uvs.len() + 1,
        "one extra UV at texel (0, 0)"
    );
    // The other corners keep their own UVs.
    assert_eq!(
        part.uvs[part.triangles[0].uvs[1] as usize],
        g.uvs[g.triangles[0].uvs[2] as usize]
    );
}
