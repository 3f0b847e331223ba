//! [`Asset`]: a file the user named, read once, with its format.
//!
//! Frontends start every command here: `Asset::open(path)?` reads the file, detects its format by
//! [`detect`] and keeps the bytes and the folder ([`OpenedFile`]) for the loaders, so siblings
//! (an HVA beside a VXL, a `voxels.vpl` in the folder) are found the same way everywhere and no
//! file is read twice.

use std::path::{Path, PathBuf};

use modex::{OpenedFile, ReadError};

use crate::format::{detect, Format};
use crate::palette::{read_detected, PaletteError, PaletteFile};

/// How many leading bytes an unknown-format error shows: enough to recognise a magic by eye.
const SHOWN_BYTES: usize = 8;

/// A file read once, with the format it was detected as.
#[derive(Debug, Clone)]
pub struct Asset {
    file: OpenedFile,
    format: Format,
}

/// A file could not be opened as an asset.
#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file has no bytes at all (a failed download or copy): said as such, since there are no
    /// first bytes to show.
    #[error("{}: the file is empty (0 bytes)", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// No rule of [`detect`] applies. The message is the one `modex` has always printed, so users
    /// see the first bytes and can tell a damaged file from a format the engine does not know.
    #[error("{}: unknown format (first bytes {first:02x?})", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
        /// Its first (up to 8) bytes.
        first: Vec<u8>,
    },
}

impl Asset {
    /// Read the file at `path` and detect its format.
    pub fn open(path: impl Into<PathBuf>) -> Result<Asset, AssetError> {
        Asset::from_file(OpenedFile::open(path)?)
    }

    /// Detect the format of a file already read (bytes from an archive, a test, stdin).
    pub fn from_file(file: OpenedFile) -> Result<Asset, AssetError> {
        if file.bytes().is_empty() {
            return Err(AssetError::Empty {
                path: file.path().to_path_buf(),
            });
        }
        match detect(file.path(), file.bytes()) {
            Some(format) => Ok(Asset { file, format }),
            None => Err(AssetError::UnknownFormat {
                path: file.path().to_path_buf(),
                first: file.bytes()[..file.bytes().len().min(SHOWN_BYTES)].to_vec(),
            }),
        }
    }

    /// The detected format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The file: bytes, path, stem, extension and siblings.
    pub fn file(&self) -> &OpenedFile {
        &self.file
    }

    /// Where it was read from.
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// Its bytes.
    pub fn bytes(&self) -> &[u8] {
        self.file.bytes()
    }

    /// The file, taken (for loaders that keep the bytes).
    pub fn into_file(self) -> OpenedFile {
        self.file
    }

    /// This file read as a palette, by the rule of [`crate::palette`] (for `modex info` on a
    /// palette and for assets that are palettes).
    pub fn palette(&self) -> Result<PaletteFile, PaletteError> {
        read_detected(self.path(), self.bytes(), Some(self.format))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_from_bytes_in_memory() {
        let a = Asset::from_file(OpenedFile::from_bytes(
            "units/HMEC.VXL",
            b"Voxel Animation\0".to_vec(),
        ))
        .unwrap();
        assert_eq!(a.format(), Format::Vxl);
        assert_eq!(a.path(), Path::new("units/HMEC.VXL"));
        assert_eq!(a.bytes(), b"Voxel Animation\0");
        assert_eq!(a.file().stem(), "HMEC");
        assert_eq!(a.into_file().bytes().len(), 16);
    }

    #[test]
    fn unknown_format_names_the_path_and_the_first_bytes() {
        let e = Asset::from_file(OpenedFile::from_bytes("x.bin", b"nothing at all".to_vec()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.bin: unknown format (first bytes [6e, 6f, 74, 68, 69, 6e, 67, 20])"
        );
        let e = Asset::from_file(OpenedFile::from_bytes("y", vec![1, 2])).unwrap_err();
        assert!(matches!(e, AssetError::UnknownFormat { ref first, .. } if first == &[1, 2]));
        assert_eq!(e.to_string(), "y: unknown format (first bytes [01, 02])");
    }

    #[test]
    fn an_empty_file_says_it_is_empty_whatever_its_name() {
        for name in ["level.wmb", "HMEC.HVA", "x"] {
            let e = Asset::from_file(OpenedFile::from_bytes(name, Vec::new())).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("{name}: the file is empty (0 bytes)")
            );
        }
    }

    #[test]
    fn a_known_magic_cut_short_is_named_by_its_format() {
        // Ten bytes of a level: detected as a level, so its decoder says how short it is.
        let a = Asset::from_file(OpenedFile::from_bytes(
            "l.wmb",
            b"WMB7\0\0\0\0\0\0".to_vec(),
        ))
        .unwrap();
        assert_eq!(a.format(), Format::Wmb);
    }

    #[test]
    fn open_reads_the_file_once_and_keeps_its_folder() {
        let dir = std::env::temp_dir().join(format!("modex-assets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("day.pal"), [63u8; 768]).unwrap();
        std::fs::write(dir.join("DAY.HVA"), b"h").unwrap();
        let a = Asset::open(dir.join("day.pal")).unwrap();
        assert_eq!(a.format(), Format::Palette);
        assert_eq!(
            a.file()
                .open_sibling("hva")
                .unwrap()
                .map(|f| f.bytes().to_vec()),
            Some(b"h".to_vec())
        );
        assert_eq!(a.palette().unwrap().palette.colors[0], [255, 255, 255]);
        let missing = Asset::open(dir.join("none.vxl")).unwrap_err();
        assert!(matches!(missing, AssetError::Read(_)));
        assert!(missing.to_string().contains("none.vxl"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
