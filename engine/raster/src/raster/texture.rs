//! Skins prepared for drawing: the texels each target reads, built once per model and palette.
//!
//! - For the 8-bit target, palette indices: 8-bit skins as stored; true-colour skins mapped to the
//!   nearest palette colour through the [`ShadeTable`]'s exact lookup (never to index 0, which
//!   stays the overlay key; a raw all-zero texel maps to 0 in the keyed form). Like the RGBA, once
//!   as is and once keyed: the mip levels of the two differ where a skin has keys (the plain form
//!   averages a black key texel in, as the 8888 target's plain RGBA does; the keyed form leaves it
//!   out), so each mode reads the form its true-colour twin reads and 8-bit and 8888 agree.
//! - For true-colour targets, packed RGBA (`r | g << 8 | b << 16 | a << 24`), once as is and once with
//!   the overlay key (index 0, or a raw value of 0 for 16/24/32-bit skins, as the manual says for
//!   16-bit ones) turned into the value 0, which no opaque texel can have.
//!
//! Skins with an alpha channel (ARGB 4444 and 8888, DDS, external TGA/PNG files) are alpha-tested:
//! a texel whose alpha is below [`ALPHA_REF`] is a key in every form and every mode, so every target
//! cuts out the same texels (see [`ALPHA_REF`] for why a cut-out and not a blend). Such a skin is
//! marked [`Texture::cutout`] and drawn through its keyed forms even without the overlay flag;
//! skins without an alpha channel (or with no texel under the threshold) keep the unkeyed forms
//! and their vector kernels.
//!
//! Every form exists per mip level: level 0 is the skin, each further level half the size of the
//! one before (2x2 box filter, sizes rounded down, to 1x1).
//!
//! Only the plain RGBA levels are built at load; the keyed forms (overlay RGBA) and the 8-bit
//! forms are built the first time a fill reads them ([`Texture::overlay_level`],
//! [`Texture::indexed_level`]). A level's models are drawn through one of them, not all: a large
//! level drawn in 8888 never needs its tens of millions of texels mapped to a palette, which was
//! most of its load time, nor their keyed copy (issue 40's cost target, docs/benchmarks.md).
//!
//! A5 drew its skins through Direct3D with mip levels; without them a minified skin shimmers (every pixel a texel
//! far from its neighbour's) and every pixel's texel is a cache miss (the 1272x1114 minigun skin).
//! The file's own mip levels (MDL5 type + 8) are skipped by the decoder and rebuilt here, so every
//! skin, with mips stored or not, is drawn the same way.

use std::sync::{Arc, OnceLock};

use modex_mdl::{Rgba8, Skin, SkinPixels};

use super::light::ShadeTable;

/// Colour of the stand-in texture for models without a drawable skin (no skins, DDS, external).
pub const BLANK_RGB: [u8; 3] = [192, 192, 192];

/// The alpha test's reference: a texel of a skin with an alpha channel is drawn when its alpha is at
/// least this, and is a cut-out key (not drawn, depth untouched) below it.
///
/// Why a cut-out: the GameStudio manual's OVERLAY entry (manual.conitec.net/aentity-overlay.htm,
/// A7/A8) says that for textures with transparency (32 bit or DDS) "pixels become invisible when
/// their transparency is below the d3d_alpharef threshold (default: 50%)", drawn in the solid pass
/// with the z buffer written; scripts of the time note `d3d_alpharef`'s default as 127, and Direct3D
/// passes a pixel when its alpha is greater than the reference, so 128 and up are drawn. Without
/// OVERLAY the engine is said to blend such entities in its sorted transparent pass (forum advice,
/// not found in the manual): that needs back-to-front order within the model, which this
/// rasterizer does not have, and the 8-bit target could only approximate it through a mixing table.
/// The alpha test is the one rule all four targets draw alike (the 8-bit frame cannot blend per
/// texel at all), and for skins such as tree leaves, whose alpha is 0 or near 255, it is what a
/// player saw up to the soft rim of each leaf.
pub const ALPHA_REF: u8 = 128;

/// One mip level's plain texels, built at load.
#[derive(Debug, Clone)]
pub struct Level {
    pub width: u32,
    pub height: u32,
    /// Packed RGBA, for true-colour targets (normal mode). Level 0 of a true-colour skin is the
    /// decoded skin's own buffer ([`modex_mdl::Rgba8::shared`]), not a copy: a large level's
    /// skins are then in memory once (issue 40).
    pub rgba: Arc<[u32]>,
}

/// One mip level's keyed form: where the keys are, and the texels with each key set to 0.
#[derive(Debug, Clone)]
struct Keyed {
    /// Overlay key (or cut by the alpha test) per texel.
    keys: Vec<bool>,
    /// Packed RGBA with overlay-transparent texels set to 0 (overlay mode, alpha-tested skins).
    overlay: Vec<u32>,
}

/// A skin's texels at every mip level: the plain form built at load, the keyed and 8-bit forms
/// on first use.
#[derive(Debug, Clone)]
pub struct Texture {
    /// Level 0's size.
    pub width: u32,
    pub height: u32,
    /// Level 0 (the skin itself) first, then each half the size of the one before, down to 1x1.
    pub levels: Vec<Level>,
    /// The skin has texels cut out by the alpha test ([`ALPHA_REF`]): it is drawn through the keyed
    /// forms ([`Texture::indexed_level`], [`Texture::overlay_level`]) in every mode, not only in
    /// overlay mode. `false` for skins
    /// without an alpha channel, which thus keep the unkeyed forms and their vector kernels.
    pub cutout: bool,
    /// Level 0's keys, one bit per texel (bit `i % 64` of word `i / 64`), from which the keyed
    /// forms are built: a bit, not a byte, as it is kept for the texture's life.
    keys: Vec<u64>,
    /// No texel is a key (neither the overlay key nor cut by the alpha test): the keyed forms
    /// would equal the plain ones, texel for texel (every texel is opaque, so none is the
    /// all-zero word the keyed form reserves), and are not built. Kept, not recomputed from
    /// [`Texture::keys`]: every fill asks, once per mip level.
    keyless: bool,
    /// An 8-bit skin's indices as stored (the skin's own, shared): its level 0 in the 8-bit form.
    stored: Option<Arc<[u8]>>,
    /// The keyed form of every level, built on first use.
    keyed: OnceLock<Vec<Keyed>>,
    /// The keyed 8-bit form of every level (palette indices, 0 at keys), built on first use.
    indexed: OnceLock<Vec<Vec<u8>>>,
    /// The plain 8-bit form of every level (each texel its plain colour's index), built on first
    /// use. Skins without keys read it for the keyed form too, which would be the same.
    indexed_plain: OnceLock<Vec<Vec<u8>>>,
}

/// At most this many levels (a 65535-texel side, the largest [`Texture::from_skin`] takes, needs 17).
pub const MAX_LEVELS: usize = 17;

#[inline]
fn pack(c: [u8; 4]) -> u32 {
    u32::from_le_bytes(c)
}

impl Texture {
    /// Prepare `skin`, or `None` when it has no pixels to draw (DDS, external, wrong sizes).
    pub fn from_skin(skin: &Skin, shades: &ShadeTable) -> Option<Texture> {
        let n = skin.width.checked_mul(skin.height)?;
        if n == 0 || skin.width > u16::MAX as usize || skin.height > u16::MAX as usize {
            return None;
        }
        // Whether each texel is a key (the overlay key, or cut by the alpha test), the texel
        // colours, and whether any texel was cut by the alpha test.
        let (stored, keys, rgba, cutout): (_, Vec<bool>, Arc<[u32]>, _) = match &skin.pixels {
            SkinPixels::Indexed(idx) => {
                if idx.len() != n {
                    return None;
                }
                let pal = shades.palette();
                let rgba = idx.iter().map(|&i| pack(pal.rgba(i))).collect();
                // No alpha channel: index 0 is the overlay key only.
                (
                    Some(idx.clone()),
                    idx.iter().map(|&i| i == 0).collect(),
                    rgba,
                    false,
                )
            }
            SkinPixels::External(_) => return None,
            other => {
                if skin.rgba.len() != n * 4 {
                    return None;
                }
                let mut keys: Vec<bool> = match other {
                    SkinPixels::Rgb565(v) | SkinPixels::Argb4444(v) if v.len() == n => {
                        v.iter().map(|&p| p == 0).collect()
                    }
                    SkinPixels::Rgb888(v) if v.len() == n => {
                        v.iter().map(|p| *p == [0; 3]).collect()
                    }
                    SkinPixels::Argb8888(v) if v.len() == n => {
                        v.iter().map(|p| *p == [0; 4]).collect()
                    }
                    // No overlay key is defined for DDS skins; a skin held as RGBA alone keys
                    // what an 8888 skin keys, all-zero texels, whose alpha 0 the alpha test below
                    // cuts anyway: for both, only the alpha test cuts.
                    SkinPixels::Dds(_) | SkinPixels::Rgba => vec![false; n],
                    // A 565 or 888 skin held as RGBA alone: black is its stored 0.
                    SkinPixels::RgbaBlackKey => skin
                        .rgba
                        .chunks_exact(4)
                        .map(|c| c[..3] == [0, 0, 0])
                        .collect(),
                    _ => return None,
                };
                // The alpha test: formats without alpha decode to 255 and never cut. For 4444 and
                // 8888 skins the overlay keys above are alpha-0 texels, so keys are the same set
                // in overlay mode and out of it (one keyed form serves both).
                let mut cutout = false;
                for (key, c) in keys.iter_mut().zip(skin.rgba.chunks_exact(4)) {
                    if c[3] < ALPHA_REF {
                        *key = true;
                        cutout = true;
                    }
                }
                (None, keys, packed(&skin.rgba), cutout)
            }
        };
        let (width, height) = (skin.width as u32, skin.height as u32);
        let mut levels = vec![Level {
            width,
            height,
            rgba,
        }];
        while levels.len() < MAX_LEVELS {
            let last = &levels[levels.len() - 1];
            if last.width == 1 && last.height == 1 {
                break;
            }
            levels.push(halve_plain(last));
        }
        Some(Texture {
            width,
            height,
            levels,
            cutout,
            keyless: !keys.contains(&true),
            keys: pack_bits(&keys),
            stored,
            keyed: OnceLock::new(),
            indexed: OnceLock::new(),
            indexed_plain: OnceLock::new(),
        })
    }

    /// Level `level`'s plain packed RGBA (true-colour targets, normal mode).
    pub fn rgba_level(&self, level: usize) -> &[u32] {
        &self.levels[level].rgba
    }

    /// Level `level`'s packed RGBA with its keys set to 0 (true-colour targets, overlay mode and
    /// alpha-tested skins); the keyed forms are built on the first call.
    pub fn overlay_level(&self, level: usize) -> &[u32] {
        if self.keyless {
            // Nothing to key: the keyed form would be a copy of the plain one.
            return self.rgba_level(level);
        }
        &self.keyed_forms()[level].overlay
    }

    /// Level `level`'s palette indices through `shades` (the 8-bit target), `keyed` (0 at keys:
    /// overlay mode and alpha-tested skins, as [`Texture::overlay_level`]) or plain (as
    /// [`Texture::rgba_level`]); built on the first call, so `shades` must be the table the
    /// texture was prepared with.
    pub fn indexed_level(&self, level: usize, keyed: bool, shades: &ShadeTable) -> &[u8] {
        if keyed && !self.keyless {
            &self.indexed.get_or_init(|| self.build_indexed(shades))[level]
        } else {
            &self
                .indexed_plain
                .get_or_init(|| self.build_indexed_plain(shades))[level]
        }
    }

    /// The keyed form of every level: level 0's from the skin's keys, each further level's keys by
    /// majority and colours by the mean of the non-key texels ([`halve_keyed`]).
    fn keyed_forms(&self) -> &[Keyed] {
        self.keyed.get_or_init(|| {
            // A texel that passes the alpha test is written as it is, not blended: the solid
            // pass has blending off, so the frame gets its colour opaque (alpha 255 in 8888, no
            // mix in 4444), as the 565 and 8-bit targets, which have no alpha, draw it anyway.
            let opaque = if self.cutout { 0xff00_0000 } else { 0 };
            let plain = &self.levels[0].rgba;
            let keys: Vec<bool> = (0..plain.len())
                .map(|i| self.keys[i / 64] >> (i % 64) & 1 != 0)
                .collect();
            let overlay = plain
                .iter()
                .zip(&keys)
                .map(|(&c, &key)| if key { 0 } else { c.max(1) | opaque })
                .collect();
            let mut keyed = vec![Keyed { keys, overlay }];
            for (i, plain) in self.levels[..self.levels.len() - 1].iter().enumerate() {
                let next = halve_keyed(plain, &keyed[i], self.cutout);
                keyed.push(next);
            }
            keyed
        })
    }

    /// The plain 8-bit form of every level: an 8-bit skin's level 0 as stored; every other texel
    /// the palette colour nearest its plain colour (never index 0).
    fn build_indexed_plain(&self, shades: &ShadeTable) -> Vec<Vec<u8>> {
        self.map_to_palette(shades, self.levels.iter().map(|l| (&l.rgba[..], None)))
    }

    /// The keyed 8-bit form of every level: an 8-bit skin's level 0 as stored; every other texel
    /// the palette colour nearest its keyed colour (never index 0), 0 at keys.
    fn build_indexed(&self, shades: &ShadeTable) -> Vec<Vec<u8>> {
        let keyed = self.keyed_forms();
        self.map_to_palette(
            shades,
            keyed.iter().map(|k| (&k.overlay[..], Some(&k.keys[..]))),
        )
    }

    /// Each level's texels (and, for a keyed form, its keys) as palette indices: level 0 of an
    /// 8-bit skin as stored, every other texel its nearest colour's index, 0 at keys.
    fn map_to_palette<'l>(
        &self,
        shades: &ShadeTable,
        levels: impl Iterator<Item = (&'l [u32], Option<&'l [bool]>)>,
    ) -> Vec<Vec<u8>> {
        let mut memo = Remembered::new(shades);
        levels
            .enumerate()
            .map(|(i, (texels, keys))| match (&self.stored, i) {
                (Some(stored), 0) => stored.to_vec(),
                _ => texels
                    .iter()
                    .enumerate()
                    .map(|(t, &c)| {
                        if keys.is_some_and(|k| k[t]) {
                            0
                        } else {
                            let [r, g, b, _] = c.to_le_bytes();
                            memo.index_of([r, g, b])
                        }
                    })
                    .collect(),
            })
            .collect()
    }

    /// (width, height) of level 0 in texels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// A 1x1 texture of [`BLANK_RGB`], so a model without a drawable skin is still drawn, lit.
    pub fn blank(shades: &ShadeTable) -> Texture {
        let [r, g, b] = BLANK_RGB;
        let c = pack([r, g, b, 255]);
        Texture {
            width: 1,
            height: 1,
            levels: vec![Level {
                width: 1,
                height: 1,
                rgba: vec![c].into(),
            }],
            cutout: false,
            keys: vec![0],
            keyless: true,
            // The full search: one colour does not pay for building the lookup.
            stored: Some([shades.palette().nearest_in(BLANK_RGB, 1..=255)].into()),
            keyed: OnceLock::new(),
            indexed: OnceLock::new(),
            indexed_plain: OnceLock::new(),
        }
    }

    /// Whether a fill reads the keyed forms (the 8-bit form with 0 as key, the overlay RGBA): in overlay
    /// mode, and always for a skin with texels cut by the alpha test.
    pub fn keyed(&self, overlay: bool) -> bool {
        overlay || self.cutout
    }
}

/// [`ShadeTable::index_of`] with the last colours looked up remembered: a skin repeats its
/// colours, and each exact lookup scans a few palette entries (without this, mapping the 44.6 M
/// texels of LotterShock's largest level into 8 bits took 0.9 s more than the old cube did).
struct Remembered<'a> {
    shades: &'a ShadeTable,
    /// Direct-mapped by a hash of the colour: `rgb << 8 | index`, or `u32::MAX` when empty (a
    /// colour that happens to pack to it is looked up each time, which is still exact).
    slots: Vec<u32>,
}

impl<'a> Remembered<'a> {
    const SLOTS_LOG2: u32 = 12;

    fn new(shades: &'a ShadeTable) -> Self {
        Remembered {
            shades,
            slots: vec![u32::MAX; 1 << Self::SLOTS_LOG2],
        }
    }

    #[inline]
    fn index_of(&mut self, rgb: [u8; 3]) -> u8 {
        let key = u32::from_be_bytes([0, rgb[0], rgb[1], rgb[2]]);
        let slot =
            &mut self.slots[(key.wrapping_mul(0x9E37_79B1) >> (32 - Self::SLOTS_LOG2)) as usize];
        if *slot != u32::MAX && *slot >> 8 == key {
            return *slot as u8;
        }
        let index = self.shades.index_of(rgb);
        *slot = key << 8 | index as u32;
        index
    }
}

/// The plain form of the next mip level of `l`: each texel the rounded mean of the (up to) 2x2
/// texels it covers, per channel alpha included, keys too. Sizes round down (an odd last row or
/// column is dropped), as GL's levels do; a side of 1 stays 1.
fn halve_plain(l: &Level) -> Level {
    let (w, h) = (l.width as usize, l.height as usize);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let (xs, ys) = (if w > 1 { 2 } else { 1 }, if h > 1 { 2 } else { 1 });
    let mut rgba = Vec::with_capacity(nw * nh);
    for y in 0..nh {
        for x in 0..nw {
            let mut all = [0u32; 4];
            for sy in y * ys..y * ys + ys {
                for sx in x * xs..x * xs + xs {
                    add(&mut all, l.rgba[sy * w + sx]);
                }
            }
            rgba.push(pack(mean(all, (xs * ys) as u32)));
        }
    }
    Level {
        width: nw as u32,
        height: nh as u32,
        rgba: rgba.into(),
    }
}

/// The skin's texels as the packed words the fills read (`r | g << 8 | b << 16 | a << 24`): on a
/// little-endian machine these are the decoded skin's own words, shared; elsewhere a packed copy.
fn packed(texels: &Rgba8) -> Arc<[u32]> {
    if cfg!(target_endian = "little") {
        texels.shared()
    } else {
        texels
            .words()
            .iter()
            .map(|w| pack(w.to_ne_bytes()))
            .collect()
    }
}

/// The keyed form of the level below `plain` (whose keyed form is `keyed`).
///
/// A texel is a key when more than half of its sources are (so a cut-out keeps its outline,
/// neither growing nor eroding, as it shrinks); otherwise it is the rounded mean of its non-key
/// sources. An alpha-tested skin (`cutout`), drawn through its keyed form in every mode, averages
/// the keyed form's texels of the level above, so no cut texel's colour or zero alpha bleeds in
/// at any level; the majority rule stands in for Direct3D's test of the box-filtered alpha (they
/// differ only where partial alpha meets the cut). Other skins average the plain form's, as the
/// 8-bit form also serves their plain mode, where a black texel is a colour: from level 2 on
/// their keyed forms thus carry some black (not changed here: it would move the 8-bit levels of
/// opaque skins away from the true-colour ones).
fn halve_keyed(plain: &Level, keyed: &Keyed, cutout: bool) -> Keyed {
    let (w, h) = (plain.width as usize, plain.height as usize);
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let (xs, ys) = (if w > 1 { 2 } else { 1 }, if h > 1 { 2 } else { 1 });
    let mut out = Keyed {
        keys: Vec::with_capacity(nw * nh),
        overlay: Vec::with_capacity(nw * nh),
    };
    let from: &[u32] = if cutout { &keyed.overlay } else { &plain.rgba };
    for y in 0..nh {
        for x in 0..nw {
            let (mut opaque, mut solid) = ([0u32; 4], 0u32);
            for sy in y * ys..y * ys + ys {
                for sx in x * xs..x * xs + xs {
                    let i = sy * w + sx;
                    if !keyed.keys[i] {
                        add(&mut opaque, from[i]);
                        solid += 1;
                    }
                }
            }
            let total = (xs * ys) as u32;
            let key = (total - solid) * 2 > total;
            out.keys.push(key);
            out.overlay.push(if key {
                0
            } else {
                pack(mean(opaque, solid)).max(1)
            });
        }
    }
    out
}

/// `keys` one bit each, bit `i % 64` of word `i / 64`.
fn pack_bits(keys: &[bool]) -> Vec<u64> {
    keys.chunks(64)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u64, |w, (i, &k)| w | (u64::from(k) << i))
        })
        .collect()
}

/// Add packed texel `t`'s channels to `sum`.
#[inline]
fn add(sum: &mut [u32; 4], t: u32) {
    for (s, c) in sum.iter_mut().zip(t.to_le_bytes()) {
        *s += c as u32;
    }
}

/// The rounded mean of `count` texels whose channels add up to `sum`.
#[inline]
fn mean(sum: [u32; 4], count: u32) -> [u8; 4] {
    sum.map(|s| ((s + count / 2) / count) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex::Palette;

    fn skin(w: usize, h: usize, rgba: Vec<u8>) -> Skin {
        let words = rgba
            .chunks_exact(4)
            .map(|c| Rgb565::from_rgba([c[0], c[1], c[2], 255]).0)
            .collect();
        Skin {
            kind: 2,
            has_mipmaps: false,
            width: w,
            height: h,
            pixels: SkinPixels::Rgb565(words),
            rgba: rgba.into(),
        }
    }
    use modex::{Pixel, Rgb565};

    #[test]
    fn levels_halve_down_to_one_texel() {
        let shades = ShadeTable::new(&Palette::quake());
        let (w, h) = (12usize, 5usize);
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|i| [(i * 4) as u8, 100, 200, 255])
            .collect();
        let t = Texture::from_skin(&skin(w, h, rgba), &shades).unwrap();
        let sizes: Vec<(u32, u32)> = t.levels.iter().map(|l| (l.width, l.height)).collect();
        assert_eq!(sizes, [(12, 5), (6, 2), (3, 1), (1, 1)]);
        for (i, l) in t.levels.iter().enumerate() {
            let n = (l.width * l.height) as usize;
            let (indexed, overlay) = (t.indexed_level(i, true, &shades), t.overlay_level(i));
            assert_eq!((indexed.len(), l.rgba.len(), overlay.len()), (n, n, n));
        }
        // Level 1 texel (1, 0) is the mean of texels (2..4, 0..2) of level 0: red 8, 12, 56, 60.
        let c = t.levels[1].rgba[1].to_le_bytes();
        assert_eq!(c, [34, 100, 200, 255]);
    }

    #[test]
    fn overlay_keys_need_a_majority() {
        let shades = ShadeTable::new(&Palette::quake());
        // 4x2: left 2x2 block three keys (black) and one white, right block one key.
        let k = [0, 0, 0, 255];
        let wt = [255, 255, 255, 255];
        let px = [k, k, wt, k, k, wt, wt, wt];
        let t = Texture::from_skin(&skin(4, 2, px.concat()), &shades).unwrap();
        let (overlay, indexed) = (t.overlay_level(1), t.indexed_level(1, true, &shades));
        assert_eq!(overlay[0], 0, "three of four keys: key");
        assert_eq!(indexed[0], 0);
        assert_eq!(overlay[1], pack(wt), "one key of four: mean of the others");
        assert_ne!(indexed[1], 0);
        // The normal form averages every texel, keys too.
        assert_eq!(t.rgba_level(1)[0].to_le_bytes(), [64, 64, 64, 255]);
        // And so does the plain 8-bit form, so 8-bit shows what 8888 shows: the grey, where the
        // keyed form (overlay mode) shows the key.
        let plain = t.indexed_level(1, false, &shades);
        assert_eq!(plain[0], shades.index_of([64, 64, 64]));
        assert_eq!(plain[1], shades.index_of([191, 191, 191]));
        assert_eq!(t.rgba_level(1)[1].to_le_bytes(), [191, 191, 191, 255]);
    }

    fn argb8888(w: usize, h: usize, px: &[[u8; 4]]) -> Skin {
        Skin {
            kind: 5,
            has_mipmaps: false,
            width: w,
            height: h,
            pixels: SkinPixels::Argb8888(px.into()),
            rgba: px.concat().into(),
        }
    }

    #[test]
    fn alpha_below_the_reference_is_cut_in_every_form() {
        let shades = ShadeTable::new(&Palette::quake());
        // Alpha just under and at the reference, fully transparent with and without colour,
        // opaque black (drawn: only 8-bit-style skins key on black).
        let px = [
            [200, 10, 10, ALPHA_REF - 1],
            [10, 200, 10, ALPHA_REF],
            [0, 0, 0, 255],
            [10, 10, 200, 200],
            [0, 0, 0, 0],
            [255, 255, 255, 0],
            [10, 10, 200, 255],
            [10, 10, 200, 255],
        ];
        let t = Texture::from_skin(&argb8888(4, 2, &px), &shades).unwrap();
        assert!(t.cutout);
        assert!(t.keyed(false) && t.keyed(true));
        let (overlay, indexed) = (t.overlay_level(0), t.indexed_level(0, true, &shades));
        for (i, p) in px.iter().enumerate() {
            let cut = p[3] < ALPHA_REF;
            assert_eq!(overlay[i] == 0, cut, "texel {i}: keyed form");
            assert_eq!(indexed[i] == 0, cut, "texel {i}: 8-bit form");
            if !cut {
                // Drawn opaque: the solid pass does not blend.
                let c = overlay[i].to_le_bytes();
                assert_eq!(c, [p[0], p[1], p[2], 255], "texel {i}");
            }
        }
        // Level 1: the left block has three cut texels of four (cut), the right none; its mean
        // is of the keyed form, so opaque too (alpha 200 drawn as 255).
        let (overlay, indexed) = (t.overlay_level(1), t.indexed_level(1, true, &shades));
        assert_eq!((overlay[0], indexed[0]), (0, 0));
        assert_eq!(overlay[1].to_le_bytes()[3], 255);
        assert_ne!(indexed[1], 0);
    }

    #[test]
    fn keyed_and_8bit_forms_are_built_only_when_read() {
        let shades = ShadeTable::new(&Palette::quake());
        let px = [
            [10, 20, 30, 255],
            [0, 0, 0, 0],
            [40, 50, 60, 255],
            [70, 80, 90, 255],
        ];
        let t = Texture::from_skin(&argb8888(2, 2, &px), &shades).unwrap();
        assert!(t.keyed.get().is_none() && t.indexed.get().is_none());
        t.rgba_level(1);
        assert!(
            t.keyed.get().is_none(),
            "the plain form alone needs no keyed form"
        );
        t.overlay_level(0);
        assert!(t.keyed.get().is_some() && t.indexed.get().is_none());
        t.indexed_level(0, true, &shades);
        assert!(t.indexed.get().is_some());
    }

    #[test]
    fn skins_without_cut_texels_keep_the_plain_forms() {
        let shades = ShadeTable::new(&Palette::quake());
        let px = [
            [0, 0, 0, 255],
            [9, 9, 9, 200],
            [1, 2, 3, 255],
            [4, 5, 6, 128],
        ];
        let t = Texture::from_skin(&argb8888(2, 2, &px), &shades).unwrap();
        assert!(!t.cutout && !t.keyed(false) && t.keyed(true));
        // 565 skins decode to alpha 255: never cut, whatever their colour.
        let t = Texture::from_skin(
            &skin(2, 1, [[0, 0, 0, 255], [7, 7, 7, 255]].concat()),
            &shades,
        )
        .unwrap();
        assert!(!t.cutout);
    }
}
