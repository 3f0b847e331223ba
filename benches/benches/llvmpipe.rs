//! modex against Mesa's llvmpipe (and softpipe) on the raster scenes: `modex bench`'s harness
//! (`modex-bench`) run from cargo, so the figures of `docs/benchmarks.md` and a user's
//! `modex bench` come from the same code (scenes, timing, peer runner, picture check).
//!
//! Run: `cargo bench -p modex-benches --bench llvmpipe` (`MODEX_BENCH_QUICK=1`: 0.25 s per case).
//! Optional arguments keep only those scenes (`fill small100k`); `MODEX_BENCH_PEERS=llvmpipe,softpipe`
//! adds softpipe (llvmpipe alone by default: softpipe's frames are slow). The cases are the raster
//! scenes at 640x480 and 1920x1080, in 565 and 8888 (the formats Mesa draws), on 1 and 2 threads;
//! each peer and thread count runs in its own child process (this bench binary again), modex and
//! the peer alternating frame by frame. The last lines are one
//! `RATIO <scene> <format> <WxH> <threads> modex_ms=<t> llvmpipe_ms=<t> ratio=<llvmpipe/modex>`
//! per case, as before the harness moved (scripts read them); `MODEX_BENCH_JSON=FILE` and
//! `MODEX_BENCH_HTML=FILE` write the reports.

use modex_bench::scenes::{SceneKind, NAMES};
use modex_bench::{Format, Options, Peer, Size};

struct Print;

impl modex_bench::Progress for Print {
    fn begin(&self, steps: u64) {
        println!("{steps} cases");
    }
    fn step(&self, what: &str) {
        println!("done {what}");
    }
    fn notice(&self, line: &str) {
        println!("NOTICE: {line}");
    }
}

fn main() {
    if let Some(code) = modex_bench::serve_if_child() {
        std::process::exit(code);
    }
    let mut filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if filter.is_empty() {
        filter = NAMES
            .iter()
            .filter(|n| n.kind == SceneKind::Raster)
            .map(|n| n.name.to_string())
            .collect();
    }
    let peers = std::env::var("MODEX_BENCH_PEERS")
        .unwrap_or_else(|_| "llvmpipe".into())
        .split(',')
        .filter_map(|p| Peer::ALL.into_iter().find(|k| k.name() == p.trim()))
        .collect();
    let options = Options {
        quick: std::env::var_os("MODEX_BENCH_QUICK").is_some(),
        filter,
        threads: vec![1, 2],
        sizes: Size::STANDARD.to_vec(),
        formats: vec![Format::Argb8888, Format::Rgb565],
        seconds: None,
        peers,
        pictures: std::env::var_os("MODEX_BENCH_HTML").is_some(),
    };
    println!("LOAD at start: {:?}", modex_bench::machine::load());
    let report = match modex_bench::run(&options, &[], &Print) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("llvmpipe bench: {e}");
            std::process::exit(1);
        }
    };
    println!("LOAD at end: {:?}", report.machine.load_end);
    print!("{}", modex_bench::table::table(&report));
    for (var, write) in [("MODEX_BENCH_JSON", true), ("MODEX_BENCH_HTML", false)] {
        if let Some(path) = std::env::var_os(var) {
            let path = std::path::PathBuf::from(path);
            let done = if write {
                report.write_json(&path)
            } else {
                modex_bench::html::write(&report, &path)
            };
            if let Err(e) = done {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    for c in &report.cases {
        match c.peers.get("llvmpipe") {
            Some(p) => println!(
                "RATIO {} {} {} {} modex_ms={:.3} llvmpipe_ms={:.3} ratio={:.2}",
                c.case.scene,
                c.case.format.label(),
                c.case.size.label(),
                c.case.threads,
                p.modex_ms,
                p.ms,
                p.ratio
            ),
            None => println!(
                "MODEX {} {} {} {} modex_ms={:.3}",
                c.case.scene,
                c.case.format.label(),
                c.case.size.label(),
                c.case.threads,
                c.modex_ms
            ),
        }
    }
}
