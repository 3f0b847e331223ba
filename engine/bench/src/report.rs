//! The report: what `--json` writes and `--html`, the table and `--baseline` read.
//!
//! The keys scripts rely on (issue 42) are kept exactly: `machine.cpu`, `machine.cores`,
//! `machine.features`, `modex.version`, and `cases[]` with `scene`, `format`, `size` ("WxH"),
//! `threads`, `modex_ms` (median), `p10_ms`, `p90_ms` and `peers.llvmpipe` / `peers.softpipe`,
//! each with `ms`, `ratio` (peer ms / modex ms) and `same_picture`. Everything else is added
//! beside them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::case::Case;
use crate::error::BenchError;
use crate::machine::Machine;

/// The report's format version: raised when a key changes meaning or goes away.
pub const SCHEMA: u32 = 1;

/// A whole run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`SCHEMA`] of the writer.
    pub schema: u32,
    /// Where it ran.
    pub machine: Machine,
    /// What ran.
    pub modex: ModexInfo,
    /// Each peer's `GL_RENDERER` and `GL_VERSION` (empty without OSMesa).
    pub mesa: BTreeMap<String, MesaInfo>,
    /// How it ran.
    pub run: RunInfo,
    /// Every case, in the table's order.
    pub cases: Vec<CaseReport>,
    /// The comparison with `--baseline`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<Baseline>,
    /// The pictures at 640x480 (the HTML report's; not written to the JSON).
    #[serde(skip)]
    pub pictures: Vec<Pictures>,
}

/// The modex build measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModexInfo {
    /// The crate version.
    pub version: String,
    /// The git commit it was built from (`-dirty` with uncommitted changes; `unknown` outside git).
    pub commit: String,
    /// `rustc --version` of the build.
    pub rustc: String,
    /// `release` or `debug` (a debug build's times say nothing about modex's speed).
    pub build: String,
}

impl ModexInfo {
    /// This build.
    pub fn this() -> ModexInfo {
        ModexInfo {
            version: env!("CARGO_PKG_VERSION").into(),
            commit: env!("MODEX_BENCH_COMMIT").into(),
            rustc: env!("MODEX_BENCH_RUSTC").into(),
            build: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }
            .into(),
        }
    }
}

/// One Mesa driver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MesaInfo {
    /// `GL_RENDERER`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub renderer: String,
    /// `GL_VERSION`, e.g. `4.5 (Compatibility Profile) Mesa 22.3.6`.
    pub version: String,
}

/// The run's settings and what it said along the way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// When it started, UTC, `YYYY-MM-DDTHH:MM:SSZ`.
    pub started: String,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// `--quick`.
    pub quick: bool,
    /// Seconds of timed frames per case and child.
    pub seconds_per_case: f64,
    /// The command line's words after `bench`, for repeating it.
    pub arguments: Vec<String>,
    /// Notices: stand-ins for missing samples, a missing OSMesa, ...
    pub notices: Vec<String>,
}

/// One case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseReport {
    /// Scene, format, size and threads.
    #[serde(flatten)]
    pub case: Case,
    /// Median ms per modex frame over every child that measured the case.
    pub modex_ms: f64,
    /// 10th percentile.
    pub p10_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// Timed modex frames.
    pub frames: usize,
    /// The 0th, 10th, ... 100th percentiles of modex's frame times.
    pub deciles_ms: Vec<f64>,
    /// Pixels written per frame (covered pixels times overdraw layers; the cutscene: the picture).
    pub pixels: u64,
    /// Triangles submitted per frame (raster scenes).
    pub triangles: Option<u64>,
    /// Millions of pixels written per second at the median.
    pub mpixels_s: f64,
    /// Millions of triangles per second at the median (raster scenes).
    pub mtriangles_s: Option<f64>,
    /// Where the scene's model came from.
    pub source: String,
    /// Each peer beside modex, by name (`llvmpipe`, `softpipe`).
    pub peers: BTreeMap<String, PeerReport>,
}

/// A peer in one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeerReport {
    /// The peer's median ms per frame.
    pub ms: f64,
    /// 10th percentile.
    pub p10_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// Timed frames.
    pub frames: usize,
    /// The 0th, 10th, ... 100th percentiles.
    pub deciles_ms: Vec<f64>,
    /// Peer ms / modex ms, both medians of the same child's alternating frames (above 1: modex
    /// is faster).
    pub ratio: f64,
    /// modex's median in that child (the ratio's denominator).
    pub modex_ms: f64,
    /// The format the peer drew into (Mesa has no 8-bit or 4444 buffer: 8888 then).
    pub format: String,
    /// The picture check passed.
    pub same_picture: bool,
    /// Pixels modex drew.
    pub covered_modex: usize,
    /// Pixels the peer drew.
    pub covered_peer: usize,
    /// Their difference, percent of modex's.
    pub coverage_diff_pct: f64,
    /// Mean absolute colour difference per channel over pixels both drew (out of 255).
    pub colour_diff: f64,
}

/// The comparison with an earlier report (`--baseline`, made by the `baseline` module).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// The file compared with.
    pub file: String,
    /// Its modex commit.
    pub commit: String,
    /// When it was measured.
    pub started: String,
    /// Every case both reports have.
    pub changes: Vec<Change>,
}

/// One case in both reports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Change {
    /// Which case.
    #[serde(flatten)]
    pub case: Case,
    /// The earlier median.
    pub old_ms: f64,
    /// This run's median.
    pub new_ms: f64,
    /// (new - old) / old, percent: negative is faster.
    pub change_pct: f64,
    /// Outside both runs' p10..p90.
    pub significant: bool,
}

/// The pictures of one case: modex's and each peer's, PNG in base64.
#[derive(Debug, Clone, PartialEq)]
pub struct Pictures {
    /// Which case.
    pub case: Case,
    /// modex's picture.
    pub modex: String,
    /// Each peer's, by name.
    pub peers: BTreeMap<String, String>,
}

impl Report {
    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports serialise")
    }

    /// Write the JSON to `path`.
    pub fn write_json(&self, path: &Path) -> Result<(), BenchError> {
        std::fs::write(path, self.to_json() + "\n").map_err(|source| BenchError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Read a JSON report (a `--baseline`).
    pub fn read_json(path: &Path) -> Result<Report, BenchError> {
        let text = std::fs::read_to_string(path).map_err(|source| BenchError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|source| BenchError::Baseline {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The case of `id` (`scene/format/WxH/threads`).
    pub fn case(&self, case: &Case) -> Option<&CaseReport> {
        self.cases.iter().find(|c| &c.case == case)
    }
}

/// `secs` since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (the civil-from-days algorithm).
pub fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A report without cases.
    pub(crate) fn empty() -> Report {
        Report {
            schema: SCHEMA,
            machine: crate::machine::this(),
            modex: ModexInfo::this(),
            mesa: BTreeMap::new(),
            run: RunInfo {
                started: utc(0),
                seconds: 0.0,
                quick: true,
                seconds_per_case: 0.0,
                arguments: Vec::new(),
                notices: Vec::new(),
            },
            cases: Vec::new(),
            baseline: None,
            pictures: Vec::new(),
        }
    }

    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(super::utc(1_796_564_554), "2026-12-06T13:42:34Z");
    }
}
