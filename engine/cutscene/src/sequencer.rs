//! The sequencer: runs a scene on a clock of 25 ticks per second on a mode-X frame.
//!
//! # Model
//! The screen is one persistent 8-bit framebuffer, as the game's VGA memory was: every tick, `clear`
//! commands due at that tick fill their rectangles, then every visible layer (`play`) and text box
//! (`write`) is drawn over what is there, in PRI order (lower PRI first, so higher PRI is on top;
//! ties keep script order). A layer whose DUR ran out with END 0 is simply not drawn any more; what
//! it left stays until something draws over it or clears it.
//!
//! Everything except the framebuffer is a pure function of the tick: which picture a layer shows
//! and where, how much of a text is typed, the palette, the sounds that start. The framebuffer at
//! tick `t` is the result of drawing ticks `0..=t` in order. [`Sequencer::frame_at`] always gets
//! there by drawing every tick (from a checkpoint), never by skipping, so a player at 4x speed, one
//! stepping backwards and an export all see the same frames: the scene is deterministic at any
//! playback speed.
//!
//! # Rules (from the original text; guesses marked)
//! - `play`: FRQ pictures per second independent of the tick rate (step `k` at tick
//!   `BGN + t` is `t * FRQ / 25`, integer). PMO 0..7 as in [`picture_for_step`]; END 0 stops drawing,
//!   1 shows picture step 0 at the final position, 2 freezes the picture reached; 3..5 are treated
//!   as 0 with a logged note. Position `(WIL + STX + DTX * k, WIT + STY + DTY * k)`, cut off at the
//!   window `WIL, WIT, WIW, WIH` (see [Windows](#windows)). PMO 5 reverses DTX/DTY at each end of
//!   the ping-pong. END 1, PMO 2 and PMO 5 are each one of two readings of the text (see
//!   [Readings](#readings-where-the-text-is-open)).
//! - `write`: the text is placed from the window's corner `(WIL, WIT)`, wrapped at its width and
//!   cut off at its edges like a layer's. STY 100 shows the text at once, 101 types one character
//!   per tick with a cursor; fx with BGN -1 sound on each typed character, -2 on each line return.
//!   Default colour 15 until a `^COL` code (a guess: the argument that chooses it is unknown).
//! - `clear` fills columns `left..left + width` and rows `top..top + height` (ends exclusive) with
//!   its second argument, before the tick's layers are drawn. The rectangle is cut to the screen,
//!   never moved onto it; a width or height of 0 or less clears nothing.
//! - `initpal` sets the palette; `BLEND` fades colours low..high from its named palette to the other
//!   over `min(end - begin, 127)` ticks. Fades change colours only.
//! - `fx` plays a sound at tick BGN on the script's channel, volume /127, repeat n times (0 or less:
//!   until `fxstop` — a guess). `fxstop` stops one channel or all.
//! - `End(t)` sets the scene length.
//!
//! # Windows
//! The text: "The window: left, top, width and height. The layer is drawn relative to it and cut
//! off at its edges." (WIL, WIT, WIW, WIH of `play`; `write` shows its text "in the window
//! WIL..WIH"). A window covers columns `WIL..WIL + WIW` and rows `WIT..WIT + WIH` (ends exclusive),
//! reckoned from the script's values as they stand and only then cut to the screen. So a window
//! that starts left of or above the screen keeps its right and bottom edges (WIL -20, WIW 90 shows
//! columns 0..69), the layer's and the text's positions count from the window's own corner, not
//! from where the screen cuts it, and a window wholly off the screen shows nothing. The edges are
//! worked out in 64 bits, so no script value overflows them.
//!
//! A width or height of 0 or less reaches to the screen's right or bottom edge (a guess), still
//! from the window's own left or top: a `write` box with WIW 0 wraps its text at
//! `screen width - WIL`.
//!
//! # Readings where the text is open
//! In three places the original text reads two ways. The sequencer plays one; the other is written
//! beside it, so that a scene which shows the difference can settle it.
//! - **END 1.** The text: "1: the frame counter goes back to 0 and the layer stays on screen at
//!   its final position." Played: once DUR has run out, the layer shows the picture of step 0
//!   (picture 0; the last picture for the backward modes PMO 1 and 4) at the position of its last
//!   step, and stops there: no further pictures, no further movement. The other reading: the
//!   counter goes back to 0 and the layer plays on from step 0, at its final position.
//! - **PMO 2 after its round trip.** The text: "Forwards and back again, holding the end picture
//!   for one step (0,1,2,3,3,2,1,0)." Played: the round trip repeats for as long as the layer is
//!   shown (0,1,2,3,3,2,1,0,0,1,2,3,...). The other reading: one round trip, then the layer holds
//!   picture 0, as PMO 0 and 1 hold their end picture after playing once.
//! - **PMO 5.** The text: "As 2, and also reverses DTX/DTY at each end." Played: the movement
//!   counts picture steps and turns at each end of the ping-pong, so the layer moves on one step
//!   while the end picture is held, then comes back (with 4 pictures: pictures 0,1,2,3,3,2,1,0 at
//!   movements 0,1,2,3,4,3,2,1; `movement_for_step`). The other reading: the movement follows the
//!   picture number, so the layer stands still while an end picture is held (movements
//!   0,1,2,3,3,2,1,0).

use std::collections::BTreeMap;
use std::sync::Arc;

use modex::{IndexedFrame, Palette, Repeat};

use crate::ascr::{Blend, Clear, Command, Fx, Play, Write, TICKS_PER_SECOND};
use crate::font;
use crate::scene::{ClipPictures, Scene};
use crate::text_layout::{self, Align, TextLayout};

/// Longest palette fade.
pub const MAX_FADE_TICKS: i32 = 127;
/// Default text colour.
pub const DEFAULT_TEXT_COLOUR: u8 = 15;
/// Ticks between stored framebuffer checkpoints (for seeking backwards).
const CHECKPOINT_EVERY: u32 = 25;
/// Scenes without `End` run until their last timed event, but never longer than this.
pub const MAX_SCENE_TICKS: u32 = TICKS_PER_SECOND * 60 * 30;
/// Mixer channel of `^VOC` voices in text (the script gives no channel for them).
pub const VOICE_CHANNEL: u32 = 0;

/// The picture index a layer shows at picture step `k` of a clip of `n` pictures, by PMO.
///
/// - 0 forwards once, then holds the last picture; 1 backwards once, then holds the first;
/// - 2 and 5 forwards and back, holding each end picture for one step (0,1,2,3,3,2,1,0, repeating);
/// - 3 forwards, repeating; 4 backwards, repeating;
/// - 6 forwards, then repeats from the second picture: later laps never show the first picture.
///   Anchors are never pictures (see [`crate::bbhd::BbhdClip::pictures`]), so an anchor that ends
///   the clip is not shown in any lap either;
/// - 7 holds the first picture.
///
/// Unknown modes play as 0.
pub fn picture_for_step(pmo: i32, k: u64, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let n64 = n as u64;
    (match pmo {
        1 => n64 - 1 - k.min(n64 - 1),
        2 | 5 => {
            let r = k % (2 * n64);
            if r < n64 {
                r
            } else {
                2 * n64 - 1 - r
            }
        }
        3 => k % n64,
        4 => n64 - 1 - k % n64,
        6 => {
            if k < n64 || n64 == 1 {
                k.min(n64 - 1)
            } else {
                1 + (k - n64) % (n64 - 1)
            }
        }
        7 => 0,
        _ => k.min(n64 - 1),
    }) as usize
}

/// Net movement in steps after `k` picture steps: `k`, except for PMO 5 which reverses the
/// direction at each end of its ping-pong.
fn movement_for_step(pmo: i32, k: u64, n: usize) -> i64 {
    if pmo != 5 || n == 0 {
        return k as i64;
    }
    let n = n as u64;
    let r = k % (2 * n);
    (if r <= n { r } else { 2 * n - r }) as i64
}

/// What a layer shows at a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayerView {
    /// The picture shown (index into the clip's pictures of forward play).
    pub picture: usize,
    /// Screen column of the picture's left edge.
    pub x: i32,
    /// Screen row of the picture's top edge.
    pub y: i32,
}

/// Picture steps after `ticks` ticks at `frq` pictures per second.
fn steps(ticks: i64, frq: i32) -> u64 {
    (ticks.max(0) as u64) * frq.max(0) as u64 / TICKS_PER_SECOND as u64
}

/// The state of a `play` layer at tick `t`, or `None` when it is not drawn.
pub fn layer_view(p: &Play, pictures: usize, t: i64) -> Option<LayerView> {
    let bgn = p.bgn as i64;
    if t < bgn || pictures == 0 {
        return None;
    }
    let rel = t - bgn;
    let dur = p.dur as i64;
    let at = |k: u64, pic: usize| {
        let m = movement_for_step(p.pmo, k, pictures);
        LayerView {
            picture: pic,
            // Saturating: a script may hold any i32, and movement grows with the clock.
            x: (p.wil as i64 + p.stx as i64)
                .saturating_add((p.dtx as i64).saturating_mul(m))
                .clamp(-1 << 30, 1 << 30) as i32,
            y: (p.wit as i64 + p.sty as i64)
                .saturating_add((p.dty as i64).saturating_mul(m))
                .clamp(-1 << 30, 1 << 30) as i32,
        }
    };
    if rel < dur {
        let k = steps(rel, p.frq);
        return Some(at(k, picture_for_step(p.pmo, k, pictures)));
    }
    let last = steps((dur - 1).max(0), p.frq);
    match p.end {
        1 => Some(at(last, picture_for_step(p.pmo, 0, pictures))),
        2 => Some(at(last, picture_for_step(p.pmo, last, pictures))),
        _ => None,
    }
}

/// A sound to start or stop.
#[derive(Debug, Clone, PartialEq)]
pub enum SoundEvent {
    /// Start a sound on a channel, replacing what it played.
    Play {
        /// Mixer channel.
        channel: u32,
        /// Sound bank (`ENG/AFXS###.LIB`).
        bank: i32,
        /// Entry of the bank, in name order.
        sound: i32,
        /// 0.0..=1.0.
        volume: f32,
        /// How often it plays.
        repeat: Repeat,
    },
    /// Silence one channel.
    Stop {
        /// Mixer channel.
        channel: u32,
    },
    /// Silence every channel.
    StopAll,
}

#[derive(Debug, Clone)]
enum Drawable {
    Layer { play: Play, clip: Arc<ClipPictures> },
    Text { write: Write, layout: TextLayout },
}

#[derive(Debug, Clone)]
struct Ordered {
    pri: i32,
    order: usize,
    item: Drawable,
}

/// The compiled scene: drawables in drawing order, fades, sound events.
#[derive(Debug, Clone)]
pub struct Timeline {
    width: usize,
    height: usize,
    length: u32,
    drawables: Vec<Ordered>,
    clears: Vec<Clear>,
    base_palette: Palette,
    blends: Vec<(Blend, Palette, Palette)>,
    fx: Vec<Fx>,
    typed_fx: Vec<Fx>,
    stops: Vec<(Option<i32>, i32)>,
    /// Voice sounds from `^VOC` in typed text: (tick, voice).
    voices: Vec<(i64, u32)>,
    notes: Vec<String>,
}

impl Timeline {
    /// Compile a scene. Commands whose assets are missing are skipped (the scene already warned).
    pub fn new(scene: &Scene) -> Timeline {
        let mut drawables = Vec::new();
        let mut clears = Vec::new();
        let mut base_palette = None;
        let mut blends = Vec::new();
        let mut fx = Vec::new();
        let mut typed_fx = Vec::new();
        let mut stops = Vec::new();
        let mut voices = Vec::new();
        let mut notes = Vec::new();
        let mut last_event = 0i64;
        let a = &scene.assets;
        for (order, line) in scene.script.lines.iter().enumerate() {
            match &line.command {
                Command::Play(p) => {
                    let Some(clip) = a.clips.get(&(p.lna, p.lnr, p.enr)) else {
                        continue;
                    };
                    let mut play = *p;
                    if (3..=5).contains(&p.end) {
                        let note = format!(
                            "line {}: END {} is not understood; played as END 0",
                            line.line, p.end
                        );
                        log::info!("{note}");
                        notes.push(note);
                        play.end = 0;
                    }
                    if !(0..=7).contains(&p.pmo) {
                        notes.push(format!("line {}: PMO {} played as 0", line.line, p.pmo));
                    }
                    last_event = last_event.max(p.bgn as i64 + p.dur as i64);
                    drawables.push(Ordered {
                        pri: p.pri,
                        order,
                        item: Drawable::Layer {
                            play,
                            clip: clip.clone(),
                        },
                    });
                }
                Command::Write(w) => {
                    let Some(msg) = a.texts.get(&(w.tnr, w.tid)) else {
                        continue;
                    };
                    let width = if w.wiw > 0 {
                        w.wiw
                    } else {
                        (scene.width as i32).saturating_sub(w.wil)
                    };
                    let layout = text_layout::layout(
                        msg,
                        width,
                        Align::from_alg(w.alg),
                        DEFAULT_TEXT_COLOUR,
                    );
                    if w.sty == 101 {
                        for &(glyph, v) in &layout.voices {
                            voices.push((w.bgn as i64 + glyph as i64, v));
                        }
                    } else {
                        for &(_, v) in &layout.voices {
                            voices.push((w.bgn as i64, v));
                        }
                    }
                    last_event = last_event.max(w.bgn as i64 + w.dur as i64);
                    drawables.push(Ordered {
                        pri: w.pri,
                        order,
                        item: Drawable::Text { write: *w, layout },
                    });
                }
                Command::InitPal(r) => {
                    if let Some(p) = a.palettes.get(&(r.archive, r.entry)) {
                        base_palette = Some(p.clone());
                    }
                }
                Command::Blend(b) => {
                    if let (Some(from), Some(to)) = (
                        a.palettes.get(&(b.from.archive, b.from.entry)),
                        a.palettes.get(&(b.to.archive, b.to.entry)),
                    ) {
                        last_event = last_event.max(b.end as i64);
                        blends.push((*b, from.clone(), to.clone()));
                    }
                }
                Command::Clear(c) => {
                    last_event = last_event.max(c.begin as i64 + 1);
                    clears.push(*c);
                }
                Command::Fx(f) => {
                    if f.bgn < 0 {
                        typed_fx.push(*f);
                    } else {
                        last_event = last_event.max(f.bgn as i64 + 1);
                        fx.push(*f);
                    }
                }
                Command::FxStop { channel, tick } => stops.push((*channel, *tick)),
                Command::FmStart(args) => notes.push(format!(
                    "line {}: fmstart{args:?} has no known audible result; ignored",
                    line.line
                )),
                Command::End(_) | Command::Rem(_) => {}
            }
        }
        drawables.sort_by_key(|d| (d.pri, d.order));
        blends.sort_by_key(|(b, _, _)| b.begin);
        let length = match scene.script.end_tick() {
            Some(t) => t.max(1) as u32,
            None => last_event.clamp(1, MAX_SCENE_TICKS as i64) as u32,
        };
        Timeline {
            width: scene.width,
            height: scene.height,
            length: length.min(MAX_SCENE_TICKS),
            drawables,
            clears,
            base_palette: base_palette.unwrap_or_else(Palette::grey_ramp),
            blends,
            fx,
            typed_fx,
            stops,
            voices,
            notes,
        }
    }

    /// Scene length in ticks (`End`).
    pub fn length(&self) -> u32 {
        self.length
    }

    /// Screen (width, height) in pixels.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Notes about commands played in a substitute way (END 3..5, unknown PMO, fmstart).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The palette at tick `t`: the `initpal` palette with every BLEND that has begun applied.
    pub fn palette_at(&self, t: u32) -> Palette {
        let mut pal = self.base_palette.clone();
        for (b, from, to) in &self.blends {
            let t = t as i64;
            if t < b.begin as i64 {
                continue;
            }
            let lo = b.low.clamp(0, 255) as u8;
            let hi = b.high.clamp(0, 255) as u8;
            if lo > hi {
                continue;
            }
            let steps = (b.end as i64 - b.begin as i64).clamp(0, MAX_FADE_TICKS as i64) as u32;
            let step = ((t - b.begin as i64) as u64).min(steps as u64) as u32;
            let faded = Palette::fade(from, to, lo..=hi, step, steps);
            for i in lo..=hi {
                pal.colors[i as usize] = faded.colors[i as usize];
            }
        }
        pal
    }

    /// Sounds that start or stop at tick `t`, in script order (stops first).
    pub fn sound_events(&self, t: u32) -> Vec<SoundEvent> {
        let t = t as i64;
        let mut out = Vec::new();
        for &(channel, tick) in &self.stops {
            if tick as i64 == t {
                out.push(match channel {
                    Some(c) if c >= 0 => SoundEvent::Stop { channel: c as u32 },
                    _ => SoundEvent::StopAll,
                });
            }
        }
        let play = |f: &Fx| SoundEvent::Play {
            channel: f.channel.max(0) as u32,
            bank: f.bank,
            sound: f.sound,
            volume: (f.volume.clamp(0, 127) as f32) / 127.0,
            repeat: if f.repeat <= 0 {
                Repeat::Forever
            } else {
                Repeat::Times(f.repeat as u32)
            },
        };
        for f in &self.fx {
            if f.bgn as i64 == t {
                out.push(play(f));
            }
        }
        // Typed text: -1 on each typed character, -2 on each line return.
        for d in &self.drawables {
            let Drawable::Text { write, layout } = &d.item else {
                continue;
            };
            if write.sty != 101 {
                continue;
            }
            let i = t - write.bgn as i64;
            if i < 0 || i >= write.dur as i64 || i as usize >= layout.glyphs.len() {
                continue;
            }
            let i = i as usize;
            let new_line = i > 0 && layout.glyphs[i].line != layout.glyphs[i - 1].line;
            for f in &self.typed_fx {
                if f.bgn == -1 || (f.bgn == -2 && new_line) {
                    out.push(play(f));
                }
            }
        }
        for &(tick, v) in &self.voices {
            if tick == t {
                out.push(SoundEvent::Play {
                    channel: VOICE_CHANNEL,
                    bank: 0,
                    sound: v as i32,
                    volume: 1.0,
                    repeat: Repeat::Times(1),
                });
            }
        }
        out
    }

    /// Draw tick `t` over `frame` (which holds tick `t - 1`).
    pub fn draw_tick(&self, t: u32, frame: &mut IndexedFrame) {
        let ti = t as i64;
        for c in &self.clears {
            if c.begin as i64 == ti {
                let (left, top) = (c.left as i64, c.top as i64);
                let (x0, y0, x1, y1) = cut_to_frame(
                    (left, top, left + c.width as i64, top + c.height as i64),
                    frame.width(),
                    frame.height(),
                );
                let colour = c.colour.clamp(0, 255) as u8;
                for y in y0..y1 {
                    frame.row_mut(y as usize)[x0 as usize..x1 as usize].fill(colour);
                }
            }
        }
        for d in &self.drawables {
            match &d.item {
                Drawable::Layer { play, clip } => {
                    let Some(v) = layer_view(play, clip.pictures.len(), ti) else {
                        continue;
                    };
                    let window = window_rect(
                        play.wil,
                        play.wit,
                        play.wiw,
                        play.wih,
                        frame.width(),
                        frame.height(),
                    );
                    blit_clipped(
                        frame,
                        &clip.pictures[v.picture],
                        v.x,
                        v.y,
                        window,
                        clip.transparency_for(play.eff),
                    );
                }
                Drawable::Text { write, layout } => draw_text(frame, write, layout, ti),
            }
        }
    }
}

/// The part of the window `l, t, w, h` (a `play`'s or `write`'s WIL, WIT, WIW, WIH) on a
/// `fw` x `fh` frame, as (left, top, right, bottom) with exclusive right and bottom. The far edges
/// come from the script's own left and top, wherever they are, and only then is the window cut to
/// the frame: a window starting off the screen keeps its right and bottom edges. A width or height
/// of 0 or less reaches to the frame's right or bottom edge.
fn window_rect(l: i32, t: i32, w: i32, h: i32, fw: usize, fh: usize) -> (i32, i32, i32, i32) {
    let far = |start: i32, size: i32| {
        if size > 0 {
            start as i64 + size as i64
        } else {
            i64::MAX
        }
    };
    cut_to_frame((l as i64, t as i64, far(l, w), far(t, h)), fw, fh)
}

/// The rectangle (left, top, right, bottom; exclusive right and bottom, anywhere on the script's
/// plane) cut to a `fw` x `fh` frame. The result lies in the frame, with `left <= right` and
/// `top <= bottom`; a rectangle wholly off the frame (or with right <= left) becomes empty.
fn cut_to_frame(r: (i64, i64, i64, i64), fw: usize, fh: usize) -> (i32, i32, i32, i32) {
    let extent = |n: usize| n.min(i32::MAX as usize) as i64;
    let (fw, fh) = (extent(fw), extent(fh));
    let (left, top) = (r.0.clamp(0, fw), r.1.clamp(0, fh));
    let (right, bottom) = (r.2.clamp(left, fw), r.3.clamp(top, fh));
    (left as i32, top as i32, right as i32, bottom as i32)
}

/// Copy `src` to (x, y) in `dst`, only inside `clip`, skipping `transparent`.
fn blit_clipped(
    dst: &mut IndexedFrame,
    src: &IndexedFrame,
    x: i32,
    y: i32,
    clip: (i32, i32, i32, i32),
    transparent: Option<u8>,
) {
    let (cl, ct, cr, cb) = clip;
    let x0 = (x as i64).max(cl as i64);
    let x1 = (x as i64 + src.width() as i64).min(cr as i64);
    let y0 = (y as i64).max(ct as i64);
    let y1 = (y as i64 + src.height() as i64).min(cb as i64);
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    let sx0 = (x0 - x as i64) as usize;
    let sx1 = (x1 - x as i64) as usize;
    for dy in y0..y1 {
        let sy = (dy - y as i64) as usize;
        let s = &src.row(sy)[sx0..sx1];
        let d = &mut dst.row_mut(dy as usize)[x0 as usize..x1 as usize];
        match transparent {
            None => d.copy_from_slice(s),
            Some(k) => {
                for (dp, &sp) in d.iter_mut().zip(s) {
                    if sp != k {
                        *dp = sp;
                    }
                }
            }
        }
    }
}

fn draw_text(frame: &mut IndexedFrame, w: &Write, layout: &TextLayout, t: i64) {
    let rel = t - w.bgn as i64;
    if rel < 0 || rel >= w.dur as i64 {
        return;
    }
    let clip = window_rect(w.wil, w.wit, w.wiw, w.wih, frame.width(), frame.height());
    let typed = w.sty == 101;
    let shown = if typed {
        ((rel + 1) as usize).min(layout.glyphs.len())
    } else {
        layout.glyphs.len()
    };
    for g in &layout.glyphs[..shown] {
        font::draw_char(
            frame,
            g.byte,
            w.wil.saturating_add(g.x),
            w.wit.saturating_add(g.y),
            g.colour,
            g.bold,
            clip,
        );
    }
    if typed && shown < layout.glyphs.len() {
        let next = &layout.glyphs[shown];
        let colour = layout.glyphs[shown.saturating_sub(1)].colour;
        font::draw_char(
            frame,
            font::CURSOR,
            w.wil.saturating_add(next.x),
            w.wit.saturating_add(next.y),
            colour,
            false,
            clip,
        );
    }
}

/// Plays a [`Timeline`] into a framebuffer, seeking by replay from checkpoints.
#[derive(Debug, Clone)]
pub struct Sequencer {
    timeline: Arc<Timeline>,
    frame: IndexedFrame,
    /// Ticks drawn into `frame` so far (the frame shows tick `drawn - 1`).
    drawn: u32,
    checkpoints: BTreeMap<u32, IndexedFrame>,
}

impl Sequencer {
    /// A sequencer at the start of `timeline` (nothing drawn yet).
    pub fn new(timeline: Arc<Timeline>) -> Self {
        let (w, h) = timeline.size();
        Sequencer {
            timeline,
            frame: IndexedFrame::new(w, h),
            drawn: 0,
            checkpoints: BTreeMap::new(),
        }
    }

    /// A sequencer for `scene`.
    pub fn for_scene(scene: &Scene) -> Self {
        Sequencer::new(Arc::new(Timeline::new(scene)))
    }

    /// The compiled scene.
    pub fn timeline(&self) -> &Timeline {
        &self.timeline
    }

    /// Every tick of the scene in order, from 0 to its end: `f(tick, frame, palette)`. Stops at
    /// the first error `f` returns (an exporter's full disk).
    pub fn for_each_tick<E>(
        &mut self,
        mut f: impl FnMut(u32, &IndexedFrame, &Palette) -> Result<(), E>,
    ) -> Result<(), E> {
        for t in 0..self.timeline.length() {
            let palette = self.timeline.palette_at(t);
            f(t, self.frame_at(t), &palette)?;
        }
        Ok(())
    }

    /// The framebuffer after drawing ticks `0..=t`.
    pub fn frame_at(&mut self, t: u32) -> &IndexedFrame {
        if t + 1 < self.drawn {
            // Back up to the last checkpoint at or before t (a checkpoint k holds ticks 0..k).
            match self.checkpoints.range(..=t + 1).next_back() {
                Some((&k, f)) => {
                    self.frame = f.clone();
                    self.drawn = k;
                }
                None => {
                    self.frame.clear(0);
                    self.drawn = 0;
                }
            }
        }
        while self.drawn <= t {
            self.timeline.draw_tick(self.drawn, &mut self.frame);
            self.drawn += 1;
            if self.drawn % CHECKPOINT_EVERY == 0 {
                self.checkpoints
                    .entry(self.drawn)
                    .or_insert_with(|| self.frame.clone());
            }
        }
        &self.frame
    }

    /// The palette at tick `t`.
    pub fn palette_at(&self, t: u32) -> Palette {
        self.timeline.palette_at(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pmo_sequences() {
        let seq = |pmo, n, k| {
            (0..k)
                .map(|i| picture_for_step(pmo, i, n))
                .collect::<Vec<_>>()
        };
        assert_eq!(seq(0, 4, 6), [0, 1, 2, 3, 3, 3]);
        assert_eq!(seq(1, 4, 6), [3, 2, 1, 0, 0, 0]);
        assert_eq!(seq(2, 4, 10), [0, 1, 2, 3, 3, 2, 1, 0, 0, 1]);
        assert_eq!(seq(3, 3, 7), [0, 1, 2, 0, 1, 2, 0]);
        assert_eq!(seq(4, 3, 7), [2, 1, 0, 2, 1, 0, 2]);
        assert_eq!(seq(5, 4, 8), seq(2, 4, 8));
        assert_eq!(seq(6, 4, 11), [0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1]);
        assert_eq!(seq(6, 1, 3), [0, 0, 0]);
        assert_eq!(seq(7, 4, 5), [0, 0, 0, 0, 0]);
        assert_eq!(seq(9, 2, 3), [0, 1, 1]);
        assert_eq!(picture_for_step(3, 5, 0), 0);
    }

    #[test]
    fn pmo5_reverses_movement_at_each_end() {
        let m: Vec<i64> = (0..10).map(|k| movement_for_step(5, k, 3)).collect();
        assert_eq!(m, [0, 1, 2, 3, 2, 1, 0, 1, 2, 3]);
        assert_eq!(movement_for_step(3, 7, 3), 7);
    }

    #[test]
    fn frq_is_independent_of_the_tick_rate() {
        let p = Play {
            frq: 15,
            dur: 100,
            pmo: 3,
            ..Default::default()
        };
        // FRQ 15 advances one picture every 1.67 ticks: 15 steps in 25 ticks.
        assert_eq!(layer_view(&p, 100, 24).unwrap().picture, 14);
        assert_eq!(layer_view(&p, 100, 25).unwrap().picture, 15);
        assert_eq!(layer_view(&p, 100, 2).unwrap().picture, 1);
    }

    #[test]
    fn end_modes() {
        let p = Play {
            frq: 25,
            bgn: 10,
            dur: 5,
            dtx: 2,
            pmo: 0,
            ..Default::default()
        };
        assert_eq!(layer_view(&p, 10, 9), None);
        assert_eq!(
            layer_view(&p, 10, 14),
            Some(LayerView {
                picture: 4,
                x: 8,
                y: 0
            })
        );
        assert_eq!(layer_view(&p, 10, 15), None);
        let p1 = Play { end: 1, ..p };
        assert_eq!(
            layer_view(&p1, 10, 50),
            Some(LayerView {
                picture: 0,
                x: 8,
                y: 0
            })
        );
        let p2 = Play { end: 2, ..p };
        assert_eq!(
            layer_view(&p2, 10, 50),
            Some(LayerView {
                picture: 4,
                x: 8,
                y: 0
            })
        );
    }

    #[test]
    fn windows_keep_their_far_edges_and_are_cut_to_the_frame() {
        // Issue 17: WIL -20, WIT -10, WIW 90, WIH 50 covers columns -20..69 and rows -10..39.
        assert_eq!(window_rect(-20, -10, 90, 50, 360, 240), (0, 0, 70, 40));
        assert_eq!(
            window_rect(300, 200, 90, 50, 360, 240),
            (300, 200, 360, 240)
        );
        assert_eq!(window_rect(-20, -10, 0, -5, 360, 240), (0, 0, 360, 240));
        let (mn, mx) = (i32::MIN, i32::MAX);
        // Wholly off the frame: empty, not moved onto it.
        assert_eq!(window_rect(mn, 0, mx, 0, 360, 240), (0, 0, 0, 240));
        assert_eq!(window_rect(mx, mx, mx, mx, 360, 240), (360, 240, 360, 240));
        assert_eq!(window_rect(-1, -1, mx, mx, 360, 240), (0, 0, 360, 240));
        assert_eq!(window_rect(mn, mn, 0, 0, 360, 240), (0, 0, 360, 240));
    }

    #[test]
    fn blit_clips_to_window_and_keys() {
        let mut dst = IndexedFrame::new(8, 8);
        let src = IndexedFrame::from_pixels(3, 2, vec![1, 2, 3, 4, 9, 6]).unwrap();
        blit_clipped(&mut dst, &src, 1, 1, (2, 0, 4, 8), Some(9));
        assert_eq!(dst.row(1), [0, 0, 2, 3, 0, 0, 0, 0]);
        assert_eq!(dst.row(2), [0, 0, 0, 6, 0, 0, 0, 0]);
        blit_clipped(&mut dst, &src, -10, -10, (0, 0, 8, 8), None);
        assert_eq!(dst.pixels().iter().filter(|&&p| p != 0).count(), 3);
    }
}
