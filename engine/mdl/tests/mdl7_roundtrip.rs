//! MDL7 through the test writer that follows the measured layout (`modex_testkit::mdl7`): property
//! tests that what is written is read (for every record-size variant seen in real files), that any
//! cut file is refused with a typed error, skins, and skin-vertex indices that name no skin vertex.

use glam::{Mat4, Vec3};
use modex_mdl::mdl7::{Mdl7File, SkinSource};
use modex_testkit::mdl7::{bent_bar, write, GroupSpec, Spec};
use proptest::prelude::*;

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
        modex_mdl::mdl7::NO_SKIN_VERTEX
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
