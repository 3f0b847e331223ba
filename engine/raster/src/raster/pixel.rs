//! What the rasterizer writes into each pixel type: the 8-bit palette index of an
//! [`modex::IndexedFrame`] and the 565 / 4444 / 8888 pixels of a [`modex::Surface`].
//!
//! The rasterizer draws into any [`modex::Target`] whose pixel type is a [`RasterPixel`]. One
//! generic span loop serves all four (see `span`), painting through one `Painter` (texel fetch and
//! overlay key); what differs per pixel type is its `Lighting`: a shade-table lookup for 8-bit, a
//! channel multiply and pack for true colour, plus a read-modify-write blend by the texel's alpha
//! for 4444 ([`TrueColor::put`]). The choice is made by the pixel type at compile time, so each
//! format's inner loop is monomorphised and as tight as a hand-written one (the bench table in
//! `docs/benchmarks.md` has the per-format throughput).

use std::marker::PhantomData;

use modex::blend::{mix_pixel, BlendTable, Opacity};
use modex::{Argb4444, Argb8888, Pixel, Rgb565};

use super::bands::{fill_cleared, Triangles};
use super::light::{level_of, ShadeTable, LIGHT_MAX};
use super::span::{DepthMode, DepthStep, Paint, Rows, Run};
use super::texture::{Texture, MAX_LEVELS};

/// A pixel type the rasterizer can draw: `u8` palette indices (the mode-X frame, lit through the
/// palette's shade table) and the true-colour [`Rgb565`], [`Argb4444`] (alpha-blended) and
/// [`Argb8888`] (lit by multiplication).
///
/// A target `T: modex::Target` is drawn by [`crate::Renderer::draw`] when `T::Px: RasterPixel`:
/// every [`modex::IndexedFrame`] and [`modex::Surface`] is. The trait is sealed: these four are
/// all there are.
pub trait RasterPixel: Copy + Send + Sync + 'static + sealed::FillTextured {}

impl RasterPixel for u8 {}
impl RasterPixel for Rgb565 {}
impl RasterPixel for Argb4444 {}
impl RasterPixel for Argb8888 {}

/// One textured fill: what every pixel type needs besides its pixels.
pub struct TexturedFill<'a> {
    /// The set-up triangles, drawn in order.
    pub tris: Triangles<'a>,
    /// The skin, prepared for every pixel type.
    pub tex: &'a Texture,
    /// The palette's shade table (8-bit targets).
    pub shades: &'a ShadeTable,
    /// Overlay mode: key texels are not drawn (alpha-tested skins cut theirs in either mode).
    pub overlay: bool,
    /// Depth test and write.
    pub mode: DepthMode,
    /// Sample the skin's mip levels (otherwise level 0 only).
    pub mipmaps: bool,
    /// The entity's opacity: below opaque, every drawn pixel is mixed over the one beneath.
    pub opacity: Opacity,
    /// The palette's mixing table for `opacity` (8-bit targets; `None` when opaque).
    pub blend: Option<&'a BlendTable>,
}

impl TexturedFill<'_> {
    /// [`TexturedFill::fill_painted`], through [`Translucent`] with `mix` when `mix` is given.
    #[inline]
    fn fill_with<T: Texel, L: Lighting<T>, M: Mix<L::Px>>(
        &self,
        lighting: L,
        mix: Option<M>,
        frame: Rows<'_, L::Px>,
        clear: Option<L::Px>,
    ) {
        match mix {
            Some(mix) => {
                let lighting = Translucent { lighting, mix };
                self.fill_painted(lighting, frame, clear)
            }
            None => self.fill_painted(lighting, frame, clear),
        }
    }

    /// Fill with the texels of `T`'s form at each mip level (the keyed form, where 0 is the key,
    /// in overlay mode and for alpha-tested skins: [`Texture::keyed`]) lit by `lighting`:
    /// picks the keyed or the plain painter, so each span loop is monomorphised per pixel type and
    /// mode, and skins without cut-outs keep the plain loop and its vector kernels.
    #[inline]
    fn fill_painted<T: Texel, L: Lighting<T>>(
        &self,
        lighting: L,
        frame: Rows<'_, L::Px>,
        clear: Option<L::Px>,
    ) {
        let keyed = self.tex.keyed(self.overlay);
        let used = if self.mipmaps {
            self.tex.levels.len()
        } else {
            1
        };
        let mut levels: [(&[T], (u32, u32)); MAX_LEVELS] = [(&[], (0, 0)); MAX_LEVELS];
        for (i, (slot, l)) in levels.iter_mut().zip(&self.tex.levels[..used]).enumerate() {
            *slot = (
                T::level(self.tex, keyed, i, self.shades),
                (l.width, l.height),
            );
        }
        let levels = &levels[..used];
        let (texels, size) = levels[0];
        if keyed {
            let p = Painter::<T, L, true> {
                texels,
                size,
                lighting,
                levels,
            };
            fill_cleared(&p, self.tris, frame, self.mode, clear);
        } else {
            let p = Painter::<T, L, false> {
                texels,
                size,
                lighting,
                levels,
            };
            fill_cleared(&p, self.tris, frame, self.mode, clear);
        }
    }
}

pub(crate) mod sealed {
    use super::{Rows, TexturedFill};

    /// How a pixel type fills textured triangles (the rasterizer's per-format entry point).
    pub trait FillTextured: Sized {
        /// Fill `job` into a frame of pixels and its depth buffer, clearing them first to
        /// `clear` and infinity when it is given.
        fn fill_textured(job: &TexturedFill<'_>, frame: Rows<'_, Self>, clear: Option<Self>);
    }
}

/// A prepared texel: a palette index (8-bit targets) or packed RGBA (true colour); 0 is the overlay
/// key.
trait Texel: Copy + PartialEq + Default + Sync + 'static {
    /// Mip level `level` of `tex` in this texel's form, keyed (0 at keys) or plain.
    fn level<'t>(tex: &'t Texture, keyed: bool, level: usize, shades: &ShadeTable) -> &'t [Self];
}

impl Texel for u8 {
    fn level<'t>(tex: &'t Texture, keyed: bool, level: usize, shades: &ShadeTable) -> &'t [u8] {
        tex.indexed_level(level, keyed, shades)
    }
}

impl Texel for u32 {
    fn level<'t>(tex: &'t Texture, keyed: bool, level: usize, _: &ShadeTable) -> &'t [u32] {
        if keyed {
            tex.overlay_level(level)
        } else {
            tex.rgba_level(level)
        }
    }
}

/// How a texel lit by a fixed-point light level becomes a pixel: the only per-format code.
trait Lighting<T>: Sync + Copy {
    /// The pixel type written.
    type Px: Copy + Send + Sync;
    /// Write texel `t` lit by `light` into `dst`; `false` when nothing was drawn.
    fn put(&self, t: T, light: i32, dst: &mut Self::Px) -> bool;
    /// [`Paint::paint_vector`] for these texels (opaque mode only); none by default.
    #[inline(always)]
    // Eight arguments, allowed: this is the vector kernel's signature (see `dispatch::indexed_run`).
    #[allow(clippy::too_many_arguments)]
    fn paint_vector(
        &self,
        _texels: &[T],
        _size: (u32, u32),
        _run: &mut Run,
        _px: &mut [Self::Px],
        _depth: &mut [f32],
        _len: usize,
        _z: &mut f32,
        _step: DepthStep,
    ) -> usize {
        0
    }
}

/// The painter of one texel kind, lighting and overlay mode, reading one mip level.
struct Painter<'a, T, L, const OVERLAY: bool> {
    texels: &'a [T],
    size: (u32, u32),
    lighting: L,
    /// Every level's texels and size (level 0 first); empty or one entry: no mip levels.
    levels: &'a [(&'a [T], (u32, u32))],
}

impl<T: Texel, L: Lighting<T>, const OVERLAY: bool> Paint for Painter<'_, T, L, OVERLAY> {
    type Px = L::Px;
    #[inline(always)]
    fn texture_size(&self) -> (u32, u32) {
        self.size
    }
    #[inline(always)]
    fn levels(&self) -> usize {
        self.levels.len().max(1)
    }
    #[inline(always)]
    fn at_level(&self, level: usize) -> Self {
        let (texels, size) = self
            .levels
            .get(level)
            .copied()
            .unwrap_or((self.texels, self.size));
        Painter {
            texels,
            size,
            lighting: self.lighting,
            levels: self.levels,
        }
    }
    #[inline(always)]
    fn paint(&self, index: usize, light: i32, dst: &mut L::Px) -> bool {
        let t = self.texels[index];
        if OVERLAY && t == T::default() {
            return false;
        }
        self.lighting.put(t, light, dst)
    }
    #[inline(always)]
    // Eight arguments, allowed: the kernel's (see `dispatch::indexed_run`).
    #[allow(clippy::too_many_arguments)]
    fn paint_vector(
        &self,
        run: &mut Run,
        px: &mut [L::Px],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) -> usize {
        if OVERLAY {
            0
        } else {
            self.lighting
                .paint_vector(self.texels, self.size, run, px, depth, len, z, step)
        }
    }
}

/// How a translucent entity's pixel is mixed over the pixel beneath it.
trait Mix<P>: Sync + Copy {
    /// `src` drawn over `dst`.
    fn mix(&self, src: P, dst: P) -> P;
}

/// 8-bit mixing through the palette's table for one opacity (the way 8-bit engines did it: the
/// frame holds indices, so the mixed colour is the nearest palette entry).
#[derive(Clone, Copy)]
struct TableMix<'a>(&'a BlendTable);

impl Mix<u8> for TableMix<'_> {
    #[inline(always)]
    fn mix(&self, src: u8, dst: u8) -> u8 {
        self.0.mix(src, dst)
    }
}

/// True-colour mixing per channel, the source weighted `.0` out of 256 (alpha too, so a 4444
/// target keeps what is beneath showing through).
#[derive(Clone, Copy)]
struct ChannelMix(u32);

impl<P: TrueColor> Mix<P> for ChannelMix {
    #[inline(always)]
    fn mix(&self, src: P, dst: P) -> P {
        mix_pixel(src, dst, self.0)
    }
}

/// A lighting whose result is mixed over the pixel already there: translucent entities. It has no
/// vector kernel (the scalar loop does the read-modify-write), and the fill tests depth without
/// writing it (see `Renderer::draw`).
#[derive(Clone, Copy)]
struct Translucent<L, M> {
    lighting: L,
    mix: M,
}

impl<T, L: Lighting<T>, M: Mix<L::Px>> Lighting<T> for Translucent<L, M> {
    type Px = L::Px;
    #[inline(always)]
    fn put(&self, t: T, light: i32, dst: &mut L::Px) -> bool {
        // Lit over a copy of the pixel beneath, so a format that blends by texel alpha itself
        // (4444) does that first.
        let mut lit = *dst;
        if !self.lighting.put(t, light, &mut lit) {
            return false;
        }
        *dst = self.mix.mix(lit, *dst);
        true
    }
}

/// 8-bit lighting: the texel's index through the shade-table row of the light level.
#[derive(Clone, Copy)]
struct Colormap<'a> {
    /// The shade table ([`ShadeTable::colormap`]).
    bytes: &'a [u8],
    /// The same, a word per index ([`ShadeTable::colormap_words`]), for the AVX2 kernel.
    words: &'a [u32],
}

impl<'a> Colormap<'a> {
    /// The lighting of `shades`.
    fn of(shades: &'a ShadeTable) -> Self {
        Colormap {
            bytes: shades.colormap(),
            words: shades.colormap_words(),
        }
    }
}

impl Lighting<u8> for Colormap<'_> {
    type Px = u8;
    #[inline(always)]
    fn put(&self, t: u8, light: i32, dst: &mut u8) -> bool {
        *dst = self.bytes[(level_of(light) << 8) | t as usize];
        true
    }

    /// The AVX2 kernel of `dispatch` (both table look-ups as gathers), eight pixels per step,
    /// where the CPU has AVX2: the demo's terrain and props are 8-bit spans.
    #[inline(always)]
    // Eight arguments, allowed: the kernel's (see `dispatch::indexed_run`).
    #[allow(clippy::too_many_arguments)]
    fn paint_vector(
        &self,
        texels: &[u8],
        size: (u32, u32),
        run: &mut Run,
        px: &mut [u8],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) -> usize {
        super::dispatch::indexed_run(texels, size, self.words, run, px, depth, len, z, step)
    }
}

impl sealed::FillTextured for u8 {
    fn fill_textured(job: &TexturedFill<'_>, frame: Rows<'_, u8>, clear: Option<u8>) {
        let lighting = Colormap::of(job.shades);
        let mix = job.blend.map(TableMix);
        job.fill_with(lighting, mix, frame, clear);
    }
}

/// A true-colour pixel format the rasterizer can write.
pub trait TrueColor: Pixel {
    /// Store the lit colour `rgba` (8 bits per channel) into `dst`; `false` if nothing was drawn.
    fn put(rgba: [u32; 4], dst: &mut Self) -> bool;

    /// [`Paint::paint_vector`] for packed RGBA texels multiplied by the light into this format;
    /// none by default.
    #[inline(always)]
    // Eight arguments, allowed: the kernel's (see `dispatch::indexed_run`).
    #[allow(clippy::too_many_arguments)]
    fn paint_vector(
        _texels: &[u32],
        _size: (u32, u32),
        _run: &mut Run,
        _px: &mut [Self],
        _depth: &mut [f32],
        _len: usize,
        _z: &mut f32,
        _step: DepthStep,
    ) -> usize {
        0
    }

    /// Store texel `t` (packed RGBA) multiplied by `l` (0..=[`LIGHT_MAX`], [`super::LIGHT_ONE`] =
    /// 1.0) per channel, saturating. A format may fold the saturation and its own narrowing into
    /// one step, as long as the result equals this default.
    #[inline(always)]
    fn put_lit(t: u32, l: u32, dst: &mut Self) -> bool {
        let ch = |s: u32| ((((t >> s) & 255) * l) >> 8).min(255);
        Self::put([ch(0), ch(8), ch(16), t >> 24], dst)
    }
}

/// `(channel * light) >> 8` is at most 255 * 511 >> 8 = 509: tables of this many entries take it
/// unclamped.
const LIT_RANGE: usize = 512;

/// For each lit channel value `i` (before saturation), the `bits`-bit channel nearest to
/// `min(i, 255)`, shifted into place: [`Rgb565::from_rgba`]'s rounding, saturation included.
const fn narrow_lit(bits: u32, shift: u32) -> [u16; LIT_RANGE] {
    let mut t = [0u16; LIT_RANGE];
    let max = (1u32 << bits) - 1;
    let mut i = 0;
    while i < LIT_RANGE {
        let v = if i < 255 { i as u32 } else { 255 };
        t[i] = (((v * max + 127) / 255) << shift) as u16;
        i += 1;
    }
    t
}

/// 565 lit channels: red, green, blue.
static LIT_565: [[u16; LIT_RANGE]; 3] = [narrow_lit(5, 11), narrow_lit(6, 5), narrow_lit(5, 0)];

impl TrueColor for Argb8888 {
    #[inline(always)]
    fn put([r, g, b, a]: [u32; 4], dst: &mut Self) -> bool {
        *dst = Argb8888(a << 24 | r << 16 | g << 8 | b);
        true
    }

    /// The AVX2 kernel of `dispatch`, eight pixels per step, where the CPU has AVX2.
    #[inline(always)]
    // Eight arguments, allowed: the kernel's (see `dispatch::indexed_run`).
    #[allow(clippy::too_many_arguments)]
    fn paint_vector(
        texels: &[u32],
        size: (u32, u32),
        run: &mut Run,
        px: &mut [Self],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) -> usize {
        super::dispatch::argb8888_run(texels, size, run, px, depth, len, z, step)
    }
}

impl TrueColor for Rgb565 {
    #[inline(always)]
    fn put([r, g, b, _]: [u32; 4], dst: &mut Self) -> bool {
        *dst = Rgb565::from_rgba([r as u8, g as u8, b as u8, 255]);
        true
    }

    /// Saturate and round each channel with one table lookup: the rounding division of
    /// `from_rgba` and the clamp were about 23 instructions per pixel (callgrind, the fill scene),
    /// which made the native 565 path slower than 8888.
    #[inline(always)]
    fn put_lit(t: u32, l: u32, dst: &mut Self) -> bool {
        let ch = |s: u32| ((((t >> s) & 255) * l) >> 8) as usize & (LIT_RANGE - 1);
        *dst = Rgb565(LIT_565[0][ch(0)] | LIT_565[1][ch(8)] | LIT_565[2][ch(16)]);
        true
    }

    /// The AVX2 kernel of `dispatch`, eight pixels per step, where the CPU has AVX2.
    #[inline(always)]
    // Eight arguments, allowed: the kernel's (see `dispatch::indexed_run`).
    #[allow(clippy::too_many_arguments)]
    fn paint_vector(
        texels: &[u32],
        size: (u32, u32),
        run: &mut Run,
        px: &mut [Self],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) -> usize {
        super::dispatch::rgb565_run(texels, size, run, px, depth, len, z, step)
    }
}

impl TrueColor for Argb4444 {
    /// Blends by the texel's alpha (source over destination); fully transparent texels draw nothing.
    #[inline(always)]
    fn put([r, g, b, a]: [u32; 4], dst: &mut Self) -> bool {
        if a == 0 {
            return false;
        }
        if a == 255 {
            *dst = Argb4444::from_rgba([r as u8, g as u8, b as u8, 255]);
            return true;
        }
        let d = dst.to_rgba().map(u32::from);
        let k = 255 - a;
        let mix = |s: u32, d: u32| ((s * a + d * k + 127) / 255) as u8;
        let out_a = (a + (d[3] * k + 127) / 255).min(255) as u8;
        *dst = Argb4444::from_rgba([mix(r, d[0]), mix(g, d[1]), mix(b, d[2]), out_a]);
        true
    }
}

/// True-colour lighting: texel times light per channel, saturating, stored by [`TrueColor::put`].
struct Multiply<P>(PhantomData<P>);

impl<P> Clone for Multiply<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for Multiply<P> {}

impl<P: TrueColor> Lighting<u32> for Multiply<P> {
    type Px = P;
    #[inline(always)]
    fn put(&self, t: u32, light: i32, dst: &mut P) -> bool {
        P::put_lit(t, light.clamp(0, LIGHT_MAX) as u32, dst)
    }
    #[inline(always)]
    // Eight arguments, allowed: the kernel's (see `dispatch::indexed_run`).
    #[allow(clippy::too_many_arguments)]
    fn paint_vector(
        &self,
        texels: &[u32],
        size: (u32, u32),
        run: &mut Run,
        px: &mut [P],
        depth: &mut [f32],
        len: usize,
        z: &mut f32,
        step: DepthStep,
    ) -> usize {
        P::paint_vector(texels, size, run, px, depth, len, z, step)
    }
}

impl<P: TrueColor> sealed::FillTextured for P {
    fn fill_textured(job: &TexturedFill<'_>, frame: Rows<'_, P>, clear: Option<P>) {
        let mix = (!job.opacity.is_opaque()).then(|| ChannelMix(job.opacity.weight256()));
        job.fill_with(Multiply(PhantomData), mix, frame, clear);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::bands::fill;
    use crate::raster::span::Run;

    /// One texture as the kernel tests read it in each format: true-colour texels, their low
    /// bytes as 8-bit texels, and a made-up shade table (bytes and words).
    struct Texture {
        size: (u32, u32),
        texels: Vec<u32>,
        indexed: Vec<u8>,
        colormap: Vec<u8>,
        words: Vec<u32>,
    }

    impl Texture {
        fn random((tw, th): (u32, u32), rng: &mut modex::Rng) -> Texture {
            let texels: Vec<u32> = (0..tw * th).map(|_| rng.next_u32()).collect();
            let rows = super::super::light::SHADE_LEVELS;
            let colormap: Vec<u8> = (0..rows * 256)
                .map(|i| (i / 256 * 37 + i * 13) as u8)
                .collect();
            Texture {
                size: (tw, th),
                indexed: texels.iter().map(|t| *t as u8).collect(),
                words: colormap.iter().map(|&c| c as u32).collect(),
                texels,
                colormap,
            }
        }

        fn argb8888(&self) -> Painter<'_, u32, Multiply<Argb8888>, false> {
            self.true_colour()
        }

        fn rgb565(&self) -> Painter<'_, u32, Multiply<Rgb565>, false> {
            self.true_colour()
        }

        fn true_colour<P>(&self) -> Painter<'_, u32, Multiply<P>, false> {
            Painter {
                texels: &self.texels,
                size: self.size,
                lighting: Multiply(PhantomData),
                levels: &[],
            }
        }

        fn indexed(&self) -> Painter<'_, u8, Colormap<'_>, false> {
            Painter {
                texels: &self.indexed,
                size: self.size,
                lighting: Colormap {
                    bytes: &self.colormap,
                    words: &self.words,
                },
                levels: &[],
            }
        }
    }

    #[test]
    fn argb4444_blends_by_alpha() {
        let mut d = Argb4444(0xf000); // opaque black
        assert!(Argb4444::put([255, 255, 255, 0x88], &mut d));
        let c = d.to_rgba();
        assert!(c[0] > 0x60 && c[0] < 0xa0, "{c:?}");
        assert_eq!(c[3], 255);
        let before = d;
        assert!(!Argb4444::put([255, 0, 0, 0], &mut d));
        assert_eq!(d, before);
    }

    /// The vector kernels (where this CPU has them) and the scalar loop draw the same pixels and
    /// depths: random overlapping triangles, perspective and affine, lights from below zero
    /// to past saturation (both clamps, and the 8-bit table's top row, reached), 8888 and 565 with a random power-of-two texture and 8-bit through the shade
    /// table with several, drawn with the kernels allowed and forbidden.
    #[test]
    fn vector_kernels_equal_the_scalar_loop() {
        use super::super::clip::ClipVertex;
        use super::super::dispatch;
        use super::super::setup::Cull;
        use super::super::setup::TriSetup;
        use glam::Vec4;
        use modex::Rng;

        let (w, h) = (97usize, 61usize);
        let mut rng = Rng::new(0x5eed_0016);
        let mut tris = Vec::new();
        while tris.len() < 400 {
            let mut corner = || {
                let cw = rng.range(0.5, 4.0);
                ClipVertex {
                    clip: Vec4::new(
                        rng.range(-1.3, 1.3) * cw,
                        rng.range(-1.3, 1.3) * cw,
                        rng.range(0.05, 0.95) * cw,
                        cw,
                    ),
                    depth: cw,
                    u: rng.range(-300.0, 300.0),
                    v: rng.range(-300.0, 300.0),
                    light: rng.range(-40.0, 700.0),
                }
            };
            let (a, b, c) = (corner(), corner(), corner());
            if let Some(t) = TriSetup::new([&a, &b, &c], w, h, Cull::None) {
                tris.push(t);
            }
        }
        let size = 64usize;
        let texels: Vec<u32> = (0..size * size).map(|_| rng.next_u32()).collect();
        let p = Painter::<u32, Multiply<Argb8888>, false> {
            texels: &texels,
            size: (size as u32, size as u32),
            lighting: Multiply(PhantomData),
            levels: &[],
        };
        let draw = |vector: bool| {
            dispatch::set_enabled(vector);
            let mut px = vec![Argb8888(0x1234_5678); w * h];
            let mut d = vec![f32::INFINITY; w * h];
            fill(&p, &tris, &mut px, &mut d, w, h, DepthMode::TestAndWrite);
            dispatch::set_enabled(true);
            (px, d.iter().map(|z| z.to_bits()).collect::<Vec<_>>())
        };
        let scalar = draw(false);
        let vector = draw(true);
        assert!(scalar.0.iter().filter(|p| p.0 != 0x1234_5678).count() > w * h / 2);
        assert_eq!(scalar.0, vector.0, "8888 pixels");
        assert_eq!(scalar.1, vector.1, "8888 depths");

        let p = Painter::<u32, Multiply<Rgb565>, false> {
            texels: &texels,
            size: (size as u32, size as u32),
            lighting: Multiply(PhantomData),
            levels: &[],
        };
        let draw = |vector: bool| {
            dispatch::set_enabled(vector);
            let mut px = vec![Rgb565(0x1234); w * h];
            let mut d = vec![f32::INFINITY; w * h];
            fill(&p, &tris, &mut px, &mut d, w, h, DepthMode::TestAndWrite);
            dispatch::set_enabled(true);
            (px, d.iter().map(|z| z.to_bits()).collect::<Vec<_>>())
        };
        let scalar = draw(false);
        let vector = draw(true);
        assert!(scalar.0.iter().filter(|p| p.0 != 0x1234).count() > w * h / 2);
        assert_eq!(scalar.0, vector.0, "565 pixels");
        assert_eq!(scalar.1, vector.1, "565 depths");

        // 8-bit: palette-index texels through a shade table whose rows all differ (the top
        // rows of a real palette's table are often alike), so a wrong row or texel shows; textures down to the smallest the kernel takes (2x2) and
        // non-square ones, where the gather's aligned words end exactly at the slice's end.
        let rows = super::super::light::SHADE_LEVELS;
        let colormap: Vec<u8> = (0..rows * 256)
            .map(|i| (i / 256 * 37 + i * 13) as u8)
            .collect();
        let colormap = &colormap[..];
        let words: Vec<u32> = colormap.iter().map(|&c| c as u32).collect();
        for (tw, th) in [(64u32, 64u32), (2, 2), (4, 1), (1, 8), (128, 16)] {
            let indexed: Vec<u8> = (0..tw * th).map(|_| rng.next_u32() as u8).collect();
            let p = Painter::<u8, Colormap, false> {
                texels: &indexed,
                size: (tw, th),
                lighting: Colormap {
                    bytes: colormap,
                    words: &words,
                },
                levels: &[],
            };
            let draw = |vector: bool| {
                dispatch::set_enabled(vector);
                let mut px = vec![0xa5u8; w * h];
                let mut d = vec![f32::INFINITY; w * h];
                fill(&p, &tris, &mut px, &mut d, w, h, DepthMode::TestAndWrite);
                dispatch::set_enabled(true);
                (px, d.iter().map(|z| z.to_bits()).collect::<Vec<_>>())
            };
            let scalar = draw(false);
            let vector = draw(true);
            let drawn = scalar.1.iter().filter(|z| **z != f32::INFINITY.to_bits());
            assert!(drawn.count() > w * h / 2);
            assert_eq!(scalar.0, vector.0, "8-bit pixels, {tw}x{th}");
            assert_eq!(scalar.1, vector.1, "8-bit depths, {tw}x{th}");
        }
    }

    /// Affine spans, which a kernel fills whole in one call with each segment's depth anchored
    /// again (`DepthStep`): random overlapping orthographic triangles (w = 1, so all affine),
    /// wide and narrow, depths both rising and falling along their rows, drawn with the kernels
    /// allowed and forbidden, give the same pixels and depths in 8888, 565 and 8-bit (on a
    /// power-of-two texture, and one the kernels take only where a span stays inside it).
    #[test]
    fn vector_kernels_fill_whole_affine_spans_as_the_scalar_loop() {
        use super::super::clip::ClipVertex;
        use super::super::dispatch;
        use super::super::setup::{Cull, TriSetup};
        use glam::Vec4;
        use modex::Rng;

        /// Pixels and depth bits of `tris` drawn by `p` over `start`, kernels on or off.
        fn draw<P: Paint>(
            p: &P,
            tris: &[TriSetup],
            (w, h): (usize, usize),
            start: P::Px,
            vector: bool,
        ) -> (Vec<P::Px>, Vec<u32>) {
            dispatch::set_enabled(vector);
            let mut px = vec![start; w * h];
            let mut d = vec![f32::INFINITY; w * h];
            fill(p, tris, &mut px, &mut d, w, h, DepthMode::TestAndWrite);
            dispatch::set_enabled(true);
            (px, d.iter().map(|z| z.to_bits()).collect())
        }

        let (w, h) = (157usize, 43usize);
        let mut rng = Rng::new(0x5eed_0a1f);
        let mut tris = Vec::new();
        while tris.len() < 300 {
            let (span, uv) = ([0.2f32, 0.8, 2.0][tris.len() % 3], rng.range(1.0, 60.0));
            let (cx, cy) = (rng.range(-0.9, 0.9), rng.range(-0.9, 0.9));
            let mut corner = || ClipVertex {
                clip: Vec4::new(
                    cx + rng.range(-span, span),
                    cy + rng.range(-span, span),
                    0.5,
                    1.0,
                ),
                depth: rng.range(0.5, 9.0),
                u: rng.range(-uv, uv),
                v: rng.range(-uv, uv),
                light: rng.range(-40.0, 700.0),
            };
            let (a, b, c) = (corner(), corner(), corner());
            if let Some(t) = TriSetup::new([&a, &b, &c], w, h, Cull::None) {
                if t.affine {
                    tris.push(t);
                }
            }
        }
        for (tw, th) in [(64u32, 32u32), (48, 40)] {
            let texture = Texture::random((tw, th), &mut rng);
            let p8888 = texture.argb8888();
            let scalar = draw(&p8888, &tris, (w, h), Argb8888(0x1234_5678), false);
            assert!(scalar.0.iter().filter(|p| p.0 != 0x1234_5678).count() > w * h / 2);
            let vector = draw(&p8888, &tris, (w, h), Argb8888(0x1234_5678), true);
            assert!(scalar == vector, "8888, {tw}x{th}");
            let p565 = texture.rgb565();
            let scalar = draw(&p565, &tris, (w, h), Rgb565(0x1234), false);
            let vector = draw(&p565, &tris, (w, h), Rgb565(0x1234), true);
            assert!(scalar == vector, "565, {tw}x{th}");
            let pidx = texture.indexed();
            let scalar = draw(&pidx, &tris, (w, h), 0xa5, false);
            let vector = draw(&pidx, &tris, (w, h), 0xa5, true);
            assert!(scalar == vector, "8-bit, {tw}x{th}");
        }
    }

    /// Where the kernels hand over to the scalar loop: a span of every length from 1 to 17 (no
    /// whole step, whole steps, whole steps and a scalar tail) starting at every offset 0..8 of
    /// a row, over a depth row where some pixels pass and some do not (NaN and infinity among
    /// them), gives the scalar loop's pixels, depths and run state, and touches nothing outside
    /// the span. 8888, 565 and 8-bit. (Also the test a masked last step had to pass: see
    /// docs/benchmarks-history.md, round 7.)
    #[test]
    fn vector_kernels_equal_the_scalar_loop_on_every_short_span() {
        use super::super::dispatch;
        use modex::Rng;

        /// A drawn row: pixels, depth bits and the run's (u, v, l) after it.
        type Drawn<Px> = (Vec<Px>, Vec<u32>, (i32, i32, i32));

        /// Draw `len` pixels at `offset` of a 32-pixel row with the kernels on or off.
        fn draw<P: Paint>(
            p: &P,
            row: &[P::Px],
            zrow: &[f32],
            (offset, len): (usize, usize),
            run: Run,
            (z, dz): (f32, f32),
            vector: bool,
        ) -> Drawn<P::Px> {
            let (tw, th) = p.texture_size();
            let (mut px, mut d) = (row.to_vec(), zrow.to_vec());
            let mut run = run;
            dispatch::set_enabled(vector);
            let (px_span, d_span) = (&mut px[offset..offset + len], &mut d[offset..offset + len]);
            if tw.is_power_of_two() && th.is_power_of_two() {
                run.paint::<P, true, true, true>(p, px_span, d_span, z, dz, (tw, th));
            } else {
                run.paint::<P, true, true, false>(p, px_span, d_span, z, dz, (tw, th));
            }
            dispatch::set_enabled(true);
            (
                px,
                d.iter().map(|z| z.to_bits()).collect(),
                (run.u, run.v, run.l),
            )
        }

        let mut rng = Rng::new(0x5eed_0565);
        let (mut drawn, mut kept, mut ties) = (0usize, 0usize, 0usize);
        // Power-of-two (wrapped by masking) and not (the kernels run only on runs inside the
        // texture; 37 x 23 texels is no multiple of 4, so the 8-bit kernel never runs on it).
        for (tw, th) in [(64u32, 64u32), (48, 40), (37, 23)] {
            let texture = Texture::random((tw, th), &mut rng);
            let (p8888, p565, pidx) = (texture.argb8888(), texture.rgb565(), texture.indexed());
            for len in 1..=17usize {
                for offset in 0..8usize {
                    for _ in 0..6 {
                        let fixed =
                            |r: &mut Rng, lo: f32, hi: f32| (r.range(lo, hi) * 65536.0) as i32;
                        // Half the runs start inside the texture and step slowly, so many stay
                        // inside (the kernels' case for any size), half anywhere.
                        let inside = rng.below(2) == 0;
                        let (u, v, du, dv) = if inside {
                            let (tw, th) = (tw as f32, th as f32);
                            let r = &mut rng;
                            let uv = (fixed(r, 0.0, tw), fixed(r, 0.0, th));
                            (uv.0, uv.1, fixed(r, -1.5, 1.5), fixed(r, -1.5, 1.5))
                        } else {
                            let r = &mut rng;
                            let uv = (fixed(r, -200.0, 200.0), fixed(r, -200.0, 200.0));
                            (uv.0, uv.1, fixed(r, -3.0, 3.0), fixed(r, -3.0, 3.0))
                        };
                        let run = Run {
                            u,
                            v,
                            l: fixed(&mut rng, -40.0, 700.0),
                            du,
                            dv,
                            dl: fixed(&mut rng, -40.0, 40.0),
                        };
                        let (z, dz) = (rng.range(0.2, 0.8), rng.range(-0.05, 0.05));
                        // The span's own depths, accumulated as the loops do: a buffer holding
                        // one of them exactly is a tie (the old depth stays).
                        let own: Vec<f32> = (0..32)
                            .scan(z, |acc, i| {
                                let at = *acc;
                                if i >= offset {
                                    *acc += dz;
                                }
                                Some(at)
                            })
                            .collect();
                        // Depths around the span's, so some pixels pass and some do not; NaN,
                        // infinity, ties and zeros of both signs among them.
                        let zrow: Vec<f32> = (0..32)
                            .map(|i| match rng.below(20) {
                                0 => f32::NAN,
                                1 => f32::INFINITY,
                                2 | 3 => own[i],
                                4 => [0.0, -0.0][rng.below(2) as usize],
                                _ => z + dz * (i as f32 - offset as f32) + rng.range(-0.1, 0.1),
                            })
                            .collect();
                        ties += (offset..offset + len)
                            .filter(|&i| zrow[i] == own[i])
                            .count();
                        let span = (offset, len);
                        let row: Vec<Argb8888> =
                            (0..32).map(|_| Argb8888(rng.next_u32())).collect();
                        let scalar = draw(&p8888, &row, &zrow, span, run, (z, dz), false);
                        let vector = draw(&p8888, &row, &zrow, span, run, (z, dz), true);
                        assert_eq!(
                            scalar, vector,
                            "8888, {tw}x{th}, length {len}, offset {offset}"
                        );
                        let hits = scalar
                            .1
                            .iter()
                            .zip(&zrow)
                            .filter(|(a, b)| **a != b.to_bits());
                        let hits = hits.count();
                        (drawn, kept) = (drawn + hits, kept + len - hits);

                        let row: Vec<Rgb565> =
                            (0..32).map(|_| Rgb565(rng.next_u32() as u16)).collect();
                        let scalar = draw(&p565, &row, &zrow, span, run, (z, dz), false);
                        let vector = draw(&p565, &row, &zrow, span, run, (z, dz), true);
                        assert_eq!(
                            scalar, vector,
                            "565, {tw}x{th}, length {len}, offset {offset}"
                        );

                        let row: Vec<u8> = (0..32).map(|_| rng.next_u32() as u8).collect();
                        let scalar = draw(&pidx, &row, &zrow, span, run, (z, dz), false);
                        let vector = draw(&pidx, &row, &zrow, span, run, (z, dz), true);
                        assert_eq!(
                            scalar, vector,
                            "8-bit, {tw}x{th}, length {len}, offset {offset}"
                        );
                    }
                }
            }
        }
        // Both kinds of pixel occur often: the masks were exercised both ways.
        assert!(drawn > 1000 && kept > 1000, "{drawn} drawn, {kept} kept");
        assert!(ties > 500, "only {ties} ties");
    }

    #[test]
    fn rgb565_lit_table_equals_multiply_then_round() {
        for l in 0..=LIGHT_MAX as u32 {
            for c in 0..=255u32 {
                // Every channel at once, each with a different value.
                let t = c | (255 - c) << 8 | (c ^ 0x5a) << 16 | 0xff << 24;
                let ch = |s: u32| ((((t >> s) & 255) * l) >> 8).min(255);
                let mut want = Rgb565(0);
                assert!(Rgb565::put([ch(0), ch(8), ch(16), 255], &mut want));
                let mut got = Rgb565(0);
                assert!(Rgb565::put_lit(t, l, &mut got));
                assert_eq!(got, want, "texel {t:#x} light {l}");
            }
        }
    }

    #[test]
    fn true_colour_light_multiplies() {
        let tex = [u32::from_le_bytes([200, 100, 50, 255])];
        let p = Painter::<u32, Multiply<Argb8888>, false> {
            texels: &tex,
            size: (1, 1),
            lighting: Multiply(PhantomData),
            levels: &[],
        };
        let mut d = Argb8888(0);
        p.paint(0, 128, &mut d);
        assert_eq!(d.to_rgba(), [100, 50, 25, 255]);
        p.paint(0, 511, &mut d);
        assert_eq!(d.to_rgba(), [255, 199, 99, 255]);
    }
}
