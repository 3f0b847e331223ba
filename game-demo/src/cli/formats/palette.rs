//! CLI for palette files (PCX trailers, VGA `.pal`, APAL): the hint the drawing commands give for
//! them (`info`, which says which branch of the palette rule took the file, is
//! `modex_view::info`'s).

use modex_assets::Asset;

/// A file passed where a palette belongs is described, not shown.
pub fn not_drawable(asset: &Asset) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: a palette file ({}); give it as --palette to the file it colours",
        asset.path().display(),
        asset.format()
    )
}
