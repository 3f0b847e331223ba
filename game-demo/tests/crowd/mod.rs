//! A crowd on loopback: a `modex demo --serve` child process and many real A5 clients, each a
//! thread with its own UDP socket speaking the protocol through `modex-net` (join, ping after each
//! frame, dead-reckoning state), so 64 of them stay cheap on a 2-core machine. Shared by
//! `tests/net_crowd.rs` (short) and `benches/benches/net_crowd.rs` (30 s).
//!
//! Clients bind addresses 127.0.0.2, 127.0.0.3, ... (Linux routes all of 127/8 to the loopback),
//! a few per address, so the server's joins-per-address cap sees the hosts it would on a LAN.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use modex_demo::scene::assets::{data_dir, Assets};
use modex_demo::scene::world::STEP;
use modex_demo::scene::World;
use modex_net::{
    decode_server, encode_client, ClientMessage, ClientState, DecodeOptions, NetString,
};

/// A port nobody is using right now.
pub fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The loopback address of client `i` when `per_address` clients share one.
pub fn client_ip(i: usize, per_address: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + (i / per_address) as u8))
}

/// Resident memory of process `pid` in KiB (/proc, Linux).
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A `modex demo --serve` child: stdout lines on a channel, stderr a pipe kept open and never
/// read (a log nobody reads).
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
    lines: Receiver<String>,
    pub seen: Vec<String>,
    _stderr: ChildStderr,
}

impl Server {
    /// Serve `units` units for `frames` frames on a free port, PNGs into `out`.
    pub fn spawn(bin: &Path, units: usize, frames: u32, out: &Path, extra: &[&str]) -> Server {
        let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
        let mut child = Command::new(bin)
            .args(["demo", "--serve", &addr.to_string(), "--headless"])
            .args([
                "--units",
                &units.to_string(),
                "--frames",
                &frames.to_string(),
            ])
            .arg("--out")
            .arg(out)
            .args(extra)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run modex");
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            addr,
            lines,
            seen: Vec::new(),
            _stderr: stderr,
        }
    }

    /// Wait (at most `deadline`) for a stdout line containing `needle`.
    pub fn expect_line(&mut self, needle: &str, deadline: Duration) -> String {
        let end = Instant::now() + deadline;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if l.contains(needle) {
                        return l;
                    }
                }
                Err(e) => panic!("server: no line with {needle:?} ({e}); saw {:?}", self.seen),
            }
        }
    }

    /// Wait for the server to end (at most `deadline`) and collect its remaining lines.
    pub fn finish(&mut self, deadline: Duration) -> Vec<String> {
        let end = Instant::now() + deadline;
        loop {
            if self.child.try_wait().unwrap().is_some() {
                break;
            }
            assert!(
                Instant::now() < end,
                "server did not finish; saw {:?}",
                self.seen
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(l);
        }
        self.seen.clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `net: served F frames in S s since the first join (R frames/s, C ms CPU a frame), at most K
/// clients` → (R, C, K).
pub fn served(lines: &[String]) -> (f64, f64, usize) {
    let l = lines
        .iter()
        .find(|l| l.starts_with("net: served "))
        .unwrap_or_else(|| panic!("no served line in {lines:?}"));
    let num_before = |needle: &str| -> f64 {
        let head = &l[..l.find(needle).unwrap_or_else(|| panic!("{l}"))];
        head.rsplit([' ', '('])
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|e| panic!("{l}: {e}"))
    };
    (
        num_before(" frames/s"),
        num_before(" ms CPU"),
        num_before(" clients") as usize,
    )
}

/// What one client heard.
pub struct Heard {
    pub state: ClientState,
    pub bytes: u64,
    pub datagrams: u64,
    /// From the first datagram to the last.
    pub first: Option<Instant>,
    pub last: Option<Instant>,
}

impl Heard {
    /// Bytes a second between its first and last datagram.
    pub fn bytes_per_second(&self) -> f64 {
        match (self.first, self.last) {
            (Some(a), Some(b)) if b > a => self.bytes as f64 / (b - a).as_secs_f64(),
            _ => 0.0,
        }
    }
}

/// A client thread at `ip` that joins `server` and listens until the server leaves or `deadline`
/// passes, pinging after each new server frame and repeating its join every quarter second until
/// answered.
pub fn client(ip: IpAddr, server: SocketAddr, dpid: i32, deadline: Duration) -> JoinHandle<Heard> {
    std::thread::spawn(move || {
        let socket = UdpSocket::bind(SocketAddr::new(ip, 0)).expect("bind a loopback address");
        socket
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        let join = encode_client(&[ClientMessage::Join {
            dpid,
            name: NetString::from_latin1(&format!("crowd{dpid}")).unwrap(),
        }])
        .unwrap();
        let ping = encode_client(&[ClientMessage::Ping { dpid }]).unwrap();
        let mut heard = Heard {
            state: ClientState::new(),
            bytes: 0,
            datagrams: 0,
            first: None,
            last: None,
        };
        let mut buf = vec![0u8; 65536];
        let mut asked: Option<Instant> = None;
        let end = Instant::now() + deadline;
        while Instant::now() < end && !heard.state.server_left {
            let joined = heard.state.server_time().is_some();
            if !joined && asked.is_none_or(|t| t.elapsed() >= Duration::from_millis(250)) {
                let _ = socket.send_to(&join, server);
                asked = Some(Instant::now());
            }
            let Ok((n, from)) = socket.recv_from(&mut buf) else {
                continue;
            };
            if from != server {
                continue;
            }
            let now = Instant::now();
            heard.first.get_or_insert(now);
            heard.last = Some(now);
            heard.bytes += n as u64;
            heard.datagrams += 1;
            let messages = decode_server(&buf[..n], DecodeOptions::default())
                .expect("the server sends only datagrams that decode");
            let before = heard.state.server_time();
            heard.state.apply(&messages);
            if heard.state.server_time() > before {
                let _ = socket.send_to(&ping, server);
            }
        }
        heard
    })
}

/// The server's units at server time `t`, `units` of them: the simulation is deterministic.
pub fn world_at(units: usize, t: f64) -> World {
    let assets = Assets::load(&data_dir()).unwrap();
    let mut w = World::demo(&assets, units);
    for _ in 0..(t / STEP as f64).round() as u64 {
        w.step();
    }
    w
}

/// [`world_at`] for `units` units, kept for the last time asked: the clients of one run mostly
/// stop at the same server time, and each world is a replay of the simulation from the start.
pub fn cached_world(units: usize) -> impl FnMut(f64) -> World {
    let mut cache: Option<(f64, World)> = None;
    move |t| {
        if cache.as_ref().is_none_or(|(ct, _)| *ct != t) {
            cache = Some((t, world_at(units, t)));
        }
        cache
            .as_ref()
            .map(|(_, w)| w.clone())
            .expect("filled above")
    }
}

/// Check that a client received the whole battlefield of `units` units, each last received
/// position where the server's unit was at that server time (to 1/256 quant); `world_at_t` gives
/// the server's world at a time (cached by the caller).
pub fn check_battlefield(
    name: &str,
    heard: &Heard,
    units: usize,
    world: &mut impl FnMut(f64) -> World,
) {
    let t = heard
        .state
        .server_time()
        .unwrap_or_else(|| panic!("{name}: never heard the server"));
    let ents = heard.state.entities();
    assert_eq!(ents.len(), units, "{name}: every unit was created");
    let w = world(t);
    for (i, e) in ents {
        assert!(e.has_position(), "{name}: unit {i} has no position");
        let p = e.last_position();
        let u = w.units[*i as usize].position;
        for (k, want) in [u.x, u.y, u.z].iter().enumerate() {
            assert!(
                (p[k] - *want as f64).abs() <= 1.0 / 256.0 + 1e-3,
                "{name}: unit {i} axis {k}: client {} server {want} at t = {t}",
                p[k]
            );
        }
    }
}

/// A scratch folder for a run's PNGs.
pub fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("modex-crowd-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
