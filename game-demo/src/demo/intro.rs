//! The intro cutscene the window plays before the battlefield: the project's own Battle Isle 2-style
//! sample scene (BLEND fade, fx sounds), skipped with Space or Enter.

use std::time::{Duration, Instant};

use anyhow::Result;
use modex::present::Present;
use modex::Mixer;
use modex_cutscene::{GameDir, Playback, Scene, TICKS_PER_SECOND};
use modex_desktop::minifb::{Key, KeyRepeat};
use modex_desktop::WindowPresenter;

/// The project's own sample scene, played as the intro.
const INTRO_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/cutscene");
/// Its script number (ASCR001).
const INTRO_SCRIPT: u32 = 1;

/// Play the intro in the demo's window until it ends or a key (Space, Enter) skips it. Returns
/// whether the window is still open. A missing or broken intro is logged and skipped: the
/// battlefield is the point of the demo.
pub fn play(window: &mut WindowPresenter, mixer: &Mixer) -> Result<bool> {
    let scene = match Scene::load_script(&GameDir::new(INTRO_DIR), INTRO_SCRIPT) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("intro cutscene not played: {e}");
            return Ok(true);
        }
    };
    for w in &scene.warnings {
        log::warn!("intro: {w}");
    }
    let mut playback = Playback::new(&scene, mixer.clone());
    let start = Instant::now();
    loop {
        let tick = (start.elapsed().as_secs_f64() * TICKS_PER_SECOND as f64) as u32;
        if tick >= playback.length() {
            break;
        }
        playback.sound_to(tick);
        let palette = playback.palette_at(tick);
        if !window.present_indexed(playback.frame_at(tick), &palette)? {
            playback.stop();
            return Ok(false);
        }
        let w = window.window();
        if w.is_key_pressed(Key::Space, KeyRepeat::No)
            || w.is_key_pressed(Key::Enter, KeyRepeat::No)
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    playback.stop();
    Ok(true)
}
