//! `modex net decode [--json] [--from server|client]` and `modex net encode` against the outputs
//! recorded in `tests/net_cli.jsonl`: every message kind from both sides, every `svc_update` field
//! bit, user packets, truncations, unknown codes and bad JSON.
//!
//! The file was recorded from the hand-written JSON mapping that the `modex-net` message table
//! replaced, so this test is the proof that the table changed no output: exit status, stderr and
//! encode's hex must be byte-identical; a decoded message must have the same keys with the same
//! values (in JSON and in the text lines), and its keys must come in the order docs/network.md
//! documents (the recording had them sorted). `MODEX_BLESS=1` re-records the file from the current
//! binary; review its diff before committing it.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/net_cli.jsonl")
}

/// One recorded run: the arguments after `modex` and what the binary did.
#[derive(Debug, Clone, PartialEq)]
struct Run {
    args: Vec<String>,
    status: i64,
    stdout: String,
    stderr: String,
}

impl Run {
    fn of(args: Vec<String>) -> Run {
        let out = Command::new(env!("CARGO_BIN_EXE_modex"))
            .args(&args)
            .env_remove("RUST_LOG")
            .output()
            .expect("run modex");
        Run {
            args,
            status: out.status.code().map_or(-1, i64::from),
            stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        }
    }

    fn parse(line: &str) -> Run {
        let v: Value = serde_json::from_str(line).expect("fixture line is JSON");
        let text = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        Run {
            args: v["args"]
                .as_array()
                .expect("args")
                .iter()
                .map(|a| a.as_str().expect("arg").to_string())
                .collect(),
            status: v["status"].as_i64().unwrap_or(-1),
            stdout: text("stdout"),
            stderr: text("stderr"),
        }
    }

    fn to_line(&self) -> String {
        serde_json::json!({
            "args": self.args, "status": self.status, "stdout": self.stdout, "stderr": self.stderr,
        })
        .to_string()
    }
}

/// The first JSON value of `s` and the rest after it.
fn take_value(s: &str) -> (Value, &str) {
    let mut stream = serde_json::Deserializer::from_str(s).into_iter::<Value>();
    let v = stream
        .next()
        .unwrap_or_else(|| panic!("no value in `{s}`"))
        .unwrap_or_else(|e| panic!("`{s}`: {e}"));
    let rest = &s[stream.byte_offset()..];
    (v, rest)
}

/// A message as its keys and values in printed order, from a `--json` line.
fn json_entries(line: &str) -> Vec<(String, Value)> {
    let mut rest = line.strip_prefix('{').expect("an object");
    let mut out = Vec::new();
    while !rest.starts_with('}') {
        let (key, after) = take_value(rest);
        let (value, after) = take_value(after.strip_prefix(':').expect("`:`"));
        out.push((key.as_str().expect("string key").to_string(), value));
        rest = after.strip_prefix(',').unwrap_or(after);
    }
    out
}

/// A message as its keys and values in printed order, from a text line (`name key=value ...`; the
/// name becomes the `message` entry).
fn text_entries(line: &str) -> Vec<(String, Value)> {
    let (name, mut rest) = line.split_once(' ').unwrap_or((line, ""));
    let mut out = vec![("message".to_string(), Value::from(name))];
    while let Some((key, after)) = rest.split_once('=') {
        let (value, after) = take_value(after);
        out.push((key.to_string(), value));
        rest = after.strip_prefix(' ').unwrap_or(after);
    }
    out
}

/// The key order docs/network.md documents: `message`, then the fields in wire order (an update
/// prints only the fields its code bits say are present, in bit order).
const ORDER: &[(&str, &[&str])] = &[
    ("svc_create", &["index", "id"]),
    ("svc_remove", &["index"]),
    ("svc_entsound", &["ent", "sound", "volume", "handle"]),
    ("svc_effect", &["action", "number", "position", "vel"]),
    (
        "svc_info",
        &["magic", "protocol", "server_time", "frame_time"],
    ),
    ("svc_leave", &[]),
    ("svc_var", &["index", "values"]),
    ("svc_string", &["index", "string"]),
    ("svc_skill", &["ent", "offset", "value"]),
    ("svc_skill3", &["ent", "offset", "value"]),
    (
        "svc_update1",
        &[
            "entity", "position", "pan", "scale", "type", "frame", "fraction", "flags1",
        ],
    ),
    (
        "svc_update2",
        &[
            "entity",
            "ambient",
            "albedo",
            "skin",
            "tilt",
            "roll",
            "nextframe",
        ],
    ),
    (
        "svc_update3",
        &["entity", "lightrange", "color", "alpha", "uv", "flags2"],
    ),
    ("user", &["bytes"]),
    ("cls_fill", &[]),
    ("cls_join", &["dpid", "name"]),
    ("cls_create", &["dpid", "file", "position", "action", "id"]),
    ("cls_remove", &["dpid"]),
    ("cls_ping", &["dpid"]),
    ("cls_leave", &["dpid"]),
    ("cls_level", &["dpid", "level"]),
    ("cls_var", &["index", "values"]),
    ("cls_string", &["index", "string"]),
    ("cls_skill", &["dpid", "struct_offset", "value"]),
    ("cls_skill3", &["dpid", "struct_offset", "value"]),
];

/// `message` first, then the fields in the documented order.
fn in_documented_order(entries: &[(String, Value)]) -> bool {
    let Some(name) = entries
        .first()
        .and_then(|(k, v)| (k == "message").then_some(v))
    else {
        return false;
    };
    let Some((_, order)) = ORDER.iter().find(|(n, _)| Some(*n) == name.as_str()) else {
        return false;
    };
    let mut rest = order.iter();
    entries[1..].iter().all(|(k, _)| rest.any(|o| o == k))
}

fn sorted(mut e: Vec<(String, Value)>) -> Vec<(String, Value)> {
    e.sort_by(|a, b| a.0.cmp(&b.0));
    e
}

/// The same messages with the same keys and values: JSON numbers keep their kind (180 is not 180.0)
/// and floats are printed from the same bits, so equal values mean equal value text.
fn same_messages(args: &[String], want: &str, got: &str) -> Result<(), String> {
    let entries = if args.iter().any(|a| a == "--json") {
        json_entries
    } else {
        text_entries
    };
    let (want, got): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    if want.len() != got.len() {
        return Err(format!("{} lines, want {}", got.len(), want.len()));
    }
    for (w, g) in want.iter().zip(&got) {
        let got = entries(g);
        if !in_documented_order(&got) {
            return Err(format!("keys not in the documented order: {g}"));
        }
        if sorted(entries(w)) != sorted(got) {
            return Err(format!("got  {g}\nwant {w}"));
        }
    }
    Ok(())
}

fn check(want: &Run, got: &Run) -> Result<(), String> {
    if (got.status, &got.stderr) != (want.status, &want.stderr) {
        return Err(format!(
            "exit {} stderr {:?}, want exit {} stderr {:?}",
            got.status, got.stderr, want.status, want.stderr
        ));
    }
    if want.args[1] == "encode" {
        if got.stdout != want.stdout {
            return Err(format!("stdout {:?}, want {:?}", got.stdout, want.stdout));
        }
        return Ok(());
    }
    same_messages(&want.args, &want.stdout, &got.stdout)
}

#[test]
fn net_cli_prints_what_it_printed_before_the_message_table() {
    let text = std::fs::read_to_string(fixture()).expect("read tests/net_cli.jsonl");
    let recorded: Vec<Run> = text.lines().map(Run::parse).collect();
    assert!(recorded.len() > 500, "the fixture lost its cases");
    let runs: Vec<Run> = recorded.iter().map(|r| Run::of(r.args.clone())).collect();
    if std::env::var_os("MODEX_BLESS").is_some() {
        let lines: Vec<String> = runs.iter().map(Run::to_line).collect();
        std::fs::write(fixture(), lines.join("\n") + "\n").expect("write the fixture");
        return;
    }
    let failures: Vec<String> = recorded
        .iter()
        .zip(&runs)
        .filter_map(|(want, got)| {
            check(want, got)
                .err()
                .map(|e| format!("modex {:?}:\n{e}", want.args))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} runs differ:\n{}",
        failures.len(),
        runs.len(),
        failures.join("\n\n")
    );
}

/// Too long for the fixture: 40000 values, more than `svc_var`'s Short length can count.
#[test]
fn an_over_long_svc_var_is_refused() {
    let values = vec!["0"; 40000].join(",");
    let json = format!(r#"{{"message":"svc_var","index":1,"values":[{values}]}}"#);
    let run = Run::of(vec!["net".into(), "encode".into(), json]);
    assert_eq!(run.status, 1);
    assert_eq!(
        run.stderr,
        "error: svc_var: field `values`: 40000 elements, the Short length field allows at most 32767\n"
    );
}
