//! The memory plugins see and the engine's bookkeeping of it.
//!
//! Everything a plugin may hold a pointer to (the interface structs, `camera`, the variables, every
//! `A4_ENTITY`) lives in its own heap allocation that never moves, made with `Box::into_raw` and freed
//! only in `Drop` (entities: after the call in which a plugin removed them). Rust touches that memory
//! only through raw pointers, between plugin calls or from inside a callback (when the plugin's code
//! is suspended), so no Rust reference ever aliases a pointer a plugin is using.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ffi::CString;
use std::os::raw::{c_char, c_long};
use std::ptr::{self, NonNull};

use crate::abi::{
    A4Entity, A4View, A5Interface, EngineInterface, FrameInterface, RawFixed, ReceiveFunc,
    SendFunc, WdlInterface,
};
use crate::state::{EntityKey, EntityState};
use crate::A5DLL_VERSION;

/// The plugin-visible block: interfaces, objects and the MY/YOU pointers.
pub(crate) struct Exposed {
    pub(crate) a5: A5Interface,
    pub(crate) wdl: WdlInterface,
    pub(crate) fb: FrameInterface,
    pub(crate) eng: EngineInterface,
    pub(crate) camera: A4View,
    pub(crate) time: RawFixed,
    pub(crate) total_ticks: RawFixed,
    pub(crate) sky_speed: [RawFixed; 2],
    pub(crate) my: *mut A4Entity,
    pub(crate) you: *mut A4Entity,
}

/// One entity a plugin can reach.
struct Slot {
    key: EntityKey,
    ptr: NonNull<A4Entity>,
    /// Keeps `link.name` valid.
    name: CString,
    /// Removed by a plugin during this call; freed when the call returns.
    removed: bool,
}

/// Where the frame being drawn is while an each-frame call runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrameTarget {
    pub(crate) ptr: *mut u8,
    pub(crate) len: usize,
    pub(crate) pitch: usize,
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) bpp: usize,
}

#[derive(Default)]
struct Book {
    slots: Vec<Slot>,
    by_addr: HashMap<usize, usize>,
    hidden: HashSet<EntityKey>,
    next_spawn: u64,
    frame: Option<FrameTarget>,
    /// File name of the plugin being called, for messages.
    caller: String,
    errors: Vec<String>,
    /// Entities made by `ent_create` and removed by `ent_remove`, since the start.
    counts: (u64, u64),
    /// Largest user packet the session carries; `None`: no network session.
    packet_limit: Option<usize>,
    /// Packets plugins sent since the engine last took them.
    outbox: Vec<Packet>,
}

/// A user packet a plugin sent with `SendPacket` (or [`crate::Engine::send_packet`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Packet {
    /// `to` as the plugin gave it: on a server a client's id (0: every client), ignored on a client.
    pub to: i64,
    /// The bytes, starting with [`USER_PACKET`].
    pub bytes: Vec<u8>,
    /// The plugin asked for guaranteed delivery.
    pub guaranteed: bool,
}

/// The first byte of every user packet (A5.51's rule, kept by the network protocol's code 0x11).
pub const USER_PACKET: u8 = 17;

/// A named engine object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ObjectKind {
    Camera,
    Time,
    TotalTicks,
    SkySpeed,
}

impl ObjectKind {
    pub(crate) fn by_name(name: &str) -> Option<ObjectKind> {
        Some(match name {
            "camera" => ObjectKind::Camera,
            "time" => ObjectKind::Time,
            "total_ticks" => ObjectKind::TotalTicks,
            "sky_speed" => ObjectKind::SkySpeed,
            _ => return None,
        })
    }
}

/// The engine functions the interface structs point to. `callbacks` defines them (they answer
/// through the [`Shared`] of the call under way) and the host hands them in, so this module, which
/// owns the memory they work on, needs only their types.
#[derive(Clone, Copy)]
pub(crate) struct Callbacks {
    pub(crate) get_obj: unsafe extern "C" fn(*const c_char) -> c_long,
    pub(crate) get_func: unsafe extern "C" fn(*const c_char) -> c_long,
    pub(crate) ent_next: unsafe extern "C" fn(*mut A4Entity) -> *mut A4Entity,
    pub(crate) error_message: unsafe extern "C" fn(*const c_char),
    pub(crate) lock: unsafe extern "C" fn() -> i32,
    pub(crate) unlock: unsafe extern "C" fn(),
    /// Stored in `ENGINE_INTERFACE` only while a network session is open.
    pub(crate) send_packet: SendFunc,
}

/// The engine side of every plugin: owner of the exposed memory and the entity table.
pub(crate) struct Shared {
    exposed: NonNull<Exposed>,
    book: RefCell<Book>,
    send_packet: SendFunc,
}

impl Shared {
    pub(crate) fn new(callbacks: Callbacks) -> Shared {
        let exposed = Box::new(Exposed {
            a5: A5Interface {
                dll_version: A5DLL_VERSION,
                wdl: ptr::null_mut(),
                fb: ptr::null_mut(),
                eng: ptr::null_mut(),
            },
            wdl: WdlInterface {
                get_obj: Some(callbacks.get_obj),
                get_func: Some(callbacks.get_func),
                my: ptr::null_mut(),
                you: ptr::null_mut(),
                ent_next: Some(callbacks.ent_next),
                error_message: Some(callbacks.error_message),
            },
            fb: FrameInterface {
                bytes: ptr::null_mut(),
                pitch: 0,
                width: 0,
                height: 0,
                bpp: 1,
                lock: Some(callbacks.lock),
                unlock: Some(callbacks.unlock),
                pd3ddev: ptr::null_mut(),
            },
            eng: EngineInterface {
                save_block: ptr::null_mut(),
                save_size: 0,
                exec: None,
                send_packet: None,
                receive_packet: None,
            },
            camera: A4View::default(),
            time: 0,
            total_ticks: 0,
            sky_speed: [0; 2],
            my: ptr::null_mut(),
            you: ptr::null_mut(),
        });
        let p = Box::into_raw(exposed);
        // SAFETY: `p` was just made by Box::into_raw, so it is valid and unaliased; the pointers
        // stored are to fields of the same allocation, which lives until Drop.
        unsafe {
            (*p).a5.wdl = ptr::addr_of_mut!((*p).wdl);
            (*p).a5.fb = ptr::addr_of_mut!((*p).fb);
            (*p).a5.eng = ptr::addr_of_mut!((*p).eng);
            (*p).wdl.my = ptr::addr_of_mut!((*p).my);
            (*p).wdl.you = ptr::addr_of_mut!((*p).you);
        }
        Shared {
            // SAFETY: Box::into_raw never returns null.
            exposed: unsafe { NonNull::new_unchecked(p) },
            book: RefCell::new(Book::default()),
            send_packet: callbacks.send_packet,
        }
    }

    /// The `A5_INTERFACE` handed to `a5dll_attach`.
    pub(crate) fn interface(&self) -> *mut A5Interface {
        // SAFETY: `exposed` is valid for the life of `self`; only an address is formed.
        unsafe { ptr::addr_of_mut!((*self.exposed.as_ptr()).a5) }
    }

    /// Run `f` on the exposed block. Callers must not be inside a plugin's code (they are the
    /// engine between calls, or a callback while the plugin is suspended), so nothing else uses it.
    pub(crate) fn with_exposed<R>(&self, f: impl FnOnce(&mut Exposed) -> R) -> R {
        // SAFETY: the block is valid until Drop; the `&mut` lives only for `f`, during which no
        // plugin code runs and no other Rust reference to the block exists (this is the only place
        // that makes one, and `f` cannot call it again without going through a plugin).
        f(unsafe { &mut *self.exposed.as_ptr() })
    }

    /// Address of a named object.
    pub(crate) fn object_addr(&self, kind: ObjectKind) -> usize {
        let p = self.exposed.as_ptr();
        // SAFETY: only addresses of fields of the live block are formed, nothing is read.
        unsafe {
            match kind {
                ObjectKind::Camera => ptr::addr_of_mut!((*p).camera) as usize,
                ObjectKind::Time => ptr::addr_of_mut!((*p).time) as usize,
                ObjectKind::TotalTicks => ptr::addr_of_mut!((*p).total_ticks) as usize,
                ObjectKind::SkySpeed => ptr::addr_of_mut!((*p).sky_speed) as usize,
            }
        }
    }

    pub(crate) fn set_caller(&self, name: &str) -> String {
        std::mem::replace(&mut self.book.borrow_mut().caller, name.to_string())
    }

    /// The error path of `a5dll_errormessage` and unknown names: one line on stderr naming the plugin.
    pub(crate) fn report(&self, text: &str) {
        let mut book = self.book.borrow_mut();
        let line = format!("{}: {text}", book.caller);
        eprintln!("{line}");
        book.errors.push(line);
    }

    pub(crate) fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut self.book.borrow_mut().errors)
    }

    // ---- network ----

    /// Open (`Some(limit)`: packets up to `limit` bytes) or close the network session `SendPacket`
    /// sends into; the function pointer is NULL without one, as the header documents.
    pub(crate) fn set_network(&self, limit: Option<usize>) {
        self.book.borrow_mut().packet_limit = limit;
        self.with_exposed(|e| {
            e.eng.send_packet = limit.map(|_| self.send_packet);
        });
    }

    pub(crate) fn has_network(&self) -> bool {
        self.book.borrow().packet_limit.is_some()
    }

    /// Queue a packet after checking it the way A5 did (first byte 17) and against the session's
    /// datagram size; a refused packet is reported and `false` returned.
    pub(crate) fn send(&self, to: i64, bytes: &[u8], guaranteed: bool) -> bool {
        let Some(limit) = self.book.borrow().packet_limit else {
            self.report("SendPacket: there is no network session (run with --serve or --connect)");
            return false;
        };
        let problem = match bytes.first() {
            None => Some("SendPacket: no data".to_string()),
            Some(&b) if b != USER_PACKET => Some(format!(
                "SendPacket: the first byte of a user packet must be 17 (0x11), not {b}"
            )),
            _ if bytes.len() > limit => Some(format!(
                "SendPacket: {} bytes is more than the {limit} one datagram carries",
                bytes.len()
            )),
            _ => None,
        };
        if let Some(p) = problem {
            self.report(&p);
            return false;
        }
        self.book.borrow_mut().outbox.push(Packet {
            to,
            bytes: bytes.to_vec(),
            guaranteed,
        });
        true
    }

    pub(crate) fn take_packets(&self) -> Vec<Packet> {
        std::mem::take(&mut self.book.borrow_mut().outbox)
    }

    /// The `ReceivePacket` function a native plugin stored in `ENGINE_INTERFACE`, if any.
    pub(crate) fn receiver(&self) -> Option<ReceiveFunc> {
        self.with_exposed(|e| e.eng.receive_packet)
    }

    /// The address of [`Shared::receiver`], to tell when a plugin stored a different one (the
    /// plugin's code is C: its address is the identity).
    pub(crate) fn receiver_addr(&self) -> Option<usize> {
        self.receiver().map(|f| f as usize)
    }

    // ---- frame ----

    pub(crate) fn set_frame(&self, frame: Option<FrameTarget>) {
        self.book.borrow_mut().frame = frame;
        self.with_exposed(|e| {
            e.fb.bytes = ptr::null_mut();
            if let Some(f) = frame {
                e.fb.pitch = f.pitch as i32;
                e.fb.width = f.width as i32;
                e.fb.height = f.height as i32;
                e.fb.bpp = f.bpp as i32;
            }
        });
    }

    pub(crate) fn frame(&self) -> Option<FrameTarget> {
        self.book.borrow().frame
    }

    /// `Lock()`: hands out the frame's bytes while an each-frame call runs; 0 otherwise.
    pub(crate) fn lock(&self) -> bool {
        match self.frame() {
            Some(f) => {
                self.with_exposed(|e| e.fb.bytes = f.ptr);
                true
            }
            None => false,
        }
    }

    /// `Unlock()`; returns whether the frame was locked.
    pub(crate) fn unlock(&self) -> bool {
        self.with_exposed(|e| !std::mem::replace(&mut e.fb.bytes, ptr::null_mut()).is_null())
    }

    // ---- entities ----

    fn alloc(&self, key: EntityKey, name: &str, value: A4Entity) -> usize {
        let mut book = self.book.borrow_mut();
        let name = CString::new(name.replace('\0', "")).unwrap_or_default();
        let mut value = value;
        value.link.name = name.as_ptr();
        let ptr = NonNull::from(Box::leak(Box::new(value)));
        let addr = ptr.as_ptr() as usize;
        let index = book.slots.len();
        book.slots.push(Slot {
            key,
            ptr,
            name,
            removed: false,
        });
        book.by_addr.insert(addr, index);
        addr
    }

    /// Write the engine's entities (in walk order) into the table, creating slots for new keys and
    /// freeing those of engine entities that are gone; spawned entities are kept. `write` fills an
    /// entity from engine state and leaves what the engine does not own (skills, flags) alone.
    pub(crate) fn sync<'n>(
        &self,
        entities: impl IntoIterator<Item = (EntityKey, &'n str, EntityState)>,
    ) {
        let mut seen = HashSet::new();
        for (key, name, state) in entities {
            if self.book.borrow().hidden.contains(&key) || !seen.insert(key) {
                continue;
            }
            let existing = self.addr_of(key);
            let addr = match existing {
                Some(a) => a,
                None => self.alloc(key, name, A4Entity::default()),
            };
            // SAFETY: `addr` is a live slot (found or just made); no plugin code runs now.
            state.write_to(unsafe { &mut *(addr as *mut A4Entity) });
        }
        let gone: Vec<usize> = self
            .book
            .borrow()
            .slots
            .iter()
            .filter(|s| matches!(s.key, EntityKey::Engine(_)) && !seen.contains(&s.key))
            .map(|s| s.ptr.as_ptr() as usize)
            .collect();
        for addr in gone {
            self.mark_removed(addr);
        }
        self.collect();
    }

    pub(crate) fn addr_of(&self, key: EntityKey) -> Option<usize> {
        self.book
            .borrow()
            .slots
            .iter()
            .find(|s| s.key == key && !s.removed)
            .map(|s| s.ptr.as_ptr() as usize)
    }

    pub(crate) fn key_of(&self, addr: usize) -> Option<EntityKey> {
        let book = self.book.borrow();
        let slot = &book.slots[*book.by_addr.get(&addr)?];
        (!slot.removed).then_some(slot.key)
    }

    /// A copy of a live entity.
    pub(crate) fn read(&self, addr: usize) -> Option<A4Entity> {
        self.key_of(addr)?;
        // SAFETY: `addr` is a live slot; no plugin code runs now.
        Some(unsafe { *(addr as *const A4Entity) })
    }

    /// `&mut` to a live entity for as long as the caller's borrow of the owner lasts.
    ///
    /// # Safety
    /// The caller must ensure no other reference to this entity exists for `'a` and that no plugin
    /// code runs meanwhile (the Rust plugin context holds `&mut self` while it lends one).
    pub(crate) unsafe fn entity_mut<'a>(&self, addr: usize) -> Option<&'a mut A4Entity> {
        self.key_of(addr)?;
        // SAFETY: forwarded to the caller (see above); the slot is live.
        Some(unsafe { &mut *(addr as *mut A4Entity) })
    }

    /// `a5dll_entnext`: the live entity after `addr` (0 = the first); `Err` for a pointer that is no
    /// entity.
    pub(crate) fn next(&self, addr: usize) -> Result<Option<usize>, ()> {
        let book = self.book.borrow();
        let start = if addr == 0 {
            0
        } else {
            *book.by_addr.get(&addr).ok_or(())? + 1
        };
        Ok(book.slots[start.min(book.slots.len())..]
            .iter()
            .find(|s| !s.removed)
            .map(|s| s.ptr.as_ptr() as usize))
    }

    /// Every live entity, in walk order.
    pub(crate) fn all(&self) -> Vec<usize> {
        self.book
            .borrow()
            .slots
            .iter()
            .filter(|s| !s.removed)
            .map(|s| s.ptr.as_ptr() as usize)
            .collect()
    }

    /// `ent_create`: a new model entity; returns its address.
    pub(crate) fn spawn(&self, model: &str, position: [RawFixed; 3]) -> usize {
        let id = {
            let mut book = self.book.borrow_mut();
            book.next_spawn += 1;
            book.counts.0 += 1;
            book.next_spawn
        };
        let value = A4Entity {
            x: position[0],
            y: position[1],
            z: position[2],
            ..A4Entity::default()
        };
        self.alloc(EntityKey::Spawned(id), model, value)
    }

    /// `ent_remove`: false for a pointer that is no live entity.
    pub(crate) fn remove(&self, addr: usize) -> bool {
        match self.key_of(addr) {
            Some(key) => {
                let mut book = self.book.borrow_mut();
                book.counts.1 += 1;
                if let EntityKey::Engine(_) = key {
                    book.hidden.insert(key);
                }
                drop(book);
                self.mark_removed(addr);
                true
            }
            None => false,
        }
    }

    fn mark_removed(&self, addr: usize) {
        let mut book = self.book.borrow_mut();
        if let Some(&i) = book.by_addr.get(&addr) {
            book.slots[i].removed = true;
        }
        drop(book);
        self.with_exposed(|e| {
            for p in [&mut e.my, &mut e.you] {
                if *p as usize == addr {
                    *p = ptr::null_mut();
                }
            }
        });
    }

    pub(crate) fn counts(&self) -> (u64, u64) {
        self.book.borrow().counts
    }

    pub(crate) fn is_hidden(&self, key: EntityKey) -> bool {
        self.book.borrow().hidden.contains(&key)
    }

    /// Spawned entities still alive: (key, model file name, copy).
    pub(crate) fn spawned(&self) -> Vec<(EntityKey, String, A4Entity)> {
        let book = self.book.borrow();
        book.slots
            .iter()
            .filter(|s| !s.removed && matches!(s.key, EntityKey::Spawned(_)))
            // SAFETY: live slot; no plugin code runs now.
            .map(|s| {
                (s.key, s.name.to_string_lossy().into_owned(), unsafe {
                    *s.ptr.as_ptr()
                })
            })
            .collect()
    }

    /// Free the entities removed during the last call. Plugins must not keep pointers to removed
    /// entities (as in A5).
    pub(crate) fn collect(&self) {
        let mut book = self.book.borrow_mut();
        let slots = std::mem::take(&mut book.slots);
        book.by_addr.clear();
        for slot in slots {
            if slot.removed {
                // SAFETY: the slot's box was made by Box::leak in `alloc` and is freed once, here;
                // it is no longer in the table.
                drop(unsafe { Box::from_raw(slot.ptr.as_ptr()) });
            } else {
                let i = book.slots.len();
                book.by_addr.insert(slot.ptr.as_ptr() as usize, i);
                book.slots.push(slot);
            }
        }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        for slot in std::mem::take(&mut self.book.borrow_mut().slots) {
            // SAFETY: each slot's box is freed exactly once; the plugins are unloaded first
            // (`PluginHost` drops its libraries before this).
            drop(unsafe { Box::from_raw(slot.ptr.as_ptr()) });
        }
        // SAFETY: made by Box::into_raw in `new`, freed once.
        drop(unsafe { Box::from_raw(self.exposed.as_ptr()) });
    }
}
