//! Messages as the JSON objects `modex net decode --json` prints and `modex net encode` reads.
//!
//! One object per message: `"message"` (the lower-case name, `"user"` for user packets) and the
//! notes' field names in lower case. Packed values appear in their units (Fixed and Position in
//! quants, angles in degrees, `Scale(x)` as 0..=x, entity scale and uv divided out), printed with
//! the shortest decimal that reads back to the same wire bits, so decode and encode round-trip.

use anyhow::{anyhow, bail, Context, Result};
use modex::Fixed;
use modex_net::wire::fixed_from_quants;
use modex_net::{
    Angle, ClientMessage, EntityPosition, NetString, PosResolution, Position, Scale, Scaled,
    ServerMessage, Update1, Update2, Update3,
};
use serde_json::{json, Map, Value};

/// Either direction's message.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyMessage {
    /// Sent by the server.
    Server(ServerMessage),
    /// Sent by a client.
    Client(ClientMessage),
}

/// An f32 as the JSON number of its shortest decimal (1.1, not 1.100000023841858).
fn float(v: f32) -> Value {
    v.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

fn positions(p: &[Position; 3]) -> Value {
    json!(p.map(Position::quants))
}

fn fixeds(p: &[Fixed]) -> Value {
    json!(p.iter().map(|f| f.to_f64()).collect::<Vec<_>>())
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn object(name: &str, fields: Value) -> Value {
    let mut m = Map::new();
    m.insert("message".into(), json!(name));
    if let Value::Object(f) = fields {
        m.extend(f);
    }
    Value::Object(m)
}

/// A server message as JSON.
pub fn server_to_json(m: &ServerMessage) -> Value {
    use ServerMessage as S;
    let fields = match m {
        S::Create { index, id } => json!({"index": index, "id": id}),
        S::Remove { index } => json!({ "index": index }),
        S::EntSound {
            ent,
            sound,
            volume,
            handle,
        } => json!({"ent": ent, "sound": sound, "volume": volume.value(), "handle": handle}),
        S::Effect {
            action,
            number,
            position,
            velocity,
        } => {
            json!({"action": action, "number": number, "position": positions(position), "vel": fixeds(velocity)})
        }
        S::Info {
            magic,
            protocol,
            server_time,
            frame_time,
        } => {
            json!({"magic": magic, "protocol": protocol, "server_time": float(*server_time), "frame_time": float(*frame_time)})
        }
        S::Leave => json!({}),
        S::Var { index, values } => json!({"index": index, "values": fixeds(values)}),
        S::String { index, string } => json!({"index": index, "string": string.to_latin1()}),
        S::Skill { ent, offset, value } => {
            json!({"ent": ent, "offset": offset, "value": value.to_f64()})
        }
        S::Skill3 { ent, offset, value } => {
            json!({"ent": ent, "offset": offset, "value": fixeds(value)})
        }
        S::Update1(u) => {
            let mut f = Map::new();
            f.insert("entity".into(), json!(u.entity));
            if let Some(p) = &u.position {
                f.insert("position".into(), json!(p.quants()));
            }
            if let Some(a) = u.pan {
                f.insert("pan".into(), json!(a.degrees()));
            }
            if let Some(s) = u.scale {
                f.insert("scale".into(), json!(s.map(Scaled::value)));
            }
            if let Some(t) = &u.model {
                f.insert("type".into(), json!(t.to_latin1()));
            }
            if let Some((frame, fraction)) = u.frame {
                f.insert("frame".into(), json!(frame));
                f.insert("fraction".into(), json!(fraction.value()));
            }
            if let Some(v) = u.flags1 {
                f.insert("flags1".into(), json!(v));
            }
            Value::Object(f)
        }
        S::Update2(u) => {
            let mut f = Map::new();
            f.insert("entity".into(), json!(u.entity));
            if let Some(v) = u.ambient {
                f.insert("ambient".into(), json!(v.value()));
            }
            if let Some(v) = u.albedo {
                f.insert("albedo".into(), json!(v.value()));
            }
            if let Some(v) = u.skin {
                f.insert("skin".into(), json!(v));
            }
            if let Some(v) = u.tilt {
                f.insert("tilt".into(), json!(v.degrees()));
            }
            if let Some(v) = u.roll {
                f.insert("roll".into(), json!(v.degrees()));
            }
            if let Some(v) = u.nextframe {
                f.insert("nextframe".into(), json!(v));
            }
            Value::Object(f)
        }
        S::Update3(u) => {
            let mut f = Map::new();
            f.insert("entity".into(), json!(u.entity));
            if let Some(v) = u.lightrange {
                f.insert("lightrange".into(), json!(v.value()));
            }
            if let Some(c) = u.color {
                f.insert("color".into(), json!(c.map(Scale::value)));
            }
            if let Some(v) = u.alpha {
                f.insert("alpha".into(), json!(v.value()));
            }
            if let Some(uv) = u.uv {
                f.insert("uv".into(), json!(uv.map(Scaled::value)));
            }
            if let Some(v) = u.flags2 {
                f.insert("flags2".into(), json!(v));
            }
            Value::Object(f)
        }
        S::User(bytes) => json!({ "bytes": hex(bytes) }),
    };
    object(m.name(), fields)
}

/// A client message as JSON.
pub fn client_to_json(m: &ClientMessage) -> Value {
    use ClientMessage as C;
    let fields = match m {
        C::Fill => json!({}),
        C::Join { dpid, name } => json!({"dpid": dpid, "name": name.to_latin1()}),
        C::Create {
            dpid,
            file,
            position,
            action,
            id,
        } => {
            json!({"dpid": dpid, "file": file.to_latin1(), "position": positions(position), "action": action, "id": id})
        }
        C::Remove { dpid } | C::Ping { dpid } | C::Leave { dpid } => json!({ "dpid": dpid }),
        C::Level { dpid, level } => json!({"dpid": dpid, "level": level.to_latin1()}),
        C::Var { index, values } => json!({"index": index, "values": fixeds(values)}),
        C::String { index, string } => json!({"index": index, "string": string.to_latin1()}),
        C::Skill {
            dpid,
            offset,
            value,
        } => json!({"dpid": dpid, "struct_offset": offset, "value": value.to_f64()}),
        C::Skill3 {
            dpid,
            offset,
            value,
        } => json!({"dpid": dpid, "struct_offset": offset, "value": fixeds(value)}),
        C::User(bytes) => json!({ "bytes": hex(bytes) }),
    };
    object(m.name(), fields)
}

/// Reads the fields of one JSON object, refusing keys nobody asked for (a typo must not vanish).
struct Fields<'a> {
    name: String,
    map: &'a Map<String, Value>,
    used: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    fn opt(&mut self, key: &'static str) -> Option<&'a Value> {
        self.used.push(key);
        self.map.get(key)
    }

    fn req(&mut self, key: &'static str) -> Result<&'a Value> {
        let name = self.name.clone();
        self.opt(key)
            .ok_or_else(|| anyhow!("{name}: missing field `{key}`"))
    }

    fn ctx(&self, key: &str) -> String {
        format!("{}: field `{key}`", self.name)
    }

    fn int<T: TryFrom<i64>>(&mut self, key: &'static str) -> Result<T> {
        let v = self.req(key)?;
        self.int_of(key, v)
    }

    fn int_of<T: TryFrom<i64>>(&self, key: &str, v: &Value) -> Result<T> {
        let i = v
            .as_i64()
            .ok_or_else(|| anyhow!("{}: {v} is not an integer", self.ctx(key)))?;
        T::try_from(i).map_err(|_| {
            anyhow!(
                "{}: {i} does not fit in {}",
                self.ctx(key),
                std::any::type_name::<T>()
            )
        })
    }

    fn num_of(&self, key: &str, v: &Value) -> Result<f64> {
        v.as_f64()
            .ok_or_else(|| anyhow!("{}: {v} is not a number", self.ctx(key)))
    }

    fn num(&mut self, key: &'static str) -> Result<f64> {
        let v = self.req(key)?;
        self.num_of(key, v)
    }

    fn nums<const N: usize>(&self, key: &str, v: &Value) -> Result<[f64; N]> {
        let a = v
            .as_array()
            .filter(|a| a.len() == N)
            .ok_or_else(|| anyhow!("{}: expected a list of {N} numbers, got {v}", self.ctx(key)))?;
        let mut out = [0.0; N];
        for (o, x) in out.iter_mut().zip(a) {
            *o = self.num_of(key, x)?;
        }
        Ok(out)
    }

    fn string(&mut self, key: &'static str) -> Result<NetString> {
        let v = self.req(key)?;
        let s = v
            .as_str()
            .ok_or_else(|| anyhow!("{}: {v} is not a string", self.ctx(key)))?;
        NetString::from_latin1(s).with_context(|| self.ctx(key))
    }

    fn fixed(&mut self, key: &'static str) -> Result<Fixed> {
        let v = self.num(key)?;
        fixed_from_quants(v).with_context(|| self.ctx(key))
    }

    fn fixed3(&mut self, key: &'static str) -> Result<[Fixed; 3]> {
        let v = self.req(key)?;
        let [a, b, c] = self.nums::<3>(key, v)?;
        let f = |q| fixed_from_quants(q).with_context(|| self.ctx(key));
        Ok([f(a)?, f(b)?, f(c)?])
    }

    fn positions(&mut self, key: &'static str) -> Result<[Position; 3]> {
        let v = self.req(key)?;
        let [a, b, c] = self.nums::<3>(key, v)?;
        let f = |q| Position::from_quants(q).with_context(|| self.ctx(key));
        Ok([f(a)?, f(b)?, f(c)?])
    }

    fn values(&mut self) -> Result<Vec<Fixed>> {
        let v = self.req("values")?;
        let a = v
            .as_array()
            .ok_or_else(|| anyhow!("{}: {v} is not a list", self.ctx("values")))?;
        a.iter()
            .map(|x| {
                fixed_from_quants(self.num_of("values", x)?).with_context(|| self.ctx("values"))
            })
            .collect()
    }

    fn angle(&mut self, key: &'static str) -> Result<Option<Angle>> {
        let Some(v) = self.opt(key) else {
            return Ok(None);
        };
        let d = self.num_of(key, v)?;
        Ok(Some(Angle::from_degrees(d).with_context(|| self.ctx(key))?))
    }

    fn scale<const X: u16>(&mut self, key: &'static str) -> Result<Option<Scale<X>>> {
        let Some(v) = self.opt(key) else {
            return Ok(None);
        };
        let x = self.num_of(key, v)?;
        Ok(Some(Scale::from_value(x).with_context(|| self.ctx(key))?))
    }

    fn opt_int<T: TryFrom<i64>>(&mut self, key: &'static str) -> Result<Option<T>> {
        match self.opt(key) {
            Some(v) => Ok(Some(self.int_of(key, v)?)),
            None => Ok(None),
        }
    }

    fn bytes(&mut self) -> Result<Vec<u8>> {
        let v = self.req("bytes")?;
        let s = v
            .as_str()
            .ok_or_else(|| anyhow!("{}: {v} is not a hex string", self.ctx("bytes")))?;
        parse_hex(s).with_context(|| self.ctx("bytes"))
    }

    /// Fail on keys that were never asked for.
    fn finish(self) -> Result<()> {
        for k in self.map.keys() {
            if k != "message" && !self.used.contains(&k.as_str()) {
                bail!("{}: unknown field `{k}`", self.name);
            }
        }
        Ok(())
    }
}

/// Hex bytes, whitespace allowed anywhere between digit pairs.
pub fn parse_hex(s: &str) -> Result<Vec<u8>> {
    let digits: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() % 2 != 0 {
        bail!("`{s}` has an odd number of hex digits");
    }
    digits
        .chunks(2)
        .map(|p| {
            let pair: String = p.iter().collect();
            u8::from_str_radix(&pair, 16).map_err(|_| anyhow!("`{pair}` is not a hex byte"))
        })
        .collect()
}

/// One message from its JSON object.
pub fn from_json(v: &Value) -> Result<AnyMessage> {
    let map = v
        .as_object()
        .ok_or_else(|| anyhow!("expected a JSON object, got {v}"))?;
    let name = map
        .get("message")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            anyhow!("missing `\"message\"` (e.g. \"svc_update1\", \"cls_join\", \"user\")")
        })?
        .to_string();
    let mut f = Fields {
        name: name.clone(),
        map,
        used: Vec::new(),
    };
    use AnyMessage::{Client, Server};
    use ClientMessage as C;
    use ServerMessage as S;
    let m = match name.as_str() {
        "svc_create" => Server(S::Create {
            index: f.int("index")?,
            id: f.int("id")?,
        }),
        "svc_remove" => Server(S::Remove {
            index: f.int("index")?,
        }),
        "svc_entsound" => Server(S::EntSound {
            ent: f.int("ent")?,
            sound: f.int("sound")?,
            volume: f
                .scale("volume")?
                .ok_or_else(|| anyhow!("svc_entsound: missing field `volume`"))?,
            handle: f.int("handle")?,
        }),
        "svc_effect" | "svc_particle" => Server(S::Effect {
            action: f.int("action")?,
            number: f.int("number")?,
            position: f.positions("position")?,
            velocity: f.fixed3("vel")?,
        }),
        "svc_info" => Server(S::Info {
            magic: f.int("magic")?,
            protocol: f.int("protocol")?,
            server_time: f.num("server_time")? as f32,
            frame_time: f.num("frame_time")? as f32,
        }),
        "svc_leave" => Server(S::Leave),
        "svc_var" => Server(S::Var {
            index: f.int("index")?,
            values: f.values()?,
        }),
        "svc_string" => Server(S::String {
            index: f.int("index")?,
            string: f.string("string")?,
        }),
        "svc_skill" => Server(S::Skill {
            ent: f.int("ent")?,
            offset: f.int("offset")?,
            value: f.fixed("value")?,
        }),
        "svc_skill3" => Server(S::Skill3 {
            ent: f.int("ent")?,
            offset: f.int("offset")?,
            value: f.fixed3("value")?,
        }),
        "svc_update1" => {
            let entity = f.int("entity")?;
            let position = match f.opt("position") {
                Some(v) => {
                    let q = f.nums::<3>("position", v)?;
                    Some(
                        EntityPosition::from_quants(q, PosResolution::Packed)
                            .with_context(|| f.ctx("position"))?,
                    )
                }
                None => None,
            };
            let pan = f.angle("pan")?;
            let scale = match f.opt("scale") {
                Some(v) => {
                    let q = f.nums::<3>("scale", v)?;
                    let s = |x| Scaled::<4>::from_value(x).with_context(|| f.ctx("scale"));
                    Some([s(q[0])?, s(q[1])?, s(q[2])?])
                }
                None => None,
            };
            let model = match f.opt("type") {
                Some(_) => Some(f.string("type")?),
                None => None,
            };
            let frame = match (f.opt_int::<i16>("frame")?, f.scale::<1>("fraction")?) {
                (Some(frame), fraction) => Some((frame, fraction.unwrap_or_default())),
                (None, None) => None,
                (None, Some(_)) => bail!("svc_update1: `fraction` is sent with `frame` only"),
            };
            Server(S::Update1(Update1 {
                entity,
                position,
                pan,
                scale,
                model,
                frame,
                flags1: f.opt_int("flags1")?,
            }))
        }
        "svc_update2" => Server(S::Update2(Update2 {
            entity: f.int("entity")?,
            ambient: f.scale("ambient")?,
            albedo: f.scale("albedo")?,
            skin: f.opt_int("skin")?,
            tilt: f.angle("tilt")?,
            roll: f.angle("roll")?,
            nextframe: f.opt_int("nextframe")?,
        })),
        "svc_update3" => {
            let entity = f.int("entity")?;
            let lightrange = f.scale("lightrange")?;
            let color = match f.opt("color") {
                Some(v) => {
                    let c = f.nums::<3>("color", v)?;
                    let s = |x| Scale::<255>::from_value(x).with_context(|| f.ctx("color"));
                    Some([s(c[0])?, s(c[1])?, s(c[2])?])
                }
                None => None,
            };
            let alpha = f.scale("alpha")?;
            let uv = match f.opt("uv") {
                Some(v) => {
                    let c = f.nums::<2>("uv", v)?;
                    let s = |x| Scaled::<16>::from_value(x).with_context(|| f.ctx("uv"));
                    Some([s(c[0])?, s(c[1])?])
                }
                None => None,
            };
            Server(S::Update3(Update3 {
                entity,
                lightrange,
                color,
                alpha,
                uv,
                flags2: f.opt_int("flags2")?,
            }))
        }
        // The same bytes in both directions.
        "user" => Server(S::User(f.bytes()?)),
        "cls_fill" => Client(C::Fill),
        "cls_join" => Client(C::Join {
            dpid: f.int("dpid")?,
            name: f.string("name")?,
        }),
        "cls_create" => Client(C::Create {
            dpid: f.int("dpid")?,
            file: f.string("file")?,
            position: f.positions("position")?,
            action: f.int("action")?,
            id: f.int("id")?,
        }),
        "cls_remove" => Client(C::Remove {
            dpid: f.int("dpid")?,
        }),
        "cls_ping" => Client(C::Ping {
            dpid: f.int("dpid")?,
        }),
        "cls_leave" => Client(C::Leave {
            dpid: f.int("dpid")?,
        }),
        "cls_level" => Client(C::Level {
            dpid: f.int("dpid")?,
            level: f.string("level")?,
        }),
        "cls_var" => Client(C::Var {
            index: f.int("index")?,
            values: f.values()?,
        }),
        "cls_string" => Client(C::String {
            index: f.int("index")?,
            string: f.string("string")?,
        }),
        "cls_skill" => Client(C::Skill {
            dpid: f.int("dpid")?,
            offset: f.int("struct_offset")?,
            value: f.fixed("value")?,
        }),
        "cls_skill3" => Client(C::Skill3 {
            dpid: f.int("dpid")?,
            offset: f.int("struct_offset")?,
            value: f.fixed3("value")?,
        }),
        other => bail!("unknown message `{other}`"),
    };
    f.finish()?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_net::{decode_client, decode_server, encode_client, DecodeOptions};

    fn round_trip_server(hexes: &str) {
        let bytes = parse_hex(hexes).unwrap();
        for m in decode_server(&bytes, DecodeOptions::default()).unwrap() {
            let v = server_to_json(&m);
            let text = v.to_string();
            let back = from_json(&serde_json::from_str(&text).unwrap()).unwrap();
            assert_eq!(back, AnyMessage::Server(m.clone()), "{text}");
        }
    }

    #[test]
    fn worked_example_as_json() {
        let bytes = parse_hex("43 07 00 80 00 00 00 01 00 80 01 00 80 00").unwrap();
        let m = decode_server(&bytes, DecodeOptions::default()).unwrap();
        assert_eq!(
            server_to_json(&m[0]),
            json!({"message": "svc_update1", "entity": 7, "position": [1.0, 2.0, 3.0], "pan": 180.0})
        );
    }

    #[test]
    fn every_server_field_survives_json() {
        round_trip_server("7f 07 00 80 00 00 00 01 00 80 01 00 80 00 04 00 05 00 fc ff 74 61 6e 6b 00 03 00 80 09");
        round_trip_server("bf 01 00 10 20 03 40 00 c0 00 07 00");
        round_trip_server("df 02 00 81 01 02 03 40 ff ff 10 00 aa");
        round_trip_server(
            "07 18 12 19 11 01 cd cc 8c 3f 89 88 88 3c 0a 02 00 02 00 00 04 00 00 ff ff ff ff",
        );
        round_trip_server("05 01 00 02 00 80 ff 00 00 00 06 01 00 02 00 80 00 00 00 01 00 80 01 00 00 04 00 00 00 00 00 00 ff ff ff ff");
        round_trip_server("0b 03 00 68 e4 00 0e 01 00 02 00 00 02 00 00 0f 01 00 02 00 01 00 00 00 02 00 00 00 03 00 00 00 03 04 00 05 00 04 01 00 08 11 de ad");
    }

    #[test]
    fn every_client_field_survives_json() {
        let bytes = parse_hex(
            "01 02 05 00 00 00 6d 6f 00 03 05 00 00 00 61 2e 6d 64 6c 00 80 00 00 00 01 00 80 01 00 02 00 03 00 \
             04 05 00 00 00 07 05 00 00 00 08 05 00 00 00 09 05 00 00 00 6c 00 0a 00 00 01 00 00 04 00 00 \
             0b 01 00 73 00 0e 05 00 00 00 08 00 00 08 00 00 0f 05 00 00 00 08 00 00 00 00 00 00 00 00 00 00 00 00 00 11 01",
        )
        .unwrap();
        let msgs = decode_client(&bytes).unwrap();
        assert_eq!(msgs.len(), 12);
        let mut back = Vec::new();
        for m in &msgs {
            let text = client_to_json(m).to_string();
            match from_json(&serde_json::from_str(&text).unwrap()).unwrap() {
                AnyMessage::Client(c) => back.push(c),
                AnyMessage::Server(ServerMessage::User(b)) => back.push(ClientMessage::User(b)),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(encode_client(&back).unwrap(), bytes);
    }

    #[test]
    fn bad_json_names_the_problem() {
        let e = |s: &str| {
            format!(
                "{:#}",
                from_json(&serde_json::from_str(s).unwrap()).unwrap_err()
            )
        };
        assert!(
            e(r#"{"message":"svc_update1","entity":7,"position":[70000,0,0]}"#)
                .contains("position")
        );
        assert!(e(r#"{"message":"cls_join","dpid":1,"name":"a\u0000b"}"#).contains("NUL"));
        assert!(e(r#"{"message":"svc_update1","entity":7,"pann":3}"#).contains("pann"));
        assert!(e(r#"{"message":"svc_remove","index":40000}"#).contains("index"));
        assert!(e(r#"{"message":"svc_nope"}"#).contains("svc_nope"));
    }
}
