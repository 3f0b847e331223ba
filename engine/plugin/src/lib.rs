//! Engine plugins the way the Acknex A5 SDK had them, modernised and made safe where it can be.
//!
//! - A C ABI: `include/a5dll.h` (self-contained). A plugin is a shared library exporting
//!   `long a5dll_attach(A5_INTERFACE *)` (the header's `A5DLL_DEFINE`) and functions
//!   `fixed NAME(long)`. [`abi`] mirrors the header's structs; a test checks the layouts agree.
//! - A Rust trait, [`Plugin`], with the same powers through [`Engine`], for in-process plugins; a
//!   panic is caught at the boundary and the plugin disabled.
//! - [`PluginHost`]: the engine side. The engine writes its entities ([`EntityState`] by
//!   [`EntityKey`]), camera and time, calls functions by name ([`PluginHost::call_each_entity`],
//!   [`PluginHost::call_each_frame`] with the frame being drawn), then reads back what changed and
//!   which models plugins spawned. It depends on no scene type: the demo adapts its own.
//!
//! `docs/plugins.md` is the user's guide. FFI needs `unsafe`; it is confined to the modules that
//! talk to C or hand out plugin-visible memory (`shared`, `callbacks`, `native`, `plugin`), each block
//! with its `// SAFETY:` reason.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod abi;
mod callbacks;
pub mod effects;
mod error;
mod host;
mod native;
mod plugin;
mod shared;
mod state;

pub use abi::{A4Entity, A4View, RawFixed, A5DLL_VERSION};
pub use error::{CallError, LoadError};
pub use host::{FrameBuffer, PluginHost};
pub use plugin::{Engine, EntityHandle, FrameLock, Object, Plugin};
pub use shared::{Packet, USER_PACKET};
pub use state::{vec_rotate, CameraState, EntityKey, EntityState};

/// Path of the C header, for build scripts and tests that compile plugins.
pub const INCLUDE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/include");
