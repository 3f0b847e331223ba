//! The one frame pacer of the demo's runs: how many simulation steps each frame takes, and when the
//! next frame may begin.
//!
//! The simulation always advances by the fixed step ([`STEP`], 60 Hz); what differs between runs
//! is how frames relate to the wall clock, so that is the only choice ([`Pacing`]) a run makes.

use std::time::{Duration, Instant};

use modex_demo::scene::world::STEP;

/// The longest wall-clock gap between two window frames that the simulation makes up, seconds:
/// after a stall (the window dragged, the machine busy) the battlefield moves on by at most this
/// much instead of running hundreds of steps in one frame.
const MAX_FRAME_GAP: f32 = 0.25;
/// The most lateness fixed-rate frames make up by running faster.
const MAX_CATCH_UP: Duration = Duration::from_millis(100);

/// How a run's frames follow the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pacing {
    /// One step per frame, frames as fast as they are drawn: frame N shows scene time N / 60 s on
    /// any machine, so headless frames are the same bytes everywhere.
    Unpaced,
    /// One step per frame, frames at the step's 60 Hz against the wall clock: the networked runs,
    /// whose server time is the frame count and whose peers expect a datagram every step.
    FixedRate,
    /// Frames as fast as the window presents them, the simulation stepping as the wall clock runs
    /// (none, one or several steps a frame), so the camera is smooth at any frame rate while the
    /// units keep their speed; nothing steps while paused.
    WallClock,
}

/// The start of a frame, as [`Pacer::begin`] reports it.
#[derive(Debug, Clone, Copy)]
pub struct Tick {
    /// When the frame began.
    pub started: Instant,
    /// Seconds since the previous frame began (at most [`MAX_FRAME_GAP`]), for the camera keys.
    pub dt: f32,
}

/// Frames against the clock, by a [`Pacing`].
#[derive(Debug)]
pub struct Pacer {
    pacing: Pacing,
    /// When the previous frame began.
    last: Instant,
    /// Seconds between the previous frame's start and this one's.
    dt: f32,
    /// Frames begun.
    begun: u64,
    /// Wall-clock seconds not yet simulated ([`Pacing::WallClock`]).
    lag: f32,
    /// The instant frame 0 was due ([`Pacing::FixedRate`]; moved on after a stall).
    due_from: Instant,
    /// Frames waited for ([`Pacing::FixedRate`]).
    waited: u32,
}

impl Pacer {
    /// A pacer whose clock starts now.
    pub fn new(pacing: Pacing) -> Pacer {
        let now = Instant::now();
        Pacer {
            pacing,
            last: now,
            dt: 0.0,
            begun: 0,
            lag: 0.0,
            due_from: now,
            waited: 0,
        }
    }

    /// A frame begins.
    pub fn begin(&mut self) -> Tick {
        let now = Instant::now();
        self.dt = (now - self.last).as_secs_f32().min(MAX_FRAME_GAP);
        self.last = now;
        self.begun += 1;
        Tick {
            started: now,
            dt: self.dt,
        }
    }

    /// The simulation steps due before the frame that just began is drawn; none while `paused`.
    /// The first frame shows the world as the run was handed it.
    pub fn steps(&mut self, paused: bool) -> u32 {
        if paused {
            return 0;
        }
        match self.pacing {
            Pacing::Unpaced | Pacing::FixedRate => u32::from(self.begun > 1),
            Pacing::WallClock => {
                self.lag += self.dt;
                let mut steps = 0;
                while self.lag >= STEP {
                    self.lag -= STEP;
                    steps += 1;
                }
                steps
            }
        }
    }

    /// The frame has been shown: sleep until the next one is due ([`Pacing::FixedRate`]; the other
    /// pacings go straight on). A little lateness is caught up (so the simulation keeps wall-clock
    /// time); a stall of more than [`MAX_CATCH_UP`] is forgiven instead, so the peers do not get a
    /// burst of frames at once.
    pub fn wait(&mut self) {
        if self.pacing != Pacing::FixedRate {
            return;
        }
        self.waited += 1;
        let step = Duration::from_secs_f64(STEP as f64);
        let due = self.due_from + step * self.waited;
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        } else if now - due > MAX_CATCH_UP {
            self.due_from = now - step * self.waited;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_per_frame_after_the_first() {
        for pacing in [Pacing::Unpaced, Pacing::FixedRate] {
            let mut p = Pacer::new(pacing);
            let steps: Vec<u32> = (0..4)
                .map(|_| {
                    p.begin();
                    p.steps(false)
                })
                .collect();
            assert_eq!(steps, [0, 1, 1, 1], "{pacing:?}");
        }
    }

    #[test]
    fn the_wall_clock_steps_what_has_passed_and_holds_while_paused() {
        let mut p = Pacer::new(Pacing::WallClock);
        p.begin();
        assert_eq!(p.steps(false), 0);
        // Two and a half steps of wall-clock time: two steps, the half kept for the next frame.
        p.dt = 2.5 * STEP;
        assert_eq!(p.steps(false), 2);
        p.dt = 0.6 * STEP;
        assert_eq!(p.steps(true), 0);
        assert_eq!(p.steps(false), 1);
    }

    #[test]
    fn fixed_rate_frames_keep_the_step() {
        let mut p = Pacer::new(Pacing::FixedRate);
        let start = Instant::now();
        for _ in 0..3 {
            p.begin();
            p.wait();
        }
        assert!(start.elapsed() >= Duration::from_secs_f64(STEP as f64) * 3);
        // The other pacings never sleep.
        let mut free = Pacer::new(Pacing::Unpaced);
        let start = Instant::now();
        for _ in 0..100 {
            free.begin();
            free.wait();
        }
        assert!(start.elapsed() < Duration::from_secs_f64(STEP as f64) * 100);
    }
}
