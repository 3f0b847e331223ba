//! Property tests over random strips: whatever the writer is given, the decoder gives back every
//! vertex, the strip's triangles by the rules (odd ones swapped, degenerates dropped), and a
//! drawable model and OBJ.

use glam::{Vec2, Vec3};
use modex_mdl::facing::Orientation;
use modex_mdl::obj::encode_obj;
use modex_mdl::stories_mdl::{BoneWeight, Material, SkinInfo, Vertex};
use modex_mdl::stories_mdl_encode::{
    encode_prelight, encode_weight, encode_with, quantise_normal, quantise_position, quantise_uv,
    AtomicSpec, EncodeOptions, MeshSpec, StoriesSpec,
};
use modex_mdl::StoriesModel;
use proptest::prelude::*;

/// Which attributes an atomic's vertices carry.
#[derive(Debug, Clone, Copy)]
struct Attrs {
    normals: bool,
    prelight: bool,
    skin: bool,
}

fn vertex(attrs: Attrs) -> impl Strategy<Value = Vertex> {
    // Coarse values so equal neighbours (degenerates) happen often.
    (
        prop::array::uniform3(-4i8..=4),
        prop::array::uniform2(0u8..=8),
        prop::array::uniform3(-1i8..=1),
        any::<[u8; 4]>(),
        (0u8..64, 0u8..=4),
    )
        .prop_map(move |(p, uv, n, c, (bone, w))| Vertex {
            position: Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32) * 0.5,
            uv: Vec2::new(uv[0] as f32, uv[1] as f32) / 4.0,
            normal: attrs
                .normals
                .then(|| Vec3::new(n[0] as f32, n[1] as f32, n[2] as f32).normalize_or_zero()),
            prelight: attrs.prelight.then_some(c),
            weights: attrs.skin.then(|| {
                let weight = w as f32 / 4.0;
                [
                    BoneWeight {
                        bone: if weight == 0.0 { 0 } else { bone },
                        weight,
                    },
                    BoneWeight {
                        bone: 0,
                        weight: 0.0,
                    },
                    BoneWeight {
                        bone: 0,
                        weight: 0.0,
                    },
                    BoneWeight {
                        bone: 0,
                        weight: 0.0,
                    },
                ]
            }),
        })
}

fn atomic() -> impl Strategy<Value = AtomicSpec> {
    (any::<bool>(), any::<bool>(), any::<bool>(), 1usize..4)
        .prop_flat_map(|(normals, prelight, skin, materials)| {
            let attrs = Attrs {
                normals,
                prelight,
                skin,
            };
            let mesh = (0..materials, prop::collection::vec(vertex(attrs), 0..160))
                .prop_map(|(m, strip)| MeshSpec::new(m, strip));
            (
                prop::collection::vec(mesh, 0..4),
                Just(materials),
                Just(skin),
                any::<i16>(),
            )
        })
        .prop_map(|(meshes, materials, skin, id)| {
            let materials = (0..materials)
                .map(|i| Material {
                    texture: (i != 1).then(|| format!("tex{i}")),
                    colour: [40 * i as u8, 200, 100, 255],
                    matfx: (i == 2).then_some(2),
                })
                .collect();
            let mut a = AtomicSpec::new(materials, meshes);
            a.model_info_id = id;
            if skin {
                a.skin = Some(SkinInfo {
                    bones: 4,
                    inverse_matrices: vec![[0.5; 16]; 4],
                });
            }
            a
        })
}

/// The stored attributes of a vertex, as the decoder compares them.
fn key(v: &Vertex, a: &AtomicSpec, m: &MeshSpec) -> Vec<u32> {
    let mut k: Vec<u32> = quantise_position(v.position, a.scale, a.pos)
        .iter()
        .map(|&x| x as u16 as u32)
        .collect();
    k.extend(quantise_uv(v.uv, m.uv_scale).map(u32::from));
    k.extend(
        quantise_normal(v.normal.unwrap_or(Vec3::ZERO))
            .iter()
            .map(|&x| x as u8 as u32),
    );
    k.push(v.prelight.map_or(0, encode_prelight) as u32);
    if let Some(w) = v.weights {
        k.extend(w.map(encode_weight));
    }
    k
}

fn expected_triangles(a: &AtomicSpec, m: &MeshSpec) -> Vec<[u32; 3]> {
    let keys: Vec<_> = m.strip.iter().map(|v| key(v, a, m)).collect();
    let mut out = Vec::new();
    for i in 0..keys.len().saturating_sub(2) {
        if keys[i] == keys[i + 1] || keys[i + 1] == keys[i + 2] || keys[i] == keys[i + 2] {
            continue;
        }
        let i = i as u32;
        out.push(if i % 2 == 1 {
            [i + 1, i, i + 2]
        } else {
            [i, i + 1, i + 2]
        });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_strips_round_trip(
        atomics in prop::collection::vec(atomic(), 0..3),
        batch in 3usize..=256,
    ) {
        let spec = StoriesSpec { atomics };
        let options = EncodeOptions { batch_vertices: batch, extra_items: batch % 2 == 0 };
        let file = encode_with(&spec, options).unwrap();
        let m = StoriesModel::parse(&file).unwrap();
        prop_assert_eq!(m.atomics.len(), spec.atomics.len());
        for (a, d) in spec.atomics.iter().zip(&m.atomics) {
            prop_assert_eq!(d.model_info_id, a.model_info_id);
            prop_assert_eq!(&d.geometry.materials, &a.materials);
            prop_assert_eq!(d.geometry.meshes.len(), a.meshes.len());
            for (ms, md) in a.meshes.iter().zip(&d.geometry.meshes) {
                prop_assert_eq!(md.vertices.len(), ms.strip.len());
                let batches = if ms.strip.len() <= batch {
                    usize::from(!ms.strip.is_empty())
                } else {
                    1 + (ms.strip.len() - batch).div_ceil(batch - 2)
                };
                prop_assert_eq!(md.batches, batches);
                // The strip rule, then the strip turned round when its stored normals point to
                // the backs of its triangles (`strip::face_out`).
                let mut expected = expected_triangles(a, ms);
                if md.vertices.iter().all(|v| v.normal.is_some()) {
                    let positions: Vec<Vec3> = md.vertices.iter().map(|v| v.position).collect();
                    let normals: Vec<Vec3> = md.vertices.iter().filter_map(|v| v.normal).collect();
                    let side = Orientation::count(
                        &positions,
                        &normals,
                        expected.iter().map(|t| t.map(|i| i as usize)),
                    );
                    if side.points_back() {
                        expected.iter_mut().for_each(|t| t.swap(1, 2));
                    }
                }
                prop_assert_eq!(&md.triangles, &expected);
                for (w, v) in ms.strip.iter().zip(&md.vertices) {
                    prop_assert!((w.position - v.position).abs().max_element() <= a.scale.max_element() / 32767.0 + 1e-5);
                    prop_assert_eq!(w.prelight.map(encode_prelight), v.prelight.map(encode_prelight));
                    prop_assert_eq!(w.weights.map(|x| x.map(encode_weight)), v.weights.map(|x| x.map(encode_weight)));
                }
            }
        }
        let again = encode_with(&StoriesSpec::from_model(&m), options).unwrap();
        prop_assert!(again == file, "re-encoding changed the bytes");
        let model = m.to_model();
        prop_assert!(model.check().is_ok());
        prop_assert_eq!(model.triangles.len(), m.triangle_count());
        let mut obj = Vec::new();
        encode_obj(&m.to_obj(), "m.mtl", &mut obj).unwrap();
    }

    /// Arbitrary bytes behind a valid header never panic.
    #[test]
    fn random_bytes_give_errors_not_panics(mut body in prop::collection::vec(any::<u8>(), 0..512)) {
        let mut file = b"ldm\0".to_vec();
        let len = (body.len() + 4) as u32;
        if body.len() >= 8 {
            body[4..8].copy_from_slice(&len.to_le_bytes());
        }
        file.extend(body);
        let _ = StoriesModel::parse(&file);
    }
}
