//! The battlefield's terrain: value-noise heights and an 8-bit skin coloured by height and slope,
//! written as an HMP7 file by [`modex_mdl::hmp_encode`].

use glam::Vec3;
use modex_mdl::hmp_encode::HmpSpec;

use modex::Rng;

/// Grid points per side.
pub const GRID: usize = 33;
/// World units between grid points.
pub const CELL: f32 = 16.0;
/// World size of the terrain along x and y.
pub const SIZE: f32 = (GRID - 1) as f32 * CELL;
/// Skin size in pixels.
pub const SKIN: usize = 128;

/// Smooth value noise in 0..1 on a lattice of `cells` per side, seeded.
struct ValueNoise {
    cells: usize,
    lattice: Vec<f32>,
}

impl ValueNoise {
    fn new(cells: usize, rng: &mut Rng) -> ValueNoise {
        let n = cells + 1;
        ValueNoise {
            cells,
            lattice: (0..n * n).map(|_| rng.unit()).collect(),
        }
    }

    /// Noise at (u, v) in 0..1.
    fn at(&self, u: f32, v: f32) -> f32 {
        let n = self.cells + 1;
        let (x, y) = (
            u.clamp(0.0, 1.0) * self.cells as f32,
            v.clamp(0.0, 1.0) * self.cells as f32,
        );
        let (x0, y0) = (
            (x as usize).min(self.cells - 1),
            (y as usize).min(self.cells - 1),
        );
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let s = |t: f32| t * t * (3.0 - 2.0 * t);
        let l = |c: usize, r: usize| self.lattice[r * n + c];
        let top = l(x0, y0) + (l(x0 + 1, y0) - l(x0, y0)) * s(fx);
        let bottom = l(x0, y0 + 1) + (l(x0 + 1, y0 + 1) - l(x0, y0 + 1)) * s(fx);
        top + (bottom - top) * s(fy)
    }
}

/// The generated terrain.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrainSpec {
    /// The HMP the generator writes.
    pub hmp: HmpSpec,
}

impl TerrainSpec {
    /// Heights from three octaves of value noise, flattened towards the middle where the units drive.
    pub fn generate(seed: u64) -> TerrainSpec {
        let mut rng = Rng::new(seed);
        let octaves = [
            (ValueNoise::new(3, &mut rng), 40.0),
            (ValueNoise::new(7, &mut rng), 14.0),
            (ValueNoise::new(15, &mut rng), 4.0),
        ];
        let mut heights = Vec::with_capacity(GRID * GRID);
        for row in 0..GRID {
            for col in 0..GRID {
                let (u, v) = (
                    col as f32 / (GRID - 1) as f32,
                    row as f32 / (GRID - 1) as f32,
                );
                let h: f32 = octaves.iter().map(|(n, a)| n.at(u, v) * a).sum();
                // Rims rise, the centre stays drivable.
                let r = ((u - 0.5).powi(2) + (v - 0.5).powi(2)).sqrt() * 2.0;
                heights.push(h * (0.35 + 0.65 * r.min(1.0)) + 30.0 * (r - 0.8).max(0.0));
            }
        }
        let mut hmp = HmpSpec {
            columns: GRID,
            rows: GRID,
            heights,
            cell: [CELL, CELL],
            origin: [-SIZE / 2.0, -SIZE / 2.0],
            skin_width: SKIN as u32,
            skin_height: SKIN as u32,
            skin: Vec::new(),
        };
        hmp.skin = paint_skin(&hmp, &mut rng);
        TerrainSpec { hmp }
    }
}

/// Quake palette ranges used for the ground.
const GRASS: u8 = 176; // 176..=183 greenish, light to dark
const DIRT: u8 = 16; // 16..=31 browns, dark to light
const ROCK: u8 = 3; // 3..=10 greys

/// Colour each skin pixel by the terrain under it: grass on gentle slopes, dirt lower down and on
/// steeper ground, rock on the steepest, with a little noise so it does not band.
fn paint_skin(hmp: &HmpSpec, rng: &mut Rng) -> Vec<u8> {
    let mut skin = Vec::with_capacity(SKIN * SKIN);
    let lo = hmp.heights.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = hmp
        .heights
        .iter()
        .copied()
        .fold(f32::NEG_INFINITY, f32::max);
    for y in 0..SKIN {
        for x in 0..SKIN {
            // The skin spans the grid corner to corner (HMP UV rule: u = col / (columns - 1)).
            let col = (x as f32 + 0.5) / SKIN as f32 * (GRID - 1) as f32;
            let row = (y as f32 + 0.5) / SKIN as f32 * (GRID - 1) as f32;
            let n = hmp.normal(col.round() as usize, row.round() as usize);
            let h = (hmp.heights[row.round() as usize * GRID + col.round() as usize] - lo)
                / (hi - lo).max(1e-3);
            let jitter = rng.unit();
            let steep = 1.0 - n.z;
            let c = if steep > 0.22 + jitter * 0.05 {
                ROCK + (h * 5.0 + jitter * 3.0) as u8
            } else if h < 0.18 + jitter * 0.08 || steep > 0.12 {
                DIRT + 4 + ((1.0 - steep) * 6.0 + jitter * 3.0) as u8
            } else {
                GRASS + (3.0 - h * 3.0 + jitter * 3.0).clamp(0.0, 6.0) as u8
            };
            skin.push(c);
        }
    }
    skin
}

/// Height of the terrain at world (x, y), bilinear between grid points (clamped at the edges).
pub fn height_at(heights: &[Vec3], x: f32, y: f32) -> f32 {
    let gx = ((x + SIZE / 2.0) / CELL).clamp(0.0, (GRID - 1) as f32 - 1e-3);
    let gy = ((y + SIZE / 2.0) / CELL).clamp(0.0, (GRID - 1) as f32 - 1e-3);
    let (c, r) = (gx as usize, gy as usize);
    let (fx, fy) = (gx - c as f32, gy - r as f32);
    let h = |c: usize, r: usize| heights[r * GRID + c].z;
    let top = h(c, r) + (h(c + 1, r) - h(c, r)) * fx;
    let bottom = h(c, r + 1) + (h(c + 1, r + 1) - h(c, r + 1)) * fx;
    top + (bottom - top) * fy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_uses_the_ground_colours() {
        let a = TerrainSpec::generate(1);
        assert_eq!(a, TerrainSpec::generate(1));
        assert_ne!(a, TerrainSpec::generate(2));
        let used: std::collections::BTreeSet<u8> = a.hmp.skin.iter().copied().collect();
        assert!(used.iter().any(|&c| (GRASS..GRASS + 8).contains(&c)));
        assert!(used.len() > 6);
    }

    #[test]
    fn height_sampling_matches_grid_points() {
        let t = TerrainSpec::generate(3);
        let pts: Vec<Vec3> = (0..GRID * GRID)
            .map(|i| {
                let (c, r) = (i % GRID, i / GRID);
                Vec3::new(
                    -SIZE / 2.0 + c as f32 * CELL,
                    -SIZE / 2.0 + r as f32 * CELL,
                    t.hmp.heights[i],
                )
            })
            .collect();
        for i in [0, 5, GRID + 7, GRID * GRID - GRID - 2] {
            assert!((height_at(&pts, pts[i].x, pts[i].y) - pts[i].z).abs() < 1e-3);
        }
        // Halfway between two points is their mean.
        let mid = height_at(&pts, (pts[0].x + pts[1].x) / 2.0, pts[0].y);
        assert!((mid - (pts[0].z + pts[1].z) / 2.0).abs() < 1e-3);
    }
}
