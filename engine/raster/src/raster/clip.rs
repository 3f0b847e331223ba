//! Clipping in homogeneous clip space, before the divide by w: the near plane (so nothing behind the
//! eye is ever projected) and a guard band far outside the viewport (so projected coordinates stay
//! small enough for exact fixed-point edge functions). The viewport edges themselves are not clipped
//! against: the rasterizer's span bounds do that per pixel, which keeps every on-screen edge exactly
//! where the unclipped triangle had it.
//!
//! Sutherland–Hodgman, with one rule that keeps shared edges watertight: an intersection is always
//! computed from the inside vertex towards the outside one, so two triangles cutting the same edge get
//! bit-identical new vertices.

use glam::Vec4;

/// A vertex after the model-view-projection transform, with what the rasterizer interpolates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ClipVertex {
    /// Homogeneous clip-space position (glam's right-handed 0..1 depth convention).
    pub clip: Vec4,
    /// View-space distance along the camera's forward axis (what the depth buffer stores).
    pub depth: f32,
    /// Texture coordinates in texels (not normalised).
    pub u: f32,
    pub v: f32,
    /// Fixed-point intensity as a float, [`crate::LIGHT_ONE`] = 1.0.
    pub light: f32,
}

impl ClipVertex {
    #[inline]
    fn lerp(&self, to: &ClipVertex, t: f32) -> ClipVertex {
        ClipVertex {
            clip: self.clip + (to.clip - self.clip) * t,
            depth: self.depth + (to.depth - self.depth) * t,
            u: self.u + (to.u - self.u) * t,
            v: self.v + (to.v - self.v) * t,
            light: self.light + (to.light - self.light) * t,
        }
    }

    fn is_finite(&self) -> bool {
        self.clip.is_finite()
            && self.depth.is_finite()
            && self.u.is_finite()
            && self.v.is_finite()
            && self.light.is_finite()
    }
}

/// Pixels of guard band beyond each viewport edge. Projected x and y stay within
/// `-GUARD_BAND ..= size + GUARD_BAND`, which bounds the fixed-point edge functions (see `setup`).
pub const GUARD_BAND: f32 = 4096.0;

/// Most vertices a clipped triangle can have: three plus one per plane.
pub const MAX_CLIPPED: usize = 3 + 5;

/// The clip planes for one viewport size.
#[derive(Debug, Clone, Copy)]
pub struct ClipPlanes {
    gx: f32,
    gy: f32,
}

impl ClipPlanes {
    pub fn new(width: usize, height: usize) -> ClipPlanes {
        ClipPlanes {
            gx: 1.0 + 2.0 * GUARD_BAND / width.max(1) as f32,
            gy: 1.0 + 2.0 * GUARD_BAND / height.max(1) as f32,
        }
    }

    /// Signed distances to the five planes (inside >= 0): near, left, right, bottom, top guard.
    #[inline]
    fn distances(&self, c: Vec4) -> [f32; 5] {
        [
            c.z,
            self.gx * c.w + c.x,
            self.gx * c.w - c.x,
            self.gy * c.w + c.y,
            self.gy * c.w - c.y,
        ]
    }

    /// A vertex's [`ClipPlanes::outcode`], with [`NOT_FINITE`] set when its position, depth or
    /// light is not finite: computed once per model vertex in the vertex stage, so the triangle
    /// stage can accept or reject most triangles without [`clip_triangle`] (which computes the
    /// three codes per triangle, each vertex's about six times over in a closed mesh).
    #[inline]
    pub fn vertex_code(&self, c: Vec4, depth: f32, light: f32) -> u8 {
        let finite = c.is_finite() && depth.is_finite() && light.is_finite();
        self.outcode(c) | if finite { 0 } else { NOT_FINITE }
    }

    /// Bit mask of planes the vertex is outside of.
    #[inline]
    fn outcode(&self, c: Vec4) -> u8 {
        self.distances(c)
            .iter()
            .enumerate()
            .fold(0, |m, (i, &d)| if d < 0.0 { m | 1 << i } else { m })
    }
}

/// The bit of [`ClipPlanes::vertex_code`] for a vertex with a number that is not finite.
pub const NOT_FINITE: u8 = 0x80;
/// The bits of [`ClipPlanes::vertex_code`] naming planes.
pub const PLANE_BITS: u8 = 0x1f;

/// What [`clip_triangle`] answers for a triangle from its vertices' [`ClipPlanes::vertex_code`]s
/// alone, when they suffice: `Some(None)` (nothing left: all three outside one plane), `Some(Some(
/// Whole))` (inside everything and finite, given finite texture coordinates `uv_finite`), or
/// `None` (clip it).
#[inline(always)]
pub fn by_codes(codes: [u8; 3], uv_finite: bool) -> Option<Option<Clipped>> {
    let (all, any) = (
        codes[0] & codes[1] & codes[2],
        codes[0] | codes[1] | codes[2],
    );
    if all & PLANE_BITS != 0 {
        Some(None)
    } else if any == 0 && uv_finite {
        Some(Some(Clipped::Whole))
    } else {
        None
    }
}

/// A clipped polygon (convex, same winding as the input triangle).
#[derive(Debug, Clone, Copy)]
pub struct Polygon {
    pub vertices: [ClipVertex; MAX_CLIPPED],
    pub len: usize,
}

impl Polygon {
    pub fn as_slice(&self) -> &[ClipVertex] {
        &self.vertices[..self.len]
    }
}

/// What clipping left of a triangle.
// The polygon travels by value on purpose (it did as `Option<Polygon>` before): boxing it would
// allocate for every clipped triangle, and `Whole` writes no more than a tag.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Copy)]
pub enum Clipped {
    /// Inside every plane: the triangle itself, unchanged. The common case, answered without
    /// building a polygon.
    Whole,
    /// Cut by at least one plane: the convex polygon that remains.
    Cut(Polygon),
}

/// Clip a triangle. Returns `None` when nothing of it is in front of the near plane and inside the
/// guard band, or when any of its numbers is not finite (which would poison the setup).
pub fn clip_triangle(tri: &[ClipVertex; 3], planes: &ClipPlanes) -> Option<Clipped> {
    if !tri.iter().all(ClipVertex::is_finite) {
        return None;
    }
    // Indexed by hand: `array::map` copied the three vertices and was not inlined (perf: 3 % of
    // the small-triangle mesh, docs/benchmarks-history.md round 5).
    let codes = [
        planes.outcode(tri[0].clip),
        planes.outcode(tri[1].clip),
        planes.outcode(tri[2].clip),
    ];
    if codes[0] & codes[1] & codes[2] != 0 {
        // All three outside the same plane.
        return None;
    }
    if codes[0] | codes[1] | codes[2] == 0 {
        return Some(Clipped::Whole);
    }
    let mut poly = Polygon {
        vertices: [ClipVertex::default(); MAX_CLIPPED],
        len: 3,
    };
    poly.vertices[..3].copy_from_slice(tri);
    for plane in 0..5 {
        if (codes[0] | codes[1] | codes[2]) & (1 << plane) == 0 {
            continue;
        }
        let input = poly;
        poly.len = 0;
        let n = input.len;
        for i in 0..n {
            let a = &input.vertices[i];
            let b = &input.vertices[(i + 1) % n];
            let da = planes.distances(a.clip)[plane];
            let db = planes.distances(b.clip)[plane];
            if da >= 0.0 {
                push(&mut poly, *a);
            }
            if (da >= 0.0) != (db >= 0.0) {
                // From the inside vertex towards the outside one, whichever order the edge has.
                let v = if da >= 0.0 {
                    a.lerp(b, da / (da - db))
                } else {
                    b.lerp(a, db / (db - da))
                };
                push(&mut poly, v);
            }
        }
        if poly.len < 3 {
            return None;
        }
    }
    Some(Clipped::Cut(poly))
}

#[inline]
fn push(poly: &mut Polygon, v: ClipVertex) {
    // A convex polygon clipped by one plane gains at most one vertex, so this never overflows; the
    // check only guards against a float corner case producing a non-convex input.
    if poly.len < MAX_CLIPPED {
        poly.vertices[poly.len] = v;
        poly.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whenever the vertex codes answer, they answer what `clip_triangle` does: random
    /// triangles inside, across and outside the planes, some with a number that is not finite.
    #[test]
    fn codes_answer_as_clipping_does() {
        let planes = ClipPlanes::new(320, 200);
        let mut rng = modex::Rng::new(0xc11b);
        let coord = |rng: &mut modex::Rng| match rng.next_u32() % 40 {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            _ => (rng.next_u32() % 20_000) as f32 / 100.0 - 100.0,
        };
        let (mut answered, mut whole, mut rejected) = (0, 0, 0);
        for _ in 0..20_000 {
            let mut tri = [ClipVertex::default(); 3];
            for c in &mut tri {
                *c = ClipVertex {
                    clip: Vec4::new(
                        coord(&mut rng),
                        coord(&mut rng),
                        coord(&mut rng) + 70.0,
                        coord(&mut rng).abs(),
                    ),
                    depth: coord(&mut rng),
                    u: coord(&mut rng),
                    v: coord(&mut rng),
                    light: coord(&mut rng),
                };
            }
            let codes = tri.map(|c| planes.vertex_code(c.clip, c.depth, c.light));
            let uv_finite = tri.iter().all(|c| c.u.is_finite() && c.v.is_finite());
            let want = clip_triangle(&tri, &planes);
            if let Some(got) = by_codes(codes, uv_finite) {
                answered += 1;
                match (&got, &want) {
                    (None, None) => rejected += 1,
                    (Some(Clipped::Whole), Some(Clipped::Whole)) => whole += 1,
                    _ => panic!("codes {codes:?} answer {got:?}, clipping {want:?}"),
                }
            }
        }
        assert!(
            whole > 100 && rejected > 100,
            "{whole} whole, {rejected} rejected of {answered}"
        );
    }

    /// The polygon of a triangle that had to be cut.
    fn cut(c: Option<Clipped>) -> Polygon {
        match c {
            Some(Clipped::Cut(p)) => p,
            other => panic!("expected a cut polygon, got {other:?}"),
        }
    }

    fn v(x: f32, y: f32, z: f32, w: f32) -> ClipVertex {
        ClipVertex {
            clip: Vec4::new(x, y, z, w),
            ..Default::default()
        }
    }

    #[test]
    fn crossing_the_near_plane_gains_a_vertex() {
        let planes = ClipPlanes::new(320, 200);
        let p = cut(clip_triangle(
            &[
                v(0., 0., 0.5, 1.),
                v(0.5, 0., -0.5, 1.),
                v(0., 0.5, -0.5, 1.),
            ],
            &planes,
        ));
        assert_eq!(p.len, 3);
        let q = cut(clip_triangle(
            &[
                v(0., 0., -0.5, 1.),
                v(0.5, 0., 0.5, 1.),
                v(0., 0.5, 0.5, 1.),
            ],
            &planes,
        ));
        assert_eq!(q.len, 4);
        assert!(q.as_slice().iter().all(|v| v.clip.z >= -1e-6));
    }

    #[test]
    fn a_triangle_inside_every_plane_stays_whole() {
        let planes = ClipPlanes::new(320, 200);
        let tri = [v(0., 0., 0.5, 1.), v(0.5, 0., 0.5, 1.), v(0., 0.5, 0.5, 1.)];
        assert!(matches!(clip_triangle(&tri, &planes), Some(Clipped::Whole)));
    }

    #[test]
    fn behind_and_non_finite_are_dropped() {
        let planes = ClipPlanes::new(320, 200);
        assert!(clip_triangle(
            &[v(0., 0., -1., 1.), v(1., 0., -1., 1.), v(0., 1., -2., 1.)],
            &planes
        )
        .is_none());
        assert!(clip_triangle(
            &[
                v(f32::NAN, 0., 1., 1.),
                v(1., 0., 1., 1.),
                v(0., 1., 1., 1.)
            ],
            &planes
        )
        .is_none());
    }

    #[test]
    fn shared_edge_cuts_are_identical() {
        let planes = ClipPlanes::new(320, 200);
        let a = v(0.3, 0.1, 0.7, 1.0);
        let b = v(-0.2, 0.4, -0.9, 1.0);
        let c = v(0.9, 0.9, 0.5, 1.0);
        let d = v(-0.9, -0.5, 0.2, 1.0);
        let p = cut(clip_triangle(&[a, b, c], &planes));
        let q = cut(clip_triangle(&[b, a, d], &planes));
        let on_plane = |p: &Polygon| -> Vec<Vec4> {
            p.as_slice()
                .iter()
                .filter(|v| v.clip.z.abs() < 1e-6)
                .map(|v| v.clip)
                .collect()
        };
        let cut_p = on_plane(&p);
        let cut_q = on_plane(&q);
        assert!(
            cut_p.iter().any(|x| cut_q.contains(x)),
            "{cut_p:?} {cut_q:?}"
        );
    }
}
