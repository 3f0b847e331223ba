//! Telling what a file or folder given to a cutscene frontend holds, and finding the clip in it.
//!
//! Which format a file is, is decided once for every format by the frontends' detection
//! (`modex_assets::detect`, built on the format modules' `sniff` functions such as [`bbhd::sniff`]);
//! a frontend maps that format to an [`Input`]. What only this crate knows is decided here: whether
//! a folder is a game install ([`Input::of_folder`]: it has an `ANI` folder,
//! [`GameDir::looks_like_install`]), what an archive entry holds ([`EntryKind::sniff`]) and where
//! the clip of an input is ([`clip_data`]).

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

use modex::FormatError;

use crate::lib_archive::LibArchive;
use crate::scene::GameDir;
use crate::{apal, bbhd, tpwm, voc};

/// What a path holds, as far as cutscenes go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Input {
    /// A folder laid out like a Battle Isle 2 install (`ANI/`, `ENG/`): its scripts are scenes.
    Install,
    /// An ASCR scene script file (`.ascr`, `.scr`); its assets come from its folder.
    Script,
    /// A BBHD clip.
    Clip,
    /// A TPWM-packed file (a clip, when it is played or exported).
    Packed,
    /// A LIB archive (known by its `.lib` extension: the format has no magic).
    Archive,
    /// A Creative Voice sound.
    Sound,
}

impl Input {
    /// A folder: [`Input::Install`] when it looks like one, else `None`.
    pub fn of_folder(path: &Path) -> Option<Input> {
        GameDir::looks_like_install(path).then_some(Input::Install)
    }

    /// A short name for messages (`"BBHD clip"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Input::Install => "game install",
            Input::Script => "ASCR script",
            Input::Clip => "BBHD clip",
            Input::Packed => "TPWM-packed file",
            Input::Archive => "LIB archive",
            Input::Sound => "VOC sound",
        }
    }
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What an archive entry (or an unpacked TPWM file) holds, by its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A BBHD clip.
    Clip,
    /// A Creative Voice sound.
    Sound,
    /// An ATXT message (it starts with a `{` segment).
    Text,
    /// A palette (exactly [`apal::PALETTE_LEN`] bytes).
    Palette,
    /// Text that is not a message: a scene script.
    Script,
    /// Anything else.
    Data,
}

impl EntryKind {
    /// Tell an entry's unpacked bytes apart.
    pub fn sniff(data: &[u8]) -> EntryKind {
        if bbhd::sniff(data) {
            EntryKind::Clip
        } else if voc::sniff(data) {
            EntryKind::Sound
        } else if data.starts_with(b"{") {
            EntryKind::Text
        } else if data.len() == apal::PALETTE_LEN {
            EntryKind::Palette
        } else if data
            .iter()
            .take(64)
            .all(|&b| b.is_ascii_graphic() || b.is_ascii_whitespace())
        {
            EntryKind::Script
        } else {
            EntryKind::Data
        }
    }

    /// The name `modex info` prints: `"bbhd"`, `"voc"`, `"text"`, `"palette"`, `"script"`,
    /// `"data"`.
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::Clip => "bbhd",
            EntryKind::Sound => "voc",
            EntryKind::Text => "text",
            EntryKind::Palette => "palette",
            EntryKind::Script => "script",
            EntryKind::Data => "data",
        }
    }
}

/// Why a file holds no clip to play or export.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ClipError {
    /// The file (or the entry) is broken.
    #[error(transparent)]
    Format(Box<FormatError>),
    /// An archive holds many entries and none was chosen.
    #[error("an archive needs an entry number (0..{entries}, in name order)")]
    NeedsEntry {
        /// How many entries the archive has.
        entries: usize,
    },
    /// The archive has no entry at that position.
    #[error("no entry {entry}: the archive has {entries}")]
    NoEntry {
        /// The position asked for.
        entry: usize,
        /// How many entries the archive has.
        entries: usize,
    },
    /// The entry (or the unpacked file) is something else.
    #[error("{what} is not a BBHD clip but {}", kind.name())]
    NotAClip {
        /// `"entry N (NAME)"` or `"the unpacked file"`.
        what: String,
        /// What it is.
        kind: EntryKind,
    },
    /// The input is not a kind of file that holds a clip.
    #[error("a {input} holds no clip")]
    NoClip {
        /// What it is.
        input: Input,
    },
}

impl From<FormatError> for ClipError {
    fn from(e: FormatError) -> Self {
        ClipError::Format(Box::new(e))
    }
}

/// The BBHD bytes in a file of kind `input`: a clip as it is, a packed clip unpacked, or entry
/// `entry` (in name order, as scripts count) of an archive.
pub fn clip_data(
    input: Input,
    bytes: &[u8],
    entry: Option<usize>,
) -> Result<Cow<'_, [u8]>, ClipError> {
    fn checked(
        data: Cow<'_, [u8]>,
        what: impl FnOnce() -> String,
    ) -> Result<Cow<'_, [u8]>, ClipError> {
        if bbhd::sniff(&data) {
            Ok(data)
        } else {
            Err(ClipError::NotAClip {
                what: what(),
                kind: EntryKind::sniff(&data),
            })
        }
    }
    match input {
        Input::Clip => Ok(bytes.into()),
        Input::Packed => checked(tpwm::decompress(bytes)?.into(), || {
            "the unpacked file".into()
        }),
        Input::Archive => {
            let lib = LibArchive::parse(bytes)?;
            let entries = lib.len();
            let n = entry.ok_or(ClipError::NeedsEntry { entries })?;
            let e = lib
                .sorted_entry(n)
                .ok_or(ClipError::NoEntry { entry: n, entries })?;
            let data = lib.entry_unpacked(e)?.into_owned();
            checked(data.into(), || format!("entry {n} ({})", e.name))
        }
        other => Err(ClipError::NoClip { input: other }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bbhd_encode::{encode_clip, EncodeOptions};
    use crate::lib_archive::encode_lib;

    #[test]
    fn folders_are_installs_when_they_have_ani() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/cutscene");
        assert_eq!(Input::of_folder(&data), Some(Input::Install));
        assert_eq!(Input::of_folder(&data.join("clips")), None);
    }

    #[test]
    fn entries_by_content() {
        assert_eq!(EntryKind::sniff(b"BBHD").name(), "bbhd");
        assert_eq!(EntryKind::sniff(voc::MAGIC), EntryKind::Sound);
        assert_eq!(EntryKind::sniff(b"{hallo}"), EntryKind::Text);
        assert_eq!(EntryKind::sniff(&[0; 768]), EntryKind::Palette);
        assert_eq!(EntryKind::sniff(b"play (1, 2)\r\n"), EntryKind::Script);
        assert_eq!(EntryKind::sniff(&[0, 1, 2]), EntryKind::Data);
    }

    #[test]
    fn the_clip_of_a_clip_a_packed_clip_and_an_archive_entry() {
        let clip = encode_clip(4, 2, &[vec![1; 8]], &EncodeOptions::default());
        assert_eq!(clip_data(Input::Clip, &clip, None).unwrap(), &clip[..]);
        let packed = tpwm::compress(&clip);
        assert_eq!(clip_data(Input::Packed, &packed, None).unwrap(), &clip[..]);
        let lib = encode_lib(&[("CLIP", clip.clone()), ("PAL", vec![0; 768])]);
        assert_eq!(clip_data(Input::Archive, &lib, Some(0)).unwrap(), &clip[..]);
        let e = |r: Result<Cow<'_, [u8]>, ClipError>| r.unwrap_err().to_string();
        assert_eq!(
            e(clip_data(Input::Archive, &lib, None)),
            "an archive needs an entry number (0..2, in name order)"
        );
        assert_eq!(
            e(clip_data(Input::Archive, &lib, Some(1))),
            "entry 1 (PAL) is not a BBHD clip but palette"
        );
        assert_eq!(
            e(clip_data(Input::Archive, &lib, Some(5))),
            "no entry 5: the archive has 2"
        );
        assert_eq!(
            e(clip_data(Input::Sound, b"", None)),
            "a VOC sound holds no clip"
        );
    }
}
