//! The page's code drawing natively on one thread: the native side of the page's frame-time
//! measurement in docs/benchmarks.md ("Web"). `web/e2e/bench.mjs` runs it beside the page on the
//! same files and view, so both sides are measured in one run.
//!
//! `cargo run --release -p modex-web --example frame_time -- WxH YAW PITCH FORMAT FACING BATCHES FILE...`
//! prints `NATIVE open_ms=<ms> frame_ms=<ms> min_ms=<ms> batches=<n> means=<ms>,<ms>,...` for the
//! first showable file: `frame_ms` is the median over BATCHES batches of one batch's mean draw
//! time, `min_ms` the lowest, `means` every batch's mean in the order drawn (the benchmark pools
//! them with the page's, docs/benchmarks.md "Web").

use std::time::Instant;

use modex::TargetFormat;
use modex_web::{Page, View};

/// Draws per timed batch.
const BATCH: usize = 20;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 7 {
        eprintln!("usage: frame_time WxH YAW PITCH FORMAT FACING BATCHES FILE...");
        std::process::exit(2);
    }
    let (w, h) = args[0].split_once('x').expect("size is WxH");
    let view = View {
        size: (w.parse().expect("width"), h.parse().expect("height")),
        yaw: Some(args[1].parse().expect("yaw")),
        pitch: Some(args[2].parse().expect("pitch")),
        format: Some(TargetFormat::from_name(&args[3]).expect("format is 8, 565, 4444 or 8888")),
        facing: args[4].parse().expect("facing"),
        ..View::default()
    };
    let draws: usize = args[5].parse().expect("batches");
    let mut page = Page::default();
    for path in &args[6..] {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        page.dropped.insert(path, bytes);
    }
    let t0 = Instant::now();
    page.open("").unwrap_or_else(|e| panic!("open: {e}"));
    let open_ms = t0.elapsed().as_secs_f64() * 1e3;
    // One pool of one thread for every draw, as `modex render --threads 1` has for its one draw
    // (Page::draw's own `with_threads(1)` then runs on it). Batches of BATCH draws, timed whole,
    // as the page times them (its clock is coarse); the median batch's mean is printed.
    let means: Vec<f64> = modex::with_threads(1, || {
        (0..draws.max(1))
            .map(|_| {
                let t = Instant::now();
                for _ in 0..BATCH {
                    page.draw(&view).unwrap_or_else(|e| panic!("draw: {e}"));
                }
                t.elapsed().as_secs_f64() * 1e3 / BATCH as f64
            })
            .collect()
    })
    .expect("a pool of one thread");
    let mut sorted = means.clone();
    sorted.sort_by(f64::total_cmp);
    let listed: Vec<String> = means.iter().map(|m| format!("{m:.4}")).collect();
    println!(
        "NATIVE open_ms={open_ms:.3} frame_ms={:.3} min_ms={:.3} batches={} means={}",
        sorted[sorted.len() / 2],
        sorted[0],
        sorted.len(),
        listed.join(",")
    );
}
