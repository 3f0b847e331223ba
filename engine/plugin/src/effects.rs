//! The example effects as a Rust plugin, the same effects as the C files in `examples/`:
//! `PaintScreenWhite`, `FlipUpsideDown`, `ZoomIn`, `Sparks`, `AskUnknown` and `Packets`. The demo loads them
//! with `--plugin builtin`; the tests check they give the same pixels as the C versions.

use crate::abi::RawFixed;
use crate::plugin::{Engine, Object, Plugin};

/// 22.10 of an integer.
const fn int2fix(i: i32) -> RawFixed {
    i * 1024
}

/// Marks a spark entity in `skill[1]` ("SP").
pub const SPARK_MARK: RawFixed = 0x5350;
/// Frames a spark lives.
pub const SPARK_LIFE: RawFixed = 2;
/// The model a spark is drawn with.
pub const SPARK_MODEL: &str = "flag.mdl";
/// How far `ZoomIn` narrows the camera per call, and where it stops.
pub const ZOOM_STEP: RawFixed = int2fix(4);
/// Narrowest field of view `ZoomIn` goes to.
pub const ZOOM_MIN: RawFixed = int2fix(10);

/// Frames between two `Packets` sends.
pub const PACKET_EVERY: u64 = 30;

/// The built-in effects.
#[derive(Debug, Default)]
pub struct Effects {
    /// `Packets` calls so far.
    packet_frames: u64,
}

impl Effects {
    /// Every exported name.
    pub const EXPORTS: &'static [&'static str] = &[
        "PaintScreenWhite",
        "FlipUpsideDown",
        "ZoomIn",
        "Sparks",
        "AskUnknown",
        "Packets",
    ];
}

impl Plugin for Effects {
    fn name(&self) -> &str {
        "builtin"
    }

    fn exports(&self) -> &[&str] {
        Self::EXPORTS
    }

    fn call(&mut self, function: &str, a5: &mut Engine<'_>) -> RawFixed {
        match function {
            "PaintScreenWhite" => paint_screen_white(a5),
            "FlipUpsideDown" => flip_upside_down(a5),
            "ZoomIn" => zoom_in(a5),
            "Sparks" => sparks(a5),
            "AskUnknown" => ask_unknown(a5),
            "Packets" => self.packets(a5),
            _ => 0,
        }
    }

    /// As `packets.c`'s `OnPacket`: one line per packet through the error path.
    fn receive_packet(&mut self, from: i64, data: &[u8], a5: &mut Engine<'_>) {
        let text = String::from_utf8_lossy(data.get(1..).unwrap_or_default());
        a5.error_message(&format!(
            "received {} bytes from {from}: {text}",
            data.len()
        ));
    }
}

impl Effects {
    /// Every [`PACKET_EVERY`]th call, send `hello N` (after the 17 every user packet starts with)
    /// to everybody; nothing without a network session.
    fn packets(&mut self, a5: &mut Engine<'_>) -> RawFixed {
        if !a5.has_network() {
            return 0;
        }
        let frame = self.packet_frames;
        self.packet_frames += 1;
        if frame % PACKET_EVERY == 0 {
            let mut msg = vec![crate::USER_PACKET];
            msg.extend_from_slice(format!("hello {}", frame / PACKET_EVERY + 1).as_bytes());
            a5.send_packet(0, &msg, false);
        }
        0
    }
}

/// Lock, fill every byte of every row with 255, unlock (white in 8888, index 255 in 8-bit).
fn paint_screen_white(a5: &mut Engine<'_>) -> RawFixed {
    let Some(fb) = a5.lock_frame() else { return 0 };
    let row = fb.width * fb.bpp;
    for y in 0..fb.height {
        fb.bytes[y * fb.pitch..y * fb.pitch + row].fill(255);
    }
    0
}

/// Roll MY by 180 degrees.
fn flip_upside_down(a5: &mut Engine<'_>) -> RawFixed {
    let Some(my) = a5.my() else { return 0 };
    if let Some(e) = a5.entity(my) {
        e.roll = int2fix(180);
    }
    0
}

/// Narrow the camera's field of view; returns the new arc.
fn zoom_in(a5: &mut Engine<'_>) -> RawFixed {
    let camera = a5.camera();
    if camera.arc - ZOOM_STEP >= ZOOM_MIN {
        camera.arc -= ZOOM_STEP;
    }
    camera.arc
}

/// A particle-style effect: ages the sparks made before (removing those whose life is over) and
/// makes one new spark rising above the centre of the field.
fn sparks(a5: &mut Engine<'_>) -> RawFixed {
    for h in a5.entities() {
        let Some(e) = a5.entity(h) else { continue };
        if e.skill[1] != SPARK_MARK {
            continue;
        }
        e.skill[0] -= 1;
        e.z += int2fix(6);
        if e.skill[0] <= 0 {
            a5.ent_remove(h);
        }
    }
    let ticks = match a5.object("total_ticks") {
        Some(Object::Var(t)) => *t,
        _ => 0,
    };
    let x = ((ticks >> 10) % 8 - 4) * int2fix(12);
    let h = a5.ent_create(SPARK_MODEL, [x, 0, int2fix(40)]);
    if let Some(e) = a5.entity(h) {
        e.skill[0] = SPARK_LIFE;
        e.skill[1] = SPARK_MARK;
        e.scale_x = int2fix(1) / 2;
        e.scale_y = int2fix(1) / 2;
        e.scale_z = int2fix(1) / 2;
    }
    0
}

/// Ask for an object that does not exist: it must be 0 (None), with the error line printed.
fn ask_unknown(a5: &mut Engine<'_>) -> RawFixed {
    if a5.object("no_such_object").is_none() {
        a5.error_message("ok: unknown object gave 0");
        int2fix(1)
    } else {
        a5.error_message("FAILED: unknown object did not give 0");
        0
    }
}
