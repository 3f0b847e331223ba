//! The exporter: clips and scenes as indexed-PNG sequences, animated GIFs and WAV sound, with a
//! progress bar on the terminal.
//!
//! PNGs are 8-bit indexed with the palette of their moment, so palette indexes survive exactly
//! (a preservationist can diff them against the game). GIF frames carry a local colour table only
//! when the palette differs from the first frame's (fades), and identical consecutive frames are
//! merged into one longer frame. The pictures are the library's [`Sequencer`] ticks; the sound is
//! [`mix_sound`]: the scene's sounds on the core's deterministic mixer, 882 samples a tick at
//! 22050 Hz.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use modex::audio::OUTPUT_RATE;
use modex::{pngio, IndexedFrame, Palette, Sound};
use modex_cutscene::{mix_sound, Scene, Sequencer, TICKS_PER_SECOND};

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
struct PngSequence {
    dir: PathBuf,
    next: usize,
}

impl PngSequence {
    /// Creates the folder if needed.
    fn create(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(PngSequence {
            dir: dir.to_path_buf(),
            next: 0,
        })
    }

    fn push(&mut self, frame: &IndexedFrame, palette: &Palette) -> Result<()> {
        let path = self.dir.join(png_name(self.next));
        pngio::save_indexed(&path, frame, palette)?;
        self.next += 1;
        Ok(())
    }
}

/// An animated GIF being written.
struct GifWriter {
    encoder: gif::Encoder<BufWriter<File>>,
    global: Vec<u8>,
    width: u16,
    height: u16,
    pending: Option<(Vec<u8>, Vec<u8>, u32)>,
    frames: usize,
}

impl GifWriter {
    /// Start a looping GIF of `width`x`height` whose global palette is `palette`.
    fn create(path: &Path, width: usize, height: usize, palette: &Palette) -> Result<Self> {
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            bail!("a GIF is at most 65535x65535, not {width}x{height}");
        };
        create_parent(path)?;
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
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
    fn push(&mut self, frame: &IndexedFrame, palette: &Palette, delay_cs: u32) -> Result<()> {
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

    fn flush(&mut self) -> Result<()> {
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
    fn finish(mut self) -> Result<usize> {
        self.flush()?;
        let frames = self.frames;
        self.encoder.into_inner()?;
        Ok(frames)
    }
}

/// Create the folder a written file goes into, as `--png` creates its own folder: an export to
/// `out/scene.gif` should not fail only because `out/` is new.
fn create_parent(path: &Path) -> Result<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// Write a mono sound (-1..=1) as a 16-bit WAV.
fn write_wav(path: &Path, sound: &Sound) -> Result<()> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: sound.rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    create_parent(path)?;
    let mut w = hound::WavWriter::create(path, spec)
        .with_context(|| format!("cannot create {}", path.display()))?;
    for &s in sound.samples.iter() {
        w.write_sample((s.clamp(-1.0, 1.0) * 32767.0).round() as i16)?;
    }
    w.finalize()?;
    Ok(())
}

/// Where a scene or clip export goes. Any of the three may be absent.
#[derive(Debug, Clone, Default)]
pub struct ExportTargets {
    /// A folder for one indexed PNG per tick (scenes) or picture (clips).
    pub png_dir: Option<PathBuf>,
    /// An animated GIF.
    pub gif: Option<PathBuf>,
    /// The mixed sound (scenes only).
    pub wav: Option<PathBuf>,
}

impl ExportTargets {
    /// Whether nothing is to be written.
    pub fn is_empty(&self) -> bool {
        self.png_dir.is_none() && self.gif.is_none() && self.wav.is_none()
    }
}

/// What an export wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportSummary {
    /// Ticks (scenes) or pictures (clips) exported.
    pub frames: usize,
    /// PNG files written.
    pub pngs: usize,
    /// GIF frames written (identical neighbours merged).
    pub gif_frames: usize,
    /// Sound samples written.
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
) -> Result<ExportSummary> {
    if targets.wav.is_some() {
        bail!("a clip has no sound; export a scene for --wav");
    }
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
    Ok(ExportSummary {
        frames: pictures.len(),
        pngs: pngs.map_or(0, |s| s.next),
        gif_frames: gif.map(GifWriter::finish).transpose()?.unwrap_or(0),
        wav_samples: 0,
    })
}

/// Run `scene` from tick 0 to its end, writing one PNG per tick, a GIF at 25 frames per second
/// and the mixed sound.
pub fn export_scene(
    scene: &Scene,
    targets: &ExportTargets,
    progress: &ProgressBar,
) -> Result<ExportSummary> {
    let mut seq = Sequencer::for_scene(scene);
    let (w, h) = seq.timeline().size();
    let length = seq.timeline().length();
    let mut pngs = targets
        .png_dir
        .as_deref()
        .map(PngSequence::create)
        .transpose()?;
    let mut gif = match &targets.gif {
        Some(path) => Some(GifWriter::create(path, w, h, &seq.palette_at(0))?),
        None => None,
    };
    if pngs.is_some() || gif.is_some() {
        progress.set_length(length as u64);
        seq.for_each_tick(|_, frame, palette| -> Result<()> {
            if let Some(s) = &mut pngs {
                s.push(frame, palette)?;
            }
            if let Some(g) = &mut gif {
                g.push(frame, palette, 100 / TICKS_PER_SECOND)?;
            }
            progress.inc(1);
            Ok(())
        })?;
    }
    progress.finish_and_clear();
    let mut summary = ExportSummary {
        frames: length as usize,
        pngs: pngs.map_or(0, |s| s.next),
        gif_frames: gif.map(GifWriter::finish).transpose()?.unwrap_or(0),
        wav_samples: 0,
    };
    if let Some(path) = &targets.wav {
        let sound = mix_sound(scene, OUTPUT_RATE);
        write_wav(path, &sound)?;
        summary.wav_samples = sound.samples.len();
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_cutscene::GameDir;
    use modex_testkit::sample_scene::SCRIPT_NUMBER;

    const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/cutscene");
    const GOLDEN: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/cutscene/tests/golden"
    );

    #[test]
    fn export_writes_every_tick_a_gif_and_the_sound() {
        let scene = Scene::load_script(&GameDir::new(DATA), SCRIPT_NUMBER).unwrap();
        let dir =
            std::env::temp_dir().join(format!("modex-cutscene-export-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let targets = ExportTargets {
            png_dir: Some(dir.join("png")),
            // In folders that do not exist yet: the export creates them.
            gif: Some(dir.join("gif/scene.gif")),
            wav: Some(dir.join("wav/scene.wav")),
        };
        let summary = export_scene(&scene, &targets, &ProgressBar::hidden()).unwrap();
        assert_eq!(summary.frames, 150);
        assert_eq!(summary.pngs, 150);
        assert_eq!(summary.wav_samples, 150 * 882);
        assert!(
            summary.gif_frames > 10 && summary.gif_frames <= 150,
            "{summary:?}"
        );
        // The exported picture of tick 149 is the sequencer's golden frame (decoded: indices and
        // palette).
        let decode = |p: PathBuf| pngio::decode_indexed(&std::fs::read(p).unwrap()).unwrap();
        assert!(
            decode(dir.join("png/0149.png")) == decode(Path::new(GOLDEN).join("scene_t149.png")),
            "export and sequencer disagree at tick 149"
        );
        assert!(std::fs::read(dir.join("gif/scene.gif"))
            .unwrap()
            .starts_with(b"GIF89a"));
        // The sound: the noise burst at tick 5 is audible; before it only the typed-text ties could
        // sound, and no text is typed before tick 60.
        let wav = hound::WavReader::open(dir.join("wav/scene.wav")).unwrap();
        assert_eq!(wav.spec().sample_rate, 22_050);
        let samples: Vec<i16> = wav.into_samples().map(Result::unwrap).collect();
        assert_eq!(samples.len(), 150 * 882);
        assert!(samples[..5 * 882].iter().all(|&s| s == 0));
        assert!(samples[5 * 882..8 * 882].iter().any(|&s| s.abs() > 1000));
        // After fxstop(145) everything is silent.
        assert!(samples[146 * 882..].iter().all(|&s| s == 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_clip_has_no_sound_and_long_holds_are_split() {
        let targets = ExportTargets {
            wav: Some(PathBuf::from("x.wav")),
            ..Default::default()
        };
        let e = export_clip(
            &[],
            &Palette::grey_ramp(),
            &targets,
            10,
            &ProgressBar::hidden(),
        );
        assert!(e.unwrap_err().to_string().contains("--wav"));
        let path =
            std::env::temp_dir().join(format!("modex-cutscene-hold-{}.gif", std::process::id()));
        let pal = Palette::grey_ramp();
        let mut g = GifWriter::create(&path, 2, 2, &pal).unwrap();
        let f = IndexedFrame::new(2, 2);
        for _ in 0..3 {
            g.push(&f, &pal, 30_000).unwrap();
        }
        // 90000 hundredths in one hold: two 16-bit delays.
        assert_eq!(g.finish().unwrap(), 2);
        std::fs::remove_file(path).unwrap();
    }
}
