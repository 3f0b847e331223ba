//! `modex` / `modex demo`: the voxel-unit battlefield in a window, headless, served or joined over
//! UDP, as a soak test or as a benchmark.
//!
//! The scene itself is the `modex_demo::scene` library (`src/scene/`, beside `lib.rs`), which the
//! asset generator and the golden tests share; this module only chooses the run the flags ask
//! for. Every run that shows frames (the window, `--headless`, `--serve`, `--connect`) is the one
//! loop of [`game_loop`], paced by [`pacer`]; the networked runs plug their datagrams into it
//! (`net/`). `--soak` and `--bench` draw without presenting, to measure the drawing alone.

mod bench;
mod game_loop;
mod headless;
mod intro;
mod lod_error;
mod net;
mod pacer;
mod plugins;
mod soak;
mod window;

use anyhow::Result;
use modex_demo::scene::assets::{data_dir, Assets};
use modex_demo::scene::world::DEFAULT_UNITS;
use modex_demo::scene::World;

use crate::cli::DemoArgs;
use plugins::Plugins;

fn new_world(assets: &Assets) -> World {
    World::demo(assets, DEFAULT_UNITS)
}

pub fn run(args: &DemoArgs) -> Result<()> {
    let assets = Assets::load(&data_dir())?;
    if let Some(addr) = args.serve {
        let plugins = Plugins::from_args(args, &data_dir())?;
        let world = World::demo(&assets, args.units);
        return net::server::serve(addr, args, &assets, world, plugins);
    }
    if let Some(addr) = args.connect {
        let plugins = Plugins::from_args(args, &data_dir())?;
        return net::client::connect(addr, args, &assets, new_world(&assets), plugins);
    }
    if let Some(secs) = args.soak {
        return soak::run(&assets, new_world(&assets), secs);
    }
    if args.bench {
        return bench::run(&assets, args, |units| World::demo(&assets, units));
    }
    let plugins = Plugins::from_args(args, &data_dir())?;
    if args.headless {
        return headless::run(&assets, args, new_world(&assets), plugins);
    }
    window::run(&assets, args, new_world(&assets), plugins)
}
