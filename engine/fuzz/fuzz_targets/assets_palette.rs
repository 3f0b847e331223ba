//! Detect arbitrary bytes under a few names and read them as a palette: nothing may panic, and the
//! loader never reads a file that detection gives to a non-palette format.
#![no_main]
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use modex_assets::{detect, Family, Format, PaletteError, PaletteFile};

const NAMES: [&str; 7] = [
    "x.bin",
    "x.pal",
    "x.PCX",
    "voxels.vpl",
    "x.hva",
    "APAL000.LIB",
    "APAL000",
];

fuzz_target!(|data: &[u8]| {
    for name in NAMES {
        let path = Path::new(name);
        let format = detect(path, data);
        let read = PaletteFile::read(path, data);
        match (format, &read) {
            // A file detected as another format (not a container the loader opens) is refused.
            (Some(f), Ok(_))
                if f.family() != Family::Palette && f != Format::Vpl && f != Format::Tpwm =>
            {
                panic!("{name}: detected as {f} and read as a palette")
            }
            (_, Err(PaletteError::NotAPalette { len, .. })) if format != Some(Format::Tpwm) => {
                assert_eq!(*len, data.len())
            }
            _ => {}
        }
        if let Ok(f) = read {
            if let Some(v) = &f.vpl {
                assert_eq!(v.palette, f.palette);
            }
        }
    }
});
