//! A scene against a clock, for every frontend: the frame and palette of any tick, and the scene's
//! sounds started on a [`Mixer`] as the ticks pass.
//!
//! A [`Playback`] is what a player window, an intro or an exporter drives: the frontend only
//! chooses *which* tick to show (from the wall clock, a [`crate::Transport`], or every
//! tick in turn) and where the frame and the mixer's samples go. Sounds start when their tick is
//! passed in forward play, including every tick skipped over between two frames; a jump
//! ([`Playback::jump`]) silences the mixer instead of firing every sound skipped over. The mixer
//! is the core's deterministic one, so [`mix_sound`] gives the same samples every run.

use std::collections::BTreeMap;

use modex::{IndexedFrame, Mixer, Palette, Sound};

use crate::ascr::TICKS_PER_SECOND;
use crate::scene::Scene;
use crate::sequencer::{Sequencer, SoundEvent, Timeline};

/// A scene being played: its sequencer and the mixer its sounds play on.
#[derive(Debug)]
pub struct Playback<'s> {
    sounds: &'s BTreeMap<(i32, i32), Sound>,
    sequencer: Sequencer,
    mixer: Mixer,
    /// The last tick whose sounds were started (or jumped to).
    sounded: Option<u32>,
}

impl<'s> Playback<'s> {
    /// Play `scene` with its sounds on `mixer` (a handle: the caller may also give it to an audio
    /// device, as the binary does with `modex_desktop::AudioOutput`).
    pub fn new(scene: &'s Scene, mixer: Mixer) -> Self {
        Playback {
            sounds: &scene.assets.sounds,
            sequencer: Sequencer::for_scene(scene),
            mixer,
            sounded: None,
        }
    }

    /// The compiled scene.
    pub fn timeline(&self) -> &Timeline {
        self.sequencer.timeline()
    }

    /// Scene length in ticks.
    pub fn length(&self) -> u32 {
        self.timeline().length()
    }

    /// The mixer the sounds play on.
    pub fn mixer(&self) -> &Mixer {
        &self.mixer
    }

    /// Start the sounds of every tick after the last one sounded, up to and including `tick`.
    /// A tick at or before the last one sounded starts nothing (playing on from there starts the
    /// sounds after it).
    pub fn sound_to(&mut self, tick: u32) {
        let from = match self.sounded {
            Some(s) if tick <= s => {
                self.sounded = Some(tick);
                return;
            }
            Some(s) => s + 1,
            None => 0,
        };
        for t in from..=tick {
            apply_sound_events(&self.mixer, &self.timeline().sound_events(t), self.sounds);
        }
        self.sounded = Some(tick);
    }

    /// The position jumped to `tick` (a seek): silence every channel and start no sound skipped
    /// over; forward play from `tick` starts the sounds after it.
    pub fn jump(&mut self, tick: u32) {
        self.mixer.stop_all();
        self.sounded = Some(tick);
    }

    /// Silence every channel (the scene ended or was left).
    pub fn stop(&self) {
        self.mixer.stop_all();
    }

    /// The frame of tick `tick` (see [`Sequencer::frame_at`]).
    pub fn frame_at(&mut self, tick: u32) -> &IndexedFrame {
        self.sequencer.frame_at(tick)
    }

    /// The palette of tick `tick`.
    pub fn palette_at(&self, tick: u32) -> Palette {
        self.sequencer.palette_at(tick)
    }
}

/// Start and stop sounds on `mixer`. Sounds missing from `sounds` are skipped (the scene already
/// warned when it failed to load them).
fn apply_sound_events(mixer: &Mixer, events: &[SoundEvent], sounds: &BTreeMap<(i32, i32), Sound>) {
    for e in events {
        match e {
            SoundEvent::Play {
                channel,
                bank,
                sound,
                volume,
                repeat,
            } => {
                if let Some(s) = sounds.get(&(*bank, *sound)) {
                    mixer.play(*channel, s, *volume, *repeat);
                }
            }
            SoundEvent::Stop { channel } => mixer.stop(*channel),
            SoundEvent::StopAll => mixer.stop_all(),
        }
    }
}

/// The scene's sound from tick 0 to its end, mixed at `rate` samples per second (mono,
/// -1.0..=1.0): `rate / 25` samples per tick, each tick's sounds started before its samples are
/// mixed.
pub fn mix_sound(scene: &Scene, rate: u32) -> Sound {
    let mut playback = Playback::new(scene, Mixer::new(rate));
    let rate = playback.mixer.rate();
    let per_tick = (rate / TICKS_PER_SECOND) as usize;
    let mut samples = Vec::with_capacity(per_tick * playback.length() as usize);
    for t in 0..playback.length() {
        playback.sound_to(t);
        samples.extend(playback.mixer.render(per_tick));
    }
    Sound::new(rate, samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::SceneAssets;

    /// A scene of 10 ticks whose one sound (1.0 for 4 samples at 100 Hz) starts at tick 2.
    fn beep_scene() -> Scene {
        let mut assets = SceneAssets::default();
        assets.sounds.insert((0, 0), Sound::new(100, vec![1.0; 4]));
        Scene {
            script: crate::ascr::parse_script(b"fx(1,0,0,2,127,1)\nEnd(10)").unwrap(),
            assets,
            warnings: vec![],
            width: 4,
            height: 4,
        }
    }

    #[test]
    fn sounds_start_once_in_forward_play_and_not_after_a_jump() {
        let scene = beep_scene();
        let mut p = Playback::new(&scene, Mixer::new(100));
        p.sound_to(1);
        assert!(!p.mixer().is_playing(1));
        // Ticks skipped between two frames still sound.
        p.sound_to(5);
        assert!(p.mixer().is_playing(1));
        p.stop();
        // Going back starts nothing; playing on from there starts tick 2 again.
        p.sound_to(0);
        assert!(!p.mixer().is_playing(1));
        p.sound_to(3);
        assert!(p.mixer().is_playing(1));
        // A jump silences and skips.
        p.jump(1);
        assert!(!p.mixer().is_playing(1));
        p.jump(0);
        p.sound_to(1);
        assert!(!p.mixer().is_playing(1));
        assert_eq!(p.length(), 10);
    }

    #[test]
    fn mixed_sound_has_rate_over_25_samples_a_tick() {
        let s = mix_sound(&beep_scene(), 100);
        assert_eq!(s.rate, 100);
        assert_eq!(s.samples.len(), 10 * 4);
        assert!(s.samples[..8].iter().all(|&v| v == 0.0));
        assert!(s.samples[8..12].iter().all(|&v| v == 1.0));
        assert!(s.samples[12..].iter().all(|&v| v == 0.0));
    }
}
