//! `modex demo --headless --bench`: the battlefield as a benchmark.
//!
//! Every case runs the same simulation as the demo (a world stepped once per frame) and draws it,
//! without writing PNGs, for a fixed wall-clock budget, then prints one line:
//! `BENCH units=<n> size=<WxH> path=<8|8888> threads=<t> fps=<f>`. The cases are the product of the
//! unit counts, the frame sizes, both draw paths and 1 and 2 threads, so the table shows how the
//! cost grows with units and with pixels and what the second core buys (docs/benchmarks.md).
//!
//! At 1000 units with levels of detail on, each frame size also prints
//! `LODERROR coverage=<%> colour=<steps>` after its cases: the units drawn with levels of detail
//! against the same units drawn exactly (`lod_error.rs`).
//!
//! Each case starts from the same world (a copy taken before the first case), so the numbers of one
//! run compare like with like. One untimed frame first builds the thread pool's workers and touches
//! every buffer, so start-up costs are not counted as drawing.

use std::time::{Duration, Instant};

use anyhow::Result;
use modex_demo::scene::assets::Assets;
use modex_demo::scene::{DrawPath, FrameStats, SceneRenderer, World};
use modex_voxel::Lod;

use crate::cli::{parse_size, DemoArgs};

/// The unit count whose cases also print the `LODERROR` line (`lod_error.rs`).
const LOD_ERROR_UNITS: usize = 1000;

/// Thread counts every case runs with.
const THREADS: [usize; 2] = [1, 2];
/// Draw paths every case runs, with the name the BENCH line gives them.
const PATHS: [(DrawPath, &str); 2] = [(DrawPath::Indexed, "8"), (DrawPath::TrueColour, "8888")];

/// One measured case.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Units in the world.
    pub units: usize,
    /// Frame width and height.
    pub size: (usize, usize),
    /// `8` or `8888`.
    pub path: &'static str,
    /// Worker threads of the pool the frame was drawn on.
    pub threads: usize,
    /// Frames drawn in the timed part.
    pub frames: u64,
    /// Frames per second (simulation step + draw).
    pub fps: f64,
}

impl Measured {
    /// The case's line, in the exact form the issue asks for.
    pub fn line(&self) -> String {
        format!(
            "BENCH units={} size={}x{} path={} threads={} fps={:.1}",
            self.units, self.size.0, self.size.1, self.path, self.threads, self.fps
        )
    }
}

/// Run the bench the arguments describe, printing each case's line as soon as it is measured.
pub fn run(assets: &Assets, args: &DemoArgs, new_world: impl Fn(usize) -> World) -> Result<()> {
    let sizes = args
        .bench_sizes
        .iter()
        .map(|s| parse_size(s))
        .collect::<Result<Vec<_>>>()?;
    anyhow::ensure!(
        args.bench_seconds.is_finite() && args.bench_seconds >= 0.0,
        "--bench-seconds must be a non-negative number of seconds"
    );
    let budget = Duration::from_secs_f64(args.bench_seconds);
    let filter = CaseFilter::parse(&args.bench_case)?;
    filter.ensure_some_case(&args.bench_units, &sizes)?;
    log::info!(
        "bench: {} s per case; load average {}",
        args.bench_seconds,
        load_average().unwrap_or_else(|| "unknown".into())
    );
    for &units in &args.bench_units {
        if !filter.any_with(units, &sizes) {
            continue;
        }
        let start_world = new_world(units);
        for &(width, height) in &sizes {
            if !filter.any_at(units, (width, height)) {
                continue;
            }
            let mut scene = SceneRenderer::new(assets, width, height);
            scene.view.orthographic = args.orthographic;
            scene.lod = args.lod.into();
            scene.set_cache(args.cache_mib << 20);
            for (path, path_name) in PATHS {
                for threads in THREADS {
                    if !filter.accepts(units, (width, height), path_name, threads) {
                        continue;
                    }
                    let mut world = start_world.clone();
                    let (frames, elapsed, last) = modex::with_threads(threads, || {
                        run_case(&mut scene, &mut world, path, budget)
                    })??;
                    let m = Measured {
                        units,
                        size: (width, height),
                        path: path_name,
                        threads,
                        frames,
                        fps: frames as f64 / elapsed.as_secs_f64().max(1e-9),
                    };
                    println!("{}", m.line());
                    // What the last frame did, on stderr so stdout stays the BENCH lines: how the
                    // cost splits between the renderers and how many rays the units took.
                    let c = scene.cache_stats();
                    log::info!(
                        "{} frames; last frame: terrain+props {:.1} ms, units {:.1} ms, {} limbs, {} rays; \
                         draw cache {} hits, {} misses, {} direct, {} entries, {:.1} MiB, {} pixels blitted",
                        frames,
                        last.raster_ms,
                        last.voxel_ms,
                        last.drawn.limbs,
                        last.drawn.rays,
                        c.hits,
                        c.misses,
                        c.direct,
                        c.entries,
                        c.bytes as f64 / (1 << 20) as f64,
                        c.pixels
                    );
                }
            }
            if units == LOD_ERROR_UNITS && scene.lod != Lod::Off {
                let e = super::lod_error::measure(&scene, &start_world)?;
                // Pixel counts per frame (the measurement sums several frames).
                log::info!(
                    "LODERROR at {width}x{height}, mean of {} frames: exact {} px, lod {} px, {} px covered by one only, colour over {} px",
                    e.frames,
                    e.per_frame(e.exact_pixels),
                    e.per_frame(e.lod_pixels),
                    e.per_frame(e.differ_pixels),
                    e.per_frame(e.both_pixels)
                );
                println!("{}", e.line());
            }
        }
    }
    log::info!(
        "bench done; load average {}",
        load_average().unwrap_or_else(|| "unknown".into())
    );
    Ok(())
}

/// `--bench-case`: the BENCH-line fields a case must have to run (`units`, `size`, `path`,
/// `threads`; absent keys match every case).
#[derive(Debug, Default, PartialEq)]
struct CaseFilter(Vec<(String, String)>);

impl CaseFilter {
    fn parse(pairs: &[String]) -> Result<CaseFilter> {
        let mut out = Vec::new();
        for pair in pairs {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("--bench-case {pair:?}: expected KEY=VALUE"))?;
            anyhow::ensure!(
                ["units", "size", "path", "threads"].contains(&key),
                "--bench-case {pair:?}: the keys are units, size, path and threads"
            );
            out.push((key.to_string(), value.to_string()));
        }
        Ok(CaseFilter(out))
    }

    fn matches(&self, key: &str, value: &str) -> bool {
        self.0.iter().all(|(k, v)| k != key || v == value)
    }

    fn accepts(&self, units: usize, (w, h): (usize, usize), path: &str, threads: usize) -> bool {
        self.matches("units", &units.to_string())
            && self.matches("size", &format!("{w}x{h}"))
            && self.matches("path", path)
            && self.matches("threads", &threads.to_string())
    }

    /// Whether some case at this unit count and size runs (so its scene is worth building).
    fn any_at(&self, units: usize, size: (usize, usize)) -> bool {
        PATHS
            .iter()
            .any(|&(_, p)| THREADS.iter().any(|&t| self.accepts(units, size, p, t)))
    }

    /// Whether some case with this unit count runs (so its world is worth building).
    fn any_with(&self, units: usize, sizes: &[(usize, usize)]) -> bool {
        sizes.iter().any(|&s| self.any_at(units, s))
    }

    /// An error when no case of `units` x `sizes` x paths x threads passes: a script asking for
    /// a case the bench does not run (a size missing from `--bench-sizes`, say) would otherwise
    /// get no BENCH line and a zero exit.
    fn ensure_some_case(&self, units: &[usize], sizes: &[(usize, usize)]) -> Result<()> {
        if units.iter().any(|&u| self.any_with(u, sizes)) {
            return Ok(());
        }
        let list = |v: Vec<String>| v.join(", ");
        anyhow::bail!(
            "--bench-case {} matches none of the bench's cases (units: {}; sizes: {}; paths: {}; \
             threads: {}); --bench-units and --bench-sizes choose other unit counts and sizes",
            self.0
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(","),
            list(units.iter().map(|u| u.to_string()).collect()),
            list(sizes.iter().map(|(w, h)| format!("{w}x{h}")).collect()),
            list(PATHS.iter().map(|(_, p)| p.to_string()).collect()),
            list(THREADS.iter().map(|t| t.to_string()).collect()),
        )
    }
}

/// Step and draw `world` until `budget` has passed (at least one timed frame), after one untimed
/// warm-up frame. Returns the timed frames, the time they took and the last frame's statistics.
fn run_case(
    scene: &mut SceneRenderer,
    world: &mut World,
    path: DrawPath,
    budget: Duration,
) -> Result<(u64, Duration, FrameStats)> {
    scene.draw(world, path)?;
    let start = Instant::now();
    let mut frames = 0u64;
    loop {
        world.step();
        let stats = scene.draw(world, path)?;
        frames += 1;
        let elapsed = start.elapsed();
        if elapsed >= budget {
            return Ok((frames, elapsed, stats));
        }
    }
}

/// The 1-, 5- and 15-minute load averages from /proc (Linux), to note beside the numbers: the
/// machine is shared, and a loaded machine's frame rates are not comparable with a quiet one's.
fn load_average() -> Option<String> {
    let s = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_filter_keeps_only_the_named_cases() {
        let f = CaseFilter::parse(&["units=1000".into(), "size=1920x1080".into()]).unwrap();
        assert!(f.accepts(1000, (1920, 1080), "8", 2));
        assert!(f.accepts(1000, (1920, 1080), "8888", 1));
        assert!(!f.accepts(100, (1920, 1080), "8", 2));
        assert!(!f.accepts(1000, (360, 240), "8", 2));
        assert!(!f.any_with(13, &[(1920, 1080)]));
        let one = CaseFilter::parse(&["path=8".into(), "threads=2".into()]).unwrap();
        assert!(one.accepts(13, (360, 240), "8", 2));
        assert!(!one.accepts(13, (360, 240), "8", 1));
        assert!(CaseFilter::parse(&[])
            .unwrap()
            .accepts(1, (1, 1), "8888", 1));
        assert!(CaseFilter::parse(&["fps=3".into()]).is_err());
        assert!(CaseFilter::parse(&["units".into()]).is_err());
    }

    #[test]
    fn a_case_filter_matching_no_case_is_an_error_naming_the_cases() {
        let f = CaseFilter::parse(&["units=100".into(), "size=640x480".into()]).unwrap();
        let e = f
            .ensure_some_case(&[13, 100], &[(360, 240), (1920, 1080)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("units=100,size=640x480"), "{e}");
        assert!(e.contains("sizes: 360x240, 1920x1080;"), "{e}");
        f.ensure_some_case(&[100], &[(640, 480)]).unwrap();
        CaseFilter::parse(&[])
            .unwrap()
            .ensure_some_case(&[13], &[(360, 240)])
            .unwrap();
    }
}
