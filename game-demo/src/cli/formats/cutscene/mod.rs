//! CLI for Battle Isle 2 cutscenes (LIB, TPWM, BBHD, ASCR, VOC, palettes). The formats, scenes and
//! what a path holds ([`Input`]) are `modex-cutscene`'s; this module maps arguments to them and to
//! the binary's two cutscene frontends, what plays a scene to a person or writes it to files:
//!
//! - [`player`]: the interactive window (keys, wall clock, audio device) for `modex play`.
//! - [`export`]: PNG sequences, animated GIFs and WAV sound with a terminal progress bar for
//!   `modex export`.
//!
//! Everything they show comes from the `modex-cutscene` library (scenes, the sequencer's frames,
//! [`modex_cutscene::Playback`]'s sounds, [`modex_cutscene::Transport`]); they only own the window,
//! the terminal and the file encoders.

pub mod export;
pub mod player;

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use modex::{OpenedFile, Palette};
use modex_assets::{Asset, Format};
use modex_cutscene::{clip_data, ClipError, Input};
use modex_cutscene::{BbhdClip, ClipPictures, GameDir, Scene, SceneError};

use crate::cli::ExportArgs;
use export::ExportTargets;

/// Pictures per second for a bare clip (clips have no timing of their own; scripts choose it).
pub const CLIP_FPS: i32 = 10;

/// `--palette`, read by the engine's one palette rule (an APAL, TPWM-wrapped or not, a PCX, a VGA
/// palette or a VPL's palette).
fn load_palette(path: &Path) -> Result<Palette> {
    Ok(modex_assets::open_palette(path)?)
}

/// Script `script` (or the first with commands) of the install at `dir`.
pub fn scene_from_dir(dir: &Path, script: Option<u32>) -> Result<Scene> {
    let game = GameDir::open(dir)?;
    let n = match script {
        Some(n) => n,
        None => {
            let n = game.first_script()?;
            log::info!("no --script given: playing ASCR{n:03}, the first script with commands");
            n
        }
    };
    let scene = Scene::load_script(&game, n)?;
    report_warnings(&scene);
    Ok(scene)
}

pub fn scene_from_script_file(file: &OpenedFile) -> Result<Scene> {
    let scene = Scene::load_script_file(file)?;
    report_warnings(&scene);
    Ok(scene)
}

fn report_warnings(scene: &Scene) {
    for w in &scene.warnings {
        eprintln!("warning: {w}");
    }
}

/// What `path` holds: a game install folder (`asset` is `None`), or a file whose format the
/// engine's detection found.
pub fn detect(path: &Path, asset: Option<&Asset>) -> Result<Input> {
    let Some(asset) = asset else {
        return Ok(
            Input::of_folder(path).ok_or_else(|| SceneError::NotAnInstall {
                root: path.to_path_buf(),
            })?,
        );
    };
    Ok(match asset.format() {
        Format::Bbhd => Input::Clip,
        Format::Tpwm => Input::Packed,
        Format::Voc => Input::Sound,
        Format::Lib => Input::Archive,
        Format::Ascr => Input::Script,
        other => bail!("{}: a {other} file, not a cutscene file", path.display()),
    })
}

/// The clip in a file, with the command line's name for a missing entry number.
pub fn clip_of(
    path: &Path,
    input: Input,
    bytes: &[u8],
    entry: Option<usize>,
) -> Result<ClipPictures> {
    let data = clip_data(input, bytes, entry)
        .map_err(|e| match e {
            ClipError::NeedsEntry { entries } => {
                anyhow!("an archive needs --entry N (0..{entries}, in name order)")
            }
            e => e.into(),
        })
        .with_context(|| path.display().to_string())?;
    BbhdClip::parse(&data)
        .and_then(|clip| ClipPictures::decode(&clip))
        .with_context(|| path.display().to_string())
}

/// `modex export` of a cutscene file, or of a folder (`asset` is `None`: the dispatcher reads
/// files only).
pub fn export(args: &ExportArgs, asset: Option<&Asset>) -> Result<()> {
    let targets = ExportTargets {
        png_dir: args.png.clone(),
        gif: args.gif.clone(),
        wav: args.wav.clone(),
    };
    if targets.is_empty() {
        bail!("nothing to export: give --png DIR, --gif FILE and/or --wav FILE");
    }
    let path = &args.input;
    let input = detect(path, asset)?;
    let bytes = asset.map_or(&[][..], Asset::bytes);
    let scene = match (input, asset) {
        (Input::Install, _) => Some(scene_from_dir(path, args.script)?),
        (Input::Script, Some(asset)) => Some(scene_from_script_file(asset.file())?),
        (Input::Archive, _) if args.entry.is_none() && args.script.is_some() => {
            bail!("--script takes a game folder, not an archive")
        }
        _ => None,
    };
    if let Some(mut scene) = scene {
        if let Some(p) = &args.palette {
            scene.replace_palette(load_palette(p)?);
        }
        let bar = export::progress_bar(0, "scene");
        let s = export::export_scene(&scene, &targets, &bar)?;
        eprintln!(
            "exported {} ticks: {} PNGs, {} GIF frames, {} sound samples",
            s.frames, s.pngs, s.gif_frames, s.wav_samples
        );
        return Ok(());
    }
    let clip = clip_of(path, input, bytes, args.entry)?;
    let palette = match &args.palette {
        Some(p) => load_palette(p)?,
        None => Palette::grey_ramp(),
    };
    let bar = export::progress_bar(clip.pictures.len() as u64, "pictures");
    let s = export::export_clip(&clip.pictures, &palette, &targets, CLIP_FPS as u32, &bar)?;
    eprintln!(
        "exported {} pictures ({} PNGs, {} GIF frames)",
        s.frames, s.pngs, s.gif_frames
    );
    Ok(())
}
