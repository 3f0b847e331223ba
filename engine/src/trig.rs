//! Trigonometry with the same bits on every target.
//!
//! `f32::sin` and its kin call the platform's maths library: glibc's on the native binary,
//! the `libm` port inside Rust's runtime on wasm32. Both are within an ulp, but not the same
//! ulp, and a camera one ulp apart moves a triangle edge across a pixel centre: the web page's
//! level pictures then differed from `modex render`'s in a pixel or two. Every angle that
//! places a camera, a light or an entity goes through these (the `libm` crate, everywhere), and
//! glam is built with its `libm` feature for its rotations, so the page and the binary draw
//! the same picture bit for bit. None of these run per pixel.

/// Sine of `x` radians.
#[inline]
pub fn sin(x: f32) -> f32 {
    libm::sinf(x)
}

/// Cosine of `x` radians.
#[inline]
pub fn cos(x: f32) -> f32 {
    libm::cosf(x)
}

/// Tangent of `x` radians.
#[inline]
pub fn tan(x: f32) -> f32 {
    libm::tanf(x)
}

/// Arc tangent, radians.
#[inline]
pub fn atan(x: f32) -> f32 {
    libm::atanf(x)
}

/// The angle of `(x, y)` from +X, radians in `-pi..=pi` (`f32::atan2` is `y.atan2(x)`).
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}

/// Arc sine, radians.
#[inline]
pub fn asin(x: f32) -> f32 {
    libm::asinf(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agree_with_std_to_an_ulp_or_two() {
        for i in -400..=400 {
            let x = i as f32 * 0.01;
            let close = |a: f32, b: f32| (a - b).abs() <= 2.0 * f32::EPSILON * a.abs().max(1.0);
            assert!(close(sin(x), x.sin()), "sin {x}");
            assert!(close(cos(x), x.cos()), "cos {x}");
            assert!(close(atan(x), x.atan()), "atan {x}");
            assert!(close(atan2(x, 1.5), x.atan2(1.5)), "atan2 {x}");
            if x.abs() < 1.5 {
                assert!(close(tan(x), x.tan()), "tan {x}");
            }
            if x.abs() <= 1.0 {
                assert!(close(asin(x), x.asin()), "asin {x}");
            }
        }
    }
}
