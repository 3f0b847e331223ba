//! Battle Isle 2 cutscene files: BBHD clips, LIB archives, TPWM, VOC sounds, ASCR scripts.

use modex::FormatResult;
use modex_cutscene::{ascr, tpwm, voc};
use modex_cutscene::{BbhdClip, EntryKind, FrameType, LibArchive};
use serde_json::json;

use super::Description;

/// `modex info` for a BBHD clip (every picture is decoded, so payloads are checked too).
pub fn describe_clip(bytes: &[u8]) -> FormatResult<Description> {
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

/// `modex info` for a LIB archive.
pub fn describe_lib(bytes: &[u8]) -> FormatResult<Description> {
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

/// `modex info` for a TPWM-compressed file.
pub fn describe_tpwm(bytes: &[u8]) -> FormatResult<Description> {
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

/// `modex info` for a VOC sound.
pub fn describe_voc(bytes: &[u8]) -> FormatResult<Description> {
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

/// `modex info` for an ASCR scene script.
pub fn describe_script(bytes: &[u8]) -> FormatResult<Description> {
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
