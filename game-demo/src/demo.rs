//! The demo scene shown by `cargo run`.
//!
//! Until the voxel-unit battlefield lands (issue 7), this is a placeholder that exercises the whole
//! core path: a mode-X plasma drawn plane by plane into the 8-bit frame, a palette fade-in over the
//! first second, a fixed time step, and either the window presenter or the headless PNG writer.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use modex::present::{HeadlessPresenter, Present, WindowPresenter};
use modex::{IndexedFrame, Palette};

use crate::cli::DemoArgs;

/// Fixed simulation step: 60 frames per second of scene time, whatever the real frame rate.
const STEP: f64 = 1.0 / 60.0;

/// The placeholder scene: a deterministic function of the frame number.
struct Scene {
    frame: IndexedFrame,
    target: Palette,
    palette: Palette,
    sine: [i32; 256],
}

impl Scene {
    fn new() -> Scene {
        // A warm ramp palette: black -> red -> yellow -> white, twice round the 256 entries.
        let mut target = Palette::grey_ramp();
        for (i, c) in target.colors.iter_mut().enumerate() {
            let t = (i % 128) as u32 * 2;
            *c = [
                t.min(255) as u8,
                t.saturating_sub(64).min(255) as u8,
                t.saturating_sub(160).saturating_mul(2).min(255) as u8,
            ];
        }
        let sine = std::array::from_fn(|i| {
            ((i as f64 / 256.0 * std::f64::consts::TAU).sin() * 63.0).round() as i32
        });
        Scene {
            frame: IndexedFrame::default(),
            palette: Palette {
                colors: [[0; 3]; 256],
            },
            target,
            sine,
        }
    }

    /// Draw frame `n` of the scene.
    fn update(&mut self, n: u32) {
        let t = n as i32;
        let s = &self.sine;
        let (w, h) = (self.frame.width(), self.frame.height());
        // Walk in mode-X order, as the original hardware was written: plane by plane.
        for plane in 0..4 {
            for col in 0..self.frame.plane_columns(plane) {
                let x = (col * 4 + plane) as i32;
                let a = s[((x * 2 + t) & 255) as usize];
                for row in 0..h {
                    let y = row as i32;
                    let b = s[((y * 3 - t * 2) & 255) as usize];
                    let c = s[(((x + y) + t * 3) & 255) as usize];
                    let v = (a + b + c + 192) as u8;
                    self.frame.planar_set(plane, col, row, v);
                }
            }
        }
        debug_assert_eq!(self.frame.pixels().len(), w * h);
        let black = Palette {
            colors: [[0; 3]; 256],
        };
        self.palette = Palette::fade(&black, &self.target, 0..=255, n.min(60), 60);
    }
}

pub fn run(args: &DemoArgs) -> Result<()> {
    let mut scene = Scene::new();
    if let Some(secs) = args.soak {
        return soak(&mut scene, secs);
    }
    if args.headless {
        let mut out = HeadlessPresenter::new(&args.out)?;
        let start = Instant::now();
        for n in 0..args.frames {
            scene.update(n);
            out.present_indexed(&scene.frame, &scene.palette)?;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "wrote {} frames to {} ({:.1} frames/s including PNG encoding)",
            args.frames,
            args.out.display(),
            args.frames as f64 / secs.max(1e-9)
        );
        return Ok(());
    }
    let mut window = WindowPresenter::open(
        "modex demo (ESC quits)",
        scene.frame.width(),
        scene.frame.height(),
        args.scale,
        args.aspect,
    )
    .context("cannot open a window (use --headless on a machine without a display)")?;
    let start = Instant::now();
    let mut n = 0u32;
    loop {
        // Advance the scene to wall-clock time in fixed steps, then show the newest frame.
        let due = (start.elapsed().as_secs_f64() / STEP) as u32;
        n = n.max(due);
        scene.update(n);
        if !window.present_indexed(&scene.frame, &scene.palette)? {
            break;
        }
        let next = start + Duration::from_secs_f64((n + 1) as f64 * STEP);
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        n += 1;
    }
    Ok(())
}

/// Resident memory in KiB, from /proc (Linux); `None` elsewhere.
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn soak(scene: &mut Scene, secs: u64) -> Result<()> {
    let start = Instant::now();
    let before = resident_kib();
    let mut n = 0;
    while start.elapsed() < Duration::from_secs(secs) {
        scene.update(n);
        n += 1;
    }
    let after = resident_kib();
    println!(
        "soak: {n} frames in {secs} s; resident memory {} KiB at start, {} KiB at end",
        before.map_or("?".into(), |v| v.to_string()),
        after.map_or("?".into(), |v| v.to_string())
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scene_is_deterministic_and_fades_in() {
        let mut a = Scene::new();
        let mut b = Scene::new();
        a.update(17);
        b.update(17);
        assert_eq!(a.frame, b.frame);
        assert_eq!(a.palette, b.palette);
        a.update(0);
        assert!(a.palette.colors.iter().all(|c| *c == [0, 0, 0]));
        a.update(60);
        assert_eq!(a.palette, a.target);
        // The plasma uses a wide range of indices.
        let distinct: std::collections::HashSet<u8> = a.frame.pixels().iter().copied().collect();
        assert!(distinct.len() > 100);
    }
}
