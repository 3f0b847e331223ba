//! The audio device: a core [`Mixer`] played through rodio/cpal.
//!
//! The mixer itself (channels, resampling, the capture sink tests and WAV export use) is the core's;
//! this is only the pipe from it to the machine's default output. A machine without one (a headless
//! server, CI) is normal, not an error: the program logs one line and goes on without sound.

use std::time::Duration;

use modex::Mixer;

/// The `log` target of this module's line. It was written from the core's `modex::audio` before
/// the device moved here, and users filter and read it under that name (`RUST_LOG=modex::audio`,
/// `[WARN  modex::audio] no audio device ...`), so it keeps it.
const LOG_TARGET: &str = "modex::audio";

/// Block size pulled from the mixer per lock: ~12 ms at 22 kHz.
const BLOCK: usize = 256;

/// A handle to the audio device, or silence when there is none. Keep it alive while sound should play.
pub struct AudioOutput {
    _device: Option<Device>,
}

impl AudioOutput {
    /// Play `mixer` on the default device. With no device this logs once and returns a silent
    /// output: the program goes on without sound.
    pub fn open(mixer: &Mixer) -> AudioOutput {
        match Device::open(mixer.clone()) {
            Ok(d) => AudioOutput { _device: Some(d) },
            Err(e) => {
                log::warn!(target: LOG_TARGET, "no audio device ({e}); running silent");
                AudioOutput { _device: None }
            }
        }
    }

    /// An output that never touches a device (headless runs, tests).
    pub fn silent() -> AudioOutput {
        AudioOutput { _device: None }
    }

    /// Whether a real device plays the sound.
    pub fn is_audible(&self) -> bool {
        self._device.is_some()
    }
}

struct Device {
    _stream: rodio::OutputStream,
}

impl Device {
    fn open(mixer: Mixer) -> Result<Device, DeviceError> {
        #[cfg(target_os = "linux")]
        crate::alsa_quiet::install();
        let (stream, handle) = rodio::OutputStream::try_default()?;
        handle.play_raw(MixerSource {
            mixer,
            buf: vec![0.0; BLOCK],
            at: BLOCK,
        })?;
        Ok(Device { _stream: stream })
    }
}

/// Why no device plays the sound.
#[derive(Debug, thiserror::Error)]
enum DeviceError {
    #[error(transparent)]
    Stream(#[from] rodio::StreamError),
    #[error(transparent)]
    Play(#[from] rodio::PlayError),
}

/// Streams the mixer to rodio in blocks.
struct MixerSource {
    mixer: Mixer,
    buf: Vec<f32>,
    at: usize,
}

impl Iterator for MixerSource {
    type Item = f32;
    fn next(&mut self) -> Option<f32> {
        if self.at == self.buf.len() {
            self.mixer.mix_into(&mut self.buf);
            self.at = 0;
        }
        let s = self.buf[self.at];
        self.at += 1;
        Some(s)
    }
}

impl rodio::Source for MixerSource {
    fn current_frame_len(&self) -> Option<usize> {
        Some(self.buf.len() - self.at)
    }
    fn channels(&self) -> u16 {
        1
    }
    fn sample_rate(&self) -> u32 {
        self.mixer.rate()
    }
    fn total_duration(&self) -> Option<Duration> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silent_output_is_not_audible() {
        assert!(!AudioOutput::silent().is_audible());
    }
}
