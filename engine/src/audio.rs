//! Sound: a small deterministic mixer and its outputs.
//!
//! The [`Mixer`] owns numbered channels (Battle Isle 2 scripts address sounds by channel number), each
//! playing one [`Sound`] at its own volume, optionally repeating. Mixing is pure integer-positioned
//! resampling with linear interpolation, so the same calls always give the same samples. Outputs
//! pull from it:
//! - [`Mixer::render`]: a capture sink that returns the mixed samples, used by tests and WAV export.
//! - [`Mixer::mix_into`]: for a device that asks for blocks; `modex-desktop`'s `AudioOutput` plays
//!   the machine's audio device that way (and, with no device, logs one line and stays silent).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

/// Output sample rate of the mixer.
pub const OUTPUT_RATE: u32 = 22_050;

/// A mono sound, samples in -1.0..=1.0 at `rate` Hz.
#[derive(Debug, Clone, PartialEq)]
pub struct Sound {
    /// Samples per second.
    pub rate: u32,
    /// Mono samples in -1..1, shared between every voice that plays them.
    pub samples: Arc<[f32]>,
}

impl Sound {
    /// A sound of `samples` at `rate` Hz.
    pub fn new(rate: u32, samples: Vec<f32>) -> Self {
        Sound {
            rate: rate.max(1),
            samples: samples.into(),
        }
    }

    /// From 8-bit unsigned PCM (the format of Creative Voice files): 128 is silence.
    pub fn from_u8_pcm(rate: u32, pcm: &[u8]) -> Self {
        Sound::new(
            rate,
            pcm.iter().map(|&b| (b as f32 - 128.0) / 128.0).collect(),
        )
    }

    /// Duration in seconds.
    pub fn duration(&self) -> f64 {
        self.samples.len() as f64 / self.rate as f64
    }
}

/// How often a sound plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// Play `n` times in a row (`Times(1)` = once; 0 counts as once).
    Times(u32),
    /// Loop until stopped.
    Forever,
}

#[derive(Debug, Clone)]
struct Voice {
    sound: Sound,
    /// Position in the sound, 32.32 fixed point.
    pos: u64,
    /// Advance per output sample, 32.32 fixed point.
    step: u64,
    volume: f32,
    plays_left: Option<u32>,
}

#[derive(Debug, Default)]
struct MixState {
    voices: BTreeMap<u32, Voice>,
    master: f32,
}

/// A mixer of numbered channels. Cloning gives another handle to the same mixer.
#[derive(Debug, Clone)]
pub struct Mixer {
    state: Arc<Mutex<MixState>>,
    rate: u32,
}

impl Default for Mixer {
    fn default() -> Self {
        Mixer::new(OUTPUT_RATE)
    }
}

impl Mixer {
    /// A mixer producing `rate` samples per second.
    pub fn new(rate: u32) -> Self {
        Mixer {
            state: Arc::new(Mutex::new(MixState {
                voices: BTreeMap::new(),
                master: 1.0,
            })),
            rate: rate.max(1),
        }
    }

    /// The output rate in Hz.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    fn lock(&self) -> MutexGuard<'_, MixState> {
        // A panic while holding the lock cannot leave the voice map inconsistent: recover it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start `sound` on `channel`, replacing whatever that channel played. `volume` is 0..=1.
    pub fn play(&self, channel: u32, sound: &Sound, volume: f32, repeat: Repeat) {
        let step = ((sound.rate as u64) << 32) / self.rate as u64;
        let plays_left = match repeat {
            Repeat::Times(n) => Some(n.max(1)),
            Repeat::Forever => None,
        };
        self.lock().voices.insert(
            channel,
            Voice {
                sound: sound.clone(),
                pos: 0,
                step,
                volume: volume.clamp(0.0, 1.0),
                plays_left,
            },
        );
    }

    /// Stop `channel` (no-op if silent).
    pub fn stop(&self, channel: u32) {
        self.lock().voices.remove(&channel);
    }

    /// Stop every channel.
    pub fn stop_all(&self) {
        self.lock().voices.clear();
    }

    /// Change the volume of a playing channel.
    pub fn set_volume(&self, channel: u32, volume: f32) {
        if let Some(v) = self.lock().voices.get_mut(&channel) {
            v.volume = volume.clamp(0.0, 1.0);
        }
    }

    /// Overall volume applied after mixing.
    pub fn set_master_volume(&self, volume: f32) {
        self.lock().master = volume.clamp(0.0, 1.0);
    }

    /// Whether `channel` still has a voice playing.
    pub fn is_playing(&self, channel: u32) -> bool {
        self.lock().voices.contains_key(&channel)
    }

    /// Channels currently playing, in ascending order.
    pub fn playing_channels(&self) -> Vec<u32> {
        self.lock().voices.keys().copied().collect()
    }

    /// Mix into `out` (mono), advancing every channel. Finished channels are removed.
    pub fn mix_into(&self, out: &mut [f32]) {
        out.fill(0.0);
        let mut st = self.lock();
        let master = st.master;
        st.voices.retain(|_, v| mix_voice(v, out));
        for s in out.iter_mut() {
            *s = (*s * master).clamp(-1.0, 1.0);
        }
    }

    /// The capture sink: mix the next `n` output samples and return them.
    pub fn render(&self, n: usize) -> Vec<f32> {
        let mut out = vec![0.0; n];
        self.mix_into(&mut out);
        out
    }
}

/// Add one voice into `out`; returns whether it still plays afterwards.
fn mix_voice(v: &mut Voice, out: &mut [f32]) -> bool {
    let len = v.sound.samples.len() as u64;
    if len == 0 {
        return false;
    }
    let s = &v.sound.samples;
    for o in out.iter_mut() {
        let mut i = v.pos >> 32;
        if i >= len {
            match &mut v.plays_left {
                Some(1) => return false,
                Some(n) => *n -= 1,
                None => {}
            }
            v.pos -= len << 32;
            i = v.pos >> 32;
        }
        let frac = (v.pos & 0xffff_ffff) as f32 / 4_294_967_296.0;
        let a = s[i as usize];
        let b = s.get(i as usize + 1).copied().unwrap_or(a);
        *o += (a + (b - a) * frac) * v.volume;
        v.pos += v.step;
    }
    (v.pos >> 32) < len || v.plays_left != Some(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp(n: usize) -> Sound {
        Sound::new(100, (0..n).map(|i| i as f32 / 100.0).collect())
    }

    #[test]
    fn plays_once_at_same_rate() {
        let m = Mixer::new(100);
        m.play(1, &ramp(4), 1.0, Repeat::Times(1));
        assert!(m.is_playing(1));
        let out = m.render(6);
        assert_eq!(out, vec![0.0, 0.01, 0.02, 0.03, 0.0, 0.0]);
        assert!(!m.is_playing(1));
    }

    #[test]
    fn repeats_and_loops() {
        let m = Mixer::new(100);
        m.play(1, &ramp(2), 1.0, Repeat::Times(2));
        assert_eq!(m.render(5), vec![0.0, 0.01, 0.0, 0.01, 0.0]);
        m.play(2, &ramp(2), 0.5, Repeat::Forever);
        let out = m.render(6);
        assert_eq!(out, vec![0.0, 0.005, 0.0, 0.005, 0.0, 0.005]);
        assert!(m.is_playing(2));
        m.stop(2);
        assert!(!m.is_playing(2));
        assert_eq!(m.render(2), vec![0.0, 0.0]);
    }

    #[test]
    fn channels_add_and_volume_applies() {
        let m = Mixer::new(100);
        let one = Sound::new(100, vec![0.5; 10]);
        m.play(3, &one, 1.0, Repeat::Times(1));
        m.play(4, &one, 0.2, Repeat::Times(1));
        assert!((m.render(1)[0] - 0.6).abs() < 1e-6);
        m.set_volume(4, 1.0);
        assert!((m.render(1)[0] - 1.0).abs() < 1e-6);
        m.set_master_volume(0.5);
        assert!((m.render(1)[0] - 0.5).abs() < 1e-6);
        assert_eq!(m.playing_channels(), vec![3, 4]);
        // Replacing a channel restarts it with the new sound.
        m.play(3, &Sound::new(100, vec![-1.0; 2]), 1.0, Repeat::Times(1));
        m.stop(4);
        assert!((m.render(1)[0] + 0.5).abs() < 1e-6);
        m.stop_all();
        assert!(m.playing_channels().is_empty());
    }

    #[test]
    fn resamples_with_interpolation() {
        // 50 Hz sound on a 100 Hz mixer: every other output sample is a midpoint.
        let m = Mixer::new(100);
        m.play(
            0,
            &Sound::new(50, vec![0.0, 1.0, 0.0]),
            1.0,
            Repeat::Times(1),
        );
        let out = m.render(7);
        assert_eq!(out, vec![0.0, 0.5, 1.0, 0.5, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn output_is_clamped_and_u8_pcm_decodes() {
        let s = Sound::from_u8_pcm(8000, &[0, 128, 255]);
        assert_eq!(s.samples[..], [-1.0, 0.0, 127.0 / 128.0]);
        let m = Mixer::new(8000);
        m.play(0, &Sound::new(8000, vec![1.0]), 1.0, Repeat::Times(1));
        m.play(1, &Sound::new(8000, vec![1.0]), 1.0, Repeat::Times(1));
        assert_eq!(m.render(1), vec![1.0]);
        assert!((s.duration() - 3.0 / 8000.0).abs() < 1e-12);
    }

    #[test]
    fn empty_sound_finishes_at_once() {
        let m = Mixer::new(100);
        m.play(0, &Sound::new(100, vec![]), 1.0, Repeat::Forever);
        assert_eq!(m.render(2), vec![0.0, 0.0]);
        assert!(!m.is_playing(0));
    }
}
