//! The interactive player: a window showing a scene at 25 ticks per second with its sound.
//!
//! Keys: Space pause/resume; Right / Left one tick forward / back (pauses); Up / Down one second
//! forward / back; Page Up / Page Down ten seconds; Home back to the start; `+` / `-` speed 0.25x to
//! 4x; A toggles 4:3 aspect correction; Esc quits.
//!
//! The window only chooses *which* tick to show; the [`Sequencer`] draws every tick in between, so
//! what is on screen does not depend on the speed or on seeking (see the sequencer's docs). Sounds
//! start when their tick is passed in forward play; seeking silences the mixer instead of firing
//! every sound skipped over.

use std::sync::Arc;
use std::time::{Duration, Instant};

use modex::minifb::{Key, KeyRepeat};
use modex::present::{Present, WindowPresenter};
use modex::{AudioOutput, Mixer};

use crate::scene::Scene;
use crate::sequencer::{apply_sound_events, Sequencer, Timeline, TICKS_PER_SECOND};

/// Slowest and fastest playback speed.
pub const SPEED_RANGE: (f32, f32) = (0.25, 4.0);

/// How to open the player.
#[derive(Debug, Clone)]
pub struct PlayerOptions {
    pub title: String,
    pub scale: usize,
    pub aspect_4_3: bool,
    pub speed: f32,
}

/// Playback position and speed, apart from the window so the rules can be tested headless.
#[derive(Debug, Clone, PartialEq)]
pub struct Transport {
    /// Position in ticks (fractional while playing).
    pub position: f64,
    pub paused: bool,
    pub speed: f32,
    pub length: u32,
}

/// What a key asks the transport to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    TogglePause,
    /// Move by this many ticks and pause (frame stepping).
    Step(i64),
    /// Move by this many ticks, keep playing or paused as before.
    Seek(i64),
    Restart,
    Faster,
    Slower,
}

impl Transport {
    pub fn new(length: u32, speed: f32) -> Self {
        Transport {
            position: 0.0,
            paused: false,
            speed: speed.clamp(SPEED_RANGE.0, SPEED_RANGE.1),
            length: length.max(1),
        }
    }

    /// The tick to show.
    pub fn tick(&self) -> u32 {
        (self.position.max(0.0) as u32).min(self.length - 1)
    }

    /// Advance by wall-clock time; stops (paused) on the last tick.
    pub fn advance(&mut self, dt: Duration) {
        if self.paused {
            return;
        }
        self.position += dt.as_secs_f64() * TICKS_PER_SECOND as f64 * self.speed as f64;
        if self.position >= (self.length - 1) as f64 {
            self.position = (self.length - 1) as f64;
            self.paused = true;
        }
    }

    /// Apply a key's action. Returns whether the position jumped (so sound should be silenced).
    pub fn apply(&mut self, action: Action) -> bool {
        let last = (self.length - 1) as f64;
        match action {
            Action::TogglePause => {
                if self.paused && self.tick() + 1 >= self.length {
                    self.position = 0.0;
                }
                self.paused = !self.paused;
                false
            }
            Action::Step(d) => {
                self.paused = true;
                self.position = (self.tick() as f64 + d as f64).clamp(0.0, last);
                d < 0
            }
            Action::Seek(d) => {
                self.position = (self.position + d as f64).clamp(0.0, last);
                true
            }
            Action::Restart => {
                self.position = 0.0;
                true
            }
            Action::Faster => {
                self.speed = (self.speed * 2.0).min(SPEED_RANGE.1);
                false
            }
            Action::Slower => {
                self.speed = (self.speed / 2.0).max(SPEED_RANGE.0);
                false
            }
        }
    }
}

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
pub fn run(scene: &Scene, opts: &PlayerOptions) -> Result<(), String> {
    let timeline = Arc::new(Timeline::new(scene));
    let (w, h) = timeline.size();
    let mut seq = Sequencer::new(timeline.clone());
    let mixer = Mixer::default();
    let _audio = AudioOutput::open(&mixer);
    let mut window = WindowPresenter::open(&opts.title, w, h, opts.scale, opts.aspect_4_3)
        .map_err(|e| format!("cannot open a window: {e}"))?;
    let mut transport = Transport::new(timeline.length(), opts.speed);
    // Ticks whose sounds have been started.
    let mut sounded: Option<u32> = None;
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
                    mixer.stop_all();
                    sounded = Some(transport.tick());
                }
            }
        }
        let tick = transport.tick();
        // Sounds of every tick passed in forward play since the last frame.
        match sounded {
            Some(s) if tick <= s => sounded = Some(tick),
            _ => {
                let from = sounded.map_or(0, |s| s + 1);
                for t in from..=tick {
                    apply_sound_events(&mixer, &timeline.sound_events(t), &scene.assets.sounds);
                }
                sounded = Some(tick);
            }
        }
        let palette = seq.palette_at(tick);
        let open = window
            .present_indexed(seq.frame_at(tick), &palette)
            .map_err(|e| e.to_string())?;
        if !open {
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
    mixer.stop_all();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transport_steps_seeks_and_clamps_speed() {
        let mut t = Transport::new(100, 8.0);
        assert_eq!(t.speed, 4.0);
        t.advance(Duration::from_millis(100));
        assert_eq!(t.tick(), 10); // 0.1 s at 4x = 10 ticks
        t.apply(Action::Step(1));
        assert!(t.paused);
        assert_eq!(t.tick(), 11);
        t.apply(Action::Step(-1));
        assert_eq!(t.tick(), 10);
        t.advance(Duration::from_secs(5));
        assert_eq!(t.tick(), 10, "paused");
        assert!(t.apply(Action::Seek(-1000)));
        assert_eq!(t.tick(), 0);
        for _ in 0..5 {
            t.apply(Action::Slower);
        }
        assert_eq!(t.speed, 0.25);
        t.apply(Action::TogglePause);
        t.advance(Duration::from_secs(100));
        assert_eq!(t.tick(), 99);
        assert!(t.paused, "stops on the last tick");
        t.apply(Action::TogglePause);
        assert_eq!(t.tick(), 0, "resuming at the end restarts");
        assert_eq!(action_for(Key::Right), Some(Action::Step(1)));
        assert_eq!(action_for(Key::Q), None);
    }
}
