//! The baked surface pages of the shared LotterShock levels (`shared/data/wmb`), read as the
//! rasterizer reads them: through its mip levels (each the rounded 2x2 mean of the one before,
//! sizes rounded down, as `modex-raster` builds them), each pixel inside a lightmap chart reading
//! the texel of the level its footprint asks for at that point.
//!
//! A chart (a group of triangles sharing one region of a lightmap page) must look like itself at
//! every level a close or middle-distance view uses: no texel a pixel inside the chart reads may
//! be brighter than the chart's brightest texel, or darker than its darkest, by more than a few
//! steps. Pages whose charts sit next to each other break this as soon as a mip texel straddles
//! two charts (a bright chart's light bleeds into its dark neighbour as a light line along their
//! shared edge) or a chart and the empty page around it (a dark line). Measured before the charts
//! got rectangles of their own (`wmb::chart`): 42 054 texels of testlevel's three pages up to 45
//! steps darker at levels 1..3; after: none at levels 1..4.

use std::collections::HashMap;

use glam::Vec2;
use modex_mdl::wmb::surface::{level_models, SurfaceKind};
use modex_mdl::wmb::WmbFile;
use modex_mdl::Model;

/// Levels a view of the level reads up close and at middle distance (up to 16 surface texels a
/// pixel, 4 lightmap texels at testlevel's scale): these must never mix charts.
const CHECKED_LEVELS: usize = 4;
/// How far (per channel, 0..255) a texel may stray from its chart's range: rounding in the box
/// filter, the bilinear lightmap read at the chart's rim.
const BOUND: u8 = 6;

fn level(name: &str) -> Option<WmbFile> {
    let dir = modex_testkit::samples_dir("wmb")?;
    let path = dir.join(format!("lottershock/Game/Level/{name}.wmb"));
    Some(WmbFile::parse(&std::fs::read(path).unwrap()).unwrap())
}

/// One mip level: width, height, RGBA.
type Level = (usize, usize, Vec<[u8; 4]>);

/// The rasterizer's next level: the rounded mean of each 2x2 block, sizes rounded down.
fn halve((w, h, px): &Level) -> Level {
    let (nw, nh) = ((w / 2).max(1), (h / 2).max(1));
    let (xs, ys) = (if *w > 1 { 2 } else { 1 }, if *h > 1 { 2 } else { 1 });
    let mut out = Vec::with_capacity(nw * nh);
    for y in 0..nh {
        for x in 0..nw {
            let mut sum = [0u32; 4];
            for sy in y * ys..y * ys + ys {
                for sx in x * xs..x * xs + xs {
                    for (s, c) in sum.iter_mut().zip(px[sy * w + sx]) {
                        *s += c as u32;
                    }
                }
            }
            let n = (xs * ys) as u32;
            out.push(sum.map(|s| ((s + n / 2) / n) as u8));
        }
    }
    (nw, nh, out)
}

/// Each level-0 texel the baker fills for one of `model`'s triangles (its centre inside, or
/// within half a texel of an edge), with the chart (the triangles whose texel rectangles overlap,
/// joined) it belongs to and whether its centre is strictly inside.
fn chart_texels(model: &Model, w: usize, h: usize) -> Vec<(usize, usize, bool)> {
    let size = Vec2::new(w as f32, h as f32);
    let tris: Vec<[Vec2; 3]> = model
        .triangles
        .iter()
        .map(|t| t.uvs.map(|i| model.uvs[i as usize] * size))
        .collect();
    let rects: Vec<[i64; 4]> = tris
        .iter()
        .map(|p| {
            let lo = p[0].min(p[1]).min(p[2]).floor();
            let hi = p[0].max(p[1]).max(p[2]).ceil();
            [lo.x as i64, lo.y as i64, hi.x as i64, hi.y as i64]
        })
        .collect();
    // Union-find over overlapping rectangles (sorted by left edge, so the sweep is short).
    let mut parent: Vec<usize> = (0..rects.len()).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let mut order: Vec<usize> = (0..rects.len()).collect();
    order.sort_by_key(|&i| rects[i][0]);
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if rects[j][0] >= rects[i][2] {
                break;
            }
            let (a, b) = (rects[i], rects[j]);
            if a[1] < b[3] && b[1] < a[3] {
                let (ri, rj) = (find(&mut parent, i), find(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let mut out = Vec::new();
    for (i, p) in tris.iter().enumerate() {
        let chart = find(&mut parent, i);
        let r = rects[i];
        let area = (p[1] - p[0]).perp_dot(p[2] - p[0]);
        if area.abs() < 1e-6 {
            continue;
        }
        for y in r[1].max(0)..r[3].min(h as i64) {
            for x in r[0].max(0)..r[2].min(w as i64) {
                let c = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                let e = |a: Vec2, b: Vec2| (b - a).perp_dot(c - a) / area;
                let (b0, b1) = (e(p[1], p[2]), e(p[2], p[0]));
                let b = [b0, b1, 1.0 - b0 - b1];
                // The baker's rule: the centre within half a texel of every edge's line.
                let reach = [(p[1], p[2]), (p[2], p[0]), (p[0], p[1])]
                    .map(|(a, b)| area.abs() / (b - a).length().max(1e-6));
                if b.iter().zip(reach).all(|(b, r)| b * r >= -0.5) {
                    let strict = b.iter().all(|&b| b >= 0.0);
                    out.push((y as usize * w + x as usize, chart, strict));
                }
            }
        }
    }
    out
}

/// Texels inside a chart that some checked level shows outside the chart's own range, with the
/// worst excess over its brightest and under its darkest texel.
fn strays(model: &Model) -> (usize, usize, u8, u8) {
    let skin = &model.skins[0];
    let (w, h) = (skin.width, skin.height);
    let px: Vec<[u8; 4]> = skin
        .rgba
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    let texels = chart_texels(model, w, h);
    let mut range: HashMap<usize, ([u8; 3], [u8; 3])> = HashMap::new();
    for &(i, chart, _) in &texels {
        let r = range.entry(chart).or_insert(([255; 3], [0; 3]));
        for (ch, &c) in px[i][..3].iter().enumerate() {
            r.0[ch] = r.0[ch].min(c);
            r.1[ch] = r.1[ch].max(c);
        }
    }
    let mut levels = vec![(w, h, px)];
    for _ in 0..CHECKED_LEVELS {
        let next = halve(levels.last().unwrap());
        levels.push(next);
    }
    let (mut bright, mut dark, mut over, mut under) = (0, 0, 0u8, 0u8);
    for &(i, chart, _) in texels.iter().filter(|t| t.2) {
        let (lo, hi) = range[&chart];
        let (x, y) = (i % w, i / w);
        let (mut is_bright, mut is_dark) = (false, false);
        for (lw, lh, lpx) in &levels[1..] {
            // Where a pixel at this texel's centre samples the level.
            let lx = (((x as f32 + 0.5) / w as f32 * *lw as f32) as usize).min(lw - 1);
            let ly = (((y as f32 + 0.5) / h as f32 * *lh as f32) as usize).min(lh - 1);
            let t = lpx[ly * lw + lx];
            for ch in 0..3 {
                let up = t[ch].saturating_sub(hi[ch]);
                let down = lo[ch].saturating_sub(t[ch]);
                over = over.max(up);
                under = under.max(down);
                is_bright |= up > BOUND;
                is_dark |= down > BOUND;
            }
        }
        bright += is_bright as usize;
        dark += is_dark as usize;
    }
    (bright, dark, over, under)
}

#[test]
fn lightmap_charts_keep_their_own_light_at_every_near_mip_level() {
    let mut failures = Vec::new();
    for name in ["testlevel", "menue"] {
        let Some(file) = level(name) else {
            return;
        };
        for (page, m) in level_models(&file)
            .iter()
            .filter(|m| m.kind == SurfaceKind::Lightmapped)
            .enumerate()
        {
            let (bright, dark, over, under) = strays(&m.model);
            eprintln!(
                "{name} surface page {page}: {bright} chart texels read brighter than their chart \
                 (up to +{over}), {dark} darker (down to -{under})"
            );
            if bright > 0 || dark > 0 {
                failures.push(format!(
                    "{name} page {page}: {bright} texels brighter than their chart by up to \
                     {over}, {dark} darker by up to {under}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
