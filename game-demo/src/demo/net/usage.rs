//! What the serving process uses, from /proc (Linux; `None` elsewhere): CPU time for the server's
//! closing line.

/// Clock ticks per second of /proc's times (`USER_HZ`, 100 on every Linux architecture the
/// project builds for).
const TICKS_PER_SECOND: f64 = 100.0;

/// CPU seconds (user + system) the process has used so far, every thread counted.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after its ')' start at field 3.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / TICKS_PER_SECOND)
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_grows_with_work() {
        let Some(before) = super::cpu_seconds() else {
            println!("skipped: no /proc/self/stat");
            return;
        };
        // Busy until the process has used 50 ms more CPU (on a loaded machine that takes longer
        // than 50 ms of wall time), or give up after 20 s.
        let start = std::time::Instant::now();
        let mut x = 0u64;
        let mut after = before;
        while after - before < 0.05 && start.elapsed().as_secs() < 20 {
            for _ in 0..1_000_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            after = super::cpu_seconds().unwrap();
        }
        std::hint::black_box(x);
        assert!(after - before >= 0.05, "{before} -> {after}");
    }
}
