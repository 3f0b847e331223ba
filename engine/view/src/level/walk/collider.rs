//! What a walker collides with: the level's block triangles and its placed entities (a model's
//! posed box as twelve triangles, terrain and nested levels by their triangles: [`Solid`]), with a
//! grid over them so a step tests only the triangles near the body.
//!
//! The grid is two-dimensional (x, y) because levels are wide and flat: a column holds every
//! storey, and a triangle's own box rejects the other storeys before any distance is computed.
//! Each triangle is listed in every cell its box overlaps. Cells are at least [`MIN_CELL`] units
//! (four body widths), larger when the level is so wide that there would be more than four cells
//! per triangle, so the grid never costs more memory than a few words per triangle plus the
//! cells its large triangles span.

use glam::{Mat4, Vec2, Vec3};
use modex_mdl::wmb::block::SKIN_PASSABLE;
use modex_mdl::wmb::{ENTITY_PASSABLE, ENTITY_POLYGON};

use super::super::{Level, Solid};

/// Smallest cell side, units.
pub const MIN_CELL: f32 = 64.0;

/// The triangles a walker collides with, and the grid that finds those near a point.
pub struct Collider {
    triangles: Vec<[Vec3; 3]>,
    /// Each triangle's box, lowest and highest corner.
    boxes: Vec<(Vec3, Vec3)>,
    bounds: Option<(Vec3, Vec3)>,
    grid: Grid,
}

/// Cells in rows of `columns`; cell `i` lists `items[starts[i]..starts[i + 1]]`.
struct Grid {
    origin: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Grid {
    /// The cell range (inclusive) covering `lo..=hi`, clamped to the grid.
    fn range(&self, lo: Vec3, hi: Vec3) -> ((usize, usize), (usize, usize)) {
        let cell = |v: f32, o: f32, n: usize| {
            (((v - o) / self.cell).floor().max(0.0) as usize).min(n.saturating_sub(1))
        };
        (
            (
                cell(lo.x, self.origin.x, self.columns),
                cell(lo.y, self.origin.y, self.rows),
            ),
            (
                cell(hi.x, self.origin.x, self.columns),
                cell(hi.y, self.origin.y, self.rows),
            ),
        )
    }
}

impl Collider {
    /// A collider of `triangles` (world units); those without an area are dropped, since they
    /// have no side to stand on or to push from.
    pub fn new(triangles: Vec<[Vec3; 3]>) -> Collider {
        let triangles: Vec<[Vec3; 3]> = triangles
            .into_iter()
            .filter(|[a, b, c]| {
                a.is_finite()
                    && b.is_finite()
                    && c.is_finite()
                    && (*b - *a).cross(*c - *a).length_squared() > 1e-8
            })
            .collect();
        let boxes: Vec<(Vec3, Vec3)> = triangles
            .iter()
            .map(|[a, b, c]| (a.min(*b).min(*c), a.max(*b).max(*c)))
            .collect();
        let bounds = boxes
            .iter()
            .copied()
            .reduce(|(lo, hi), (a, b)| (lo.min(a), hi.max(b)));
        let (lo, hi) = bounds.unwrap_or((Vec3::ZERO, Vec3::ZERO));
        let extent = (hi - lo).truncate().max(Vec2::ONE);
        let most_cells = (4 * boxes.len()).max(1024) as f32;
        let cell = MIN_CELL.max((extent.x * extent.y / most_cells).sqrt());
        let columns = (extent.x / cell).floor() as usize + 1;
        let rows = (extent.y / cell).floor() as usize + 1;
        let mut grid = Grid {
            origin: lo.truncate(),
            cell,
            columns,
            rows,
            starts: vec![0; columns * rows + 1],
            items: Vec::new(),
        };
        // Count, then place: one allocation for every list.
        for &(a, b) in &boxes {
            let ((x0, y0), (x1, y1)) = grid.range(a, b);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    grid.starts[y * columns + x + 1] += 1;
                }
            }
        }
        for i in 1..grid.starts.len() {
            grid.starts[i] += grid.starts[i - 1];
        }
        let mut next = grid.starts.clone();
        grid.items = vec![0; *grid.starts.last().unwrap_or(&0) as usize];
        for (i, &(a, b)) in boxes.iter().enumerate() {
            let ((x0, y0), (x1, y1)) = grid.range(a, b);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let slot = &mut next[y * columns + x];
                    grid.items[*slot as usize] = i as u32;
                    *slot += 1;
                }
            }
        }
        Collider {
            triangles,
            boxes,
            bounds,
            grid,
        }
    }

    /// What of `level` blocks a walker: every block triangle but those of passable skins
    /// (`SKIN_PASSABLE`; invisible `none` skins do block, as the engine's clip brushes do), and
    /// every placed entity as its file's [`Solid`] says, but passable ones (`ENTITY_PASSABLE`),
    /// and by their triangles those whose `ENTITY_POLYGON` flag is set (bestiary's rooms and
    /// corridors are models with it: their boxes would wall in the rooms), and not the
    /// player's own (its box holds the start a walk begins at).
    pub fn of_level(level: &Level) -> Collider {
        let mut triangles = Vec::new();
        for block in &level.file.blocks {
            for t in &block.triangles {
                let passable = block
                    .skins
                    .get(t.skin as usize)
                    .is_some_and(|s| s.flags & SKIN_PASSABLE != 0);
                if !passable {
                    triangles.push(t.vertices.map(|i| block.vertices[i as usize].position));
                }
            }
        }
        let blocking = level
            .placed
            .iter()
            .filter(|p| !p.player && p.flags & ENTITY_PASSABLE == 0);
        for p in blocking {
            let file = &level.files[p.file];
            let m = p.entity().matrix();
            let solid = match file.solid {
                Solid::Box if p.flags & ENTITY_POLYGON != 0 => Solid::Surface,
                s => s,
            };
            match solid {
                Solid::Box if !file.models.is_empty() => {
                    triangles.extend(box_triangles(file.lo, file.hi, &m));
                }
                Solid::Box | Solid::Nothing => {}
                Solid::Surface => {
                    for model in &file.models {
                        let Some(frame) = model.frames.first() else {
                            continue;
                        };
                        for t in &model.triangles {
                            let v = t.vertices.map(|i| frame.positions.get(i as usize).copied());
                            if let [Some(a), Some(b), Some(c)] = v {
                                triangles.push([a, b, c].map(|v| m.transform_point3(v)));
                            }
                        }
                    }
                }
            }
        }
        Collider::new(triangles)
    }

    /// How many triangles it holds.
    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    /// Whether it holds none (a walker then falls for ever; see `Walker::step`).
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Lowest and highest corner of its triangles; `None` when it has none.
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        self.bounds
    }

    /// How many triangles a body inside `lo..=hi` is tested against: what one collision test
    /// costs, whatever the size of the level.
    pub fn near_count(&self, lo: Vec3, hi: Vec3) -> usize {
        let mut out = Vec::new();
        self.near(lo, hi, &mut out);
        out.len()
    }

    /// The triangles whose box overlaps `lo..=hi`, each once, into `out` (cleared first).
    pub(super) fn near(&self, lo: Vec3, hi: Vec3, out: &mut Vec<u32>) {
        out.clear();
        if self.triangles.is_empty() {
            return;
        }
        let g = &self.grid;
        let ((x0, y0), (x1, y1)) = g.range(lo, hi);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let cell = y * g.columns + x;
                let list = &g.items[g.starts[cell] as usize..g.starts[cell + 1] as usize];
                out.extend(list.iter().copied().filter(|&i| {
                    let (a, b) = self.boxes[i as usize];
                    a.cmple(hi).all() && b.cmpge(lo).all()
                }));
            }
        }
        if (x0, y0) != (x1, y1) {
            out.sort_unstable();
            out.dedup();
        }
    }

    /// Triangle `i` of those [`Collider::near`] gave.
    pub(super) fn triangle(&self, i: u32) -> [Vec3; 3] {
        self.triangles[i as usize]
    }
}

/// The box `lo..=hi` moved by `m` as twelve triangles (two per face).
fn box_triangles(lo: Vec3, hi: Vec3, m: &Mat4) -> Vec<[Vec3; 3]> {
    let corner = |i: usize| {
        m.transform_point3(Vec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        ))
    };
    // Each face by its four corners in order around it.
    const FACES: [[usize; 4]; 6] = [
        [0, 1, 3, 2], // bottom
        [4, 5, 7, 6], // top
        [0, 1, 5, 4], // y = lo
        [2, 3, 7, 6], // y = hi
        [0, 2, 6, 4], // x = lo
        [1, 3, 7, 5], // x = hi
    ];
    FACES
        .iter()
        .flat_map(|f| {
            let [a, b, c, d] = f.map(corner);
            [[a, b, c], [a, c, d]]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A terrain of `n` x `n` cells of 32 units, two triangles each, gently rolling.
    fn terrain(n: usize) -> Vec<[Vec3; 3]> {
        let at = |x: usize, y: usize| {
            Vec3::new(
                x as f32 * 32.0,
                y as f32 * 32.0,
                ((x as f32 * 0.3).sin() + (y as f32 * 0.2).cos()) * 8.0,
            )
        };
        (0..n)
            .flat_map(|y| (0..n).map(move |x| (x, y)))
            .flat_map(|(x, y)| {
                [
                    [at(x, y), at(x + 1, y), at(x + 1, y + 1)],
                    [at(x, y), at(x + 1, y + 1), at(x, y + 1)],
                ]
            })
            .collect()
    }

    #[test]
    fn a_body_is_tested_against_few_of_a_hundred_thousand_triangles() {
        let collider = Collider::new(terrain(224));
        assert!(collider.len() >= 100_000, "{}", collider.len());
        let (lo, hi) = collider.bounds().unwrap();
        // A body's box anywhere on it, a little larger than the walker's.
        for f in [0.1f32, 0.5, 0.93] {
            let centre = lo + (hi - lo) * f;
            let half = Vec3::new(40.0, 40.0, 60.0);
            let n = collider.near_count(centre - half, centre + half);
            // 80 x 80 units span at most 4 x 4 cells of 32 units: 32 triangles, and the
            // grid's cells of 64 add their neighbours' rims.
            assert!(n > 0 && n <= 72, "{n} triangles near {centre}");
        }
        // Far from everything: none.
        let away = hi + Vec3::splat(1000.0);
        assert_eq!(collider.near_count(away, away + Vec3::ONE), 0);
    }

    #[test]
    fn every_triangle_near_a_box_is_found_once() {
        let tris = terrain(20);
        let collider = Collider::new(tris.clone());
        let (lo, hi) = (
            Vec3::new(100.0, 150.0, -50.0),
            Vec3::new(260.0, 170.0, 50.0),
        );
        let mut found = Vec::new();
        collider.near(lo, hi, &mut found);
        let expected: Vec<u32> = tris
            .iter()
            .enumerate()
            .filter(|(_, [a, b, c])| {
                a.min(*b).min(*c).cmple(hi).all() && a.max(*b).max(*c).cmpge(lo).all()
            })
            .map(|(i, _)| i as u32)
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(found, expected);
    }

    #[test]
    fn a_box_is_twelve_triangles_on_its_six_faces() {
        let m = Mat4::from_translation(Vec3::new(100.0, 0.0, 0.0));
        let tris = box_triangles(Vec3::splat(-1.0), Vec3::splat(1.0), &m);
        assert_eq!(tris.len(), 12);
        for t in &tris {
            // Every triangle lies in one face plane: one coordinate is the same at all corners.
            let same = (0..3).filter(|&k| t[0][k] == t[1][k] && t[1][k] == t[2][k]);
            assert_eq!(same.count(), 1, "{t:?}");
            assert!(t.iter().all(|v| (99.0..=101.0).contains(&v.x)));
        }
        // Degenerate triangles are dropped.
        let flat = Collider::new(vec![[Vec3::ZERO, Vec3::X, Vec3::X * 2.0]]);
        assert!(flat.is_empty() && flat.bounds().is_none());
    }
}
