//! Property tests: random, truncated and mutated byte strings never panic the MDL and HMP loaders,
//! whatever they decode is consistent, and written models read back exactly.

mod mdl_writer;

use glam::Vec3;
use mdl_writer::{hmp_skin, TestFrame, TestModel, TestTerrain};
use modex_mdl::facing::{opposite_normal_indices, Orientation};
use modex_mdl::hmp::HmpFile;
use modex_mdl::mdl::MdlFile;
use modex_mdl::normals::mdl_normal;
use modex_mdl::Model;
use proptest::prelude::*;

fn consistent(m: &Model) {
    if let Err(e) = m.check() {
        panic!("decoded model is inconsistent: {e}");
    }
}

fn check_bytes(b: &[u8]) {
    if let Ok(f) = MdlFile::parse(b) {
        consistent(&f.model);
    }
    if let Ok(f) = HmpFile::parse(b) {
        consistent(&f.model);
        assert_eq!(f.model.vertex_count(), f.columns * f.rows);
    }
}

fn seeds() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [b"MDL2", b"MDL3", b"MDL4", b"MDL5", b"IDPO"]
        .iter()
        .map(|m| {
            let mut t = TestModel::tetrahedron(m, 2);
            if *m == b"IDPO" {
                t.skins = vec![mdl_writer::TestSkin::image(0, 8, 8)];
            }
            t.write()
        })
        .collect();
    let mut t = TestTerrain::grid(3, 3);
    t.skins = vec![hmp_skin(7, 5, 1, b"a.bmp"), hmp_skin(2, 2, 2, &[1; 8])];
    v.push(t.write());
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(mut b in proptest::collection::vec(any::<u8>(), 0..400), magic in 0usize..7) {
        // Give half the inputs a real magic so the parsers get past the first check.
        let magics: [&[u8; 4]; 7] = [b"MDL2", b"MDL3", b"MDL4", b"MDL5", b"IDPO", b"HMP7", b"HMP5"];
        if b.len() >= 4 && b[0] & 1 == 0 {
            b[..4].copy_from_slice(magics[magic]);
        }
        check_bytes(&b);
    }

    #[test]
    fn mutated_valid_files_never_panic(
        seed in 0usize..6,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut b = seeds()[seed].clone();
        for (at, v) in edits {
            let i = at.index(b.len());
            b[i] = v;
        }
        if truncate {
            b.truncate(cut.index(b.len()));
        }
        check_bytes(&b);
    }

    #[test]
    fn written_models_read_back_exactly(
        word in any::<bool>(),
        verts in proptest::collection::vec(([any::<u16>(), any::<u16>(), any::<u16>()], 0u8..162), 4..20),
        frames in 1usize..4,
        scale in proptest::array::uniform3(-4.0f32..4.0),
        offset in proptest::array::uniform3(-100.0f32..100.0),
        name in "[a-z]{1,12}",
    ) {
        let magic = if word { b"MDL4" } else { b"MDL3" };
        let mut t = TestModel::tetrahedron(magic, 1);
        let verts: Vec<_> = verts
            .into_iter()
            .map(|(p, n)| if word { (p, n) } else { (p.map(|c| c & 0xff), n) })
            .collect();
        t.num_verts = verts.len() as i32;
        t.scale = scale;
        t.offset = offset;
        t.frames = (0..frames)
            .map(|i| TestFrame::new(&format!("{name}{i}"), if word { 2 } else { 0 }, verts.clone()))
            .collect();
        let f = MdlFile::parse(&t.write()).unwrap();
        prop_assert_eq!(f.model.frames.len(), frames);
        // The triangles come back reversed; the normals come back as stored, or all turned round
        // when most of them point to the backs of those triangles in frame 0 (`facing`).
        for (read, (v, st)) in f.model.triangles.iter().zip(&t.tris) {
            prop_assert_eq!(read.to_file(), (v.map(|i| i as u32), st.map(|i| i as u32)));
        }
        let stored: Vec<Vec3> = verts.iter().map(|&(_, n)| Vec3::from(mdl_normal(n as usize))).collect();
        let turned = Orientation::count(
            &f.model.frames[0].positions,
            &stored,
            f.model.triangles.iter().map(|t| t.vertices.map(|i| i as usize)),
        )
        .points_back();
        let opposite = opposite_normal_indices();
        for (i, fr) in f.model.frames.iter().enumerate() {
            prop_assert_eq!(&fr.name, &format!("{name}{i}"));
            for (k, (raw, n)) in verts.iter().enumerate() {
                let raw = Vec3::new(raw[0] as f32, raw[1] as f32, raw[2] as f32);
                prop_assert_eq!(fr.positions[k], Vec3::from(scale) * raw + Vec3::from(offset));
                let expect = if turned { opposite[*n as usize] } else { *n };
                prop_assert_eq!(fr.normal_indices.as_ref().unwrap()[k], expect);
                prop_assert_eq!(fr.normals[k], Vec3::from(mdl_normal(expect as usize)));
            }
        }
    }
}
