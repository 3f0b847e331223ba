//! `modex bench`: a tiny `--quick` run (small sizes, a few hundredths of a second per case) whose
//! JSON has every key the issue names, whose picture check passes against llvmpipe when OSMesa is
//! installed, whose `--baseline` comparison is written, and whose HTML opens in headless Chromium
//! without a console error. Not a timing test: the times only have to be positive.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("modex-bench-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bench(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_modex"))
        .arg("bench")
        .args(args)
        .output()
        .expect("modex runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(
        out.status.success(),
        "modex bench {args:?} failed:\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}

fn osmesa_installed() -> bool {
    Command::new("/sbin/ldconfig")
        .arg("-p")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("libOSMesa.so.8"))
}

fn positive(v: &Value, key: &str) -> f64 {
    let x = v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"));
    assert!(x > 0.0 && x.is_finite(), "{key} = {x} in {v}");
    x
}

/// The report's keys for scripts, as issue 42 lists them.
fn check_shape(r: &Value) {
    assert!(!r["machine"]["cpu"].as_str().unwrap().is_empty());
    assert!(r["machine"]["cores"].as_u64().unwrap() >= 1);
    assert!(r["machine"]["features"].is_array());
    assert_eq!(r["modex"]["version"], env!("CARGO_PKG_VERSION"));
    let cases = r["cases"].as_array().unwrap();
    assert!(!cases.is_empty());
    for c in cases {
        assert!(c["scene"].is_string() && c["format"].is_string(), "{c}");
        let size = c["size"].as_str().unwrap();
        let (w, h) = size.split_once('x').unwrap();
        assert!(
            w.parse::<u32>().is_ok() && h.parse::<u32>().is_ok(),
            "{size}"
        );
        assert!(c["threads"].as_u64().unwrap() >= 1);
        let (m, p10, p90) = (
            positive(c, "modex_ms"),
            positive(c, "p10_ms"),
            positive(c, "p90_ms"),
        );
        assert!(p10 <= m && m <= p90, "{c}");
        for (_, p) in c["peers"].as_object().unwrap() {
            positive(p, "ms");
            positive(p, "ratio");
            assert!(p["same_picture"].is_boolean());
        }
    }
}

#[test]
fn a_quick_run_writes_every_key_and_the_pictures_match_llvmpipe() {
    let dir = out_dir("quick");
    let (json, html) = (dir.join("report.json"), dir.join("report.html"));
    let (stdout, stderr) = bench(&[
        "--quick",
        "--filter",
        "fill,small100k,model,voxel,battlefield13,cutscene",
        "--sizes",
        "160x120",
        "--formats",
        "8888,565,8",
        "--threads",
        "1,2",
        "--seconds",
        "0.02",
        "--json",
        json.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(stdout.starts_with("scene "), "the table:\n{stdout}");
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    check_shape(&r);
    let cases = r["cases"].as_array().unwrap();
    // fill, small100k, model, voxel, battlefield13: 3 formats x 2 thread counts; the cutscene once.
    assert_eq!(cases.len(), 5 * 3 * 2 + 1, "{stdout}");
    if osmesa_installed() {
        for c in cases
            .iter()
            .filter(|c| ["fill", "small100k", "model"].contains(&c["scene"].as_str().unwrap()))
        {
            let l = &c["peers"]["llvmpipe"];
            assert!(l.is_object(), "no llvmpipe in {c}\n{stderr}");
            assert_eq!(
                l["same_picture"], true,
                "llvmpipe drew another picture: {c}"
            );
            assert!(c["peers"]["softpipe"].is_object(), "no softpipe in {c}");
        }
        assert!(r["mesa"]["llvmpipe"]["version"]
            .as_str()
            .unwrap()
            .contains("Mesa"));
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "libOSMesa.so.8 is missing while CI is set: .ci/run installs libosmesa6"
        );
        eprintln!("SKIPPED: the picture check against llvmpipe (libOSMesa.so.8 is not installed: sh benches/install-osmesa.sh)");
        assert!(
            stderr.contains("apt-get install libosmesa6"),
            "no install hint:\n{stderr}"
        );
    }
    // --baseline against that report: the shared case is compared.
    let again = dir.join("again.json");
    let (stdout, _) = bench(&[
        "--quick",
        "--filter",
        "cutscene",
        "--seconds",
        "0.02",
        "--baseline",
        json.to_str().unwrap(),
        "--json",
        again.to_str().unwrap(),
    ]);
    assert!(stdout.contains("against "), "{stdout}");
    let b: Value = serde_json::from_str(&std::fs::read_to_string(&again).unwrap()).unwrap();
    let changes = b["baseline"]["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    assert!(changes[0]["significant"].is_boolean());
    open_in_chromium(&html);
}

/// The HTML report in headless Chromium (engine/bench/e2e/open_report.mjs), when node, Chromium
/// and the web test's playwright-core are installed (.ci/run installs them and runs the script on
/// its own report too).
fn open_in_chromium(html: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let playwright = root.join("web/e2e/node_modules/playwright-core");
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node || !Path::new("/usr/bin/chromium").exists() || !playwright.exists() {
        eprintln!("SKIPPED: opening the HTML report in Chromium (needs node, /usr/bin/chromium and web/e2e's playwright-core: bash .ci/web-deps.sh)");
        return;
    }
    let out = Command::new("node")
        .arg(root.join("engine/bench/e2e/open_report.mjs"))
        .arg(html)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the HTML report has errors in Chromium:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn without_osmesa_the_run_says_how_to_install_it_once_and_measures_modex_alone() {
    // OSMesa is loaded with `dlopen("libOSMesa.so.8")`, which looks in LD_LIBRARY_PATH before the
    // system's library cache: an empty file of that name there is found first and refused ("file
    // too short"), so the real load-failure path runs here even where libosmesa6 is installed,
    // without a container and without an override in modex.
    let dir = out_dir("no-osmesa");
    std::fs::write(dir.join("libOSMesa.so.8"), b"").unwrap();
    let json = dir.join("report.json");
    let out = Command::new(env!("CARGO_BIN_EXE_modex"))
        .env("LD_LIBRARY_PATH", &dir)
        .args(["bench", "--quick", "--filter", "fill", "--sizes", "32x24"])
        .args([
            "--formats",
            "8888,565",
            "--threads",
            "1",
            "--seconds",
            "0.01",
        ])
        .arg("--json")
        .arg(&json)
        .output()
        .expect("modex runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let hints: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("apt-get install libosmesa6"))
        .collect();
    assert_eq!(
        hints.len(),
        1,
        "one install line, not {}:\n{stderr}",
        hints.len()
    );
    assert!(
        hints[0].contains("libOSMesa.so.8") && hints[0].contains("measuring modex alone"),
        "{}",
        hints[0]
    );
    // The table: modex's two rows and no peer column.
    let rows: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(
        !stdout.contains("llvmpipe") && !stdout.contains("softpipe"),
        "{stdout}"
    );
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    check_shape(&r);
    for c in r["cases"].as_array().unwrap() {
        assert!(c["peers"].as_object().unwrap().is_empty(), "{c}");
    }
    assert!(r["mesa"].as_object().unwrap().is_empty());
    let notices = r["run"]["notices"].as_array().unwrap();
    assert!(
        notices
            .iter()
            .any(|n| n.as_str().unwrap().contains("apt-get install libosmesa6")),
        "the report keeps the notice: {notices:?}"
    );

    // Asked for no peer (`--peers none`): modex alone, and nothing to install.
    let (stdout, stderr) = bench(&[
        "--quick",
        "--filter",
        "fill",
        "--sizes",
        "32x24",
        "--formats",
        "8",
        "--threads",
        "1",
        "--seconds",
        "0.01",
        "--peers",
        "none",
    ]);
    assert_eq!(stdout.lines().skip(1).count(), 1, "{stdout}");
    assert!(!stdout.contains("llvmpipe"), "{stdout}");
    assert!(!stderr.contains("libosmesa6"), "{stderr}");
}
