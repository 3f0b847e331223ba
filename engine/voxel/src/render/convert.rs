//! Float-to-integer conversions for the voxel draw's hot loops, where the values are known to be
//! in range: one instruction each instead of Rust's saturating `as` (its NaN and range tests,
//! about six instructions, which LLVM keeps even where the value was clamped first;
//! docs/benchmarks.md, issue 43, levers 33-34). Its own module because both the splats
//! (`splat`) and the occlusion tests (`occlusion`) use it, and neither should reach into the
//! other for it.
#![allow(unsafe_code)]

/// `v` truncated towards zero as an `i32`, for a `v` that is not NaN and not above `i32::MAX`:
/// there it is `v as i32` (below `i32::MIN` both answer `i32::MIN`). On x86-64 one CVTTSS2SI.
#[inline(always)]
pub(crate) fn truncate(v: f32) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvttss_si32, _mm_set_ss};
        // SAFETY: SSE is part of x86-64's baseline: every x86-64 CPU has CVTTSS2SI.
        unsafe { _mm_cvttss_si32(_mm_set_ss(v)) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        v as i32
    }
}

#[cfg(test)]
mod tests {
    use super::truncate;

    /// `truncate` answers `as i32` for every float not above `i32::MAX` and not NaN (what its
    /// callers give it), and `i32::MIN` below: fractions, both zeros, the range's ends.
    #[test]
    fn truncate_matches_as_i32_in_range() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.999_999_9,
            -0.999_999_9,
            1e6,
            -1e6,
            16_777_217.0,
            2_147_483_520.0,
            -2_147_483_648.0,
            -3e9,
            f32::NEG_INFINITY,
            f32::MIN,
        ];
        values.extend((0..20_000).map(|i| (i as f32 - 10_000.0) * 0.173));
        values.extend((0..200).map(|i| -(1.37f32.powi(i))));
        values.extend((0..68).map(|i| 1.37f32.powi(i)));
        for v in values {
            assert_eq!(truncate(v), v as i32, "{v}");
        }
    }
}
