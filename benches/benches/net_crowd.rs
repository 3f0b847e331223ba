//! The crowd bench (issue 30), plain harness: a `modex demo --serve` child process and real A5
//! clients as threads on loopback (`game-demo/tests/crowd/mod.rs`, shared with the short test).
//!
//! - `CROWD clients=1|64 ...`: 30 s with one client, then 30 s with 64; every client must receive
//!   the battlefield (positions checked against the deterministic simulation), the 64-client
//!   frame rate within 10 % of the one-client rate, the resident memory flat (sampled every
//!   second once the crowd is in).
//! - `NETBYTES units=13|100|1000 ...`: bytes per client per second, one client for 10 s each.
//!
//! Needs the release binary: `cargo build --release -p modex-demo` first (or `MODEX_BIN=PATH`).
//! `MODEX_CROWD_SECONDS` shortens the runs.

#[path = "../../game-demo/tests/crowd/mod.rs"]
mod crowd;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crowd::{cached_world, check_battlefield, client, client_ip, rss_kib, served, tmp, Server};

fn binary() -> PathBuf {
    if let Some(p) = std::env::var_os("MODEX_BIN") {
        return PathBuf::from(p);
    }
    // target/release/deps/net_crowd-HASH → target/release/modex
    let exe = std::env::current_exe().unwrap();
    let bin = exe.parent().unwrap().parent().unwrap().join("modex");
    assert!(
        bin.exists(),
        "{} missing: run `cargo build --release -p modex-demo` first, or set MODEX_BIN",
        bin.display()
    );
    bin
}

struct Run {
    fps: f64,
    cpu_ms: f64,
    clients: usize,
    bytes_per_client_s: f64,
    rss: Vec<u64>,
}

fn run(units: usize, clients: usize, seconds: f64) -> Run {
    let deadline = Duration::from_secs_f64(seconds * 3.0 + 120.0);
    let out = tmp(&format!("bench-{units}-{clients}"));
    // One second for the crowd to join, then `seconds` with everyone in.
    let frames = ((seconds + 1.0) * 60.0) as u32;
    let mut server = Server::spawn(&binary(), units, frames, &out, &[]);
    server.expect_line("net: serving", deadline);
    let handles: Vec<_> = (0..clients)
        .map(|i| client(client_ip(i, 8), server.addr, 100 + i as i32, deadline))
        .collect();
    for _ in 0..clients {
        server.expect_line("joined", deadline);
    }
    let pid = server.child.id();
    let mut rss = Vec::new();
    let mut next = Instant::now() + Duration::from_secs(1);
    while server.child.try_wait().unwrap().is_none() {
        if Instant::now() >= next {
            if let Some(r) = rss_kib(pid) {
                rss.push(r);
            }
            next += Duration::from_secs(1);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let lines = server.finish(deadline);
    let (fps, cpu_ms, n) = served(&lines);
    let mut bytes = 0.0;
    let mut world = cached_world(units);
    for (i, h) in handles.into_iter().enumerate() {
        let heard = h.join().unwrap();
        check_battlefield(&format!("client {i}"), &heard, units, &mut world);
        bytes += heard.bytes_per_second();
    }
    let _ = std::fs::remove_dir_all(&out);
    Run {
        fps,
        cpu_ms,
        clients: n,
        bytes_per_client_s: bytes / clients as f64,
        rss,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument selects `crowd` or `bytes`.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let want = |name: &str| args.is_empty() || args.iter().any(|a| name.contains(a.as_str()));
    let seconds: f64 = std::env::var("MODEX_CROWD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30.0);
    if want("crowd") {
        let one = run(13, 1, seconds);
        let crowd = run(13, 64, seconds);
        for r in [&one, &crowd] {
            let (first, last, max) = (
                r.rss.first().copied().unwrap_or(0),
                r.rss.last().copied().unwrap_or(0),
                r.rss.iter().copied().max().unwrap_or(0),
            );
            println!(
                "CROWD clients={} units=13 seconds={seconds} fps={:.1} cpu_ms_per_frame={:.2} \
                 bytes_per_client_s={:.0} rss_kib_first={first} rss_kib_last={last} \
                 rss_kib_max={max}",
                r.clients, r.fps, r.cpu_ms, r.bytes_per_client_s
            );
        }
        let ratio = crowd.fps / one.fps;
        println!("CROWD fps_ratio={ratio:.3} (64 clients / 1 client)");
        assert_eq!(crowd.clients, 64);
        assert!(
            ratio >= 0.9,
            "64 clients: {:.1} frames/s, one: {:.1}",
            crowd.fps,
            one.fps
        );
        let (first, last) = (
            crowd.rss[1.min(crowd.rss.len() - 1)],
            *crowd.rss.last().unwrap(),
        );
        assert!(
            last <= first + 4096,
            "resident memory grew from {first} to {last} KiB"
        );
    }
    if want("bytes") {
        for units in [13, 100, 1000] {
            let r = run(units, 1, seconds.min(10.0));
            println!(
                "NETBYTES units={units} clients=1 bytes_per_client_s={:.0} fps={:.1} \
                 cpu_ms_per_frame={:.2}",
                r.bytes_per_client_s, r.fps, r.cpu_ms
            );
        }
    }
}
