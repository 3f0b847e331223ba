//! `modex demo --serve ADDR`: the battlefield simulated here and sent to every client that joins.
//! The game loop runs it; [`Server`] is its network step: clients' datagrams in, the frame's delta
//! updates out, the plugins' user packets to the clients they name.
//!
//! Each frame is encoded once: one [`DeltaEncoder`] for the whole server, whose datagrams go to
//! every client that has had its welcome; a client that joins gets one `svc_create` per unit and
//! every field of every unit ([`full_state`]), then the shared frames. So a frame costs one
//! encoding and one send per client and datagram, whatever the number of clients.
//!
//! Hostile input: datagrams larger than a client ever sends, ones that do not decode, joins with
//! names longer than [`MAX_NAME`], and joins refused by the [`Admission`] rules (the client cap,
//! `--max-clients`, and [`JOINS_PER_ADDRESS`] a second) are dropped and counted per address by a
//! [`DropLog`], at most one line a second each; every line goes through the [`NetLog`] thread, so
//! the frame loop never waits on a log nobody reads.

use std::collections::BTreeMap;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex_demo::scene::world::STEP;
use modex_demo::scene::{Assets, World};
use modex_net::{
    decode_client, full_state, packetize, Admission, ClientMessage, DeltaEncoder, DropKind,
    DropLog, JoinVerdict, ServerMessage, INFO_MAGIC, MAX_DATAGRAM,
};

use super::log::NetLog;
use super::udp::{receive, send, Traffic, MAX_DATAGRAMS_PER_FRAME};
use super::units::entity_of;
use super::usage::cpu_seconds;
use super::{session, user_packet};
use crate::cli::DemoArgs;
use crate::demo::game_loop::NetStep;
use crate::demo::plugins::Plugins;

/// A client silent for this long is dropped by the server.
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(2);
/// Joins accepted from one IP address per second: a few hosts behind one router joining at once,
/// and a client repeating its join (every quarter second) while its welcome is lost, get in; a
/// stream of joins cannot make the server send more than this many welcomes a second there.
pub const JOINS_PER_ADDRESS: u32 = 8;
/// Longest player name a join may carry (bytes); longer joins are dropped as bad.
pub const MAX_NAME: usize = 32;
/// Protocol version in `svc_info`.
const PROTOCOL: u8 = 1;
/// Each entity is refreshed in full once a second, so what a lost datagram carried is resent.
const REFRESH_FRAMES: u64 = 60;

/// A client as the server sees it.
struct Peer {
    dpid: i32,
    name: String,
    heard: Instant,
    /// `svc_create` per unit and the full state still to be sent.
    welcome: bool,
}

/// The frames served since the first client joined, for the closing line.
struct Served {
    /// When the first client joined, and the process's CPU seconds then.
    since: Option<(Instant, Option<f64>)>,
    frames: u64,
    most_clients: usize,
}

/// The server's side of each frame.
struct Server {
    socket: UdpSocket,
    peers: BTreeMap<SocketAddr, Peer>,
    /// The one delta encoder whose frames every welcomed client gets.
    encoder: DeltaEncoder,
    admission: Admission,
    drops: DropLog,
    log: NetLog,
    traffic: Traffic,
    served: Served,
    buf: Vec<u8>,
}

/// `modex demo --serve ADDR`.
///
/// Plugins (`--plugin`, `--each-frame`, `--each-entity`) run as in the plain demo, and
/// `SendPacket` reaches the clients: `to` is a client's dpid, 0 every client.
pub fn serve(
    addr: SocketAddr,
    args: &DemoArgs,
    assets: &Assets,
    world: World,
    plugins: Option<Plugins>,
) -> Result<()> {
    let socket = UdpSocket::bind(addr).with_context(|| format!("cannot bind UDP {addr}"))?;
    socket.set_nonblocking(true)?;
    let mut log = NetLog::start();
    log.out(format!(
        "net: serving {} units on {addr}, at most {} clients",
        world.units.len(),
        args.max_clients
    ));
    let title = "modex demo server (A5 protocol)";
    let max_clients = args.max_clients;
    let (game, mut server) = session(args, assets, world, plugins, title, || Server {
        socket,
        peers: BTreeMap::new(),
        encoder: DeltaEncoder::new(REFRESH_FRAMES),
        admission: Admission::new(max_clients, JOINS_PER_ADDRESS),
        drops: DropLog::default(),
        log,
        traffic: Traffic::new(),
        served: Served {
            since: None,
            frames: 0,
            most_clients: 0,
        },
        buf: vec![0u8; 65536],
    })?;
    let leave = modex_net::encode_server(&[ServerMessage::Leave])?;
    for addr in server.peers.keys() {
        send(&server.socket, &leave, *addr, &mut server.traffic)?;
    }
    let mut log = server.log;
    for r in server.drops.flush(Instant::now()) {
        log.warn(r.to_string());
    }
    let dropped = server.drops.total();
    if dropped.total() > 0 {
        log.out(format!(
            "net: dropped {} datagrams in all: {} bad, {} joins refused (full), {} joins refused \
             (too fast)",
            dropped.total(),
            dropped.bad,
            dropped.full,
            dropped.too_fast
        ));
    }
    if let Some(p) = &game.plugins {
        log.out(p.summary());
    }
    log.out(served_line(&server.served));
    log.out(server.traffic.line("sent", game.world.units.len()));
    log.close(Duration::from_secs(2));
    Ok(())
}

/// `net: served F frames in S s since the first join (R frames/s, C ms CPU a frame), at most K
/// clients`.
fn served_line(s: &Served) -> String {
    let Some((start, cpu0)) = s.since else {
        return "net: served 0 frames: no client joined".to_string();
    };
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) if s.frames > 0 => {
            format!("{:.2} ms CPU a frame", (b - a) * 1000.0 / s.frames as f64)
        }
        _ => "CPU unknown".to_string(),
    };
    format!(
        "net: served {} frames in {secs:.1} s since the first join ({:.1} frames/s, {cpu}), at \
         most {} clients",
        s.frames,
        s.frames as f64 / secs,
        s.most_clients
    )
}

impl Server {
    /// Joins, leaves, pings and user packets from the clients, at most
    /// [`MAX_DATAGRAMS_PER_FRAME`]; the silent clients dropped.
    fn receive(&mut self, mut plugins: Option<&mut Plugins>) -> Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        for _ in 0..MAX_DATAGRAMS_PER_FRAME {
            let Some((n, from)) = receive(&self.socket, &mut buf)? else {
                break;
            };
            self.datagram(&buf[..n], from, plugins.as_deref_mut());
        }
        self.buf = buf;
        let now = Instant::now();
        for r in self.drops.due(now) {
            self.log.warn(r.to_string());
        }
        let log = &mut self.log;
        self.peers.retain(|addr, p| {
            let alive = now.saturating_duration_since(p.heard) < CLIENT_TIMEOUT;
            if !alive {
                log.out(format!(
                    "net: client {} ({addr}, dpid {}) timed out after {:.1} s without a datagram",
                    p.name,
                    p.dpid,
                    CLIENT_TIMEOUT.as_secs_f32()
                ));
            }
            alive
        });
        Ok(())
    }

    /// Count a drop from `from`, logging the line when one is due.
    fn drop(&mut self, from: SocketAddr, kind: DropKind, reason: impl FnOnce() -> String) {
        if let Some(r) = self.drops.record(from, kind, Instant::now(), reason) {
            self.log.warn(r.to_string());
        }
    }

    /// One datagram from `from`.
    fn datagram(&mut self, bytes: &[u8], from: SocketAddr, mut plugins: Option<&mut Plugins>) {
        if bytes.len() > MAX_DATAGRAM {
            let n = bytes.len();
            return self.drop(from, DropKind::Bad, || {
                format!("{n} bytes: a client datagram is at most {MAX_DATAGRAM}")
            });
        }
        let messages = match decode_client(bytes) {
            Ok(m) => m,
            Err(e) => return self.drop(from, DropKind::Bad, || e.to_string()),
        };
        for m in messages {
            match m {
                ClientMessage::Join { dpid, name } => {
                    if name.as_bytes().len() > MAX_NAME {
                        let n = name.as_bytes().len();
                        self.drop(from, DropKind::Bad, || {
                            format!("cls_join: field `name`: {n} bytes, at most {MAX_NAME}")
                        });
                        continue;
                    }
                    self.join(from, dpid, name.to_latin1());
                }
                ClientMessage::Leave { .. } => {
                    if let Some(p) = self.peers.remove(&from) {
                        self.log
                            .out(format!("net: client {} ({from}) left", p.name));
                    }
                }
                ClientMessage::User(payload) => {
                    if let Some(p) = self.peers.get_mut(&from) {
                        p.heard = Instant::now();
                        if let Some(plugins) = plugins.as_deref_mut() {
                            plugins.receive_packet(i64::from(p.dpid), &user_packet(&payload));
                        }
                    }
                }
                _ => {
                    if let Some(p) = self.peers.get_mut(&from) {
                        p.heard = Instant::now();
                    }
                }
            }
        }
    }

    /// A `cls_join` that decoded: welcomed (again: its first answer was lost) or refused.
    fn join(&mut self, from: SocketAddr, dpid: i32, name: String) {
        let now = Instant::now();
        let known = self.peers.contains_key(&from);
        let verdict = self.admission.join(from.ip(), known, self.peers.len(), now);
        let kind = match verdict {
            JoinVerdict::Accept => {
                if !known {
                    self.log.out(format!("net: client {name} ({from}) joined"));
                }
                self.peers.insert(
                    from,
                    Peer {
                        dpid,
                        name,
                        heard: now,
                        welcome: true,
                    },
                );
                self.served.most_clients = self.served.most_clients.max(self.peers.len());
                if self.served.since.is_none() {
                    self.served.since = Some((now, cpu_seconds()));
                }
                return;
            }
            JoinVerdict::Full { .. } => DropKind::Full,
            JoinVerdict::TooFast { .. } => DropKind::TooFast,
        };
        self.drop(from, kind, || verdict.to_string());
    }

    /// This frame's datagrams: the shared delta frame to every welcomed client; to the newly
    /// joined, `svc_create` per unit and the full state. Each datagram is led by `svc_info` with
    /// the server time.
    fn send_updates(&mut self, world: &World) -> Result<()> {
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
        let frame = packetize(&info, &self.encoder.frame(&entities), MAX_DATAGRAM)?;
        let mut welcome: Option<Vec<Vec<u8>>> = None;
        for (addr, p) in &mut self.peers {
            let datagrams = if std::mem::take(&mut p.welcome) {
                if welcome.is_none() {
                    let creates: Vec<ServerMessage> = entities
                        .iter()
                        .map(|(i, _)| ServerMessage::Create { index: *i, id: *i })
                        .collect();
                    let mut w = packetize(&info, &creates, MAX_DATAGRAM)?;
                    w.extend(packetize(&info, &full_state(&entities), MAX_DATAGRAM)?);
                    welcome = Some(w);
                }
                welcome.as_ref().expect("made above")
            } else {
                &frame
            };
            for d in datagrams {
                send(&self.socket, d, *addr, &mut self.traffic)?;
            }
        }
        if self.served.since.is_some() {
            self.served.frames += 1;
        }
        Ok(())
    }
}

impl NetStep for Server {
    fn before_draw(
        &mut self,
        _: u32,
        world: &mut World,
        plugins: Option<&mut Plugins>,
    ) -> Result<()> {
        self.receive(plugins)?;
        self.send_updates(world)
    }

    fn after_draw(&mut self, plugins: Option<&mut Plugins>) -> Result<()> {
        let Some(p) = plugins else {
            return Ok(());
        };
        for packet in p.take_packets() {
            let bytes =
                modex_net::encode_server(&[ServerMessage::User(packet.bytes[1..].to_vec())])?;
            let mut sent = false;
            for (addr, peer) in &self.peers {
                if packet.to == 0 || packet.to == i64::from(peer.dpid) {
                    send(&self.socket, &bytes, *addr, &mut self.traffic)?;
                    sent = true;
                }
            }
            if !sent && packet.to != 0 {
                self.log
                    .warn(format!("SendPacket: no client {} is connected", packet.to));
            }
        }
        Ok(())
    }
}
