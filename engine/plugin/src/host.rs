//! `PluginHost`: what an engine owns to run plugins. The engine fills it (entities, camera, time,
//! the frame being drawn), asks it to call plugin functions by name, and reads back what the
//! plugins changed. It knows nothing of the engine's scene: entities are [`EntityKey`]s with an
//! [`EntityState`].

use std::collections::HashMap;
use std::os::raw::c_long;
use std::path::Path;
use std::rc::Rc;

use crate::callbacks::CALLBACKS;
use crate::native::NativePlugin;
use crate::plugin::{EntityHandle, Plugin, RustPlugin};
use crate::shared::{FrameTarget, Packet, Shared};
use crate::state::{CameraState, EntityKey, EntityState};
use crate::{CallError, LoadError};

/// The frame being drawn, lent to plugins for one each-frame call.
#[derive(Debug)]
pub struct FrameBuffer<'f> {
    /// Rows of pixels in the frame's own format.
    pub bytes: &'f mut [u8],
    /// Bytes from one row to the next.
    pub pitch: usize,
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// Bytes per pixel: 1, 2 or 4.
    pub bpp: usize,
}

enum Loaded {
    Native(NativePlugin),
    Rust(RustPlugin),
}

impl Loaded {
    fn name(&self) -> &str {
        match self {
            Loaded::Native(n) => &n.name,
            Loaded::Rust(r) => r.plugin.name(),
        }
    }
}

/// Loaded plugins and the memory they share with the engine.
pub struct PluginHost {
    /// Declared before `shared` so libraries are unloaded before the memory they point into goes.
    plugins: Vec<Loaded>,
    /// Which plugin answers a name, found on first call.
    resolved: HashMap<String, usize>,
    shared: Rc<Shared>,
    screen: [u32; 2],
    /// The native plugin whose code last stored a `ReceivePacket` function (for messages).
    receiver_owner: Option<String>,
}

impl Default for PluginHost {
    fn default() -> Self {
        PluginHost::new()
    }
}

impl PluginHost {
    /// A host with no plugins.
    pub fn new() -> PluginHost {
        PluginHost {
            plugins: Vec::new(),
            resolved: HashMap::new(),
            shared: Rc::new(Shared::new(CALLBACKS)),
            screen: [0, 0],
            receiver_owner: None,
        }
    }

    /// Load and attach a native plugin (`.so`).
    pub fn load(&mut self, path: &Path) -> Result<(), LoadError> {
        let before = self.shared.receiver_addr();
        let p = NativePlugin::load(path, &self.shared)?;
        note_receiver(&mut self.receiver_owner, &self.shared, before, &p.name);
        log::info!("plugin {} attached", p.name);
        self.plugins.push(Loaded::Native(p));
        Ok(())
    }

    /// Add an in-process Rust plugin.
    pub fn add(&mut self, plugin: Box<dyn Plugin>) {
        self.plugins.push(Loaded::Rust(RustPlugin {
            plugin,
            disabled: false,
        }));
    }

    /// Names of the loaded plugins, in load order.
    pub fn names(&self) -> Vec<String> {
        self.plugins.iter().map(|p| p.name().to_string()).collect()
    }

    /// Whether the plugin at `index` (load order) was disabled after a panic.
    pub fn is_disabled(&self, index: usize) -> bool {
        matches!(self.plugins.get(index), Some(Loaded::Rust(r)) if r.disabled)
    }

    /// Find which plugin exports `function` (the first in load order); the error names the
    /// libraries looked in and the function.
    pub fn resolve(&mut self, function: &str) -> Result<(), CallError> {
        self.find(function).map(|_| ())
    }

    fn find(&mut self, function: &str) -> Result<usize, CallError> {
        if let Some(&i) = self.resolved.get(function) {
            return Ok(i);
        }
        for (i, p) in self.plugins.iter_mut().enumerate() {
            let has = match p {
                Loaded::Native(n) => n.function(function).is_some(),
                Loaded::Rust(r) => r.plugin.exports().contains(&function),
            };
            if has {
                self.resolved.insert(function.to_string(), i);
                return Ok(i);
            }
        }
        if self.plugins.is_empty() {
            return Err(CallError::NoPlugins {
                function: function.to_string(),
            });
        }
        Err(CallError::UnknownFunction {
            function: function.to_string(),
            libraries: self.names().join(", "),
        })
    }

    fn call(&mut self, i: usize, function: &str, my: Option<usize>) -> Option<i32> {
        let shared = self.shared.clone();
        shared.with_exposed(|e| e.my = my.unwrap_or(0) as *mut _);
        let before = shared.receiver_addr();
        let result = match &mut self.plugins[i] {
            Loaded::Native(n) => n.function(function).map(|f| {
                let r = n.call(f, my.unwrap_or(0) as c_long, &shared);
                if shared.unlock() {
                    shared.report(&format!("{function} returned with the frame still locked"));
                }
                r
            }),
            Loaded::Rust(r) => r.call(function, &shared, my.map(EntityHandle)),
        };
        note_receiver(
            &mut self.receiver_owner,
            &shared,
            before,
            self.plugins[i].name(),
        );
        shared.with_exposed(|e| e.my = std::ptr::null_mut());
        result
    }

    /// `--each-entity NAME`: call `NAME((long)entity)` once for every entity (MY set to it), before
    /// the scene is drawn. Entities created during the round are called from the next frame on.
    pub fn call_each_entity(&mut self, function: &str) -> Result<(), CallError> {
        let i = self.find(function)?;
        for addr in self.shared.all() {
            if self.shared.key_of(addr).is_some() {
                self.call(i, function, Some(addr));
            }
        }
        self.shared.collect();
        Ok(())
    }

    /// `--each-frame NAME`: call `NAME(0)` once with `frame` lockable (after drawing, before
    /// presenting).
    pub fn call_each_frame(
        &mut self,
        function: &str,
        frame: FrameBuffer<'_>,
    ) -> Result<i32, CallError> {
        let i = self.find(function)?;
        let fits = frame.bpp > 0
            && frame
                .width
                .checked_mul(frame.bpp)
                .is_some_and(|w| w <= frame.pitch)
            && frame
                .pitch
                .checked_mul(frame.height)
                .is_some_and(|n| n <= frame.bytes.len())
            && i32::try_from(frame.pitch).is_ok()
            && i32::try_from(frame.height).is_ok();
        if !fits {
            return Err(CallError::BadFrame {
                width: frame.width,
                height: frame.height,
                bpp: frame.bpp,
                pitch: frame.pitch,
                len: frame.bytes.len(),
            });
        }
        self.shared.set_frame(Some(FrameTarget {
            ptr: frame.bytes.as_mut_ptr(),
            len: frame.pitch * frame.height,
            pitch: frame.pitch,
            width: frame.width,
            height: frame.height,
            bpp: frame.bpp,
        }));
        let r = self.call(i, function, None);
        // The bytes are only lent for this call.
        self.shared.set_frame(None);
        self.shared.collect();
        Ok(r.unwrap_or(0))
    }

    /// Write the engine's entities before the hooks: `(key, name, state)` in walk order. Slots of
    /// engine entities no longer listed are freed; spawned entities stay; entities a plugin
    /// removed stay hidden.
    pub fn sync_entities<'n>(
        &mut self,
        entities: impl IntoIterator<Item = (EntityKey, &'n str, EntityState)>,
    ) {
        self.shared.sync(entities);
    }

    /// The state of an entity as the plugins left it (`None` when unknown or removed).
    pub fn entity(&self, key: EntityKey) -> Option<EntityState> {
        let addr = self.shared.addr_of(key)?;
        self.shared.read(addr).map(|e| EntityState::read_from(&e))
    }

    /// Whether a plugin removed this engine entity (the engine stops drawing it).
    pub fn is_removed(&self, key: EntityKey) -> bool {
        self.shared.is_hidden(key)
    }

    /// Entities made by `ent_create` and not removed: key, model file name, state.
    pub fn spawned(&self) -> Vec<(EntityKey, String, EntityState)> {
        self.shared
            .spawned()
            .into_iter()
            .map(|(k, n, e)| (k, n, EntityState::read_from(&e)))
            .collect()
    }

    /// How many entities plugins created with `ent_create` and removed with `ent_remove` so far.
    pub fn created_and_removed(&self) -> (u64, u64) {
        self.shared.counts()
    }

    /// Set `time` (seconds of the last frame) and `total_ticks` (A5 ticks of 1/16 s since start).
    pub fn set_time(&mut self, frame_seconds: f32, total_seconds: f64) {
        self.shared.with_exposed(|e| {
            e.time = modex::Fixed::from_f32(frame_seconds).raw();
            e.total_ticks = modex::Fixed::from_f64(total_seconds * 16.0).raw();
        });
    }

    /// Write the camera before the hooks.
    pub fn set_camera(&mut self, camera: &CameraState) {
        self.screen = camera.size;
        self.shared.with_exposed(|e| camera.write_to(&mut e.camera));
    }

    /// The camera as the plugins left it.
    pub fn camera(&self) -> CameraState {
        self.shared
            .with_exposed(|e| CameraState::read_from(&e.camera, self.screen))
    }

    /// `sky_speed` (x, y) as the plugins left it.
    pub fn sky_speed(&self) -> [f32; 2] {
        self.shared
            .with_exposed(|e| e.sky_speed.map(|v| modex::Fixed(v).to_f32()))
    }

    /// Open a network session for `SendPacket` (user packets of at most `limit` bytes, the
    /// session's datagram size), or close it (`None`, the default: `SendPacket` is NULL).
    pub fn set_network(&mut self, limit: Option<usize>) {
        self.shared.set_network(limit);
    }

    /// The user packets plugins sent since the last call, in order.
    pub fn take_packets(&mut self) -> Vec<Packet> {
        self.shared.take_packets()
    }

    /// A user packet arrived (`data` starts with 17): hand it to the `ReceivePacket` function a
    /// native plugin stored in `ENGINE_INTERFACE` (the interface is shared, so the last plugin to
    /// store one receives) and to every Rust plugin's [`Plugin::receive_packet`].
    pub fn receive_packet(&mut self, from: i64, data: &[u8]) {
        let shared = self.shared.clone();
        if let Some(f) = shared.receiver() {
            let name = self.receiver_owner.as_deref().unwrap_or("ReceivePacket");
            NativePlugin::deliver(f, name, from, data, &shared);
            if shared.unlock() {
                shared.report("ReceivePacket returned with the frame still locked");
            }
        }
        for p in &mut self.plugins {
            if let Loaded::Rust(r) = p {
                r.receive_packet(from, data, &shared);
            }
        }
        shared.collect();
    }

    /// Error lines reported since the last call (they were also printed to stderr).
    pub fn take_errors(&mut self) -> Vec<String> {
        self.shared.take_errors()
    }
}

/// Remember `name` as the owner of `ReceivePacket` when its code just stored a different one
/// (`before`: the address before that code ran), for the messages its packets are reported under.
fn note_receiver(owner: &mut Option<String>, shared: &Shared, before: Option<usize>, name: &str) {
    if shared.receiver_addr() != before {
        *owner = Some(name.to_string());
    }
}
