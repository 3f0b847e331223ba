//! The two networked demos: `modex demo --serve ADDR` runs the battlefield and sends its units to
//! every client over UDP ([`server`]); `modex demo --connect ADDR` draws the units where the server
//! says, extrapolating between updates ([`client`]). Both are the demo's game loop at the
//! simulation's 60 Hz step against the wall clock, with their datagrams as its network step, in a
//! window or headless (`--headless --frames N --out DIR`), and print one traffic line on exit.
//!
//! The conversation, in A5 messages (the protocol is the `modex-net` crate's): the client sends
//! `cls_join` (again every quarter second until the server answers); the server answers with
//! `svc_info`, one `svc_create` per unit, and from then on every frame one or more datagrams each
//! starting with `svc_info` (the server time that stamps the updates) followed by that client's
//! delta updates. The client sends `cls_ping` after each of its frames; a client not heard from for
//! [`server::CLIENT_TIMEOUT`] is dropped. On exit the server sends `svc_leave` and the client
//! `cls_leave`; a client that hears nothing for [`client::SERVER_TIMEOUT`] says the server is gone
//! and keeps drawing what it last knew until its frames are done.

pub mod client;
mod log;
pub mod server;
mod udp;
mod units;
mod usage;

use anyhow::{Context, Result};
use modex::present::{HeadlessPresenter, Present};
use modex_demo::scene::{Assets, World};
use modex_desktop::WindowPresenter;
use modex_net::MAX_DATAGRAM;

use super::game_loop::{GameLoop, NetStep, HEIGHT, WIDTH};
use super::pacer::Pacing;
use super::plugins::Plugins;
use crate::cli::DemoArgs;

/// Run a networked demo: `world` in the game loop at the fixed 60 Hz, its frames in a window
/// titled `title` or in PNGs, the plugins allowed to send user packets, and the step `make_step`
/// builds (once the window is open, so its clocks start with the frames) as the loop's network
/// step. Returns the loop and the step, for the run's closing lines.
fn session<'a, S: NetStep>(
    args: &DemoArgs,
    assets: &'a Assets,
    world: World,
    mut plugins: Option<Plugins>,
    title: &str,
    make_step: impl FnOnce() -> S,
) -> Result<(GameLoop<'a>, S)> {
    let mut screen = presenter(args, title)?;
    if let Some(p) = &mut plugins {
        p.open_network(MAX_DATAGRAM);
    }
    let mut game = GameLoop::new(assets, world, args.path.into(), plugins);
    let mut step = make_step();
    let frames = args.headless.then_some(args.frames);
    game.run(Pacing::FixedRate, frames, &mut screen, &mut step)?;
    Ok((game, step))
}

/// Where a networked run's frames go: PNGs with `--headless`, else a window without keys (ESC or
/// closing it ends the run).
fn presenter(args: &DemoArgs, title: &str) -> Result<Box<dyn Present>> {
    Ok(if args.headless {
        Box::new(HeadlessPresenter::new(&args.out)?)
    } else {
        let w = WindowPresenter::open(title, WIDTH, HEIGHT, args.scale, args.aspect)
            .context("cannot open a window (use --headless on a machine without a display)")?;
        Box::new(w)
    })
}

/// A user message's payload as the SDK's `ReceivePacket` sees it: with its leading 17.
fn user_packet(payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(payload.len() + 1);
    bytes.push(modex_plugin::USER_PACKET);
    bytes.extend_from_slice(payload);
    bytes
}
