//! Block geometry as renderer-ready [`Model`]s, with texture × lightmap baked into surfaces.
//!
//! The rasterizer draws one UV set and one skin per triangle. A lit WMB triangle needs two: its
//! texture (repeating, `texture_uv`) and its lightmap page (`lightmap_uv`). As Quake's renderer
//! combined texture and lightmap into cached surfaces, this module combines them once at load, so
//! the rasterizer stays unchanged: for every lightmap page it builds a *surface page* at
//! [`surface_scale`] times the lightmap's resolution, each of the page's charts in a rectangle of
//! its own ([`super::chart`]: so the rasterizer's mip levels never mix two charts), and fills
//! each texel that a triangle covers with `texture × lightmap × 2` (clamped), the texture read at
//! the texel's texture UV from the mip level nearest to the surface texel's footprint and the
//! lightmap bilinearly, between the chart's outermost texel centres. The blend is the engine's
//! modulate-2x: the real pages store light at half range (the brightest texel of testlevel's
//! pages is 125), so a plain product would draw every lit wall at half brightness or less. The
//! rest of each chart's rectangle is filled from its nearest covered texel.
//!
//! Those models are drawn at light 1.0 (the light is in the surface). Flat and turbulence skins
//! are drawn with their texture's own UVs and lit like models (no lightmap); sky skins as their
//! texture at full light; `none` skins are left out. Triangles are turned from the file's
//! clockwise fronts to the [`Model`]'s counter-clockwise ones ([`crate::facing`]), with face
//! normals pointing to the front.

use glam::{Vec2, Vec3};

use super::chart::layout;
use super::{BlockSkin, SkinType, WmbFile};
use crate::model::{Frame, Model, Skin, SkinPixels, Triangle};

/// How a level model is to be lit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SurfaceKind {
    /// Texture × lightmap baked into the skin: draw at light 1.0.
    Lightmapped,
    /// Texture only, lit by the sun and ambient light like a model (flat, turbulence).
    Flat,
    /// The sky: texture at light 1.0.
    Sky,
}

/// One drawable part of the level's blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelModel {
    /// How to light it.
    pub kind: SurfaceKind,
    /// The geometry with its one skin.
    pub model: Model,
}

/// Surface texels per lightmap texel for pages of side `dim`: surface pages are 2048 texels wide
/// (8 for 256, 4 for 512, 2 for 1024; wider only for a chart that needs it), as tall as their
/// charts' rectangles need.
pub fn surface_scale(dim: usize) -> usize {
    (2048 / dim.max(1)).clamp(1, 8)
}

/// Gathers triangles into one model with one UV per vertex.
#[derive(Default)]
struct Builder {
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    uvs: Vec<Vec2>,
    triangles: Vec<Triangle>,
}

impl Builder {
    /// Add a triangle given in the file's (clockwise) order, with its UVs.
    fn push(&mut self, p: [Vec3; 3], uv: [Vec2; 3]) {
        // Counter-clockwise: corners 0, 2, 1.
        let order = [0, 2, 1];
        let n = (p[2] - p[0]).cross(p[1] - p[0]).normalize_or(Vec3::Z);
        let base = self.positions.len() as u32;
        for &i in &order {
            self.positions.push(p[i]);
            self.normals.push(n);
            self.uvs.push(uv[i]);
        }
        let idx = [base, base + 1, base + 2];
        self.triangles.push(Triangle {
            vertices: idx,
            uvs: idx,
        });
    }

    fn finish(self, skin: Skin) -> Model {
        let (bbox_min, bbox_max) = Frame::compute_bbox(&self.positions);
        Model {
            frames: vec![Frame {
                name: String::new(),
                positions: self.positions,
                normals: self.normals,
                normal_indices: None,
                bbox_min,
                bbox_max,
            }],
            uvs: self.uvs,
            triangles: self.triangles,
            skins: vec![skin],
        }
    }
}

fn rgba_skin(width: usize, height: usize, rgba: Vec<u8>) -> Skin {
    Skin {
        kind: 5,
        has_mipmaps: false,
        width,
        height,
        pixels: SkinPixels::Rgba,
        rgba: rgba.into(),
    }
}

/// A grey 8x8 stand-in for a texture that cannot be decoded or does not exist.
fn grey() -> (usize, usize, Vec<u8>) {
    (8, 8, [160, 160, 160, 255].repeat(64))
}

/// Every mip level of texture `index` as RGBA, first level first (a grey stand-in if missing).
fn texture_levels(file: &WmbFile, index: usize) -> Vec<(usize, usize, Vec<u8>)> {
    let Some(t) = file.textures.get(index) else {
        return vec![grey()];
    };
    let levels: Vec<_> = (0..t.level_sizes().len())
        .map_while(|l| t.rgba(l))
        .collect();
    if levels.is_empty() {
        vec![grey()]
    } else {
        levels
    }
}

/// Texture `index`'s first level: what the unbaked (flat, sky) and exported models are skinned
/// with, decoded alone (the other levels are not needed there). Grey as [`texture_levels`].
fn texture_level0(file: &WmbFile, index: usize) -> (usize, usize, Vec<u8>) {
    match file.textures.get(index) {
        Some(t) if !t.level_sizes().is_empty() => t.rgba(0).unwrap_or_else(grey),
        _ => grey(),
    }
}

/// The blocks' triangles whose skin type `keep` accepts, grouped by texture with the texture's
/// own (repeating) UVs, in texture order.
fn triangles_by_texture(
    file: &WmbFile,
    keep: impl Fn(SkinType) -> bool,
) -> std::collections::BTreeMap<u16, Builder> {
    let mut by_texture: std::collections::BTreeMap<u16, Builder> = Default::default();
    for block in &file.blocks {
        for t in &block.triangles {
            let skin = &block.skins[t.skin as usize];
            if !keep(skin.kind()) {
                continue;
            }
            let v = t.vertices.map(|i| block.vertices[i as usize]);
            by_texture
                .entry(skin.texture)
                .or_default()
                .push(v.map(|x| x.position), v.map(|x| x.texture_uv));
        }
    }
    by_texture
}

/// The level's blocks as models: one per lightmap page (baked, its charts laid out by
/// [`super::chart::layout`]), one per texture of flat skins and one per texture of sky skins.
pub fn level_models(file: &WmbFile) -> Vec<LevelModel> {
    let dim = file.lightmap_dim;
    let scale = surface_scale(dim);
    let mut out = Vec::new();
    // Lightmapped triangles, by page.
    for page in 0..file.lightmaps.len() {
        let mut lit: Vec<(&BlockSkin, [super::BlockVertex; 3])> = Vec::new();
        for block in &file.blocks {
            for t in &block.triangles {
                let skin: &BlockSkin = &block.skins[t.skin as usize];
                if skin.kind() == SkinType::Shaded && skin.lightmap as usize == page {
                    lit.push((skin, t.vertices.map(|i| block.vertices[i as usize])));
                }
            }
        }
        if lit.is_empty() {
            continue;
        }
        let luvs: Vec<[Vec2; 3]> = lit.iter().map(|(_, v)| v.map(|x| x.lightmap_uv)).collect();
        let layout = layout(&luvs, dim, scale, dim * scale);
        let (width, height) = layout.size;
        let size = Vec2::new(width as f32, height as f32);
        let mut b = Builder::default();
        let mut surface = Surface::new(width, height);
        let mut textures: std::collections::HashMap<usize, Vec<(usize, usize, Vec<u8>)>> =
            Default::default();
        for chart in &layout.charts {
            for &i in &chart.triangles {
                let (skin, v) = lit[i];
                let p = luvs[i].map(|uv| chart.to_surface(uv, dim, scale));
                let levels = textures
                    .entry(skin.texture as usize)
                    .or_insert_with(|| texture_levels(file, skin.texture as usize));
                let light = |c: Vec2| {
                    bilinear(&file.lightmaps[page], dim, chart.to_lightmap(c, dim, scale))
                };
                surface.bake(p, v.map(|x| x.texture_uv), levels, light);
                b.push(v.map(|x| x.position), p.map(|q| q / size));
            }
            surface.fill_rect(chart.origin, chart.size);
        }
        out.push(LevelModel {
            kind: SurfaceKind::Lightmapped,
            model: b.finish(rgba_skin(width, height, surface.rgba)),
        });
    }
    // Flat and sky triangles, by texture.
    for (kind, wanted) in [
        (SurfaceKind::Flat, [SkinType::Flat, SkinType::Turbulence]),
        (SurfaceKind::Sky, [SkinType::Sky, SkinType::Sky]),
    ] {
        for (texture, b) in triangles_by_texture(file, |k| wanted.contains(&k)) {
            let (w, h, rgba) = texture_level0(file, texture as usize);
            out.push(LevelModel {
                kind,
                model: b.finish(rgba_skin(w, h, rgba)),
            });
        }
    }
    out
}

/// The blocks as one model per texture with the texture's own (repeating) UVs and its first
/// level as the skin, `none` skins left out: what an OBJ export writes, since other tools tile
/// textures themselves.
pub fn texture_models(file: &WmbFile) -> Vec<(u16, Model)> {
    triangles_by_texture(file, |k| k != SkinType::None)
        .into_iter()
        .map(|(texture, b)| {
            let (w, h, rgba) = texture_level0(file, texture as usize);
            (texture, b.finish(rgba_skin(w, h, rgba)))
        })
        .collect()
}

/// A surface page being baked: RGBA texels and which of them a triangle covered.
struct Surface {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
    filled: Vec<bool>,
}

impl Surface {
    fn new(width: usize, height: usize) -> Surface {
        Surface {
            width,
            height,
            rgba: vec![0; width * height * 4],
            filled: vec![false; width * height],
        }
    }

    /// Fill the texels whose centres lie in the triangle `p` (surface texel coordinates) with
    /// texture × `light(texel centre)` × 2, the texture read at texture UVs `tuv`.
    fn bake(
        &mut self,
        p: [Vec2; 3],
        tuv: [Vec2; 3],
        levels: &[(usize, usize, Vec<u8>)],
        light: impl Fn(Vec2) -> [f32; 3],
    ) {
        if p.iter().any(|q| !q.is_finite()) || tuv.iter().any(|q| !q.is_finite()) {
            return;
        }
        let area = (p[1] - p[0]).perp_dot(p[2] - p[0]);
        if area.abs() < 1e-6 {
            return;
        }
        // Texture texels per surface texel (from the UV derivatives), for the mip level.
        let (w0, h0) = (levels[0].0 as f32, levels[0].1 as f32);
        let du = Vec2::new(
            ((tuv[1].x - tuv[0].x) * (p[2].y - p[0].y) - (tuv[2].x - tuv[0].x) * (p[1].y - p[0].y))
                / area
                * w0,
            ((tuv[2].x - tuv[0].x) * (p[1].x - p[0].x) - (tuv[1].x - tuv[0].x) * (p[2].x - p[0].x))
                / area
                * w0,
        );
        let dv = Vec2::new(
            ((tuv[1].y - tuv[0].y) * (p[2].y - p[0].y) - (tuv[2].y - tuv[0].y) * (p[1].y - p[0].y))
                / area
                * h0,
            ((tuv[2].y - tuv[0].y) * (p[1].x - p[0].x) - (tuv[1].y - tuv[0].y) * (p[2].x - p[0].x))
                / area
                * h0,
        );
        let rho = du.length().max(dv.length()).max(1e-6);
        let level = (rho.log2().round().max(0.0) as usize).min(levels.len() - 1);
        let (lw, lh, tex) = (&levels[level].0, &levels[level].1, &levels[level].2);
        let lo = p[0].min(p[1]).min(p[2]).floor().max(Vec2::ZERO);
        let hi = p[0]
            .max(p[1])
            .max(p[2])
            .ceil()
            .min(Vec2::new(self.width as f32, self.height as f32));
        if lo.x >= hi.x || lo.y >= hi.y {
            return;
        }
        // A texel counts as covered when its centre is inside, or within half a texel of an edge
        // (so thin triangles still get their texels): barycentric coordinate `b_i` times
        // `|area| / |edge_i|` is the centre's distance from edge `i`, in texels.
        let edge = |a: Vec2, b: Vec2, c: Vec2| (b - a).perp_dot(c - a) / area;
        let reach = [(p[1], p[2]), (p[2], p[0]), (p[0], p[1])]
            .map(|(a, b)| area.abs() / (b - a).length().max(1e-6));
        for y in lo.y as usize..hi.y as usize {
            for x in lo.x as usize..hi.x as usize {
                let c = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                let b0 = edge(p[1], p[2], c);
                let b1 = edge(p[2], p[0], c);
                let b2 = 1.0 - b0 - b1;
                if [b0, b1, b2].iter().zip(reach).any(|(b, r)| b * r < -0.5) {
                    continue;
                }
                let t = tuv[0] * b0 + tuv[1] * b1 + tuv[2] * b2;
                let tx = ((t.x * *lw as f32).floor() as i64).rem_euclid(*lw as i64) as usize;
                let ty = ((t.y * *lh as f32).floor() as i64).rem_euclid(*lh as i64) as usize;
                let texel = &tex[(ty * lw + tx) * 4..(ty * lw + tx) * 4 + 4];
                let light = light(c);
                let o = (y * self.width + x) * 4;
                for ch in 0..3 {
                    let v = texel[ch] as f32 * light[ch] * 2.0 / 255.0;
                    self.rgba[o + ch] = v.round().clamp(0.0, 255.0) as u8;
                }
                self.rgba[o + 3] = 255;
                self.filled[y * self.width + x] = true;
            }
        }
    }

    /// Fill every empty texel of the rectangle at `origin` of `size` from the nearest filled
    /// one inside it (breadth first, four neighbours), so the rectangle's padding carries its
    /// chart's edge outwards and the mip levels average only the chart's own colours.
    fn fill_rect(&mut self, origin: (usize, usize), size: (usize, usize)) {
        let (x0, y0) = origin;
        let x1 = (x0 + size.0).min(self.width);
        let y1 = (y0 + size.1).min(self.height);
        let mut queue = std::collections::VecDeque::new();
        for y in y0..y1 {
            for x in x0..x1 {
                if self.filled[y * self.width + x] {
                    queue.push_back((x, y));
                }
            }
        }
        while let Some((x, y)) = queue.pop_front() {
            let from = (y * self.width + x) * 4;
            let neighbours = [
                (x > x0).then(|| (x - 1, y)),
                (x + 1 < x1).then(|| (x + 1, y)),
                (y > y0).then(|| (x, y - 1)),
                (y + 1 < y1).then(|| (x, y + 1)),
            ];
            for (nx, ny) in neighbours.into_iter().flatten() {
                let i = ny * self.width + nx;
                if !self.filled[i] {
                    self.filled[i] = true;
                    self.rgba.copy_within(from..from + 4, i * 4);
                    queue.push_back((nx, ny));
                }
            }
        }
    }
}

/// The lightmap page's R, G, B at `uv` (0..1), bilinear between texel centres, clamped at the
/// page's edges.
fn bilinear(page: &[u8], dim: usize, uv: Vec2) -> [f32; 3] {
    let f = uv * dim as f32 - Vec2::splat(0.5);
    let x0 = f.x.floor();
    let y0 = f.y.floor();
    let (fx, fy) = (f.x - x0, f.y - y0);
    let at = |x: f32, y: f32| {
        let x = (x.max(0.0) as usize).min(dim - 1);
        let y = (y.max(0.0) as usize).min(dim - 1);
        let o = (y * dim + x) * 3;
        // Stored B G R.
        [page[o + 2] as f32, page[o + 1] as f32, page[o] as f32]
    };
    let (a, b, c, d) = (
        at(x0, y0),
        at(x0 + 1.0, y0),
        at(x0, y0 + 1.0),
        at(x0 + 1.0, y0 + 1.0),
    );
    let mut out = [0.0; 3];
    for ch in 0..3 {
        let top = a[ch] + (b[ch] - a[ch]) * fx;
        let bottom = c[ch] + (d[ch] - c[ch]) * fx;
        out[ch] = top + (bottom - top) * fy;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bilinear_reads_stored_bgr_as_rgb() {
        let page = [30u8, 20, 10].repeat(4);
        assert_eq!(bilinear(&page, 2, Vec2::splat(0.5)), [10.0, 20.0, 30.0]);
    }

    #[test]
    fn scale_keeps_pages_at_most_2048() {
        assert_eq!(surface_scale(256), 8);
        assert_eq!(surface_scale(512), 4);
        assert_eq!(surface_scale(1024), 2);
    }
}
