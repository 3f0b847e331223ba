//! The packed value types of the A5 protocol, each holding exactly its wire bits.
//!
//! Every type stores the raw integer that travels on the wire, never a float, so decode → encode
//! gives back the same bytes. Conversions from user values (quants, degrees, fractions) round to the
//! nearest representable value and refuse what does not fit: a position beyond the 24-bit range is
//! a [`ValueError`], never a silent wrap.
//!
//! Byte order: every multi-byte value is little-endian, as the manual's own worked example is (the
//! manual calls this "Big Endian (Intel order)", which contradicts itself) — except [`Angle`], see
//! there.

use std::fmt;

use modex::Fixed;

/// A value that cannot be represented in its wire type.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// Outside the range the packed type can hold.
    #[error("{value} is outside the {kind} range {min}..={max}")]
    OutOfRange {
        /// The wire type, e.g. `"Position"`.
        kind: &'static str,
        /// The value given.
        value: f64,
        /// Smallest representable value.
        min: f64,
        /// Largest representable value.
        max: f64,
    },
    /// NaN or infinity.
    #[error("{value} is not a finite number ({kind})")]
    NotFinite {
        /// The wire type.
        kind: &'static str,
        /// The value given.
        value: f64,
    },
    /// A String argument may not contain the NUL byte that ends it on the wire.
    #[error("string contains a NUL byte at index {index}")]
    Nul {
        /// Index of the NUL in the string's bytes.
        index: usize,
    },
    /// Wire strings are bytes; this crate maps them to text as Latin-1, so only U+0000..U+00FF fit.
    #[error("character {ch:?} is not in Latin-1 (wire strings are single bytes)")]
    NotLatin1 {
        /// The character that does not fit.
        ch: char,
    },
}

fn finite(kind: &'static str, value: f64) -> Result<f64, ValueError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ValueError::NotFinite { kind, value })
    }
}

/// `value * scale` rounded to the nearest integer in `min..=max` (raw units), else an error stated in
/// user units.
fn quantize(
    kind: &'static str,
    value: f64,
    scale: f64,
    min: i64,
    max: i64,
) -> Result<i64, ValueError> {
    let raw = (finite(kind, value)? * scale).round();
    if raw < min as f64 || raw > max as f64 {
        return Err(ValueError::OutOfRange {
            kind,
            value,
            min: min as f64 / scale,
            max: max as f64 / scale,
        });
    }
    Ok(raw as i64)
}

/// Raw units of a [`Position`] per quant: Position = Fixed / 8, and Fixed has 1024 per quant.
pub const POSITION_UNITS_PER_QUANT: i32 = 128;

/// A coordinate packed in three bytes: a signed 24-bit value in 1/128 quant (the manual: "a
/// coordinate packed in three bytes by dividing it by 8", i.e. the 22.10 Fixed shifted right by 3).
/// Range −65536 ..= 65535.99 quants. The manual does not say whether it is signed; level coordinates
/// are, so it is read as two's complement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Position(i32);

impl Position {
    /// Smallest raw value (−2^23).
    pub const MIN_RAW: i32 = -(1 << 23);
    /// Largest raw value (2^23 − 1).
    pub const MAX_RAW: i32 = (1 << 23) - 1;

    /// From raw 24-bit units; out of range is an error.
    pub fn from_raw(raw: i32) -> Result<Position, ValueError> {
        if (Self::MIN_RAW..=Self::MAX_RAW).contains(&raw) {
            Ok(Position(raw))
        } else {
            Err(ValueError::OutOfRange {
                kind: "Position",
                value: raw as f64 / POSITION_UNITS_PER_QUANT as f64,
                min: Self::MIN_RAW as f64 / POSITION_UNITS_PER_QUANT as f64,
                max: Self::MAX_RAW as f64 / POSITION_UNITS_PER_QUANT as f64,
            })
        }
    }

    /// From quants, rounded to the nearest 1/128.
    pub fn from_quants(q: f64) -> Result<Position, ValueError> {
        let raw = quantize(
            "Position",
            q,
            POSITION_UNITS_PER_QUANT as f64,
            Self::MIN_RAW as i64,
            Self::MAX_RAW as i64,
        )?;
        Ok(Position(raw as i32))
    }

    /// Raw wire units (1/128 quant).
    pub fn raw(self) -> i32 {
        self.0
    }

    /// The coordinate in quants (exact: a multiple of 1/128).
    pub fn quants(self) -> f64 {
        self.0 as f64 / POSITION_UNITS_PER_QUANT as f64
    }

    /// The three wire bytes, little-endian.
    pub fn to_bytes(self) -> [u8; 3] {
        let b = self.0.to_le_bytes();
        [b[0], b[1], b[2]]
    }

    /// From the three wire bytes, sign-extended.
    pub fn from_bytes(b: [u8; 3]) -> Position {
        // Put the 24 bits in the top of an i32 and shift back arithmetically to sign-extend.
        Position(i32::from_le_bytes([0, b[0], b[1], b[2]]) >> 8)
    }
}

/// A 22.10 Fixed from quants, rounded to the nearest 1/1024; beyond the i32 range is an error.
/// (The SDK's `FLOAT2FIX` truncates; for values typed by a user, nearest is what they mean, and any
/// value decoded from the wire is a multiple of 1/1024 so both give the same bits.)
pub fn fixed_from_quants(q: f64) -> Result<Fixed, ValueError> {
    let raw = quantize(
        "Fixed",
        q,
        modex::fixed::ONE as f64,
        i32::MIN as i64,
        i32::MAX as i64,
    )?;
    Ok(Fixed(raw as i32))
}

/// An angle in 1/65536 turn.
///
/// The manual defines Angle as a Short "to be multiplied by 360.0/65535.0". Its worked example
/// (entity 7 at (1, 2, 3) with pan 180 degrees) sends the pan as `80 00`, which is 180 degrees only
/// when read **big-endian** (0x8000; little-endian would be 0x0080 = 0.7 degrees) and scaled by
/// 360/65536 (which makes 0x8000 exactly half a turn). So Angle is the one big-endian type of this
/// codec, in 1/65536 turn: that is what the only recorded bytes say. Degrees are reported in
/// 0 ..= 359.99 (the bits read as unsigned; as a signed Short 0x8000 would be −180, the same
/// direction).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Angle(pub u16);

impl Angle {
    /// Degrees per raw unit.
    pub const DEGREES_PER_UNIT: f64 = 360.0 / 65536.0;

    /// From degrees in −360 ..= 360, rounded to the nearest 1/65536 turn (360 and −360 are 0).
    pub fn from_degrees(deg: f64) -> Result<Angle, ValueError> {
        let raw = quantize("Angle", deg, 1.0 / Self::DEGREES_PER_UNIT, -65536, 65536)?;
        Ok(Angle(raw.rem_euclid(65536) as u16))
    }

    /// The angle in degrees, 0 ..< 360 (exact: a multiple of 360/65536).
    pub fn degrees(self) -> f64 {
        self.0 as f64 * Self::DEGREES_PER_UNIT
    }

    /// Wire bytes (big-endian, see the type's docs).
    pub fn to_bytes(self) -> [u8; 2] {
        self.0.to_be_bytes()
    }

    /// From wire bytes (big-endian).
    pub fn from_bytes(b: [u8; 2]) -> Angle {
        Angle(u16::from_be_bytes(b))
    }
}

/// `Scale(x)`: one byte standing for `byte * x / 255`, so 0 ..= x in 256 steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Scale<const X: u16>(pub u8);

impl<const X: u16> Scale<X> {
    /// From a value in 0 ..= X, rounded to the nearest step.
    pub fn from_value(v: f64) -> Result<Scale<X>, ValueError> {
        let raw = quantize("Scale", v, 255.0 / X as f64, 0, 255)?;
        Ok(Scale(raw as u8))
    }

    /// The value, `byte * X / 255`.
    pub fn value(self) -> f64 {
        self.0 as f64 * X as f64 / 255.0
    }
}

/// A Short standing for `short / D`: the entity scale (`Short[3]`, "x 0.25", D = 4) and the texture
/// offsets (`Short u, v (/16)`, D = 16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Scaled<const D: u16>(pub i16);

impl<const D: u16> Scaled<D> {
    /// From a value, rounded to the nearest 1/D; beyond the Short range is an error.
    pub fn from_value(v: f64) -> Result<Scaled<D>, ValueError> {
        let raw = quantize("Short", v, D as f64, i16::MIN as i64, i16::MAX as i64)?;
        Ok(Scaled(raw as i16))
    }

    /// The value, `short / D` (exact).
    pub fn value(self) -> f64 {
        self.0 as f64 / D as f64
    }
}

/// A NUL-terminated String argument: bytes without a NUL. The wire has no character set; this crate
/// shows the bytes as Latin-1 (each byte is the code point of the same number), which maps every byte
/// string to text and back without loss.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct NetString(Vec<u8>);

impl NetString {
    /// From bytes; a NUL inside is an error (it would end the string early on the wire).
    pub fn new(bytes: impl Into<Vec<u8>>) -> Result<NetString, ValueError> {
        let bytes = bytes.into();
        if let Some(index) = bytes.iter().position(|&b| b == 0) {
            return Err(ValueError::Nul { index });
        }
        Ok(NetString(bytes))
    }

    /// Bytes the decoder cut at the first NUL, so they hold none.
    pub(crate) fn from_wire(bytes: Vec<u8>) -> NetString {
        debug_assert!(!bytes.contains(&0));
        NetString(bytes)
    }

    /// From text in Latin-1 (U+0001 ..= U+00FF).
    pub fn from_latin1(s: &str) -> Result<NetString, ValueError> {
        let bytes = s
            .chars()
            .map(|ch| u8::try_from(u32::from(ch)).map_err(|_| ValueError::NotLatin1 { ch }))
            .collect::<Result<Vec<u8>, _>>()?;
        NetString::new(bytes)
    }

    /// The bytes (without the terminating NUL).
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The bytes as Latin-1 text.
    pub fn to_latin1(&self) -> String {
        self.0.iter().map(|&b| char::from(b)).collect()
    }
}

impl fmt::Debug for NetString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_latin1())
    }
}

impl fmt::Display for NetString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_latin1())
    }
}

/// Which type `CPosition` is: the manual says "either Position or Fixed, depending on the
/// pos_resolution variable", a session setting that is not on the wire, so the decoder is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PosResolution {
    /// 24-bit [`Position`]s (3 bytes per coordinate), the default.
    #[default]
    Packed,
    /// 22.10 [`Fixed`] (4 bytes per coordinate).
    Fixed,
}

/// The three coordinates of an entity update (`CPosition[3]`), in whichever type the session uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntityPosition {
    /// Three 24-bit Positions.
    Packed([Position; 3]),
    /// Three Fixed values.
    Fixed([Fixed; 3]),
}

impl EntityPosition {
    /// The coordinates in quants.
    pub fn quants(&self) -> [f64; 3] {
        match self {
            EntityPosition::Packed(p) => p.map(Position::quants),
            EntityPosition::Fixed(p) => p.map(Fixed::to_f64),
        }
    }

    /// From quants in the type of `resolution`.
    pub fn from_quants(
        q: [f64; 3],
        resolution: PosResolution,
    ) -> Result<EntityPosition, ValueError> {
        Ok(match resolution {
            PosResolution::Packed => EntityPosition::Packed([
                Position::from_quants(q[0])?,
                Position::from_quants(q[1])?,
                Position::from_quants(q[2])?,
            ]),
            PosResolution::Fixed => EntityPosition::Fixed([
                fixed_from_quants(q[0])?,
                fixed_from_quants(q[1])?,
                fixed_from_quants(q[2])?,
            ]),
        })
    }

    /// Which resolution this is.
    pub fn resolution(&self) -> PosResolution {
        match self {
            EntityPosition::Packed(_) => PosResolution::Packed,
            EntityPosition::Fixed(_) => PosResolution::Fixed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_is_signed_24_bit_little_endian() {
        assert_eq!(Position::from_bytes([0x80, 0, 0]).quants(), 1.0);
        assert_eq!(Position::from_bytes([0xff, 0xff, 0xff]).raw(), -1);
        assert_eq!(
            Position::from_quants(-2.0).unwrap().to_bytes(),
            [0x00, 0xff, 0xff]
        );
        assert_eq!(
            Position::from_quants(65535.99).unwrap().raw(),
            Position::MAX_RAW
        );
        assert!(Position::from_quants(65536.0).is_err());
        assert!(Position::from_quants(-65536.0).is_ok());
        assert!(Position::from_quants(-65536.01).is_err());
        assert!(Position::from_raw(1 << 23).is_err());
        assert!(Position::from_quants(f64::NAN).is_err());
    }

    #[test]
    fn angle_is_big_endian_half_turn() {
        assert_eq!(Angle::from_bytes([0x80, 0x00]).degrees(), 180.0);
        assert_eq!(Angle::from_degrees(-90.0).unwrap().degrees(), 270.0);
        assert_eq!(Angle::from_degrees(360.0).unwrap(), Angle(0));
        assert!(Angle::from_degrees(361.0).is_err());
    }

    #[test]
    fn scales_and_shorts() {
        assert_eq!(Scale::<100>(255).value(), 100.0);
        assert_eq!(Scale::<2000>::from_value(2000.0).unwrap(), Scale(255));
        assert!(Scale::<100>::from_value(100.5).is_err());
        assert!(Scale::<1>::from_value(-0.1).is_err());
        assert_eq!(Scaled::<16>(-8).value(), -0.5);
        assert_eq!(Scaled::<4>::from_value(1.0).unwrap(), Scaled(4));
        assert!(Scaled::<4>::from_value(8192.0).is_err());
    }

    #[test]
    fn strings_refuse_nul_and_wide_characters() {
        assert_eq!(
            NetString::new(b"a\0b".to_vec()),
            Err(ValueError::Nul { index: 1 })
        );
        assert!(NetString::from_latin1("tank€").is_err());
        let s = NetString::new(vec![b'x', 0xe4]).unwrap();
        assert_eq!(s.to_latin1(), "xä");
        assert_eq!(NetString::from_latin1("xä").unwrap(), s);
    }
}
