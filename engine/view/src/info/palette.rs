//! Palette files (PCX trailers, VGA `.pal`, APAL). They are read by the one palette rule of
//! `modex_assets` (the same that reads every `--palette`), and `info` says which branch of the
//! rule took the file, so a user sees how `--palette` will read it.

use std::path::Path;

use modex_assets::{PaletteError, PaletteFile, PaletteSource};
use serde_json::json;

use super::{Description, Subject};

/// `modex info` for a palette file.
pub fn describe(file: &Subject) -> Result<Description, PaletteError> {
    let read = PaletteFile::read(Path::new(file.name), file.bytes)?;
    let p = &read.palette;
    let how = match read.source {
        PaletteSource::Pcx => "PCX with a 256-colour palette".to_string(),
        PaletteSource::Vpl => "VPL lighting pages with their palette".to_string(),
        PaletteSource::Vga { six_bit, ignored } => format!(
            "VGA palette, {}-bit{}",
            if six_bit { 6 } else { 8 },
            if ignored > 0 {
                format!(" ({ignored} bytes after the 768 ignored)")
            } else {
                String::new()
            }
        ),
    };
    let text = format!(
        "{how}{} (usable as --palette)\nentries 0..3: {:?}\nentries 254, 255: {:?} {:?}",
        if read.tpwm { ", TPWM-wrapped" } else { "" },
        &p.colors[..4],
        p.colors[254],
        p.colors[255]
    );
    let json = json!({
        "format": file.format.name(),
        "palette_colors": 256,
        "tpwm": read.tpwm,
    });
    Ok(Description { json, text })
}
