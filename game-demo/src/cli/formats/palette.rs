//! CLI for palette files (PCX trailers, VGA `.pal`, APAL): `info`, and the hint the drawing commands
//! give for them. They are read by the one palette rule of `modex_assets` (the same that reads every
//! `--palette`), and `info` says which branch of the rule took the file, so a user sees how
//! `--palette` will read it.

use anyhow::Result;
use modex_assets::{Asset, PaletteSource};
use serde_json::json;

use super::Description;

/// A file passed where a palette belongs is described, not shown.
pub fn not_drawable(asset: &Asset) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: a palette file ({}); give it as --palette to the file it colours",
        asset.path().display(),
        asset.format()
    )
}

pub fn describe(asset: &Asset) -> Result<Description> {
    let file = asset.palette()?;
    let p = &file.palette;
    let how = match file.source {
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
        if file.tpwm { ", TPWM-wrapped" } else { "" },
        &p.colors[..4],
        p.colors[254],
        p.colors[255]
    );
    let json = json!({
        "format": asset.format().name(),
        "palette_colors": 256,
        "tpwm": file.tpwm,
    });
    Ok(Description { json, text })
}
