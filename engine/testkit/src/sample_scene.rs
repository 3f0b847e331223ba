//! The project's own sample scene (`data/cutscene/`), generated from code so the repository holds no
//! game file and anyone can rebuild it byte for byte:
//! `cargo run -p modex-testkit --example make_sample_scene`.
//!
//! The folder is laid out like a Battle Isle 2 install (`ANI/`, `ENG/`), so the player and the
//! exporter treat it exactly like the real game:
//! - `ANI/AFUL000.LIB`: BACKGRND (360x240, compressed change streams, anchors at records 11 and 22),
//!   RAWCLIP (64x48 radar, raw change streams, a repeat, 11 pictures so the clip ends with an
//!   anchor), SPRITE (48x32 ship, whole pictures and a repeat, transparent index 238, pictures that
//!   unpack to 20 bytes more than width*height).
//! - `ANI/ABCK000.LIB`: HGD000 (120x64 report background, smallest change coding).
//! - `ANI/APER000.LIB`: MOVI00 (28x16 talking head, whole pictures, transparent index 0).
//! - `ANI/APAL000.LIB`: DAY and NIGHT palettes (6-bit VGA; NIGHT is TPWM-wrapped) for a BLEND.
//! - `ANI/ASCR000.LIB`: ASCR000 (empty, like 125 of the shipped scripts) and ASCR001, the scene,
//!   using every command; also `ASCR001.ascr` as a bare file.
//! - `ENG/ATXT000.LIB`: two messages with control codes and umlauts.
//! - `ENG/AFXS000.LIB`: two synthesized VOC sounds, a blip and a noise burst.
//! - `clips/radar.bbhd`, `clips/background.bbhd`: bare clips; `day.pal`: a bare palette.
//!
//! Everything is integer arithmetic: no floating point, no randomness beyond a fixed LCG.

use glam::Vec2;
use modex::{IndexedFrame, Palette};

use modex_cutscene::apal;
use modex_cutscene::atxt;
use modex_cutscene::bbhd_encode::{encode_clip, ChangeCoding, EncodeOptions, Layout};
use modex_cutscene::lib_archive::encode_lib;
use modex_cutscene::voc;

/// The scene's script number.
pub const SCRIPT_NUMBER: u32 = 1;

/// The script of the sample scene: every command of the ASCR table, every PMO mode, and the END
/// modes whose meaning the original text gives (0, 1, 2). END 3 to 5 are left out: the text says
/// only that they "take another path that is not yet understood", so the sequencer plays them as 0
/// with a note, and the project's own scene would then play with a warning at every start (that
/// substitution is tested on a one-layer scene in `tests/rules.rs`).
pub const SCRIPT: &str = "\
rem modex sample scene: every ASCR command, every PMO mode, END 0, 1 and 2
rem EFF,LNA,LNR,ENR,PMO,FRQ,BGN,DUR,END,PRI,STX,STY,DTX,DTY,WIL,WIT,WIW,WIH)
initpal (15, 0, 0)
play ( 0, 36, 0, 0, 3, 10,  0,130, 0, 0,  0,  0, 0, 0,  0,  0,360,240)
play ( 1, 36, 0, 2, 5, 12, 10,130, 0, 8, 10,150, 4, 0,  0,  0,  0,  0)
play ( 0, 36, 0, 1, 6,  8, 20,110, 1, 3, 10, 10, 0, 0,276,  6, 80, 60)
play ( 1, 32, 0, 0, 3,  6, 30, 90, 0, 9,  6,  6, 0, 0,  6,  6, 40, 28)
play ( 0, 31, 0, 0, 4, 12, 40, 50, 0, 2,  0,  0, 0, 0,120, 70,120, 64)
play ( 0, 31, 0, 0, 1, 12, 90, 40, 2, 2,  0,  0, 0, 0,120, 70,120, 64)
play ( 1, 32, 0, 0, 0,  4, 45, 60, 0, 9,  0,  0, 1, 1, 60, 40, 60, 40)
play ( 1, 32, 0, 0, 2,  8, 50, 70, 1, 9,  0,  0, 0, 0,200, 40, 40, 30)
PLAY ( 1, 32, 0, 0, 7,  8, 55, 60, 0, 9, 30, 20, 0, 0,200, 80, 40, 30) gto
write (0, 0, 0,  5,140, 10,100, 0, 0, 0, 0, 3, 0, 20,208,320, 30)
Write (0, 0, 1, 35,110, 11,101, 0, 0, 0, 0, 1, 0, 12,100,104, 96)
fx (1, 0, 0, -1, 50, 1)
fx (2, 0, 1, -2, 90, 1)
fx (3, 0, 1,  5,127, 1)
fx (4, 0, 0,100, 80, 0)
fxstop (4, 125)
fxstop (145)
BLEND (15, 0, 0, 15, 0, 1, 16, 143, 100, 140)
clear (135, 0, 0, 0, 360, 60)
fmstart (1, 2)
remplay ( 0, 36, 0, 0, 3, 10,  0,150, 2, 0,  0,  0, 0, 0,  0,  0,360,240)
remwrite (0, 0, 0,  5,140, 10,100, 0, 0, 0, 0, 3, 0, 20,200,320, 40)
End ( 150 )
";

/// Text messages of `ENG/ATXT000.LIB`.
const MESSAGES: [&str; 2] = [
    "^FON1^COL15MILOP-Lagebericht: ^COL250Grüße aus Ödland!",
    "^COL15Achtung, Kommandant: feindliche Einheiten im Sektor Ä4 gemeldet.\n\n^VOC1^COL250Über-^CRTtragung endet.",
];

/// One generated file: its path under `data/cutscene/` and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleFile {
    /// Where it goes, relative to `data/cutscene/`, `/`-separated.
    pub path: &'static str,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// Every file of the sample scene, in a fixed order.
pub fn generate() -> Vec<SampleFile> {
    let day = day_palette();
    let night = night_palette(&day);
    let aful = encode_lib(&[
        ("BACKGRND", background_clip()),
        ("RAWCLIP", radar_clip()),
        ("SPRITE", sprite_clip()),
    ]);
    let abck = encode_lib(&[("HGD000", report_clip())]);
    let aper = encode_lib(&[("MOVI00", head_clip())]);
    let apal = encode_lib(&[
        ("DAY", apal::encode_palette(&day, false)),
        ("NIGHT", apal::encode_palette(&night, true)),
    ]);
    let ascr = encode_lib(&[
        ("ASCR000", b"rem no commands\r\n".to_vec()),
        ("ASCR001", dos_text(SCRIPT)),
    ]);
    let atxt = encode_lib(&[
        ("TXT000", atxt::encode_message(MESSAGES[0])),
        ("TXT001", atxt::encode_message(MESSAGES[1])),
    ]);
    let afxs = encode_lib(&[("FX000", blip_voc()), ("FX001", noise_voc())]);
    vec![
        SampleFile {
            path: "ANI/AFUL000.LIB",
            bytes: aful,
        },
        SampleFile {
            path: "ANI/ABCK000.LIB",
            bytes: abck,
        },
        SampleFile {
            path: "ANI/APER000.LIB",
            bytes: aper,
        },
        SampleFile {
            path: "ANI/APAL000.LIB",
            bytes: apal,
        },
        SampleFile {
            path: "ANI/ASCR000.LIB",
            bytes: ascr,
        },
        SampleFile {
            path: "ENG/ATXT000.LIB",
            bytes: atxt,
        },
        SampleFile {
            path: "ENG/AFXS000.LIB",
            bytes: afxs,
        },
        SampleFile {
            path: "ASCR001.ascr",
            bytes: dos_text(SCRIPT),
        },
        SampleFile {
            path: "clips/radar.bbhd",
            bytes: radar_clip(),
        },
        SampleFile {
            path: "clips/background.bbhd",
            bytes: background_clip(),
        },
        SampleFile {
            path: "day.pal",
            bytes: apal::encode_palette(&day, false),
        },
    ]
}

fn dos_text(s: &str) -> Vec<u8> {
    s.replace('\n', "\r\n").into_bytes()
}

/// Linear ramp between two colours over `n` entries starting at `start`.
fn ramp(p: &mut Palette, start: usize, n: usize, a: [u8; 3], b: [u8; 3]) {
    for i in 0..n {
        for k in 0..3 {
            let (a, b) = (a[k] as i32, b[k] as i32);
            p.colors[start + i][k] = (a + (b - a) * i as i32 / (n as i32 - 1).max(1)) as u8;
        }
    }
}

/// The day palette: 0 black, 1..15 basic colours (15 white), 16..79 sky, 80..143 sunset,
/// 144..207 ground greens, 208..239 greys, 240..255 accents.
fn day_palette() -> Palette {
    let mut p = Palette {
        colors: [[0; 3]; 256],
    };
    let basic: [[u8; 3]; 16] = [
        [0, 0, 0],
        [0, 0, 168],
        [0, 168, 0],
        [0, 168, 168],
        [168, 0, 0],
        [168, 0, 168],
        [168, 84, 0],
        [168, 168, 168],
        [84, 84, 84],
        [84, 84, 252],
        [84, 252, 84],
        [84, 252, 252],
        [252, 84, 84],
        [252, 84, 252],
        [252, 252, 84],
        [252, 252, 252],
    ];
    p.colors[..16].copy_from_slice(&basic);
    ramp(&mut p, 16, 64, [20, 60, 160], [170, 210, 250]);
    ramp(&mut p, 80, 64, [250, 210, 120], [160, 40, 20]);
    ramp(&mut p, 144, 64, [20, 80, 20], [120, 200, 90]);
    ramp(&mut p, 208, 32, [30, 30, 40], [220, 220, 230]);
    ramp(&mut p, 240, 8, [255, 200, 0], [255, 60, 0]);
    ramp(&mut p, 248, 8, [200, 255, 255], [0, 120, 255]);
    apal::six_bit_exact(&p)
}

/// The night palette: sky and sunset darkened to deep blue (the BLEND target).
fn night_palette(day: &Palette) -> Palette {
    let mut p = day.clone();
    ramp(&mut p, 16, 64, [0, 0, 20], [20, 30, 80]);
    ramp(&mut p, 80, 64, [60, 30, 60], [10, 5, 30]);
    apal::six_bit_exact(&p)
}

/// A small deterministic generator (numbers from Numerical Recipes' LCG).
struct Lcg(u32);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        self.0 >> 8
    }
}

/// A picture being drawn: the engine's 8-bit frame with the signed, clipped drawing calls the generators use.
struct Canvas(IndexedFrame);

impl Canvas {
    fn new(w: usize, h: usize, fill: u8) -> Self {
        let mut f = IndexedFrame::new(w, h);
        f.clear(fill);
        Canvas(f)
    }

    /// Set a pixel; pixels off the canvas are ignored.
    fn set(&mut self, x: i32, y: i32, c: u8) {
        if let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) {
            self.0.set(x, y, c);
        }
    }

    fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, c: u8) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, c);
            }
        }
    }

    fn disc(&mut self, cx: i32, cy: i32, r: i32, c: u8) {
        for y in -r..=r {
            for x in -r..=r {
                if x * x + y * y <= r * r {
                    self.set(cx + x, cy + y, c);
                }
            }
        }
    }

    fn ring(&mut self, cx: i32, cy: i32, r: i32, c: u8) {
        for y in -r..=r {
            for x in -r..=r {
                let d = x * x + y * y;
                if d <= r * r && d > (r - 1) * (r - 1) {
                    self.set(cx + x, cy + y, c);
                }
            }
        }
    }

    /// The line from pixel (x0, y0) to pixel (x1, y1), both lit: the core's line routine through
    /// the pixel centres, which lights the pixels Bresenham's algorithm does.
    fn line(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: u8) {
        let centre = |x: i32, y: i32| Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
        modex::draw_line(&mut self.0, centre(x0, y0), centre(x1, y1), c);
    }
}

/// 360x240 sky and ground: a pulsing sun, twinkling stars, a scan line crossing the ground.
/// 23 pictures, dependent records with compressed change streams.
pub fn background_pictures() -> Vec<Vec<u8>> {
    let (w, h) = (360usize, 240usize);
    let mut rng = Lcg(1994);
    let stars: Vec<(i32, i32)> = (0..40)
        .map(|_| ((rng.next() % 360) as i32, (rng.next() % 120) as i32))
        .collect();
    (0..23)
        .map(|k| {
            let mut c = Canvas::new(w, h, 0);
            for y in 0..h {
                for x in 0..w {
                    let v = if y < 160 {
                        16 + (y * 64 / 160) as u8
                    } else {
                        let band = ((x / 12 + (y - 160) / 6) % 2) as u8;
                        144 + ((y - 160) * 48 / 80) as u8 + band * 8
                    };
                    c.0.set(x, y, v);
                }
            }
            for (i, &(x, y)) in stars.iter().enumerate() {
                if (i + k) % 3 != 0 {
                    c.set(x, y, 248 + ((i + k) % 4) as u8);
                }
            }
            c.disc(150, 36, 12 + (k % 4) as i32, 240 + (k % 8) as u8);
            let scan = 160 + ((k * 7) % 80) as i32;
            c.rect(0, scan, 360, 2, 14);
            c.0.into_pixels()
        })
        .collect()
}

fn background_clip() -> Vec<u8> {
    let opts = EncodeOptions {
        layout: Layout::Dependent,
        changes: ChangeCoding::Compressed,
        ..Default::default()
    };
    encode_clip(360, 240, &background_pictures(), &opts)
}

/// Endpoints of the radar sweep, 30 degrees apart, radius 20 (integer table, no floating point).
const SWEEP: [(i32, i32); 12] = [
    (20, 0),
    (17, 10),
    (10, 17),
    (0, 20),
    (-10, 17),
    (-17, 10),
    (-20, 0),
    (-17, -10),
    (-10, -17),
    (0, -20),
    (10, -17),
    (17, -10),
];

/// 64x48 radar: 11 pictures, picture 5 repeats picture 4.
fn radar_pictures() -> Vec<Vec<u8>> {
    (0..11)
        .map(|k| {
            let k = if k == 5 { 4 } else { k };
            let mut c = Canvas::new(64, 48, 150);
            c.ring(32, 24, 22, 160);
            c.ring(32, 24, 12, 155);
            let (dx, dy) = SWEEP[k];
            c.line(32, 24, 32 + dx, 24 + dy, 190);
            let (px, py) = SWEEP[(k + 11) % 12];
            c.line(32, 24, 32 + px * 3 / 4, 24 + py * 3 / 4, 170);
            c.disc(20 + k as i32 * 2, 30 - k as i32, 1, 12);
            c.0.into_pixels()
        })
        .collect()
}

fn radar_clip() -> Vec<u8> {
    let opts = EncodeOptions {
        layout: Layout::Dependent,
        changes: ChangeCoding::Raw,
        trailing_counter: false,
        ..Default::default()
    };
    encode_clip(64, 48, &radar_pictures(), &opts)
}

/// 48x32 ship on transparent 238, flame flickering; picture 3 repeats picture 2.
fn sprite_pictures() -> Vec<Vec<u8>> {
    (0..6)
        .map(|k| {
            let k = if k == 3 { 2 } else { k };
            let mut c = Canvas::new(48, 32, 238);
            for y in 0..12 {
                let half = 12 - y;
                c.rect(
                    16 - half / 2 + y,
                    10 + y,
                    24 + half - y,
                    1,
                    208 + (y as u8) * 2,
                );
            }
            c.rect(20, 4, 12, 6, 7);
            c.rect(23, 5, 6, 3, 11);
            let flame = 4 + (k * 5) % 7;
            c.rect(10 - flame, 14, flame, 4, 240 + (k as u8 % 4));
            c.0.into_pixels()
        })
        .collect()
}

fn sprite_clip() -> Vec<u8> {
    let opts = EncodeOptions {
        layout: Layout::Standalone,
        transparent_index: Some(238),
        picture_slack: 20,
        ..Default::default()
    };
    encode_clip(48, 32, &sprite_pictures(), &opts)
}

/// 120x64 report-window background with a bouncing ball, 12 pictures.
fn report_pictures() -> Vec<Vec<u8>> {
    (0..12)
        .map(|k| {
            let mut c = Canvas::new(120, 64, 0);
            for y in 0..64 {
                c.rect(0, y, 120, 1, 208 + (y / 4) as u8);
            }
            c.rect(0, 0, 120, 1, 15);
            c.rect(0, 63, 120, 1, 15);
            c.rect(0, 0, 1, 64, 15);
            c.rect(119, 0, 1, 64, 15);
            let x = 8 + k as i32 * 9;
            let bounce = [0, 6, 11, 15, 18, 19, 19, 18, 15, 11, 6, 0][k];
            c.disc(x, 50 - bounce, 5, 12);
            c.0.into_pixels()
        })
        .collect()
}

fn report_clip() -> Vec<u8> {
    encode_clip(120, 64, &report_pictures(), &EncodeOptions::default())
}

/// 28x16 talking head on transparent 0: the mouth opens and closes.
fn head_pictures() -> Vec<Vec<u8>> {
    (0..4)
        .map(|k| {
            let mut c = Canvas::new(28, 16, 0);
            c.disc(14, 8, 7, 6);
            c.rect(10, 5, 2, 2, 15);
            c.rect(16, 5, 2, 2, 15);
            c.rect(11, 6, 1, 1, 1);
            c.rect(17, 6, 1, 1, 1);
            let open = [0, 1, 2, 1][k];
            c.rect(11, 11, 6, 1 + open, 4);
            c.0.into_pixels()
        })
        .collect()
}

fn head_clip() -> Vec<u8> {
    let opts = EncodeOptions {
        layout: Layout::Standalone,
        transparent_index: Some(0),
        ..Default::default()
    };
    encode_clip(28, 16, &head_pictures(), &opts)
}

/// A 0.08 s square-wave blip at 11 kHz (divisor 165 = 10989 Hz), fading out.
fn blip_voc() -> Vec<u8> {
    let n = 880;
    let pcm: Vec<u8> = (0..n)
        .map(|i| {
            let amp = 90 * (n - i) / n;
            let v = if (i / 8) % 2 == 0 { amp } else { -amp };
            (128 + v) as u8
        })
        .collect();
    voc::encode_voc(165, &pcm)
}

/// A 0.3 s noise burst (LFSR noise, decaying) at 8 kHz (divisor 131).
fn noise_voc() -> Vec<u8> {
    let n = 2400;
    let mut lfsr: u16 = 0xace1;
    let pcm: Vec<u8> = (0..n)
        .map(|i| {
            let bit = (lfsr ^ (lfsr >> 2) ^ (lfsr >> 3) ^ (lfsr >> 5)) & 1;
            lfsr = (lfsr >> 1) | (bit << 15);
            let amp = 110 * (n - i) / n;
            let v = (lfsr & 0xff) as i32 - 128;
            (128 + v * amp / 128) as u8
        })
        .collect();
    voc::encode_voc(131, &pcm)
}
