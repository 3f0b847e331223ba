//! Native plugins: shared libraries built against `include/a5dll.h`, loaded with libloading.
//!
//! A C plugin runs in the engine's process with no protection: if it crashes, the engine crashes
//! (docs/plugins.md says so). What the loader can check, it checks: the library opens, it exports
//! `a5dll_attach`, and the version that returns is not newer than the engine's.
//!
//! A wasm build (the web frontend) has no shared libraries to open: there the library handle is
//! absent and [`NativePlugin::load`] answers [`LoadError::NeedsNativeBuild`], so the rest of the
//! crate (the host, the Rust `Plugin` trait) still compiles and says why no plugin can load.
#![allow(unsafe_code)]

use std::collections::HashMap;
use std::ffi::CString;
use std::os::raw::c_long;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[cfg(not(target_family = "wasm"))]
use libloading::Library;

#[cfg(target_family = "wasm")]
use no_loader::Library;

/// Where no shared library can be opened (wasm): a library type with no value, so the loader's
/// code type-checks and [`NativePlugin::load`] returns before reaching it.
#[cfg(target_family = "wasm")]
mod no_loader {
    use std::path::Path;

    /// No library can exist.
    pub(super) enum Library {}

    /// A symbol of a library that cannot exist.
    pub(super) struct Symbol<T>(T);

    impl<T> std::ops::Deref for Symbol<T> {
        type Target = T;
        fn deref(&self) -> &T {
            &self.0
        }
    }

    impl Library {
        /// Always refused: there is no dynamic loader.
        pub(super) unsafe fn new(_path: &Path) -> Result<Library, &'static str> {
            Err("plugins need a native build")
        }

        /// Unreachable: no `Library` value exists.
        pub(super) unsafe fn get<T>(&self, _symbol: &[u8]) -> Result<Symbol<T>, ()> {
            match *self {}
        }
    }
}

use crate::abi::{AttachFunc, DllFunc, RawFixed, ReceiveFunc};
use crate::callbacks::CallScope;
use crate::shared::Shared;
use crate::{LoadError, A5DLL_VERSION};

/// A loaded and attached plugin library.
pub(crate) struct NativePlugin {
    /// File name for messages.
    pub(crate) name: String,
    /// Functions found so far, looked up on first call.
    found: HashMap<String, Option<DllFunc>>,
    /// Kept last so the function pointers above never outlive the code.
    library: Library,
}

impl NativePlugin {
    pub(crate) fn load(path: &Path, shared: &Rc<Shared>) -> Result<NativePlugin, LoadError> {
        let file = PathBuf::from(path);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        if cfg!(target_family = "wasm") {
            return Err(LoadError::NeedsNativeBuild { file });
        }
        if !path.exists() {
            return Err(LoadError::Open {
                file,
                reason: "no such file".into(),
            });
        }
        // SAFETY: loading a library runs its initialisers; running the user's chosen plugin code is
        // the point of this call and cannot be checked beforehand (docs/plugins.md).
        let library = unsafe { Library::new(path) }.map_err(|e| LoadError::Open {
            file: file.clone(),
            reason: e.to_string(),
        })?;
        // SAFETY: the symbol is declared by the header as `long a5dll_attach(A5_INTERFACE *)`.
        let attach: AttachFunc = match unsafe { library.get::<AttachFunc>(b"a5dll_attach\0") } {
            Ok(sym) => *sym,
            Err(_) => return Err(LoadError::NoAttach { file }),
        };
        let version = {
            let _scope = CallScope::enter(shared, &name);
            // SAFETY: `attach` has the header's signature; the interface pointer stays valid for the
            // life of the host, which outlives this library (it is dropped first).
            unsafe { attach(shared.interface()) }
        };
        if version > A5DLL_VERSION as c_long {
            return Err(LoadError::NewerVersion {
                file,
                plugin: version as i64,
                engine: A5DLL_VERSION,
            });
        }
        Ok(NativePlugin {
            name,
            found: HashMap::new(),
            library,
        })
    }

    /// The exported function `name`, looked up once.
    pub(crate) fn function(&mut self, name: &str) -> Option<DllFunc> {
        if let Some(f) = self.found.get(name) {
            return *f;
        }
        let f = CString::new(name).ok().and_then(|c| {
            // SAFETY: exported plugin functions are `fixed NAME(long)` by the header's contract;
            // a function declared otherwise is the plugin's bug, as in A5.
            unsafe { self.library.get::<DllFunc>(c.as_bytes_with_nul()) }
                .ok()
                .map(|s| *s)
        });
        self.found.insert(name.to_string(), f);
        f
    }

    /// Hand `data` (a copy: the plugin may write into it) to the `ReceivePacket` function `f` the
    /// plugin `name` stored in `ENGINE_INTERFACE`.
    pub(crate) fn deliver(f: ReceiveFunc, name: &str, from: i64, data: &[u8], shared: &Rc<Shared>) {
        let mut copy = data.to_vec();
        let _scope = CallScope::enter(shared, name);
        // SAFETY: `f` is the plugin's own function of the header's `ReceivePacket` type, stored by
        // code of a library that is still loaded (plugins are unloaded only with the host); the
        // buffer is valid for `copy.len()` bytes for the call.
        unsafe {
            f(
                from as c_long,
                copy.as_mut_ptr().cast(),
                copy.len() as c_long,
            )
        }
    }

    /// Call `f(arg)` with the callbacks answering for this plugin.
    pub(crate) fn call(&self, f: DllFunc, arg: c_long, shared: &Rc<Shared>) -> RawFixed {
        let _scope = CallScope::enter(shared, &self.name);
        // SAFETY: `f` came from this still-loaded library with the header's signature; pointers
        // passed in `arg` are live entities of `shared`.
        unsafe { f(arg) }
    }
}
