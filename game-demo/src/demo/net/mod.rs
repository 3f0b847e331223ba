//! The two networked demos (`modex demo --serve` / `--connect`) over the A5 protocol of the
//! `modex-net` crate.

pub mod session;
mod units;
