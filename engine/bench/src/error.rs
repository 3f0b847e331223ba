//! What can go wrong in a run, named for the user.

use std::path::PathBuf;

/// A benchmark run's error.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A command-line value out of range or malformed.
    #[error("{option} {value:?}: expected {expected}")]
    Option {
        /// The flag, e.g. `--sizes`.
        option: &'static str,
        /// What was given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// `--filter` named no scene of the suite.
    #[error("--filter: no scene is called {name:?} (the scenes: {known})")]
    UnknownScene {
        /// The name given.
        name: String,
        /// The suite's names.
        known: String,
    },
    /// A scene could not be built (a sample file that does not parse, ...).
    #[error("scene {scene}: {message}")]
    Scene {
        /// The scene's name.
        scene: String,
        /// Why.
        message: String,
    },
    /// The child process of a peer and thread count could not be started.
    #[error("cannot start {exe} as the benchmark's child process: {source}")]
    Spawn {
        /// The binary re-executed.
        exe: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A child process ended without its results.
    #[error("the {what} run failed ({status}){stderr}")]
    Child {
        /// Which peer and thread count.
        what: String,
        /// Its exit status.
        status: String,
        /// The end of what it printed on stderr.
        stderr: String,
    },
    /// A child's line could not be read as a result.
    #[error("the benchmark's child process sent {line:?}, which is not a result line: {source}")]
    Protocol {
        /// The line.
        line: String,
        /// Why it does not parse.
        source: serde_json::Error,
    },
    /// The job given to a child process does not parse (a parent of another version).
    #[error("the benchmark job in ${var} does not parse: {source}")]
    Job {
        /// The environment variable.
        var: &'static str,
        /// Why.
        source: serde_json::Error,
    },
    /// A file could not be read.
    #[error("reading {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("writing {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// `--baseline` is not a report of this benchmark.
    #[error("{path} is not a modex bench JSON report: {source}")]
    Baseline {
        /// The file.
        path: PathBuf,
        /// Why it does not parse.
        source: serde_json::Error,
    },
    /// A chart of the HTML report could not be drawn.
    #[error("drawing the chart {chart}: {message}")]
    Chart {
        /// Which chart.
        chart: String,
        /// Why.
        message: String,
    },
    /// A picture could not be encoded as PNG.
    #[error("encoding a picture as PNG: {0}")]
    Png(#[from] png::EncodingError),
}
