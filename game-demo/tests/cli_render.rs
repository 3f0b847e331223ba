//! `modex render` on the real sample models: every target format, frames, interpolation, terrain,
//! and clean failures.

use std::path::{Path, PathBuf};
use std::process::Command;

fn modex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_modex"))
}

fn out_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_render");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn render(file: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    modex()
        .arg("render")
        .arg(file)
        .arg("-o")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// Non-background pixels of an RGBA or indexed PNG.
fn drawn_pixels(png: &Path, w: usize, h: usize) -> usize {
    let bytes = std::fs::read(png).unwrap();
    if let Ok((f, _)) = modex::pngio::decode_indexed(&bytes) {
        assert_eq!((f.width(), f.height()), (w, h));
        return f.pixels().iter().filter(|&&c| c != 0).count();
    }
    let (pw, ph, rgba) = modex::pngio::decode_rgba(&bytes).unwrap();
    assert_eq!((pw, ph), (w, h));
    rgba.chunks_exact(4).filter(|c| c[..3] != [0, 0, 0]).count()
}

#[test]
fn renders_sample_models_in_every_format() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let out = out_dir();
    for (file, frame) in [
        ("libgamestudio/mdl4-golem.mdl", "7"),
        ("assimp/minigun.MDL", "3"),
        ("libgamestudio/mdl5-earth.mdl", "0"),
        ("libgamestudio/mdl2-tree.mdl", "0"),
        ("retroacknex/terrain.hmp", "0"),
    ] {
        for format in ["8", "565", "4444", "8888"] {
            let png = out.join(format!("{}_{format}.png", file.replace('/', "_")));
            let o = render(
                &dir.join(file),
                &png,
                &[
                    "--frame", frame, "--format", format, "--size", "200x150", "--yaw", "-30",
                    "--pitch", "10",
                ],
            );
            assert!(
                o.status.success(),
                "{file} {format}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            let n = drawn_pixels(&png, 200, 150);
            assert!(n > 200 * 150 / 50, "{file} {format}: only {n} pixels drawn");
        }
    }
}

#[test]
fn interpolation_threads_and_skins() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let out = out_dir();
    let golem = dir.join("libgamestudio/mdl4-golem.mdl");
    let a = out.join("golem_f10.png");
    let b = out.join("golem_f11.png");
    let mid = out.join("golem_mid.png");
    let mid1 = out.join("golem_mid_1thread.png");
    for (png, extra) in [
        (&a, vec!["--frame", "10"]),
        (&b, vec!["--frame", "11"]),
        (
            &mid,
            vec!["--frame", "10", "--nextframe", "11", "--fraction", "0.5"],
        ),
        (
            &mid1,
            vec![
                "--frame",
                "10",
                "--nextframe",
                "11",
                "--fraction",
                "0.5",
                "--threads",
                "1",
            ],
        ),
    ] {
        let mut args = extra.clone();
        args.extend(["--size", "160x120"]);
        let o = render(&golem, png, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let read = |p: &Path| std::fs::read(p).unwrap();
    assert_ne!(read(&a), read(&b));
    assert_ne!(read(&mid), read(&a));
    assert_ne!(read(&mid), read(&b));
    assert_eq!(read(&mid), read(&mid1), "thread count changed the picture");
    // Second skin of the earth differs from the first.
    let earth = dir.join("libgamestudio/mdl5-earth.mdl");
    let s0 = out.join("earth_s0.png");
    let s1 = out.join("earth_s1.png");
    assert!(render(&earth, &s0, &["--skin", "0", "--size", "96x96"])
        .status
        .success());
    assert!(render(&earth, &s1, &["--skin", "1", "--size", "96x96"])
        .status
        .success());
    assert_ne!(read(&s0), read(&s1));
}

#[test]
fn bad_requests_fail_with_a_message() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let out = out_dir().join("never.png");
    let minigun = dir.join("assimp/minigun.MDL");
    for (file, extra) in [
        (minigun.clone(), vec!["--frame", "99"]),
        (minigun.clone(), vec!["--skin", "5"]),
        (minigun.clone(), vec!["--size", "0x10"]),
        // MDL7 opens now; a frame it does not have is still refused.
        (
            dir.join("libgamestudio/mdl7-ball.mdl"),
            vec!["--frame", "5"],
        ),
        (dir.join("assimp/invalid_external_texture_name.hmp"), vec![]),
    ] {
        let o = render(&file, &out, &extra);
        assert!(
            !o.status.success(),
            "{} {extra:?} should fail",
            file.display()
        );
        assert!(!o.stderr.is_empty());
    }
    assert!(!out.exists());
}

/// An MDL7 whose one group holds no triangle: it decodes, but nothing can be framed or drawn.
fn mdl7_without_triangles() -> Vec<u8> {
    let mut b = b"MDL7".to_vec();
    // version, bones, groups, data size, entity lump, MED lump.
    for v in [7u32, 0, 1, 44, 0, 0] {
        b.extend(v.to_le_bytes());
    }
    // Record sizes: bone, skin, colour value, material, skin point, triangle, main vertex,
    // frame vertex, bone transform, frame.
    for v in [16u16, 28, 16, 68, 8, 16, 16, 16, 66, 24] {
        b.extend(v.to_le_bytes());
    }
    // The group: type 1, no deformers, name, and every count 0.
    b.extend([1u8, 0, 0, 0]);
    b.extend(0i32.to_le_bytes());
    b.extend([0u8; 16]);
    b.extend([0u8; 20]);
    b
}

#[test]
fn a_model_with_nothing_to_draw_is_refused_naming_the_file() {
    let dir = out_dir();
    let file = dir.join("empty-group.mdl");
    std::fs::write(&file, mdl7_without_triangles()).unwrap();
    let out = dir.join("empty-group.png");
    let o = render(&file, &out, &[]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("empty-group.mdl") && stderr.contains("no triangle"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn a_flat_model_is_seen_from_above_by_default() {
    use glam::Vec3;
    use modex_mdl::mdl_encode::{FrameSpec, MdlSpec, SkinData, SkinSpec};
    // A 100 x 100 water plane at z = 0, one grey 2x2 skin.
    let corners = [(-50.0, -50.0), (50.0, -50.0), (50.0, 50.0), (-50.0, 50.0)];
    let spec = MdlSpec {
        skins: vec![SkinSpec {
            width: 2,
            height: 2,
            data: SkinData::Rgb565(vec![0x8410; 4]),
        }],
        skin_vertices: vec![[0, 0], [2, 0], [2, 2], [0, 2]],
        triangles: vec![([0, 1, 2], [0, 1, 2]), ([0, 2, 3], [0, 2, 3])],
        frames: vec![FrameSpec {
            name: "plane".into(),
            positions: corners.iter().map(|&(x, y)| Vec3::new(x, y, 0.0)).collect(),
            normals: vec![Vec3::Z; 4],
        }],
    };
    let dir = out_dir();
    let file = dir.join("water.mdl");
    std::fs::write(&file, spec.encode()).unwrap();
    let (plain, steep) = (dir.join("water.png"), dir.join("water-10.png"));
    for (out, extra) in [(&plain, vec![]), (&steep, vec!["--pitch", "10"])] {
        let o = render(
            &file,
            out,
            &[&["--size", "160x120", "--format", "8888"], &extra[..]].concat(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // From 45 degrees the plane fills a good part of the picture; from the old 10 degrees it is
    // a sliver (the explicit --pitch still wins).
    let (seen, sliver) = (
        drawn_pixels(&plain, 160, 120),
        drawn_pixels(&steep, 160, 120),
    );
    assert!(seen > 160 * 120 / 5, "{seen} pixels");
    assert!(seen > 2 * sliver, "{seen} against {sliver}");
}
