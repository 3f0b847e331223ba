//! What a second thread buys on this machine, before any renderer is involved.
//!
//! Issue 16 asks modex's two-thread frame to be at least 1.7x its one-thread frame on the fill,
//! overdraw and floor scenes. Whether that is possible depends on the two cores a VM gives: two
//! vCPUs may be two physical cores, or two hyperthreads of one core (then vector work barely
//! scales), and they share caches and memory bandwidth with each other and with the host's other
//! guests. The guest cannot see which; this bench measures it. Each probe does a fixed amount of
//! work on one thread, then the same work split in halves over two threads, and prints
//! `CORES <probe> 1t_ms=<t> 2t_ms=<t> scaling=<1t/2t>` (the fastest of several repeats):
//!
//! - `integer`: eight independent multiply-add chains (integer ALU throughput);
//! - `vector`: 64 independent `f32` multiply-adds a step, which the compiler vectorises (the
//!   span kernels' kind of work: SIMD throughput);
//! - `stores_<KB>`: writing a buffer of that size again and again (a 640x480 8888 frame with its
//!   depth row is 2 400 KB, 1920x1080 is 16 200 KB): cache and memory bandwidth.
//!
//! `cargo bench -p modex-benches --bench cores`

use std::hint::black_box;
use std::time::Instant;

/// Eight independent chains of 64-bit multiply-adds, `steps` steps each.
#[inline(never)]
fn integer(steps: u64) -> u64 {
    let mut chains = [1u64, 2, 3, 4, 5, 6, 7, 8];
    for i in 0..steps {
        for c in chains.iter_mut() {
            *c = c.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(i);
        }
    }
    chains.iter().fold(0, |s, c| s ^ c)
}

/// 64 independent `f32` lanes, `steps` multiply-adds each.
#[inline(never)]
fn vector(steps: u64) -> f32 {
    let mut lanes = [1.0f32; 64];
    for _ in 0..steps {
        for l in lanes.iter_mut() {
            *l = *l * 0.999_999 + 0.000_001;
        }
    }
    lanes.iter().sum()
}

/// Write every word of `buffer`, `passes` times.
#[inline(never)]
fn stores(buffer: &mut [u32], passes: usize) {
    for pass in 0..passes {
        buffer.fill(pass as u32);
        black_box(&mut *buffer);
    }
}

/// Fastest wall-clock seconds of one thread per element of `state` each running `work` on its
/// own element once, over 9 repeats. The state (the stores' buffers) is made and touched before
/// the clock starts, so page faults are not timed.
fn fastest<S: Send>(state: &mut [S], work: impl Fn(&mut S) + Sync) -> f64 {
    (0..9)
        .map(|_| {
            let t = Instant::now();
            std::thread::scope(|s| {
                for each in state.iter_mut() {
                    let work = &work;
                    s.spawn(move || work(each));
                }
            });
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn report(probe: &str, one: f64, two: f64) {
    println!(
        "CORES {probe} 1t_ms={:.2} 2t_ms={:.2} scaling={:.2}",
        one * 1e3,
        two * 1e3,
        one / two
    );
}

/// Report `work` for `steps` steps on one thread against `steps / 2` on each of two.
fn report_steps<T>(probe: &str, steps: u64, work: fn(u64) -> T) {
    let run = |&mut n: &mut u64| {
        black_box(work(black_box(n)));
    };
    report(
        probe,
        fastest(&mut [steps], run),
        fastest(&mut [steps / 2; 2], run),
    );
}

fn main() {
    report_steps("integer", 40_000_000, integer);
    report_steps("vector", 20_000_000, vector);
    for kb in [600usize, 2_400, 16_200] {
        let words = kb * 1024 / 4;
        let passes = (800_000_000 / words).max(1);
        let mut whole = [vec![1u32; words]];
        let mut halves = [vec![1u32; words / 2], vec![1u32; words / 2]];
        report(
            &format!("stores_{kb}"),
            fastest(&mut whole, |b| stores(b, passes)),
            fastest(&mut halves, |b| stores(b, passes)),
        );
    }
}
