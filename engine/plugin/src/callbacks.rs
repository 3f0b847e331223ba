//! The engine functions a native plugin calls through the interface structs.
//!
//! C function pointers carry no context, so the engine sets the [`Shared`] state of the host making
//! a call as this thread's current one for the duration of the call ([`CallScope`]). A callback
//! made outside a call (from a thread the plugin started, say) finds none and returns 0. No callback
//! panics: a panic cannot unwind into C.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::ffi::CStr;
use std::os::raw::{c_char, c_long};
use std::rc::Rc;

use crate::abi::{A4Entity, RawFixed};
use crate::shared::{Callbacks, ObjectKind, Shared};

/// The functions the engine's interface structs point to, for [`Shared::new`].
pub(crate) const CALLBACKS: Callbacks = Callbacks {
    get_obj,
    get_func,
    ent_next,
    error_message,
    lock,
    unlock,
    send_packet,
};

thread_local! {
    static CURRENT: RefCell<Option<Rc<Shared>>> = const { RefCell::new(None) };
}

/// While alive, `shared` answers the callbacks on this thread and reports as `caller`.
pub(crate) struct CallScope {
    previous: Option<Rc<Shared>>,
    previous_caller: String,
    shared: Rc<Shared>,
}

impl CallScope {
    pub(crate) fn enter(shared: &Rc<Shared>, caller: &str) -> CallScope {
        let previous = CURRENT.with(|c| c.replace(Some(shared.clone())));
        let previous_caller = shared.set_caller(caller);
        CallScope {
            previous,
            previous_caller,
            shared: shared.clone(),
        }
    }
}

impl Drop for CallScope {
    fn drop(&mut self) {
        self.shared.set_caller(&self.previous_caller);
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

fn current() -> Option<Rc<Shared>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// A name a plugin passed, or `None` for a null pointer.
///
/// # Safety
/// `name` is null or points to a NUL-terminated string that stays valid for the call (the header's
/// contract for every `const char *` argument).
unsafe fn text<'a>(name: *const c_char) -> Option<std::borrow::Cow<'a, str>> {
    if name.is_null() {
        return None;
    }
    // SAFETY: forwarded from the caller's contract.
    Some(unsafe { CStr::from_ptr(name) }.to_string_lossy())
}

unsafe extern "C" fn get_obj(name: *const c_char) -> c_long {
    let Some(shared) = current() else { return 0 };
    // SAFETY: the plugin passes a C string (header contract).
    let name = unsafe { text(name) }.unwrap_or_default();
    match ObjectKind::by_name(&name) {
        Some(kind) => shared.object_addr(kind) as c_long,
        None => {
            shared.report(&format!("unknown object '{name}'"));
            0
        }
    }
}

unsafe extern "C" fn get_func(name: *const c_char) -> c_long {
    let Some(shared) = current() else { return 0 };
    // SAFETY: the plugin passes a C string (header contract).
    let name = unsafe { text(name) }.unwrap_or_default();
    let f: usize = match &*name {
        "vec_rotate" => vec_rotate as unsafe extern "C" fn(c_long, c_long) -> c_long as usize,
        "ent_create" => {
            ent_create as unsafe extern "C" fn(c_long, c_long, c_long) -> c_long as usize
        }
        "ent_remove" => ent_remove as unsafe extern "C" fn(c_long) -> c_long as usize,
        _ => {
            shared.report(&format!("unknown function '{name}'"));
            0
        }
    };
    f as c_long
}

unsafe extern "C" fn ent_next(ent: *mut A4Entity) -> *mut A4Entity {
    let Some(shared) = current() else {
        return std::ptr::null_mut();
    };
    match shared.next(ent as usize) {
        Ok(next) => next.unwrap_or(0) as *mut A4Entity,
        Err(()) => {
            shared.report("a5dll_entnext: the pointer given is not an entity");
            std::ptr::null_mut()
        }
    }
}

unsafe extern "C" fn error_message(text_ptr: *const c_char) {
    if let Some(shared) = current() {
        // SAFETY: the plugin passes a C string (header contract).
        let text = unsafe { text(text_ptr) }.unwrap_or_default();
        shared.report(&text);
    }
}

unsafe extern "C" fn lock() -> i32 {
    current().is_some_and(|s| s.lock()) as i32
}

unsafe extern "C" fn unlock() {
    if let Some(s) = current() {
        s.unlock();
    }
}

/// `SendPacket(long to, void *data, long size, long guaranteed)`: queued for the engine's network
/// session (the pointer is NULL in `ENGINE_INTERFACE` when there is none).
unsafe extern "C" fn send_packet(
    to: c_long,
    data: *mut std::ffi::c_void,
    size: c_long,
    guaranteed: c_long,
) {
    let Some(shared) = current() else { return };
    if data.is_null() || size <= 0 {
        shared.report("SendPacket: no data");
        return;
    }
    // Refuse absurd sizes before forming a slice: the session's limit is far below this.
    let Ok(len) = usize::try_from(size) else {
        return;
    };
    if len > MAX_PACKET_READ {
        shared.report(&format!(
            "SendPacket: {len} bytes is more than one datagram carries"
        ));
        return;
    }
    // SAFETY: the plugin passes `size` readable bytes at `data` (the SDK's contract); they are
    // copied before the call returns.
    let bytes = unsafe { std::slice::from_raw_parts(data as *const u8, len) };
    #[allow(clippy::useless_conversion)] // c_long is i32 on Windows
    shared.send(i64::from(to), bytes, guaranteed != 0);
}

/// Bytes `SendPacket` reads at most (a UDP datagram's payload); the session's own limit is lower.
const MAX_PACKET_READ: usize = 65_507;

/// `vec_rotate(fixed *vec, fixed *angle)`: both point to three `fixed`.
unsafe extern "C" fn vec_rotate(vec: c_long, angle: c_long) -> c_long {
    if vec == 0 || angle == 0 {
        if let Some(s) = current() {
            s.report("vec_rotate: null vector");
        }
        return 0;
    }
    // SAFETY: the plugin passes pointers to three `fixed` each (the A5 contract); they are read
    // and written unaligned-safe as plain copies.
    unsafe {
        let v = vec as *mut [RawFixed; 3];
        let a = angle as *const [RawFixed; 3];
        let mut value = v.read_unaligned();
        crate::state::vec_rotate(&mut value, &a.read_unaligned());
        v.write_unaligned(value);
    }
    vec
}

/// `ent_create(const char *model, fixed *position, long action)`: the action is ignored.
unsafe extern "C" fn ent_create(model: c_long, position: c_long, _action: c_long) -> c_long {
    let Some(shared) = current() else { return 0 };
    // SAFETY: the plugin passes a C string (header contract).
    let Some(name) = (unsafe { text(model as *const c_char) }) else {
        shared.report("ent_create: no model file name");
        return 0;
    };
    let pos = if position == 0 {
        [0; 3]
    } else {
        // SAFETY: the plugin passes a pointer to three `fixed` (A5 contract).
        unsafe { (position as *const [RawFixed; 3]).read_unaligned() }
    };
    shared.spawn(&name, pos) as c_long
}

/// `ent_remove(A4_ENTITY *ent)`.
unsafe extern "C" fn ent_remove(ent: c_long) -> c_long {
    let Some(shared) = current() else { return 0 };
    if !shared.remove(ent as usize) {
        shared.report("ent_remove: the pointer given is not an entity");
    }
    0
}
