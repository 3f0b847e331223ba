//! The `modex` binary on voxel files: `info` (text and JSON), `render` (8-bit and 8888) and errors.
//! Models are written by the VXL crate's writer into a temporary folder; the real samples are
//! used when present (skipped with a notice otherwise).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use modex_vxl::encode::{translation, HvaSpec, LimbSpec, VxlSpec};

fn modex(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_modex"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("run modex")
}

/// `modex` with `args`, which must succeed (its error output is the failure's message).
fn modex_ok(args: &[&str]) -> Output {
    let out = modex(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `modex render VXL -o PNG --format FORMAT` plus `extra`, which must succeed; the PNG decoded to
/// RGBA (an 8-bit PNG through its palette and transparency).
fn render_rgba(vxl: &Path, png: &Path, format: &str, extra: &[&str]) -> Vec<u8> {
    let mut args = vec!["render", s(vxl), "-o", s(png), "--format", format];
    args.extend_from_slice(extra);
    modex_ok(&args);
    modex::pngio::decode_rgba(&std::fs::read(png).unwrap())
        .unwrap()
        .2
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("modex-cli-voxel-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A two-layer tank body with a 3-frame HVA and a barrel, beside each other.
fn write_tank(dir: &Path) -> PathBuf {
    let mut a = LimbSpec::filled_box([10, 6, 3], 100, 5);
    a.name = "hull".into();
    let mut b = LimbSpec::filled_box([4, 4, 2], 120, 9);
    b.name = "top".into();
    b.voxels.retain(|v| v.0 != 0);
    let vxl = VxlSpec {
        limbs: vec![a, b],
        ..VxlSpec::default()
    };
    let mut hva = HvaSpec::identity(2, 3);
    for f in 0..3 {
        hva.frames[f][1] = translation([0.0, 0.0, 36.0 + f as f32 * 12.0]);
    }
    std::fs::write(dir.join("tank.vxl"), vxl.encode()).unwrap();
    std::fs::write(dir.join("tank.hva"), hva.encode()).unwrap();
    let barl = VxlSpec::single(LimbSpec::filled_box([8, 1, 1], 130, 2));
    std::fs::write(dir.join("tankbarl.vxl"), barl.encode()).unwrap();
    std::fs::write(dir.join("tankbarl.hva"), HvaSpec::identity(1, 1).encode()).unwrap();
    dir.join("tank.vxl")
}

fn json_of(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn info_json_lists_limbs_and_the_hva_beside_it() {
    let dir = tmp("info");
    let vxl = write_tank(&dir);
    let j = json_of(&modex(&["info", "--json", s(&vxl)]));
    assert_eq!(j["format"], "vxl");
    let limbs = j["limbs"].as_array().unwrap();
    assert_eq!(limbs.len(), 2);
    assert_eq!(limbs[0]["name"], "hull");
    assert_eq!(limbs[0]["size"], serde_json::json!([10, 6, 3]));
    assert_eq!(limbs[0]["normals_mode"], 2);
    assert_eq!(limbs[0]["voxels"], 180);
    assert_eq!(limbs[1]["voxels"], 24);
    assert_eq!(j["hva_frames"], 3);
    assert_eq!(j["hva_sections"], 2);

    // Without the HVA beside it the keys are absent.
    std::fs::remove_file(dir.join("tank.hva")).unwrap();
    let j = json_of(&modex(&["info", "--json", s(&vxl)]));
    assert!(j.get("hva_frames").is_none());

    // .hva and .vpl get their own info.
    let j = json_of(&modex(&["info", "--json", s(&dir.join("tankbarl.hva"))]));
    assert_eq!(j["format"], "hva");
    assert_eq!(j["frames"], 1);
    let text = modex(&["info", s(&vxl)]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("2 layers, 204 voxels"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn unreadable_files_exit_non_zero_with_the_error() {
    let dir = tmp("bad");
    let vxl = write_tank(&dir);
    let bytes = std::fs::read(&vxl).unwrap();
    let cut = dir.join("cut.vxl");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    // With --json, one line per file on stdout; a failure is {"error": ...} in its place.
    let out = modex(&["info", "--json", s(&cut), s(&vxl), s(&dir.join("none.vxl"))]);
    assert!(!out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    let err = lines[0]["error"].as_str().unwrap();
    assert!(err.contains("VXL") && err.contains("tailer"), "{err}");
    assert!(lines[1]["error"].is_null() && lines[1]["format"].is_string());
    assert!(lines[2]["error"].as_str().unwrap().contains("none.vxl"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 of 3 files"), "{err}");
    // A short VPL.
    let vpl = dir.join("voxels.vpl");
    std::fs::write(&vpl, [0u8; 100]).unwrap();
    let out = modex(&["info", s(&vpl)]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("VPL"));
    // An HVA with no frames: info works, rendering refuses with a clear error.
    std::fs::remove_file(&vpl).unwrap();
    std::fs::write(dir.join("tank.hva"), HvaSpec::identity(2, 0).encode()).unwrap();
    let j = json_of(&modex(&["info", "--json", s(&vxl)]));
    assert_eq!(j["hva_frames"], 0);
    let png = dir.join("x.png");
    let out = modex(&["render", s(&vxl), "-o", s(&png)]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no frames"));
    // An HVA is not rendered on its own.
    let out = modex(&["render", s(&dir.join("tank.hva")), "-o", s(&png)]);
    assert!(!out.status.success());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn render_writes_indexed_and_true_colour_pngs() {
    let dir = tmp("render");
    let vxl = write_tank(&dir);
    let png8 = dir.join("t8.png");
    modex_ok(&[
        "render",
        s(&vxl),
        "-o",
        s(&png8),
        "--facing",
        "64",
        "--frame",
        "4",
        "--size",
        "96x64",
    ]);
    let (f, _) = modex::pngio::decode_indexed(&std::fs::read(&png8).unwrap()).unwrap();
    assert_eq!((f.width(), f.height()), (96, 64));
    assert!(f.pixels().iter().filter(|&&p| p != 0).count() > 300);

    let png32 = dir.join("t32.png");
    modex_ok(&[
        "render",
        s(&vxl),
        "-o",
        s(&png32),
        "--format",
        "8888",
        "--size",
        "96x64",
        "--threads",
        "1",
    ]);
    let (w, h, rgba) = modex::pngio::decode_rgba(&std::fs::read(&png32).unwrap()).unwrap();
    assert_eq!((w, h), (96, 64));
    assert!(rgba.chunks(4).filter(|p| p[3] == 255).count() > 300);

    // Facing changes the picture.
    let png8b = dir.join("t8b.png");
    modex(&[
        "render",
        s(&vxl),
        "-o",
        s(&png8b),
        "--facing",
        "0",
        "--frame",
        "4",
        "--size",
        "96x64",
    ]);
    assert_ne!(
        std::fs::read(&png8).unwrap(),
        std::fs::read(&png8b).unwrap()
    );
    // Out-of-range facing is refused.
    assert!(
        !modex(&["render", s(&vxl), "-o", s(&png8b), "--facing", "300"])
            .status
            .success()
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// The 8-bit render shows the unit over nothing, as the 8888 render does: the PNG's key index is
/// transparent exactly where the 8888 render's alpha is 0 (the pixels the unit does not cover;
/// that the unit's own pixels keep their indices is `modex_view::target`'s test).
#[test]
fn the_8bit_render_is_transparent_where_the_8888_render_is() {
    let dir = tmp("keyed");
    let vxl = write_tank(&dir);
    let extra = [
        "--facing",
        "40",
        "--frame",
        "2",
        "--size",
        "96x64",
        "--threads",
        "1",
    ];
    let rgba8 = render_rgba(&vxl, &dir.join("k8.png"), "8", &extra);
    let rgba32 = render_rgba(&vxl, &dir.join("k32.png"), "8888", &extra);
    let shown = |rgba: &[u8]| rgba.chunks(4).map(|p| p[3] != 0).collect::<Vec<_>>();
    let (shown8, shown32) = (shown(&rgba8), shown(&rgba32));
    assert!(shown32.iter().filter(|&&c| c).count() > 300);
    assert!(
        shown32.iter().any(|&c| !c),
        "the unit does not fill the picture"
    );
    assert_eq!(shown8, shown32);
    // Every shown pixel of the 8-bit picture is opaque, every other fully transparent.
    assert!(rgba8.chunks(4).all(|p| p[3] == 0 || p[3] == 255));
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--format 565` and `4444` are drawn natively by the ray-marcher; their PNGs are exactly the
/// 8888 render narrowed to the format, pixel by pixel (what the CLI wrote when it converted).
#[test]
fn true_colour_formats_are_the_8888_render_narrowed() {
    use modex::{Argb4444, Pixel, Rgb565};
    let dir = tmp("formats");
    let vxl = write_tank(&dir);
    let render = |format: &str| {
        let png = dir.join(format!("t{format}.png"));
        let rgba = render_rgba(&vxl, &png, format, &["--size", "80x60"]);
        assert_eq!(rgba.len(), 80 * 60 * 4);
        rgba
    };
    let argb = render("8888");
    assert!(argb.chunks(4).filter(|p| p[3] == 255).count() > 300);
    fn narrowed<P: Pixel>(rgba: &[u8]) -> Vec<u8> {
        rgba.chunks(4)
            .flat_map(|p| P::from_rgba([p[0], p[1], p[2], p[3]]).to_rgba())
            .collect()
    }
    assert!(render("565") == narrowed::<Rgb565>(&argb));
    assert!(render("4444") == narrowed::<Argb4444>(&argb));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn real_samples_info_and_render() {
    let Some(dir) = modex_testkit::samples_dir("vxl") else {
        return;
    };
    let hmec = dir.join("vengi/hmec.vxl");
    let j = json_of(&modex(&["info", "--json", s(&hmec)]));
    assert_eq!(j["limbs"].as_array().unwrap().len(), 13);
    assert_eq!(j["limbs"][12]["voxels"], 6200);
    assert_eq!(
        (j["hva_frames"].as_u64(), j["hva_sections"].as_u64()),
        (Some(17), Some(13))
    );
    let j = json_of(&modex(&["info", "--json", s(&dir.join("vengi/test.vpl"))]));
    assert_eq!(
        (j["format"].as_str(), j["pages"].as_u64()),
        (Some("vpl"), Some(32))
    );

    let out_dir = tmp("samples");
    let png = out_dir.join("hmec.png");
    let vpl = dir.join("vengi/test.vpl");
    let out = modex(&[
        "render",
        s(&hmec),
        "-o",
        s(&png),
        "--facing",
        "64",
        "--frame",
        "3",
        "--palette",
        s(&vpl),
        "--size",
        "200x150",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (f, pal) = modex::pngio::decode_indexed(&std::fs::read(&png).unwrap()).unwrap();
    assert!(f.pixels().iter().filter(|&&p| p != 0).count() > 3000);
    // Drawn through the VPL's palette.
    assert_eq!(pal.colors[144], [191, 147, 63]);
    std::fs::remove_dir_all(out_dir).unwrap();
}
