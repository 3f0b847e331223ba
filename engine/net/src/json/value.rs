//! [`Json`], any JSON value: what a message's entries hold on the way out, and what a message object
//! is read into on the way in (its keys may come in any order, `message` among them, so the object
//! is buffered before the name says which fields to look for).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A JSON value. Integers keep their kind apart from floats (`180` is not `180.0`), as JSON
/// readers and `modex net decode --json`'s users see them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(String),
    List(Vec<Json>),
    Map(BTreeMap<String, Json>),
}

impl Json {
    /// An integer that fits an i64 (floats are not integers, even `7.0`).
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Json::U64(u) => i64::try_from(u).ok(),
            Json::I64(i) => Some(i),
            _ => None,
        }
    }

    /// Any number.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Json::U64(u) => Some(u as f64),
            Json::I64(i) => Some(i as f64),
            Json::F64(f) => Some(f),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Json]> {
        match self {
            Json::List(l) => Some(l),
            _ => None,
        }
    }

    /// A number to show: NaN and the infinities have no JSON number, so they are `null`.
    pub fn number(v: f64) -> Json {
        if v.is_finite() {
            Json::F64(v)
        } else {
            Json::Null
        }
    }
}

impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::Str(s.to_string())
    }
}

/// Compact JSON, as error messages quote a value that does not fit (`"7" is not an integer`).
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::U64(u) => write!(f, "{u}"),
            Json::I64(i) => write!(f, "{i}"),
            // Debug is Rust's shortest round-trip form with `.0` kept, as JSON writers print.
            Json::F64(v) => write!(f, "{v:?}"),
            Json::Str(s) => quoted(f, s),
            Json::List(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Json::Map(map) => {
                f.write_str("{")?;
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    quoted(f, k)?;
                    write!(f, ":{v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// A JSON string literal: quotes, backslashes and control characters escaped.
fn quoted(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{8}' => f.write_str("\\b")?,
            '\u{c}' => f.write_str("\\f")?,
            c if c < ' ' => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_as_compact_json() {
        let map = BTreeMap::from([("b".to_string(), Json::U64(1)), ("a".into(), Json::Null)]);
        let v = Json::List(vec![
            Json::F64(7.0),
            Json::I64(-3),
            Json::from("q\"\\\n\u{1}ä"),
            Json::Map(map),
            Json::Bool(true),
        ]);
        assert_eq!(
            v.to_string(),
            r#"[7.0,-3,"q\"\\\n\u0001ä",{"a":null,"b":1},true]"#
        );
        assert_eq!(Json::number(f64::NAN), Json::Null);
    }
}
