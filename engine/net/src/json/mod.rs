//! The messages as JSON objects (the `serde` feature): what `modex net decode --json` prints and
//! `modex net encode` reads.
//!
//! One object per message: `"message"` (the lower-case name, `"user"` for user packets), then the
//! fields under the keys of the message table (`message.rs`), in the table's order, which is the
//! order they have on the wire. Input may give the keys in any order; a key the message does not
//! have is refused (a typo must not vanish), as is a value that does not fit, naming the message and
//! the field. How each field type is shown is [`field`]'s.
//!
//! `Deserialize` reads any self-describing format (it buffers the object: the name that says which
//! fields to look for may come last). Errors are the format's `custom` errors with this module's
//! messages, e.g. `svc_remove: field `index`: 40000 does not fit in i16`.

mod field;
mod value;

use std::collections::BTreeMap;

use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub(crate) use field::{JsonFamily, JsonField};
pub(crate) use value::Json;

use crate::codec::Key;
use crate::message::{ClientMessage, ServerMessage};

/// A message's JSON entries in order.
pub(crate) type Entries = Vec<(&'static str, Json)>;

/// A message of either direction, for JSON whose `message` name says which: `svc_*` are the
/// server's, `cls_*` a client's, and `user` (the same bytes both ways) is read as the server's.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyMessage {
    /// Sent by the server.
    Server(ServerMessage),
    /// Sent by a client.
    Client(ClientMessage),
}

/// A JSON object being read into a message: its name, and the keys not taken yet.
pub(crate) struct Object {
    name: String,
    map: BTreeMap<String, Json>,
}

impl Object {
    fn new(v: Json) -> Result<Object, String> {
        let Json::Map(mut map) = v else {
            return Err(format!("expected a JSON object, got {v}"));
        };
        let Some(Json::Str(name)) = map.remove("message") else {
            return Err(
                "missing `\"message\"` (e.g. \"svc_update1\", \"cls_join\", \"user\")".into(),
            );
        };
        Ok(Object { name, map })
    }

    /// The message name as given (an alias stays an alias, so errors quote the input).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where `key` is, for messages: `svc_update1: field `pan``.
    pub fn at(&self, key: &str) -> String {
        format!("{}: field `{key}`", self.name)
    }

    /// Takes `key`'s value out.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        self.map.remove(key)
    }

    /// A field every message of its kind has.
    pub fn required<T: JsonField>(&mut self, key: Key<'static>) -> Result<T, String> {
        T::take(self, key)?.ok_or_else(|| format!("{}: missing field `{}`", self.name, key.name))
    }

    /// Refuses keys nobody took (the first in key order).
    fn finish(self) -> Result<(), String> {
        match self.map.keys().next() {
            Some(k) => Err(format!("{}: unknown field `{k}`", self.name)),
            None => Ok(()),
        }
    }
}

fn serialize<S: Serializer>(entries: Entries, s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(entries.len()))?;
    for (k, v) in &entries {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// Reads an object and the message `take` finds its name in.
fn deserialize<'de, D: Deserializer<'de>, M>(
    d: D,
    take: impl FnOnce(&mut Object) -> Result<Option<M>, String>,
) -> Result<M, D::Error> {
    let read = |v: Json| -> Result<M, String> {
        let mut obj = Object::new(v)?;
        let m = take(&mut obj)?.ok_or_else(|| format!("unknown message `{}`", obj.name))?;
        obj.finish()?;
        Ok(m)
    };
    read(Json::deserialize(d)?).map_err(D::Error::custom)
}

impl Serialize for ServerMessage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize(self.entries(), s)
    }
}

impl Serialize for ClientMessage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize(self.entries(), s)
    }
}

impl Serialize for AnyMessage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            AnyMessage::Server(m) => m.serialize(s),
            AnyMessage::Client(m) => m.serialize(s),
        }
    }
}

/// Refuses `cls_*` names: those are a client's.
impl<'de> Deserialize<'de> for ServerMessage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize(d, ServerMessage::take)
    }
}

/// Refuses `svc_*` names: those are the server's.
impl<'de> Deserialize<'de> for ClientMessage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize(d, ClientMessage::take)
    }
}

impl<'de> Deserialize<'de> for AnyMessage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize(d, |obj| {
            if let Some(m) = ServerMessage::take(obj)? {
                return Ok(Some(AnyMessage::Server(m)));
            }
            Ok(ClientMessage::take(obj)?.map(AnyMessage::Client))
        })
    }
}
