//! Conformance on the real third-party samples in `../shared/data/mdl/` (never copied into the
//! repository): every file in the subfolders (and their subfolders) is opened, and what is known
//! about each is checked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use modex::{ErrorKind, Palette};
use modex_mdl::hmp::{HmpFile, HmpVersion};
use modex_mdl::mdl::{MdlFile, MdlVersion, VertexPacking};
use modex_mdl::mdl7::Mdl7File;
use modex_mdl::{Model, SkinPixels};

/// What we know about one MDL sample.
struct MdlFacts {
    version: MdlVersion,
    /// (type, width, height, mipmaps)
    skins: &'static [(u32, usize, usize, bool)],
    verts: usize,
    tris: usize,
    skin_verts: usize,
    frames: usize,
    first_frame: &'static str,
    packing: VertexPacking,
}

struct HmpFacts {
    skins: &'static [(u32, usize, usize, bool)],
    grid: (usize, usize),
}

enum Expect {
    Mdl(MdlFacts),
    Hmp(HmpFacts),
    /// MDL7: read by `Mdl7File` (and refused by `MdlFile` with a pointer to it).
    Mdl7,
    /// A deliberately malformed file: refused with an error.
    Malformed,
    /// Not a model (licence, readme, palette).
    NotAModel,
}

fn facts() -> BTreeMap<&'static str, Expect> {
    use Expect::*;
    use MdlVersion::*;
    let b = VertexPacking::Byte;
    let w = VertexPacking::Word;
    let mut m = BTreeMap::new();
    let mdl = |version, skins, verts, tris, skin_verts, frames, first_frame, packing| {
        Mdl(MdlFacts {
            version,
            skins,
            verts,
            tris,
            skin_verts,
            frames,
            first_frame,
            packing,
        })
    };
    const MINIGUN_SKIN: &[(u32, usize, usize, bool)] = &[(2, 1272, 1114, false)];
    m.insert(
        "assimp/minigun.MDL",
        mdl(Mdl3, MINIGUN_SKIN, 314, 576, 117, 8, "shot0", b),
    );
    m.insert(
        "assimp/minigun_mdl5.mdl",
        mdl(Mdl5, MINIGUN_SKIN, 314, 576, 117, 8, "shot0", w),
    );
    m.insert(
        "assimp/PhosphoricAcid_MDl5.mdl",
        mdl(Mdl5, &[], 496, 960, 1, 1, "frame 0", w),
    );
    m.insert("assimp/PhosphoricAcid_MDl7.mdl", Mdl7);
    m.insert("assimp/Sphere_DiffPinkBlueSpec_Alpha90.mdl", Mdl7);
    m.insert("assimp/invalid_external_texture_name.hmp", Malformed);
    m.insert("assimp/minigun_readme.txt", NotAModel);
    m.insert(
        "assimp/terrain.hmp",
        Hmp(HmpFacts {
            skins: &[],
            grid: (33, 33),
        }),
    );
    m.insert("libgamestudio/LICENCE.txt", NotAModel);
    m.insert("libgamestudio/palette.pcx", NotAModel);
    // MDL2: Quake layout, one skin vertex per vertex.
    m.insert(
        "libgamestudio/mdl2-bush.mdl",
        mdl(Mdl2, &[(2, 128, 64, false)], 73, 132, 73, 1, "sphere2", b),
    );
    m.insert(
        "libgamestudio/mdl2-grass.mdl",
        mdl(Mdl2, &[(2, 128, 64, false)], 15, 18, 15, 1, "Frame 1", b),
    );
    m.insert(
        "libgamestudio/mdl2-tree.mdl",
        mdl(Mdl2, &[(2, 128, 128, false)], 73, 132, 73, 1, "sphere2", b),
    );
    m.insert(
        "libgamestudio/mdl3-crystal.mdl",
        mdl(Mdl3, &[(2, 256, 256, false)], 42, 72, 48, 1, "Frame0", b),
    );
    const SKIN512: &[(u32, usize, usize, bool)] = &[(2, 512, 512, false)];
    m.insert(
        "libgamestudio/mdl4-golem.mdl",
        mdl(Mdl4, SKIN512, 284, 564, 819, 231, "Frame0", w),
    );
    m.insert(
        "libgamestudio/mdl4-human.mdl",
        mdl(Mdl4, SKIN512, 319, 636, 811, 249, "Frame0", w),
    );
    m.insert(
        "libgamestudio/mdl4-norc.mdl",
        mdl(Mdl4, SKIN512, 347, 692, 1144, 1, "Frame0", w),
    );
    m.insert(
        "libgamestudio/mdl5-earth.mdl",
        mdl(
            Mdl5,
            &[(4, 512, 256, false), (4, 512, 256, false)],
            2307,
            4512,
            2307,
            1,
            "frame1",
            w,
        ),
    );
    for f in ["ball", "blob", "earth", "player", "tree2"] {
        m.insert(
            Box::leak(format!("libgamestudio/mdl7-{f}.mdl").into_boxed_str()),
            Mdl7,
        );
    }
    m.insert(
        "libgamestudio/small.hmp",
        Hmp(HmpFacts {
            skins: &[(2, 512, 512, false), (4, 128, 128, true)],
            grid: (66, 66),
        }),
    );
    m.insert(
        "libgamestudio/terrain.hmp",
        // DDS: size from the DDS header.
        Hmp(HmpFacts {
            skins: &[(6, 1024, 1024, false), (4, 256, 256, true)],
            grid: (215, 215),
        }),
    );
    // LotterShock: one game's MDL7 models, with the external skins they name and a licence.
    const LOTTERSHOCK_MDL7: &[&str] = &[
        "Assets/ackmen01.mdl",
        "Assets/cables_wall.mdl",
        "Assets/env_radio0.mdl",
        "Assets/flesh1.mdl",
        "Assets/griechin.mdl",
        "Assets/key_hull.mdl",
        "Assets/keycard.mdl",
        "Assets/lottifant.mdl",
        "Assets/sputnik.mdl",
        "Assets/tile-floor-turret.mdl",
        "Assets/trail.mdl",
        "Assets/tree3.mdl",
        "Assets/trident_of_lightning.mdl",
        "Assets/tubes5.mdl",
        "Assets/whiskas.mdl",
        "Assets/zorroLotti.mdl",
        "Level/Glockenkessel.mdl",
        "Level/concept_02.mdl",
        "Level/room_kitchen_01.mdl",
    ];
    const LOTTERSHOCK_OTHER: &[&str] = &[
        "Assets/cable_auv.bmp",
        "Assets/flesh.tga",
        "Assets/griechin_body.tga",
        "Assets/griechin_head.tga",
        "Assets/noise128.tga",
        "Assets/sZorroBody.bmp",
        "Assets/sZorroFaceZorro.tga",
        "Assets/sZorroHead.bmp",
        "Assets/sputnik.bmp",
        "Assets/turretskin.tga",
        "LICENSE.txt",
        "Level/room_atlas_01.pcx",
    ];
    for (names, expect) in [(LOTTERSHOCK_MDL7, true), (LOTTERSHOCK_OTHER, false)] {
        for f in names {
            let key: &'static str = Box::leak(format!("lottershock/{f}").into_boxed_str());
            m.insert(key, if expect { Mdl7 } else { NotAModel });
        }
    }
    m.insert("retroacknex/LICENSE.txt", NotAModel);
    m.insert(
        "retroacknex/terrain.hmp",
        Hmp(HmpFacts {
            skins: &[(7, 0, 0, false), (7, 0, 0, false)],
            grid: (33, 33),
        }),
    );
    m
}

/// Every file below the subfolders of `dir`, keyed by its path relative to `dir` (`/`-separated).
fn all_files(dir: &Path) -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let key = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            if p.is_dir() {
                walk(&p, &key, out);
            } else if !prefix.is_empty() {
                out.push((key, p));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out.sort();
    out
}

fn skin_facts(model: &Model) -> Vec<(u32, usize, usize, bool)> {
    model
        .skins
        .iter()
        .map(|s| (s.kind, s.width, s.height, s.has_mipmaps))
        .collect()
}

/// Structural invariants every decoded model must satisfy.
fn check_model(name: &str, m: &Model) {
    let nv = m.vertex_count();
    for (i, f) in m.frames.iter().enumerate() {
        assert_eq!(f.positions.len(), nv, "{name} frame {i}");
        assert_eq!(f.normals.len(), nv, "{name} frame {i}");
        for n in &f.normals {
            assert!(
                (n.length() - 1.0).abs() < 1e-3,
                "{name} frame {i}: normal {n} not unit"
            );
        }
        for p in &f.positions {
            assert!(p.is_finite(), "{name}: non-finite position");
        }
    }
    for t in &m.triangles {
        for k in 0..3 {
            assert!((t.vertices[k] as usize) < nv, "{name}: {t:?}");
            assert!((t.uvs[k] as usize) < m.uvs.len(), "{name}: {t:?}");
        }
    }
    for s in &m.skins {
        match s.pixels {
            SkinPixels::External(_) => assert!(s.rgba.is_empty()),
            // DXT skins are decoded; any other DDS kind keeps an empty RGBA.
            SkinPixels::Dds(_) => assert!(
                s.rgba.is_empty() || s.rgba.len() == s.width * s.height * 4,
                "{name}"
            ),
            _ => assert_eq!(s.rgba.len(), s.width * s.height * 4, "{name}"),
        }
    }
}

/// Files whose stored frame boxes are stale (written by converters that did not update them): the
/// decoded vertices reach well outside them. We never trust the stored box; `Frame::bbox_*` is
/// computed from the vertices. Listed so that the check below is exact for every other file.
const STALE_BBOX: &[&str] = &[
    "assimp/PhosphoricAcid_MDl5.mdl",
    "libgamestudio/mdl3-crystal.mdl",
    "libgamestudio/mdl4-norc.mdl",
];

fn check_mdl(name: &str, bytes: &[u8], f: &MdlFacts) {
    let file = MdlFile::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let m = &file.model;
    m.check().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(file.version(), f.version, "{name}");
    assert_eq!(skin_facts(m), f.skins, "{name} skins");
    assert_eq!(m.vertex_count(), f.verts, "{name} verts");
    assert_eq!(m.triangles.len(), f.tris, "{name} tris");
    assert_eq!(file.skin_vertices.len(), f.skin_verts, "{name} skin verts");
    assert_eq!(m.frames.len(), f.frames, "{name} frames");
    assert_eq!(m.frames[0].name, f.first_frame, "{name} first frame name");
    assert!(
        file.frames.iter().all(|fi| fi.packing == f.packing),
        "{name} packing"
    );
    check_model(name, m);
    // The stored bounding box of every frame matches the box of the decoded vertices to within one
    // quantisation step (scale) per axis — except in the files known to carry stale boxes.
    let step = file.header.scale.abs() * 1.01 + 1e-4;
    for (i, (fr, info)) in m.frames.iter().zip(&file.frames).enumerate() {
        let lo = (fr.bbox_min - info.file_bbox_min).abs();
        let hi = (fr.bbox_max - info.file_bbox_max).abs();
        assert_eq!(
            lo.cmple(step).all() && hi.cmple(step).all(),
            !STALE_BBOX.contains(&name),
            "{name} frame {i}: decoded box {}..{} vs file box {}..{} (stale box expected: {})",
            fr.bbox_min,
            fr.bbox_max,
            info.file_bbox_min,
            info.file_bbox_max,
            STALE_BBOX.contains(&name)
        );
        assert_eq!(
            (fr.bbox_min, fr.bbox_max),
            modex_mdl::Frame::compute_bbox(&fr.positions)
        );
    }
}

/// (groups, bones, frames, triangles, vertices) of the MDL7 samples the issue names facts for.
fn mdl7_facts(name: &str) -> Option<(usize, usize, usize)> {
    Some(match name {
        "lottershock/Assets/griechin.mdl" => (1, 18, 175),
        "lottershock/Assets/lottifant.mdl" => (1, 24, 90),
        "lottershock/Assets/zorroLotti.mdl" => (11, 18, 67),
        "lottershock/Assets/key_hull.mdl" => (8, 8, 7),
        "lottershock/Level/concept_02.mdl" => (223, 0, 1),
        "lottershock/Assets/flesh1.mdl" => (1, 1, 0),
        "lottershock/Assets/trail.mdl" => (1, 3, 0),
        "lottershock/Level/room_kitchen_01.mdl" => (1, 488, 1),
        _ => return None,
    })
}

/// Every MDL7 sample decodes, its external skins are found beside it, and its parts are
/// consistent renderer models with unit normals and finite positions in every frame.
fn check_mdl7(name: &str, path: &Path, bytes: &[u8]) {
    let mut file = Mdl7File::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Some((groups, bones, frames)) = mdl7_facts(name) {
        assert_eq!(
            (file.groups.len(), file.bones.len(), file.frame_count()),
            (groups, bones, frames),
            "{name}"
        );
    }
    let folder = modex::DirSource::new(path.parent().unwrap());
    let problems = file.resolve_skins(&mut |n| modex::FileSource::read(&folder, n).unwrap());
    for p in &problems {
        eprintln!("{name}: {p}");
    }
    let parts = file.parts();
    assert!(!parts.is_empty(), "{name}: no parts");
    assert_eq!(
        file.part_names().len(),
        parts.len(),
        "{name}: one name per part"
    );
    let tris: usize = parts.iter().map(|p| p.model.triangles.len()).sum();
    assert_eq!(
        tris,
        file.triangle_count(),
        "{name}: every triangle in one part"
    );
    for p in &parts {
        p.model.check().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            p.model.frames.len(),
            file.groups[p.group].frames.len().max(1)
        );
        for s in &p.model.skins {
            assert_eq!(
                s.rgba.len(),
                s.width * s.height * 4,
                "{name}: skin not filled"
            );
            assert!(s.width > 0, "{name}: empty skin left after resolving");
        }
        for f in &p.model.frames {
            assert!(f.positions.iter().all(|v| v.is_finite()), "{name}");
            assert!(
                f.normals.iter().all(|n| (n.length() - 1.0).abs() < 1e-3),
                "{name}: normal not unit"
            );
        }
    }
}

fn check_hmp(name: &str, bytes: &[u8], f: &HmpFacts) {
    let file = HmpFile::parse(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let m = &file.model;
    m.check().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(file.header.version, HmpVersion::Hmp7, "{name}");
    assert_eq!(skin_facts(m), f.skins, "{name} skins");
    assert_eq!((file.columns, file.rows), f.grid, "{name} grid");
    assert_eq!(m.vertex_count(), f.grid.0 * f.grid.1);
    assert_eq!(m.triangles.len(), 2 * (f.grid.0 - 1) * (f.grid.1 - 1));
    assert_eq!(m.frames.len(), 1);
    check_model(name, m);
    // Geometry follows scale and offset: the decoded box matches the stored one.
    let fr = &m.frames[0];
    let step = file.header.scale.abs() * 1.01 + 1e-3;
    assert!(
        (fr.bbox_min - file.file_bbox_min).abs().cmple(step).all()
            || file.heights.iter().all(|&h| h == 0),
        "{name}: decoded box {}..{} vs file box {}..{}",
        fr.bbox_min,
        fr.bbox_max,
        file.file_bbox_min,
        file.file_bbox_max
    );
    // x and y of the box come from offset + (n-1) * trisize and match the stored box.
    let h = &file.header;
    let far = h.offset.truncate()
        + glam::Vec2::new(
            (file.columns - 1) as f32 * h.trisize_x,
            (file.rows - 1) as f32 * h.trisize_y,
        );
    assert!(
        (fr.bbox_max.truncate() - far).abs().max_element() < 1e-3,
        "{name}"
    );
    assert!(
        (file.file_bbox_max.truncate() - far).abs().max_element() < 0.01,
        "{name}"
    );
    // Front faces point up.
    for t in &m.triangles {
        let [a, b, c] = t.vertices.map(|v| fr.positions[v as usize]);
        assert!(
            (b - a).cross(c - a).z > 0.0,
            "{name}: {t:?} is not CCW from above"
        );
    }
}

#[test]
fn every_sample_file_behaves_as_known() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let facts = facts();
    let files = all_files(&dir);
    assert!(
        files.len() >= 27,
        "expected the full sample set, found {}",
        files.len()
    );
    for (key, path) in &files {
        let bytes = std::fs::read(path).unwrap();
        let expect = facts.get(key.as_str()).unwrap_or_else(|| {
            panic!("{key}: a sample nobody described; add what is known about it")
        });
        match expect {
            Expect::Mdl(f) => check_mdl(key, &bytes, f),
            Expect::Hmp(f) => check_hmp(key, &bytes, f),
            Expect::Mdl7 => {
                let e = MdlFile::parse(&bytes).unwrap_err();
                assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{key}: {e}");
                assert!(e.to_string().contains("MDL7"), "{key}: {e}");
                check_mdl7(key, path, &bytes);
            }
            Expect::Malformed => {
                let e = HmpFile::parse(&bytes).unwrap_err();
                eprintln!("{key}: refused: {e}");
            }
            Expect::NotAModel => {
                assert!(MdlFile::parse(&bytes).is_err(), "{key}");
                assert!(HmpFile::parse(&bytes).is_err(), "{key}");
            }
        }
    }
    // Every described file exists (a missing sample must not pass silently).
    for key in facts.keys() {
        assert!(
            files.iter().any(|(k, _)| k == key),
            "{key} missing from {}",
            dir.display()
        );
    }
}

fn sample(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn lottershock_external_skins_are_found_beside_the_model() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let path = dir.join("lottershock/Assets/griechin.mdl");
    let mut f = Mdl7File::parse(&std::fs::read(&path).unwrap()).unwrap();
    // Its parts are named after the skin files (the skin records say only "Skin1", "Skin2").
    let names = [Some("griechin_body".into()), Some("griechin_head".into())];
    assert_eq!(f.part_names(), names);
    let folder = modex::DirSource::new(path.parent().unwrap());
    let problems = f.resolve_skins(&mut |n| modex::FileSource::read(&folder, n).unwrap());
    assert!(problems.is_empty(), "{problems:?}");
    // griechin_body.tga and griechin_head.tga: 1024x512 and 1024x1024 (24/32-bit TGA).
    let sizes: Vec<_> = f.groups[0]
        .skins
        .iter()
        .map(|s| (s.skin.width, s.skin.height))
        .collect();
    assert!(
        sizes.iter().all(|&(w, h)| w >= 256 && h >= 256),
        "{sizes:?}"
    );
    // Skeletal: frame 0 is the rest pose, a later frame moves vertices.
    let rest = modex_mdl::mdl7::pose_group(&f, 0, None);
    let f0 = modex_mdl::mdl7::pose_group(&f, 0, Some(0));
    let f160 = modex_mdl::mdl7::pose_group(&f, 0, Some(160));
    let moved = |a: &[glam::Vec3], b: &[glam::Vec3]| {
        a.iter()
            .zip(b)
            .map(|(p, q)| p.distance(*q))
            .fold(0.0f32, f32::max)
    };
    assert!(moved(&rest.positions, &f0.positions) < 1e-3);
    assert!(moved(&rest.positions, &f160.positions) > 2.0);
}

#[test]
fn malformed_external_name_is_refused_at_the_skin() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let e = HmpFile::parse(&sample(&dir, "assimp/invalid_external_texture_name.hmp")).unwrap_err();
    assert_eq!(e.field, "skin[0].width");
    assert_eq!(e.offset, 88);
    assert!(e.to_string().contains("external texture name"), "{e}");
}

#[test]
fn crystal_has_negative_skin_u_and_garbage_after_frame_name() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let f = MdlFile::parse(&sample(&dir, "libgamestudio/mdl3-crystal.mdl")).unwrap();
    assert!(f.skin_vertices.iter().any(|v| v.x < 0), "no negative u");
    // Negative pixels stay negative after normalisation (they wrap at render time).
    assert!(f.model.uvs.iter().any(|uv| uv.x < 0.0));
    assert_eq!(f.model.frames[0].name, "Frame0");
}

#[test]
fn minigun_mdl3_and_mdl5_decode_to_the_same_model() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let a = MdlFile::parse(&sample(&dir, "assimp/minigun.MDL")).unwrap();
    let b = MdlFile::parse(&sample(&dir, "assimp/minigun_mdl5.mdl")).unwrap();
    assert_eq!(a.model.skins, b.model.skins);
    assert_eq!(a.model.triangles, b.model.triangles);
    assert_eq!(a.model.uvs, b.model.uvs);
    let names = |f: &MdlFile| {
        f.model
            .frames
            .iter()
            .map(|f| f.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&a), names(&b));
    // Byte-packed vs word-packed: positions agree to within the coarser (byte) step.
    let step = a.header.scale.abs().max_element();
    for (fa, fb) in a.model.frames.iter().zip(&b.model.frames) {
        for (pa, pb) in fa.positions.iter().zip(&fb.positions) {
            assert!((*pa - *pb).abs().max_element() <= step, "{pa} vs {pb}");
        }
    }
}

#[test]
fn earth_mdl5_888_skins_are_stored_bgr() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let bytes = sample(&dir, "libgamestudio/mdl5-earth.mdl");
    let f = MdlFile::parse(&bytes).unwrap();
    assert_eq!((f.header.skin_width, f.header.skin_height), (0, 0));
    assert_eq!(f.uv_size, (512, 256));
    // First pixel: stored after type, width, height at offset 84 + 12.
    let stored = &bytes[96..99];
    assert_eq!(
        &f.model.skins[0].rgba[..3],
        &[stored[2], stored[1], stored[0]]
    );
}

#[test]
fn terrain_heights_use_scale_and_offset() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let f = HmpFile::parse(&sample(&dir, "libgamestudio/small.hmp")).unwrap();
    let h = &f.header;
    let fr = &f.model.frames[0];
    for (k, raw) in f.heights.iter().enumerate() {
        let z = h.scale.z * *raw as f32 + h.offset.z;
        assert_eq!(fr.positions[k].z, z);
    }
    // Not the raw values a reader without scale/offset would produce.
    assert!(fr.positions.iter().any(|p| p.z < 0.0));
    assert!(fr.bbox_max.z < 300.0);
}

#[test]
fn external_skins_keep_their_names() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let f = HmpFile::parse(&sample(&dir, "retroacknex/terrain.hmp")).unwrap();
    let names: Vec<_> = f
        .skins
        .iter()
        .map(|s| s.external_name.clone().unwrap())
        .collect();
    assert_eq!(names, ["terrain_grass_skin.tga", "terrain_sand_skin.tga"]);
}

#[test]
fn pcx_palette_decodes_8bit_skins_differently_only_where_palettes_differ() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let pal = Palette::from_pcx(&sample(&dir, "libgamestudio/palette.pcx")).unwrap();
    // The samples have no 8-bit skin: true-colour skins must not change with the palette.
    let f =
        MdlFile::parse_with_palette(&sample(&dir, "libgamestudio/mdl4-norc.mdl"), &pal).unwrap();
    let g = MdlFile::parse(&sample(&dir, "libgamestudio/mdl4-norc.mdl")).unwrap();
    assert_eq!(f.model.skins, g.model.skins);
}

#[test]
fn embedded_dxt1_terrain_skin_is_decoded() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let f = HmpFile::parse(&sample(&dir, "libgamestudio/terrain.hmp")).unwrap();
    let SkinPixels::Dds(bytes) = &f.model.skins[0].pixels else {
        panic!("skin 0 should be DDS")
    };
    let (w, h, rgba) = modex_mdl::dds::decode(bytes).unwrap();
    assert_eq!((w, h, rgba.len()), (1024, 1024, 1024 * 1024 * 4));
    // The loader fills the skin with the same decoding, so renderers draw it.
    let skin = &f.model.skins[0];
    assert_eq!((skin.width, skin.height), (w, h));
    assert!(skin.rgba == rgba);
    // A terrain texture: opaque and not one flat colour.
    assert!(rgba.chunks_exact(4).all(|p| p[3] == 255));
    assert!(rgba.chunks_exact(4).any(|p| p[..3] != rgba[..3]));
}
