//! modex in the browser: the files a user dropped on the page, shown by the engine's own decoders
//! and renderers compiled to `wasm32-unknown-unknown`.
//!
//! The page (`page/index.html`, `page/modex.js`) talks to this crate through plain `extern "C"`
//! exports (`exports`): numbers in, numbers out, and byte buffers that Rust owns and JavaScript
//! reads or fills through their address in the module's memory. That is the whole interface, a
//! dozen functions, so no binding generator (wasm-bindgen and its CLI) is needed; `web/README.md`
//! says why that is simpler here.
//!
//! What is drawn is `modex_view`'s: the same loading, camera, light and drawing as
//! `modex render`, so at the same size, yaw, pitch, frame, facing and format the canvas holds the
//! bytes that command writes. The page passes the time in (`performance.now()`); nothing here reads
//! a clock, which WebAssembly does not have.
#![deny(unsafe_code)]
#![warn(missing_docs)]

mod colouring;
mod console;
mod cutscene;
mod error;
mod exports;
mod files;
mod level;
mod page;
mod shown;
mod view;

pub use files::Dropped;
pub use page::Page;
pub use view::View;
