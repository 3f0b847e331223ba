//! Rust plugins: the same powers as a C plugin through a safe context, with panics contained.
#![allow(unsafe_code)]

use std::rc::Rc;

use crate::abi::{A4Entity, A4View, RawFixed};
use crate::callbacks::CallScope;
use crate::shared::{ObjectKind, Shared};

/// An entity as a Rust plugin names it: the same identity as the `A4_ENTITY *` a C plugin gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntityHandle(pub(crate) usize);

impl EntityHandle {
    /// The `long` a C plugin would receive for this entity.
    pub fn as_long(self) -> i64 {
        self.0 as i64
    }
}

/// An in-process plugin. The engine calls [`Plugin::call`] for each exported name it is asked to
/// run (`--each-frame NAME`, `--each-entity NAME`). A panic inside is caught at the boundary,
/// logged, and the plugin is disabled; the engine keeps running.
pub trait Plugin {
    /// Name in messages (a C plugin's is its file name).
    fn name(&self) -> &str;
    /// The function names this plugin exports.
    fn exports(&self) -> &[&str];
    /// Run `function`. `engine.my()` is the entity of an each-entity call. Returns the `fixed`
    /// result a C function would.
    fn call(&mut self, function: &str, engine: &mut Engine<'_>) -> RawFixed;
    /// A user packet arrived from the network session (`ReceivePacket` of a C plugin): `from` is
    /// the sending client's id on a server, 0 (the server) on a client; `data` starts with 17.
    /// The default ignores it.
    fn receive_packet(&mut self, from: i64, data: &[u8], engine: &mut Engine<'_>) {
        let _ = (from, data, engine);
    }
}

/// A named engine object, as `a5dll_getwdlobj` finds it.
#[derive(Debug)]
pub enum Object<'e> {
    /// `camera`.
    View(&'e mut A4View),
    /// `time` (seconds of the last frame) or `total_ticks`.
    Var(&'e mut RawFixed),
    /// `sky_speed`.
    Vector(&'e mut [RawFixed; 2]),
}

/// The frame buffer while locked; unlocked on drop.
pub struct FrameLock<'e> {
    /// The pixels, `pitch * height` bytes, in the frame's own format (see `bpp`).
    pub bytes: &'e mut [u8],
    /// Bytes from one row to the next.
    pub pitch: usize,
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Bytes per pixel: 1 (8-bit indices), 2 (565/4444), 4 (8888, native-endian 0xAARRGGBB).
    pub bpp: usize,
    shared: &'e Shared,
}

impl Drop for FrameLock<'_> {
    fn drop(&mut self) {
        self.shared.unlock();
    }
}

/// What a Rust plugin can reach during a call: the same as `A5_INTERFACE` gives a C plugin.
pub struct Engine<'h> {
    shared: &'h Rc<Shared>,
    my: Option<EntityHandle>,
}

impl<'h> Engine<'h> {
    pub(crate) fn new(shared: &'h Rc<Shared>, my: Option<EntityHandle>) -> Engine<'h> {
        Engine { shared, my }
    }

    /// The entity of an each-entity call (MY), or `None` in an each-frame call.
    pub fn my(&self) -> Option<EntityHandle> {
        self.my
    }

    /// Every entity, in the order `a5dll_entnext` walks them.
    pub fn entities(&self) -> Vec<EntityHandle> {
        self.shared.all().into_iter().map(EntityHandle).collect()
    }

    /// An entity to read and change; `None` when it was removed.
    pub fn entity(&mut self, h: EntityHandle) -> Option<&mut A4Entity> {
        // SAFETY: the returned borrow is tied to `&mut self`, the only way into the table during a
        // Rust plugin's call, so no second reference exists; no C code runs meanwhile.
        unsafe { self.shared.entity_mut(h.0) }
    }

    /// `a5dll_getwdlobj`: `None` (and `unknown object 'NAME'` on stderr) for an unknown name.
    pub fn object(&mut self, name: &str) -> Option<Object<'_>> {
        let Some(kind) = ObjectKind::by_name(name) else {
            self.shared.report(&format!("unknown object '{name}'"));
            return None;
        };
        let addr = self.shared.object_addr(kind);
        // SAFETY: `addr` is a field of the exposed block, valid for the host's life; the borrow is
        // tied to `&mut self` so it is the only reference; the type matches the field.
        Some(unsafe {
            match kind {
                ObjectKind::Camera => Object::View(&mut *(addr as *mut A4View)),
                ObjectKind::Time | ObjectKind::TotalTicks => {
                    Object::Var(&mut *(addr as *mut RawFixed))
                }
                ObjectKind::SkySpeed => Object::Vector(&mut *(addr as *mut [RawFixed; 2])),
            }
        })
    }

    /// The camera (`object("camera")` without the match).
    pub fn camera(&mut self) -> &mut A4View {
        let addr = self.shared.object_addr(ObjectKind::Camera);
        // SAFETY: as in `object`.
        unsafe { &mut *(addr as *mut A4View) }
    }

    /// `a5->fb->Lock()`: the frame being drawn, or `None` outside an each-frame call.
    pub fn lock_frame(&mut self) -> Option<FrameLock<'_>> {
        let f = self.shared.frame()?;
        self.shared.lock();
        Some(FrameLock {
            // SAFETY: the host borrowed these bytes mutably for the whole each-frame call
            // (`call_each_frame`), so they are valid and nothing else uses them; the borrow is tied
            // to `&mut self`.
            bytes: unsafe { std::slice::from_raw_parts_mut(f.ptr, f.len) },
            pitch: f.pitch,
            width: f.width,
            height: f.height,
            bpp: f.bpp,
            shared: self.shared,
        })
    }

    /// `ent_create`: a model entity at `position` (22.10 quants) that the engine draws.
    pub fn ent_create(&mut self, model: &str, position: [RawFixed; 3]) -> EntityHandle {
        EntityHandle(self.shared.spawn(model, position))
    }

    /// `ent_remove`: false (and an error line) for an entity that is gone.
    pub fn ent_remove(&mut self, h: EntityHandle) -> bool {
        let ok = self.shared.remove(h.0);
        if !ok {
            self.shared
                .report("ent_remove: the pointer given is not an entity");
        }
        ok
    }

    /// `vec_rotate`.
    pub fn vec_rotate(&self, v: &mut [RawFixed; 3], angles: &[RawFixed; 3]) {
        crate::state::vec_rotate(v, angles)
    }

    /// `a5dll_errormessage`: one line on stderr naming the plugin.
    pub fn error_message(&mut self, text: &str) {
        self.shared.report(text);
    }

    /// Whether a network session runs (`a5->eng->SendPacket` is not NULL).
    pub fn has_network(&self) -> bool {
        self.shared.has_network()
    }

    /// `a5->eng->SendPacket`: queue a user packet (first byte 17) for the network session; `to` is a
    /// client's id on a server (0: all), ignored on a client. False, with an error line, when there
    /// is no session or the packet is refused.
    pub fn send_packet(&mut self, to: i64, data: &[u8], guaranteed: bool) -> bool {
        self.shared.send(to, data, guaranteed)
    }
}

/// A Rust plugin with its enabled state.
pub(crate) struct RustPlugin {
    pub(crate) plugin: Box<dyn Plugin>,
    pub(crate) disabled: bool,
}

impl RustPlugin {
    /// Call with panics caught: a panicking plugin is logged and disabled.
    pub(crate) fn call(
        &mut self,
        function: &str,
        shared: &Rc<Shared>,
        my: Option<EntityHandle>,
    ) -> Option<RawFixed> {
        self.guarded(function, shared, my, |p, engine| p.call(function, engine))
    }

    /// Hand a user packet to the plugin, panics caught as in [`RustPlugin::call`].
    pub(crate) fn receive_packet(&mut self, from: i64, data: &[u8], shared: &Rc<Shared>) {
        self.guarded("receive_packet", shared, None, |p, engine| {
            p.receive_packet(from, data, engine)
        });
    }

    fn guarded<R>(
        &mut self,
        function: &str,
        shared: &Rc<Shared>,
        my: Option<EntityHandle>,
        f: impl FnOnce(&mut dyn Plugin, &mut Engine<'_>) -> R,
    ) -> Option<R> {
        if self.disabled {
            return None;
        }
        let name = self.plugin.name().to_string();
        let _scope = CallScope::enter(shared, &name);
        let plugin = &mut self.plugin;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut engine = Engine::new(shared, my);
            f(plugin.as_mut(), &mut engine)
        }));
        // A panic may have left the frame locked.
        shared.unlock();
        match result {
            Ok(v) => Some(v),
            Err(payload) => {
                let why = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                log::error!("plugin {name} panicked in {function}: {why}; it is disabled");
                self.disabled = true;
                None
            }
        }
    }
}
