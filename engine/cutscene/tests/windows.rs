//! Windows that reach off the screen (issue 17). "WIL, WIT, WIW, WIH: the window: left, top, width
//! and height. The layer is drawn relative to it and cut off at its edges": a window that starts
//! left of or above the screen (or ends right of or below it) shows only its part on the screen;
//! its far edges and the layer's origin stay where the script puts them. The same holds for text
//! boxes (`write`) and `clear` rectangles.
//!
//! Every test builds a scene from script text, with a clip made by the crate's own encoder, and
//! compares every pixel of every tick with a screen the test paints itself: pixel by pixel, each
//! screen pixel is drawn when it lies inside the rectangle as the script states it.

use std::sync::Arc;

use modex::IndexedFrame;
use modex_cutscene::ascr::parse_script;
use modex_cutscene::atxt::{encode_message, parse_message};
use modex_cutscene::bbhd_encode::{encode_clip, EncodeOptions};
use modex_cutscene::{
    font, BbhdClip, ClipPictures, Scene, SceneAssets, Sequencer, Timeline, DEFAULT_TEXT_COLOUR,
};

/// Where scripts find the test clip: `play ( EFF, 31, 0, 9, ...)`.
const CLIP_KEY: (i32, i32, i32) = (31, 0, 9);
/// The text scripts show: `write (0, 0, 0, ...)`.
const TEXT_KEY: (i32, i32) = (0, 0);

/// The test clip's size: (width, height, pictures).
#[derive(Clone, Copy)]
struct ClipSize {
    w: usize,
    h: usize,
    n: usize,
}

/// The small clip most tests slide around.
const SMALL: ClipSize = ClipSize { w: 12, h: 10, n: 4 };
/// The small screen most tests use.
const SCREEN: (usize, usize) = (48, 32);

/// Pixel (x, y) of picture `k` of the test clip: never 0 (the empty screen) and different at
/// neighbouring places and pictures, so a picture drawn a pixel off, or the wrong picture, shows.
fn clip_pixel(k: usize, x: usize, y: usize) -> u8 {
    1 + ((k * 31 + x + 7 * y) % 250) as u8
}

/// The scene of `script` on a `screen`-sized screen, with the test clip and the text `text`.
fn timeline(script: &str, screen: (usize, usize), clip: ClipSize, text: &str) -> Arc<Timeline> {
    let pictures: Vec<Vec<u8>> = (0..clip.n)
        .map(|k| {
            (0..clip.w * clip.h)
                .map(|i| clip_pixel(k, i % clip.w, i / clip.w))
                .collect()
        })
        .collect();
    let bytes = encode_clip(
        clip.w as u16,
        clip.h as u16,
        &pictures,
        &EncodeOptions::default(),
    );
    let decoded = ClipPictures::decode(&BbhdClip::parse(&bytes).unwrap()).unwrap();
    let mut assets = SceneAssets::default();
    assets.clips.insert(CLIP_KEY, Arc::new(decoded));
    assets
        .texts
        .insert(TEXT_KEY, parse_message(&encode_message(text)).unwrap());
    let scene = Scene {
        script: parse_script(script.as_bytes()).unwrap(),
        assets,
        warnings: vec![],
        width: screen.0,
        height: screen.1,
    };
    Arc::new(Timeline::new(&scene))
}

/// A rectangle on the script's plane, which reaches beyond the screen on every side; right and
/// bottom are exclusive.
#[derive(Debug, Clone, Copy)]
struct Area {
    left: i64,
    top: i64,
    right: i64,
    bottom: i64,
}

impl Area {
    /// A `play` or `write` window: a width or height of 0 or less reaches to the screen's edge.
    fn window(wil: i32, wit: i32, wiw: i32, wih: i32) -> Area {
        let far = |start: i32, size: i32| {
            if size > 0 {
                start as i64 + size as i64
            } else {
                i64::MAX
            }
        };
        Area {
            left: wil as i64,
            top: wit as i64,
            right: far(wil, wiw),
            bottom: far(wit, wih),
        }
    }

    /// A `clear` rectangle: a width or height of 0 or less covers nothing.
    fn rect(left: i32, top: i32, width: i32, height: i32) -> Area {
        Area {
            left: left as i64,
            top: top as i64,
            right: left as i64 + width as i64,
            bottom: top as i64 + height as i64,
        }
    }

    fn contains(&self, x: i64, y: i64) -> bool {
        (self.left..self.right).contains(&x) && (self.top..self.bottom).contains(&y)
    }
}

/// The test's own screen, painted pixel by pixel.
struct Expected(IndexedFrame);

impl Expected {
    fn new(screen: (usize, usize)) -> Self {
        Expected(IndexedFrame::new(screen.0, screen.1))
    }

    /// Every screen pixel inside `area` for which `colour` gives a colour takes it.
    fn paint(&mut self, area: Area, colour: impl Fn(i64, i64) -> Option<u8>) {
        for y in 0..self.0.height() {
            for x in 0..self.0.width() {
                let (xi, yi) = (x as i64, y as i64);
                if !area.contains(xi, yi) {
                    continue;
                }
                if let Some(c) = colour(xi, yi) {
                    self.0.set(x, y, c);
                }
            }
        }
    }

    /// Picture `k` of the test clip with its top-left corner at (`ox`, `oy`), inside `window`.
    fn picture(&mut self, window: Area, clip: ClipSize, k: usize, ox: i64, oy: i64) {
        self.paint(window, |x, y| {
            let (px, py) = (x - ox, y - oy);
            let inside = (0..clip.w as i64).contains(&px) && (0..clip.h as i64).contains(&py);
            inside.then(|| clip_pixel(k, px as usize, py as usize))
        });
    }

    /// A font cell (`font::glyphs` bits, bit 7 leftmost) at (`gx`, `gy`), inside `window`.
    fn glyph(&mut self, window: Area, bits: [u8; 8], gx: i64, gy: i64) {
        self.paint(window, |x, y| {
            let (c, r) = (x - gx, y - gy);
            let set =
                (0..8).contains(&c) && (0..8).contains(&r) && bits[r as usize] & (0x80 >> c) != 0;
            set.then_some(DEFAULT_TEXT_COLOUR)
        });
    }
}

/// `frame` equals `expected` at every pixel; the message names the first differences.
fn assert_same(frame: &IndexedFrame, expected: &Expected, what: &str) {
    let want = &expected.0;
    assert_eq!(
        (frame.width(), frame.height()),
        (want.width(), want.height())
    );
    let mut diffs = Vec::new();
    for y in 0..want.height() {
        for x in 0..want.width() {
            let (g, w) = (frame.get(x, y).unwrap(), want.get(x, y).unwrap());
            if g != w {
                diffs.push(format!("({x}, {y}): drawn {g}, expected {w}"));
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{what}: {} pixels differ, first {:?}",
        diffs.len(),
        &diffs[..diffs.len().min(6)]
    );
}

/// A `play` of the test clip with PMO 3 and FRQ 25 (picture `t % n` at tick `t`, moved `t`
/// steps), END 2, in the window and with the slide given.
#[derive(Debug, Clone, Copy)]
struct Slide {
    window: (i32, i32, i32, i32),
    start: (i32, i32),
    step: (i32, i32),
}

impl Slide {
    fn new(window: (i32, i32, i32, i32), start: (i32, i32), step: (i32, i32)) -> Slide {
        Slide {
            window,
            start,
            step,
        }
    }

    fn script(&self, ticks: u32) -> String {
        let (wil, wit, wiw, wih) = self.window;
        let ((stx, sty), (dtx, dty)) = (self.start, self.step);
        format!(
            "play ( 0, 31, 0, 9, 3, 25, 0,{ticks}, 2, 0,{stx},{sty},{dtx},{dty},{wil},{wit},{wiw},{wih})\n\
             End ( {ticks} )\n"
        )
    }

    /// The layer's top-left corner at tick `t`, as the text states it: window corner + ST + DT * t.
    fn origin(&self, t: u32) -> (i64, i64) {
        let (wil, wit, _, _) = self.window;
        let at = |w: i32, st: i32, dt: i32| w as i64 + st as i64 + dt as i64 * t as i64;
        (
            at(wil, self.start.0, self.step.0),
            at(wit, self.start.1, self.step.1),
        )
    }
}

/// [`compare_slide`], and the slide must test something: the layer crosses the screen's edge.
fn check_slide(slide: Slide, ticks: u32) {
    assert!(
        compare_slide(slide, ticks),
        "{slide:?} never crossed the screen's edge"
    );
}

/// Plays `slide` for `ticks` ticks on [`SCREEN`] and compares every tick with the screen painted
/// by the test; whether the layer, on some tick, showed in its window and reached past the
/// screen's edge inside the window.
fn compare_slide(slide: Slide, ticks: u32) -> bool {
    let tl = timeline(&slide.script(ticks), SCREEN, SMALL, "");
    let mut seq = Sequencer::new(tl);
    let mut expected = Expected::new(SCREEN);
    let (wil, wit, wiw, wih) = slide.window;
    let window = Area::window(wil, wit, wiw, wih);
    let mut crossed = false;
    for t in 0..ticks {
        let (ox, oy) = slide.origin(t);
        expected.picture(window, SMALL, t as usize % SMALL.n, ox, oy);
        assert_same(seq.frame_at(t), &expected, &format!("{slide:?}, tick {t}"));
        let in_window = |px: i64, py: i64| window.contains(ox + px, oy + py);
        let on_screen = |px: i64, py: i64| {
            (0..SCREEN.0 as i64).contains(&(ox + px)) && (0..SCREEN.1 as i64).contains(&(oy + py))
        };
        let cells = || (0..SMALL.w as i64).flat_map(|x| (0..SMALL.h as i64).map(move |y| (x, y)));
        crossed |= cells().any(|(x, y)| in_window(x, y) && on_screen(x, y))
            && cells().any(|(x, y)| in_window(x, y) && !on_screen(x, y));
    }
    crossed
}

#[test]
fn window_off_the_left_edge_keeps_its_right_edge() {
    // Columns -16..23, rows 6..21; the layer slides right from x = -24, into the window, over the
    // screen's left edge and out at the window's right edge.
    check_slide(Slide::new((-16, 6, 40, 16), (-8, 2), (2, 0)), 26);
}

#[test]
fn window_off_the_top_edge_keeps_its_bottom_edge() {
    // Rows -14..15, columns 8..27; the layer slides down and right from y = -24.
    check_slide(Slide::new((8, -14, 20, 30), (-2, -10), (1, 2)), 22);
}

#[test]
fn window_off_the_right_edge_is_cut_at_the_screen() {
    // Columns 30..69 on a 48-wide screen; the layer starts left of its window and slides out over
    // the screen's right edge.
    check_slide(Slide::new((30, 4, 40, 20), (-12, 3), (3, 0)), 18);
}

#[test]
fn window_off_the_bottom_edge_is_cut_at_the_screen() {
    // Rows 20..49 on a 32-high screen, WIW 0: to the screen's right edge. The layer slides down
    // and left, over the screen's bottom edge.
    check_slide(Slide::new((6, 20, 0, 30), (30, -6), (-1, 2)), 18);
}

#[test]
fn window_off_the_top_left_corner_reaching_to_the_screen_edges() {
    // WIW and WIH 0 from an off-screen corner: the window reaches to the right and bottom screen
    // edges; the layer is placed from the window's corner (-20, -10), not from the screen's.
    check_slide(Slide::new((-20, -10, 0, 0), (4, 2), (2, 1)), 24);
}

#[test]
fn the_window_of_issue_17_covers_rows_minus_10_to_39_and_columns_minus_20_to_69() {
    let script =
        "play ( 0, 31, 0, 9, 3, 5, 0,280, 0, 0, 0, 0, 0, 0,-20,-10, 90, 50)\nEnd ( 280 )\n";
    let clip = ClipSize {
        w: 120,
        h: 80,
        n: 3,
    };
    let screen = (360, 240);
    let mut seq = Sequencer::new(timeline(script, screen, clip, ""));
    // FRQ 5: picture step t * 5 / 25; PMO 3 repeats the three pictures; nothing moves.
    for t in [0u32, 4, 5, 12, 279] {
        let k = (t as usize * 5 / 25) % clip.n;
        let mut expected = Expected::new(screen);
        expected.picture(Area::window(-20, -10, 90, 50), clip, k, -20, -10);
        let frame = seq.frame_at(t);
        assert_same(frame, &expected, &format!("tick {t}"));
        assert!(frame.row(40).iter().all(|&p| p == 0), "row 40 at tick {t}");
        assert!((0..240).all(|y| frame.row(y)[70..].iter().all(|&p| p == 0)));
        assert!(frame.row(39)[..70].iter().all(|&p| p != 0));
    }
}

/// Bold full blocks: each cell is seven columns of eight rows, one wider than the advance, so a
/// window cut one column too far shows.
const BLOCKS: &str = "^FON2█████ ██";

/// Expected pixels of [`BLOCKS`] in a left-aligned box at (`wil`, `wit`) at most 30 wide: the
/// first word on line 0, the second on line 1 (10 rows lower).
fn paint_blocks(expected: &mut Expected, window: Area, wil: i32, wit: i32) {
    let bits = font::glyphs()[219].map(|b| b | b >> 1);
    let cells = (0..5).map(|i| (i, 0)).chain((0..2).map(|i| (i, 1)));
    for (i, line) in cells {
        let x = wil as i64 + i * font::ADVANCE as i64;
        expected.glyph(window, bits, x, wit as i64 + line * 10);
    }
}

#[test]
fn text_window_off_the_top_left_is_cut_at_its_own_edges() {
    // Columns -10..19, rows -3..2; the first line's blocks span columns -10..20 and rows -3..4.
    let (wil, wit, wiw, wih) = (-10, -3, 30, 6);
    let script = format!(
        "write (0, 0, 0, 0, 5, 0,100, 0, 0, 0, 0, 0, 0,{wil},{wit},{wiw},{wih})\nEnd ( 5 )\n"
    );
    let mut seq = Sequencer::new(timeline(&script, SCREEN, SMALL, BLOCKS));
    let mut expected = Expected::new(SCREEN);
    paint_blocks(&mut expected, Area::window(wil, wit, wiw, wih), wil, wit);
    for t in 0..5 {
        assert_same(seq.frame_at(t), &expected, &format!("tick {t}"));
    }
    // Column 20 (the last bold block's seventh column) and row 3 are outside the window.
    let frame = seq.frame_at(4);
    assert!((0..SCREEN.1).all(|y| frame.row(y)[20] == 0));
    assert!(frame.row(3).iter().all(|&p| p == 0));
    assert!(frame.row(2)[..20].iter().all(|&p| p == DEFAULT_TEXT_COLOUR));
}

#[test]
fn text_window_off_the_bottom_right_is_cut_at_the_screen() {
    // Columns 20..49 on a 48-wide screen, rows 20..35 on a 32-high one: the first line is cut at
    // column 48, the second (rows 30..37) at row 32.
    let (wil, wit, wiw, wih) = (20, 20, 30, 16);
    let script = format!(
        "write (0, 0, 0, 0, 5, 0,100, 0, 0, 0, 0, 0, 0,{wil},{wit},{wiw},{wih})\nEnd ( 5 )\n"
    );
    let mut seq = Sequencer::new(timeline(&script, SCREEN, SMALL, BLOCKS));
    let mut expected = Expected::new(SCREEN);
    paint_blocks(&mut expected, Area::window(wil, wit, wiw, wih), wil, wit);
    assert_same(seq.frame_at(0), &expected, "tick 0");
}

#[test]
fn clears_off_the_screen_are_cut_never_moved() {
    let rects = [
        (0, 7, -5, -4, 10, 8),
        (1, 9, 44, 28, 10, 10),
        (2, 5, -3, 10, 0, 5),
        (2, 6, 20, -8, 4, 8),
        (3, 11, -100, 5, 103, 2),
        (3, 12, 30, 10, 5, -3),
    ];
    let mut script = String::new();
    for (begin, colour, left, top, width, height) in rects {
        script += &format!("clear ({begin}, {colour}, {left}, {top}, {width}, {height})\n");
    }
    script += "End ( 5 )\n";
    let mut seq = Sequencer::new(timeline(&script, SCREEN, SMALL, ""));
    let mut expected = Expected::new(SCREEN);
    for t in 0..5 {
        for (begin, colour, left, top, width, height) in rects {
            if begin == t {
                let colour = colour as u8;
                expected.paint(Area::rect(left, top, width, height), |_, _| Some(colour));
            }
        }
        assert_same(seq.frame_at(t as u32), &expected, &format!("tick {t}"));
    }
    // (-100, 5, 103 wide) covers columns 0..2 only: cut, not moved to column 0 and 103 wide.
    assert_eq!(&seq.frame_at(3).row(5)[..4], [11, 11, 11, 0]);
}

#[test]
fn extreme_windows_neither_panic_nor_draw_outside_their_window() {
    let (mn, mx) = (i32::MIN, i32::MAX);
    // (window, start, step): each plays alone for 4 ticks, compared with the test's own screen.
    let cases = [
        // Columns MIN..-1: wholly left of the screen, although MIN + MAX would overflow an i32 and
        // a left edge clamped to 0 would make it the whole screen.
        ((mn, 0, mx, 0), (0, 0), (0, 0)),
        ((mn, 0, mx, 0), (mx, 0), (1, 1)),
        ((0, mn, 0, mx), (3, mx), (0, 0)),
        // Right of and below the screen.
        ((mx, 0, mx, 0), (mn, 0), (0, 0)),
        ((0, mx, 0, mx), (0, mn), (0, 0)),
        // To the screen's edges from MIN: the layer sits at MIN + MAX = -1.
        ((mn, mn, 0, 0), (mx, mx), (0, 0)),
        // Covering the whole screen from (-1, -1); the layer at (0, 0), then thrown far away.
        ((-1, -1, mx, mx), (1, 1), (mx, mn)),
        ((-1, -1, mx, mx), (5, 3), (mn, mx)),
        ((mn, mn, mx, mx), (mx, mx), (mx, mx)),
    ];
    for (window, start, step) in cases {
        compare_slide(Slide::new(window, start, step), 4);
    }
    // Text boxes and clears with the same values.
    let script = format!(
        "write (0, 0, 0, 0, 4, 0,100, 0, 0, 0, 0, 0, 0,{mn},{mn},{mx},{mx})\n\
         write (0, 0, 0, 0, 4, 0,101, 0, 0, 0, 0, 2, 0,{mx},{mx},{mn},{mn})\n\
         write (0, 0, 0, 0, 4, 0,100, 0, 0, 0, 0, 3, 0,{mn},0,0,0)\n\
         clear (0, 3, {mn}, {mn}, {mx}, {mx})\n\
         clear (1, 4, {mx}, {mx}, {mx}, {mx})\n\
         clear (2, 5, -1, 30, {mx}, {mx})\n\
         clear (3, 6, {mn}, {mn}, {mn}, {mn})\n\
         End ( 4 )\n"
    );
    let mut seq = Sequencer::new(timeline(&script, SCREEN, SMALL, BLOCKS));
    let mut expected = Expected::new(SCREEN);
    for t in 0..4 {
        if t == 2 {
            expected.paint(Area::rect(-1, 30, mx, mx), |_, _| Some(5));
        }
        assert_same(
            seq.frame_at(t),
            &expected,
            &format!("texts and clears, tick {t}"),
        );
    }
}
