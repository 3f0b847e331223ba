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
use modex_cutscene::{ascr, tpwm, voc};
use modex_cutscene::{clip_data, ClipError, EntryKind, Input};
use modex_cutscene::{BbhdClip, ClipPictures, FrameType, GameDir, LibArchive, Scene, SceneError};
use serde_json::json;

use super::Description;
use crate::cli::ExportArgs;
use export::ExportTargets;

/// Pictures per second for a bare clip (clips have no timing of their own; scripts choose it).
pub const CLIP_FPS: i32 = 10;

pub fn describe(asset: &Asset) -> Result<Description> {
    let bytes = asset.bytes();
    match asset.format() {
        Format::Bbhd => describe_clip(bytes),
        Format::Lib => describe_lib(bytes),
        Format::Tpwm => describe_tpwm(bytes),
        Format::Voc => describe_voc(bytes),
        Format::Ascr => describe_script(bytes),
        other => bail!("{other} is not a cutscene format"),
    }
}

fn describe_clip(bytes: &[u8]) -> Result<Description> {
    let clip = BbhdClip::parse(bytes)?;
    // Decoding every picture checks the payloads too, not just the chain.
    clip.decode_pictures()?;
    let h = clip.header();
    let count = |t: FrameType| clip.records().iter().filter(|r| r.frame_type == t).count();
    let types = [
        ("repeat", count(FrameType::Repeat)),
        ("picture", count(FrameType::Picture)),
        ("changes", count(FrameType::Changes)),
        ("raw_changes", count(FrameType::RawChanges)),
    ];
    let transparent = h.transparent_index();
    let json = json!({
        "format": "bbhd",
        "width": h.width,
        "height": h.height,
        "records": clip.records().len(),
        "pictures": clip.picture_count(),
        "anchors": clip.anchor_count(),
        "playback_flags": h.playback_flags,
        "transparent_index": transparent,
        "clip_length": h.clip_length,
        "frame_types": {
            "repeat": types[0].1,
            "picture": types[1].1,
            "changes": types[2].1,
            "raw_changes": types[3].1,
        },
    });
    let text = format!(
        "BBHD clip {}x{}\n{} records: {} pictures in forward play, {} anchors\n\
         frame types: {} repeat, {} whole picture, {} compressed changes, {} raw changes\n\
         playback flags {} ({}), transparent index {}",
        h.width,
        h.height,
        clip.records().len(),
        clip.picture_count(),
        clip.anchor_count(),
        types[0].1,
        types[1].1,
        types[2].1,
        types[3].1,
        h.playback_flags,
        if h.dependent_frames() {
            "records build on each other"
        } else {
            "records stand alone"
        },
        transparent.map_or("none".to_string(), |t| t.to_string()),
    );
    Ok(Description { json, text })
}

fn describe_lib(bytes: &[u8]) -> Result<Description> {
    let lib = LibArchive::parse(bytes)?;
    let mut entries = Vec::new();
    let mut text = format!(
        "LIB archive, {} entries (in name order, as scripts count them)",
        lib.len()
    );
    for (n, e) in lib.sorted().enumerate() {
        let stored = lib.entry_data(e);
        let packed = tpwm::is_tpwm(stored);
        let kind = match lib.entry_unpacked(e) {
            Ok(d) => EntryKind::sniff(&d).name(),
            Err(_) => "broken",
        };
        entries.push(json!({
            "n": n, "name": e.name, "offset": e.offset, "size": e.len, "tpwm": packed, "kind": kind,
        }));
        text.push_str(&format!(
            "\n{n:4} {:<8} {:>8} bytes at 0x{:06x} {kind}{}",
            e.name,
            e.len,
            e.offset,
            if packed { " (TPWM)" } else { "" }
        ));
    }
    Ok(Description {
        json: json!({ "format": "lib", "entries": entries.len(), "list": entries }),
        text,
    })
}

fn describe_tpwm(bytes: &[u8]) -> Result<Description> {
    let unpacked = tpwm::decompress(bytes)?;
    let kind = EntryKind::sniff(&unpacked).name();
    Ok(Description {
        json: json!({
            "format": "tpwm",
            "packed": bytes.len(),
            "unpacked": unpacked.len(),
            "content": kind,
        }),
        text: format!(
            "TPWM-compressed {kind}: {} bytes packed, {} unpacked",
            bytes.len(),
            unpacked.len()
        ),
    })
}

fn describe_voc(bytes: &[u8]) -> Result<Description> {
    let v = voc::parse_voc(bytes)?;
    let seconds = v.pcm.len() as f64 / v.rate as f64;
    Ok(Description {
        json: json!({
            "format": "voc", "rate": v.rate, "samples": v.pcm.len(), "seconds": seconds,
        }),
        text: format!(
            "Creative Voice sound: {} samples of 8-bit PCM at {} Hz ({seconds:.2} s)",
            v.pcm.len(),
            v.rate
        ),
    })
}

fn describe_script(bytes: &[u8]) -> Result<Description> {
    let s = ascr::parse_script(bytes)?;
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for c in s.commands() {
        let name = match c {
            ascr::Command::Play(_) => "play",
            ascr::Command::Fx(_) => "fx",
            ascr::Command::FxStop { .. } => "fxstop",
            ascr::Command::Write(_) => "write",
            ascr::Command::InitPal(_) => "initpal",
            ascr::Command::Blend(_) => "BLEND",
            ascr::Command::Clear(_) => "clear",
            ascr::Command::End(_) => "End",
            ascr::Command::FmStart(_) => "fmstart",
            ascr::Command::Rem(_) => "rem",
        };
        *counts.entry(name).or_default() += 1;
    }
    let end = s.end_tick();
    let list: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    Ok(Description {
        json: json!({
            "format": "ascr", "commands": s.command_count(), "end_tick": end, "counts": counts,
        }),
        text: format!(
            "ASCR scene script: {} commands ({}), {}",
            s.command_count(),
            list.join(", "),
            match end {
                Some(t) => format!("ends at tick {t} ({:.2} s)", t as f32 / 25.0),
                None => "no End".to_string(),
            }
        ),
    })
}

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
