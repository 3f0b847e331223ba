//! Float rounding without libm calls.
//!
//! The baseline x86-64 target has no rounding instruction (`roundss` is SSE4.1), so `f32::floor`
//! compiles to a call into libm. The renderers floor a few times per ray and per triangle, where
//! that call showed in profiles; these use a truncating conversion and a compare instead and give
//! the same results as `floor` for every input.

/// `x.floor() as i32`: saturating at the `i32` range like `as`, NaN giving 0.
#[inline(always)]
pub fn floor_i32(x: f32) -> i32 {
    let t = x as i32;
    t.saturating_sub((x < t as f32) as i32)
}

/// `x.floor()`: values of 2^31 and more in size are whole already and come back unchanged, as do
/// infinities and NaN.
#[inline(always)]
pub fn floor_f32(x: f32) -> f32 {
    if x.abs() < 2_147_483_648.0 {
        floor_i32(x) as f32
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_as_libm_floor() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            2.999_999_8,
            -2.999_999_8,
            8_388_607.5,
            -8_388_607.5,
            16_777_217.0,
            2_147_483_520.0,
            -2_147_483_648.0,
            3.0e9,
            -3.0e9,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let mut x = 0x2545_f491u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            values.push(f32::from_bits(x));
        }
        for v in values {
            let f = v.floor();
            if v.is_nan() {
                assert!(floor_f32(v).is_nan());
                assert_eq!(floor_i32(v), 0);
                continue;
            }
            // Equal as numbers: -0.0 floors to +0.0 here, which compares equal.
            assert_eq!(floor_f32(v), f, "{v}");
            assert_eq!(floor_i32(v), f as i32, "{v}");
        }
    }
}
