//! `modex export INPUT`: skins and OBJ frames of models, pictures, GIFs and sound of cutscenes,
//! written by the input's format family.

use anyhow::{bail, Result};
use modex_assets::{Asset, Family};

use super::formats::{cutscene, model, palette, wmb_export};
use super::ExportArgs;

pub fn run(args: &ExportArgs) -> Result<()> {
    if args.input.is_dir() {
        return cutscene::export(args, None);
    }
    let asset = Asset::open(&args.input)?;
    if asset.format() == modex_assets::Format::Wmb {
        return wmb_export::export(args, &asset);
    }
    match asset.format().family() {
        Family::Model => model::export(args, &asset),
        Family::Voxel => bail!("voxel files have nothing to export yet; use `modex render`"),
        Family::Cutscene => cutscene::export(args, Some(&asset)),
        Family::Palette => Err(palette::not_drawable(&asset)),
    }
}
