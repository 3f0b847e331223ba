//! One palette loader for every `--palette` and every palette file: [`load_palette`] and
//! [`PaletteFile`].
//!
//! # The rule
//!
//! The loader starts from what [`detect`] says the file is, so a file is never detected as one
//! thing and read as another, and then reads it in exactly one way, in this order:
//!
//! 1. **Another format** (MDL, HMP, VXL, BBHD, VOC by magic; HVA, LIB, ASCR by extension) →
//!    [`PaletteError::NotAPalette`] naming that format. Such a file is a slip on the command line,
//!    not a palette with odd colours.
//! 2. **TPWM** → unpacked, then the rule is applied once more to what it holds, with the same name
//!    (a TPWM inside a TPWM is refused). This is how Battle Isle 2 may store its APAL palettes; the
//!    VGA bytes inside are read by the VGA rule below, as [`modex_cutscene::apal::load_palette`] reads
//!    them. A stream that does
//!    not unpack is a [`PaletteError::Tpwm`] with the field and byte offset.
//! 3. **PCX**: a `.pcx` (starting with 0x0A or not), or any file with the 256-colour trailer (0x0A
//!    first, at least 128 + 769 bytes, 0x0C 769 bytes from the end) → the trailer's 768 bytes,
//!    8-bit as PCX stores them, through [`Palette::from_pcx`]. A PCX without the trailer (a 24-bit
//!    or 16-colour image, a truncated file, another image renamed) is a [`PaletteError::Pcx`] that
//!    names the field and offset. The one exception: a 768-byte `.pcx` that does not start with
//!    0x0A is a palette by its size (step 5) — it cannot be a PCX, and it is a palette.
//! 4. **VPL**: a `.vpl`, or any file laid out as one (16 + 768 + 256 × page count bytes, the count at
//!    offset 8) → its palette at offset 16 through [`modex_vxl::vpl::decode`] (6/8-bit as the VGA
//!    rule below); its lighting pages are kept in [`PaletteFile::vpl`]. A VPL that does not decode
//!    is a [`PaletteError::Vpl`] with field and offset.
//! 5. **VGA RGB**, for a `.pal`/`.act`, a 768-byte file, or a longer file nothing above recognised:
//!    the first 768 bytes, **6-bit** (scaled by 255/63, rounded) when none of them exceeds 63, else
//!    **8-bit**, as [`Palette::from_rgb_bytes`] decides. Longer files keep being read by their first
//!    768 bytes, as before (Doom's `PLAYPAL`, Build's `PALETTE.DAT`, Descent's `.256` and a 772-byte
//!    Adobe `.act` start with their palette); that is logged as a warning, because it is a guess.
//! 6. Shorter than 768 bytes → [`PaletteError::NotAPalette`], which lists what was tried.
//!
//! # Where the four loaders of the CLI disagreed, and what this one does
//!
//! Before this crate `modex export` decided PCX by the extension, `render`/`view` of models and
//! voxels by the first byte (and voxels took `.vpl` by extension), and `play`/`export` of cutscenes
//! through the cutscene crate's own loader (since removed). Where all four read a file the same way, this loader does too.
//! Where they differed:
//!
//! - **768 bytes whose first byte is 0x0A** (entry 0 has red 10): model and voxel `render` tried a
//!   PCX and failed; now a VGA palette, as `export` and cutscenes read it. 768 bytes cannot hold a
//!   PCX header and its trailer. (Named `.pcx` it is still a PCX by detection, and the error says
//!   the trailer is missing.)
//! - **A PCX with its trailer under another name**: `export` read its first 768 bytes (header and
//!   pixels) as colours; now its trailer, as the other three did.
//! - **A PCX without the trailer**: cutscenes read the header and pixels as colours; now an error,
//!   as the other three gave.
//! - **A TPWM-wrapped palette (APAL)**: only cutscenes unpacked it; the others failed or showed the
//!   compressed bytes as colours. Now unpacked everywhere.
//! - **A VPL**: only voxel `render`, and only when named `.vpl`, read its palette; the others read
//!   the 16-byte header as the first colours. Now its palette at offset 16, by name or by layout.
//! - **A `.pcx` that does not start with 0x0A and is not 768 bytes** (another image renamed):
//!   `export` refused it, the others read its first 768 bytes as colours; now refused as a PCX.
//! - **A model, voxel, clip, archive, sound or script given as a palette**: all four took its first
//!   768 bytes as colours. Now refused by name: nobody means that.

use std::path::{Path, PathBuf};

use modex::palette::{is_six_bit, VGA_PALETTE_LEN};
use modex::{FormatError, OpenedFile, Palette};
use modex_vxl::vpl::{self, Vpl};

use crate::format::{detect, Format};

/// Where the colours of a [`PaletteFile`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaletteSource {
    /// The 256-colour trailer of a PCX image (8-bit values).
    Pcx,
    /// The palette of a VPL (its pages are in [`PaletteFile::vpl`]).
    Vpl,
    /// Raw VGA RGB triples.
    Vga {
        /// The values were 6-bit (none above 63) and were scaled to 8 bits.
        six_bit: bool,
        /// Bytes after the first 768 that were not read (0 for a plain palette).
        ignored: usize,
    },
}

/// A palette file as read: the palette, how it was stored and, for a VPL, its lighting pages.
///
/// [`load_palette`] is enough for most callers; this is for those who describe the file (`modex
/// info`) or need a VPL's pages (the voxel renderer, through [`PaletteFile::into_vpl`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PaletteFile {
    /// The 256 colours, 8 bits per channel.
    pub palette: Palette,
    /// How they were stored.
    pub source: PaletteSource,
    /// The file was TPWM-compressed (as Battle Isle 2's APAL entries may be).
    pub tpwm: bool,
    /// The whole VPL when the file was one.
    pub vpl: Option<Vpl>,
}

/// A file is not a palette the engine can read. Every variant names the file; those that come
/// from a decoder carry its [`FormatError`] with field and byte offset.
#[derive(Debug, thiserror::Error)]
pub enum PaletteError {
    /// The file could not be read at all.
    #[error(transparent)]
    Read(#[from] modex::ReadError),
    /// A PCX without a usable 256-colour trailer.
    #[error("{}: PCX without a 256-colour palette", path.display())]
    Pcx {
        /// The file.
        path: PathBuf,
        /// Which field of the PCX, and where.
        #[source]
        source: FormatError,
    },
    /// A TPWM-wrapped file that does not unpack.
    #[error("{}: TPWM-wrapped palette does not unpack", path.display())]
    Tpwm {
        /// The file.
        path: PathBuf,
        /// Which field of the TPWM stream, and where.
        #[source]
        source: FormatError,
    },
    /// A VPL (by name or layout) that does not decode.
    #[error("{}: not a readable VPL", path.display())]
    Vpl {
        /// The file.
        path: PathBuf,
        /// Which field of the VPL, and where.
        #[source]
        source: FormatError,
    },
    /// No rule of the loader applies.
    #[error(
        "{}: not a palette ({len} bytes{}): tried a PCX with its 256-colour trailer, \
         TPWM/APAL, a VPL and 768 bytes of VGA RGB",
        path.display(),
        found.map(|f| format!(", detected as {}", f.name().to_uppercase())).unwrap_or_default()
    )]
    NotAPalette {
        /// The file.
        path: PathBuf,
        /// Its length in bytes (after unpacking, for a TPWM file).
        len: usize,
        /// The format it was detected as instead, if any.
        found: Option<Format>,
    },
}

/// The palette in the file called `name` holding `bytes`, by the rule in the module docs.
///
/// `name` is used for its extension and in error messages; nothing is read from disk.
pub fn load_palette(name: &Path, bytes: &[u8]) -> Result<Palette, PaletteError> {
    PaletteFile::read(name, bytes).map(|f| f.palette)
}

/// The palette in the file at `path`, read once (see [`load_palette`]). What `--palette PATH`
/// calls.
pub fn open_palette(path: &Path) -> Result<Palette, PaletteError> {
    PaletteFile::open(path).map(|f| f.palette)
}

impl PaletteFile {
    /// Read a palette from `bytes` of the file called `name`, by the rule in the module docs.
    pub fn read(name: &Path, bytes: &[u8]) -> Result<PaletteFile, PaletteError> {
        read_detected(name, bytes, detect(name, bytes))
    }

    /// Read the file at `path` once and its palette.
    pub fn open(path: &Path) -> Result<PaletteFile, PaletteError> {
        let file = OpenedFile::open(path)?;
        PaletteFile::from_opened(&file)
    }

    /// The palette of a file already read.
    pub fn from_opened(file: &OpenedFile) -> Result<PaletteFile, PaletteError> {
        PaletteFile::read(file.path(), file.bytes())
    }

    /// Lighting pages for the voxel renderer: the VPL's own pages when the file was a VPL, else
    /// [`GAME_PAGE_COUNT`](vpl::GAME_PAGE_COUNT) pages made from the palette
    /// ([`Vpl::from_palette`]), as the voxel CLI did for a non-VPL `--palette`.
    pub fn into_vpl(self) -> Vpl {
        match self.vpl {
            Some(v) => v,
            None => Vpl::from_palette(&self.palette, vpl::GAME_PAGE_COUNT),
        }
    }
}

/// The rule, for a file already detected as `format` (so [`crate::Asset`] does not detect twice).
pub(crate) fn read_detected(
    name: &Path,
    bytes: &[u8],
    format: Option<Format>,
) -> Result<PaletteFile, PaletteError> {
    read_layer(name, bytes, format, false)
}

/// One layer of the rule; `unpacked` is set for the content of a TPWM file.
fn read_layer(
    name: &Path,
    bytes: &[u8],
    format: Option<Format>,
    unpacked: bool,
) -> Result<PaletteFile, PaletteError> {
    let path = || name.to_path_buf();
    let file = |palette, source, vpl| PaletteFile {
        palette,
        source,
        tpwm: unpacked,
        vpl,
    };
    // A `.pcx` that detection did not recognise (it does not start with 0x0A) is refused as a
    // PCX, with the PCX's error, instead of being read as raw colours.
    let format = match format {
        None if name
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pcx")) =>
        {
            Some(Format::Pcx)
        }
        f => f,
    };
    match format {
        Some(Format::Tpwm) if !unpacked => {
            let inner =
                modex_cutscene::tpwm::decompress(bytes).map_err(|source| PaletteError::Tpwm {
                    path: path(),
                    source,
                })?;
            read_layer(name, &inner, detect(name, &inner), true)
        }
        Some(Format::Pcx) => Palette::from_pcx(bytes)
            .map(|p| file(p, PaletteSource::Pcx, None))
            .map_err(|source| PaletteError::Pcx {
                path: path(),
                source,
            }),
        Some(Format::Vpl) => vpl::decode(bytes)
            .map(|v| file(v.palette.clone(), PaletteSource::Vpl, Some(v)))
            .map_err(|source| PaletteError::Vpl {
                path: path(),
                source,
            }),
        Some(Format::Palette) | None => {
            let Some(rgb) = bytes.get(..VGA_PALETTE_LEN) else {
                return Err(not_a_palette(name, bytes, None));
            };
            let ignored = bytes.len() - VGA_PALETTE_LEN;
            if ignored > 0 {
                log::warn!(
                    "{}: {} bytes; only the first 768 are read, as VGA RGB",
                    name.display(),
                    bytes.len()
                );
            }
            // 768 bytes never fail; an unpacked APAL is the same VGA RGB.
            let palette =
                Palette::from_rgb_bytes(rgb).map_err(|_| not_a_palette(name, bytes, None))?;
            let six_bit = is_six_bit(rgb);
            Ok(file(palette, PaletteSource::Vga { six_bit, ignored }, None))
        }
        // Every other format, and a TPWM inside a TPWM.
        Some(other) => Err(not_a_palette(name, bytes, Some(other))),
    }
}

fn not_a_palette(name: &Path, bytes: &[u8], found: Option<Format>) -> PaletteError {
    PaletteError::NotAPalette {
        path: name.to_path_buf(),
        len: bytes.len(),
        found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex::ErrorKind;
    use modex_cutscene::{apal, tpwm};

    fn p(name: &str) -> &Path {
        Path::new(name)
    }

    /// The format a [`PaletteError::NotAPalette`] names (`Some(None)`: none); `None` for other errors.
    fn refused_as(e: &PaletteError) -> Option<Option<Format>> {
        match e {
            PaletteError::NotAPalette { found, .. } => Some(*found),
            _ => None,
        }
    }

    /// 768 bytes whose entry `i` is `(i % 64, (i / 4) % 64, 63 - i % 64)`: 6-bit VGA values.
    fn six_bit_rgb() -> Vec<u8> {
        (0..256usize)
            .flat_map(|i| [(i % 64) as u8, ((i / 4) % 64) as u8, (63 - i % 64) as u8])
            .collect()
    }

    fn pcx(pixels: usize, palette: &[u8]) -> Vec<u8> {
        let mut d = vec![0u8; 128 + pixels];
        d[..4].copy_from_slice(&[0x0a, 5, 1, 8]);
        d.push(0x0c);
        d.extend_from_slice(palette);
        d
    }

    fn vpl_bytes(pages: u32) -> Vec<u8> {
        let mut d = Vec::new();
        for v in [16u32, 31, pages, 0] {
            d.extend(v.to_le_bytes());
        }
        d.extend(Palette::quake().to_rgb_bytes());
        for page in 0..pages {
            d.extend((0..256u32).map(|c| (c + page) as u8));
        }
        d
    }

    #[test]
    fn vga_six_bit_is_scaled_and_eight_bit_kept() {
        let rgb = six_bit_rgb();
        let f = PaletteFile::read(p("day.pal"), &rgb).unwrap();
        assert_eq!(f.palette, Palette::from_rgb_bytes(&rgb).unwrap());
        assert_eq!(f.palette.colors[63], [255, 61, 0]);
        assert_eq!(
            f.source,
            PaletteSource::Vga {
                six_bit: true,
                ignored: 0
            }
        );
        assert!(!f.tpwm && f.vpl.is_none());

        let q = Palette::quake().to_rgb_bytes();
        let f = PaletteFile::read(p("quake.lmp"), &q).unwrap();
        assert_eq!(f.palette, Palette::quake());
        assert_eq!(
            f.source,
            PaletteSource::Vga {
                six_bit: false,
                ignored: 0
            }
        );
        // Any name: a 768-byte file is a palette.
        assert_eq!(
            load_palette(p("APAL000.003"), &q).unwrap(),
            Palette::quake()
        );
    }

    #[test]
    fn a_768_byte_palette_starting_with_0x0a_is_a_palette() {
        let mut rgb = six_bit_rgb();
        rgb[0] = 0x0a;
        let f = PaletteFile::read(p("x.pal"), &rgb).unwrap();
        assert_eq!(f.palette.colors[0][0], modex::palette::vga6_to_8(10));
        // ... but named `.pcx` it is a PCX by detection, and too short to be one.
        let e = load_palette(p("x.pcx"), &rgb).unwrap_err();
        let PaletteError::Pcx { source, .. } = &e else {
            panic!("{e}")
        };
        assert_eq!(source.field, "palette trailer");
        assert!(matches!(
            source.kind,
            ErrorKind::Truncated {
                needed: 897,
                available: 768
            }
        ));
        // A 768-byte `.pcx` that does not start with 0x0A cannot be a PCX: a palette by its size.
        let rgb = six_bit_rgb();
        assert_eq!(
            load_palette(p("x.pcx"), &rgb).unwrap(),
            Palette::from_rgb_bytes(&rgb).unwrap()
        );
    }

    #[test]
    fn pcx_trailer_is_read_as_eight_bit_by_name_or_by_content() {
        // Values all <= 63: a PCX trailer is still 8-bit, never scaled.
        let rgb = six_bit_rgb();
        let file = pcx(300, &rgb);
        let want = Palette::from_pcx(&file).unwrap();
        assert_eq!(want.colors[63], [63, 15, 0]);
        for name in ["palette.pcx", "PALETTE.PCX", "image.dat", "noext", "x.pal"] {
            let f = PaletteFile::read(p(name), &file).unwrap();
            assert_eq!(
                (f.palette.clone(), f.source),
                (want.clone(), PaletteSource::Pcx),
                "{name}"
            );
        }
    }

    #[test]
    fn pcx_without_its_trailer_names_the_field_and_offset() {
        let mut file = pcx(300, &six_bit_rgb());
        let at = file.len() - 769;
        file[at] = 0x48;
        let e = load_palette(p("room.pcx"), &file).unwrap_err();
        let PaletteError::Pcx { path, source } = &e else {
            panic!("{e}")
        };
        assert_eq!(path, Path::new("room.pcx"));
        assert_eq!(
            (source.field.as_str(), source.offset),
            ("palette trailer marker", at)
        );
        assert!(e
            .to_string()
            .contains("room.pcx: PCX without a 256-colour palette"));

        // Truncated below header + trailer.
        let e = load_palette(p("short.pcx"), &file[..500]).unwrap_err();
        assert!(matches!(e, PaletteError::Pcx { ref source, .. }
            if matches!(source.kind, ErrorKind::Truncated { needed: 897, available: 500 })));

        // Another image renamed `.pcx`: refused as a PCX, not read as colours.
        let e = load_palette(p("photo.pcx"), &[0x89; 2000]).unwrap_err();
        assert!(matches!(e, PaletteError::Pcx { ref source, .. }
            if source.field == "manufacturer" && source.offset == 0));
    }

    #[test]
    fn tpwm_wrapped_apal_is_unpacked_and_read_through_apal() {
        // A grey ramp packs well: shorter than 768 bytes, as the old loaders could not read.
        let pal = apal::six_bit_exact(&Palette::grey_ramp());
        let wrapped = apal::encode_palette(&pal, true);
        assert!(
            tpwm::sniff(&wrapped) && wrapped.len() < 768,
            "{}",
            wrapped.len()
        );
        let f = PaletteFile::read(p("APAL000.001"), &wrapped).unwrap();
        assert_eq!(f.palette, pal);
        assert_eq!(f.palette, apal::load_palette(&wrapped).unwrap());
        assert!(f.tpwm);
        assert_eq!(
            f.source,
            PaletteSource::Vga {
                six_bit: true,
                ignored: 0
            }
        );
        // The plain APAL is read the same.
        let plain = apal::encode_palette(&pal, false);
        assert_eq!(load_palette(p("APAL000.001"), &plain).unwrap(), pal);
    }

    #[test]
    fn tpwm_that_does_not_unpack_or_holds_no_palette_is_an_error() {
        let wrapped = apal::encode_palette(&Palette::quake(), true);
        let e = load_palette(p("a.pal"), &wrapped[..wrapped.len() - 3]).unwrap_err();
        let PaletteError::Tpwm { source, .. } = &e else {
            panic!("{e}")
        };
        assert_eq!(source.format, "TPWM");

        let clip = tpwm::compress(b"BBHD and then a clip that is not a palette");
        let e = load_palette(p("x.bin"), &clip).unwrap_err();
        assert_eq!(refused_as(&e), Some(Some(Format::Bbhd)), "{e}");

        let twice = tpwm::compress(&wrapped);
        let e = load_palette(p("x.pal"), &twice).unwrap_err();
        assert_eq!(refused_as(&e), Some(Some(Format::Tpwm)), "{e}");

        let short = tpwm::compress(&[1u8; 100]);
        let e = load_palette(p("x.pal"), &short).unwrap_err();
        assert_eq!(refused_as(&e), Some(None), "{e}");
        assert!(e.to_string().contains("(100 bytes)"), "{e}");
    }

    #[test]
    fn vpl_by_name_or_layout_keeps_its_pages() {
        let bytes = vpl_bytes(3);
        for name in ["voxels.vpl", "VOXELS.VPL", "game.pal", "noext"] {
            let f = PaletteFile::read(p(name), &bytes).unwrap();
            assert_eq!(f.source, PaletteSource::Vpl, "{name}");
            assert_eq!(f.palette, Palette::quake());
            let v = f.into_vpl();
            assert_eq!(v.page_count(), 3);
            assert_eq!(v.page(2)[10], 12);
        }
    }

    #[test]
    fn broken_vpl_names_the_field() {
        let bytes = vpl_bytes(3);
        let e = load_palette(p("voxels.vpl"), &bytes[..100]).unwrap_err();
        let PaletteError::Vpl { source, .. } = &e else {
            panic!("{e}")
        };
        assert_eq!((source.format, source.field.as_str()), ("VPL", "palette"));
        let mut none = bytes.clone();
        none[8..12].copy_from_slice(&0u32.to_le_bytes());
        let e = load_palette(p("voxels.vpl"), &none).unwrap_err();
        assert!(matches!(e, PaletteError::Vpl { ref source, .. }
            if source.field == "header.section_count" && source.offset == 8));
    }

    #[test]
    fn pages_are_made_for_a_palette_that_is_not_a_vpl() {
        let v = PaletteFile::read(p("q.pal"), &Palette::quake().to_rgb_bytes())
            .unwrap()
            .into_vpl();
        assert_eq!(
            v,
            Vpl::from_palette(&Palette::quake(), vpl::GAME_PAGE_COUNT)
        );
    }

    #[test]
    fn other_formats_are_refused_by_name() {
        let mut mdl = b"MDL5".to_vec();
        mdl.resize(2000, 7);
        let e = load_palette(p("tree.mdl"), &mdl).unwrap_err();
        assert_eq!(refused_as(&e), Some(Some(Format::Mdl)), "{e}");
        assert!(
            e.to_string().contains("(2000 bytes, detected as MDL)"),
            "{e}"
        );
        for (name, found) in [
            ("a.hva", Format::Hva),
            ("A.LIB", Format::Lib),
            ("x.ascr", Format::Ascr),
        ] {
            let e = load_palette(p(name), &[5u8; 768]).unwrap_err();
            assert_eq!(refused_as(&e), Some(Some(found)), "{e}");
        }
    }

    #[test]
    fn longer_files_are_read_by_their_first_768_bytes() {
        // Doom's PLAYPAL: 14 palettes of 768 bytes.
        let mut playpal = Palette::quake().to_rgb_bytes();
        playpal.resize(14 * 768, 200);
        let f = PaletteFile::read(p("PLAYPAL.lmp"), &playpal).unwrap();
        assert_eq!(f.palette, Palette::quake());
        assert_eq!(
            f.source,
            PaletteSource::Vga {
                six_bit: false,
                ignored: 13 * 768
            }
        );
        // An Adobe .act with its 4-byte count trailer.
        let mut act = six_bit_rgb();
        act.extend([1, 0, 0, 0]);
        assert_eq!(
            load_palette(p("x.act"), &act).unwrap(),
            Palette::from_rgb_bytes(&six_bit_rgb()).unwrap()
        );
    }

    #[test]
    fn short_files_are_not_palettes() {
        for (name, len, found) in [
            ("x.pal", 767, Some(Format::Palette)),
            ("x.bin", 0, None),
            ("x", 100, None),
        ] {
            let e = load_palette(p(name), &vec![1u8; len]).unwrap_err();
            let PaletteError::NotAPalette {
                path,
                len: l,
                found: f,
            } = &e
            else {
                panic!("{e}")
            };
            assert_eq!((path.as_path(), *l, *f), (p(name), len, None), "{found:?}");
            assert!(e.to_string().contains("tried a PCX"), "{e}");
        }
    }

    #[test]
    fn open_palette_reads_the_file_or_says_why_not() {
        let dir = std::env::temp_dir().join(format!("modex-assets-pal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("q.pal");
        std::fs::write(&path, Palette::quake().to_rgb_bytes()).unwrap();
        assert_eq!(open_palette(&path).unwrap(), Palette::quake());
        let opened = OpenedFile::open(&path).unwrap();
        assert_eq!(
            PaletteFile::from_opened(&opened).unwrap().palette,
            Palette::quake()
        );
        let e = open_palette(&dir.join("missing.pal")).unwrap_err();
        assert!(matches!(e, PaletteError::Read(_)));
        assert!(e.to_string().contains("missing.pal"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
