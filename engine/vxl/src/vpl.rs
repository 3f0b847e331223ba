//! The VPL decoder (VOXELS.VPL): a palette and the lighting lookup pages the game shades voxels with.
//!
//! Layout: u32 remap start, u32 remap end, u32 page count (32 in the game's file), u32 unknown,
//! 768-byte palette, then one 256-byte page per count: `page[p][colour]` is the palette index of
//! `colour` shaded at brightness `p`. Page 8 is about the identity; brightness grows with the page.

use std::sync::Arc;

use modex::{BlendTables, ByteReader, FormatError, FormatResult, Palette};

const FORMAT: &str = "VPL";
/// Pages in the game's VOXELS.VPL.
pub const GAME_PAGE_COUNT: usize = 32;
/// The header (four u32) and the palette, before the 256-byte pages.
pub const FIXED_LEN: usize = 16 + 768;

/// Whether `data` is laid out as a VPL: the u32 page count at offset 8 is at least one and makes
/// the file exactly header + palette + pages long. The format has no magic; this is how a VPL that
/// is not called `.vpl` is recognised (format detection only: [`decode`] reads it).
pub fn has_layout(data: &[u8]) -> bool {
    let Some(&[a, b, c, d]) = data.get(8..12) else {
        return false;
    };
    let count = u32::from_le_bytes([a, b, c, d]) as usize;
    count >= 1 && data.len().checked_sub(FIXED_LEN) == count.checked_mul(256)
}

/// A decoded VPL: palette plus lighting pages.
#[derive(Debug, Clone)]
pub struct Vpl {
    /// First palette index of the house-colour remap range.
    pub remap_start: u32,
    /// Last palette index of the house-colour remap range.
    pub remap_end: u32,
    /// The palette the pages index into.
    pub palette: Palette,
    pages: Vec<[u8; 256]>,
    /// The palette's 8-bit translucency tables, each opacity's built when first asked for and
    /// shared by clones (see [`Vpl::blend_tables`]).
    blend: Arc<BlendTables>,
}

/// Two VPLs are equal when their remap range, palette and pages are: the blend tables are a cache.
impl PartialEq for Vpl {
    fn eq(&self, other: &Vpl) -> bool {
        self.remap_start == other.remap_start
            && self.remap_end == other.remap_end
            && self.palette == other.palette
            && self.pages == other.pages
    }
}

impl Vpl {
    /// Number of lighting pages (at least one).
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Page `p`, clamped to the last page.
    #[inline]
    pub fn page(&self, p: usize) -> &[u8; 256] {
        &self.pages[p.min(self.pages.len() - 1)]
    }

    /// The 8-bit translucency tables of this VPL's palette, `None` when the public `palette` was
    /// changed since the VPL was made (the caller then makes fresh tables for it). They live
    /// with the palette they are built from, so a renderer drawing translucent units every frame
    /// through the same VPL builds each opacity's table once (clones share them).
    pub fn blend_tables(&self) -> Option<&BlendTables> {
        (self.blend.palette() == &self.palette).then_some(&*self.blend)
    }

    /// All pages.
    pub fn pages(&self) -> &[[u8; 256]] {
        &self.pages
    }

    /// Lighting pages made from a palette alone, for models shown without the game's VPL: page `p`
    /// scales each colour by the brightness the game's pages have (0.67 at page 0, 1.0 at page 8,
    /// 1.85 at the last page, linear in between, measured on VOXELS.VPL) and maps it back to the
    /// nearest palette entry. Index 0 (transparent in the game palettes) stays 0.
    pub fn from_palette(palette: &Palette, page_count: usize) -> Vpl {
        let n = page_count.max(1);
        let pages = (0..n)
            .map(|p| {
                let b = brightness(p, n);
                let mut page = [0u8; 256];
                for (c, out) in page.iter_mut().enumerate().skip(1) {
                    let rgb = palette.colors[c].map(|v| (v as f32 * b).round().min(255.0) as u8);
                    *out = palette.nearest(rgb);
                }
                page
            })
            .collect();
        Vpl {
            remap_start: 16,
            remap_end: 31,
            blend: Arc::new(BlendTables::new(palette)),
            palette: palette.clone(),
            pages,
        }
    }

    /// A VPL whose every page is the identity: colours as stored, no shading.
    pub fn identity(palette: &Palette) -> Vpl {
        Vpl {
            remap_start: 16,
            remap_end: 31,
            blend: Arc::new(BlendTables::new(palette)),
            palette: palette.clone(),
            pages: vec![std::array::from_fn(|i| i as u8)],
        }
    }
}

/// Brightness factor of page `p` of `n` (1.0 at page 8 of 32).
fn brightness(p: usize, n: usize) -> f32 {
    let unit = 8.0 * (n as f32 / GAME_PAGE_COUNT as f32);
    let p = p as f32;
    if p <= unit {
        0.67 + 0.33 * p / unit.max(1.0)
    } else {
        1.0 + 0.85 * (p - unit) / ((n as f32 - 1.0) - unit).max(1.0)
    }
}

/// Decode a VPL file.
pub fn decode(data: &[u8]) -> FormatResult<Vpl> {
    let mut r = ByteReader::new(data, FORMAT);
    let remap_start = r.u32("header.remap_start")?;
    let remap_end = r.u32("header.remap_end")?;
    let count_at = r.pos();
    let page_count = r.u32("header.section_count")? as usize;
    r.skip(4, "header.unknown")?;
    let pal = r.bytes(768, "palette")?;
    let palette = Palette::from_rgb_bytes(pal).map_err(|mut e| {
        e.offset += 16;
        e
    })?;
    if page_count == 0 {
        return Err(FormatError::invalid(
            FORMAT,
            "header.section_count",
            count_at,
            "no lighting pages",
        ));
    }
    r.check_count(page_count, 256, "pages")?;
    let mut pages = Vec::with_capacity(page_count);
    for i in 0..page_count {
        pages.push(r.array::<256>(&format!("page[{i}]"))?);
    }
    Ok(Vpl {
        remap_start,
        remap_end,
        blend: Arc::new(BlendTables::new(&palette)),
        palette,
        pages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(pages: &[[u8; 256]], count: u32) -> Vec<u8> {
        let mut out = Vec::new();
        for v in [16u32, 31, count, 0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for c in 0..256u32 {
            out.extend_from_slice(&[c as u8, (c / 2) as u8, 255 - c as u8]);
        }
        for p in pages {
            out.extend_from_slice(p);
        }
        out
    }

    #[test]
    fn reads_pages_and_palette() {
        let pages: Vec<[u8; 256]> = (0..3)
            .map(|p| std::array::from_fn(|c| (c as u8).wrapping_add(p)))
            .collect();
        let v = decode(&encode(&pages, 3)).unwrap();
        assert_eq!(v.page_count(), 3);
        assert_eq!(v.page(2)[10], 12);
        assert_eq!(v.page(99)[10], 12); // clamped
        assert_eq!(v.palette.colors[200], [200, 100, 55]);
        assert_eq!((v.remap_start, v.remap_end), (16, 31));
    }

    #[test]
    fn zero_pages_and_short_files_are_refused() {
        assert!(decode(&encode(&[], 0)).is_err());
        let bytes = encode(&[[0; 256]; 2], 3);
        let e = decode(&bytes).unwrap_err();
        assert_eq!(e.field, "pages");
        for cut in [0, 8, 15, 100, 784] {
            assert!(decode(&bytes[..cut]).is_err());
        }
    }

    #[test]
    fn palette_pages_brighten_with_the_page() {
        let pal = Palette::grey_ramp();
        let v = Vpl::from_palette(&pal, 32);
        assert_eq!(v.page(8)[100], 100);
        assert!(v.page(0)[100] < 100 && v.page(31)[100] > 150);
        assert_eq!(v.page(31)[0], 0);
        assert!(brightness(31, 32) > 1.84 && brightness(0, 32) < 0.68);
    }
}
