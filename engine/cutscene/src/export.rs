//! Export: clips and scenes as indexed-PNG sequences, animated GIFs and WAV sound, with a
//! progress bar on the terminal.
//!
//! PNGs are 8-bit indexed with the palette of their moment, so palette indexes survive exactly
//! (a preservationist can diff them against the game). GIF frames carry a local colour table only
//! when the palette differs from the first frame's (fades), and identical consecutive frames are
//! merged into one longer frame. Sound is the sequencer's events played through the deterministic
//! [`Mixer`] and captured with [`Mixer::render`], one tick (882 samples at 22050 Hz) at a time.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use modex::pngio::{self, PngError};
use modex::{IndexedFrame, Mixer, Palette};

use crate::scene::Scene;
use crate::sequencer::{self, Sequencer, Timeline, TICKS_PER_SECOND};

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Png(#[from] PngError),
    #[error("GIF: {0}")]
    Gif(#[from] gif::EncodingError),
    #[error("WAV: {0}")]
    Wav(#[from] hound::Error),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Unsupported(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A progress bar on stderr (hidden when stderr is not a terminal, e.g. in tests).
pub fn progress_bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// Name of the `n`-th picture file: `0000.png`, `0001.png`, ...
pub fn png_name(n: usize) -> String {
    format!("{n:04}.png")
}

/// Writes numbered indexed PNGs into a folder.
#[derive(Debug)]
pub struct PngSequence {
    dir: PathBuf,
    next: usize,
}

impl PngSequence {
    /// Creates the folder if needed.
    pub fn create(dir: &Path) -> Result<Self, ExportError> {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        Ok(PngSequence {
            dir: dir.to_path_buf(),
            next: 0,
        })
    }

    pub fn push(&mut self, frame: &IndexedFrame, palette: &Palette) -> Result<(), ExportError> {
        let path = self.dir.join(png_name(self.next));
        pngio::save_indexed(&path, frame, palette)?;
        self.next += 1;
        Ok(())
    }

    pub fn written(&self) -> usize {
        self.next
    }
}

/// An animated GIF being written.
pub struct GifWriter {
    encoder: gif::Encoder<BufWriter<File>>,
    global: Vec<u8>,
    width: u16,
    height: u16,
    pending: Option<(Vec<u8>, Vec<u8>, u32)>,
    frames: usize,
}

impl GifWriter {
    /// Start a looping GIF of `width`x`height` whose global palette is `palette`.
    pub fn create(
        path: &Path,
        width: usize,
        height: usize,
        palette: &Palette,
    ) -> Result<Self, ExportError> {
        let (w, h) = (
            u16::try_from(width)
                .map_err(|_| ExportError::Unsupported("GIF wider than 65535".into()))?,
            u16::try_from(height)
                .map_err(|_| ExportError::Unsupported("GIF taller than 65535".into()))?,
        );
        let file = File::create(path).map_err(io(path))?;
        let global = palette.to_rgb_bytes();
        let mut encoder = gif::Encoder::new(BufWriter::new(file), w, h, &global)?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        Ok(GifWriter {
            encoder,
            global,
            width: w,
            height: h,
            pending: None,
            frames: 0,
        })
    }

    /// Add a frame shown for `delay_cs` hundredths of a second. A frame equal to the previous one
    /// (pixels and palette) lengthens it instead.
    pub fn push(
        &mut self,
        frame: &IndexedFrame,
        palette: &Palette,
        delay_cs: u32,
    ) -> Result<(), ExportError> {
        let pal = palette.to_rgb_bytes();
        if let Some((px, p, d)) = &mut self.pending {
            if px.as_slice() == frame.pixels() && *p == pal {
                *d += delay_cs;
                return Ok(());
            }
        }
        self.flush()?;
        self.pending = Some((frame.pixels().to_vec(), pal, delay_cs));
        Ok(())
    }

    fn flush(&mut self) -> Result<(), ExportError> {
        if let Some((pixels, pal, mut delay)) = self.pending.take() {
            // GIF delays are 16-bit; split very long holds.
            while delay > 0 {
                let d = delay.min(u16::MAX as u32);
                delay -= d;
                let mut f =
                    gif::Frame::from_indexed_pixels(self.width, self.height, pixels.clone(), None);
                if pal != self.global {
                    f.palette = Some(pal.clone());
                }
                f.delay = d as u16;
                self.encoder.write_frame(&f)?;
                self.frames += 1;
            }
        }
        Ok(())
    }

    /// Write the last frame and close the file. Returns the number of GIF frames.
    pub fn finish(mut self) -> Result<usize, ExportError> {
        self.flush()?;
        let frames = self.frames;
        self.encoder.into_inner()?;
        Ok(frames)
    }
}

/// Write mono samples (-1..=1) as a 16-bit WAV.
pub fn write_wav(path: &Path, samples: &[f32], rate: u32) -> Result<(), ExportError> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec)?;
    for &s in samples {
        w.write_sample((s.clamp(-1.0, 1.0) * 32767.0).round() as i16)?;
    }
    w.finalize()?;
    Ok(())
}

/// Where a scene or clip export goes. Any of the three may be absent.
#[derive(Debug, Clone, Default)]
pub struct ExportTargets {
    pub png_dir: Option<PathBuf>,
    pub gif: Option<PathBuf>,
    pub wav: Option<PathBuf>,
}

/// What an export wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportSummary {
    pub pngs: usize,
    pub gif_frames: usize,
    pub wav_samples: usize,
}

/// Export the pictures of a clip (forward play, anchors not repeated) through one palette. GIF
/// frames last `1 / fps` seconds.
pub fn export_clip(
    pictures: &[IndexedFrame],
    palette: &Palette,
    targets: &ExportTargets,
    fps: u32,
    progress: &ProgressBar,
) -> Result<ExportSummary, ExportError> {
    if targets.wav.is_some() {
        return Err(ExportError::Unsupported(
            "a clip has no sound; export a scene for --wav".into(),
        ));
    }
    let mut summary = ExportSummary::default();
    let mut pngs = targets
        .png_dir
        .as_deref()
        .map(PngSequence::create)
        .transpose()?;
    let mut gif = match (&targets.gif, pictures.first()) {
        (Some(path), Some(first)) => Some(GifWriter::create(
            path,
            first.width(),
            first.height(),
            palette,
        )?),
        _ => None,
    };
    let delay = (100 / fps.max(1)).max(1);
    progress.set_length(pictures.len() as u64);
    for p in pictures {
        if let Some(s) = &mut pngs {
            s.push(p, palette)?;
        }
        if let Some(g) = &mut gif {
            g.push(p, palette, delay)?;
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    summary.pngs = pngs.map_or(0, |s| s.written());
    if let Some(g) = gif {
        summary.gif_frames = g.finish()?;
    }
    Ok(summary)
}

/// Run `scene` from tick 0 to its end, writing one PNG per tick, a GIF at 25 frames per second
/// and the mixed sound.
pub fn export_scene(
    scene: &Scene,
    targets: &ExportTargets,
    progress: &ProgressBar,
) -> Result<ExportSummary, ExportError> {
    let timeline = std::sync::Arc::new(Timeline::new(scene));
    let length = timeline.length();
    let mut seq = Sequencer::new(timeline.clone());
    let (w, h) = timeline.size();
    let mut pngs = targets
        .png_dir
        .as_deref()
        .map(PngSequence::create)
        .transpose()?;
    let mut gif = match &targets.gif {
        Some(path) => Some(GifWriter::create(path, w, h, &timeline.palette_at(0))?),
        None => None,
    };
    let mixer = Mixer::default();
    let per_tick = (mixer.rate() / TICKS_PER_SECOND) as usize;
    let mut samples = Vec::new();
    progress.set_length(length as u64);
    for t in 0..length {
        let palette = timeline.palette_at(t);
        let frame = seq.frame_at(t);
        if let Some(s) = &mut pngs {
            s.push(frame, &palette)?;
        }
        if let Some(g) = &mut gif {
            g.push(frame, &palette, 100 / TICKS_PER_SECOND)?;
        }
        if targets.wav.is_some() {
            sequencer::apply_sound_events(&mixer, &timeline.sound_events(t), &scene.assets.sounds);
            samples.extend(mixer.render(per_tick));
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    let mut summary = ExportSummary {
        pngs: pngs.map_or(0, |s| s.written()),
        ..Default::default()
    };
    if let Some(g) = gif {
        summary.gif_frames = g.finish()?;
    }
    if let Some(path) = &targets.wav {
        write_wav(path, &samples, mixer.rate())?;
        summary.wav_samples = samples.len();
    }
    Ok(summary)
}
