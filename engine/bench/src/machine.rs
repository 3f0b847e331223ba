//! The machine a report was measured on: CPU, cores, vector features, memory and load.

use serde::{Deserialize, Serialize};

/// What the report's `machine` object holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// The CPU's model name (`/proc/cpuinfo`), or the architecture when it is not known.
    pub cpu: String,
    /// Logical cores this process may use.
    pub cores: usize,
    /// The vector features modex's kernels can pick at run time (`avx2`, `avx512f`, `neon`, ...).
    pub features: Vec<String>,
    /// Memory in MiB (`/proc/meminfo`), when known.
    pub memory_mib: Option<u64>,
    /// Operating system and architecture.
    pub os: String,
    /// The 1, 5 and 15 minute load averages when the run started and ended: other work on the
    /// machine during the run.
    pub load_start: Option<[f64; 3]>,
    /// See `load_start`.
    pub load_end: Option<[f64; 3]>,
}

/// Logical cores available to this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1, 5 and 15 minute load averages (Linux).
pub fn load() -> Option<[f64; 3]> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = s.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name") || l.starts_with("Model"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

fn memory_mib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = s
        .lines()
        .find(|l| l.starts_with("MemTotal:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024)
}

/// The vector features detected at run time, as the kernels see them.
pub fn features() -> Vec<String> {
    #[allow(unused_mut)]
    let mut f: Vec<&str> = Vec::new();
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        macro_rules! detect {
            ($($name:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($name) {
                    f.push($name);
                }
            )*};
        }
        detect!(
            "sse2", "sse4.1", "sse4.2", "avx", "avx2", "fma", "bmi2", "avx512f", "avx512bw",
            "avx512vl"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            f.push("neon");
        }
        if std::arch::is_aarch64_feature_detected!("sve") {
            f.push("sve");
        }
    }
    f.into_iter().map(String::from).collect()
}

/// This machine, with the load at the start filled in.
pub fn this() -> Machine {
    Machine {
        cpu: cpu_model(),
        cores: cores(),
        features: features(),
        memory_mib: memory_mib(),
        os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        load_start: load(),
        load_end: None,
    }
}
