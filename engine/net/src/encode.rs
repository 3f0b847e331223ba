//! Messages → datagram bytes, the exact inverse of [`crate::decode`].
//!
//! The packed types can only hold representable values (their constructors refuse the rest), so what
//! is left to refuse here is structure: a `svc_var` longer than its Short length field can count, and
//! a user packet that is not the last message (it has no length, so it runs to the datagram's end and
//! anything after it would be read as user bytes).

use modex::Fixed;

use crate::message::{ClientMessage, ServerMessage, Update1, Update2, Update3};
use crate::wire::{Angle, EntityPosition, NetString, Position, Scale, Scaled, ValueError};

/// What makes a message impossible to encode.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EncodeProblem {
    /// A value that does not fit its wire type (raised while building messages from user values).
    #[error(transparent)]
    Value(#[from] ValueError),
    /// More elements than the length field can count.
    #[error("{count} elements, the Short length field allows at most {max}")]
    TooMany {
        /// Elements given.
        count: usize,
        /// Most allowed.
        max: usize,
    },
    /// A user packet runs to the end of the datagram, so nothing may follow it.
    #[error("a user packet has no length and must be the last message of its datagram")]
    UserNotLast,
}

/// A message that cannot be encoded: which message, which field, why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}: field `{field}`: {problem}")]
pub struct EncodeError {
    /// Message name, e.g. `svc_var`.
    pub message: &'static str,
    /// The field, e.g. `values`.
    pub field: String,
    /// What is wrong.
    pub problem: EncodeProblem,
}

impl EncodeError {
    /// An error in `field` of `message`.
    pub fn new(
        message: &'static str,
        field: impl Into<String>,
        problem: impl Into<EncodeProblem>,
    ) -> Self {
        EncodeError {
            message,
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// Appends the protocol's types, little-endian (Angles big-endian, see [`Angle`]).
struct Out<'a>(&'a mut Vec<u8>);

impl Out<'_> {
    fn byte(&mut self, v: u8) {
        self.0.push(v);
    }
    fn short(&mut self, v: i16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn long(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn float(&mut self, v: f32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn fixed(&mut self, v: Fixed) {
        self.long(v.raw());
    }
    fn fixed3(&mut self, v: &[Fixed; 3]) {
        v.iter().for_each(|&f| self.fixed(f));
    }
    fn position3(&mut self, v: &[Position; 3]) {
        v.iter()
            .for_each(|p| self.0.extend_from_slice(&p.to_bytes()));
    }
    fn angle(&mut self, a: Angle) {
        self.0.extend_from_slice(&a.to_bytes());
    }
    fn scale<const X: u16>(&mut self, s: Scale<X>) {
        self.byte(s.0);
    }
    fn scaled<const D: u16>(&mut self, s: Scaled<D>) {
        self.short(s.0);
    }
    fn string(&mut self, s: &NetString) {
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
    }
    fn values(&mut self, message: &'static str, v: &[Fixed]) -> Result<(), EncodeError> {
        let len = i16::try_from(v.len()).map_err(|_| {
            EncodeError::new(
                message,
                "values",
                EncodeProblem::TooMany {
                    count: v.len(),
                    max: i16::MAX as usize,
                },
            )
        })?;
        self.short(len);
        v.iter().for_each(|&f| self.fixed(f));
        Ok(())
    }
}

/// Encode one datagram of server messages.
pub fn encode_server(messages: &[ServerMessage]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if matches!(m, ServerMessage::User(_)) && i + 1 < messages.len() {
            return Err(EncodeError::new(
                m.name(),
                "bytes",
                EncodeProblem::UserNotLast,
            ));
        }
        encode_server_message(m, &mut out)?;
    }
    Ok(out)
}

/// Encode one datagram of client messages.
pub fn encode_client(messages: &[ClientMessage]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if matches!(m, ClientMessage::User(_)) && i + 1 < messages.len() {
            return Err(EncodeError::new(
                m.name(),
                "bytes",
                EncodeProblem::UserNotLast,
            ));
        }
        encode_client_message(m, &mut out)?;
    }
    Ok(out)
}

/// Append one server message to `buf`.
pub fn encode_server_message(m: &ServerMessage, buf: &mut Vec<u8>) -> Result<(), EncodeError> {
    let mut o = Out(buf);
    o.byte(m.code());
    match m {
        ServerMessage::Create { index, id } => {
            o.short(*index);
            o.short(*id);
        }
        ServerMessage::Remove { index } => o.short(*index),
        ServerMessage::EntSound {
            ent,
            sound,
            volume,
            handle,
        } => {
            o.short(*ent);
            o.short(*sound);
            o.scale(*volume);
            o.long(*handle);
        }
        ServerMessage::Effect {
            action,
            number,
            position,
            velocity,
        } => {
            o.short(*action);
            o.short(*number);
            o.position3(position);
            o.fixed3(velocity);
        }
        ServerMessage::Info {
            magic,
            protocol,
            server_time,
            frame_time,
        } => {
            o.long(*magic as i32);
            o.byte(*protocol);
            o.float(*server_time);
            o.float(*frame_time);
        }
        ServerMessage::Leave => {}
        ServerMessage::Var { index, values } => {
            o.short(*index);
            o.values(m.name(), values)?;
        }
        ServerMessage::String { index, string } => {
            o.short(*index);
            o.string(string);
        }
        ServerMessage::Skill { ent, offset, value } => {
            o.short(*ent);
            o.short(*offset);
            o.fixed(*value);
        }
        ServerMessage::Skill3 { ent, offset, value } => {
            o.short(*ent);
            o.short(*offset);
            o.fixed3(value);
        }
        ServerMessage::Update1(u) => update1(&mut o, u),
        ServerMessage::Update2(u) => update2(&mut o, u),
        ServerMessage::Update3(u) => update3(&mut o, u),
        ServerMessage::User(bytes) => o.0.extend_from_slice(bytes),
    }
    Ok(())
}

fn update1(o: &mut Out, u: &Update1) {
    o.short(u.entity);
    match &u.position {
        Some(EntityPosition::Packed(p)) => o.position3(p),
        Some(EntityPosition::Fixed(p)) => o.fixed3(p),
        None => {}
    }
    if let Some(a) = u.pan {
        o.angle(a);
    }
    if let Some(s) = &u.scale {
        s.iter().for_each(|&v| o.scaled(v));
    }
    if let Some(s) = &u.model {
        o.string(s);
    }
    if let Some((frame, fraction)) = u.frame {
        o.short(frame);
        o.scale(fraction);
    }
    if let Some(f) = u.flags1 {
        o.byte(f);
    }
}

fn update2(o: &mut Out, u: &Update2) {
    o.short(u.entity);
    if let Some(v) = u.ambient {
        o.scale(v);
    }
    if let Some(v) = u.albedo {
        o.scale(v);
    }
    if let Some(v) = u.skin {
        o.byte(v);
    }
    if let Some(v) = u.tilt {
        o.angle(v);
    }
    if let Some(v) = u.roll {
        o.angle(v);
    }
    if let Some(v) = u.nextframe {
        o.short(v);
    }
}

fn update3(o: &mut Out, u: &Update3) {
    o.short(u.entity);
    if let Some(v) = u.lightrange {
        o.scale(v);
    }
    if let Some(c) = u.color {
        c.iter().for_each(|&v| o.scale(v));
    }
    if let Some(v) = u.alpha {
        o.scale(v);
    }
    if let Some(uv) = u.uv {
        uv.iter().for_each(|&v| o.scaled(v));
    }
    if let Some(v) = u.flags2 {
        o.byte(v);
    }
}

/// Append one client message to `buf`.
pub fn encode_client_message(m: &ClientMessage, buf: &mut Vec<u8>) -> Result<(), EncodeError> {
    let mut o = Out(buf);
    o.byte(m.code());
    match m {
        ClientMessage::Fill => {}
        ClientMessage::Join { dpid, name } => {
            o.long(*dpid);
            o.string(name);
        }
        ClientMessage::Create {
            dpid,
            file,
            position,
            action,
            id,
        } => {
            o.long(*dpid);
            o.string(file);
            o.position3(position);
            o.short(*action);
            o.short(*id);
        }
        ClientMessage::Remove { dpid }
        | ClientMessage::Ping { dpid }
        | ClientMessage::Leave { dpid } => o.long(*dpid),
        ClientMessage::Level { dpid, level } => {
            o.long(*dpid);
            o.string(level);
        }
        ClientMessage::Var { index, values } => {
            o.short(*index);
            o.values(m.name(), values)?;
        }
        ClientMessage::String { index, string } => {
            o.short(*index);
            o.string(string);
        }
        ClientMessage::Skill {
            dpid,
            offset,
            value,
        } => {
            o.long(*dpid);
            o.short(*offset);
            o.fixed(*value);
        }
        ClientMessage::Skill3 {
            dpid,
            offset,
            value,
        } => {
            o.long(*dpid);
            o.short(*offset);
            o.fixed3(value);
        }
        ClientMessage::User(bytes) => o.0.extend_from_slice(bytes),
    }
    Ok(())
}

/// Largest datagram [`packetize`] makes by default: under the 1500-byte Ethernet MTU less IP and UDP
/// headers, so no datagram is fragmented (a lost fragment loses the whole datagram).
pub const MAX_DATAGRAM: usize = 1400;

/// One server frame as datagrams of at most `max` bytes, each starting with `header` (the frame's
/// `svc_info`, which stamps the updates with the server time). Messages are never split; a message
/// too large for any datagram goes alone in one.
pub fn packetize(
    header: &ServerMessage,
    messages: &[ServerMessage],
    max: usize,
) -> Result<Vec<Vec<u8>>, EncodeError> {
    let mut head = Vec::new();
    encode_server_message(header, &mut head)?;
    let mut out = Vec::new();
    let mut current = head.clone();
    let mut one = Vec::new();
    for m in messages {
        if matches!(m, ServerMessage::User(_)) {
            return Err(EncodeError::new(
                m.name(),
                "bytes",
                EncodeProblem::UserNotLast,
            ));
        }
        one.clear();
        encode_server_message(m, &mut one)?;
        if current.len() > head.len() && current.len() + one.len() > max {
            out.push(std::mem::replace(&mut current, head.clone()));
        }
        current.extend_from_slice(&one);
    }
    out.push(current);
    Ok(out)
}
