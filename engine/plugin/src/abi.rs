//! `#[repr(C)]` mirrors of the structs in `include/a5dll.h`, field for field.
//!
//! The header is the contract; `tests/layout.rs` compiles a C file that prints every `sizeof` and
//! `offsetof` and compares them with these definitions, so the two cannot drift apart.

use std::os::raw::{c_char, c_long, c_void};

/// 22.10 fixed point as the header's `fixed` (`int32_t`).
pub type RawFixed = i32;

/// The interface version this engine implements (`A5DLL_VERSION` in the header). A plugin whose
/// `a5dll_attach` returns a larger number was built for a newer engine and is refused.
pub const A5DLL_VERSION: i32 = 100;

/// `A4_ENTITY.flags` bit `TRANSPARENT`: drawn mixed over what is behind at `alpha` percent.
pub const A4_TRANSPARENT: i32 = 1 << 0;
/// `A4_ENTITY.flags` bit `INVISIBLE`: not drawn.
pub const A4_INVISIBLE: i32 = 1 << 1;

/// `fixed NAME(long)`: the type of every exported plugin function.
pub type DllFunc = unsafe extern "C" fn(c_long) -> RawFixed;
/// `long a5dll_attach(A5_INTERFACE *)`.
pub type AttachFunc = unsafe extern "C" fn(*mut A5Interface) -> c_long;
/// `ENGINE_INTERFACE.SendPacket`: `void (*)(long to, void *data, long size, long guaranteed)`.
pub type SendFunc = unsafe extern "C" fn(c_long, *mut c_void, c_long, c_long);
/// `ENGINE_INTERFACE.ReceivePacket`: `void (*)(long from, void *data, long size)`, the plugin's
/// own function.
pub type ReceiveFunc = unsafe extern "C" fn(c_long, *mut c_void, c_long);

/// `WDL_LINK`: header of every engine object.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct WdlLink {
    /// internal
    pub index: i32,
    /// internal
    pub next: i32,
    /// Object name (the model file for spawned entities), or null.
    pub name: *const c_char,
}

impl Default for WdlLink {
    fn default() -> Self {
        WdlLink {
            index: 0,
            next: 0,
            name: std::ptr::null(),
        }
    }
}

/// `A4_ENTITY`: what a plugin sees of an entity.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct A4Entity {
    pub link: WdlLink,
    pub modelkey: i32,
    pub x: RawFixed,
    pub y: RawFixed,
    pub z: RawFixed,
    pub pan: RawFixed,
    pub tilt: RawFixed,
    pub roll: RawFixed,
    pub scale_x: RawFixed,
    pub scale_y: RawFixed,
    pub scale_z: RawFixed,
    pub flags: i32,
    pub frame: RawFixed,
    pub nextframe: RawFixed,
    pub skin: RawFixed,
    pub ambient: RawFixed,
    pub albedo: RawFixed,
    pub alpha: RawFixed,
    pub lightrange: RawFixed,
    pub red: RawFixed,
    pub green: RawFixed,
    pub blue: RawFixed,
    pub emask: i32,
    pub eflags: i32,
    pub min: [RawFixed; 3],
    pub max: [RawFixed; 3],
    pub trigger_range: RawFixed,
    pub push: RawFixed,
    pub shadow_range: RawFixed,
    pub floor_range: RawFixed,
    pub client_id: i32,
    pub skill: [RawFixed; 48],
}

impl Default for A4Entity {
    fn default() -> Self {
        A4Entity {
            link: WdlLink::default(),
            modelkey: 0,
            x: 0,
            y: 0,
            z: 0,
            pan: 0,
            tilt: 0,
            roll: 0,
            scale_x: 1024,
            scale_y: 1024,
            scale_z: 1024,
            flags: 0,
            frame: 0,
            nextframe: 0,
            skin: 0,
            ambient: 0,
            albedo: 50 * 1024,
            alpha: 50 * 1024,
            lightrange: 0,
            red: 0,
            green: 0,
            blue: 0,
            emask: 0,
            eflags: 0,
            min: [0; 3],
            max: [0; 3],
            trigger_range: 0,
            push: 0,
            shadow_range: 0,
            floor_range: 0,
            client_id: 0,
            skill: [0; 48],
        }
    }
}

/// `A4_VIEW`: the camera.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(missing_docs)]
pub struct A4View {
    pub link: WdlLink,
    pub kind: i32,
    pub layer: RawFixed,
    pub pos_x: RawFixed,
    pub pos_y: RawFixed,
    pub flags: i32,
    pub size_x: RawFixed,
    pub size_y: RawFixed,
    pub x: RawFixed,
    pub y: RawFixed,
    pub z: RawFixed,
    pub pan: RawFixed,
    pub tilt: RawFixed,
    pub roll: RawFixed,
    pub offset_x: RawFixed,
    pub offset_y: RawFixed,
    pub arc: RawFixed,
    pub aspect: RawFixed,
    pub ambient: RawFixed,
    pub fog: RawFixed,
    pub diameter: RawFixed,
    pub genius: *mut A4Entity,
}

impl Default for A4View {
    fn default() -> Self {
        A4View {
            link: WdlLink::default(),
            kind: 0,
            layer: 0,
            pos_x: 0,
            pos_y: 0,
            flags: 0,
            size_x: 0,
            size_y: 0,
            x: 0,
            y: 0,
            z: 0,
            pan: 0,
            tilt: 0,
            roll: 0,
            offset_x: 0,
            offset_y: 0,
            arc: 60 * 1024,
            aspect: 1024,
            ambient: 0,
            fog: 0,
            diameter: 0,
            genius: std::ptr::null_mut(),
        }
    }
}

/// `FRAME_INTERFACE`: the frame being drawn; `bytes` is non-null only while locked.
#[repr(C)]
#[derive(Debug)]
#[allow(missing_docs)]
pub struct FrameInterface {
    pub bytes: *mut u8,
    pub pitch: i32,
    pub width: i32,
    pub height: i32,
    pub bpp: i32,
    pub lock: Option<unsafe extern "C" fn() -> i32>,
    pub unlock: Option<unsafe extern "C" fn()>,
    pub pd3ddev: *mut c_void,
}

/// `WDL_INTERFACE`: objects and functions by name, MY and YOU, entity walk, error path.
#[repr(C)]
#[derive(Debug)]
#[allow(missing_docs)]
pub struct WdlInterface {
    pub get_obj: Option<unsafe extern "C" fn(*const c_char) -> c_long>,
    pub get_func: Option<unsafe extern "C" fn(*const c_char) -> c_long>,
    pub my: *mut *mut A4Entity,
    pub you: *mut *mut A4Entity,
    pub ent_next: Option<unsafe extern "C" fn(*mut A4Entity) -> *mut A4Entity>,
    pub error_message: Option<unsafe extern "C" fn(*const c_char)>,
}

/// `ENGINE_INTERFACE`: no save block; `send_packet` is set while the engine runs a network session,
/// `receive_packet` is the plugin's to set.
#[repr(C)]
#[derive(Debug)]
#[allow(missing_docs)]
pub struct EngineInterface {
    pub save_block: *mut u8,
    pub save_size: i32,
    pub exec: Option<unsafe extern "C" fn(c_long, c_long, c_long, c_long) -> c_long>,
    pub send_packet: Option<SendFunc>,
    pub receive_packet: Option<ReceiveFunc>,
}

/// `A5_INTERFACE`: what `a5dll_attach` receives.
#[repr(C)]
#[derive(Debug)]
#[allow(missing_docs)]
pub struct A5Interface {
    pub dll_version: i32,
    pub wdl: *mut WdlInterface,
    pub fb: *mut FrameInterface,
    pub eng: *mut EngineInterface,
}
