//! A limb's screen footprint: the rectangle and outline of its occupied box's projection, and the
//! nearest view depth any of its hits can have. What the march walks (row by row, each row's
//! span of the outline) and what the depth tests ask about (the band's pixels in
//! [`Footprint::hidden`], the coarse occlusion's tiles), without the rest of the job.

/// Where a limb can show on screen, and how near.
#[derive(Debug, Clone)]
pub(crate) struct Footprint {
    /// Screen rectangle: x0, y0, x1, y1 (exclusive).
    pub rect: [usize; 4],
    /// The 12 edges of the projected box as (y, x) at both ends, upper end first, when the whole
    /// box is in front of the eye. The box's screen footprint is the convex hull of its projected
    /// corners, whose outline is made of these edges: each row marches only the x-interval between
    /// them instead of the whole rectangle ([`Footprint::row_span`]).
    pub edges: Option<[[f32; 4]; 12]>,
    /// The smallest view depth of its box's corners (0 when the box reaches behind the eye):
    /// no hit of the limb is nearer, so where every pixel of its rectangle already holds
    /// something nearer, the limb cannot show and is skipped ([`Footprint::hidden`]).
    pub nearest: f32,
}

impl Footprint {
    /// Whether every pixel of the rectangle within rows `y0..y0 + rows` of a band (`depth`,
    /// `width` wide) already holds a depth below [`Footprint::nearest`]: then no hit of the
    /// limb can pass the depth test there, and drawing it would change nothing. Exact, not an
    /// estimate; units drawn nearest first make it common in crowds. Stops at the first pixel
    /// that could still show the limb.
    pub fn hidden(&self, depth: &[f32], width: usize, y0: usize) -> bool {
        let rows = depth.len() / width.max(1);
        let (ya, yb) = (self.rect[1].max(y0), self.rect[3].min(y0 + rows));
        if ya >= yb {
            return true;
        }
        let near = self.nearest;
        (ya..yb).all(|y| {
            let (x0, x1) = self.row_span(y);
            let row = (y - y0) * width;
            depth
                .get(row + x0..row + x1)
                .is_some_and(|r| r.iter().all(|&d| d < near))
        })
    }

    /// Pixels `x0..x1` of row `y` whose rays may meet the limb's occupied box.
    ///
    /// Conservative by one pixel on every side: the interval is the hull's extent over the strip of
    /// rows `y - 1 ..= y + 1` (pixel centres), widened by one pixel, so rounding differences between
    /// this projection and the per-pixel rays never lose a hit.
    #[inline]
    pub fn row_span(&self, y: usize) -> (usize, usize) {
        let yc = y as f32 + 0.5;
        self.strip_span(yc - 1.0, yc + 1.0)
    }

    /// Pixels `x0..x1` (widened by one pixel) that the box's outline covers anywhere in the
    /// strip between screen heights `s0` and `s1` (the rectangle's columns when the box reaches
    /// behind the eye).
    #[inline]
    pub fn strip_span(&self, s0: f32, s1: f32) -> (usize, usize) {
        let Some(edges) = &self.edges else {
            return (self.rect[0], self.rect[2]);
        };
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for &[ya, xa, yb, xb] in edges {
            if yb < s0 || ya > s1 {
                continue;
            }
            let (xc, xd) = if yb > ya {
                let k = (xb - xa) / (yb - ya);
                (xa + (ya.max(s0) - ya) * k, xa + (yb.min(s1) - ya) * k)
            } else {
                (xa, xb)
            };
            lo = lo.min(xc.min(xd));
            hi = hi.max(xc.max(xd));
        }
        if lo > hi {
            return (0, 0);
        }
        // Pixel x's ray passes through x + 0.5.
        let x0 = (lo - 1.5).floor().max(self.rect[0] as f32) as usize;
        let x1 = ((hi + 0.5).floor() + 1.0).min(self.rect[2] as f32) as usize;
        (x0, x1)
    }
}
