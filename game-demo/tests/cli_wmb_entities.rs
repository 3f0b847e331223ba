//! Entities found as the engine finds them (issue 40), measured on whole game trees: for every
//! level in a tree, the entity files it names that exist somewhere in the tree (counted here by
//! walking the tree, independently of the binary's search) against those `modex info --json`
//! reports `found`, with no `--path`. At least 95 % must be found in every tree.
//!
//! The shared LotterShock tree (`shared/data/wmb/lottershock`) is always measured; more trees
//! (e.g. the full public LotterShock repository unpacked) are measured when `MODEX_GAME_TREES`
//! names them, separated by the platform's path separator. Run with `--nocapture` to see the
//! numbers.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The share of existing entity files that must be found, per tree.
const TARGET: f64 = 0.95;

/// Every file below `dir` by lower-case name.
fn files_below(dir: &Path, out: &mut HashMap<String, PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if !e.file_name().to_string_lossy().starts_with('.') {
                files_below(&p, out);
            }
        } else {
            out.entry(e.file_name().to_string_lossy().to_lowercase())
                .or_insert(p);
        }
    }
}

/// The part of a stored name that names the file.
fn base(name: &str) -> String {
    name.rsplit(['/', '\\'])
        .next()
        .unwrap_or(name)
        .to_lowercase()
}

/// Counts of one level: entity files (distinct names) that exist in the tree, and how many of
/// those were found.
struct Count {
    exist: usize,
    found: usize,
    not_found: Vec<String>,
}

fn measure_level(level: &Path, tree: &HashMap<String, PathBuf>) -> Option<Count> {
    let out = Command::new(env!("CARGO_BIN_EXE_modex"))
        .args(["info", "--json"])
        .arg(level)
        .env("RUST_LOG", "error")
        .output()
        .expect("run modex");
    let j: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("one JSON line, even for an error");
    if let Some(e) = j["error"].as_str() {
        // A level whose bytes are absent from a snapshot (a large-file pointer) cannot count.
        assert!(!out.status.success(), "an error exits non-zero");
        eprintln!("  {}: not read ({e})", level.display());
        return None;
    }
    let mut seen = HashSet::new();
    let mut count = Count {
        exist: 0,
        found: 0,
        not_found: Vec::new(),
    };
    let mut missing_text: Vec<String> = Vec::new();
    for e in j["entities"].as_array().expect("entities") {
        let file = e["file"].as_str().unwrap();
        let found = e["found"].as_bool().expect("found is a boolean");
        // `path` is given exactly when found, and names the file.
        match e["path"].as_str() {
            Some(p) => {
                assert!(found, "{file}: a path without found");
                assert_eq!(base(p), base(file), "{file} found as {p}");
                assert!(!p.contains('\\'), "forward slashes: {p}");
            }
            None => assert!(!found && e["path"].is_null(), "{file}: found without path"),
        }
        if !found && !file.is_empty() && !missing_text.iter().any(|m| base(m) == base(file)) {
            missing_text.push(file.to_string());
        }
        if file.is_empty() || !seen.insert(base(file)) || !tree.contains_key(&base(file)) {
            continue;
        }
        count.exist += 1;
        if found {
            count.found += 1;
        } else {
            count.not_found.push(file.to_string());
        }
    }
    // The text listing ends with the same missing names, once each, in first-seen order.
    let text = Command::new(env!("CARGO_BIN_EXE_modex"))
        .arg("info")
        .arg(level)
        .env("RUST_LOG", "error")
        .output()
        .expect("run modex");
    let text = String::from_utf8_lossy(&text.stdout);
    let last = text.lines().last().unwrap_or("").trim();
    if missing_text.is_empty() {
        assert!(!text.contains("missing:"), "{text}");
    } else {
        assert_eq!(last, format!("missing: {}", missing_text.join(", ")));
    }
    Some(count)
}

/// Measure every level of `root`; returns (exist, found) over the tree.
fn measure_tree(root: &Path) -> (usize, usize) {
    let mut tree = HashMap::new();
    files_below(root, &mut tree);
    let mut levels: Vec<&PathBuf> = tree
        .values()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wmb")))
        .collect();
    levels.sort();
    let (mut exist, mut found) = (0, 0);
    eprintln!("{}:", root.display());
    for level in levels {
        let Some(c) = measure_level(level, &tree) else {
            continue;
        };
        eprintln!(
            "  {}: {} of {} entity files that exist in the tree found{}",
            level.strip_prefix(root).unwrap_or(level).display(),
            c.found,
            c.exist,
            if c.not_found.is_empty() {
                String::new()
            } else {
                format!(" (not found: {})", c.not_found.join(", "))
            }
        );
        exist += c.exist;
        found += c.found;
    }
    eprintln!("  total: {found} of {exist}");
    (exist, found)
}

#[test]
fn at_least_95_percent_of_the_entity_files_in_each_tree_are_found() {
    let mut trees = Vec::new();
    if let Some(dir) = modex_testkit::samples_dir("wmb") {
        trees.push(dir.join("lottershock"));
    }
    if let Some(more) = std::env::var_os("MODEX_GAME_TREES") {
        trees.extend(std::env::split_paths(&more));
    }
    for root in trees {
        assert!(root.is_dir(), "{} is not a folder", root.display());
        let (exist, found) = measure_tree(&root);
        assert!(exist > 0, "{}: no entity file to look for", root.display());
        let share = found as f64 / exist as f64;
        assert!(
            share >= TARGET,
            "{}: {found} of {exist} found ({:.1} %)",
            root.display(),
            share * 100.0
        );
    }
}
