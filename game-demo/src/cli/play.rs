//! `modex play PATH`: a Battle Isle 2 install, a scene script or a clip in the player window.

use anyhow::{bail, Result};
use modex::Palette;
use modex_assets::Asset;
use modex_cutscene::{Input, Scene};

use super::formats::cutscene::player::{self, PlayerOptions};
use super::formats::cutscene::{clip_of, detect, scene_from_dir, scene_from_script_file, CLIP_FPS};
use super::PlayArgs;

pub fn run(args: &PlayArgs) -> Result<()> {
    let path = &args.path;
    let scene = if path.is_dir() {
        scene_from_dir(path, args.script)?
    } else {
        let asset = Asset::open(path)?;
        match detect(path, Some(&asset))? {
            Input::Script => scene_from_script_file(asset.file())?,
            input @ (Input::Clip | Input::Packed) => Scene::from_clip(
                clip_of(path, input, asset.bytes(), None)?,
                Palette::grey_ramp(),
                CLIP_FPS,
                1000,
            ),
            other => bail!(
                "{}: cannot play a {other}; give a game folder, a script or a clip",
                path.display()
            ),
        }
    };
    let opts = PlayerOptions {
        title: format!("modex - {}", path.display()),
        scale: args.scale,
        aspect_4_3: args.aspect,
        speed: args.speed,
    };
    player::run(&scene, &opts)
}
