//! Timing: warm up, then time batches of calls and keep the median ns/op over the batches.

use std::time::{Duration, Instant};

use crate::model::{Mode, Timing};

/// How long to warm up and how to batch.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Calls run (untimed) before measuring; also estimates the cost of one call.
    pub warmup: Duration,
    /// Aimed duration of one timed batch.
    pub batch_time: Duration,
    /// Timed batches.
    pub batches: usize,
}

impl Plan {
    pub fn for_mode(mode: Mode) -> Plan {
        match mode {
            Mode::Quick => Plan {
                warmup: Duration::from_millis(15),
                batch_time: Duration::from_millis(2),
                batches: 7,
            },
            Mode::Full => Plan {
                warmup: Duration::from_millis(100),
                batch_time: Duration::from_millis(5),
                batches: 31,
            },
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count); 0 when empty.
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Times `op`: warms up for `plan.warmup`, sizes batches from the warm-up to last about
/// `plan.batch_time`, and returns the median ns/op over `plan.batches` batches.
pub fn measure(plan: &Plan, mut op: impl FnMut()) -> Timing {
    let start = Instant::now();
    let mut warm = 0u64;
    while warm < 16 || start.elapsed() < plan.warmup {
        op();
        warm += 1;
    }
    let per_op = start.elapsed().as_secs_f64() / warm as f64;
    let batch = ((plan.batch_time.as_secs_f64() / per_op) as u64).clamp(1, 50_000_000);
    let samples: Vec<f64> = (0..plan.batches)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..batch {
                op();
            }
            t.elapsed().as_nanos() as f64 / batch as f64
        })
        .collect();
    Timing {
        ns_per_op: median(&samples),
        batch,
        samples,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[f64::NAN, 5.0]), 5.0);
    }

    #[test]
    fn measure_counts_every_call() {
        let plan = Plan {
            warmup: Duration::from_millis(1),
            batch_time: Duration::from_micros(200),
            batches: 5,
        };
        let mut calls = 0u64;
        let t = measure(&plan, || calls += 1);
        assert_eq!(t.samples.len(), 5);
        assert!(t.batch >= 1);
        assert!(calls >= 16 + 5 * t.batch);
        assert!(t.ns_per_op >= 0.0);
    }
}
