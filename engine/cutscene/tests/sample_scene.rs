//! The sample scene in `data/cutscene/`: it regenerates to the same bytes, loads without warnings,
//! plays to the golden frames, and plays the same at any speed.
//!
//! Golden frames live in `tests/golden/scene_tNNN.png`: indexed PNGs, compared decoded with
//! [`Golden::check_indexed`] (palette indices byte for byte, and the palette). After a deliberate
//! change, rewrite them with `MODEX_BLESS=1 cargo test -p modex-cutscene --test sample_scene` and
//! look at every image before committing.
//!
//! The exporter's test (every tick, a GIF and the sound) is with the exporter, in the `modex`
//! binary (`game-demo/src/cli/formats/cutscene/export.rs`).

use std::path::PathBuf;
use std::sync::Arc;

use modex_cutscene::{mix_sound, GameDir, Scene, Sequencer, Timeline};
use modex_testkit::sample_scene::{self, SCRIPT_NUMBER};
use modex_testkit::Golden;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/cutscene")
}

fn golden() -> Golden {
    Golden::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden"),
        "modex-cutscene",
    )
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
    // The project's own scene uses only what the original text explains, so it plays without a
    // substitution note (the demo plays it as its intro at every start); fmstart, whose result the
    // text does not bind, is the one command noted as ignored.
    assert!(
        tl.notes().len() == 1 && tl.notes()[0].contains("fmstart"),
        "{:?}",
        tl.notes()
    );
}

const GOLDEN_TICKS: [u32; 8] = [0, 12, 35, 62, 80, 100, 121, 149];

#[test]
fn golden_frames() {
    let scene = load_scene();
    let mut seq = Sequencer::for_scene(&scene);
    let golden = golden();
    let mismatches: Vec<String> = GOLDEN_TICKS
        .into_iter()
        .filter_map(|t| {
            let palette = seq.palette_at(t);
            golden
                .check_indexed(&format!("scene_t{t:03}.png"), seq.frame_at(t), &palette)
                .err()
                .map(|e| e.to_string())
        })
        .collect();
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn every_tick_in_order_is_what_seeking_shows() {
    let scene = load_scene();
    let mut seek = Sequencer::for_scene(&scene);
    let mut ticks = 0;
    Sequencer::for_scene(&scene)
        .for_each_tick(|t, frame, palette| {
            assert_eq!(t, ticks);
            ticks += 1;
            assert_eq!(palette, &seek.palette_at(t));
            if GOLDEN_TICKS.contains(&t) {
                assert_eq!(frame, seek.frame_at(t), "tick {t}");
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    assert_eq!(ticks, 150);
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
fn the_scene_sounds_at_its_fx_ticks_and_is_silent_after_fxstop() {
    let sound = mix_sound(&load_scene(), modex::audio::OUTPUT_RATE);
    let tick = 882;
    assert_eq!(sound.rate, 22_050);
    assert_eq!(sound.samples.len(), 150 * tick);
    // The noise burst at tick 5 is audible; before it only the typed-text ties could sound, and
    // no text is typed before tick 60.
    assert!(sound.samples[..5 * tick].iter().all(|&s| s == 0.0));
    assert!(sound.samples[5 * tick..8 * tick]
        .iter()
        .any(|&s| s.abs() > 1000.0 / 32767.0));
    // After fxstop(145) everything is silent.
    assert!(sound.samples[146 * tick..].iter().all(|&s| s == 0.0));
}
