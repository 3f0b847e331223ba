//! What a run measures: the options a user gives (`--quick`, `--filter`, `--threads`, `--sizes`,
//! `--formats`, `--seconds`) and the cases they expand to.

use std::time::Duration;

use crate::case::{Case, Format, Size};
use crate::error::BenchError;
use crate::scenes::{self, SceneKind};

/// What the user asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// A short run: [`Options::QUICK_SECONDS`] per case instead of [`Options::FULL_SECONDS`].
    pub quick: bool,
    /// Keep only the scenes whose name is one of these (empty: every scene).
    pub filter: Vec<String>,
    /// Thread counts (empty: 1 and every core).
    pub threads: Vec<usize>,
    /// Frame sizes (empty: [`Size::STANDARD`]).
    pub sizes: Vec<Size>,
    /// Pixel formats (empty: [`Format::ALL`]).
    pub formats: Vec<Format>,
    /// Seconds of timed frames per case and renderer pair (`None`: by `quick`).
    pub seconds: Option<f64>,
    /// Which Mesa drivers to run beside modex (empty: none).
    pub peers: Vec<crate::peer::Peer>,
    /// Keep the pictures of modex and the peers at [`Size::PICTURES`] for the HTML report.
    pub pictures: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            quick: false,
            filter: Vec::new(),
            threads: Vec::new(),
            sizes: Vec::new(),
            formats: Vec::new(),
            seconds: None,
            peers: crate::peer::Peer::ALL.to_vec(),
            pictures: true,
        }
    }
}

impl Options {
    /// Seconds per case of a full run.
    pub const FULL_SECONDS: f64 = 1.0;
    /// Seconds per case of a quick run.
    pub const QUICK_SECONDS: f64 = 0.25;

    /// How long each case draws timed frames (both renderers together).
    pub fn budget(&self) -> Result<Duration, BenchError> {
        let s = self.seconds.unwrap_or(if self.quick {
            Options::QUICK_SECONDS
        } else {
            Options::FULL_SECONDS
        });
        Duration::try_from_secs_f64(s).map_err(|_| BenchError::Option {
            option: "--seconds",
            value: s.to_string(),
            expected: "a non-negative number of seconds",
        })
    }

    /// The thread counts to run: as given, else 1 and every core; sorted, without repeats.
    pub fn thread_counts(&self) -> Result<Vec<usize>, BenchError> {
        let mut t = if self.threads.is_empty() {
            vec![1, crate::machine::cores()]
        } else {
            self.threads.clone()
        };
        if let Some(&bad) = t.iter().find(|&&n| n == 0 || n > 256) {
            return Err(BenchError::Option {
                option: "--threads",
                value: bad.to_string(),
                expected: "thread counts from 1 to 256",
            });
        }
        t.sort_unstable();
        t.dedup();
        Ok(t)
    }

    /// Every case of the run, in the order they are measured and tabled.
    pub fn cases(&self) -> Result<Vec<Case>, BenchError> {
        let threads = self.thread_counts()?;
        let sizes = if self.sizes.is_empty() {
            Size::STANDARD.to_vec()
        } else {
            self.sizes.clone()
        };
        let formats = if self.formats.is_empty() {
            Format::ALL.to_vec()
        } else {
            self.formats.clone()
        };
        let names = scenes::NAMES;
        for f in &self.filter {
            if !names
                .iter()
                .any(|n| n.name == f || n.aliases.contains(&f.as_str()))
            {
                return Err(BenchError::UnknownScene {
                    name: f.clone(),
                    known: names.iter().map(|n| n.name).collect::<Vec<_>>().join(", "),
                });
            }
        }
        let mut out = Vec::new();
        for info in names {
            let wanted = self.filter.is_empty()
                || self
                    .filter
                    .iter()
                    .any(|f| info.name == f || info.aliases.contains(&f.as_str()));
            if !wanted {
                continue;
            }
            // A scene with a size of its own (the cutscene's 360x240) and one format runs once
            // per thread count it can use.
            let scene_sizes = match info.fixed_size {
                Some(s) => vec![s],
                None => sizes.clone(),
            };
            let scene_formats: Vec<Format> = match info.kind {
                SceneKind::Cutscene => vec![Format::Indexed8],
                _ => formats.clone(),
            };
            let scene_threads: Vec<usize> = if info.threaded {
                threads.clone()
            } else {
                vec![1]
            };
            for &size in &scene_sizes {
                for &format in &scene_formats {
                    for &t in &scene_threads {
                        out.push(Case {
                            scene: info.name.to_string(),
                            format,
                            size,
                            threads: t,
                        });
                    }
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_keeps_named_scenes_and_refuses_unknown_ones() {
        let o = Options {
            filter: vec!["fill".into(), "cutscene".into()],
            threads: vec![2, 1, 2],
            sizes: vec![Size::new(64, 48)],
            ..Options::default()
        };
        let cases = o.cases().unwrap();
        // fill: 4 formats x 2 thread counts; the cutscene: one format, one thread, its own size.
        assert_eq!(cases.len(), 9);
        assert!(cases
            .iter()
            .all(|c| c.scene == "fill" || c.scene == "cutscene"));
        let cut: Vec<_> = cases.iter().filter(|c| c.scene == "cutscene").collect();
        assert_eq!(cut.len(), 1);
        assert_eq!(cut[0].size, Size::new(360, 240));
        let o = Options {
            filter: vec!["nope".into()],
            ..Options::default()
        };
        assert!(matches!(o.cases(), Err(BenchError::UnknownScene { .. })));
    }
}
