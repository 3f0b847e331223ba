//! `modex demo --connect ADDR`: the battlefield drawn where a server says. The game loop runs it;
//! [`Client`] is its network step: the server's datagrams in, the join / ping out, the units put
//! where the last updates say, extrapolated to the server's time now.

use std::net::{SocketAddr, UdpSocket};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex_demo::scene::world::STEP;
use modex_demo::scene::{Assets, World};
use modex_net::{
    decode_server, encode_client, ClientMessage, ClientState, DecodeOptions, DropKind, DropLog,
    NetString, ServerMessage,
};
use serde_json::json;

use super::log::NetLog;
use super::udp::{receive, send, Traffic, MAX_DATAGRAMS_PER_FRAME};
use super::units::unit_of;
use super::{session, user_packet};
use crate::cli::DemoArgs;
use crate::demo::game_loop::NetStep;
use crate::demo::plugins::Plugins;

/// A server silent for this long is reported gone by the client.
pub const SERVER_TIMEOUT: Duration = Duration::from_secs(2);
/// How often an unanswered client repeats `cls_join` (frames).
const JOIN_RETRY_FRAMES: u64 = 15;

/// The client's side of each frame, and what it has heard.
struct Client {
    addr: SocketAddr,
    socket: UdpSocket,
    dpid: i32,
    name: NetString,
    state: ClientState,
    /// Datagrams received.
    traffic: Traffic,
    /// Datagrams sent.
    sent: Traffic,
    buf: Vec<u8>,
    started: Instant,
    joined: bool,
    heard: Instant,
    /// (newest server time, when it arrived): the client's clock for extrapolation.
    anchor: Option<(f64, Instant)>,
    said_gone: bool,
    said_left: bool,
    said_silent: bool,
    /// Datagrams that could not be decoded, logged at most once a second.
    drops: DropLog,
    log: NetLog,
}

/// `modex demo --connect ADDR`.
///
/// Plugins run as in the plain demo; `SendPacket` goes to the server once joined, and user packets
/// from the server reach `ReceivePacket` with `from` 0.
pub fn connect(
    addr: SocketAddr,
    args: &DemoArgs,
    assets: &Assets,
    world: World,
    plugins: Option<Plugins>,
) -> Result<()> {
    let local: SocketAddr = if addr.is_ipv4() {
        "0.0.0.0:0".parse()?
    } else {
        "[::]:0".parse()?
    };
    let socket = UdpSocket::bind(local).context("cannot bind a UDP socket")?;
    socket.set_nonblocking(true)?;
    let dpid = std::process::id() as i32;
    let title = "modex demo client (A5 protocol)";
    let (game, mut client) = session(args, assets, world, plugins, title, || Client {
        addr,
        socket,
        dpid,
        name: NetString::from_latin1("modex").expect("ASCII"),
        state: ClientState::new(),
        traffic: Traffic::new(),
        sent: Traffic::new(),
        buf: vec![0u8; 65536],
        started: Instant::now(),
        joined: false,
        heard: Instant::now(),
        anchor: None,
        said_gone: false,
        said_left: false,
        said_silent: false,
        drops: DropLog::default(),
        log: NetLog::start(),
    })?;
    if client.in_session() {
        let leave = encode_client(&[ClientMessage::Leave { dpid }])?;
        send(&client.socket, &leave, addr, &mut client.sent)?;
    }
    for r in client.drops.flush(Instant::now()) {
        client.log.warn(r.to_string());
    }
    let bad = client.drops.total().bad;
    client.log.close(Duration::from_secs(2));
    if bad > 0 {
        println!("net: {bad} datagrams could not be decoded");
    }
    if let Some(p) = &game.plugins {
        println!("{}", p.summary());
    }
    if args.headless {
        write_state(&args.out.join("net-state.json"), addr, &client.state)?;
    }
    println!(
        "{}",
        client
            .traffic
            .line("received", client.state.entities().len())
    );
    Ok(())
}

impl Client {
    /// Joined, and the server has neither left nor gone silent.
    fn in_session(&self) -> bool {
        self.joined && !self.said_left && !self.said_gone
    }

    /// The server's datagrams: applied to the state, user packets handed to the plugins.
    fn receive(&mut self, mut plugins: Option<&mut Plugins>) -> Result<()> {
        let addr = self.addr;
        for _ in 0..MAX_DATAGRAMS_PER_FRAME {
            let Some((n, from)) = receive(&self.socket, &mut self.buf)? else {
                break;
            };
            if from != addr {
                continue; // not our server
            }
            let bytes = &self.buf[..n];
            self.traffic.count(bytes.len());
            self.heard = Instant::now();
            match decode_server(bytes, DecodeOptions::default()) {
                Ok(messages) => {
                    if let Some(p) = plugins.as_deref_mut() {
                        for m in &messages {
                            if let ServerMessage::User(payload) = m {
                                p.receive_packet(0, &user_packet(payload));
                            }
                        }
                    }
                    let before = self.state.server_time();
                    self.state.apply(&messages);
                    if self.state.server_time() > before {
                        self.anchor = self.state.server_time().map(|t| (t, Instant::now()));
                    }
                    if !self.joined && self.state.server_time().is_some() {
                        self.joined = true;
                        self.log.out(format!("net: joined {addr}"));
                    }
                }
                Err(e) => {
                    let line = self
                        .drops
                        .record(from, DropKind::Bad, Instant::now(), || e.to_string());
                    if let Some(r) = line {
                        self.log.warn(r.to_string());
                    }
                }
            }
        }
        for r in self.drops.due(Instant::now()) {
            self.log.warn(r.to_string());
        }
        Ok(())
    }

    /// Say once each when the server left, went silent, or has not answered yet.
    fn report(&mut self) {
        let addr = self.addr;
        if self.state.server_left && !self.said_left {
            self.said_left = true;
            self.log.out(format!("net: server {addr} left (svc_leave)"));
        }
        if self.joined
            && !self.said_gone
            && !self.state.server_left
            && self.heard.elapsed() > SERVER_TIMEOUT
        {
            self.said_gone = true;
            self.log.out(format!(
                "net: server {addr} gone: no datagram for {:.1} s",
                SERVER_TIMEOUT.as_secs_f32()
            ));
        }
        if !self.joined && !self.said_silent && self.started.elapsed() > SERVER_TIMEOUT {
            self.said_silent = true;
            self.log
                .out(format!("net: no answer from {addr} yet, still asking"));
        }
    }

    /// `cls_ping` once joined, else `cls_join` every [`JOIN_RETRY_FRAMES`] frames.
    fn ask(&mut self, frame: u32) -> Result<()> {
        let message = if self.joined {
            ClientMessage::Ping { dpid: self.dpid }
        } else if frame as u64 % JOIN_RETRY_FRAMES == 0 {
            ClientMessage::Join {
                dpid: self.dpid,
                name: self.name.clone(),
            }
        } else {
            ClientMessage::Fill
        };
        if message != ClientMessage::Fill && !self.said_left && !self.said_gone {
            send(
                &self.socket,
                &encode_client(&[message])?,
                self.addr,
                &mut self.sent,
            )?;
        }
        Ok(())
    }

    /// Put the units where the server says, extrapolated to the server's time now.
    fn place_units(&self, world: &mut World) {
        let now = self.anchor.map(|(t, at)| t + at.elapsed().as_secs_f64());
        if let Some(t) = now {
            world.steps = (t / STEP as f64).round().max(0.0) as u64;
        }
        let time = now.unwrap_or(0.0);
        world.units = self
            .state
            .entities()
            .values()
            .filter_map(|e| unit_of(e, time, self.state.max_extrapolation))
            .collect();
    }
}

impl NetStep for Client {
    /// The world has stepped (props and sun move on); its units are replaced from the network.
    fn before_draw(
        &mut self,
        frame: u32,
        world: &mut World,
        plugins: Option<&mut Plugins>,
    ) -> Result<()> {
        self.receive(plugins)?;
        self.report();
        self.ask(frame)?;
        self.place_units(world);
        Ok(())
    }

    fn after_draw(&mut self, plugins: Option<&mut Plugins>) -> Result<()> {
        let Some(p) = plugins else {
            return Ok(());
        };
        for packet in p.take_packets() {
            if self.in_session() {
                let user = ClientMessage::User(packet.bytes[1..].to_vec());
                send(
                    &self.socket,
                    &encode_client(&[user])?,
                    self.addr,
                    &mut self.sent,
                )?;
            } else if !self.joined {
                self.log
                    .warn("SendPacket: not joined to a server yet; packet dropped");
            } else {
                self.log
                    .warn("SendPacket: the server is gone; packet dropped");
            }
        }
        Ok(())
    }
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
