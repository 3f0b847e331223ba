//! CLI for Battle Isle 2 cutscenes (LIB, TPWM, BBHD, ASCR, VOC, palettes). The work is done in
//! `modex-cutscene`; this module only maps arguments to it.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use modex::Palette;
use modex_cutscene::export::{self, ExportTargets};
use modex_cutscene::{apal, ascr, tpwm, voc};
use modex_cutscene::{BbhdClip, ClipPictures, FrameType, GameDir, LibArchive, Scene};
use serde_json::json;

use super::{Description, Format};
use crate::cli::{ExportArgs, PlayArgs};

/// Pictures per second for a bare clip (clips have no timing of their own; scripts choose it).
const CLIP_FPS: i32 = 10;

pub fn describe(_path: &Path, fmt: Format, bytes: &[u8]) -> Result<Description> {
    match fmt {
        Format::Bbhd => describe_clip(bytes),
        Format::Lib => describe_lib(bytes),
        Format::Tpwm => describe_tpwm(bytes),
        Format::Voc => describe_voc(bytes),
        Format::Ascr => describe_script(bytes),
        _ => bail!("{fmt:?} is not a cutscene format"),
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

/// What an archive entry holds, by its magic.
fn entry_kind(data: &[u8]) -> &'static str {
    if data.starts_with(b"BBHD") {
        "bbhd"
    } else if data.starts_with(voc::MAGIC) {
        "voc"
    } else if data.starts_with(b"{") {
        "text"
    } else if data.len() == apal::PALETTE_LEN {
        "palette"
    } else if data
        .iter()
        .take(64)
        .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace())
    {
        "script"
    } else {
        "data"
    }
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
            Ok(d) => entry_kind(&d),
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
    let kind = entry_kind(&unpacked);
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

/// The lowest-numbered script with commands, for installs played without `--script`.
fn first_script(dir: &GameDir) -> Result<u32> {
    for n in 0..256 {
        if let Ok(b) = dir.script_bytes(n) {
            if ascr::parse_script(&b).is_ok_and(|s| s.command_count() > 0) {
                log::info!("no --script given: playing ASCR{n:03}, the first script with commands");
                return Ok(n);
            }
        }
    }
    bail!(
        "{}: no script with commands in ANI/ASCR000.LIB",
        dir.root().display()
    )
}

fn load_palette(path: &Path) -> Result<Palette> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    apal::load_palette_file(&bytes).with_context(|| format!("palette {}", path.display()))
}

fn scene_from_dir(dir: &Path, script: Option<u32>) -> Result<Scene> {
    if !GameDir::looks_like_install(dir) {
        bail!(
            "{}: not a Battle Isle 2 install or scene folder (no ANI/ folder)",
            dir.display()
        );
    }
    let game = GameDir::new(dir);
    let n = match script {
        Some(n) => n,
        None => first_script(&game)?,
    };
    let scene = Scene::load_script(&game, n).map_err(|e| anyhow!(e))?;
    report_warnings(&scene);
    Ok(scene)
}

fn scene_from_script_file(path: &Path, bytes: &[u8]) -> Result<Scene> {
    let script = ascr::parse_script(bytes).with_context(|| path.display().to_string())?;
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let scene = Scene::load(script, &GameDir::new(dir));
    report_warnings(&scene);
    Ok(scene)
}

fn report_warnings(scene: &Scene) {
    for w in &scene.warnings {
        eprintln!("warning: {w}");
    }
}

fn clip_bytes<'a>(
    fmt: Format,
    bytes: &'a [u8],
    entry: Option<usize>,
) -> Result<std::borrow::Cow<'a, [u8]>> {
    match fmt {
        Format::Bbhd => Ok(bytes.into()),
        Format::Tpwm => Ok(tpwm::decompress(bytes)?.into()),
        Format::Lib => {
            let lib = LibArchive::parse(bytes)?;
            let n = entry.ok_or_else(|| {
                anyhow!(
                    "an archive needs --entry N (0..{}, in name order)",
                    lib.len()
                )
            })?;
            let e = lib
                .sorted_entry(n)
                .ok_or_else(|| anyhow!("no entry {n}: the archive has {}", lib.len()))?;
            let data = lib.entry_unpacked(e)?.into_owned();
            if !data.starts_with(b"BBHD") {
                bail!("entry {n} ({}) is not a BBHD clip", e.name);
            }
            Ok(data.into())
        }
        _ => bail!("{fmt:?} holds no clip"),
    }
}

pub fn play(args: &PlayArgs) -> Result<()> {
    let path = &args.path;
    let scene = if path.is_dir() {
        scene_from_dir(path, args.script)?
    } else {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        match super::detect(path, &bytes) {
            Some(Format::Ascr) => scene_from_script_file(path, &bytes)?,
            Some(fmt @ (Format::Bbhd | Format::Tpwm)) => {
                let data = clip_bytes(fmt, &bytes, None)?;
                let clip = BbhdClip::parse(&data)?;
                Scene::from_clip(
                    ClipPictures::decode(&clip)?,
                    Palette::grey_ramp(),
                    CLIP_FPS,
                    1000,
                )
            }
            other => bail!(
                "{}: cannot play {other:?}; give a game folder, a script or a clip",
                path.display()
            ),
        }
    };
    let opts = modex_cutscene::player::PlayerOptions {
        title: format!("modex - {}", path.display()),
        scale: args.scale,
        aspect_4_3: args.aspect,
        speed: args.speed,
    };
    modex_cutscene::player::run(&scene, &opts).map_err(|e| anyhow!(e))
}

pub fn export(args: &ExportArgs, fmt: Option<Format>, bytes: &[u8]) -> Result<()> {
    let targets = ExportTargets {
        png_dir: args.png.clone(),
        gif: args.gif.clone(),
        wav: args.wav.clone(),
    };
    if targets.png_dir.is_none() && targets.gif.is_none() && targets.wav.is_none() {
        bail!("nothing to export: give --png DIR, --gif FILE and/or --wav FILE");
    }
    let scene = match fmt {
        None => Some(scene_from_dir(&args.input, args.script)?),
        Some(Format::Ascr) => Some(scene_from_script_file(&args.input, bytes)?),
        Some(Format::Lib) if args.entry.is_none() && args.script.is_some() => {
            bail!("--script takes a game folder, not an archive")
        }
        _ => None,
    };
    if let Some(mut scene) = scene {
        if let Some(p) = &args.palette {
            // A palette given on the command line replaces the scene's starting palette.
            let pal = load_palette(p)?;
            scene
                .script
                .lines
                .retain(|l| !matches!(l.command, ascr::Command::InitPal(_)));
            scene.assets.palettes.insert((-1, -1), pal);
            scene.script.lines.insert(
                0,
                ascr::Line {
                    line: 0,
                    command: ascr::Command::InitPal(ascr::PaletteRef {
                        selector: 0,
                        archive: -1,
                        entry: -1,
                    }),
                },
            );
        }
        let bar = export::progress_bar(0, "scene");
        let s = export::export_scene(&scene, &targets, &bar)?;
        eprintln!(
            "exported {} ticks: {} PNGs, {} GIF frames, {} sound samples",
            s.pngs.max(s.gif_frames).max(s.wav_samples / 882),
            s.pngs,
            s.gif_frames,
            s.wav_samples
        );
        return Ok(());
    }
    let fmt = fmt.expect("scenes handled above");
    let data = clip_bytes(fmt, bytes, args.entry)?;
    let clip = BbhdClip::parse(&data).with_context(|| args.input.display().to_string())?;
    let pictures = clip.decode_pictures()?;
    let palette = match &args.palette {
        Some(p) => load_palette(p)?,
        None => Palette::grey_ramp(),
    };
    let bar = export::progress_bar(pictures.len() as u64, "pictures");
    let s = export::export_clip(&pictures, &palette, &targets, CLIP_FPS as u32, &bar)?;
    eprintln!(
        "exported {} pictures ({} PNGs, {} GIF frames)",
        pictures.len(),
        s.pngs,
        s.gif_frames
    );
    Ok(())
}
