//! The one 2D line routine: wireframes, bounds outlines, debug overlays and generated pictures.
//!
//! A digital differential analyser in screen coordinates (pixel centres at half-integers, as the
//! renderers use): the segment is sampled at `max(|dx|, |dy|)` equal steps, each sample computed
//! from the endpoints (not accumulated, so long lines do not drift) and floored to the pixel it falls
//! in. Samples outside the target are skipped, so lines may start or end off screen. For integer
//! pixel endpoints pass pixel centres (`x + 0.5`): the line then lights the pixels nearest to the
//! ideal segment, as Bresenham's algorithm does.
//!
//! A segment longer than any line the target could show (a vertex projected far off screen) is
//! first cut to the target's rectangle (Liang–Barsky), so it is drawn solid with as many steps as
//! it has visible pixels instead of being sampled sparsely along its whole length. Shorter
//! segments are stepped as they are, so their pixels never depend on the target's size.

use glam::Vec2;

use crate::target::Target;

/// Longest line drawn, in steps: a guard against endpoints projected absurdly far off screen.
pub const MAX_LINE_STEPS: f32 = 16384.0;

/// The part of `a`–`b` inside the rectangle `lo..hi`, if any (Liang–Barsky).
fn clip_segment(a: Vec2, b: Vec2, lo: Vec2, hi: Vec2) -> Option<(Vec2, Vec2)> {
    let d = b - a;
    let (mut t0, mut t1) = (0f32, 1f32);
    for (p, q) in [
        (-d.x, a.x - lo.x),
        (d.x, hi.x - a.x),
        (-d.y, a.y - lo.y),
        (d.y, hi.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
            continue;
        }
        let t = q / p;
        if p < 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return None;
        }
    }
    Some((a + d * t0, a + d * t1))
}

/// Draw the segment `a`–`b` (screen coordinates) in `px`. Non-finite endpoints draw nothing.
pub fn draw_line<T: Target + ?Sized>(target: &mut T, mut a: Vec2, mut b: Vec2, px: T::Px) {
    if !(a.is_finite() && b.is_finite()) {
        return;
    }
    let (w, h) = target.size();
    if (b - a).abs().max_element() > 2.0 * (w + h) as f32 {
        // One pixel of margin so the cut never falls just inside an edge pixel.
        let hi = Vec2::new(w as f32 + 1.0, h as f32 + 1.0);
        match clip_segment(a, b, Vec2::splat(-1.0), hi) {
            Some((ca, cb)) => (a, b) = (ca, cb),
            None => return,
        }
    }
    let steps = (b - a)
        .abs()
        .max_element()
        .ceil()
        .clamp(1.0, MAX_LINE_STEPS) as usize;
    let pixels = target.pixels_mut();
    for i in 0..=steps {
        let p = a + (b - a) * (i as f32 / steps as f32);
        let (x, y) = (p.x.floor(), p.y.floor());
        if x >= 0.0 && y >= 0.0 && (x as usize) < w && (y as usize) < h {
            pixels[y as usize * w + x as usize] = px;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::IndexedFrame;

    fn lit(f: &IndexedFrame) -> Vec<(usize, usize)> {
        let w = f.width();
        let px = f.pixels();
        (0..px.len())
            .filter(|&i| px[i] != 0)
            .map(|i| (i % w, i / w))
            .collect()
    }

    #[test]
    fn horizontal_vertical_and_diagonal_lines() {
        let mut f = IndexedFrame::new(8, 8);
        draw_line(&mut f, Vec2::new(1.5, 2.5), Vec2::new(4.5, 2.5), 1);
        assert_eq!(lit(&f), vec![(1, 2), (2, 2), (3, 2), (4, 2)]);
        let mut f = IndexedFrame::new(8, 8);
        draw_line(&mut f, Vec2::new(0.5, 0.5), Vec2::new(3.5, 3.5), 1);
        assert_eq!(lit(&f), vec![(0, 0), (1, 1), (2, 2), (3, 3)]);
        let mut f = IndexedFrame::new(8, 8);
        draw_line(&mut f, Vec2::new(6.5, 1.5), Vec2::new(6.5, 3.5), 1);
        assert_eq!(lit(&f), vec![(6, 1), (6, 2), (6, 3)]);
    }

    #[test]
    fn clipped_per_pixel_and_safe_on_wild_input() {
        let mut f = IndexedFrame::new(4, 4);
        draw_line(&mut f, Vec2::new(-10.0, 1.5), Vec2::new(10.0, 1.5), 7);
        assert_eq!(lit(&f), vec![(0, 1), (1, 1), (2, 1), (3, 1)]);
        let mut f = IndexedFrame::new(4, 4);
        draw_line(&mut f, Vec2::new(f32::NAN, 0.0), Vec2::ONE, 7);
        draw_line(&mut f, Vec2::new(-1e30, 0.0), Vec2::new(1e30, 0.0), 7);
        assert!(lit(&f).len() <= 4);
    }

    #[test]
    fn far_off_screen_lines_are_cut_and_drawn_solid() {
        // From inside to a point a million pixels away: every column of the visible part is lit.
        let mut f = IndexedFrame::new(64, 8);
        draw_line(&mut f, Vec2::new(0.5, 4.5), Vec2::new(1.0e6, 4.5), 1);
        assert_eq!(lit(&f), (0..64).map(|x| (x, 4)).collect::<Vec<_>>());
        // Wholly outside: nothing.
        let mut f = IndexedFrame::new(8, 8);
        draw_line(&mut f, Vec2::new(-1.0e6, -5.0), Vec2::new(1.0e6, -5.0), 1);
        assert!(lit(&f).is_empty());
        // A steep far line crossing the frame lights one pixel per row.
        let mut f = IndexedFrame::new(8, 32);
        draw_line(&mut f, Vec2::new(3.5, -1.0e5), Vec2::new(3.5, 1.0e5), 1);
        assert_eq!(lit(&f).len(), 32);
    }

    #[test]
    fn integer_endpoints_match_bresenham() {
        // The nearest pixel to the ideal segment in every column (x-major lines).
        let mut f = IndexedFrame::new(16, 16);
        draw_line(&mut f, Vec2::new(0.5, 0.5), Vec2::new(10.5, 3.5), 1);
        let got = lit(&f);
        assert_eq!(got.len(), 11);
        for (x, y) in got {
            let ideal = x as f32 * 3.0 / 10.0;
            assert!((y as f32 - ideal).abs() <= 0.5 + 1e-6, "({x},{y})");
        }
    }
}
