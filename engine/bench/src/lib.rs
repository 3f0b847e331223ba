//! `modex bench`: the software-rasterization benchmark a user runs on their own machine, side by
//! side with Mesa's llvmpipe and softpipe, and the harness the `cargo bench` benches share.
//!
//! One library so that the figures in `docs/benchmarks.md`, the `cargo bench` output and a user's
//! `modex bench` come from the same code: the scenes ([`scenes`]), the timing method ([`timing`]:
//! warm-up, alternating frames, medians and p10/p90), the peers through OSMesa loaded at run time
//! ([`peer`], [`osmesa`]), the picture check ([`check`]), one child process per peer and thread
//! count ([`child`], because Mesa reads `GALLIUM_DRIVER` and `LP_NUM_THREADS` once per process),
//! and the reports ([`report`] as JSON, [`table`] as text, [`html`] with charts and pictures,
//! [`baseline`] against an earlier JSON). The progress bar and the command line are the binary's
//! (`game-demo`), which implements [`Progress`].
//!
//! A binary that runs the benchmark must call [`serve_if_child`] first in its `main`: the children
//! are that same binary.

pub mod baseline;
pub mod case;
pub mod check;
pub mod child;
pub mod error;
pub mod html;
pub mod machine;
pub mod osmesa;
pub mod peer;
pub mod plan;
pub mod report;
pub mod run;
pub mod samples;
pub mod scenes;
pub mod table;
pub mod timing;

pub use case::{Case, Format, Size};
pub use child::serve_if_child;
pub use error::BenchError;
pub use peer::Peer;
pub use plan::Options;
pub use report::Report;
pub use run::{run, Progress, Silent};
