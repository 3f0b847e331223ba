//! A whole run in the parent process: one child per peer and thread count, their results merged
//! into a [`Report`].

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::case::{Case, Format, Size};
use crate::child::{Job, Measured, Message, CHILD_ENV, LINE_PREFIX};
use crate::error::BenchError;
use crate::machine;
use crate::peer::{self, Peer};
use crate::plan::Options;
use crate::report::{CaseReport, MesaInfo, ModexInfo, PeerReport, Pictures, Report, RunInfo};
use crate::scenes::{self, SceneKind};
use crate::timing::{Budget, Summary};

/// Where a run reports its progress (the binary's progress bar; nothing in tests).
pub trait Progress {
    /// The run has this many steps (a case in one child is one step).
    fn begin(&self, steps: u64);
    /// A step is done; `what` names it.
    fn step(&self, what: &str);
    /// A line the user should read.
    fn notice(&self, line: &str);
}

/// Progress that goes nowhere.
pub struct Silent;

impl Progress for Silent {
    fn begin(&self, _: u64) {}
    fn step(&self, _: &str) {}
    fn notice(&self, _: &str) {}
}

/// Frames of each renderer drawn untimed before a case's timed frames.
const WARM_UP: usize = 3;
/// Timed frames each renderer draws at least, however long they take.
const MIN_FRAMES: usize = 5;
const QUICK_MIN_FRAMES: usize = 3;

/// Run the benchmark `options` describe. `arguments` are recorded in the report.
pub fn run(
    options: &Options,
    arguments: &[String],
    progress: &dyn Progress,
) -> Result<Report, BenchError> {
    let started = Instant::now();
    let started_utc = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut machine = machine::this();
    let cases = options.cases()?;
    let threads = options.thread_counts()?;
    let time = options.budget()?;
    let budget = Budget {
        time,
        min_frames: if options.quick {
            QUICK_MIN_FRAMES
        } else {
            MIN_FRAMES
        },
        warm_up: WARM_UP,
    };
    let mut notices = Vec::new();
    let mut note = |line: String| {
        progress.notice(&line);
        if !notices.contains(&line) {
            notices.push(line);
        }
    };
    if cfg!(debug_assertions) {
        note("this is a debug build: its times say nothing about modex's speed (build with --release)".into());
    }
    let peers = if options.peers.is_empty() {
        Vec::new()
    } else {
        match peer::available() {
            Ok(()) => options.peers.clone(),
            Err(why) => {
                note(peer::install_hint(&why));
                Vec::new()
            }
        }
    };
    let pictures = if options.pictures {
        picture_cases(&cases, &threads)
    } else {
        Vec::new()
    };
    let is_raster = |c: &Case| scenes::find(&c.scene).map(|n| n.kind) == Some(SceneKind::Raster);
    let mut jobs = Vec::new();
    for &t in &threads {
        let of_t: Vec<Case> = cases.iter().filter(|c| c.threads == t).cloned().collect();
        let (raster, other): (Vec<Case>, Vec<Case>) = if peers.is_empty() {
            (Vec::new(), of_t)
        } else {
            of_t.into_iter().partition(is_raster)
        };
        for &p in &peers {
            if !raster.is_empty() {
                jobs.push(job(Some(p), t, raster.clone(), budget, &pictures));
            }
        }
        if !other.is_empty() {
            jobs.push(job(None, t, other, budget, &pictures));
        }
    }
    progress.begin(jobs.iter().map(|j| j.cases.len() as u64).sum());
    let exe = std::env::current_exe().map_err(|source| BenchError::Spawn {
        exe: "(this program)".into(),
        source,
    })?;
    let mut measured: Vec<Measured> = Vec::new();
    let mut mesa = BTreeMap::new();
    for job in &jobs {
        run_child(&exe, job, progress, &mut |m| match m {
            Message::Mesa {
                peer,
                renderer,
                version,
            } => {
                mesa.insert(peer.name().to_string(), MesaInfo { renderer, version });
            }
            Message::Notice(line) => note(line),
            Message::Done(m) => measured.push(*m),
        })?;
    }
    machine.load_end = machine::load();
    let (cases, pictures) = merge(&cases, measured);
    Ok(Report {
        schema: crate::report::SCHEMA,
        machine,
        modex: ModexInfo::this(),
        mesa,
        run: RunInfo {
            started: crate::report::utc(started_utc),
            seconds: started.elapsed().as_secs_f64(),
            quick: options.quick,
            seconds_per_case: time.as_secs_f64(),
            arguments: arguments.to_vec(),
            notices,
        },
        cases,
        baseline: None,
        pictures,
    })
}

fn job(
    peer: Option<Peer>,
    threads: usize,
    cases: Vec<Case>,
    mut budget: Budget,
    pictures: &[Case],
) -> Job {
    // llvmpipe compiles its shaders on the first frames; softpipe interprets them and only
    // allocates on its first, whose 1080p frames take up to a second each.
    if peer == Some(Peer::Softpipe) {
        budget.warm_up = 1;
    }
    let pictures = pictures
        .iter()
        .filter(|p| cases.contains(p))
        .cloned()
        .collect();
    Job {
        peer,
        threads,
        cases,
        budget,
        pictures,
    }
}

/// The cases whose pictures the report shows: every scene at [`Size::PICTURES`] (else its first
/// size), on the fewest threads, in 8888 (else the first format the run has).
fn picture_cases(cases: &[Case], threads: &[usize]) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    let t = threads.first().copied().unwrap_or(1);
    for c in cases.iter().filter(|c| c.threads == t || c.threads == 1) {
        if out.iter().any(|o| o.scene == c.scene) {
            continue;
        }
        let of_scene: Vec<&Case> = cases
            .iter()
            .filter(|o| o.scene == c.scene && o.threads == c.threads)
            .collect();
        let size = if of_scene.iter().any(|o| o.size == Size::PICTURES) {
            Size::PICTURES
        } else {
            c.size
        };
        let best = of_scene
            .iter()
            .filter(|o| o.size == size)
            .max_by_key(|o| o.format == Format::Argb8888)
            .copied();
        out.extend(best.cloned());
    }
    out
}

fn what(job: &Job) -> String {
    match job.peer {
        Some(p) => format!("{} {}-thread", p.name(), job.threads),
        None => format!("modex {}-thread", job.threads),
    }
}

/// Start a child for `job`, hand each of its messages to `on`, and wait for it.
fn run_child(
    exe: &std::path::Path,
    job: &Job,
    progress: &dyn Progress,
    on: &mut dyn FnMut(Message),
) -> Result<(), BenchError> {
    let mut cmd = Command::new(exe);
    cmd.env(
        CHILD_ENV,
        serde_json::to_string(job).expect("jobs serialise"),
    )
    .env("LP_NUM_THREADS", job.threads.to_string())
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    if let Some(p) = job.peer {
        cmd.env("GALLIUM_DRIVER", p.name());
    }
    let mut child = cmd.spawn().map_err(|source| BenchError::Spawn {
        exe: exe.to_path_buf(),
        source,
    })?;
    // stderr is read on its own thread so a chatty child cannot block on a full pipe.
    let mut err = child.stderr.take().expect("piped");
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let out = child.stdout.take().expect("piped");
    let mut failure = None;
    for line in BufReader::new(out).lines().map_while(Result::ok) {
        let Some(json) = line.strip_prefix(LINE_PREFIX) else {
            // Anything else on stdout (a library's chatter) is passed on, not lost.
            if !line.trim().is_empty() {
                progress.notice(&line);
            }
            continue;
        };
        match serde_json::from_str::<Message>(json) {
            Ok(m) => {
                if let Message::Done(d) = &m {
                    let peer = d.peer.as_ref().map_or("modex alone", |p| p.peer.name());
                    progress.step(&format!("{} ({peer})", d.case.id()));
                }
                on(m);
            }
            Err(source) => {
                failure.get_or_insert(BenchError::Protocol { line, source });
            }
        }
    }
    let status = child.wait().map_err(|source| BenchError::Spawn {
        exe: exe.to_path_buf(),
        source,
    })?;
    let stderr = stderr.join().unwrap_or_default();
    if let Some(f) = failure {
        return Err(f);
    }
    if !status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(12).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(BenchError::Child {
            what: what(job),
            status: status.to_string(),
            stderr: if tail.is_empty() {
                String::new()
            } else {
                format!(":\n{}", tail.join("\n"))
            },
        });
    }
    Ok(())
}

/// One case per `cases` entry that some child measured: modex's frames of every child pooled,
/// each peer from its own child.
fn merge(cases: &[Case], measured: Vec<Measured>) -> (Vec<CaseReport>, Vec<Pictures>) {
    let mut out = Vec::new();
    let mut pictures = Vec::new();
    for case in cases {
        let of: Vec<&Measured> = measured.iter().filter(|m| &m.case == case).collect();
        let Some(first) = of.first() else { continue };
        let all: Vec<f64> = of
            .iter()
            .flat_map(|m| m.modex_samples.iter().copied())
            .collect();
        let s = Summary::of(&all);
        let mut peers = BTreeMap::new();
        let mut peer_pictures = BTreeMap::new();
        for m in &of {
            let Some(p) = &m.peer else { continue };
            let ps = Summary::of(&p.samples);
            let paired = Summary::of(&m.modex_samples).median_ms;
            peers.insert(
                p.peer.name().to_string(),
                PeerReport {
                    ms: ps.median_ms,
                    p10_ms: ps.p10_ms,
                    p90_ms: ps.p90_ms,
                    frames: ps.frames,
                    deciles_ms: ps.deciles_ms,
                    ratio: ps.median_ms / paired,
                    modex_ms: paired,
                    format: p.format.label().to_string(),
                    same_picture: p.check.same_picture,
                    covered_modex: p.check.covered_modex,
                    covered_peer: p.check.covered_peer,
                    coverage_diff_pct: p.check.coverage_diff_pct,
                    colour_diff: p.check.colour_diff,
                },
            );
            if let Some(pic) = &p.picture {
                peer_pictures.insert(p.peer.name().to_string(), pic.clone());
            }
        }
        if let Some(pic) = of.iter().find_map(|m| m.picture.clone()) {
            pictures.push(Pictures {
                case: case.clone(),
                modex: pic,
                peers: peer_pictures,
            });
        }
        let per_s = |n: u64| n as f64 / (s.median_ms * 1e3);
        out.push(CaseReport {
            case: case.clone(),
            modex_ms: s.median_ms,
            p10_ms: s.p10_ms,
            p90_ms: s.p90_ms,
            frames: s.frames,
            deciles_ms: s.deciles_ms,
            pixels: first.pixels,
            triangles: first.triangles,
            mpixels_s: per_s(first.pixels),
            mtriangles_s: first.triangles.map(per_s),
            source: first.source.clone(),
            peers,
        });
    }
    (out, pictures)
}

/// How long a run of `options` will take at least: the timed frames alone (warm-up, scene
/// building and slow peer frames come on top).
pub fn minimum_duration(options: &Options, peers: usize) -> Result<Duration, BenchError> {
    let cases = options.cases()?;
    let children: u32 = cases
        .iter()
        .map(|c| match scenes::find(&c.scene).map(|n| n.kind) {
            Some(SceneKind::Raster) => peers.max(1) as u32,
            _ => 1,
        })
        .sum();
    Ok(options.budget()? * children)
}
