//! The sample scene in `data/cutscene/`: it regenerates to the same bytes, loads without warnings,
//! plays to the golden frames, and plays the same at any speed.
//!
//! Golden frames live in `tests/golden/scene_tNNN.png` (indexed PNGs, compared byte for byte).
//! After a deliberate change, rewrite them with `MODEX_BLESS=1 cargo test -p modex-cutscene --test
//! sample_scene` and look at every image before committing.

use std::path::PathBuf;
use std::sync::Arc;

use modex::pngio;
use modex_cutscene::export::{export_scene, ExportTargets};
use modex_cutscene::sample_scene::{self, SCRIPT_NUMBER};
use modex_cutscene::{GameDir, Scene, Sequencer, Timeline};

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/cutscene")
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn load_scene() -> Scene {
    Scene::load_script(&GameDir::new(data_dir()), SCRIPT_NUMBER).expect("sample script")
}

#[test]
fn regenerating_gives_the_committed_bytes() {
    let files = sample_scene::generate();
    let total: usize = files.iter().map(|f| f.bytes.len()).sum();
    assert!(
        total < 1 << 20,
        "sample data must stay well under 1 MB, is {total}"
    );
    for f in files {
        let committed = std::fs::read(data_dir().join(f.path))
            .unwrap_or_else(|e| panic!("{}: {e} (run the make_sample_scene example)", f.path));
        assert!(
            committed == f.bytes,
            "{} differs from the generator's output",
            f.path
        );
    }
}

#[test]
fn scene_loads_every_asset() {
    let scene = load_scene();
    assert!(scene.warnings.is_empty(), "{:?}", scene.warnings);
    assert_eq!(scene.assets.clips.len(), 5);
    assert_eq!(scene.assets.palettes.len(), 2);
    assert_eq!(scene.assets.texts.len(), 2);
    assert_eq!(scene.assets.sounds.len(), 2);
    let tl = Timeline::new(&scene);
    assert_eq!(tl.length(), 150);
    // END 5 is played as END 0, with a note; fmstart is noted as ignored.
    assert!(
        tl.notes().iter().any(|n| n.contains("END 5")),
        "{:?}",
        tl.notes()
    );
    assert!(
        tl.notes().iter().any(|n| n.contains("fmstart")),
        "{:?}",
        tl.notes()
    );
}

const GOLDEN_TICKS: [u32; 8] = [0, 12, 35, 62, 80, 100, 121, 149];

fn check_golden(name: &str, bytes: &[u8]) {
    let path = golden_dir().join(name);
    if std::env::var_os("MODEX_BLESS").is_some() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        eprintln!("blessed {}", path.display());
        return;
    }
    let want = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; bless with MODEX_BLESS=1", path.display()));
    if want != bytes {
        let out = std::env::temp_dir().join(format!("modex-cutscene-actual-{name}"));
        std::fs::write(&out, bytes).unwrap();
        panic!(
            "{name} differs from the golden frame; actual written to {}",
            out.display()
        );
    }
}

#[test]
fn golden_frames() {
    let scene = load_scene();
    let mut seq = Sequencer::for_scene(&scene);
    for t in GOLDEN_TICKS {
        let palette = seq.palette_at(t);
        let png = pngio::encode_indexed(seq.frame_at(t), &palette).unwrap();
        check_golden(&format!("scene_t{t:03}.png"), &png);
    }
}

#[test]
fn same_frames_at_any_playback_speed() {
    let scene = load_scene();
    let tl = Arc::new(Timeline::new(&scene));
    let mut normal = Sequencer::new(tl.clone());
    let reference: Vec<Vec<u8>> = (0..tl.length())
        .map(|t| normal.frame_at(t).pixels().to_vec())
        .collect();
    // 4x: every fourth tick; 0.25x: each tick asked for four times; stepping backwards; random seeks.
    let mut fast = Sequencer::new(tl.clone());
    for t in (0..tl.length()).step_by(4) {
        assert_eq!(
            fast.frame_at(t).pixels(),
            &reference[t as usize][..],
            "4x, tick {t}"
        );
    }
    let mut slow = Sequencer::new(tl.clone());
    for t in 0..40 {
        for _ in 0..4 {
            assert_eq!(
                slow.frame_at(t).pixels(),
                &reference[t as usize][..],
                "0.25x, tick {t}"
            );
        }
    }
    let mut back = Sequencer::new(tl.clone());
    for t in (0..tl.length()).rev().step_by(7) {
        assert_eq!(
            back.frame_at(t).pixels(),
            &reference[t as usize][..],
            "backwards, tick {t}"
        );
    }
    let mut seek = Sequencer::new(tl.clone());
    for t in [140u32, 3, 77, 76, 149, 0, 26, 24, 25, 100] {
        assert_eq!(
            seek.frame_at(t).pixels(),
            &reference[t as usize][..],
            "seek, tick {t}"
        );
    }
}

#[test]
fn export_writes_every_tick_a_gif_and_the_sound() {
    let scene = load_scene();
    let dir = std::env::temp_dir().join(format!("modex-cutscene-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let targets = ExportTargets {
        png_dir: Some(dir.join("png")),
        gif: Some(dir.join("scene.gif")),
        wav: Some(dir.join("scene.wav")),
    };
    let summary = export_scene(&scene, &targets, &indicatif::ProgressBar::hidden()).unwrap();
    assert_eq!(summary.pngs, 150);
    assert_eq!(summary.wav_samples, 150 * 882);
    assert!(
        summary.gif_frames > 10 && summary.gif_frames <= 150,
        "{summary:?}"
    );
    let last = std::fs::read(dir.join("png/0149.png")).unwrap();
    let golden = std::fs::read(golden_dir().join("scene_t149.png"));
    if let Ok(golden) = golden {
        assert_eq!(last, golden, "export and sequencer disagree at tick 149");
    }
    // The sound: the noise burst at tick 5 is audible; before it only the typed-text ties could
    // sound, and no text is typed before tick 60.
    let wav = hound::WavReader::open(dir.join("scene.wav")).unwrap();
    let samples: Vec<i16> = wav.into_samples().map(Result::unwrap).collect();
    assert_eq!(samples.len(), 150 * 882);
    assert!(samples[..5 * 882].iter().all(|&s| s == 0));
    assert!(samples[5 * 882..8 * 882].iter().any(|&s| s.abs() > 1000));
    // After fxstop(145) everything is silent.
    assert!(samples[146 * 882..].iter().all(|&s| s == 0));
    std::fs::remove_dir_all(&dir).unwrap();
}
