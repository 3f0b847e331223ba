//! HMP loader rules on small terrains built in code (see `mdl_writer`).

mod mdl_writer;

use glam::{Vec2, Vec3};
use mdl_writer::{hmp_skin, put_f32, put_i32, TestTerrain};
use modex::ErrorKind;
use modex_mdl::hmp::{HmpFile, HmpVersion};
use modex_mdl::normals::mdl_normal;
use modex_mdl::SkinPixels;

fn parse(t: &TestTerrain) -> HmpFile {
    HmpFile::parse(&t.write()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn grid_geometry_uses_cell_size_scale_and_offset() {
    let t = TestTerrain::grid(4, 3);
    let f = parse(&t);
    assert_eq!(f.header.version, HmpVersion::Hmp7);
    assert_eq!((f.columns, f.rows), (4, 3));
    let fr = &f.model.frames[0];
    assert_eq!(fr.positions.len(), 12);
    for row in 0..3 {
        for col in 0..4 {
            let p = fr.positions[row * 4 + col];
            let raw = (10 * col + row) as f32;
            assert_eq!(
                p,
                Vec3::new(
                    -100.0 + 8.0 * col as f32,
                    -50.0 + 4.0 * row as f32,
                    0.5 * raw - 4.0
                )
            );
        }
    }
    assert_eq!(f.heights[5], 11);
}

#[test]
fn two_counter_clockwise_triangles_per_cell_seen_from_above() {
    let f = parse(&TestTerrain::grid(5, 4));
    let m = &f.model;
    assert_eq!(m.triangles.len(), 2 * 4 * 3);
    let fr = &m.frames[0];
    for t in &m.triangles {
        let [a, b, c] = t.vertices.map(|v| fr.positions[v as usize]);
        assert!((b - a).cross(c - a).z > 0.0, "{t:?}");
        assert_eq!(t.uvs, t.vertices);
    }
    // Every cell is covered exactly once: the triangles' xy areas add up to the grid's.
    let area: f32 = m
        .triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.vertices.map(|v| fr.positions[v as usize].truncate());
            (b - a).perp_dot(c - a) / 2.0
        })
        .sum();
    assert_eq!(area, (4.0 * 8.0) * (3.0 * 4.0));
}

#[test]
fn uvs_span_the_skin_with_row_0_at_the_top() {
    let f = parse(&TestTerrain::grid(5, 3));
    let uv = &f.model.uvs;
    assert_eq!(uv[0], Vec2::ZERO);
    assert_eq!(uv[4], Vec2::new(1.0, 0.0));
    assert_eq!(uv[14], Vec2::new(1.0, 1.0));
    assert_eq!(uv[7], Vec2::new(0.5, 0.5));
}

#[test]
fn hmp7_normals_are_two_signed_bytes_with_x_negated() {
    let mut t = TestTerrain::grid(2, 2);
    t.verts[0].1 = 0;
    t.verts[1] = (0, 64, 0); // nx = +64
    t.verts[2] = (0, 0, (-64i8) as u8); // ny = -64
    t.verts[3] = (0, 127, 0);
    let f = parse(&t);
    let n = &f.model.frames[0].normals;
    assert_eq!(n[0], Vec3::Z);
    assert!(n[1].x < -0.49 && n[1].y == 0.0 && n[1].z > 0.8, "{}", n[1]);
    assert!(n[2].y < -0.49 && n[2].x == 0.0, "{}", n[2]);
    assert!((n[3] - Vec3::NEG_X).length() < 1e-6, "{}", n[3]);
    assert!(f.model.frames[0].normal_indices.is_none());
}

#[test]
fn hmp5_and_hmp4_normals_index_the_162_table() {
    for magic in [b"HMP5", b"HMP4"] {
        let mut t = TestTerrain::grid(2, 2);
        t.magic = *magic;
        t.verts[1].1 = 52;
        t.verts[2].1 = 250;
        let f = parse(&t);
        let fr = &f.model.frames[0];
        assert_eq!(fr.normal_indices.as_deref(), Some(&[0u8, 52, 161, 0][..]));
        assert_eq!(fr.normals[1], Vec3::from(mdl_normal(52)));
        assert_eq!(f.clamped_normals, 1);
    }
}

#[test]
fn skins_with_mdl7_style_flags() {
    let mut t = TestTerrain::grid(2, 2);
    let mut material = Vec::new();
    for k in 0..17 {
        put_f32(&mut material, k as f32 / 16.0);
    }
    let mut effect = Vec::new();
    put_i32(&mut effect, 6);
    effect.extend_from_slice(b"shiny\0");
    let px565 = vec![0x00, 0xf8, 0xe0, 0x07, 0x1f, 0x00, 0xff, 0xff];
    let mut dds = vec![0u8; 128];
    dds[..4].copy_from_slice(b"DDS ");
    t.skins = vec![
        // 565 2x2 with a material.
        hmp_skin(0x12, 2, 2, &[px565.clone(), material].concat()),
        // 888 8x8 with mipmaps and an effect.
        hmp_skin(
            0x2c,
            8,
            8,
            &[vec![9u8; 8 * 8 * 3 + (16 + 4 + 1) * 3], effect].concat(),
        ),
        hmp_skin(7, 9, 1, b"rock.tga\0"),
        hmp_skin(1, 0, 0, &[]), // reference to skin 0
        hmp_skin(6, 128, 1, &dds),
    ];
    let f = parse(&t);
    let s = &f.model.skins;
    assert_eq!(s.len(), 5);
    assert_eq!((s[0].kind, s[0].width, s[0].height), (2, 2, 2));
    assert_eq!(&s[0].rgba[..8], &[255, 0, 0, 255, 0, 255, 0, 255]);
    let mat = f.skins[0].material.unwrap();
    assert_eq!(mat.diffuse, [0.0, 1.0 / 16.0, 2.0 / 16.0, 3.0 / 16.0]);
    assert_eq!(mat.power, 1.0);
    assert!(s[1].has_mipmaps);
    assert_eq!(f.skins[1].effect.as_deref(), Some("shiny"));
    assert_eq!(s[2].pixels, SkinPixels::External("rock.tga".into()));
    assert_eq!(f.skins[2].external_name.as_deref(), Some("rock.tga"));
    assert_eq!(f.skins[3].reference, Some(0));
    assert_eq!(s[3], s[0]);
    assert_eq!(f.skins[4].dds_bytes, Some(128));
    assert!(matches!(s[4].pixels, SkinPixels::Dds(_)));
}

#[test]
fn bad_skins_are_refused_with_the_skin_named() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (hmp_skin(7, 0, 1, b"abc\0"), "skin[0].width"),
        (hmp_skin(1, 5, 0, &[]), "skin[0].reference"),
        (hmp_skin(1, 0, 0, &[]), "skin[0].reference"),
        (hmp_skin(0x42, 2, 2, &[0; 8]), "skin[0].type"),
        (hmp_skin(2, 0, 2, &[0; 8]), "skin[0].width"),
        (hmp_skin(2, -3, 2, &[0; 8]), "skin[0].width"),
        (hmp_skin(2, 4000, 4000, &[0; 8]), "skin[0].pixels"),
        (hmp_skin(6, 1 << 30, 1, &[0; 8]), "skin[0].dds"),
        (
            hmp_skin(0x22, 1, 1, &[0, 0xff, 0xff, 0xff, 0x7f]),
            "skin[0].effect",
        ),
    ];
    for (skin, field) in cases {
        let mut t = TestTerrain::grid(2, 2);
        t.skins = vec![skin];
        let e = HmpFile::parse(&t.write()).unwrap_err();
        assert_eq!(e.field, field, "{e}");
    }
}

#[test]
fn bad_grids_are_refused() {
    let mut t = TestTerrain::grid(4, 3);
    t.fnumverts_x = 2.5;
    assert_eq!(
        HmpFile::parse(&t.write()).unwrap_err().field,
        "header.fnumverts_x"
    );
    t.fnumverts_x = f32::NAN;
    assert_eq!(
        HmpFile::parse(&t.write()).unwrap_err().field,
        "header.fnumverts_x"
    );
    t.fnumverts_x = 5.0;
    assert_eq!(
        HmpFile::parse(&t.write()).unwrap_err().field,
        "header.numverts"
    );
    let mut t = TestTerrain::grid(4, 3);
    t.num_frames = 0;
    assert_eq!(
        HmpFile::parse(&t.write()).unwrap_err().field,
        "header.numframes"
    );
    let mut t = TestTerrain::grid(4, 3);
    t.num_verts = 0x7fff_fff0;
    t.fnumverts_x = 16.0;
    let e = HmpFile::parse(&t.write()).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{e}");
    let mut t = TestTerrain::grid(4, 3);
    t.trisize[0] = f32::INFINITY;
    assert_eq!(
        HmpFile::parse(&t.write()).unwrap_err().field,
        "header.ftrisize_x"
    );
}

#[test]
fn unknown_versions_and_magics_are_refused() {
    let mut b = TestTerrain::grid(2, 2).write();
    b[..4].copy_from_slice(b"HMP9");
    assert!(matches!(
        HmpFile::parse(&b).unwrap_err().kind,
        ErrorKind::Unsupported(_)
    ));
    b[..4].copy_from_slice(b"MDL5");
    assert!(matches!(
        HmpFile::parse(&b).unwrap_err().kind,
        ErrorKind::BadMagic { .. }
    ));
}

#[test]
fn every_truncation_is_an_error_never_a_panic() {
    let mut t = TestTerrain::grid(3, 3);
    t.skins = vec![hmp_skin(7, 5, 1, b"a.bmp"), hmp_skin(2, 2, 2, &[1; 8])];
    let bytes = t.write();
    assert!(HmpFile::parse(&bytes).is_ok());
    for len in 0..bytes.len() {
        let e = HmpFile::parse(&bytes[..len]).unwrap_err();
        assert!(e.offset <= len, "{e}");
    }
}
