//! WMB7 levels in the commands: a level opened from disk, its entity files searched in the
//! game's folders as GameStudio did (`wmb_files.rs`). What a level is and how it is drawn is
//! `modex_view::level`'s (the web page shares it); rendering and walking are in `wmb_render.rs`,
//! exports in `wmb_export.rs` (`info` is `modex_view::info`'s, given that search).

use std::path::{Path, PathBuf};

use anyhow::Result;
use modex::Palette;
use modex_view::level::Level;

use super::wmb_files::GameFiles;

/// Open the level at `path` (its `bytes` read): decode it, bake its blocks, find (in the level's
/// folder, the scripts' PATHs, `paths`, below the game's root), decode and place its entities'
/// files.
pub fn load_level(
    path: &Path,
    bytes: &[u8],
    paths: &[PathBuf],
    palette: &Palette,
) -> Result<Level> {
    let files = GameFiles::new(path, paths);
    Ok(Level::load(
        &path.display().to_string(),
        bytes,
        &files,
        palette,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bestiary has no blocks, no POSITION and no PATH: the default camera frames its bounds, the
    /// posed boxes of its 44 entities. Its floor is at z = 0 (the deepest model reaches 100 below,
    /// the rooms 450 above); boxes of `origin ± radius` reached from 710 below to 714 above.
    #[test]
    fn bestiary_bounds_are_its_posed_entity_boxes() {
        let Some(dir) = modex_testkit::samples_dir("wmb") else {
            return;
        };
        let path = dir.join("lottershock/Game/Level/bestiary.wmb");
        let bytes = std::fs::read(&path).unwrap();
        let level = load_level(&path, &bytes, &[], &Palette::quake()).unwrap();
        assert!(level.start().is_none());
        assert_eq!(level.found, 44);
        let (lo, hi) = level.bounds();
        assert!(lo.z > -150.0 && hi.z < 600.0, "{lo} {hi}");
        // The row of cages along -y and, 8 300 units east, room_quarters_01 (its origin at
        // x = 9 500, turned by 180 degrees, so it reaches west of it): genuine content, which the
        // bounds keep.
        assert!(lo.y < -5000.0 && hi.y > 300.0, "{lo} {hi}");
        assert!(lo.x < 0.0 && hi.x > 9000.0 && hi.x < 10000.0, "{lo} {hi}");
    }
}
