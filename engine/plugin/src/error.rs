//! What can go wrong loading a plugin or calling one of its functions.

use std::path::PathBuf;

/// A plugin library that cannot be used. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// This build has no native code loader (the WebAssembly build of the web frontend).
    #[error("cannot load plugin {}: plugins need a native build (this is a WebAssembly build)", file.display())]
    NeedsNativeBuild {
        /// The library.
        file: PathBuf,
    },
    /// The file is missing or is not a loadable library.
    #[error("cannot load plugin {}: {reason}", file.display())]
    Open {
        /// The library.
        file: PathBuf,
        /// What the system loader said.
        reason: String,
    },
    /// The library does not export `a5dll_attach` (the `A5DLL_DEFINE` line is missing).
    #[error("plugin {} has no a5dll_attach function (add the A5DLL_DEFINE line of a5dll.h)", file.display())]
    NoAttach {
        /// The library.
        file: PathBuf,
    },
    /// `a5dll_attach` returned a newer interface version than this engine implements.
    #[error("plugin {} needs interface version {plugin}, newer than this engine's version {engine}", file.display())]
    NewerVersion {
        /// The library.
        file: PathBuf,
        /// What its `a5dll_attach` returned.
        plugin: i64,
        /// [`crate::A5DLL_VERSION`].
        engine: i32,
    },
}

/// A call the engine could not make.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// No loaded plugin exports a function of that name.
    #[error("{libraries} has no function '{function}'")]
    UnknownFunction {
        /// The name asked for.
        function: String,
        /// The loaded plugins' file names, comma separated.
        libraries: String,
    },
    /// A function was asked for with no plugin loaded.
    #[error("no plugin is loaded to export function '{function}' (load one with --plugin)")]
    NoPlugins {
        /// The name asked for.
        function: String,
    },
    /// The frame handed to [`crate::PluginHost::call_each_frame`] does not fit its bytes.
    #[error("frame of {width}x{height} pixels, {bpp} bytes each, pitch {pitch} does not fit its {len} bytes")]
    BadFrame {
        /// Width in pixels.
        width: usize,
        /// Height in pixels.
        height: usize,
        /// Bytes per pixel.
        bpp: usize,
        /// Bytes per row.
        pitch: usize,
        /// Bytes given.
        len: usize,
    },
}
