//! What the file-walking tests share.

use std::path::{Path, PathBuf};

use modex_assets::Format;

/// Every file under `dir`, sorted.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    modex_testkit::files_below(dir)
}

/// What a file of the project's data or the samples must be detected as, by its extension; `None`
/// for files no loader reads (external skins as TGA/BMP, licence texts), which must stay unknown.
pub fn expected(path: &Path) -> Option<Format> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "mdl" => Format::Mdl,
        "hmp" => Format::Hmp,
        "vxl" => Format::Vxl,
        "hva" => Format::Hva,
        "vpl" => Format::Vpl,
        "pcx" => Format::Pcx,
        "bbhd" => Format::Bbhd,
        "lib" => Format::Lib,
        "ascr" => Format::Ascr,
        "pal" => Format::Palette,
        _ => return None,
    })
}
