//! The 8-bit framebuffer, addressed like unchained VGA ("mode X").
//!
//! In mode X, pixel `x` of a row lives in plane `x % 4` at column `x / 4`. Battle Isle 2's change
//! streams walk the screen plane by plane, column by column, row by row; renderers walk it in rows.
//! [`IndexedFrame`] offers both views over one buffer.
//!
//! # Memory layout, chosen by measurement
//!
//! Two layouts were benchmarked with `cargo bench -p modex --bench framebuffer_layout -- --warm-up-time 1
//! --measurement-time 3` (360x240 frame, 86,400 bytes per pass, this project's 2-core machine, release
//! build, 2026-11-29; criterion medians):
//!
//! | pass | linear (row-major) | planar (4 planes of 90x240, each column-major) |
//! |---|---|---|
//! | full-screen XOR in plane/column/row order (a Battle Isle 2 change stream) | 43.0 µs (1.87 GiB/s) | 2.2 µs (36.6 GiB/s) |
//! | full-screen fill of every row (renderers' spans) | 1.7 µs (46.1 GiB/s) | 43.5 µs (1.85 GiB/s) |
//!
//! Each layout is ~20x faster at its own access order. The frame is stored **linear, row-major**:
//! every renderer (triangle spans, voxel columns, text, blits) and the presenter work in rows, many
//! times per frame, while a change stream touches each pixel at most once per picture; at 1.87 GiB/s
//! the mode-X pass still applies 22,000 full-screen pictures a second against the 25 a cutscene shows.
//! The mode-X accessors ([`IndexedFrame::planar_offset`], [`IndexedFrame::xor_column`]) compute
//! `row * width + column * 4 + plane`.

use crate::palette::Palette;

/// Default width of the mode-X screen.
pub const DEFAULT_WIDTH: usize = 360;
/// Default height of the mode-X screen.
pub const DEFAULT_HEIGHT: usize = 240;

/// An 8-bit palettised frame with mode-X (plane, column, row) addressing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexedFrame {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

impl Default for IndexedFrame {
    fn default() -> Self {
        IndexedFrame::new(DEFAULT_WIDTH, DEFAULT_HEIGHT)
    }
}

impl IndexedFrame {
    /// A frame cleared to index 0.
    pub fn new(width: usize, height: usize) -> Self {
        IndexedFrame {
            width,
            height,
            pixels: vec![0; width * height],
        }
    }

    /// A frame from existing row-major indices; `None` if the length does not match.
    pub fn from_pixels(width: usize, height: usize, pixels: Vec<u8>) -> Option<Self> {
        (pixels.len() == width * height).then_some(IndexedFrame {
            width,
            height,
            pixels,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Row-major indices, for renderers and presenters.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// All palette indices, row-major, for writing.
    pub fn pixels_mut(&mut self) -> &mut [u8] {
        &mut self.pixels
    }

    /// Row `y` (panics if out of range, like slice indexing).
    pub fn row(&self, y: usize) -> &[u8] {
        &self.pixels[y * self.width..(y + 1) * self.width]
    }

    /// Row `y` for writing (panics if out of range).
    pub fn row_mut(&mut self, y: usize) -> &mut [u8] {
        &mut self.pixels[y * self.width..(y + 1) * self.width]
    }

    /// Rows as disjoint mutable chunks, for banded parallel rendering.
    pub fn rows_mut(&mut self) -> std::slice::ChunksExactMut<'_, u8> {
        self.pixels.chunks_exact_mut(self.width.max(1))
    }

    /// The palette indices, row-major, taken out of the frame.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }

    /// Set every pixel to `index`.
    pub fn clear(&mut self, index: u8) {
        self.pixels.fill(index);
    }

    /// The index at (x, y), `None` outside the frame.
    pub fn get(&self, x: usize, y: usize) -> Option<u8> {
        (x < self.width && y < self.height).then(|| self.pixels[y * self.width + x])
    }

    /// Set a pixel; writes outside the frame are ignored.
    pub fn set(&mut self, x: usize, y: usize, index: u8) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = index;
        }
    }

    /// Number of columns in `plane` (planes 0..3; the last columns are missing when the width is not
    /// a multiple of 4).
    pub fn plane_columns(&self, plane: usize) -> usize {
        if plane >= 4 || plane >= self.width {
            0
        } else {
            (self.width - plane).div_ceil(4)
        }
    }

    /// Linear offset of mode-X address (plane, column, row), or `None` outside the frame.
    #[inline]
    pub fn planar_offset(&self, plane: usize, column: usize, row: usize) -> Option<usize> {
        let x = column.checked_mul(4)?.checked_add(plane)?;
        (plane < 4 && x < self.width && row < self.height).then(|| row * self.width + x)
    }

    /// The index at mode-X (plane, column, row), `None` outside the frame.
    pub fn planar_get(&self, plane: usize, column: usize, row: usize) -> Option<u8> {
        self.planar_offset(plane, column, row)
            .map(|o| self.pixels[o])
    }

    /// Set a pixel by mode-X address; writes outside the frame are ignored.
    pub fn planar_set(&mut self, plane: usize, column: usize, row: usize, index: u8) {
        if let Some(o) = self.planar_offset(plane, column, row) {
            self.pixels[o] = index;
        }
    }

    /// XOR `values` down one mode-X column starting at `row` (values past the bottom are ignored).
    /// This is the inner loop of a change stream.
    pub fn xor_column(&mut self, plane: usize, column: usize, row: usize, values: &[u8]) {
        let Some(start) = self.planar_offset(plane, column, row) else {
            return;
        };
        // `step_by` walks the column without a bounds check per pixel, and `zip` stops at the
        // bottom of the frame. The cost is the 360-byte stride itself (see the module doc).
        for (p, v) in self.pixels[start..]
            .iter_mut()
            .step_by(self.width)
            .zip(values)
        {
            *p ^= v;
        }
    }

    /// Copy `src` (same or other size) at (x, y), clipped, skipping `transparent` when given.
    pub fn blit(&mut self, src: &IndexedFrame, x: i32, y: i32, transparent: Option<u8>) {
        for sy in 0..src.height {
            let dy = y as i64 + sy as i64;
            if dy < 0 || dy >= self.height as i64 {
                continue;
            }
            let x0 = (x as i64).max(0);
            let x1 = (x as i64 + src.width as i64).min(self.width as i64);
            if x0 >= x1 {
                continue;
            }
            let srow = src.row(sy);
            let drow = self.row_mut(dy as usize);
            let s = &srow[(x0 - x as i64) as usize..(x1 - x as i64) as usize];
            let d = &mut drow[x0 as usize..x1 as usize];
            match transparent {
                None => d.copy_from_slice(s),
                Some(t) => {
                    for (dp, &sp) in d.iter_mut().zip(s) {
                        if sp != t {
                            *dp = sp;
                        }
                    }
                }
            }
        }
    }

    /// `0x00RRGGBB` pixels through `palette`, for the window.
    pub fn to_rgb_u32(&self, palette: &Palette, out: &mut Vec<u32>) {
        let table = palette.to_u32_table();
        out.clear();
        out.extend(self.pixels.iter().map(|&i| table[i as usize]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Target;

    #[test]
    fn planar_and_linear_addresses_agree() {
        let mut f = IndexedFrame::new(360, 240);
        for y in 0..240 {
            for x in 0..360 {
                f.set(x, y, ((x * 7 + y * 13) % 256) as u8);
            }
        }
        for row in 0..240 {
            for plane in 0..4 {
                for col in 0..f.plane_columns(plane) {
                    let x = col * 4 + plane;
                    assert_eq!(f.planar_get(plane, col, row), f.get(x, row));
                }
            }
        }
        assert_eq!(f.plane_columns(0), 90);
        assert_eq!(f.planar_get(0, 90, 0), None);
        assert_eq!(f.planar_get(4, 0, 0), None);
        assert_eq!(f.planar_get(0, 0, 240), None);
    }

    #[test]
    fn odd_widths_have_short_planes() {
        let f = IndexedFrame::new(10, 1);
        assert_eq!(
            (0..4).map(|p| f.plane_columns(p)).collect::<Vec<_>>(),
            vec![3, 3, 2, 2]
        );
        assert!(f.planar_offset(2, 2, 0).is_none());
        assert_eq!(f.planar_offset(1, 2, 0), Some(9));
    }

    #[test]
    fn xor_column_walks_down_and_clips() {
        let mut f = IndexedFrame::new(8, 4);
        f.xor_column(1, 1, 2, &[0xff, 0x0f, 0xaa]);
        assert_eq!(f.get(5, 2), Some(0xff));
        assert_eq!(f.get(5, 3), Some(0x0f));
        f.xor_column(1, 1, 2, &[0xff]);
        assert_eq!(f.get(5, 2), Some(0));
        f.xor_column(3, 5, 0, &[1]); // outside: ignored
        assert_eq!(f.pixels().iter().filter(|&&p| p != 0).count(), 1);
    }

    #[test]
    fn blit_clips_and_keys() {
        let mut dst = IndexedFrame::new(4, 4);
        let src = IndexedFrame::from_pixels(2, 2, vec![1, 0, 3, 4]).unwrap();
        dst.blit(&src, -1, 3, Some(0));
        assert_eq!(dst.get(0, 3), Some(0)); // src (1,0) is transparent
        dst.blit(&src, 3, -1, None);
        assert_eq!(dst.get(3, 0), Some(3));
        let n: usize = dst.pixels().iter().filter(|&&p| p != 0).count();
        assert_eq!(n, 1);
        assert!(IndexedFrame::from_pixels(2, 2, vec![0; 3]).is_none());
    }

    #[test]
    fn palette_conversion() {
        let mut f = IndexedFrame::new(2, 1);
        f.set(1, 0, 254);
        let pal = Palette::quake();
        assert_eq!(f.to_rgba8(&pal), vec![0, 0, 0, 255, 255, 255, 255, 255]);
        let mut out = Vec::new();
        f.to_rgb_u32(&pal, &mut out);
        assert_eq!(out, vec![0, 0xffffff]);
    }
}
