//! Lightmap charts and where each goes on its surface page.
//!
//! The map compiler packs each lightmap page with charts (a face's rectangle of light texels, in
//! the samples a 16x16 quad of two triangles) a texel or so apart. A surface page of the same
//! layout mixes neighbouring charts, and the empty page between them, as soon as the rasterizer's
//! mip levels (2x2 box means) reach across that gap: measured on testlevel's three pages, 42 054
//! texels inside charts read up to 45 steps darker than anything in their own chart at levels
//! 1..3 (`tests/wmb_surface.rs`), the dark and light lines along chart edges in the picture. So
//! [`layout`] gives every chart its own rectangle on the surface page, with corners and sizes on
//! multiples of [`ALIGN`] and the rest of the rectangle filled from the chart by the baker: every
//! block mip levels 1..=4 average then lies inside one chart's rectangle.

use glam::Vec2;

/// Corners and sizes of every chart's rectangle are multiples of this many surface texels, so every
/// block a mip level 1..=4 averages (2x2 .. 16x16, aligned to its size) lies inside one rectangle:
/// those levels never mix two charts, or a chart and the empty page.
pub const ALIGN: usize = 16;

/// Surface texels around each chart inside its rectangle: the baker fills texels up to half a
/// texel beyond a triangle, which may reach one texel past the chart's lightmap texels.
pub const PAD: usize = 1;

/// A laid-out surface page holds at most this many times the texels of the lightmap page it comes
/// from (at `scale`). Real levels need a little more than one (testlevel: 2048x2176 texels for its
/// 2048x2048 pages); a level whose charts would need more (page-sized charts by the thousand, as
/// only a damaged or hostile file has) is laid out as its lightmap page is, as one chart, so the
/// page's memory stays bounded by the lightmap's whatever the file says.
pub const MAX_GROWTH: usize = 2;

/// One chart: the triangles it holds and where it is on the lightmap page and the surface page.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Indices of its triangles, in the order given to [`layout`].
    pub triangles: Vec<usize>,
    /// Lowest lightmap texel corner it covers (x, y).
    pub lightmap_lo: Vec2,
    /// Highest lightmap texel corner it covers (x, y; exclusive).
    pub lightmap_hi: Vec2,
    /// Top-left corner of its rectangle on the surface page, in surface texels (multiples of
    /// [`ALIGN`]).
    pub origin: (usize, usize),
    /// Size of its rectangle, in surface texels (multiples of [`ALIGN`]).
    pub size: (usize, usize),
}

impl Chart {
    /// Surface texel coordinates of lightmap UV `uv` (0..1 on a page of side `dim`, `scale`
    /// surface texels per lightmap texel).
    pub fn to_surface(&self, uv: Vec2, dim: usize, scale: usize) -> Vec2 {
        let at = Vec2::new(self.origin.0 as f32, self.origin.1 as f32) + Vec2::splat(PAD as f32);
        (uv * dim as f32 - self.lightmap_lo) * scale as f32 + at
    }

    /// The lightmap UV of surface texel coordinates `p` (the inverse of [`Chart::to_surface`]),
    /// held between the centres of the chart's outermost texels: a bilinear read there then
    /// takes only the chart's own texels, never the neighbour's beyond its rim (texels just
    /// outside a triangle are baked too, so thin triangles keep their texels).
    pub fn to_lightmap(&self, p: Vec2, dim: usize, scale: usize) -> Vec2 {
        let at = Vec2::new(self.origin.0 as f32, self.origin.1 as f32) + Vec2::splat(PAD as f32);
        let t = (p - at) / scale as f32 + self.lightmap_lo;
        let mid = (self.lightmap_lo + self.lightmap_hi) * 0.5;
        let lo = (self.lightmap_lo + Vec2::splat(0.5)).min(mid);
        let hi = (self.lightmap_hi - Vec2::splat(0.5)).max(mid);
        t.clamp(lo, hi) / dim as f32
    }
}

/// A surface page's layout: its size and charts.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Width and height in surface texels (multiples of [`ALIGN`]).
    pub size: (usize, usize),
    /// The charts; every triangle is in exactly one.
    pub charts: Vec<Chart>,
}

fn round_up(n: usize) -> usize {
    n.div_ceil(ALIGN) * ALIGN
}

/// Group triangles of lightmap UVs `triangles` (on a page of side `dim`) into charts — triangles
/// joined by shared corners share one — and place each chart, `scale` surface
/// texels per lightmap texel, on a page `width` texels wide (wider if a chart needs it), in rows
/// of charts, tallest first. Triangles with a coordinate that is not finite make a chart of their
/// own at the page's first texel.
pub fn layout(triangles: &[[Vec2; 3]], dim: usize, scale: usize, width: usize) -> Layout {
    let d = dim as f32;
    let rects: Vec<[f32; 4]> = triangles
        .iter()
        .map(|t| {
            let p = t.map(|q| q * d);
            if p.iter().any(|q| !q.is_finite()) {
                return [0.0; 4];
            }
            let lo = p[0]
                .min(p[1])
                .min(p[2])
                .floor()
                .clamp(Vec2::ZERO, Vec2::splat(d));
            let hi = p[0]
                .max(p[1])
                .max(p[2])
                .ceil()
                .clamp(Vec2::ZERO, Vec2::splat(d));
            [lo.x, lo.y, hi.x, hi.y]
        })
        .collect();
    // Union-find over triangles sharing a corner (the same lightmap UV, bit for bit): the map
    // compiler writes a face's triangles with shared corners, and two faces' charts never share
    // one, even where their rims touch.
    let mut parent: Vec<usize> = (0..rects.len()).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let mut first_at: std::collections::HashMap<(u32, u32), usize> = Default::default();
    for (i, t) in triangles.iter().enumerate() {
        for q in t {
            let j = *first_at.entry((q.x.to_bits(), q.y.to_bits())).or_insert(i);
            let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
            parent[ri] = rj;
        }
    }
    // Charts in order of their first triangle, each with the union of its rectangles.
    let mut index_of_root = std::collections::HashMap::new();
    let mut charts: Vec<(Vec<usize>, [f32; 4])> = Vec::new();
    for (i, r) in rects.iter().enumerate() {
        let root = find(&mut parent, i);
        let c = *index_of_root.entry(root).or_insert_with(|| {
            charts.push((Vec::new(), *r));
            charts.len() - 1
        });
        let (tris, u) = &mut charts[c];
        tris.push(i);
        *u = [
            u[0].min(r[0]),
            u[1].min(r[1]),
            u[2].max(r[2]),
            u[3].max(r[3]),
        ];
    }
    // Each chart sized; placed below.
    let mut charts: Vec<Chart> = charts
        .into_iter()
        .map(|(triangles, u)| {
            let w = (u[2] - u[0]) as usize * scale;
            let h = (u[3] - u[1]) as usize * scale;
            Chart {
                triangles,
                lightmap_lo: Vec2::new(u[0], u[1]),
                lightmap_hi: Vec2::new(u[2], u[3]),
                origin: (0, 0),
                size: (round_up(w + 2 * PAD), round_up(h + 2 * PAD)),
            }
        })
        .collect();
    let width = round_up(width.max(charts.iter().map(|c| c.size.0).max().unwrap_or(0)));
    // Rows (shelves), tallest charts first; ties in chart order so the layout is reproducible.
    let mut by_height: Vec<usize> = (0..charts.len()).collect();
    by_height.sort_by(|&a, &b| charts[b].size.1.cmp(&charts[a].size.1).then(a.cmp(&b)));
    let (mut x, mut y, mut row) = (0, 0, 0);
    for &c in &by_height {
        let (w, h) = charts[c].size;
        if x + w > width {
            y += row;
            x = 0;
            row = 0;
        }
        charts[c].origin = (x, y);
        x += w;
        row = row.max(h);
    }
    let size = (width, round_up((y + row).max(ALIGN)));
    let page = round_up(dim * scale + 2 * PAD);
    if size.0.saturating_mul(size.1) > MAX_GROWTH.saturating_mul(page * page) {
        return whole_page(triangles.len(), dim, scale);
    }
    Layout { size, charts }
}

/// The lightmap page's own layout, as one chart: every triangle where the compiler put it.
fn whole_page(triangles: usize, dim: usize, scale: usize) -> Layout {
    let page = round_up(dim * scale + 2 * PAD);
    Layout {
        size: (page, page),
        charts: vec![Chart {
            triangles: (0..triangles).collect(),
            lightmap_lo: Vec2::ZERO,
            lightmap_hi: Vec2::splat(dim as f32),
            origin: (0, 0),
            size: (page, page),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad(x: f32, y: f32, s: f32) -> [[Vec2; 3]; 2] {
        let (a, b, c, d) = (
            Vec2::new(x, y),
            Vec2::new(x + s, y),
            Vec2::new(x + s, y + s),
            Vec2::new(x, y + s),
        );
        [[a, b, c], [a, c, d]]
    }

    #[test]
    fn touching_quads_become_separate_padded_aligned_charts() {
        // Two 4-texel quads on a 16-texel page, a texel apart.
        let mut tris = quad(1.5 / 16.0, 1.5 / 16.0, 4.0 / 16.0).to_vec();
        tris.extend(quad(6.5 / 16.0, 1.5 / 16.0, 4.0 / 16.0));
        let l = layout(&tris, 16, 4, 64);
        assert_eq!(l.charts.len(), 2);
        assert_eq!(l.charts[0].triangles, [0, 1]);
        assert_eq!(l.charts[1].triangles, [2, 3]);
        for c in &l.charts {
            // 5 lightmap texels (1..6 and 6..11) at 4 each, plus padding, rounded up to 16.
            assert_eq!(c.size, (32, 32));
            assert_eq!((c.origin.0 % ALIGN, c.origin.1 % ALIGN), (0, 0));
            // Inside the outermost texel centres the mapping goes back exactly; beyond, it
            // stops at them.
            let uv = tris[c.triangles[0]][0];
            let back = c.to_lightmap(c.to_surface(uv, 16, 4), 16, 4);
            assert!((back - uv).length() < 1e-6);
            let outside = c.to_lightmap(c.to_surface(uv - Vec2::splat(0.5 / 16.0), 16, 4), 16, 4);
            assert!((outside * 16.0 - (c.lightmap_lo + Vec2::splat(0.5))).length() < 1e-5);
        }
        // Rectangles do not overlap and fit the page (64 wide: both in one row).
        let (a, b) = (&l.charts[0], &l.charts[1]);
        assert!(a.origin.0 + a.size.0 <= b.origin.0 || a.origin.1 + a.size.1 <= b.origin.1);
        assert_eq!(l.size, (64, 32));
        for c in &l.charts {
            assert!(c.origin.0 + c.size.0 <= l.size.0 && c.origin.1 + c.size.1 <= l.size.1);
        }
    }

    #[test]
    fn thousands_of_page_sized_charts_keep_the_page_s_size() {
        // 3000 triangles, each covering nearly the whole page with corners of its own: laid out
        // apart they would need 3000 pages.
        let tris: Vec<[Vec2; 3]> = (0..3000)
            .map(|i| {
                let e = i as f32 * 1e-5;
                [
                    Vec2::splat(e),
                    Vec2::new(1.0 - e, 0.0),
                    Vec2::splat(1.0 - e),
                ]
            })
            .collect();
        let l = layout(&tris, 256, 8, 2048);
        let page = round_up(256 * 8 + 2 * PAD);
        assert_eq!(l.size, (page, page), "laid out as the lightmap page is");
        assert_eq!(
            l.charts.iter().map(|c| c.triangles.len()).sum::<usize>(),
            3000
        );
    }

    #[test]
    fn charts_wider_than_the_page_widen_it_and_bad_coordinates_do_not_panic() {
        let mut tris = quad(0.0, 0.0, 1.0).to_vec();
        tris.push([Vec2::NAN, Vec2::ZERO, Vec2::ONE]);
        let l = layout(&tris, 16, 4, 32);
        assert!(l.size.0 >= 16 * 4 + 2 * PAD);
        assert_eq!(l.charts.iter().map(|c| c.triangles.len()).sum::<usize>(), 3);
    }
}
