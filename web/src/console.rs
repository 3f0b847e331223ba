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
