//! How each field type is shown in JSON: [`AsJson`] once per type (packed values in their units —
//! Fixed and Position in quants, angles in degrees, `Scale(x)` as 0..=x, entity scale and uv divided
//! out — printed with the shortest decimal that reads back to the same wire bits), and
//! [`JsonField`], a field's entries, which is one `key: value` except for a pair, whose two parts
//! are two keys.
//!
//! Reading refuses what does not fit, naming the message and field (`svc_update1: field `pan`:
//! 400 is outside the Angle range -360..=360`); user values round to the nearest wire value.

use modex::Fixed;

use super::{Entries, Json, Object};
use crate::codec::Key;
use crate::hex::{parse_hex, to_hex};
use crate::wire::{
    fixed_from_quants, Angle, EntityPosition, NetString, PosResolution, Position, Scale, Scaled,
    ValueError,
};

/// A type shown as one JSON value. `at` is the field's place in messages (`svc_x: field `key``).
pub(crate) trait AsJson: Sized {
    fn to_json(&self) -> Json;
    fn from_json(v: &Json, at: &str) -> Result<Self, String>;
}

/// A field's JSON entries, written and read by the message table.
pub(crate) trait JsonField: Sized {
    /// Appends the field's entries.
    fn put(&self, key: Key<'static>, out: &mut Entries);
    /// Takes the field's keys out of `obj`; `None` when absent.
    fn take(obj: &mut Object, key: Key<'static>) -> Result<Option<Self>, String>;
}

/// An entity-update family's entries: `entity`, then each field present.
pub(crate) trait JsonFamily: Sized {
    fn put(&self, out: &mut Entries);
    fn take(obj: &mut Object) -> Result<Self, String>;
}

impl<T: AsJson> JsonField for T {
    fn put(&self, key: Key<'static>, out: &mut Entries) {
        out.push((key.name, self.to_json()));
    }
    fn take(obj: &mut Object, key: Key<'static>) -> Result<Option<Self>, String> {
        let at = obj.at(key.name);
        obj.remove(key.name)
            .map(|v| T::from_json(&v, &at))
            .transpose()
    }
}

/// A pair sent together (`svc_update1`'s frame and fraction): its parts are two keys, the second
/// defaults when only the first is given, and the second alone is refused.
impl<A: AsJson, B: AsJson + Default> JsonField for (A, B) {
    fn put(&self, key: Key<'static>, out: &mut Entries) {
        out.push((key.parts[0], self.0.to_json()));
        out.push((key.parts[1], self.1.to_json()));
    }
    fn take(obj: &mut Object, key: Key<'static>) -> Result<Option<Self>, String> {
        let (first, second) = (key.parts[0], key.parts[1]);
        let a = A::take(obj, Key::element(first))?;
        let b = B::take(obj, Key::element(second))?;
        match (a, b) {
            (Some(a), b) => Ok(Some((a, b.unwrap_or_default()))),
            (None, None) => Ok(None),
            (None, Some(_)) => Err(format!(
                "{}: `{second}` is sent with `{first}` only",
                obj.name()
            )),
        }
    }
}

fn integer<T: TryFrom<i64>>(v: &Json, at: &str) -> Result<T, String> {
    let i = v
        .as_i64()
        .ok_or_else(|| format!("{at}: {v} is not an integer"))?;
    T::try_from(i).map_err(|_| format!("{at}: {i} does not fit in {}", std::any::type_name::<T>()))
}

fn number(v: &Json, at: &str) -> Result<f64, String> {
    v.as_f64()
        .ok_or_else(|| format!("{at}: {v} is not a number"))
}

/// A list of exactly N numbers (every element checked to be a number before any is converted).
fn numbers<const N: usize>(v: &Json, at: &str) -> Result<[f64; N], String> {
    let list = v
        .as_list()
        .filter(|l| l.len() == N)
        .ok_or_else(|| format!("{at}: expected a list of {N} numbers, got {v}"))?;
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(list) {
        *o = number(x, at)?;
    }
    Ok(out)
}

fn fits<T>(at: &str, r: Result<T, ValueError>) -> Result<T, String> {
    r.map_err(|e| format!("{at}: {e}"))
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl AsJson for $t {
            fn to_json(&self) -> Json {
                Json::I64(i64::from(*self))
            }
            fn from_json(v: &Json, at: &str) -> Result<Self, String> {
                integer(v, at)
            }
        }
    )*};
}

// Byte, Short, Long, and `svc_info`'s magic (a Long shown unsigned).
integers!(u8, i16, i32, u32);

/// A Float as the shortest decimal that reads back to the same f32 (1.1, not 1.100000023841858).
impl AsJson for f32 {
    fn to_json(&self) -> Json {
        Json::number(self.to_string().parse().unwrap_or(f64::NAN))
    }
    fn from_json(v: &Json, at: &str) -> Result<Self, String> {
        Ok(number(v, at)? as f32)
    }
}

/// A packed number shown in its unit.
pub(crate) trait Quantity: Sized {
    fn to_unit(&self) -> f64;
    fn from_unit(v: f64) -> Result<Self, ValueError>;
}

impl Quantity for Fixed {
    fn to_unit(&self) -> f64 {
        self.to_f64()
    }
    fn from_unit(v: f64) -> Result<Self, ValueError> {
        fixed_from_quants(v)
    }
}

impl Quantity for Position {
    fn to_unit(&self) -> f64 {
        self.quants()
    }
    fn from_unit(v: f64) -> Result<Self, ValueError> {
        Position::from_quants(v)
    }
}

impl Quantity for Angle {
    fn to_unit(&self) -> f64 {
        self.degrees()
    }
    fn from_unit(v: f64) -> Result<Self, ValueError> {
        Angle::from_degrees(v)
    }
}

impl<const X: u16> Quantity for Scale<X> {
    fn to_unit(&self) -> f64 {
        self.value()
    }
    fn from_unit(v: f64) -> Result<Self, ValueError> {
        Scale::from_value(v)
    }
}

impl<const D: u16> Quantity for Scaled<D> {
    fn to_unit(&self) -> f64 {
        self.value()
    }
    fn from_unit(v: f64) -> Result<Self, ValueError> {
        Scaled::from_value(v)
    }
}

impl<Q: Quantity> AsJson for Q {
    fn to_json(&self) -> Json {
        Json::number(self.to_unit())
    }
    fn from_json(v: &Json, at: &str) -> Result<Self, String> {
        fits(at, Q::from_unit(number(v, at)?))
    }
}

impl<Q: Quantity, const N: usize> AsJson for [Q; N] {
    fn to_json(&self) -> Json {
        Json::List(self.iter().map(AsJson::to_json).collect())
    }
    fn from_json(v: &Json, at: &str) -> Result<Self, String> {
        let units = numbers::<N>(v, at)?;
        let mut out = Vec::with_capacity(N);
        for u in units {
            out.push(fits(at, Q::from_unit(u))?);
        }
        Ok(out
            .try_into()
            .unwrap_or_else(|_| unreachable!("N values converted")))
    }
}

/// `CPosition[3]` in quants; read as Positions, the resolution the CLI and the demo use.
impl AsJson for EntityPosition {
    fn to_json(&self) -> Json {
        Json::List(self.quants().map(Json::number).to_vec())
    }
    fn from_json(v: &Json, at: &str) -> Result<Self, String> {
        let q = numbers::<3>(v, at)?;
        fits(at, EntityPosition::from_quants(q, PosResolution::Packed))
    }
}

/// `svc_var`'s values, any number of them.
impl AsJson for Vec<Fixed> {
    fn to_json(&self) -> Json {
        Json::List(self.iter().map(AsJson::to_json).collect())
    }
    fn from_json(v: &Json, at: &str) -> Result<Self, String> {
        let list = v
            .as_list()
            .ok_or_else(|| format!("{at}: {v} is not a list"))?;
        list.iter()
            .map(|x| fits(at, fixed_from_quants(number(x, at)?)))
            .collect()
    }
}

/// A String as text, each byte the Latin-1 character of the same number.
impl AsJson for NetString {
    fn to_json(&self) -> Json {
        Json::Str(self.to_latin1())
    }
    fn from_json(v: &Json, at: &str) -> Result<Self, String> {
        let s = v
            .as_str()
            .ok_or_else(|| format!("{at}: {v} is not a string"))?;
        fits(at, NetString::from_latin1(s))
    }
}

/// A user packet's bytes as hex (`"de ad"`).
impl AsJson for Vec<u8> {
    fn to_json(&self) -> Json {
        Json::Str(to_hex(self))
    }
    fn from_json(v: &Json, at: &str) -> Result<Self, String> {
        let s = v
            .as_str()
            .ok_or_else(|| format!("{at}: {v} is not a hex string"))?;
        parse_hex(s).map_err(|e| format!("{at}: {e}"))
    }
}
