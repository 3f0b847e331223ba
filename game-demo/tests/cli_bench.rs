//! `modex demo --headless --bench` with a tiny budget: one line per case, every case of the matrix
//! present once, each line exactly `BENCH units=<n> size=<WxH> path=<8|8888> threads=<t> fps=<f>`.
//! Not a timing test: the frame rates only have to be positive numbers.

use std::collections::BTreeSet;
use std::process::Command;

/// One parsed BENCH line: (units, size, path, threads) and the frame rate.
fn parse(line: &str) -> Option<((usize, String, String, usize), f64)> {
    let rest = line.strip_prefix("BENCH ")?;
    let fields: Vec<(&str, &str)> = rest
        .split(' ')
        .map(|f| f.split_once('='))
        .collect::<Option<_>>()?;
    let keys: Vec<&str> = fields.iter().map(|f| f.0).collect();
    if keys != ["units", "size", "path", "threads", "fps"] {
        return None;
    }
    let units = fields[0].1.parse().ok()?;
    let (w, h) = fields[1].1.split_once('x')?;
    w.parse::<usize>().ok()?;
    h.parse::<usize>().ok()?;
    let path = fields[2].1;
    if path != "8" && path != "8888" {
        return None;
    }
    let threads = fields[3].1.parse().ok()?;
    let fps: f64 = fields[4].1.parse().ok()?;
    Some((
        (units, fields[1].1.to_string(), path.to_string(), threads),
        fps,
    ))
}

#[test]
fn bench_prints_one_well_formed_line_per_case() {
    let out = Command::new(env!("CARGO_BIN_EXE_modex"))
        .args([
            "demo",
            "--headless",
            "--bench",
            "--bench-seconds",
            "0",
            "--bench-units",
            "13,40",
            "--bench-sizes",
            "64x48,200x60",
        ])
        .env("RUST_LOG", "warn")
        .output()
        .expect("run modex");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let mut cases = BTreeSet::new();
    for line in &lines {
        let (case, fps) = parse(line).unwrap_or_else(|| panic!("malformed line `{line}`"));
        assert!(fps.is_finite() && fps > 0.0, "`{line}`");
        assert!(cases.insert(case), "case twice: `{line}`");
    }
    let mut want = BTreeSet::new();
    for units in [13, 40] {
        for size in ["64x48", "200x60"] {
            for path in ["8", "8888"] {
                for threads in [1, 2] {
                    want.insert((units, size.to_string(), path.to_string(), threads));
                }
            }
        }
    }
    assert_eq!(cases, want);
}

#[test]
fn bench_needs_headless_and_rejects_bad_sizes() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_modex"))
            .args(args)
            .env("RUST_LOG", "warn")
            .output()
            .expect("run modex")
    };
    let out = run(&["demo", "--bench"]);
    assert!(!out.status.success());
    let out = run(&["demo", "--headless", "--bench", "--bench-sizes", "wide"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("WIDTHxHEIGHT"));
}

/// At 1000 units the bench also prints `LODERROR coverage=<%> colour=<steps>` (levels of detail
/// against the exact units) with LOD on, and not with `--lod off`, also when `--bench-case`
/// narrows the run to one case by all four keys (the form issue 43 scripts).
#[test]
fn bench_prints_the_lod_error_at_1000_units() {
    let run = |lod: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_modex"))
            .args([
                "demo",
                "--headless",
                "--bench",
                "--bench-seconds",
                "0",
                "--bench-units",
                "1000",
                "--bench-sizes",
                "96x64",
                "--bench-case",
                "units=1000,size=96x64,path=8,threads=1",
                "--lod",
                lod,
            ])
            .env("RUST_LOG", "warn")
            .output()
            .expect("run modex");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let on = run("on");
    let bench: Vec<&str> = on.lines().filter(|l| l.starts_with("BENCH ")).collect();
    assert_eq!(bench.len(), 1, "one case: {on}");
    let lines: Vec<&str> = on.lines().filter(|l| l.starts_with("LODERROR ")).collect();
    assert_eq!(lines.len(), 1, "{on}");
    let fields: Vec<(&str, &str)> = lines[0]["LODERROR ".len()..]
        .split(' ')
        .map(|f| f.split_once('=').expect("KEY=VALUE"))
        .collect();
    assert_eq!(
        fields.iter().map(|f| f.0).collect::<Vec<_>>(),
        ["coverage", "colour"]
    );
    let coverage: f64 = fields[0].1.parse().unwrap();
    let colour: f64 = fields[1].1.parse().unwrap();
    assert!(
        coverage.is_finite() && colour.is_finite() && colour >= 0.0,
        "{}",
        lines[0]
    );
    assert!(!run("off").contains("LODERROR"));
}
