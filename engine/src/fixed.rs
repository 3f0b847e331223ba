//! 22.10 fixed point, the number type of the Acknex A5 script interface (`fixed` in the SDK).
//!
//! The conversions mirror the SDK's macros exactly, including their rounding, so values exchanged with
//! A5 plugins and client/server messages survive bit for bit:
//! `INT2FIX(i) = i << 10`, `FIX2INT(x) = x >> 10` (arithmetic shift: rounds toward minus infinity),
//! `FIX2FLOAT(x) = x / 1024.0`, `FLOAT2FIX(f) = (fixed)(f * 1024)` (C cast: truncates toward zero).

use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};

/// Number of fraction bits.
pub const FRAC_BITS: u32 = 10;
/// The value 1.0 in raw units.
pub const ONE: i32 = 1 << FRAC_BITS;

/// A 22.10 fixed-point number; the raw `i32` is what travels in files and messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Fixed(pub i32);

impl Fixed {
    /// 0.0
    pub const ZERO: Fixed = Fixed(0);
    /// 1.0 (1024 in 22.10).
    pub const ONE: Fixed = Fixed(ONE);

    /// `INT2FIX`. Wraps like the C macro for integers beyond the 22-bit range.
    pub const fn from_int(i: i32) -> Fixed {
        Fixed(i.wrapping_shl(FRAC_BITS))
    }

    /// `FIX2INT`: arithmetic shift, so -0.5 becomes -1 as in the SDK.
    pub const fn to_int(self) -> i32 {
        self.0 >> FRAC_BITS
    }

    /// `FIX2FLOAT`.
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / ONE as f64
    }

    /// `FIX2FLOAT` narrowed to `f32`.
    pub fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }

    /// `FLOAT2FIX`: truncates toward zero like a C cast; saturates instead of UB out of range.
    pub fn from_f64(f: f64) -> Fixed {
        Fixed((f * ONE as f64) as i32)
    }

    /// `FLOAT2FIX` for `f32`.
    pub fn from_f32(f: f32) -> Fixed {
        Self::from_f64(f as f64)
    }

    /// Raw 22.10 bits.
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// Quotient, `None` when dividing by zero.
    pub fn checked_div(self, rhs: Fixed) -> Option<Fixed> {
        if rhs.0 == 0 {
            return None;
        }
        Some(Fixed(
            (((self.0 as i64) << FRAC_BITS) / rhs.0 as i64) as i32,
        ))
    }
}

impl Add for Fixed {
    type Output = Fixed;
    fn add(self, rhs: Fixed) -> Fixed {
        Fixed(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for Fixed {
    type Output = Fixed;
    fn sub(self, rhs: Fixed) -> Fixed {
        Fixed(self.0.wrapping_sub(rhs.0))
    }
}

impl Mul for Fixed {
    type Output = Fixed;
    /// Product with the full 64-bit intermediate, truncated toward minus infinity.
    fn mul(self, rhs: Fixed) -> Fixed {
        Fixed(((self.0 as i64 * rhs.0 as i64) >> FRAC_BITS) as i32)
    }
}

impl Neg for Fixed {
    type Output = Fixed;
    fn neg(self) -> Fixed {
        Fixed(self.0.wrapping_neg())
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sdk_macros() {
        assert_eq!(Fixed::from_int(3).raw(), 3072);
        assert_eq!(Fixed(3072 + 1023).to_int(), 3);
        // FIX2INT is an arithmetic shift: -0.5 -> -1.
        assert_eq!(Fixed(-512).to_int(), -1);
        assert_eq!(Fixed(1536).to_f64(), 1.5);
        // FLOAT2FIX truncates toward zero.
        assert_eq!(Fixed::from_f64(1000.0).raw(), 1_024_000);
        assert_eq!(Fixed::from_f64(0.0009).raw(), 0);
        assert_eq!(Fixed::from_f64(-0.0019).raw(), -1);
        assert_eq!(Fixed::from_f32(180.0).raw(), 180 * 1024);
    }

    #[test]
    fn arithmetic() {
        let a = Fixed::from_f64(2.5);
        let b = Fixed::from_f64(-1.25);
        assert_eq!((a + b).to_f64(), 1.25);
        assert_eq!((a - b).to_f64(), 3.75);
        assert_eq!((a * b).to_f64(), -3.125);
        assert_eq!(a.checked_div(b).unwrap().to_f64(), -2.0);
        assert_eq!(a.checked_div(Fixed::ZERO), None);
        assert_eq!((-a).to_f64(), -2.5);
    }

    proptest! {
        #[test]
        fn float_round_trip_is_exact(raw in any::<i32>()) {
            let x = Fixed(raw);
            prop_assert_eq!(Fixed::from_f64(x.to_f64()), x);
        }

        #[test]
        fn int_round_trip(i in -(1i32 << 21)..(1i32 << 21)) {
            prop_assert_eq!(Fixed::from_int(i).to_int(), i);
        }
    }
}
