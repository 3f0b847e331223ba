//! `modex info`, `modex export` on the project's own sample scene (data/cutscene), run as a user
//! would run them.

use std::path::{Path, PathBuf};
use std::process::Command;

fn modex() -> Command {
    Command::new(env!("CARGO_BIN_EXE_modex"))
}

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/cutscene")
        .join(rel)
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("modex-cli-cutscene-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    let _ = std::fs::remove_file(&p);
    p
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run modex");
    assert!(
        out.status.success(),
        "modex failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn info_json_of_a_clip() {
    let out = run_ok(
        modex()
            .args(["info", "--json"])
            .arg(data("clips/radar.bbhd")),
    );
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["format"], "bbhd");
    assert_eq!(v["width"], 64);
    assert_eq!(v["height"], 48);
    assert_eq!(v["records"], 12);
    assert_eq!(v["pictures"], 11);
    assert_eq!(v["playback_flags"], 3);
    assert!(v["transparent_index"].is_null());
}

#[test]
fn info_of_archives_scripts_and_sounds() {
    let out = run_ok(
        modex()
            .args(["info", "--json"])
            .arg(data("ANI/AFUL000.LIB"))
            .arg(data("ASCR001.ascr"))
            .arg(data("ENG/AFXS000.LIB")),
    );
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["format"], "lib");
    assert_eq!(lines[0]["entries"], 3);
    assert_eq!(lines[0]["list"][2]["name"], "SPRITE");
    assert_eq!(lines[1]["format"], "ascr");
    assert_eq!(lines[1]["end_tick"], 150);
    assert_eq!(lines[2]["list"][0]["kind"], "voc");
    let text = run_ok(modex().arg("info").arg(data("clips/background.bbhd")));
    assert!(
        text.contains("23 pictures in forward play, 2 anchors"),
        "{text}"
    );
}

#[test]
fn info_refuses_a_broken_clip() {
    let mut bytes = std::fs::read(data("clips/radar.bbhd")).unwrap();
    bytes[80] ^= 0x55; // inside record 0's length
    let p = temp("broken.bbhd");
    std::fs::write(&p, &bytes).unwrap();
    let out = modex().args(["info"]).arg(&p).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("BBHD"), "{err}");
    std::fs::remove_file(p).unwrap();
}

#[test]
fn export_clip_writes_one_indexed_png_per_picture_with_a_grey_ramp() {
    let dir = temp("clip");
    run_ok(
        modex()
            .arg("export")
            .arg(data("clips/radar.bbhd"))
            .arg("--png")
            .arg(&dir),
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // 12 records, one anchor: 11 pictures.
    let want: Vec<String> = (0..11).map(|i| format!("{i:04}.png")).collect();
    assert_eq!(names, want);
    let (frame, pal) =
        modex::pngio::decode_indexed(&std::fs::read(dir.join("0003.png")).unwrap()).unwrap();
    assert_eq!((frame.width(), frame.height()), (64, 48));
    assert_eq!(pal, modex::Palette::grey_ramp());
    // The radar background is index 150 in the corner.
    assert_eq!(frame.get(0, 0), Some(150));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn export_archive_entry_with_a_palette_and_a_gif() {
    let dir = temp("entry");
    let gif = temp("entry.gif");
    run_ok(
        modex()
            .arg("export")
            .arg(data("ANI/AFUL000.LIB"))
            .args(["--entry", "2", "--png"])
            .arg(&dir)
            .arg("--gif")
            .arg(&gif)
            .arg("--palette")
            .arg(data("day.pal")),
    );
    assert!(dir.join("0005.png").exists() && !dir.join("0006.png").exists());
    let (_, pal) =
        modex::pngio::decode_indexed(&std::fs::read(dir.join("0000.png")).unwrap()).unwrap();
    assert_eq!(pal.colors[15], [255, 255, 255]);
    assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_file(gif).unwrap();
    // Without --entry an archive is refused with a hint.
    let out = modex()
        .arg("export")
        .arg(data("ANI/AFUL000.LIB"))
        .args(["--png", "/nonexistent"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--entry"));
}

#[test]
fn export_scene_folder_to_pngs_and_wav() {
    let dir = temp("scene");
    let wav = temp("scene.wav");
    run_ok(
        modex()
            .arg("export")
            .arg(data(""))
            .args(["--script", "1", "--png"])
            .arg(&dir)
            .arg("--wav")
            .arg(&wav),
    );
    assert!(dir.join("0149.png").exists() && !dir.join("0150.png").exists());
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/cutscene/tests/golden/scene_t100.png");
    // Decoded: palette indices and palette, not the PNG encoder's bytes.
    let decode = |p: PathBuf| modex::pngio::decode_indexed(&std::fs::read(p).unwrap()).unwrap();
    assert!(decode(dir.join("0100.png")) == decode(golden));
    let samples = wav_samples(&wav);
    assert_eq!(samples, 150 * 882);
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_file(wav).unwrap();
}

/// Number of samples in a 16-bit mono WAV (header parsed by hand to keep the test's dependencies
/// to the binary's own).
fn wav_samples(path: &Path) -> usize {
    let b = std::fs::read(path).unwrap();
    assert_eq!(&b[..4], b"RIFF");
    let mut i = 12;
    while i + 8 <= b.len() {
        let size = u32::from_le_bytes(b[i + 4..i + 8].try_into().unwrap()) as usize;
        if &b[i..i + 4] == b"data" {
            return size / 2;
        }
        i += 8 + size;
    }
    panic!("no data chunk");
}
