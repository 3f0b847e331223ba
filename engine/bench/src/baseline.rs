//! `--baseline OLD.json`: each case's change against an earlier report.
//!
//! A change is marked significant only when it is outside both runs' spread: the new median lies
//! outside the old run's p10..p90 and the old median outside the new run's. Frame times on a
//! shared machine move by more than the median's own error, and a change inside that band is
//! noise whatever its size.

use std::fmt::Write;

use crate::report::{Baseline, CaseReport, Change, Report};

fn outside(ms: f64, run: &CaseReport) -> bool {
    ms < run.p10_ms || ms > run.p90_ms
}

/// The changes from `old` (read from `file`) to `new`.
pub fn compare(file: &str, old: &Report, new: &Report) -> Baseline {
    let changes = new
        .cases
        .iter()
        .filter_map(|n| {
            let o = old.case(&n.case)?;
            Some(Change {
                case: n.case.clone(),
                old_ms: o.modex_ms,
                new_ms: n.modex_ms,
                change_pct: (n.modex_ms - o.modex_ms) / o.modex_ms * 100.0,
                significant: outside(n.modex_ms, o) && outside(o.modex_ms, n),
            })
        })
        .collect();
    Baseline {
        file: file.to_string(),
        commit: old.modex.commit.clone(),
        started: old.run.started.clone(),
        changes,
    }
}

/// The changes as text, one line per case.
pub fn table(b: &Baseline) -> String {
    let mut out = format!(
        "against {} (modex {}, {}); significant: outside both runs' p10..p90\n",
        b.file, b.commit, b.started
    );
    for c in &b.changes {
        let _ = writeln!(
            out,
            "{:<32} {:>9.3} -> {:>9.3} ms {:>+7.1} %{}",
            c.case.id(),
            c.old_ms,
            c.new_ms,
            c.change_pct,
            if c.significant {
                if c.change_pct < 0.0 {
                    "  faster"
                } else {
                    "  SLOWER"
                }
            } else {
                ""
            }
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{Case, Format, Size};

    fn case(ms: f64, p10: f64, p90: f64) -> CaseReport {
        CaseReport {
            case: Case {
                scene: "fill".into(),
                format: Format::Argb8888,
                size: Size::new(64, 48),
                threads: 1,
            },
            modex_ms: ms,
            p10_ms: p10,
            p90_ms: p90,
            frames: 10,
            deciles_ms: vec![ms; 11],
            pixels: 1,
            triangles: None,
            mpixels_s: 0.0,
            mtriangles_s: None,
            source: String::new(),
            peers: Default::default(),
        }
    }

    #[test]
    fn only_changes_outside_both_spreads_are_significant() {
        let sig = |old: CaseReport, new: CaseReport| {
            let c = |r: CaseReport| Report {
                cases: vec![r],
                ..crate::report::tests::empty()
            };
            compare("old.json", &c(old), &c(new)).changes[0].significant
        };
        assert!(sig(case(10.0, 9.5, 10.5), case(8.0, 7.8, 8.3)));
        // The new median is inside the old spread: noise.
        assert!(!sig(case(10.0, 7.0, 13.0), case(8.0, 7.8, 8.3)));
        // The old median is inside the new spread: noise.
        assert!(!sig(case(10.0, 9.5, 10.5), case(8.0, 6.0, 11.0)));
    }
}
