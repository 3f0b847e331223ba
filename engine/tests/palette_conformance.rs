//! The real `palette.pcx` shipped with the libgamestudio samples (a 3D GameStudio level palette).

use modex::Palette;
use modex_testkit::samples_dir;

#[test]
fn gamestudio_pcx_palette_loads() {
    let Some(dir) = samples_dir("mdl") else {
        return;
    };
    let bytes = std::fs::read(dir.join("libgamestudio/palette.pcx")).unwrap();
    let pal = Palette::from_pcx(&bytes).unwrap();
    // The GameStudio palette is Quake 1's except entries 254 and 255, which is why Quake's is the
    // default for 8-bit skins without a palette.
    let quake = Palette::quake();
    let differing: Vec<usize> = (0..256)
        .filter(|&i| pal.colors[i] != quake.colors[i])
        .collect();
    assert!(
        differing.iter().all(|&i| i >= 254),
        "entries differing from Quake's: {differing:?}"
    );
    // Cutting the trailer makes it an error, not a panic.
    assert!(Palette::from_pcx(&bytes[..bytes.len() - 1]).is_err());
}
