//! The plain `extern "C"` interface the page's JavaScript calls (`page/modex.js`).
//!
//! Buffers are Rust's: JavaScript asks for an input buffer of a size ([`modex_input`]), writes a
//! file name or file bytes at the address returned, and hands it over ([`modex_add_file`]);
//! pictures and texts are read back from the addresses [`modex_pixels`] and [`modex_text`]
//! return. So no pointer from JavaScript is ever dereferenced here and the crate needs no `unsafe`
//! blocks; only the `#[no_mangle]` export attribute, which the `unsafe_code` lint counts.
#![allow(unsafe_code)]

use std::cell::RefCell;

use modex::TargetFormat;
use modex_cutscene::Action;
use modex_view::level::{Motion, Start};

use crate::level::Steer;
use crate::page::Page;
use crate::view::View;

thread_local! {
    static PAGE: RefCell<Page> = RefCell::new(Page::default());
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static NAME: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static TEXT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static AUDIO: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// An input buffer of `len` bytes; returns its address for JavaScript to fill.
#[no_mangle]
pub extern "C" fn modex_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|b| {
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// The input buffer holds a file name: keep it for the next [`modex_add_file`] or [`modex_open`].
#[no_mangle]
pub extern "C" fn modex_set_name() {
    let name = INPUT.with_borrow_mut(std::mem::take);
    NAME.with_borrow_mut(|n| *n = name);
}

fn name() -> String {
    NAME.with_borrow(|n| String::from_utf8_lossy(n).into_owned())
}

/// The input buffer holds the bytes of the file named last: add it to the dropped files.
#[no_mangle]
pub extern "C" fn modex_add_file() {
    let bytes = INPUT.with_borrow_mut(std::mem::take);
    let name = name();
    PAGE.with_borrow_mut(|p| p.dropped.insert(&name, bytes));
}

/// Forget every dropped file.
#[no_mangle]
pub extern "C" fn modex_clear() {
    PAGE.with_borrow_mut(Page::clear);
}

fn set_text(s: &str) {
    TEXT.with_borrow_mut(|t| *t = s.as_bytes().to_vec());
}

/// Show the file named last (empty: the first showable one). 0 on success; 1 on an error, whose
/// message is then the text ([`modex_text`]). On success the text is the `#info` text.
#[no_mangle]
pub extern "C" fn modex_open() -> u32 {
    crate::console::init();
    let name = name();
    PAGE.with_borrow_mut(|p| match p.open(&name) {
        Ok(()) => {
            set_text(&p.info);
            0
        }
        Err(e) => {
            set_text(&error_chain(&e));
            1
        }
    })
}

/// Choose the file named last as the palette of the files shown next (`--palette`; an empty name:
/// none). 0 on success; 1 on an error (the text). The page shows the file again after it.
#[no_mangle]
pub extern "C" fn modex_set_palette() -> u32 {
    let name = name();
    PAGE.with_borrow_mut(|p| match p.set_palette(&name) {
        Ok(()) => 0,
        Err(e) => {
            set_text(&error_chain(&e));
            1
        }
    })
}

/// The showable files, one per line (for the page's file list).
#[no_mangle]
pub extern "C" fn modex_list() {
    PAGE.with_borrow(|p| {
        let list: Vec<String> = p.dropped.showable().into_iter().map(|s| s.name).collect();
        set_text(&list.join("\n"));
    });
}

/// Every dropped file for the page's tree, one per line: `kind<TAB>name<TAB>shown<TAB>note`
/// (`shown` is 1 when choosing it shows it), grouped by kind ([`crate::files::Kind`]).
#[no_mangle]
pub extern "C" fn modex_tree() {
    PAGE.with_borrow(|p| {
        let lines: Vec<String> = p
            .dropped
            .tree()
            .into_iter()
            .map(|e| {
                format!(
                    "{}\t{}\t{}\t{}",
                    e.kind.label(),
                    e.name,
                    e.shown as u8,
                    e.note
                )
            })
            .collect();
        set_text(&lines.join("\n"));
    });
}

/// An error and its causes, as the binary prints them (`a: b: c`).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(&format!(": {c}"));
        cause = c.source();
    }
    s
}

/// Draw a view of the model, unit or level shown: `format` 0..3 is 8-bit, 565, 4444, 8888, any
/// other value `modex render`'s default (which follows the content); a NaN `yaw` or `pitch` is
/// `modex render`'s default; `pan_x`, `pan_y` move the picture right and down by that many
/// picture heights. A level with a walker is drawn from its eye. 0 on success, 1 on an error
/// (the text).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn modex_draw(
    width: u32,
    height: u32,
    yaw: f32,
    pitch: f32,
    format: u32,
    frame: u32,
    facing: u32,
    zoom: f32,
    pan_x: f32,
    pan_y: f32,
) -> u32 {
    let view = View {
        size: (
            width.clamp(1, 4096) as usize,
            height.clamp(1, 4096) as usize,
        ),
        yaw: (!yaw.is_nan()).then_some(yaw),
        pitch: (!pitch.is_nan()).then_some(pitch),
        format: TargetFormat::ALL.get(format as usize).copied(),
        frame: frame as usize,
        facing,
        zoom: if zoom > 0.0 { zoom } else { 1.0 },
        pan: (
            if pan_x.is_finite() { pan_x } else { 0.0 },
            if pan_y.is_finite() { pan_y } else { 0.0 },
        ),
    };
    PAGE.with_borrow_mut(|p| match p.draw(&view) {
        Ok(()) => 0,
        Err(e) => {
            set_text(&error_chain(&e));
            1
        }
    })
}

/// The yaw a view of the file shown is drawn at when none is given (where the orbit starts).
#[no_mangle]
pub extern "C" fn modex_default_yaw() -> f32 {
    PAGE.with_borrow(|p| p.default_angles().0)
}

/// The pitch a view of the file shown is drawn at when none is given (where the orbit starts).
#[no_mangle]
pub extern "C" fn modex_default_pitch() -> f32 {
    PAGE.with_borrow(|p| p.default_angles().1)
}

/// The actions of the model or unit shown, one per line: `name<TAB>first frame<TAB>frames`.
#[no_mangle]
pub extern "C" fn modex_actions() {
    PAGE.with_borrow(|p| {
        let lines: Vec<String> = p
            .actions()
            .into_iter()
            .map(|a| format!("{}\t{}\t{}", a.name, a.first, a.count))
            .collect();
        set_text(&lines.join("\n"));
    });
}

/// Move the walker through the level shown for `dt` seconds: `forward`, `right`, `up` (-1..=1)
/// and `run` are the held move keys, `turn`, `tilt` the held arrow axes, `dx`, `dy` the mouse's
/// move in pixels, as `modex view` reads them. The walk begins where the last view was seen
/// from.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn modex_walk(
    dt: f32,
    forward: f32,
    right: f32,
    up: f32,
    run: u32,
    turn: f32,
    tilt: f32,
    dx: f32,
    dy: f32,
) {
    PAGE.with_borrow_mut(|p| {
        let view = p.last_view;
        if let Some(level) = p.level() {
            let steer = Steer {
                motion: Motion {
                    forward,
                    right,
                    up,
                    run: run != 0,
                },
                turn,
                tilt,
                moved: (dx, dy),
            };
            level.walk(&view, steer, dt);
        }
    })
}

/// Switch the walker in the level shown between walking and flying (the G key).
#[no_mangle]
pub extern "C" fn modex_walk_toggle() {
    PAGE.with_borrow_mut(|p| {
        let view = p.last_view;
        if let Some(level) = p.level() {
            level.toggle_walk(&view);
        }
    })
}

/// Stand in the level shown at `x, y, z` looking along `pan`, `tilt` (`--camera`); a NaN `x`
/// leaves the walk, back to the views of yaw and pitch.
#[no_mangle]
pub extern "C" fn modex_set_camera(x: f32, y: f32, z: f32, pan: f32, tilt: f32) {
    PAGE.with_borrow_mut(|p| {
        if let Some(level) = p.level() {
            let at = [x, y, z, pan, tilt]
                .iter()
                .all(|v| v.is_finite())
                .then(|| Start {
                    eye: glam::Vec3::new(x, y, z),
                    pan,
                    tilt,
                });
            level.set_camera(at);
        }
    })
}

/// Where the level shown is seen from: 0 without a walker; else 1 flying, 2 walking, and the
/// text is the camera as `X,Y,Z,PAN,TILT` (each number as short as reads back to the same
/// value, so `modex render --camera` with it draws the same picture).
#[no_mangle]
pub extern "C" fn modex_camera() -> u32 {
    PAGE.with_borrow_mut(|p| {
        let Some(level) = p.level() else { return 0 };
        let (Some(at), Some(walking)) = (level.camera(), level.walking()) else {
            return 0;
        };
        set_text(&format!(
            "{},{},{},{},{}",
            at.eye.x, at.eye.y, at.eye.z, at.pan, at.tilt
        ));
        1 + walking as u32
    })
}

/// The frames (cutscenes: ticks) of the file shown.
#[no_mangle]
pub extern "C" fn modex_frames() -> u32 {
    PAGE.with_borrow(|p| p.frames() as u32)
}

/// Whether the file shown is a cutscene.
#[no_mangle]
pub extern "C" fn modex_is_cutscene() -> u32 {
    PAGE.with_borrow(|p| p.is_cutscene() as u32)
}

/// Let `ms` of wall-clock time pass in the cutscene and draw its tick; returns the tick.
#[no_mangle]
pub extern "C" fn modex_cutscene_tick(ms: f64) -> u32 {
    PAGE.with_borrow_mut(|p| {
        let Page {
            rgba, rgba_size, ..
        } = &mut *p;
        let (mut out, mut size) = (std::mem::take(rgba), *rgba_size);
        let tick = p.cutscene().map_or(0, |c| {
            c.advance(ms);
            size = c.draw(&mut out);
            AUDIO.with_borrow_mut(|a| *a = c.take_samples());
            c.tick()
        });
        p.rgba = out;
        p.rgba_size = size;
        tick
    })
}

/// A transport action: 0 pause/resume, 1 step forward, 2 step back, 3 seek to tick `arg`.
#[no_mangle]
pub extern "C" fn modex_cutscene_action(action: u32, arg: u32) {
    PAGE.with_borrow_mut(|p| {
        if let Some(c) = p.cutscene() {
            let a = match action {
                0 => Action::TogglePause,
                1 => Action::Step(1),
                2 => Action::Step(-1),
                _ => Action::Seek(arg as i64 - c.tick() as i64),
            };
            c.apply(a);
        }
    })
}

/// Address of the last picture's RGBA8 pixels.
#[no_mangle]
pub extern "C" fn modex_pixels() -> *const u8 {
    PAGE.with_borrow(|p| p.rgba.as_ptr())
}

/// The last picture's width and height, packed as `width << 16 | height`.
#[no_mangle]
pub extern "C" fn modex_pixels_size() -> u32 {
    PAGE.with_borrow(|p| ((p.rgba_size.0 as u32) << 16) | p.rgba_size.1 as u32)
}

/// Address of the last text (error or info), UTF-8.
#[no_mangle]
pub extern "C" fn modex_text() -> *const u8 {
    TEXT.with_borrow(|t| t.as_ptr())
}

/// Length of the last text in bytes.
#[no_mangle]
pub extern "C" fn modex_text_len() -> usize {
    TEXT.with_borrow(|t| t.len())
}

/// Address of the sound mixed by the last [`modex_cutscene_tick`], mono f32 at 22050 Hz.
#[no_mangle]
pub extern "C" fn modex_audio() -> *const f32 {
    AUDIO.with_borrow(|a| a.as_ptr())
}

/// Samples in [`modex_audio`].
#[no_mangle]
pub extern "C" fn modex_audio_len() -> usize {
    AUDIO.with_borrow(|a| a.len())
}
