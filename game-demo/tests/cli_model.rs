//! The `modex` binary on models: `info`, `info --json` and `export --skins`, checked against what
//! the library decodes from the same files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use modex::Palette;
use modex_mdl::hmp::HmpFile;
use modex_mdl::mdl::MdlFile;
use serde_json::Value;

fn modex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modex"))
        .args(args)
        .output()
        .expect("run modex")
}

fn json_of(path: &Path) -> Value {
    let out = modex(&["info", "--json", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one JSON object per line: {text}");
    serde_json::from_str(&text).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("modex-cli-model-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn info_json_of_an_mdl_matches_the_library() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let path = dir.join("assimp/minigun.MDL");
    let j = json_of(&path);
    let f = MdlFile::parse(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(j["format"], "mdl");
    assert_eq!(j["version"], "MDL3");
    assert_eq!(
        j["skins"],
        serde_json::json!([{"type": 2, "format": "RGB 565", "width": 1272, "height": 1114, "mipmaps": false}])
    );
    assert_eq!(j["vertices"], 314);
    assert_eq!(j["triangles"], 576);
    assert_eq!(j["skin_vertices"], 117);
    let frames: Vec<&str> = j["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        frames,
        ["shot0", "shot1", "shot2", "shot3", "shot4", "shot5", "shot6", "shot7"]
    );
    let fr = &f.model.frames[0];
    let bbox: Vec<Vec<f32>> = serde_json::from_value(j["bbox"].clone()).unwrap();
    assert_eq!(
        bbox,
        vec![
            fr.bbox_min.to_array().to_vec(),
            fr.bbox_max.to_array().to_vec()
        ]
    );
}

#[test]
fn info_json_of_an_hmp_has_the_grid() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let path = dir.join("libgamestudio/small.hmp");
    let j = json_of(&path);
    let f = HmpFile::parse(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(j["format"], "hmp");
    assert_eq!(j["version"], "HMP7");
    assert_eq!(j["grid"], serde_json::json!([66, 66]));
    assert_eq!(j["vertices"], 66 * 66);
    assert_eq!(j["triangles"], f.model.triangles.len());
    assert_eq!(j["skins"][1]["type"], 4);
    assert_eq!(j["skins"][1]["mipmaps"], true);
    assert_eq!(
        j["bbox"][1][2].as_f64().unwrap() as f32,
        f.model.frames[0].bbox_max.z
    );
}

#[test]
fn info_text_lists_version_skins_counts_frames_and_box() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let out = modex(&[
        "info",
        dir.join("libgamestudio/mdl4-golem.mdl").to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for want in [
        "MDL4 model",
        "skin 0: type 2 (RGB 565) 512x512",
        "284 vertices, 564 triangles, 819 skin vertices, 231 frames",
        "Frame0..Frame230 (231)",
        "bounding box (frame 0)",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

#[test]
fn unloadable_files_exit_non_zero_with_the_error_as_json_on_stdout() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    // (MDL7 files were refused here before they were read.)
    let (file, want) = ("assimp/invalid_external_texture_name.hmp", "skin[0].width");
    let out = modex(&["info", "--json", dir.join(file).to_str().unwrap()]);
    assert!(!out.status.success(), "{file}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let j: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    let err = j["error"].as_str().expect("an error key");
    assert!(err.contains(want), "{file}: {err}");
    assert_eq!(j.as_object().unwrap().len(), 1, "{j}");
    // Without --json the same message is on stderr and stdout stays empty.
    let out = modex(&["info", dir.join(file).to_str().unwrap()]);
    assert!(!out.status.success() && out.stdout.is_empty(), "{file}");
    assert!(String::from_utf8_lossy(&out.stderr).contains(want));
}

#[test]
fn export_writes_true_colour_skins_as_rgba_png() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let out_dir = temp_dir("rgba");
    let path = dir.join("libgamestudio/mdl5-earth.mdl");
    let out = modex(&[
        "export",
        path.to_str().unwrap(),
        "--skins",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let f = MdlFile::parse(&std::fs::read(&path).unwrap()).unwrap();
    for (i, skin) in f.model.skins.iter().enumerate() {
        let png = std::fs::read(out_dir.join(format!("mdl5-earth_skin{i}.png"))).unwrap();
        let (w, h, rgba) = modex::pngio::decode_rgba(&png).unwrap();
        assert_eq!((w, h), (512, 256));
        assert_eq!(rgba, skin.rgba);
    }
    std::fs::remove_dir_all(out_dir).unwrap();
}

/// A one-frame MDL3 triangle with an 8-bit 4x4 skin whose pixels are 0..16.
fn tiny_8bit_mdl() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"MDL3");
    let ints =
        |b: &mut Vec<u8>, v: &[i32]| v.iter().for_each(|x| b.extend_from_slice(&x.to_le_bytes()));
    ints(&mut b, &[0]);
    for f in [1.0f32, 1.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0] {
        b.extend_from_slice(&f.to_le_bytes());
    }
    // numskins, width, height, numverts, numtris, numframes, numskinverts, flags, numbones
    ints(&mut b, &[1, 4, 4, 3, 1, 1, 3, 0, 0]);
    ints(&mut b, &[0]); // skin type 0
    b.extend(0u8..16);
    for s in [0i16, 0, 4, 0, 0, 4] {
        b.extend_from_slice(&s.to_le_bytes());
    }
    for s in [0i16, 1, 2, 0, 1, 2] {
        b.extend_from_slice(&s.to_le_bytes());
    }
    ints(&mut b, &[0]); // frame type
    b.extend_from_slice(&[0, 0, 0, 0, 1, 1, 0, 0]);
    b.extend_from_slice(b"tri\0\0\0\0\0\0\0\0\0\0\0\0\0");
    b.extend_from_slice(&[0, 0, 0, 5, 1, 0, 0, 5, 0, 1, 0, 5]);
    b
}

#[test]
fn export_writes_8bit_skins_as_indexed_png_with_the_chosen_palette() {
    let out_dir = temp_dir("indexed");
    let model = out_dir.join("tiny.mdl");
    std::fs::write(&model, tiny_8bit_mdl()).unwrap();
    // A 768-byte palette file: entry i = (i, 255 - i, 7).
    let pal_path = out_dir.join("ramp.pal");
    let pal: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, 7]).collect();
    std::fs::write(&pal_path, &pal).unwrap();
    let skins = out_dir.join("skins");
    let out = modex(&[
        "export",
        model.to_str().unwrap(),
        "--skins",
        skins.to_str().unwrap(),
        "--palette",
        pal_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(skins.join("tiny_skin0.png")).unwrap();
    let (frame, palette) = modex::pngio::decode_indexed(&png).unwrap();
    assert_eq!(frame.pixels(), (0u8..16).collect::<Vec<_>>());
    assert_eq!(palette, Palette::from_rgb_bytes(&pal).unwrap());
    // Without --palette the Quake palette is used.
    let out = modex(&[
        "export",
        model.to_str().unwrap(),
        "--skins",
        skins.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let (_, palette) =
        modex::pngio::decode_indexed(&std::fs::read(skins.join("tiny_skin0.png")).unwrap())
            .unwrap();
    assert_eq!(palette, Palette::quake());
    std::fs::remove_dir_all(out_dir).unwrap();
}

#[test]
fn mdl7_info_json_has_the_issue_keys() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let out = modex(&[
        "info",
        "--json",
        dir.join("lottershock/Assets/zorroLotti.mdl")
            .to_str()
            .unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], "MDL7");
    assert_eq!(v["bones"], 18);
    assert_eq!(v["frames"], 67);
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 11);
    let sum = |key: &str| groups.iter().map(|g| g[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!(v["triangles"].as_u64().unwrap(), sum("triangles"));
    assert_eq!(v["vertices"].as_u64().unwrap(), sum("vertices"));
    for g in groups {
        assert!(g["name"].is_string() && g["skins"].is_array() && g["frames"] == 67);
    }
    // A static model: no stored frames.
    let out = modex(&[
        "info",
        "--json",
        dir.join("lottershock/Assets/flesh1.mdl").to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["frames"].as_u64(), v["bones"].as_u64()),
        (Some(0), Some(1))
    );
}

#[test]
fn mdl7_renders_a_frame_and_exports_obj_with_skins() {
    let Some(dir) = modex_testkit::samples_dir("mdl") else {
        return;
    };
    let out_dir = std::env::temp_dir().join(format!("modex-mdl7-cli-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let model = dir.join("lottershock/Assets/griechin.mdl");
    let png = out_dir.join("g.png");
    let out = modex(&[
        "render",
        model.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--frame",
        "120",
        "--size",
        "64x48",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(png.exists());
    let out = modex(&[
        "render",
        model.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--frame",
        "175",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("175 frames"));
    let obj = out_dir.join("g.obj");
    let out = modex(&[
        "export",
        model.to_str().unwrap(),
        "--obj",
        obj.to_str().unwrap(),
        "--frame",
        "120",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&obj).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("f ")).count(), 1350);
    assert!(text.contains("mtllib g.mtl"));
    let mtl = std::fs::read_to_string(out_dir.join("g.mtl")).unwrap();
    // Materials and their PNGs are named after the skin files, not `part0`, `part1`.
    for skin in ["griechin_body", "griechin_head"] {
        assert!(
            mtl.contains(&format!("newmtl {skin}\nKd 1 1 1\nmap_Kd g_{skin}.png")),
            "{mtl}"
        );
        assert!(out_dir.join(format!("g_{skin}.png")).exists());
    }
    std::fs::remove_dir_all(&out_dir).unwrap();
}
