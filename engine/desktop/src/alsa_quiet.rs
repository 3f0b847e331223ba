//! Keeps ALSA's own complaints off stderr.
//!
//! Opening the default device on a machine without sound makes libasound print its errors
//! (`ALSA lib confmisc.c:...`, eight lines on a headless machine) straight to stderr through its
//! default error handler, before modex can say the one line it says ("no audio device; running
//! silent"). The library lets a program install its own handler; this one forwards each message to
//! the `log` crate at debug level, where `RUST_LOG=debug` still shows it.
//!
//! The crate's only `unsafe`: one C function of ours that ALSA calls, and the two FFI calls that
//! install it.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, CStr};
use std::sync::Once;

/// The `log` target of this module's lines: the name they had in the core
/// (`modex::audio::alsa_quiet`) before the device moved to this crate, kept so `RUST_LOG` filters
/// and the lines read as before.
const LOG_TARGET: &str = "modex::audio::alsa_quiet";

/// The handler ALSA calls. Its C type is variadic (`printf`-style arguments follow `fmt`);
/// Rust cannot define a variadic function on stable, so this one takes the fixed arguments
/// only and never reads the rest. On the C calling conventions of the targets modex builds for
/// (x86-64 System V, AArch64 Linux) variadic arguments travel after the fixed ones exactly as
/// in a non-variadic call, so a callee that ignores them is called correctly.
unsafe extern "C" fn quiet(
    file: *const c_char,
    line: c_int,
    function: *const c_char,
    err: c_int,
    fmt: *const c_char,
) {
    let text = |p: *const c_char| {
        if p.is_null() {
            String::new()
        } else {
            // SAFETY: ALSA passes NUL-terminated static strings (source file, function name,
            // format) or NULL, which is checked above.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    log::debug!(
        target: LOG_TARGET,
        "ALSA {}:{line} {} (error {err}): {}",
        text(file),
        text(function),
        text(fmt)
    );
}

/// Install [`quiet`] once per process.
pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        type Fixed =
            unsafe extern "C" fn(*const c_char, c_int, *const c_char, c_int, *const c_char);
        let handler: Fixed = quiet;
        // SAFETY: the handler type differs from ALSA's only by the variadic tail, which
        // `quiet` never reads (see its comment on the calling convention); the function
        // lives for the whole process, as ALSA requires of a handler.
        let handler =
            unsafe { std::mem::transmute::<Fixed, alsa_sys::snd_lib_error_handler_t>(handler) };
        // SAFETY: plain FFI call with a valid function pointer; called once, before any
        // thread of ours opens a device.
        let rc = unsafe { alsa_sys::snd_lib_error_set_handler(handler) };
        if rc != 0 {
            log::debug!(target: LOG_TARGET, "ALSA refused the error handler ({rc})");
        }
    });
}
