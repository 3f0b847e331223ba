//! The two networked demos: `modex demo --serve ADDR` runs the battlefield and sends its units to
//! every client over UDP; `modex demo --connect ADDR` draws the units where the server says,
//! extrapolating between updates. Both run at the simulation's 60 Hz step against the wall clock,
//! in a window or headless (`--headless --frames N --out DIR`), and print one traffic line on exit.
//!
//! The conversation, in A5 messages: the client sends `cls_join` (again every quarter second until
//! the server answers); the server answers with `svc_info`, one `svc_create` per unit, and from then on
//! every frame one or more datagrams each starting with `svc_info` (the server time that stamps the
//! updates) followed by that client's delta updates. The client sends `cls_ping` after each of its
//! frames; a client not heard from for [`CLIENT_TIMEOUT`] is dropped. On exit the server sends
//! `svc_leave` and the client `cls_leave`; a client that hears nothing for [`SERVER_TIMEOUT`] says the
//! server is gone and keeps drawing what it last knew until its frames are done.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::net::{SocketAddr, UdpSocket};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex::present::{HeadlessPresenter, Present};
use modex_demo::scene::world::STEP;
use modex_demo::scene::{Assets, SceneRenderer, World};
use modex_desktop::WindowPresenter;
use modex_net::{
    decode_client, decode_server, encode_client, packetize, ClientMessage, ClientState,
    DecodeOptions, DeltaEncoder, NetString, ServerMessage, INFO_MAGIC, MAX_DATAGRAM,
};
use serde_json::json;

use super::units::{entity_of, unit_of};
use crate::cli::DemoArgs;
use crate::demo::plugins::Plugins;
use crate::demo::{draw_frame, present_frame};

/// A client silent for this long is dropped by the server.
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(2);
/// A server silent for this long is reported gone by the client.
pub const SERVER_TIMEOUT: Duration = Duration::from_secs(2);
/// Protocol version in `svc_info`.
const PROTOCOL: u8 = 1;
/// Each entity is refreshed in full once a second, so what a lost datagram carried is resent.
const REFRESH_FRAMES: u64 = 60;
/// The most lateness the frame pacer makes up by running faster.
const MAX_CATCH_UP: Duration = Duration::from_millis(100);
/// How often an unanswered client repeats `cls_join` (frames).
const JOIN_RETRY_FRAMES: u64 = 15;

/// Counts datagrams and bytes from the first one on.
struct Traffic {
    datagrams: u64,
    bytes: u64,
    start: Instant,
}

impl Traffic {
    fn new() -> Self {
        Traffic {
            datagrams: 0,
            bytes: 0,
            start: Instant::now(),
        }
    }

    fn count(&mut self, len: usize) {
        self.datagrams += 1;
        self.bytes += len as u64;
    }

    /// `net: VERB N datagrams, M bytes, B bytes/s, E entities`
    fn line(&self, verb: &str, entities: usize) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        format!(
            "net: {verb} {} datagrams, {} bytes, {:.0} bytes/s, {entities} entities",
            self.datagrams,
            self.bytes,
            self.bytes as f64 / secs
        )
    }
}

/// Frames at the fixed step against the wall clock.
struct Pacer {
    start: Instant,
    frames: u32,
}

impl Pacer {
    fn new() -> Self {
        Pacer {
            start: Instant::now(),
            frames: 0,
        }
    }

    /// Sleep until the next frame is due. A little lateness is caught up (so the simulation keeps
    /// wall-clock time); a stall of more than [`MAX_CATCH_UP`] is forgiven instead, so the peers do
    /// not get a burst of frames at once.
    fn wait(&mut self) {
        self.frames += 1;
        let step = Duration::from_secs_f64(STEP as f64);
        let due = self.start + step * self.frames;
        let now = Instant::now();
        if due > now {
            std::thread::sleep(due - now);
        } else if now - due > MAX_CATCH_UP {
            self.start = now - step * self.frames;
        }
    }
}

fn presenter(args: &DemoArgs, title: &str) -> Result<Box<dyn Present>> {
    Ok(if args.headless {
        Box::new(HeadlessPresenter::new(&args.out)?)
    } else {
        let w = WindowPresenter::open(
            title,
            modex::frame::DEFAULT_WIDTH,
            modex::frame::DEFAULT_HEIGHT,
            args.scale,
            args.aspect,
        )
        .context("cannot open a window (use --headless on a machine without a display)")?;
        Box::new(w)
    })
}

/// Every datagram waiting on `socket`, with its sender.
fn drain(socket: &UdpSocket, buf: &mut [u8]) -> Result<Vec<(Vec<u8>, SocketAddr)>> {
    let mut out = Vec::new();
    loop {
        match socket.recv_from(buf) {
            Ok((n, from)) => out.push((buf[..n].to_vec(), from)),
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(out),
            // A previous datagram bounced off a closed port (ICMP): not this read's concern.
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::ConnectionRefused | ErrorKind::ConnectionReset
                ) => {}
            Err(e) => return Err(e).context("UDP receive"),
        }
    }
}

/// Send, tolerating the errors UDP gives when the other side is not (yet, or any more) there.
fn send(socket: &UdpSocket, bytes: &[u8], to: SocketAddr, traffic: &mut Traffic) -> Result<()> {
    match socket.send_to(bytes, to) {
        Ok(_) => {
            traffic.count(bytes.len());
            Ok(())
        }
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::ConnectionRefused | ErrorKind::ConnectionReset | ErrorKind::WouldBlock
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(e).with_context(|| format!("UDP send to {to}")),
    }
}

/// A client as the server sees it.
struct Peer {
    dpid: i32,
    name: String,
    encoder: DeltaEncoder,
    heard: Instant,
    /// `svc_create` per unit still to be sent.
    welcome: bool,
}

/// `modex demo --serve ADDR`.
///
/// Plugins (`--plugin`, `--each-frame`, `--each-entity`) run as in the plain demo, and
/// `SendPacket` reaches the clients: `to` is a client's dpid, 0 every client.
pub fn serve(
    addr: SocketAddr,
    args: &DemoArgs,
    assets: &Assets,
    mut world: World,
    mut plugins: Option<Plugins>,
) -> Result<()> {
    let socket = UdpSocket::bind(addr).with_context(|| format!("cannot bind UDP {addr}"))?;
    socket.set_nonblocking(true)?;
    println!("net: serving {} units on {addr}", world.units.len());
    let mut present = presenter(args, "modex demo server (A5 protocol)")?;
    let mut scene = SceneRenderer::new(
        assets,
        modex::frame::DEFAULT_WIDTH,
        modex::frame::DEFAULT_HEIGHT,
    );
    let path = args.path.into();
    if let Some(p) = &mut plugins {
        p.open_network(MAX_DATAGRAM);
    }
    let mut peers: BTreeMap<SocketAddr, Peer> = BTreeMap::new();
    let mut traffic = Traffic::new();
    let mut pacer = Pacer::new();
    let mut buf = vec![0u8; 65536];
    let mut frame = 0u32;
    while !args.headless || frame < args.frames {
        for (bytes, from) in drain(&socket, &mut buf)? {
            let messages = match decode_client(&bytes) {
                Ok(m) => m,
                Err(e) => {
                    log::warn!("net: bad datagram from {from}: {e}");
                    continue;
                }
            };
            for m in messages {
                match m {
                    ClientMessage::Join { dpid, name } => {
                        let name = name.to_latin1();
                        if !peers.contains_key(&from) {
                            println!("net: client {name} ({from}) joined");
                        }
                        // A repeated join (its first answer was lost) starts over in full.
                        peers.insert(
                            from,
                            Peer {
                                dpid,
                                name,
                                encoder: DeltaEncoder::new(REFRESH_FRAMES),
                                heard: Instant::now(),
                                welcome: true,
                            },
                        );
                    }
                    ClientMessage::Leave { .. } => {
                        if let Some(p) = peers.remove(&from) {
                            println!("net: client {} ({from}) left", p.name);
                        }
                    }
                    ClientMessage::User(payload) => {
                        if let Some(p) = peers.get_mut(&from) {
                            p.heard = Instant::now();
                            if let Some(plugins) = &mut plugins {
                                plugins.receive_packet(i64::from(p.dpid), &user_packet(&payload));
                            }
                        }
                    }
                    _ => {
                        if let Some(p) = peers.get_mut(&from) {
                            p.heard = Instant::now();
                        }
                    }
                }
            }
        }
        peers.retain(|addr, p| {
            let alive = p.heard.elapsed() < CLIENT_TIMEOUT;
            if !alive {
                println!(
                    "net: client {} ({addr}, dpid {}) timed out after {:.1} s without a datagram",
                    p.name,
                    p.dpid,
                    CLIENT_TIMEOUT.as_secs_f32()
                );
            }
            alive
        });

        let info = ServerMessage::Info {
            magic: INFO_MAGIC,
            protocol: PROTOCOL,
            server_time: world.time(),
            frame_time: STEP,
        };
        let entities = world
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| Ok((i16::try_from(i).context("too many units")?, entity_of(u)?)))
            .collect::<Result<Vec<_>>>()?;
        for (addr, p) in &mut peers {
            if std::mem::take(&mut p.welcome) {
                let creates: Vec<ServerMessage> = entities
                    .iter()
                    .map(|(i, _)| ServerMessage::Create { index: *i, id: *i })
                    .collect();
                for d in packetize(&info, &creates, MAX_DATAGRAM)? {
                    send(&socket, &d, *addr, &mut traffic)?;
                }
            }
            let updates = p.encoder.frame(&entities);
            for d in packetize(&info, &updates, MAX_DATAGRAM)? {
                send(&socket, &d, *addr, &mut traffic)?;
            }
        }

        draw_frame(&mut scene, &world, path, plugins.as_mut())?;
        if let Some(p) = &mut plugins {
            for packet in p.take_packets() {
                let bytes =
                    modex_net::encode_server(&[ServerMessage::User(packet.bytes[1..].to_vec())])?;
                let mut sent = false;
                for (addr, peer) in &peers {
                    if packet.to == 0 || packet.to == i64::from(peer.dpid) {
                        send(&socket, &bytes, *addr, &mut traffic)?;
                        sent = true;
                    }
                }
                if !sent && packet.to != 0 {
                    log::warn!("SendPacket: no client {} is connected", packet.to);
                }
            }
        }
        if !present_frame(present.as_mut(), &scene, path, &assets.palette)? {
            break;
        }
        world.step();
        frame += 1;
        pacer.wait();
    }
    if let Some(p) = &plugins {
        println!("{}", p.summary());
    }
    let leave = [ServerMessage::Leave];
    let bytes = modex_net::encode_server(&leave)?;
    for addr in peers.keys() {
        send(&socket, &bytes, *addr, &mut traffic)?;
    }
    println!("{}", traffic.line("sent", world.units.len()));
    Ok(())
}

/// `modex demo --connect ADDR`.
///
/// Plugins run as in the plain demo; `SendPacket` goes to the server once joined, and user packets
/// from the server reach `ReceivePacket` with `from` 0.
pub fn connect(
    addr: SocketAddr,
    args: &DemoArgs,
    assets: &Assets,
    mut world: World,
    mut plugins: Option<Plugins>,
) -> Result<()> {
    let local: SocketAddr = if addr.is_ipv4() {
        "0.0.0.0:0".parse()?
    } else {
        "[::]:0".parse()?
    };
    let socket = UdpSocket::bind(local).context("cannot bind a UDP socket")?;
    socket.set_nonblocking(true)?;
    let dpid = std::process::id() as i32;
    let mut present = presenter(args, "modex demo client (A5 protocol)")?;
    let mut scene = SceneRenderer::new(
        assets,
        modex::frame::DEFAULT_WIDTH,
        modex::frame::DEFAULT_HEIGHT,
    );
    let path = args.path.into();
    if let Some(p) = &mut plugins {
        p.open_network(MAX_DATAGRAM);
    }
    let mut state = ClientState::new();
    let mut traffic = Traffic::new();
    let mut sent = Traffic::new();
    let mut pacer = Pacer::new();
    let mut buf = vec![0u8; 65536];
    let started = Instant::now();
    let mut joined = false;
    let mut heard = Instant::now();
    // (newest server time, when it arrived): the client's clock for extrapolation.
    let mut anchor: Option<(f64, Instant)> = None;
    let (mut said_gone, mut said_left, mut said_silent) = (false, false, false);
    let mut frame = 0u32;
    let mut bad = 0u64;
    let name = NetString::from_latin1("modex").expect("ASCII");
    while !args.headless || frame < args.frames {
        for (bytes, from) in drain(&socket, &mut buf)? {
            if from != addr {
                continue; // not our server
            }
            traffic.count(bytes.len());
            heard = Instant::now();
            match decode_server(&bytes, DecodeOptions::default()) {
                Ok(messages) => {
                    if let Some(p) = &mut plugins {
                        for m in &messages {
                            if let ServerMessage::User(payload) = m {
                                p.receive_packet(0, &user_packet(payload));
                            }
                        }
                    }
                    let before = state.server_time();
                    state.apply(&messages);
                    if state.server_time() > before {
                        anchor = state.server_time().map(|t| (t, Instant::now()));
                    }
                    if !joined && state.server_time().is_some() {
                        joined = true;
                        println!("net: joined {addr}");
                    }
                }
                Err(e) => {
                    bad += 1;
                    log::warn!("net: bad datagram from {addr}: {e}");
                }
            }
        }
        if state.server_left && !said_left {
            said_left = true;
            println!("net: server {addr} left (svc_leave)");
        }
        if joined && !said_gone && !state.server_left && heard.elapsed() > SERVER_TIMEOUT {
            said_gone = true;
            println!(
                "net: server {addr} gone: no datagram for {:.1} s",
                SERVER_TIMEOUT.as_secs_f32()
            );
        }
        if !joined && !said_silent && started.elapsed() > SERVER_TIMEOUT {
            said_silent = true;
            println!("net: no answer from {addr} yet, still asking");
        }
        let message = if joined {
            ClientMessage::Ping { dpid }
        } else if frame as u64 % JOIN_RETRY_FRAMES == 0 {
            ClientMessage::Join {
                dpid,
                name: name.clone(),
            }
        } else {
            ClientMessage::Fill
        };
        if message != ClientMessage::Fill && !said_left && !said_gone {
            send(&socket, &encode_client(&[message])?, addr, &mut sent)?;
        }

        // Draw the units where the server says, extrapolated to the server's time now.
        let now = anchor.map(|(t, at)| t + at.elapsed().as_secs_f64());
        if let Some(t) = now {
            world.steps = (t / STEP as f64).round().max(0.0) as u64;
        }
        let time = now.unwrap_or(0.0);
        world.units = state
            .entities()
            .values()
            .filter_map(|e| unit_of(e, time, state.max_extrapolation))
            .collect();
        draw_frame(&mut scene, &world, path, plugins.as_mut())?;
        if let Some(p) = &mut plugins {
            for packet in p.take_packets() {
                if joined && !said_left && !said_gone {
                    let user = ClientMessage::User(packet.bytes[1..].to_vec());
                    send(&socket, &encode_client(&[user])?, addr, &mut sent)?;
                } else if !joined {
                    log::warn!("SendPacket: not joined to a server yet; packet dropped");
                } else {
                    log::warn!("SendPacket: the server is gone; packet dropped");
                }
            }
        }
        if !present_frame(present.as_mut(), &scene, path, &assets.palette)? {
            break;
        }
        world.step(); // props and sun move on; the units are replaced from the network next frame
        frame += 1;
        pacer.wait();
    }
    if joined && !said_left && !said_gone {
        send(
            &socket,
            &encode_client(&[ClientMessage::Leave { dpid }])?,
            addr,
            &mut sent,
        )?;
    }
    if bad > 0 {
        println!("net: {bad} datagrams could not be decoded");
    }
    if let Some(p) = &plugins {
        println!("{}", p.summary());
    }
    if args.headless {
        write_state(&args.out.join("net-state.json"), addr, &state)?;
    }
    println!("{}", traffic.line("received", state.entities().len()));
    Ok(())
}

/// A user message's payload as the SDK's `ReceivePacket` sees it: with its leading 17.
fn user_packet(payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(payload.len() + 1);
    bytes.push(modex_plugin::USER_PACKET);
    bytes.extend_from_slice(payload);
    bytes
}

/// What the client last heard, beside its frames: the newest server time and each entity's last
/// received position and pan (not extrapolated), so a run can be checked against the server.
fn write_state(path: &Path, addr: SocketAddr, state: &ClientState) -> Result<()> {
    let entities: Vec<_> = state
        .entities()
        .iter()
        .map(|(i, e)| {
            json!({
                "index": i,
                "type": e.state.model.to_latin1(),
                "position": e.last_position(),
                "pan": e.state.pan.degrees(),
            })
        })
        .collect();
    let v = json!({
        "server": addr.to_string(),
        "server_time": state.server_time(),
        "entities": entities,
    });
    std::fs::write(path, format!("{v:#}\n"))
        .with_context(|| format!("cannot write {}", path.display()))
}
