//! The interactive player: a window showing a scene at 25 ticks per second with its sound.
//!
//! Keys: Space pause/resume; Right / Left one tick forward / back (pauses); Up / Down one second
//! forward / back; Page Up / Page Down ten seconds; Home back to the start; `+` / `-` speed 0.25x to
//! 4x; A toggles 4:3 aspect correction; Esc quits.
//!
//! The window only maps keys to [`Action`]s of the library's [`Transport`], which chooses *which*
//! tick to show; the library's [`Playback`] draws every tick in between and starts the sounds of
//! the ticks passed in forward play, so what is on screen and heard does not depend on the speed or
//! on seeking (seeking silences the mixer instead of firing every sound skipped over).

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex::present::Present;
use modex::Mixer;
use modex_cutscene::{Action, Playback, Scene, Transport, TICKS_PER_SECOND};
use modex_desktop::minifb::{Key, KeyRepeat};
use modex_desktop::{AudioOutput, WindowPresenter};

/// How to open the player.
#[derive(Debug, Clone)]
pub struct PlayerOptions {
    /// Window title (the position and speed are appended).
    pub title: String,
    /// Integer window scale.
    pub scale: usize,
    /// Start with 4:3 aspect correction.
    pub aspect_4_3: bool,
    /// Starting speed, 0.25 to 4.
    pub speed: f32,
}

/// The transport action of a key.
fn action_for(key: Key) -> Option<Action> {
    let second = TICKS_PER_SECOND as i64;
    Some(match key {
        Key::Space => Action::TogglePause,
        Key::Right => Action::Step(1),
        Key::Left => Action::Step(-1),
        Key::Up => Action::Seek(second),
        Key::Down => Action::Seek(-second),
        Key::PageUp => Action::Seek(10 * second),
        Key::PageDown => Action::Seek(-10 * second),
        Key::Home => Action::Restart,
        Key::Equal | Key::NumPadPlus => Action::Faster,
        Key::Minus | Key::NumPadMinus => Action::Slower,
        _ => return None,
    })
}

/// Play `scene` in a window until the user closes it.
pub fn run(scene: &Scene, opts: &PlayerOptions) -> Result<()> {
    let mixer = Mixer::default();
    let _audio = AudioOutput::open(&mixer);
    let mut playback = Playback::new(scene, mixer);
    let (w, h) = playback.timeline().size();
    let mut window = WindowPresenter::open(&opts.title, w, h, opts.scale, opts.aspect_4_3)
        .context("cannot open a window (`modex export` writes a scene without one)")?;
    let mut transport = Transport::new(playback.length(), opts.speed);
    let mut last = Instant::now();
    let mut shown_title = String::new();
    loop {
        let now = Instant::now();
        transport.advance(now - last);
        last = now;
        for key in window.window().get_keys_pressed(KeyRepeat::Yes) {
            if key == Key::A {
                let on = !window.aspect_4_3();
                window.set_aspect_4_3(on);
                continue;
            }
            if let Some(a) = action_for(key) {
                if transport.apply(a) {
                    playback.jump(transport.tick());
                }
            }
        }
        let tick = transport.tick();
        playback.sound_to(tick);
        let palette = playback.palette_at(tick);
        if !window.present_indexed(playback.frame_at(tick), &palette)? {
            break;
        }
        let title = format!(
            "{} - tick {tick}/{} ({:.2}s) {}x{}",
            opts.title,
            transport.length,
            tick as f32 / TICKS_PER_SECOND as f32,
            transport.speed,
            if transport.paused { " [paused]" } else { "" }
        );
        if title != shown_title {
            window.window_mut().set_title(&title);
            shown_title = title;
        }
        std::thread::sleep(Duration::from_millis(4));
    }
    playback.stop();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_transport_actions() {
        assert_eq!(action_for(Key::Right), Some(Action::Step(1)));
        assert_eq!(action_for(Key::PageDown), Some(Action::Seek(-250)));
        assert_eq!(action_for(Key::NumPadPlus), Some(Action::Faster));
        assert_eq!(action_for(Key::Q), None);
    }
}
