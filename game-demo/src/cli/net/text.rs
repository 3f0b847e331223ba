//! One message as the line `modex net decode` prints without `--json`: its name, then `key=value`
//! for each field, the keys and values of its JSON object in the object's (wire) order.

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// A JSON object's keys in the order they were written (serde_json's `Value` sorts them).
struct Keys(Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((key, IgnoredAny)) = map.next_entry()? {
                    keys.push(key);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// The text line of a message. The values come from the message itself, not from its JSON text
/// read back, which could round a float differently than it was printed.
pub fn line(message: &impl Serialize) -> serde_json::Result<String> {
    let Keys(keys) = serde_json::from_str(&serde_json::to_string(message)?)?;
    let values = serde_json::to_value(message)?;
    let mut line = values["message"].as_str().unwrap_or("?").to_string();
    for k in keys.iter().filter(|k| *k != "message") {
        line.push_str(&format!(" {k}={}", values[k]));
    }
    Ok(line)
}
