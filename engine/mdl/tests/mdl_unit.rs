//! MDL loader rules on small files built in code (see `mdl_writer`).

mod mdl_writer;

use glam::{Vec2, Vec3};
use mdl_writer::{TestFrame, TestModel, TestSkin};
use modex::{ErrorKind, Palette};
use modex_mdl::mdl::{MdlFile, MdlVersion, VertexPacking};
use modex_mdl::normals::mdl_normal;
use modex_mdl::SkinPixels;

fn parse(m: &TestModel) -> MdlFile {
    MdlFile::parse(&m.write()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn positions_are_scale_times_raw_plus_offset_for_every_version() {
    for magic in [b"MDL2", b"MDL3", b"MDL4", b"MDL5"] {
        let t = TestModel::tetrahedron(magic, 3);
        let f = parse(&t);
        assert_eq!(f.version().as_str().as_bytes(), magic);
        assert_eq!(f.model.frames.len(), 3);
        let scale = Vec3::from(t.scale);
        let offset = Vec3::from(t.offset);
        for (fr, tf) in f.model.frames.iter().zip(&t.frames) {
            for (p, (raw, _)) in fr.positions.iter().zip(&tf.verts) {
                let raw = Vec3::new(raw[0] as f32, raw[1] as f32, raw[2] as f32);
                assert_eq!(*p, scale * raw + offset, "{}", f.version());
            }
        }
        let packing = f.frames[0].packing;
        let expected = if matches!(f.version(), MdlVersion::Mdl2 | MdlVersion::Mdl3) {
            VertexPacking::Byte
        } else {
            VertexPacking::Word
        };
        assert_eq!(packing, expected);
        assert_eq!(f.header.bounding_radius, 12.5);
    }
}

#[test]
fn normals_come_from_the_162_table_turned_to_point_out_and_large_indices_are_clamped() {
    let mut t = TestModel::tetrahedron(b"MDL4", 1);
    t.frames[0].verts[3].1 = 200;
    let f = parse(&t);
    let fr = &f.model.frames[0];
    // The file's normals point in (+Z, -X, -Y at the corners at the origin, +X and +Y); read,
    // they point out: the opposite table entries (-Z, +X, +Y). Index 200 clamps to 161 first,
    // whose opposite is entry 47.
    assert_eq!(fr.normal_indices.as_deref(), Some(&[84u8, 52, 32, 47][..]));
    assert_eq!(fr.normals[1], Vec3::from(mdl_normal(52)));
    assert_eq!(fr.normals[3], Vec3::from(mdl_normal(47)));
    assert_eq!(mdl_normal(47).map(|c| -c), mdl_normal(161));
    assert_eq!(f.clamped_normals, 1);
}

#[test]
fn frame_names_stop_at_nul_and_decode_lossily() {
    let mut t = TestModel::tetrahedron(b"MDL3", 2);
    t.frames[0].name = *b"run1\0\xff\xfegarbage!!";
    t.frames[1].name = *b"l\xe4uft\0\0\0\0\0\0\0\0\0\0\0";
    let f = parse(&t);
    assert_eq!(f.model.frames[0].name, "run1");
    assert_eq!(f.model.frames[1].name, "l\u{fffd}uft");
}

#[test]
fn mdl3_is_byte_packed_whatever_the_frame_type_says() {
    let mut t = TestModel::tetrahedron(b"MDL3", 1);
    t.frames[0].kind = 2; // the writer still writes bytes for MDL3
    let f = parse(&t);
    assert_eq!(f.frames[0].packing, VertexPacking::Byte);
}

#[test]
fn mdl4_frames_may_mix_byte_and_word_packing() {
    let mut t = TestModel::tetrahedron(b"MDL4", 2);
    t.frames[1] = TestFrame::new("b", 0, vec![([1, 2, 3], 0); 4]);
    let f = parse(&t);
    assert_eq!(f.frames[0].packing, VertexPacking::Word);
    assert_eq!(f.frames[1].packing, VertexPacking::Byte);
    assert_eq!(
        f.model.frames[1].positions[0],
        Vec3::new(0.5, 0.5, 6.0) + Vec3::new(-1.0, 2.0, 3.0)
    );
}

#[test]
fn uvs_are_pixels_over_skin_size_and_negative_ones_are_kept() {
    let f = parse(&TestModel::tetrahedron(b"MDL4", 1));
    assert_eq!(f.uv_size, (8, 8));
    assert_eq!(
        f.model.uvs,
        vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(-0.25, 1.125)
        ]
    );
    assert_eq!(f.model.triangles[0].vertices, [0, 2, 1]);
    assert_eq!(f.model.triangles[0].uvs, [0, 2, 1]);
}

#[test]
fn mdl5_skins_carry_their_own_size_and_uvs_use_skin_0() {
    let mut t = TestModel::tetrahedron(b"MDL5", 1);
    t.skins = vec![
        TestSkin::image(5 + 8, 16, 8),
        TestSkin::image(4, 4, 4),
        TestSkin::image(3 + 8, 8, 8),
    ];
    let f = parse(&t);
    let sizes: Vec<_> = f
        .model
        .skins
        .iter()
        .map(|s| (s.kind, s.width, s.height, s.has_mipmaps))
        .collect();
    assert_eq!(sizes, [(5, 16, 8, true), (4, 4, 4, false), (3, 8, 8, true)]);
    assert_eq!(f.uv_size, (16, 8));
    assert_eq!(f.model.uvs[1], Vec2::new(0.5, 0.0));
    // 8888 stored B G R A.
    let d = &t.skins[0].data;
    assert_eq!(&f.model.skins[0].rgba[..4], &[d[2], d[1], d[0], d[3]]);
    assert_eq!(f.skins[0].raw_type, 13);
}

#[test]
fn mdl5_dds_skins_are_kept_as_bytes() {
    let mut t = TestModel::tetrahedron(b"MDL5", 1);
    let mut dds = vec![0u8; 140];
    dds[..4].copy_from_slice(b"DDS ");
    dds[12..16].copy_from_slice(&4u32.to_le_bytes());
    dds[16..20].copy_from_slice(&8u32.to_le_bytes());
    t.skins = vec![
        TestSkin {
            kind: 6,
            width: dds.len() as i32,
            height: 1,
            data: dds.clone(),
        },
        TestSkin::image(2, 8, 8),
    ];
    let f = parse(&t);
    assert_eq!(f.model.skins[0].pixels, SkinPixels::Dds(dds.into()));
    assert_eq!((f.model.skins[0].width, f.model.skins[0].height), (8, 4));
    assert!(f.model.skins[0].rgba.is_empty());
    // UVs fall back to the first skin with a size.
    assert_eq!(f.uv_size, (8, 4));
}

#[test]
fn eight_bit_skins_keep_indices_and_take_any_palette() {
    let mut t = TestModel::tetrahedron(b"MDL3", 1);
    t.skins = vec![TestSkin::image(0, 8, 8)];
    let bytes = t.write();
    let f = MdlFile::parse(&bytes).unwrap();
    let SkinPixels::Indexed(idx) = &f.model.skins[0].pixels else {
        panic!()
    };
    assert_eq!(&idx[..], &t.skins[0].data[..]);
    assert_eq!(&f.model.skins[0].rgba[..4], &Palette::quake().rgba(idx[0]));
    let grey = MdlFile::parse_with_palette(&bytes, &Palette::grey_ramp()).unwrap();
    assert_eq!(
        &grey.model.skins[0].rgba[..4],
        &[idx[0], idx[0], idx[0], 255]
    );
    assert_eq!(
        f.model.skins[0].rgba_with_palette(&Palette::grey_ramp()),
        grey.model.skins[0].rgba
    );
}

#[test]
fn mdl2_uses_quake_skin_vertices_and_the_seam_rule() {
    let t = TestModel::tetrahedron(b"MDL2", 1);
    let f = parse(&t);
    assert_eq!(f.skin_vertices.len(), 4);
    // Triangle 1 faces back and uses vertex 1, which is on the seam: its UV moves right by half
    // the skin width and is appended after the per-vertex UVs.
    let tri = f.model.triangles[1];
    assert_eq!(tri.vertices, [0, 1, 3]);
    assert_eq!(tri.uvs, [0, 4, 3]);
    assert_eq!(f.model.uvs[4], Vec2::new((8.0 + 4.0) / 8.0, 0.0));
    // Front-facing triangles use the vertex's own UV even on the seam.
    assert_eq!(f.model.triangles[2].uvs, [1, 2, 3]);
}

#[test]
fn quake_idpo_models_load_with_8bit_skins() {
    let mut t = TestModel::tetrahedron(b"IDPO", 1);
    t.skins = vec![TestSkin::image(0, 8, 8)];
    let f = parse(&t);
    assert_eq!(f.version(), MdlVersion::Quake);
    assert_eq!(f.model.skins.len(), 1);
    assert_eq!(f.model.skins[0].kind, 0);
}

#[test]
fn gamestudio_idpo_files_with_a_gamestudio_skin_type_load_as_that_type() {
    // MED writes IDPO v6 with the skin type where Quake has its group flag.
    for kind in [2u32, 3, 4, 5, 2 + 8, 5 + 8] {
        let mut t = TestModel::tetrahedron(b"IDPO", 2);
        t.skins = vec![TestSkin::image(kind, 8, 8), TestSkin::image(kind, 8, 8)];
        let f = parse(&t);
        assert_eq!(f.version(), MdlVersion::Quake);
        assert_eq!(f.model.skins.len(), 2, "type {kind}");
        assert_eq!(f.model.skins[0].kind, kind & 7);
        assert_eq!(f.model.skins[0].has_mipmaps, kind & 8 != 0);
        assert_eq!(f.model.skins[1].rgba.len(), 8 * 8 * 4);
        assert_eq!(f.model.triangles.len(), 4);
        assert_eq!(f.model.frames.len(), 2);
    }
    // Quake's own values keep their meaning: 1 is a group (count, intervals, images).
    let mut t = TestModel::tetrahedron(b"IDPO", 1);
    let mut group = TestSkin::image(0, 8, 8);
    group.kind = 1;
    let mut data = 2i32.to_le_bytes().to_vec();
    data.extend(0.1f32.to_le_bytes());
    data.extend(0.2f32.to_le_bytes());
    data.extend(vec![7u8; 128]);
    group.data = data;
    t.skins = vec![group];
    let f = parse(&t);
    assert_eq!(f.model.skins.len(), 2);
    assert!(f.model.skins.iter().all(|s| s.kind == 0));
}

#[test]
fn models_without_skin_vertices_get_one_uv() {
    let mut t = TestModel::tetrahedron(b"MDL4", 1);
    t.skin_verts.clear();
    t.tris.iter_mut().for_each(|(_, uv)| *uv = [7, -3, 99]);
    let f = parse(&t);
    assert_eq!(f.model.uvs, vec![Vec2::ZERO]);
    assert!(f.model.triangles.iter().all(|t| t.uvs == [0, 0, 0]));
}

// ---- bad input: typed errors naming field and offset ----

#[test]
fn mdl7_and_unknown_magics_are_refused_clearly() {
    let mut b = TestModel::tetrahedron(b"MDL4", 1).write();
    b[..4].copy_from_slice(b"MDL7");
    let e = MdlFile::parse(&b).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Unsupported(_)));
    assert!(e.to_string().contains("MDL7"), "{e}");
    b[..4].copy_from_slice(b"MDL9");
    assert!(matches!(
        MdlFile::parse(&b).unwrap_err().kind,
        ErrorKind::Unsupported(_)
    ));
    b[..4].copy_from_slice(b"RIFF");
    let e = MdlFile::parse(&b).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::BadMagic { .. }));
    assert_eq!((e.field.as_str(), e.offset), ("header.version", 0));
    assert!(MdlFile::parse(b"MD").is_err());
}

#[test]
fn triangle_vertex_index_out_of_range_names_the_triangle() {
    let mut t = TestModel::tetrahedron(b"MDL4", 1);
    t.tris[2].0[1] = 4;
    let bytes = t.write();
    let e = MdlFile::parse(&bytes).unwrap_err();
    assert_eq!(e.field, "triangle[2].index_xyz[1]");
    let tri_base = 84 + 4 + 128 + 4 * 4;
    assert_eq!(e.offset, tri_base + 2 * 12 + 2);
    assert_eq!(
        e.kind,
        ErrorKind::OutOfRange {
            value: 4,
            min: 0,
            max: 3
        }
    );
    t.tris[2].0[1] = -1;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::OutOfRange { value: -1, .. }));
}

#[test]
fn triangle_uv_index_out_of_range_names_the_triangle() {
    let mut t = TestModel::tetrahedron(b"MDL5", 1);
    t.tris[3].1[2] = 40;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!(e.field, "triangle[3].index_uv[2]");
    assert_eq!(
        e.kind,
        ErrorKind::OutOfRange {
            value: 40,
            min: 0,
            max: 3
        }
    );
}

#[test]
fn mdl2_triangle_index_out_of_range_is_refused() {
    let mut t = TestModel::tetrahedron(b"MDL2", 1);
    t.tris[0].0[0] = 77;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!(e.field, "triangle[0].vertex[0]");
}

#[test]
fn counts_the_file_cannot_hold_are_refused_before_allocating() {
    for (field_offset, field) in [
        (48, "header.numskins"),
        (60, "header.numverts"),
        (64, "header.numtris"),
        (68, "header.numframes"),
        (72, "header.numskinverts"),
    ] {
        let mut b = TestModel::tetrahedron(b"MDL4", 1).write();
        b[field_offset..field_offset + 4].copy_from_slice(&0x7fff_ffffi32.to_le_bytes());
        let e = MdlFile::parse(&b).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{field}: {e}");
        assert_eq!(e.field, field);
        b[field_offset..field_offset + 4].copy_from_slice(&(-5i32).to_le_bytes());
        let e = MdlFile::parse(&b).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::OutOfRange { value: -5, .. }),
            "{field}: {e}"
        );
    }
}

#[test]
fn zero_and_absurd_skin_sizes_are_refused() {
    let mut t = TestModel::tetrahedron(b"MDL5", 1);
    t.skins[0].width = 0;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!(e.field, "skin[0].width");
    let mut t = TestModel::tetrahedron(b"MDL4", 1);
    t.skin_width = 100_000;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!(e.field, "skin[0].width");
    let mut t = TestModel::tetrahedron(b"MDL5", 1);
    t.skins[0].width = 4096;
    t.skins[0].height = 4096;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{e}");
    assert_eq!(e.offset, 84 + 12);
}

#[test]
fn unknown_skin_and_frame_types_are_refused() {
    let mut t = TestModel::tetrahedron(b"MDL4", 1);
    t.skins[0].kind = 1;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!(e.field, "skin[0].type");
    let mut t = TestModel::tetrahedron(b"MDL4", 1);
    t.skins[0].kind = 6;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{e}");
    let mut t = TestModel::tetrahedron(b"MDL4", 2);
    t.frames[1].kind = 5;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!(e.field, "frame[1].type");
}

#[test]
fn every_truncation_is_an_error_never_a_panic() {
    for magic in [b"MDL2", b"MDL3", b"MDL4", b"MDL5"] {
        let bytes = TestModel::tetrahedron(magic, 2).write();
        assert!(MdlFile::parse(&bytes).is_ok());
        for len in 0..bytes.len() {
            let e = MdlFile::parse(&bytes[..len]).unwrap_err();
            assert!(e.offset <= len, "{e}");
        }
    }
}

#[test]
fn non_finite_scale_is_refused() {
    let mut t = TestModel::tetrahedron(b"MDL4", 1);
    t.scale[1] = f32::INFINITY;
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!(e.field, "header.scale");
}

/// Found by the `mdl` fuzz target (a mutated MDL5 with `numframes = 0`): triangles indexed vertices
/// that no frame held. A model without frames is now refused.
#[test]
fn fuzz_regression_model_without_frames_is_refused() {
    let t = TestModel::tetrahedron(b"MDL5", 0);
    let e = MdlFile::parse(&t.write()).unwrap_err();
    assert_eq!((e.field.as_str(), e.offset), ("header.numframes", 68));
}

/// Found by the `mdl` fuzz target (a mutated MDL2): a seam vertex's `s` near `i32::MAX` overflowed
/// when moved by half the skin width for a back-facing triangle. It saturates now.
#[test]
fn fuzz_regression_seam_shift_of_a_huge_s_does_not_overflow() {
    let mut b = TestModel::tetrahedron(b"MDL2", 1).write();
    // Skin vertex 1 (on the seam, used by back-facing triangle 1): after the header, the 8x8
    // 565 skin (4 + 128 bytes) and skin vertex 0 (12 bytes), then `onseam`, `s`.
    let at = 84 + 4 + 128 + 12 + 4;
    b[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    let f = MdlFile::parse(&b).unwrap();
    assert_eq!(f.model.uvs[4].x, i32::MAX as f32 / 8.0);
}

/// Found by the proptest on mutated IDPO files: a Quake frame group of zero frames left a model
/// without frames. Empty groups are refused.
#[test]
fn quake_frame_group_of_zero_frames_is_refused() {
    let mut b = TestModel::tetrahedron(b"MDL2", 1).write();
    // The first frame starts after header, skin (4 + 128), skin vertices (4 * 12), triangles
    // (4 * 16). Make it a group (type 1) of count 0.
    let at = 84 + 4 + 128 + 48 + 64;
    b[at..at + 4].copy_from_slice(&1i32.to_le_bytes());
    b[at + 4..at + 8].copy_from_slice(&0i32.to_le_bytes());
    let e = MdlFile::parse(&b).unwrap_err();
    assert_eq!((e.field.as_str(), e.offset), ("frame[0].count", at + 4));
}

#[test]
fn quake_frame_groups_are_flattened() {
    let t = TestModel::tetrahedron(b"MDL2", 1);
    let mut b = t.write();
    let at = 84 + 4 + 128 + 48 + 64;
    // Rewrite the single frame as a group of two: type, count, bbox, 2 intervals, 2 frames.
    let single = b[at + 4..].to_vec(); // bbox min, max, name, verts
    b.truncate(at);
    b.extend_from_slice(&1i32.to_le_bytes());
    b.extend_from_slice(&2i32.to_le_bytes());
    b.extend_from_slice(&single[..8]);
    b.extend_from_slice(&0.1f32.to_le_bytes());
    b.extend_from_slice(&0.2f32.to_le_bytes());
    b.extend_from_slice(&single);
    b.extend_from_slice(&single);
    let f = MdlFile::parse(&b).unwrap();
    assert_eq!(f.model.frames.len(), 2);
    assert_eq!(f.frames[1].group, Some(0));
    assert_eq!(f.model.frames[0], f.model.frames[1]);
}
