//! The peers: Mesa's llvmpipe and softpipe drawing the raster scenes through OSMesa.
//!
//! Both renderers get the same triangles (the model's vertices with their texture coordinates,
//! indexed), the same skin with modex's mip levels, the same camera and the same per-vertex light.
//! The peer draws with GL 1.x fixed function (texture MODULATE vertex colour through `GL_COMBINE`
//! with `GL_RGB_SCALE` 2, since modex's light goes up to 2x the texel; nearest filtering from the
//! nearest mip level, `GL_REPEAT`, back faces culled, depth test `GL_LESS`, 24-bit depth), into
//! `OSMESA_BGRA` (the byte order of modex's `Argb8888`) or `OSMESA_RGB_565`. Mesa has no 8-bit or
//! 4444 colour buffer, so those cases run the peer in 8888: the nearest thing a user of Mesa would
//! draw into (the report's `format` of the peer says so). A peer frame is `glClear` + draw +
//! `glFinish`, which includes OSMesa's copy into the caller's buffer; a modex frame is clear +
//! draw.
//!
//! `GALLIUM_DRIVER` (llvmpipe or softpipe) and `LP_NUM_THREADS` are read when Mesa creates its
//! screen, once per process: the parent runs one child process per peer and thread count
//! (`crate::child`).

use std::collections::HashMap;

use glam::{Mat4, Vec3};
use modex::Camera;
use modex_raster::{Material, PreparedModel, Renderer, LIGHT_ONE};
use serde::{Deserialize, Serialize};

use crate::case::Format;
use crate::check::Picture;
use crate::osmesa::*;
use crate::scenes::raster::Scene;

/// A Mesa driver modex is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Peer {
    /// Mesa's LLVM-compiled, tiled, threaded rasterizer: what a user would run instead of modex.
    Llvmpipe,
    /// Mesa's reference software rasterizer (one thread, interpreted shaders).
    Softpipe,
}

impl Peer {
    /// Both, in the table's order.
    pub const ALL: [Peer; 2] = [Peer::Llvmpipe, Peer::Softpipe];

    /// The name in the table and the JSON's `peers` object, also its `GALLIUM_DRIVER` value.
    pub fn name(self) -> &'static str {
        match self {
            Peer::Llvmpipe => "llvmpipe",
            Peer::Softpipe => "softpipe",
        }
    }

    /// Whether `LP_NUM_THREADS` gives it threads (softpipe always draws on one).
    pub fn threaded(self) -> bool {
        self == Peer::Llvmpipe
    }
}

/// Whether OSMesa can be loaded here, or why not.
pub fn available() -> Result<(), String> {
    OsMesa::load().map(drop)
}

/// The line that tells a user without OSMesa how to get the peers.
pub fn install_hint(why: &str) -> String {
    format!(
        "{LIBRARY} could not be loaded ({why}): measuring modex alone. For llvmpipe and softpipe beside it install Mesa's OSMesa: `sudo apt-get install libosmesa6` (Debian, Ubuntu), `sudo dnf install mesa-libOSMesa` (Fedora)"
    )
}

/// The OSMesa format and GL type a modex format is compared in, and that format's name.
pub fn peer_format(format: Format) -> (GLenum, GLenum, Format) {
    match format {
        Format::Rgb565 => (OSMESA_RGB_565, GL_UNSIGNED_SHORT_5_6_5, Format::Rgb565),
        _ => (OSMESA_BGRA, GL_UNSIGNED_BYTE, Format::Argb8888),
    }
}

/// The scene as the peer gets it: one vertex per distinct (position, texture coordinate) pair of
/// the model, with the light modex computes for that vertex, and the triangles as indices.
pub struct GlMesh {
    /// x, y, z, s, t, r, g, b, a per vertex.
    vertices: Vec<[f32; 9]>,
    indices: Vec<u32>,
    /// The skin's mip levels as modex draws them (level 0 first, down to 1x1): width, height and
    /// RGBA8 texels, top row first. Only level 0 when modex draws without mip levels.
    levels: Vec<(usize, usize, Vec<u8>)>,
}

impl GlMesh {
    /// The mesh of `scene` as `r` lights and `prepared` skins it.
    pub fn new(scene: &Scene, r: &Renderer, prepared: &PreparedModel) -> GlMesh {
        let m = &scene.model;
        let f = &m.frames[0];
        let to_sun = r.light.towards_sun();
        let mut ids = HashMap::new();
        let mut vertices = Vec::new();
        let mut indices = Vec::with_capacity(m.triangles.len() * 3);
        for t in &m.triangles {
            for k in 0..3 {
                let key = (t.vertices[k], t.uvs[k]);
                let id = *ids.entry(key).or_insert_with(|| {
                    let vi = key.0 as usize;
                    let uv = m.uvs[key.1 as usize];
                    let n = match &f.normal_indices {
                        Some(idx) => Vec3::from(modex_mdl::normals::mdl_normal(idx[vi] as usize)),
                        None => f.normals[vi],
                    };
                    // modex multiplies the texel by light / LIGHT_ONE (up to ~2); GL's colour
                    // stops at 1, so it gets half and the texture stage doubles the product.
                    let l = (r.light.intensity(n.dot(to_sun), 0.0, 50.0, Material::PLAIN)
                        / LIGHT_ONE as f32
                        * 0.5)
                        .clamp(0.0, 1.0);
                    let p = f.positions[vi];
                    vertices.push([p.x, p.y, p.z, uv.x, uv.y, l, l, l, 1.0]);
                    (vertices.len() - 1) as u32
                });
                indices.push(id);
            }
        }
        GlMesh {
            vertices,
            indices,
            levels: prepared
                .skin_levels(0)
                .take(if r.mipmaps { usize::MAX } else { 1 })
                .map(|(w, h, texels)| {
                    let bytes = texels.iter().flat_map(|t| t.to_le_bytes()).collect();
                    (w as usize, h as usize, bytes)
                })
                .collect(),
        }
    }
}

/// glam's projection maps depth to 0..1 of w; GL clips and maps -w..w: z' = 2z - w.
fn gl_projection(cam: &Camera) -> Mat4 {
    let fix = Mat4::from_cols_array(&[
        1.0, 0.0, 0.0, 0.0, //
        0.0, 1.0, 0.0, 0.0, //
        0.0, 0.0, 2.0, 0.0, //
        0.0, 0.0, -1.0, 1.0,
    ]);
    fix * cam.view_projection()
}

/// GL objects of one case, in the current context.
pub struct Uploaded {
    texture: u32,
    buffers: [u32; 2],
    count: i32,
}

/// Set the fixed-function state and upload the mesh and skin into the current context.
pub fn upload(b: &Bound, mesh: &GlMesh, cam: &Camera, (w, h): (usize, usize)) -> Uploaded {
    let gl = b.gl();
    let proj = gl_projection(cam).to_cols_array();
    let mut texture = 0;
    let mut buffers = [0; 2];
    // SAFETY: a context is current (`b`); every pointer passed is valid for the size given and
    // GL copies the data before returning (glTexImage2D, glBufferData, glLoadMatrixf).
    unsafe {
        (gl.glViewport)(0, 0, w as i32, h as i32);
        (gl.glMatrixMode)(GL_PROJECTION);
        (gl.glLoadMatrixf)(proj.as_ptr());
        (gl.glMatrixMode)(GL_MODELVIEW);
        (gl.glLoadIdentity)();
        (gl.glClearColor)(0.0, 0.0, 0.0, 1.0);
        (gl.glClearDepth)(1.0);
        (gl.glEnable)(GL_DEPTH_TEST);
        (gl.glDepthFunc)(GL_LESS);
        (gl.glEnable)(GL_CULL_FACE);
        (gl.glCullFace)(GL_BACK);
        (gl.glFrontFace)(GL_CCW);
        (gl.glEnable)(GL_TEXTURE_2D);
        (gl.glGenTextures)(1, &mut texture);
        (gl.glBindTexture)(GL_TEXTURE_2D, texture);
        (gl.glPixelStorei)(GL_UNPACK_ALIGNMENT, 1);
        (gl.glPixelStorei)(GL_PACK_ALIGNMENT, 1);
        for (level, (lw, lh, texels)) in mesh.levels.iter().enumerate() {
            (gl.glTexImage2D)(
                GL_TEXTURE_2D,
                level as i32,
                GL_RGBA as i32,
                *lw as i32,
                *lh as i32,
                0,
                GL_RGBA,
                GL_UNSIGNED_BYTE,
                texels.as_ptr().cast(),
            );
        }
        // The same levels modex samples, picked per pixel by GL's own rule (round(log2 ρ)).
        let min_filter = if mesh.levels.len() > 1 {
            GL_NEAREST_MIPMAP_NEAREST
        } else {
            GL_NEAREST
        };
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min_filter);
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
        (gl.glTexParameteri)(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_COMBINE);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_COMBINE_RGB, GL_MODULATE);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_SOURCE0_RGB, GL_TEXTURE);
        (gl.glTexEnvi)(GL_TEXTURE_ENV, GL_SOURCE1_RGB, GL_PRIMARY_COLOR);
        (gl.glTexEnvf)(GL_TEXTURE_ENV, GL_RGB_SCALE, 2.0);
        (gl.glGenBuffers)(2, buffers.as_mut_ptr());
        (gl.glBindBuffer)(GL_ARRAY_BUFFER, buffers[0]);
        (gl.glBufferData)(
            GL_ARRAY_BUFFER,
            std::mem::size_of_val(&mesh.vertices[..]) as isize,
            mesh.vertices.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        (gl.glBindBuffer)(GL_ELEMENT_ARRAY_BUFFER, buffers[1]);
        (gl.glBufferData)(
            GL_ELEMENT_ARRAY_BUFFER,
            std::mem::size_of_val(&mesh.indices[..]) as isize,
            mesh.indices.as_ptr().cast(),
            GL_STATIC_DRAW,
        );
        let stride = std::mem::size_of::<[f32; 9]>() as i32;
        // With a buffer bound, the "pointers" are byte offsets into it.
        (gl.glEnableClientState)(GL_VERTEX_ARRAY);
        (gl.glVertexPointer)(3, GL_FLOAT, stride, std::ptr::null());
        (gl.glEnableClientState)(GL_TEXTURE_COORD_ARRAY);
        (gl.glTexCoordPointer)(2, GL_FLOAT, stride, 12 as *const _);
        (gl.glEnableClientState)(GL_COLOR_ARRAY);
        (gl.glColorPointer)(4, GL_FLOAT, stride, 20 as *const _);
    }
    Uploaded {
        texture,
        buffers,
        count: mesh.indices.len() as i32,
    }
}

/// Delete a case's GL objects.
pub fn release(b: &Bound, u: &Uploaded) {
    let gl = b.gl();
    // SAFETY: a context is current; the names were generated in it.
    unsafe {
        (gl.glDeleteTextures)(1, &u.texture);
        (gl.glDeleteBuffers)(2, u.buffers.as_ptr());
    }
}

/// One peer frame: clear, draw, finish (which copies into the caller's buffer).
pub fn frame(b: &Bound, u: &Uploaded) {
    let gl = b.gl();
    // SAFETY: a context is current with the case's buffers bound; the index buffer holds `count`
    // indices, all below the vertex count.
    unsafe {
        (gl.glClear)(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        (gl.glDrawElements)(GL_TRIANGLES, u.count, GL_UNSIGNED_INT, std::ptr::null());
        (gl.glFinish)();
    }
}

/// Which peer pixels were drawn (depth below the cleared 1.0), top row first.
pub fn covered(b: &Bound, w: usize, h: usize) -> Vec<bool> {
    let mut z = vec![0f32; w * h];
    // SAFETY: a context is current; `z` holds w x h floats, the size glReadPixels writes.
    unsafe {
        (b.gl().glReadPixels)(
            0,
            0,
            w as i32,
            h as i32,
            GL_DEPTH_COMPONENT,
            GL_FLOAT,
            z.as_mut_ptr().cast(),
        )
    };
    // glReadPixels returns the bottom row first.
    let mut out = Vec::with_capacity(w * h);
    for y in (0..h).rev() {
        out.extend(z[y * w..(y + 1) * w].iter().map(|&d| d < 1.0));
    }
    out
}

/// The peer's colour buffer: what OSMesa writes into on every `glFinish`.
pub enum Buffer {
    /// `OSMESA_BGRA`: little-endian `0xAARRGGBB` words.
    Bgra(Vec<u32>),
    /// `OSMESA_RGB_565`.
    Rgb565(Vec<u16>),
}

impl Buffer {
    /// A buffer of `w` x `h` pixels for the peer format of `format`.
    pub fn new(format: Format, w: usize, h: usize) -> Buffer {
        match peer_format(format).2 {
            Format::Rgb565 => Buffer::Rgb565(vec![0; w * h]),
            _ => Buffer::Bgra(vec![0; w * h]),
        }
    }

    /// The peer's picture from this buffer and its covered pixels.
    pub fn picture(&self, w: usize, h: usize, covered: Vec<bool>) -> Picture {
        use modex::{Argb8888, Pixel, Rgb565};
        let rgb = |[r, g, b, _]: [u8; 4]| [r, g, b];
        let rgb = match self {
            Buffer::Rgb565(px) => px.iter().map(|&p| rgb(Rgb565(p).to_rgba())).collect(),
            Buffer::Bgra(px) => px.iter().map(|&p| rgb(Argb8888(p).to_rgba())).collect(),
        };
        Picture {
            width: w,
            height: h,
            covered,
            rgb,
        }
    }
}
