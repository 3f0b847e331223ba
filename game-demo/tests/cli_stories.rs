//! The `modex` binary on GTA Stories `.mdl` files, as a user runs it: `info`, `info --json`,
//! `export --obj` and `render`, on files the project's writer makes (no game file is public),
//! checked against what the library decodes from the same bytes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use modex_mdl::stories_mdl_encode::encode;
use modex_mdl::StoriesModel;
use modex_testkit::stories as samples;
use serde_json::Value;

fn modex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modex"))
        .args(args)
        .output()
        .expect("run modex")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("modex-cli-stories-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The samples written into `dir`, with their decoded models.
fn samples_in(dir: &Path) -> Vec<(PathBuf, StoriesModel)> {
    [
        ("cube.mdl", samples::cube()),
        ("two_atomics.mdl", samples::two_atomics()),
        ("terrain.mdl", samples::terrain(30)),
    ]
    .into_iter()
    .map(|(name, spec)| {
        let bytes = encode(&spec).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        (path, StoriesModel::parse(&bytes).unwrap())
    })
    .collect()
}

#[test]
fn info_json_has_the_issue_keys() {
    let dir = temp_dir("info");
    for (path, m) in samples_in(&dir) {
        let text = ok(&modex(&["info", "--json", path.to_str().unwrap()]));
        let j: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(j["format"], "gta-stories-mdl");
        assert_eq!(j["vertices"].as_u64(), Some(m.vertex_count() as u64));
        assert_eq!(j["triangles"].as_u64(), Some(m.triangle_count() as u64));
        let atomics = j["atomics"].as_array().unwrap();
        assert_eq!(atomics.len(), m.atomics.len());
        for (ja, a) in atomics.iter().zip(&m.atomics) {
            let meshes = ja["meshes"].as_array().unwrap();
            assert_eq!(meshes.len(), a.geometry.meshes.len());
            for (jm, mesh) in meshes.iter().zip(&a.geometry.meshes) {
                assert_eq!(jm["vertices"].as_u64(), Some(mesh.vertices.len() as u64));
                assert_eq!(jm["triangles"].as_u64(), Some(mesh.triangles.len() as u64));
            }
        }
    }
    let text = ok(&modex(&[
        "info",
        dir.join("two_atomics.mdl").to_str().unwrap(),
    ]));
    assert!(text.contains("GTA Stories PS2 model"), "{text}");
    assert!(
        text.contains("2 atomics, 2 meshes, 2 materials, 114 vertices, 90 triangles"),
        "{text}"
    );
    assert!(text.contains("texture \"glass\""), "{text}");
}

#[test]
fn damaged_file_is_an_error_naming_the_field() {
    let dir = temp_dir("damaged");
    let mut bytes = encode(&samples::cube()).unwrap();
    bytes.truncate(bytes.len() - 1);
    let path = dir.join("cut.mdl");
    std::fs::write(&path, &bytes).unwrap();
    let out = modex(&["info", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("header.file_size"), "{err}");
}

#[test]
fn export_obj_loads_back() {
    let dir = temp_dir("export");
    for (path, m) in samples_in(&dir) {
        let obj = path.with_extension("obj");
        ok(&modex(&[
            "export",
            path.to_str().unwrap(),
            "--obj",
            obj.to_str().unwrap(),
        ]));
        let text = std::fs::read_to_string(&obj).unwrap();
        let mtl = std::fs::read_to_string(obj.with_extension("mtl")).unwrap();
        let mtllib = format!(
            "mtllib {}",
            obj.with_extension("mtl")
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
        );
        assert!(text.lines().any(|l| l == mtllib));
        let v: Vec<&str> = text.lines().filter(|l| l.starts_with("v ")).collect();
        assert_eq!(v.len(), m.vertex_count());
        assert!(v.iter().all(|l| l.split(' ').count() == 7), "v x y z r g b");
        assert_eq!(
            text.lines().filter(|l| l.starts_with("vt ")).count(),
            m.vertex_count()
        );
        let faces: Vec<&str> = text.lines().filter(|l| l.starts_with("f ")).collect();
        assert_eq!(faces.len(), m.triangle_count());
        for f in &faces {
            for corner in f.split(' ').skip(1) {
                let p: usize = corner.split('/').next().unwrap().parse().unwrap();
                assert!((1..=v.len()).contains(&p), "{f}");
            }
        }
        for used in text.lines().filter_map(|l| l.strip_prefix("usemtl ")) {
            assert!(mtl.contains(&format!("newmtl {used}\n")), "{used}");
        }
    }
}

#[test]
fn render_draws_the_prelight_colours() {
    let dir = temp_dir("render");
    for (path, _) in samples_in(&dir) {
        let png = path.with_extension("png");
        ok(&modex(&[
            "render",
            path.to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
            "--format",
            "8888",
            "--size",
            "160x120",
        ]));
        let (w, h, rgba) = modex::pngio::decode_rgba(&std::fs::read(&png).unwrap()).unwrap();
        assert_eq!((w, h), (160, 120));
        let lit = rgba.chunks(4).filter(|p| p[..3] != [0, 0, 0]).count();
        assert!(
            lit > w * h / 20,
            "{}: only {lit} pixels drawn",
            png.display()
        );
    }
}
