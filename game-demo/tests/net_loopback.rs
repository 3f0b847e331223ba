//! `modex demo --serve` and `--connect` as separate processes on 127.0.0.1: the client converges to
//! the server's unit positions, a vanished client is dropped after the timeout, and a client whose
//! server disappears says so and still exits 0 after its frames. Every wait has a deadline and every
//! child is killed when a test ends, so a broken build fails instead of hanging CI.

use std::io::{BufRead, BufReader};
use std::net::UdpSocket;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use modex_demo::scene::assets::{data_dir, Assets};
use modex_demo::scene::world::{DEFAULT_UNITS, STEP};
use modex_demo::scene::World;

/// Generous: the machine running the tests may be busy, and debug frames are slow.
const DEADLINE: Duration = Duration::from_secs(150);

/// A port nobody is using right now.
fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("modex-net-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A running `modex` whose stdout lines arrive on a channel.
struct Proc {
    name: &'static str,
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Proc {
    fn spawn(name: &'static str, args: &[&str]) -> Proc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_modex"))
            .args(args)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run modex");
        // Standard output and error lines on one channel (plugins report on stderr).
        let (tx, rx) = channel();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        let forward = |pipe: Box<dyn std::io::Read + Send>, tx: std::sync::mpsc::Sender<String>| {
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        };
        forward(Box::new(out), tx.clone());
        forward(Box::new(err), tx);
        Proc {
            name,
            child,
            lines: rx,
            seen: Vec::new(),
        }
    }

    /// Wait for a line containing `needle`.
    fn expect_line(&mut self, needle: &str) -> String {
        let end = Instant::now() + DEADLINE;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if l.contains(needle) {
                        return l;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "{}: no line with {needle:?} in time; saw {:?}",
                        self.name, self.seen
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "{}: exited without a line with {needle:?}; saw {:?}",
                        self.name, self.seen
                    )
                }
            }
        }
    }

    /// Wait for the process to end; returns its status and every line it printed.
    fn finish(&mut self) -> (ExitStatus, Vec<String>) {
        let end = Instant::now() + DEADLINE;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                panic!("{} did not finish in time; saw {:?}", self.name, self.seen);
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        // The reader thread ends with the pipe.
        while let Ok(l) = self.lines.recv_timeout(Duration::from_secs(5)) {
            self.seen.push(l);
        }
        (status, self.seen.clone())
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `net: VERB N datagrams, M bytes, B bytes/s, E entities` → (N, M, B, E).
fn traffic(lines: &[String], verb: &str) -> (u64, u64, u64, u64) {
    let prefix = format!("net: {verb} ");
    let line = lines
        .iter()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no `{prefix}...` line in {lines:?}"));
    let nums: Vec<u64> = line[prefix.len()..]
        .split(", ")
        .map(|part| part.split(' ').next().unwrap().parse().unwrap())
        .collect();
    let suffixes: Vec<&str> = line[prefix.len()..]
        .split(", ")
        .map(|p| p.split_once(' ').unwrap().1)
        .collect();
    assert_eq!(
        suffixes,
        ["datagrams", "bytes", "bytes/s", "entities"],
        "{line}"
    );
    (nums[0], nums[1], nums[2], nums[3])
}

/// The server's units at server time `t`: the simulation is deterministic from its seed.
fn server_world_at(t: f64) -> World {
    let assets = Assets::load(&data_dir()).unwrap();
    let mut w = World::demo(&assets, DEFAULT_UNITS);
    let steps = (t / STEP as f64).round() as u64;
    for _ in 0..steps {
        w.step();
    }
    w
}

fn read_state(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("net-state.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn client_draws_the_servers_units() {
    let dir = tmp("converge");
    let addr = format!("127.0.0.1:{}", free_port());
    let (s_out, c_out) = (dir.join("server"), dir.join("client"));
    let mut server = Proc::spawn(
        "server",
        &[
            "demo",
            "--serve",
            &addr,
            "--headless",
            "--frames",
            "150",
            "--out",
            s_out.to_str().unwrap(),
        ],
    );
    server.expect_line("net: serving 13 units");
    // Joins a running battlefield: a late joiner.
    let mut client = Proc::spawn(
        "client",
        &[
            "demo",
            "--connect",
            &addr,
            "--headless",
            "--frames",
            "40",
            "--out",
            c_out.to_str().unwrap(),
        ],
    );
    let (status, lines) = client.finish();
    assert!(status.success(), "client: {lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("net: joined")),
        "{lines:?}"
    );
    let (datagrams, bytes, _, entities) = traffic(&lines, "received");
    assert!(datagrams > 0 && bytes > 0, "{lines:?}");
    assert_eq!(entities, 13, "a late joiner gets every unit");
    assert_eq!(
        std::fs::read_dir(&c_out)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "png")
            })
            .count(),
        40
    );

    // What the client last heard is where the server's units were at that server time, to the
    // protocol's resolution (1/128 quant).
    let state = read_state(&c_out);
    let t = state["server_time"]
        .as_f64()
        .expect("the client heard the server");
    let world = server_world_at(t);
    let ents = state["entities"].as_array().unwrap();
    assert_eq!(ents.len(), world.units.len());
    for e in ents {
        let i = e["index"].as_u64().unwrap() as usize;
        let p: Vec<f64> = e["position"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let u = &world.units[i].position;
        for (k, want) in [u.x, u.y, u.z].iter().enumerate() {
            assert!(
                (p[k] - *want as f64).abs() <= 1.0 / 256.0 + 1e-3,
                "unit {i} axis {k}: client {} server {want} at t = {t}",
                p[k]
            );
        }
    }

    let (status, lines) = server.finish();
    assert!(status.success(), "server: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("joined")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("left")),
        "the client said cls_leave: {lines:?}"
    );
    let (datagrams, bytes, _, entities) = traffic(&lines, "sent");
    assert!(datagrams > 0 && bytes > 0);
    assert_eq!(entities, 13);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn vanished_peers_time_out_on_both_sides() {
    let dir = tmp("timeouts");
    let addr = format!("127.0.0.1:{}", free_port());
    let out = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let mut server = Proc::spawn(
        "server",
        &[
            "demo",
            "--serve",
            &addr,
            "--headless",
            "--frames",
            "1000000",
            "--out",
            &out("s"),
        ],
    );
    server.expect_line("net: serving");

    // A client that disappears without cls_leave is dropped after the timeout.
    let mut lost = Proc::spawn(
        "lost client",
        &[
            "demo",
            "--connect",
            &addr,
            "--headless",
            "--frames",
            "1000000",
            "--out",
            &out("lost"),
        ],
    );
    lost.expect_line("net: joined");
    lost.child.kill().unwrap();
    server.expect_line("timed out");

    // A server that disappears without svc_leave: the client says so and ends normally.
    let mut client = Proc::spawn(
        "client",
        &[
            "demo",
            "--connect",
            &addr,
            "--headless",
            "--frames",
            "240",
            "--out",
            &out("c"),
        ],
    );
    client.expect_line("net: joined");
    server.child.kill().unwrap();
    let (status, lines) = client.finish();
    assert!(status.success(), "client: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("gone")), "{lines:?}");
    let (_, _, _, entities) = traffic(&lines, "received");
    assert_eq!(entities, 13);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The C plugin `engine/plugin/examples/packets.c` on the server and its Rust twin (`--plugin
/// builtin`) on the client send user packets every 30 frames (`a5->eng->SendPacket`,
/// `Engine::send_packet`); each side's `ReceivePacket` gets the other's, with `from` the client's
/// dpid on the server and 0 on the client.
#[test]
fn plugins_exchange_user_packets_through_the_session() {
    use modex_testkit::cplugin::{c_compiler, compile_plugin};
    let Some(cc) = c_compiler() else { return };
    let dir = tmp("packets");
    let lib = dir.join("packets.so");
    compile_plugin(
        &cc,
        Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../engine/plugin/include"
        )),
        Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../engine/plugin/examples/packets.c"
        )),
        &lib,
    );
    let lib = lib.to_str().unwrap();
    let addr = format!("127.0.0.1:{}", free_port());
    let (s_out, c_out) = (dir.join("server"), dir.join("client"));
    let hooks = ["--each-frame", "Packets", "--headless"];
    let mut server_args = vec!["demo", "--serve", &addr, "--frames", "240", "--plugin", lib];
    server_args.extend(hooks);
    server_args.extend(["--out", s_out.to_str().unwrap()]);
    let mut server = Proc::spawn("server", &server_args);
    server.expect_line("net: serving 13 units");
    let mut client_args = vec!["demo", "--connect", &addr, "--frames", "120"];
    client_args.extend(["--plugin", "builtin"]);
    client_args.extend(hooks);
    client_args.extend(["--out", c_out.to_str().unwrap()]);
    let mut client = Proc::spawn("client", &client_args);
    let line = client.expect_line("builtin: received");
    assert!(
        line.contains("from 0: hello "),
        "the client hears the server: {line}"
    );
    let line = server.expect_line("packets.so: received");
    let dpid = client.child.id();
    assert!(
        line.contains(&format!("from {dpid}: hello ")),
        "the server hears client {dpid}: {line}"
    );
    let (status, lines) = client.finish();
    assert!(status.success(), "client: {lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("plugins builtin: 120 frames")),
        "{lines:?}"
    );
    let (status, lines) = server.finish();
    assert!(status.success(), "server: {lines:?}");
    std::fs::remove_dir_all(&dir).ok();
}
