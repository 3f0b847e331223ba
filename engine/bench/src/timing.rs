//! How frames are timed: a warm-up, then the renderers' frames alternating until the case's time
//! is up, and the samples summarised by quantiles.
//!
//! Alternating one modex frame with one peer frame makes load from other processes (and the
//! machine's clock changes) hit both alike, so their ratio holds on a shared machine even when the
//! absolute times do not. The median is the figure; p10 and p90 give the spread, which the
//! baseline comparison uses to say whether a change is more than noise.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// The summary of one renderer's frame times in one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Timed frames.
    pub frames: usize,
    /// Median milliseconds per frame.
    pub median_ms: f64,
    /// 10th percentile.
    pub p10_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// Fastest frame.
    pub min_ms: f64,
    /// Slowest frame.
    pub max_ms: f64,
    /// The 0th, 10th, ... 100th percentiles (11 values): the distribution the report charts.
    pub deciles_ms: Vec<f64>,
}

/// The `q` quantile (0..=1) of sorted samples, by linear interpolation between closest ranks.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

impl Summary {
    /// The summary of `samples` (milliseconds; at least one).
    pub fn of(samples: &[f64]) -> Summary {
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        Summary {
            frames: s.len(),
            median_ms: quantile(&s, 0.5),
            p10_ms: quantile(&s, 0.1),
            p90_ms: quantile(&s, 0.9),
            min_ms: s.first().copied().unwrap_or(f64::NAN),
            max_ms: s.last().copied().unwrap_or(f64::NAN),
            deciles_ms: (0..=10).map(|i| quantile(&s, i as f64 / 10.0)).collect(),
        }
    }
}

/// How long a case runs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// Timed frames stop once this much time has passed...
    pub time: Duration,
    /// ...and at least this many frames of each renderer were timed.
    pub min_frames: usize,
    /// Untimed frames of each renderer first (llvmpipe compiles its shaders on the first draws).
    pub warm_up: usize,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Time `modex` alone: the warm-up, then frames until the budget is spent.
pub fn alone(budget: &Budget, mut modex: impl FnMut()) -> Vec<f64> {
    for _ in 0..budget.warm_up {
        modex();
    }
    let mut t = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget.time || t.len() < budget.min_frames {
        let s = Instant::now();
        modex();
        t.push(ms(s.elapsed()));
    }
    t
}

/// Time `modex` and `peer` frame by frame in turn: the warm-up of both, then one frame of each
/// until the budget is spent. Returns both renderers' frame times.
pub fn alternating(
    budget: &Budget,
    mut modex: impl FnMut(),
    mut peer: impl FnMut(),
) -> (Vec<f64>, Vec<f64>) {
    for _ in 0..budget.warm_up {
        modex();
        peer();
    }
    let (mut tm, mut tp) = (Vec::new(), Vec::new());
    let start = Instant::now();
    while start.elapsed() < budget.time || tm.len() < budget.min_frames {
        let s = Instant::now();
        modex();
        tm.push(ms(s.elapsed()));
        let s = Instant::now();
        peer();
        tp.push(ms(s.elapsed()));
    }
    (tm, tp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_ranks() {
        let s = Summary::of(&[5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!(s.frames, 5);
        assert_eq!(s.median_ms, 3.0);
        assert_eq!((s.min_ms, s.max_ms), (1.0, 5.0));
        assert!((s.p10_ms - 1.4).abs() < 1e-9);
        assert!((s.p90_ms - 4.6).abs() < 1e-9);
        assert_eq!(s.deciles_ms.len(), 11);
        assert_eq!(s.deciles_ms[5], s.median_ms);
    }

    #[test]
    fn alternating_frames_interleave_and_meet_the_minimum() {
        let order = std::cell::RefCell::new(Vec::new());
        let b = Budget {
            time: Duration::ZERO,
            min_frames: 3,
            warm_up: 1,
        };
        let (m, p) = alternating(
            &b,
            || order.borrow_mut().push('m'),
            || order.borrow_mut().push('p'),
        );
        assert_eq!((m.len(), p.len()), (3, 3));
        assert_eq!(
            order.into_inner(),
            vec!['m', 'p', 'm', 'p', 'm', 'p', 'm', 'p']
        );
    }
}
