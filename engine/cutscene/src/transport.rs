//! Playback position and speed of an interactive player, apart from any window so the rules are
//! tested headless: a frontend maps its keys to [`Action`]s and asks [`Transport::tick`] which tick
//! to show.

use std::time::Duration;

use crate::ascr::TICKS_PER_SECOND;

/// Slowest and fastest playback speed.
pub const SPEED_RANGE: (f32, f32) = (0.25, 4.0);

/// Playback position and speed.
#[derive(Debug, Clone, PartialEq)]
pub struct Transport {
    /// Position in ticks (fractional while playing).
    pub position: f64,
    /// Whether the clock stands still.
    pub paused: bool,
    /// Playback speed (1.0 is real time), within [`SPEED_RANGE`].
    pub speed: f32,
    /// The scene's length in ticks (at least 1).
    pub length: u32,
}

/// What a user asks the transport to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Pause, or resume (from the start when paused on the last tick).
    TogglePause,
    /// Move by this many ticks and pause (frame stepping).
    Step(i64),
    /// Move by this many ticks, keep playing or paused as before.
    Seek(i64),
    /// Back to tick 0.
    Restart,
    /// Double the speed.
    Faster,
    /// Halve the speed.
    Slower,
}

impl Transport {
    /// At tick 0 of a scene of `length` ticks, playing at `speed` (clamped to [`SPEED_RANGE`]).
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

    /// Apply an action. Returns whether the position jumped (so sound should be silenced rather
    /// than every sound skipped over started).
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
    }
}
