//! Write the project's own GTA Stories `.mdl` models (see `modex_testkit::stories`)
//! into a folder: `cargo run -p modex-testkit --example make_stories_samples DIR`.
//!
//! Nobody may publish the game's files, so these are what `modex info/export/render/view` are tried
//! on and what the fuzz corpus starts from.

use std::path::PathBuf;

use modex_mdl::stories_mdl_encode::{encode, encode_with, EncodeOptions};
use modex_testkit::stories as samples;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "stories".into()));
    std::fs::create_dir_all(&dir)?;
    let manhunt = EncodeOptions {
        extra_items: true,
        ..EncodeOptions::default()
    };
    let files = [
        ("cube.mdl", encode(&samples::cube())?),
        ("long_band.mdl", encode(&samples::long_band())?),
        ("two_atomics.mdl", encode(&samples::two_atomics())?),
        ("terrain.mdl", encode(&samples::terrain(60))?),
        (
            "cube_extra_vif.mdl",
            encode_with(&samples::cube(), manhunt)?,
        ),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, &bytes)?;
        println!("{} ({} bytes)", path.display(), bytes.len());
    }
    Ok(())
}
