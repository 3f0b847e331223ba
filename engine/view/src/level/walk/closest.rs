//! The closest points between a segment (the walker's body axis) and a triangle, the one distance
//! the walker's collision needs. Formulas from Ericson, *Real-Time Collision Detection* (2005),
//! 5.1.5 (point and triangle) and 5.1.9 (two segments).

use glam::Vec3;

/// Below this squared length a segment is taken as a point.
const TINY: f32 = 1e-12;

/// The point of triangle `t` nearest to `p`. `t` must have an area (the collider drops the
/// triangles that have none).
pub fn point_triangle(p: Vec3, [a, b, c]: [Vec3; 3]) -> Vec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The closest points of segments `p1..q1` and `p2..q2`, in that order.
pub fn segment_segment(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (Vec3, Vec3) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    if a <= TINY && e <= TINY {
        return (p1, p2);
    }
    let (s, t) = if a <= TINY {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= TINY {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let s = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t = (b * s + f) / e;
            if t < 0.0 {
                ((-c / a).clamp(0.0, 1.0), 0.0)
            } else if t > 1.0 {
                (((b - c) / a).clamp(0.0, 1.0), 1.0)
            } else {
                (s, t)
            }
        }
    };
    (p1 + d1 * s, p2 + d2 * t)
}

/// The closest points of segment `p..q` and triangle `t`: on the segment, then on the triangle.
/// Where the segment passes through the triangle both are the crossing point. Otherwise the
/// nearest pair has an end of the segment or a point of an edge of the triangle in it, so the
/// two ends and the three edges are all that is compared.
pub fn segment_triangle(p: Vec3, q: Vec3, t: [Vec3; 3]) -> (Vec3, Vec3) {
    let [a, b, c] = t;
    let n = (b - a).cross(c - a);
    let (dp, dq) = (n.dot(p - a), n.dot(q - a));
    // The ends on either side of its plane (a segment in the plane is left to the edges).
    if (dp <= 0.0) != (dq <= 0.0) && dp != dq {
        let x = p + (q - p) * (dp / (dp - dq));
        if (point_triangle(x, t) - x).length_squared() < 1e-8 {
            return (x, x);
        }
    }
    let mut best = (p, point_triangle(p, t));
    let mut keep = |pair: (Vec3, Vec3)| {
        if pair.0.distance_squared(pair.1) < best.0.distance_squared(best.1) {
            best = pair;
        }
    };
    keep((q, point_triangle(q, t)));
    for (e0, e1) in [(a, b), (b, c), (c, a)] {
        keep(segment_segment(p, q, e0, e1));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLOOR: [Vec3; 3] = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(10.0, 0.0, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
    ];

    fn near(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn points_above_inside_and_beside_the_triangle() {
        let above = point_triangle(Vec3::new(2.0, 2.0, 5.0), FLOOR);
        assert!(near(above, Vec3::new(2.0, 2.0, 0.0)), "{above}");
        assert_eq!(point_triangle(Vec3::new(-3.0, -3.0, 1.0), FLOOR), FLOOR[0]);
        let edge = point_triangle(Vec3::new(10.0, 10.0, 0.0), FLOOR);
        assert!(near(edge, Vec3::new(5.0, 5.0, 0.0)), "{edge}");
    }

    #[test]
    fn segments_crossing_parallel_and_apart() {
        let (a, b) = segment_segment(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, -1.0, 2.0),
            Vec3::new(0.0, 1.0, 2.0),
        );
        assert_eq!((a, b), (Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0)));
        // Parallel: any pair at the shortest distance.
        let (a, b) = segment_segment(Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Y + Vec3::X);
        assert!((a.distance(b) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_body_axis_against_a_floor_and_a_wall() {
        // Standing above the floor: the lower end is nearest.
        let (s, t) = segment_triangle(Vec3::new(2.0, 2.0, 3.0), Vec3::new(2.0, 2.0, 9.0), FLOOR);
        assert!(near(s, Vec3::new(2.0, 2.0, 3.0)) && near(t, Vec3::new(2.0, 2.0, 0.0)));
        // Through it: one point.
        let (s, t) = segment_triangle(Vec3::new(2.0, 2.0, -3.0), Vec3::new(2.0, 2.0, 9.0), FLOOR);
        assert_eq!(s, t);
        assert!(near(s, Vec3::new(2.0, 2.0, 0.0)), "{s}");
        // Beside a wall in the x = 0 plane, level with its middle: a horizontal gap.
        let wall = [
            Vec3::new(0.0, -10.0, 0.0),
            Vec3::new(0.0, 10.0, 0.0),
            Vec3::new(0.0, 0.0, 20.0),
        ];
        let (s, t) = segment_triangle(Vec3::new(-4.0, 0.0, 2.0), Vec3::new(-4.0, 0.0, 8.0), wall);
        assert!(
            (s - t - Vec3::new(-4.0, 0.0, 0.0)).length() < 1e-5,
            "{s} {t}"
        );
    }
}
