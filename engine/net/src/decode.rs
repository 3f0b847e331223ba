//! Datagram → messages. A datagram holds any number of messages back to back, each a code byte and
//! its arguments; decoding yields all of them in order, or the first error.
//!
//! Every read is bounds-checked through [`modex::ByteReader`]; errors name the message (as the
//! error's format), the field and the byte offset in the datagram. Counts (`svc_var`'s `len`) are
//! checked against the bytes left before anything is allocated, and nothing else allocates more than
//! the datagram's length, so a hostile datagram costs at most its own size.

use modex::{ByteReader, ErrorKind, Fixed, FormatError};

use crate::message::USER_CODE;
use crate::message::{ClientMessage, Direction, ServerMessage, Update1, Update2, Update3};
use crate::wire::{Angle, EntityPosition, NetString, PosResolution, Position, Scale, Scaled};

/// Why a datagram could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A code byte no message of this direction has.
    #[error("unknown {direction} message code 0x{code:02x} at byte offset {offset}")]
    UnknownCode {
        /// Who sent the datagram.
        direction: Direction,
        /// The code byte.
        code: u8,
        /// Its offset in the datagram.
        offset: usize,
    },
    /// A field of a known message is truncated or malformed. The error's `format` is the message name
    /// (e.g. `svc_update1`), `field` the argument, `offset` its byte offset in the datagram.
    #[error(transparent)]
    Field(#[from] FormatError),
}

impl DecodeError {
    /// Byte offset of the problem in the datagram.
    pub fn offset(&self) -> usize {
        match self {
            DecodeError::UnknownCode { offset, .. } => *offset,
            DecodeError::Field(e) => e.offset,
        }
    }

    /// The message being decoded, when the code was known.
    pub fn message(&self) -> Option<&'static str> {
        match self {
            DecodeError::UnknownCode { .. } => None,
            DecodeError::Field(e) => Some(e.format),
        }
    }

    /// The field being decoded, when the code was known.
    pub fn field(&self) -> Option<&str> {
        match self {
            DecodeError::UnknownCode { .. } => None,
            DecodeError::Field(e) => Some(&e.field),
        }
    }
}

type Result<T> = std::result::Result<T, DecodeError>;

/// Reads the protocol's types from a datagram, tagging errors with the current message.
struct Args<'a> {
    r: ByteReader<'a>,
}

impl<'a> Args<'a> {
    /// A reader for message `name` whose arguments start at `pos` of `data`.
    fn at(data: &'a [u8], pos: usize, name: &'static str) -> Result<Args<'a>> {
        let mut r = ByteReader::new(data, name);
        r.seek(pos, "code")?;
        Ok(Args { r })
    }

    fn byte(&mut self, f: &str) -> Result<u8> {
        Ok(self.r.u8(f)?)
    }
    fn short(&mut self, f: &str) -> Result<i16> {
        Ok(self.r.i16(f)?)
    }
    fn long(&mut self, f: &str) -> Result<i32> {
        Ok(self.r.i32(f)?)
    }
    fn float(&mut self, f: &str) -> Result<f32> {
        Ok(self.r.f32(f)?)
    }
    fn fixed(&mut self, f: &str) -> Result<Fixed> {
        Ok(Fixed(self.r.i32(f)?))
    }
    fn fixed3(&mut self, f: &str) -> Result<[Fixed; 3]> {
        Ok([
            self.fixed(&format!("{f}[0]"))?,
            self.fixed(&format!("{f}[1]"))?,
            self.fixed(&format!("{f}[2]"))?,
        ])
    }
    fn position(&mut self, f: &str) -> Result<Position> {
        Ok(Position::from_bytes(self.r.array(f)?))
    }
    fn position3(&mut self, f: &str) -> Result<[Position; 3]> {
        Ok([
            self.position(&format!("{f}[0]"))?,
            self.position(&format!("{f}[1]"))?,
            self.position(&format!("{f}[2]"))?,
        ])
    }
    fn angle(&mut self, f: &str) -> Result<Angle> {
        Ok(Angle::from_bytes(self.r.array(f)?))
    }
    fn scale<const X: u16>(&mut self, f: &str) -> Result<Scale<X>> {
        Ok(Scale(self.r.u8(f)?))
    }
    fn scaled<const D: u16>(&mut self, f: &str) -> Result<Scaled<D>> {
        Ok(Scaled(self.r.i16(f)?))
    }
    /// A NUL-terminated String; a datagram that ends before the NUL is truncated.
    fn string(&mut self, f: &str) -> Result<NetString> {
        let rest = &self.r.data()[self.r.pos()..];
        let Some(len) = rest.iter().position(|&b| b == 0) else {
            return Err(self
                .r
                .invalid(
                    f,
                    format!("no NUL terminator in the {} bytes left", rest.len()),
                )
                .into());
        };
        let bytes = self.r.bytes(len, f)?.to_vec();
        self.r.skip(1, f)?;
        Ok(NetString::from_wire(bytes))
    }
    /// `Short len, Fixed[len]`.
    fn values(&mut self) -> Result<Vec<Fixed>> {
        let at = self.r.pos();
        let len = self.short("len")?;
        let len = usize::try_from(len).map_err(|_| {
            FormatError::out_of_range(self.r.format(), "len", at, len as i64, 0, i16::MAX as i64)
        })?;
        self.r.check_count(len, 4, "values")?;
        (0..len)
            .map(|i| self.fixed(&format!("values[{i}]")))
            .collect()
    }
    /// The rest of the datagram.
    fn rest(&mut self) -> Result<Vec<u8>> {
        let n = self.r.remaining();
        Ok(self.r.bytes(n, "bytes")?.to_vec())
    }
}

/// Options of a decode that are session settings rather than bytes on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecodeOptions {
    /// The type of `CPosition` in entity updates.
    pub pos_resolution: PosResolution,
}

/// Decode a datagram sent by the server.
pub fn decode_server(data: &[u8], opts: DecodeOptions) -> Result<Vec<ServerMessage>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let (msg, next) = server_message(data, pos, opts)?;
        out.push(msg);
        pos = next;
    }
    Ok(out)
}

/// Decode a datagram sent by a client.
pub fn decode_client(data: &[u8]) -> Result<Vec<ClientMessage>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let (msg, next) = client_message(data, pos)?;
        out.push(msg);
        pos = next;
    }
    Ok(out)
}

fn server_name(code: u8) -> Option<&'static str> {
    Some(match code {
        0x03 => "svc_create",
        0x04 => "svc_remove",
        0x05 => "svc_entsound",
        0x06 => "svc_effect",
        0x07 => "svc_info",
        0x08 => "svc_leave",
        0x0a => "svc_var",
        0x0b => "svc_string",
        0x0e => "svc_skill",
        0x0f => "svc_skill3",
        USER_CODE => "user",
        0x40..=0x7f => "svc_update1",
        0x80..=0xbf => "svc_update2",
        0xc0..=0xff => "svc_update3",
        _ => return None,
    })
}

fn server_message(data: &[u8], pos: usize, opts: DecodeOptions) -> Result<(ServerMessage, usize)> {
    let code = data[pos];
    let Some(name) = server_name(code) else {
        return Err(DecodeError::UnknownCode {
            direction: Direction::Server,
            code,
            offset: pos,
        });
    };
    let mut a = Args::at(data, pos + 1, name)?;
    let bit = |b: u8| code & (1 << b) != 0;
    let msg = match code {
        0x03 => ServerMessage::Create {
            index: a.short("index")?,
            id: a.short("id")?,
        },
        0x04 => ServerMessage::Remove {
            index: a.short("index")?,
        },
        0x05 => ServerMessage::EntSound {
            ent: a.short("ent")?,
            sound: a.short("sound")?,
            volume: a.scale("volume")?,
            handle: a.long("handle")?,
        },
        0x06 => ServerMessage::Effect {
            action: a.short("action")?,
            number: a.short("number")?,
            position: a.position3("position")?,
            velocity: a.fixed3("vel")?,
        },
        0x07 => ServerMessage::Info {
            magic: a.long("magic")? as u32,
            protocol: a.byte("protocol")?,
            server_time: a.float("server_time")?,
            frame_time: a.float("frame_time")?,
        },
        0x08 => ServerMessage::Leave,
        0x0a => ServerMessage::Var {
            index: a.short("index")?,
            values: a.values()?,
        },
        0x0b => ServerMessage::String {
            index: a.short("index")?,
            string: a.string("string")?,
        },
        0x0e => ServerMessage::Skill {
            ent: a.short("ent")?,
            offset: a.short("offset")?,
            value: a.fixed("value")?,
        },
        0x0f => ServerMessage::Skill3 {
            ent: a.short("ent")?,
            offset: a.short("offset")?,
            value: a.fixed3("value")?,
        },
        USER_CODE => ServerMessage::User(a.rest()?),
        0x40..=0x7f => {
            let entity = a.short("entity")?;
            let position = if bit(0) {
                Some(match opts.pos_resolution {
                    PosResolution::Packed => EntityPosition::Packed(a.position3("position")?),
                    PosResolution::Fixed => EntityPosition::Fixed(a.fixed3("position")?),
                })
            } else {
                None
            };
            let pan = if bit(1) { Some(a.angle("pan")?) } else { None };
            let scale = if bit(2) {
                Some([
                    a.scaled("scale[0]")?,
                    a.scaled("scale[1]")?,
                    a.scaled("scale[2]")?,
                ])
            } else {
                None
            };
            let model = if bit(3) {
                Some(a.string("type")?)
            } else {
                None
            };
            let frame = if bit(4) {
                Some((a.short("frame")?, a.scale("fraction")?))
            } else {
                None
            };
            let flags1 = if bit(5) {
                Some(a.byte("flags1")?)
            } else {
                None
            };
            ServerMessage::Update1(Update1 {
                entity,
                position,
                pan,
                scale,
                model,
                frame,
                flags1,
            })
        }
        0x80..=0xbf => {
            let entity = a.short("entity")?;
            ServerMessage::Update2(Update2 {
                entity,
                ambient: if bit(0) {
                    Some(a.scale("ambient")?)
                } else {
                    None
                },
                albedo: if bit(1) {
                    Some(a.scale("albedo")?)
                } else {
                    None
                },
                skin: if bit(2) { Some(a.byte("skin")?) } else { None },
                tilt: if bit(3) { Some(a.angle("tilt")?) } else { None },
                roll: if bit(4) { Some(a.angle("roll")?) } else { None },
                nextframe: if bit(5) {
                    Some(a.short("nextframe")?)
                } else {
                    None
                },
            })
        }
        _ => {
            if bit(5) {
                return Err(FormatError::new(
                    name,
                    "code",
                    pos,
                    ErrorKind::Invalid(format!(
                        "code 0x{code:02x} sets bit 5, which svc_update3 does not use"
                    )),
                )
                .into());
            }
            let entity = a.short("entity")?;
            ServerMessage::Update3(Update3 {
                entity,
                lightrange: if bit(0) {
                    Some(a.scale("lightrange")?)
                } else {
                    None
                },
                color: if bit(1) {
                    Some([
                        a.scale("color.b")?,
                        a.scale("color.g")?,
                        a.scale("color.r")?,
                    ])
                } else {
                    None
                },
                alpha: if bit(2) {
                    Some(a.scale("alpha")?)
                } else {
                    None
                },
                uv: if bit(3) {
                    Some([a.scaled("uv.u")?, a.scaled("uv.v")?])
                } else {
                    None
                },
                flags2: if bit(4) {
                    Some(a.byte("flags2")?)
                } else {
                    None
                },
            })
        }
    };
    Ok((msg, a.r.pos()))
}

fn client_name(code: u8) -> Option<&'static str> {
    Some(match code {
        0x01 => "cls_fill",
        0x02 => "cls_join",
        0x03 => "cls_create",
        0x04 => "cls_remove",
        0x07 => "cls_ping",
        0x08 => "cls_leave",
        0x09 => "cls_level",
        0x0a => "cls_var",
        0x0b => "cls_string",
        0x0e => "cls_skill",
        0x0f => "cls_skill3",
        USER_CODE => "user",
        _ => return None,
    })
}

fn client_message(data: &[u8], pos: usize) -> Result<(ClientMessage, usize)> {
    let code = data[pos];
    let Some(name) = client_name(code) else {
        return Err(DecodeError::UnknownCode {
            direction: Direction::Client,
            code,
            offset: pos,
        });
    };
    let mut a = Args::at(data, pos + 1, name)?;
    let msg = match code {
        0x01 => ClientMessage::Fill,
        0x02 => ClientMessage::Join {
            dpid: a.long("dpid")?,
            name: a.string("name")?,
        },
        0x03 => ClientMessage::Create {
            dpid: a.long("dpid")?,
            file: a.string("file")?,
            position: a.position3("position")?,
            action: a.short("action")?,
            id: a.short("id")?,
        },
        0x04 => ClientMessage::Remove {
            dpid: a.long("dpid")?,
        },
        0x07 => ClientMessage::Ping {
            dpid: a.long("dpid")?,
        },
        0x08 => ClientMessage::Leave {
            dpid: a.long("dpid")?,
        },
        0x09 => ClientMessage::Level {
            dpid: a.long("dpid")?,
            level: a.string("level")?,
        },
        0x0a => ClientMessage::Var {
            index: a.short("index")?,
            values: a.values()?,
        },
        0x0b => ClientMessage::String {
            index: a.short("index")?,
            string: a.string("string")?,
        },
        0x0e => ClientMessage::Skill {
            dpid: a.long("dpid")?,
            offset: a.short("struct_offset")?,
            value: a.fixed("value")?,
        },
        0x0f => ClientMessage::Skill3 {
            dpid: a.long("dpid")?,
            offset: a.short("struct_offset")?,
            value: a.fixed3("value")?,
        },
        _ => ClientMessage::User(a.rest()?),
    };
    Ok((msg, a.r.pos()))
}
