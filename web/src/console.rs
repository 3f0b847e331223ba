//! The browser console: the page has no terminal, so loading warnings go there (standard error
//! in the native tests).
// The one import from the page (`page/modex.js`), declared in an `extern` block, which the
// `unsafe_code` lint counts.
#![allow(unsafe_code)]

#[cfg(target_family = "wasm")]
#[link(wasm_import_module = "modex")]
extern "C" {
    fn console_log(ptr: *const u8, len: usize);
}

/// A line for the browser console.
pub fn log(line: &str) {
    #[cfg(target_family = "wasm")]
    // SAFETY: `console_log` (page/modex.js) only reads `len` bytes at `ptr`, valid for the call.
    unsafe {
        console_log(line.as_ptr(), line.len())
    };
    #[cfg(not(target_family = "wasm"))]
    eprintln!("{line}");
}

/// The engine's `log` lines (a level's entity file not found, a skin that does not decode) on the
/// browser console, as the binary prints them on standard error.
struct Console;

impl log::Log for Console {
    fn enabled(&self, meta: &log::Metadata) -> bool {
        meta.level() <= log::Level::Info
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            log(&format!("{}: {}", record.level(), record.args()));
        }
    }

    fn flush(&self) {}
}

/// Send the engine's `log` lines to the console (once; later calls do nothing).
pub fn init() {
    if log::set_logger(&Console).is_ok() {
        log::set_max_level(log::LevelFilter::Info);
    }
}
