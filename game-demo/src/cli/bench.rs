//! `modex bench`: the arguments mapped to `modex_bench::Options`, an indicatif progress bar on
//! stderr, the table on stdout and the reports written where asked.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use modex_bench::{Format, Options, Peer, Report, Size};

use super::BenchArgs;

/// The scenes, for `modex bench --help`.
pub const SCENES_HELP: &str = "Scenes: fill, floor, mesh10k, small100k, overdraw4_f2b, overdraw4_b2f, model (the samples' minigun, else a generated model of its size), voxel (one unit), battlefield13, battlefield100, battlefield1000, cutscene (BBHD decode, 360x240).\\n\\nThe peers are Mesa's llvmpipe and softpipe through libOSMesa.so.8, loaded at run time (Debian/Ubuntu: `sudo apt-get install libosmesa6`); each peer and thread count runs in its own child process, modex and the peer alternating frame by frame. docs/benchmarks.md describes the method.";

/// The indicatif bar the library's run reports to.
struct Bar(ProgressBar);

impl modex_bench::Progress for Bar {
    fn begin(&self, steps: u64) {
        self.0.set_length(steps);
    }
    fn step(&self, what: &str) {
        self.0.set_message(what.to_string());
        self.0.inc(1);
    }
    fn notice(&self, line: &str) {
        // Above the bar, and shown even when stderr is not a terminal (the bar is hidden then).
        self.0.suspend(|| eprintln!("{line}"));
    }
}

fn options(a: &BenchArgs) -> Result<Options> {
    let peers = if a.peers.iter().any(|p| p == "none") {
        Vec::new()
    } else if a.peers.is_empty() {
        Peer::ALL.to_vec()
    } else {
        a.peers
            .iter()
            .map(|p| {
                Peer::ALL
                    .into_iter()
                    .find(|k| k.name() == p.trim())
                    .with_context(|| format!("--peers {p:?}: expected llvmpipe, softpipe or none"))
            })
            .collect::<Result<_>>()?
    };
    Ok(Options {
        quick: a.quick,
        filter: a.filter.clone(),
        threads: a.threads.clone(),
        sizes: a
            .sizes
            .iter()
            .map(|s| Size::parse(s))
            .collect::<Result<_, _>>()?,
        formats: a
            .formats
            .iter()
            .map(|s| Format::parse(s))
            .collect::<Result<_, _>>()?,
        seconds: a.seconds,
        peers,
        pictures: a.html.is_some(),
    })
}

/// Run the benchmark the arguments describe.
pub fn run(a: &BenchArgs) -> Result<()> {
    let options = options(a)?;
    // Read before the run, so a wrong path fails in a second rather than after the run.
    let baseline = a
        .baseline
        .as_ref()
        .map(|p| Report::read_json(p).map(|r| (p, r)))
        .transpose()?;
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} cases, {elapsed} (about {eta} left) {wide_msg}",
        )
        .expect("the template is valid"),
    );
    let arguments: Vec<String> = std::env::args().skip(2).collect();
    let mut report = modex_bench::run(&options, &arguments, &Bar(bar.clone()))?;
    bar.finish_and_clear();
    print!("{}", modex_bench::table::table(&report));
    if let Some((path, old)) = baseline {
        let b = modex_bench::baseline::compare(&path.display().to_string(), &old, &report);
        print!("\n{}", modex_bench::baseline::table(&b));
        report.baseline = Some(b);
    }
    if let Some(path) = &a.json {
        report.write_json(path)?;
        eprintln!("JSON report: {}", path.display());
    }
    if let Some(path) = &a.html {
        modex_bench::html::write(&report, path)?;
        eprintln!("HTML report: {}", path.display());
    }
    Ok(())
}
