//! The plugin boundary's bookkeeping under any sequence of what a plugin may do: entities synced,
//! created, removed (also twice, and stale handles used after), objects asked for by any name, the
//! frame locked and written, frames of any shape offered, user packets of any bytes sent with and
//! without a network session and delivered back. Nothing may panic or touch memory out of
//! bounds.
#![no_main]

use std::cell::RefCell;
use std::rc::Rc;

use libfuzzer_sys::fuzz_target;
use modex_plugin::{
    Engine, EntityHandle, EntityKey, EntityState, FrameBuffer, Object, Plugin, PluginHost, RawFixed,
};

struct Ops {
    script: Rc<RefCell<Vec<u8>>>,
    handles: Vec<EntityHandle>,
}

impl Plugin for Ops {
    fn name(&self) -> &str {
        "fuzz"
    }
    fn exports(&self) -> &[&str] {
        &["Run"]
    }
    fn receive_packet(&mut self, from: i64, data: &[u8], a5: &mut Engine<'_>) {
        // What arrives may be sent straight back (the queue must stay bounded by the sends).
        if data.len() % 2 == 0 {
            let _ = a5.send_packet(from, data, false);
        }
    }
    fn call(&mut self, _function: &str, a5: &mut Engine<'_>) -> RawFixed {
        let script = std::mem::take(&mut *self.script.borrow_mut());
        let mut bytes = script.chunks(3);
        for op in bytes.by_ref().take(64) {
            let (kind, a, b) = (op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0));
            match kind % 9 {
                0 => {
                    let name = String::from_utf8_lossy(&op[1..]).into_owned();
                    let h = a5.ent_create(&name, [a as i32 * 1024, b as i32, -(a as i32)]);
                    self.handles.push(h);
                }
                1 => {
                    if let Some(&h) = self.handles.get(a as usize % self.handles.len().max(1)) {
                        a5.ent_remove(h);
                    }
                }
                2 => {
                    if let Some(&h) = self.handles.get(a as usize % self.handles.len().max(1)) {
                        if let Some(e) = a5.entity(h) {
                            e.skill[b as usize % 48] = a as i32;
                            e.roll = e.roll.wrapping_add(b as i32);
                        }
                    }
                }
                3 => {
                    let name = String::from_utf8_lossy(&op[1..]).into_owned();
                    match a5.object(&name) {
                        Some(Object::View(v)) => v.arc = v.arc.wrapping_sub(a as i32),
                        Some(Object::Var(t)) => *t = t.wrapping_add(b as i32),
                        Some(Object::Vector(s)) => s[0] = a as i32,
                        None => {}
                    }
                }
                4 => {
                    if let Some(fb) = a5.lock_frame() {
                        let n = fb.bytes.len();
                        if n > 0 {
                            fb.bytes[(a as usize * 257 + b as usize) % n] = a;
                        }
                    }
                }
                5 => {
                    for h in a5.entities() {
                        if let Some(e) = a5.entity(h) {
                            e.z = e.z.wrapping_add(1);
                        }
                    }
                }
                6 => {
                    let mut v = [a as i32 * 1000, b as i32, 7];
                    a5.vec_rotate(&mut v, &[a as i32 * 4000, b as i32 * 4000, i32::MAX]);
                }
                7 => {
                    let _ = a5.send_packet(i64::from(a) - 128, &op[1..], b & 1 == 1);
                }
                _ => a5.error_message(&String::from_utf8_lossy(&op[1..])),
            }
        }
        0
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 6 {
        return;
    }
    let script = Rc::new(RefCell::new(Vec::new()));
    let mut host = PluginHost::new();
    host.add(Box::new(Ops {
        script: script.clone(),
        handles: Vec::new(),
    }));
    let (head, rest) = data.split_at(6);
    let mut frame = vec![0u8; head[0] as usize * 4];
    let mut rounds = rest.chunks(48);
    for round in 0..4u64 {
        let count = head[1].wrapping_add(round as u8) % 8;
        let names = ["a", "b\0c", ""];
        host.sync_entities((0..count as u64).map(|i| {
            (
                EntityKey::Engine(i * head[2] as u64 % 5),
                names[(i % 3) as usize],
                EntityState {
                    position: [i as f32, f32::NAN, 1e30],
                    ..EntityState::default()
                },
            )
        }));
        *script.borrow_mut() = rounds.next().unwrap_or(&[]).to_vec();
        let _ = host.call_each_entity("Run");
        let _ = host.call_each_frame(
            "Run",
            FrameBuffer {
                bytes: &mut frame,
                pitch: head[3] as usize,
                width: head[4] as usize % 64,
                height: head[5] as usize % 64,
                bpp: 1 + (round as usize % 4),
            },
        );
        let _ = host.call_each_frame("Missing", FrameBuffer {
            bytes: &mut frame,
            pitch: 0,
            width: 0,
            height: 0,
            bpp: 1,
        });
        for (k, _, _) in host.spawned() {
            let _ = host.entity(k);
        }
        host.set_network((head[1] & 1 == 1).then_some(head[2] as usize));
        for p in host.take_packets() {
            host.receive_packet(p.to, &p.bytes);
        }
        let _ = host.take_errors();
    }
});
