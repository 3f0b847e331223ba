//! `modex demo --serve ADDR`: the battlefield simulated here and sent to every client that joins.
//! The game loop runs it; [`Server`] is its network step: clients' datagrams in, each client's
//! delta updates out, the plugins' user packets to the clients they name.

use std::collections::BTreeMap;
use std::net::{SocketAddr, UdpSocket};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex_demo::scene::world::STEP;
use modex_demo::scene::{Assets, World};
use modex_net::{
    decode_client, packetize, ClientMessage, DeltaEncoder, ServerMessage, INFO_MAGIC, MAX_DATAGRAM,
};

use super::udp::{drain, send, Traffic};
use super::units::entity_of;
use super::{session, user_packet};
use crate::cli::DemoArgs;
use crate::demo::game_loop::NetStep;
use crate::demo::plugins::Plugins;

/// A client silent for this long is dropped by the server.
pub const CLIENT_TIMEOUT: Duration = Duration::from_secs(2);
/// Protocol version in `svc_info`.
const PROTOCOL: u8 = 1;
/// Each entity is refreshed in full once a second, so what a lost datagram carried is resent.
const REFRESH_FRAMES: u64 = 60;

/// A client as the server sees it.
struct Peer {
    dpid: i32,
    name: String,
    encoder: DeltaEncoder,
    heard: Instant,
    /// `svc_create` per unit still to be sent.
    welcome: bool,
}

/// The server's side of each frame.
struct Server {
    socket: UdpSocket,
    peers: BTreeMap<SocketAddr, Peer>,
    traffic: Traffic,
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
    println!("net: serving {} units on {addr}", world.units.len());
    let title = "modex demo server (A5 protocol)";
    let (game, mut server) = session(args, assets, world, plugins, title, || Server {
        socket,
        peers: BTreeMap::new(),
        traffic: Traffic::new(),
        buf: vec![0u8; 65536],
    })?;
    if let Some(p) = &game.plugins {
        println!("{}", p.summary());
    }
    let leave = [ServerMessage::Leave];
    let bytes = modex_net::encode_server(&leave)?;
    for addr in server.peers.keys() {
        send(&server.socket, &bytes, *addr, &mut server.traffic)?;
    }
    println!("{}", server.traffic.line("sent", game.world.units.len()));
    Ok(())
}

impl Server {
    /// Joins, leaves, pings and user packets from the clients; the silent ones dropped.
    fn receive(&mut self, mut plugins: Option<&mut Plugins>) -> Result<()> {
        let peers = &mut self.peers;
        for (bytes, from) in drain(&self.socket, &mut self.buf)? {
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
                            if let Some(plugins) = plugins.as_deref_mut() {
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
        Ok(())
    }

    /// Each client's datagrams for this frame: `svc_create` per unit to the newly joined, then
    /// the delta updates, each datagram led by `svc_info` with the server time.
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
        for (addr, p) in &mut self.peers {
            if std::mem::take(&mut p.welcome) {
                let creates: Vec<ServerMessage> = entities
                    .iter()
                    .map(|(i, _)| ServerMessage::Create { index: *i, id: *i })
                    .collect();
                for d in packetize(&info, &creates, MAX_DATAGRAM)? {
                    send(&self.socket, &d, *addr, &mut self.traffic)?;
                }
            }
            let updates = p.encoder.frame(&entities);
            for d in packetize(&info, &updates, MAX_DATAGRAM)? {
                send(&self.socket, &d, *addr, &mut self.traffic)?;
            }
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
                log::warn!("SendPacket: no client {} is connected", packet.to);
            }
        }
        Ok(())
    }
}
