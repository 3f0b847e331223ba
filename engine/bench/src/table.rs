//! The table `modex bench` prints on stdout: one row per case.

use std::fmt::Write;

use crate::report::Report;

/// `v` with three significant digits (0.00215, 2.15, 215).
pub fn significant(v: f64) -> String {
    let digits = if v == 0.0 || !v.is_finite() {
        2
    } else {
        (2 - v.abs().log10().floor() as i32).clamp(0, 6) as usize
    };
    format!("{v:.digits$}")
}

/// The report as a plain-text table: median ms, p10/p90, Mpixels/s written, Mtriangles/s, and per
/// peer its ms, the ratio (peer ms / modex ms; above 1 modex is faster) and the picture check.
pub fn table(r: &Report) -> String {
    let peers: Vec<String> = {
        let mut p: Vec<String> = r
            .cases
            .iter()
            .flat_map(|c| c.peers.keys().cloned())
            .collect();
        p.sort();
        p.dedup();
        p
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "{:<16} {:>4} {:>9} {:>3} {:>9} {:>17} {:>9} {:>8}",
        "scene", "fmt", "size", "thr", "modex ms", "p10..p90 ms", "Mpix/s", "Mtri/s"
    );
    for p in &peers {
        let _ = write!(
            out,
            " {:>11} {:>6} {:>4}",
            format!("{p} ms"),
            "ratio",
            "pic"
        );
    }
    out.push('\n');
    for c in &r.cases {
        let _ = write!(
            out,
            "{:<16} {:>4} {:>9} {:>3} {:>9.3} {:>17} {:>9.1} {:>8}",
            c.case.scene,
            c.case.format.label(),
            c.case.size.label(),
            c.case.threads,
            c.modex_ms,
            format!("{:.3}..{:.3}", c.p10_ms, c.p90_ms),
            c.mpixels_s,
            c.mtriangles_s.map_or("-".into(), significant),
        );
        for p in &peers {
            match c.peers.get(p) {
                Some(x) => {
                    let _ = write!(
                        out,
                        " {:>11.3} {:>6.2} {:>4}",
                        x.ms,
                        x.ratio,
                        if x.same_picture { "same" } else { "DIFF" }
                    );
                }
                None => {
                    let _ = write!(out, " {:>11} {:>6} {:>4}", "-", "-", "");
                }
            }
        }
        out.push('\n');
    }
    out
}
