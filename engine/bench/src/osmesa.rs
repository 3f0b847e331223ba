//! Mesa's off-screen renderer (OSMesa: llvmpipe or softpipe inside) loaded at run time with
//! `libloading`, and the few GL 1.x entry points the peers draw with.
//!
//! Loaded at run time rather than linked so the bench builds and runs its modex half on a machine
//! without Mesa (`benches/install-osmesa.sh` installs it). The `unsafe` of the bench is here and
//! in `peer` (the GL calls): every call goes through a function pointer read from the library, with the argument types of the C
//! prototypes in `GL/osmesa.h` and `GL/gl.h`.

use std::ffi::{c_char, c_void, CStr};

pub type GLenum = u32;
pub type GLint = i32;
pub type GLsizei = i32;

pub const GL_UNSIGNED_BYTE: GLenum = 0x1401;
pub const GL_UNSIGNED_INT: GLenum = 0x1405;
pub const GL_FLOAT: GLenum = 0x1406;
pub const GL_UNSIGNED_SHORT_5_6_5: GLenum = 0x8363;
pub const GL_RGBA: GLenum = 0x1908;
pub const GL_DEPTH_COMPONENT: GLenum = 0x1902;
pub const GL_COLOR_BUFFER_BIT: u32 = 0x4000;
pub const GL_DEPTH_BUFFER_BIT: u32 = 0x0100;
pub const GL_DEPTH_TEST: GLenum = 0x0B71;
pub const GL_CULL_FACE: GLenum = 0x0B44;
pub const GL_BACK: GLenum = 0x0405;
pub const GL_CCW: GLenum = 0x0901;
pub const GL_LESS: GLenum = 0x0201;
pub const GL_TEXTURE_2D: GLenum = 0x0DE1;
pub const GL_TEXTURE_MAG_FILTER: GLenum = 0x2800;
pub const GL_TEXTURE_MIN_FILTER: GLenum = 0x2801;
pub const GL_TEXTURE_WRAP_S: GLenum = 0x2802;
pub const GL_TEXTURE_WRAP_T: GLenum = 0x2803;
pub const GL_NEAREST: GLint = 0x2600;
pub const GL_NEAREST_MIPMAP_NEAREST: GLint = 0x2700;
pub const GL_REPEAT: GLint = 0x2901;
pub const GL_TEXTURE_ENV: GLenum = 0x2300;
pub const GL_TEXTURE_ENV_MODE: GLenum = 0x2200;
pub const GL_COMBINE: GLint = 0x8570;
pub const GL_COMBINE_RGB: GLenum = 0x8571;
pub const GL_MODULATE: GLint = 0x2100;
pub const GL_SOURCE0_RGB: GLenum = 0x8580;
pub const GL_SOURCE1_RGB: GLenum = 0x8581;
pub const GL_TEXTURE: GLint = 0x1702;
pub const GL_PRIMARY_COLOR: GLint = 0x8577;
pub const GL_RGB_SCALE: GLenum = 0x8573;
pub const GL_PROJECTION: GLenum = 0x1701;
pub const GL_MODELVIEW: GLenum = 0x1700;
pub const GL_ARRAY_BUFFER: GLenum = 0x8892;
pub const GL_ELEMENT_ARRAY_BUFFER: GLenum = 0x8893;
pub const GL_STATIC_DRAW: GLenum = 0x88E4;
pub const GL_VERTEX_ARRAY: GLenum = 0x8074;
pub const GL_COLOR_ARRAY: GLenum = 0x8076;
pub const GL_TEXTURE_COORD_ARRAY: GLenum = 0x8078;
pub const GL_TRIANGLES: GLenum = 0x0004;
pub const GL_PACK_ALIGNMENT: GLenum = 0x0D05;
pub const GL_UNPACK_ALIGNMENT: GLenum = 0x0CF5;
pub const GL_RENDERER: GLenum = 0x1F01;
pub const GL_VERSION: GLenum = 0x1F02;

/// `OSMESA_BGRA`: bytes B, G, R, A, i.e. a little-endian `0xAARRGGBB` word, modex's `Argb8888`.
pub const OSMESA_BGRA: GLenum = 0x1;
/// `OSMESA_RGB_565` with `GL_UNSIGNED_SHORT_5_6_5`: red in the top bits, modex's `Rgb565`.
pub const OSMESA_RGB_565: GLenum = 0x5;
const OSMESA_Y_UP: GLint = 0x11;

/// The library name the peers are loaded from (Debian's `libosmesa6`).
pub const LIBRARY: &str = "libOSMesa.so.8";

type Ctx = *mut c_void;

macro_rules! gl_api {
    ($($name:ident: fn($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        /// GL entry points, read through `OSMesaGetProcAddress`.
        #[allow(non_snake_case)]
        pub struct Gl {
            $(pub $name: unsafe extern "C" fn($($arg),*) $(-> $ret)?,)*
        }

        impl Gl {
            fn load(get: unsafe extern "C" fn(*const c_char) -> *const c_void) -> Result<Gl, String> {
                Ok(Gl {
                    $($name: {
                        let name = concat!(stringify!($name), "\0");
                        // SAFETY: `name` is NUL-terminated; OSMesaGetProcAddress only reads it.
                        let p = unsafe { get(name.as_ptr().cast()) };
                        if p.is_null() {
                            return Err(format!("{LIBRARY} has no {}", stringify!($name)));
                        }
                        // SAFETY: the pointer is the library's entry point of that name, whose C
                        // prototype is the signature declared here.
                        unsafe {
                            std::mem::transmute::<*const c_void, unsafe extern "C" fn($($arg),*) $(-> $ret)?>(p)
                        }
                    },)*
                })
            }
        }
    };
}

gl_api! {
    glGetString: fn(GLenum) -> *const c_char;
    glClearColor: fn(f32, f32, f32, f32);
    glClearDepth: fn(f64);
    glClear: fn(u32);
    glEnable: fn(GLenum);
    glCullFace: fn(GLenum);
    glFrontFace: fn(GLenum);
    glDepthFunc: fn(GLenum);
    glViewport: fn(GLint, GLint, GLsizei, GLsizei);
    glMatrixMode: fn(GLenum);
    glLoadMatrixf: fn(*const f32);
    glLoadIdentity: fn();
    glGenTextures: fn(GLsizei, *mut u32);
    glDeleteTextures: fn(GLsizei, *const u32);
    glBindTexture: fn(GLenum, u32);
    glTexImage2D: fn(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, *const c_void);
    glTexParameteri: fn(GLenum, GLenum, GLint);
    glTexEnvi: fn(GLenum, GLenum, GLint);
    glTexEnvf: fn(GLenum, GLenum, f32);
    glPixelStorei: fn(GLenum, GLint);
    glGenBuffers: fn(GLsizei, *mut u32);
    glDeleteBuffers: fn(GLsizei, *const u32);
    glBindBuffer: fn(GLenum, u32);
    glBufferData: fn(GLenum, isize, *const c_void, GLenum);
    glEnableClientState: fn(GLenum);
    glVertexPointer: fn(GLint, GLenum, GLsizei, *const c_void);
    glTexCoordPointer: fn(GLint, GLenum, GLsizei, *const c_void);
    glColorPointer: fn(GLint, GLenum, GLsizei, *const c_void);
    glDrawElements: fn(GLenum, GLsizei, GLenum, *const c_void);
    glFinish: fn();
    glReadPixels: fn(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *mut c_void);
}

/// The loaded library: its OSMesa entry points and the GL ones.
pub struct OsMesa {
    _lib: libloading::Library,
    create: unsafe extern "C" fn(GLenum, GLint, GLint, GLint, Ctx) -> Ctx,
    make_current: unsafe extern "C" fn(Ctx, *mut c_void, GLenum, GLsizei, GLsizei) -> u8,
    pixel_store: unsafe extern "C" fn(GLint, GLint),
    destroy: unsafe extern "C" fn(Ctx),
    pub gl: Gl,
}

impl OsMesa {
    /// Load [`LIBRARY`], or say why not.
    pub fn load() -> Result<OsMesa, String> {
        // SAFETY: loading Mesa runs its initialisers, which have no preconditions on the caller.
        let lib = unsafe { libloading::Library::new(LIBRARY) }.map_err(|e| e.to_string())?;
        // SAFETY (all four): the symbol types are the prototypes of `GL/osmesa.h`.
        unsafe {
            let get = *lib
                .get::<unsafe extern "C" fn(*const c_char) -> *const c_void>(
                    b"OSMesaGetProcAddress\0",
                )
                .map_err(|e| e.to_string())?;
            let create = *lib
                .get(b"OSMesaCreateContextExt\0")
                .map_err(|e| e.to_string())?;
            let make_current = *lib.get(b"OSMesaMakeCurrent\0").map_err(|e| e.to_string())?;
            let pixel_store = *lib.get(b"OSMesaPixelStore\0").map_err(|e| e.to_string())?;
            let destroy = *lib
                .get(b"OSMesaDestroyContext\0")
                .map_err(|e| e.to_string())?;
            let gl = Gl::load(get)?;
            Ok(OsMesa {
                _lib: lib,
                create,
                make_current,
                pixel_store,
                destroy,
                gl,
            })
        }
    }

    /// A context drawing into `format` (`OSMESA_BGRA` or `OSMESA_RGB_565`) with a 24-bit depth
    /// buffer, or `None` when Mesa refuses the format.
    pub fn context(&self, format: GLenum) -> Option<Context<'_>> {
        // SAFETY: plain values; a null share list is allowed.
        let ctx = unsafe { (self.create)(format, 24, 0, 0, std::ptr::null_mut()) };
        (!ctx.is_null()).then_some(Context { mesa: self, ctx })
    }
}

/// One OSMesa context.
pub struct Context<'a> {
    mesa: &'a OsMesa,
    ctx: Ctx,
}

impl Context<'_> {
    /// Make this context current, drawing into `buffer` (`width * height` pixels of `T`, row 0 at
    /// the top). `ty` is the GL type of the context's format. The buffer is borrowed mutably for
    /// as long as the returned guard lives: OSMesa writes into it on every `glFinish`.
    pub fn bind<'b, T: Copy>(
        &'b self,
        buffer: &'b mut [T],
        ty: GLenum,
        width: usize,
        height: usize,
    ) -> Option<Bound<'b>> {
        let bytes = std::mem::size_of_val(buffer);
        let px = if ty == GL_UNSIGNED_BYTE { 4 } else { 2 };
        if bytes < width * height * px || std::mem::size_of::<T>() != px {
            return None;
        }
        // SAFETY: the buffer holds width x height pixels of the format's size and outlives the
        // guard, which unbinds it (makes nothing current) when dropped.
        let ok = unsafe {
            (self.mesa.make_current)(
                self.ctx,
                buffer.as_mut_ptr().cast(),
                ty,
                width as GLsizei,
                height as GLsizei,
            )
        };
        if ok == 0 {
            return None;
        }
        // SAFETY: a context is current; Y_UP = 0 puts row 0 at the top, as modex's targets.
        unsafe { (self.mesa.pixel_store)(OSMESA_Y_UP, 0) };
        Some(Bound { mesa: self.mesa })
    }
}

impl Drop for Context<'_> {
    fn drop(&mut self) {
        // SAFETY: the context was created by `create` and is destroyed once.
        unsafe { (self.mesa.destroy)(self.ctx) };
    }
}

/// A current context with its buffer: the GL calls are valid while it lives.
pub struct Bound<'b> {
    mesa: &'b OsMesa,
}

impl Bound<'_> {
    /// The GL entry points (a context is current).
    pub fn gl(&self) -> &Gl {
        &self.mesa.gl
    }

    /// A `glGetString` value.
    pub fn string(&self, name: GLenum) -> String {
        // SAFETY: a context is current; GL returns a static NUL-terminated string or null.
        unsafe {
            let p = (self.mesa.gl.glGetString)(name);
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        }
    }
}

impl Drop for Bound<'_> {
    fn drop(&mut self) {
        // SAFETY: releasing the current context has no preconditions.
        unsafe {
            (self.mesa.make_current)(std::ptr::null_mut(), std::ptr::null_mut(), 0, 0, 0);
        }
    }
}
