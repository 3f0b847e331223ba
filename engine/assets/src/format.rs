//! Which format a file is: [`Format`], its [`Family`] and [`detect`].
//!
//! # The detection rule
//!
//! [`detect`] looks at the evidence from strongest to weakest and stops at the first answer:
//!
//! 1. **Magic**, through each format crate's own `sniff`, so no magic is typed twice:
//!    [`mdl::sniff`](modex_mdl::mdl::sniff) (`IDPO`, `MDL?`), [`hmp::sniff`](modex_mdl::hmp::sniff)
//!    (`HMP?`), [`wmb::sniff`](modex_mdl::wmb::sniff) (`WMB7`), [`stories_mdl::sniff`](modex_mdl::stories_mdl::sniff) (`ldm\0`),
//!    [`vxl::sniff`](modex_vxl::vxl::sniff) (`Voxel Animation\0`),
//!    [`bbhd::sniff`](modex_cutscene::bbhd::sniff), [`tpwm::sniff`](modex_cutscene::tpwm::sniff),
//!    [`voc::sniff`](modex_cutscene::voc::sniff). The magics are disjoint, so their order does not
//!    matter. A TPWM-wrapped file is a [`Format::Tpwm`] whatever it holds: detection never unpacks.
//! 2. **The extension** of formats that have no magic: `.hva` → HVA, `.vpl` → VPL, `.lib` → LIB,
//!    `.ascr`/`.scr` → ASCR script, and `.pcx` when the first byte is PCX's manufacturer byte 0x0A.
//!    Case does not matter (`HMEC.HVA`).
//! 3. **The layout**, for files whose name says nothing: a PCX with its 256-colour trailer
//!    ([`modex::palette::has_pcx_palette`]: first byte 0x0A, at least 128 + 769 bytes, 0x0C 769
//!    bytes from the end) → PCX; a VPL ([`vpl::has_layout`]: the page count at offset 8 makes the
//!    length exactly 16 + 768 + 256 × count) → VPL.
//! 4. **A palette**: the extension `.pal` or `.act`, or exactly 768 bytes → [`Format::Palette`]. This
//!    is the weakest evidence, so it comes last: a `.pal` that is really a PCX or a VPL is one.
//!
//! Anything else is `None`. Steps 1 and 2 are exactly what the `modex` CLI did before this crate;
//! steps 3 and 4 only give an answer where it gave none.
//!
//! The palette loader ([`crate::palette`]) starts from this answer, so a file is never detected as
//! one thing and read as another.

use std::fmt;
use std::path::Path;

use modex::palette::{has_pcx_palette, PCX_MANUFACTURER, VGA_PALETTE_LEN};
use modex_vxl::vpl;

/// A file format the engine reads.
///
/// Frontends dispatch on it; [`Format::name`] is the `"format"` key of `modex info --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// 3D GameStudio / Quake model (`IDPO`, `MDL2`..`MDL7`).
    Mdl,
    /// 3D GameStudio terrain (`HMP4`, `HMP5`, `HMP7`).
    Hmp,
    /// GTA Liberty City / Vice City Stories PS2 model (ident `ldm\0`).
    StoriesMdl,
    /// 3D GameStudio level (`WMB7`): blocks, textures, lightmaps and placed entities.
    Wmb,
    /// Westwood voxel model.
    Vxl,
    /// Westwood voxel motion (no magic: by extension).
    Hva,
    /// Westwood voxel palette and lighting pages (no magic: by extension or layout).
    Vpl,
    /// Battle Isle 2 cutscene clip.
    Bbhd,
    /// Blue Byte LIB archive (no magic: by extension).
    Lib,
    /// Blue Byte TPWM-compressed file (any content).
    Tpwm,
    /// Creative Voice sound.
    Voc,
    /// Battle Isle 2 scene script (no magic: by extension).
    Ascr,
    /// ZSoft PCX image; the engine reads its 256-colour palette trailer.
    Pcx,
    /// A raw VGA palette: 768 bytes of RGB, 6- or 8-bit (`.pal`, `.act`, Quake's `palette.lmp`,
    /// Battle Isle 2's APAL entries).
    Palette,
}

/// Which part of a frontend handles a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Polygon models, terrain and levels (MDL, HMP, WMB), drawn by the rasterizer.
    Model,
    /// Voxel models, their motion and lighting (VXL, HVA, VPL), drawn by the ray-marcher.
    Voxel,
    /// Battle Isle 2 cutscene files (BBHD, LIB, TPWM, VOC, ASCR), played by the sequencer.
    Cutscene,
    /// Files that are read for their palette only (PCX, raw palettes).
    Palette,
}

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; 14] = [
        Format::Mdl,
        Format::Hmp,
        Format::StoriesMdl,
        Format::Vxl,
        Format::Hva,
        Format::Vpl,
        Format::Bbhd,
        Format::Lib,
        Format::Tpwm,
        Format::Voc,
        Format::Ascr,
        Format::Pcx,
        Format::Palette,
        Format::Wmb,
    ];

    /// The family whose code handles this format.
    pub fn family(self) -> Family {
        match self {
            Format::Mdl | Format::Hmp | Format::StoriesMdl | Format::Wmb => Family::Model,
            Format::Vxl | Format::Hva | Format::Vpl => Family::Voxel,
            Format::Bbhd | Format::Lib | Format::Tpwm | Format::Voc | Format::Ascr => {
                Family::Cutscene
            }
            Format::Pcx | Format::Palette => Family::Palette,
        }
    }

    /// The lower-case name `modex info --json` prints as `"format"`. Users script against these
    /// strings: never change one.
    pub fn name(self) -> &'static str {
        match self {
            Format::Mdl => "mdl",
            Format::Hmp => "hmp",
            Format::StoriesMdl => "gta-stories-mdl",
            Format::Vxl => "vxl",
            Format::Hva => "hva",
            Format::Vpl => "vpl",
            Format::Bbhd => "bbhd",
            Format::Lib => "lib",
            Format::Tpwm => "tpwm",
            Format::Voc => "voc",
            Format::Ascr => "ascr",
            Format::Pcx => "pcx",
            Format::Palette => "palette",
            Format::Wmb => "wmb7",
        }
    }
}

impl fmt::Display for Format {
    /// The [`Format::name`], so messages read like `modex info --json`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The format of a file called `name` (only its extension is used) holding `bytes`, by the rule in
/// the module docs; `None` when no rule applies.
pub fn detect(name: &Path, bytes: &[u8]) -> Option<Format> {
    if let Some(f) = detect_magic(bytes) {
        return Some(f);
    }
    let ext = name
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("hva") => return Some(Format::Hva),
        Some("vpl") => return Some(Format::Vpl),
        Some("lib") => return Some(Format::Lib),
        Some("pcx") if bytes.first() == Some(&PCX_MANUFACTURER) => return Some(Format::Pcx),
        Some("ascr") | Some("scr") => return Some(Format::Ascr),
        _ => {}
    }
    if has_pcx_palette(bytes) {
        return Some(Format::Pcx);
    }
    if vpl::has_layout(bytes) {
        return Some(Format::Vpl);
    }
    if matches!(ext.as_deref(), Some("pal") | Some("act")) || bytes.len() == VGA_PALETTE_LEN {
        return Some(Format::Palette);
    }
    None
}

/// A format crate's magic test.
type Sniff = fn(&[u8]) -> bool;

/// Each format with a magic and the test its crate offers, built from the crate's own `MAGIC`.
const SNIFFERS: [(Sniff, Format); 8] = [
    (modex_mdl::mdl::sniff, Format::Mdl),
    (modex_mdl::hmp::sniff, Format::Hmp),
    (modex_mdl::wmb::sniff, Format::Wmb),
    (modex_mdl::stories_mdl::sniff, Format::StoriesMdl),
    (modex_vxl::vxl::sniff, Format::Vxl),
    (modex_cutscene::bbhd::sniff, Format::Bbhd),
    (modex_cutscene::tpwm::sniff, Format::Tpwm),
    (modex_cutscene::voc::sniff, Format::Voc),
];

/// Step 1 of [`detect`] alone: the format whose magic `bytes` start with, asking each format crate's
/// `sniff`. For callers that have no name (archive entries, network buffers).
pub fn detect_magic(bytes: &[u8]) -> Option<Format> {
    SNIFFERS
        .into_iter()
        .find(|(sniff, _)| sniff(bytes))
        .map(|(_, f)| f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Today's test from `game-demo/src/formats/mod.rs`, unchanged but for the family of PCX.
    #[test]
    fn detects_by_magic_then_extension() {
        let p = Path::new("x.bin");
        assert_eq!(detect(p, b"MDL5...."), Some(Format::Mdl));
        assert_eq!(detect(p, b"HMP7"), Some(Format::Hmp));
        assert_eq!(
            detect(p, &[0x6c, 0x64, 0x6d, 0x00, 1, 0, 0, 0]),
            Some(Format::StoriesMdl)
        );
        assert_eq!(Format::StoriesMdl.name(), "gta-stories-mdl");
        assert_eq!(Format::StoriesMdl.family(), Family::Model);
        assert_eq!(detect(p, b"Voxel Animation\0xx"), Some(Format::Vxl));
        assert_eq!(detect(p, b"BBHD"), Some(Format::Bbhd));
        assert_eq!(detect(p, b"TPWM\0\0\0\0"), Some(Format::Tpwm));
        assert_eq!(detect(Path::new("a.HVA"), b"junk"), Some(Format::Hva));
        assert_eq!(detect(Path::new("voxels.vpl"), b""), Some(Format::Vpl));
        assert_eq!(
            detect(Path::new("PART000.LIB"), b"\x10\0\0\0"),
            Some(Format::Lib)
        );
        assert_eq!(detect(p, b"nothing"), None);
        assert_eq!(Format::Hva.family(), Family::Voxel);
    }

    #[test]
    fn magic_wins_over_extension() {
        assert_eq!(detect(Path::new("a.hva"), b"IDPO\0\0"), Some(Format::Mdl));
        assert_eq!(
            detect(Path::new("a.pal"), b"TPWM\0\0\0\0"),
            Some(Format::Tpwm)
        );
        assert_eq!(
            detect(Path::new("a.lib"), b"Creative Voice File\x1a.."),
            Some(Format::Voc)
        );
        // MDL needs four bytes, as before.
        assert_eq!(detect(Path::new("a.bin"), b"MDL"), None);
        assert_eq!(detect_magic(b"HMP4"), Some(Format::Hmp));
        let mut wmb = b"WMB7".to_vec();
        wmb.resize(modex_mdl::wmb::HEADER_SIZE, 0);
        assert_eq!(detect_magic(&wmb), Some(Format::Wmb));
        assert_eq!(Format::Wmb.family(), Family::Model);
        assert_eq!(detect_magic(b""), None);
    }

    #[test]
    fn extensions_of_formats_without_magic() {
        assert_eq!(
            detect(Path::new("ASCR001.ascr"), b"rem"),
            Some(Format::Ascr)
        );
        assert_eq!(detect(Path::new("x.SCR"), b""), Some(Format::Ascr));
        // A .pcx needs its manufacturer byte; without it the name is no evidence.
        assert_eq!(detect(Path::new("x.pcx"), b"\x0a\x05"), Some(Format::Pcx));
        assert_eq!(detect(Path::new("x.pcx"), b"GIF89a"), None);
        // An extension of a format without magic beats the layout steps.
        assert_eq!(detect(Path::new("x.hva"), &[0u8; 768]), Some(Format::Hva));
    }

    fn pcx_with_palette(name_len: usize) -> Vec<u8> {
        let mut d = vec![0u8; 128 + name_len];
        d[0] = 0x0a;
        d.push(0x0c);
        d.extend([7u8; 768]);
        d
    }

    fn vpl(pages: usize) -> Vec<u8> {
        let mut d = Vec::new();
        for v in [16u32, 31, pages as u32, 0] {
            d.extend(v.to_le_bytes());
        }
        d.resize(vpl::FIXED_LEN + 256 * pages, 1);
        d
    }

    #[test]
    fn layout_for_files_whose_name_says_nothing() {
        let pcx = pcx_with_palette(10);
        assert_eq!(detect(Path::new("image.dat"), &pcx), Some(Format::Pcx));
        assert_eq!(detect(Path::new("image.pal"), &pcx), Some(Format::Pcx));
        // The trailer marker must be there.
        let mut broken = pcx.clone();
        let at = broken.len() - 769;
        broken[at] = 0;
        assert_eq!(detect(Path::new("image.dat"), &broken), None);
        // Exactly the PCX minimum: header and trailer, no pixels.
        assert_eq!(
            detect(Path::new("x"), &pcx_with_palette(0)),
            Some(Format::Pcx)
        );

        assert_eq!(detect(Path::new("game.pal"), &vpl(32)), Some(Format::Vpl));
        assert_eq!(detect(Path::new("noname"), &vpl(1)), Some(Format::Vpl));
        let mut off = vpl(2);
        off.push(0);
        assert_eq!(detect(Path::new("noname"), &off), None);
        let mut zero = vpl(1);
        zero[8] = 0;
        assert!(!vpl::has_layout(&zero));
        assert!(!vpl::has_layout(&[0; 11]));
    }

    #[test]
    fn palettes_by_extension_or_size() {
        assert_eq!(
            detect(Path::new("day.PAL"), &[1; 10]),
            Some(Format::Palette)
        );
        assert_eq!(detect(Path::new("x.act"), &[1; 772]), Some(Format::Palette));
        assert_eq!(
            detect(Path::new("palette.lmp"), &[1; 768]),
            Some(Format::Palette)
        );
        assert_eq!(
            detect(Path::new("APAL000.003"), &[1; 768]),
            Some(Format::Palette)
        );
        assert_eq!(detect(Path::new("x.lmp"), &[1; 769]), None);
        // A 768-byte .pcx that does not start like a PCX is a palette by its size.
        assert_eq!(detect(Path::new("x.pcx"), &[1; 768]), Some(Format::Palette));
    }

    #[test]
    fn names_and_families() {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        assert_eq!(
            names,
            [
                "mdl",
                "hmp",
                "gta-stories-mdl",
                "vxl",
                "hva",
                "vpl",
                "bbhd",
                "lib",
                "tpwm",
                "voc",
                "ascr",
                "pcx",
                "palette",
                "wmb7"
            ]
        );
        assert_eq!(Format::Pcx.to_string(), "pcx");
        assert_eq!(Format::Mdl.family(), Family::Model);
        assert_eq!(Format::Hmp.family(), Family::Model);
        assert_eq!(Format::Vpl.family(), Family::Voxel);
        assert_eq!(Format::Tpwm.family(), Family::Cutscene);
        assert_eq!(Format::Pcx.family(), Family::Palette);
        assert_eq!(Format::Palette.family(), Family::Palette);
    }
}
