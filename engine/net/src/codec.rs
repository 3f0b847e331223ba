//! How each argument type travels: the reader and writer of one message, and [`Field`], implemented
//! once per wire type. The message table (`message.rs`) only names each field's type; the bytes of
//! that type are spelled out here and nowhere else.
//!
//! Every read is bounds-checked through [`modex::ByteReader`], whose errors name the message (as the
//! error's format), the field and its byte offset in the datagram. Multi-byte values are
//! little-endian except [`Angle`] (see there).

use modex::{ByteReader, ErrorKind, Fixed, FormatError};

use crate::decode::{DecodeError, DecodeOptions};
use crate::encode::{EncodeError, EncodeProblem};
use crate::wire::{Angle, EntityPosition, NetString, PosResolution, Position, Scale, Scaled};

/// What the table says about a field besides its type: the name errors (and JSON) use, and the
/// names of its parts where one field is several wire values: `["color.b", "color.g", "color.r"]`
/// for a list whose parts errors name so, `["frame", "fraction"]` for a pair. Without parts, list
/// elements are named `name[i]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key<'a> {
    pub name: &'a str,
    pub parts: &'a [&'a str],
}

impl<'a> Key<'a> {
    /// A key without parts: one wire value, or the element of a list.
    pub fn element(name: &'a str) -> Key<'a> {
        Key { name, parts: &[] }
    }
}

/// Reads one message's arguments from a datagram.
pub(crate) struct Reader<'a> {
    r: ByteReader<'a>,
    opts: DecodeOptions,
    code_at: usize,
}

impl<'a> Reader<'a> {
    /// A reader for message `name` whose code byte is at `code_at` of `data`.
    pub fn at(
        data: &'a [u8],
        code_at: usize,
        name: &'static str,
        opts: DecodeOptions,
    ) -> Result<Reader<'a>, DecodeError> {
        let mut r = ByteReader::new(data, name);
        r.seek(code_at + 1, "code")?;
        Ok(Reader { r, opts, code_at })
    }

    /// Where the next message starts.
    pub fn pos(&self) -> usize {
        self.r.pos()
    }

    /// An entity update whose code sets a bit that names no field.
    pub fn unused_bit(&self, code: u8, bit: u32) -> DecodeError {
        let name = self.r.format();
        FormatError::new(
            name,
            "code",
            self.code_at,
            ErrorKind::Invalid(format!(
                "code 0x{code:02x} sets bit {bit}, which {name} does not use"
            )),
        )
        .into()
    }

    /// The rest of the datagram (user packets have no length).
    fn rest(&mut self, field: &str) -> Result<Vec<u8>, DecodeError> {
        let n = self.r.remaining();
        Ok(self.r.bytes(n, field)?.to_vec())
    }
}

/// Appends one message's arguments to a datagram.
pub(crate) struct Writer<'a> {
    buf: &'a mut Vec<u8>,
    message: &'static str,
}

impl<'a> Writer<'a> {
    /// A writer for message `message` appending to `buf`.
    pub fn new(buf: &'a mut Vec<u8>, message: &'static str) -> Writer<'a> {
        Writer { buf, message }
    }

    /// Appends raw bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
}

/// A type that is one argument (or a fixed run of them) on the wire.
pub(crate) trait Field: Sized {
    /// Reads the value; errors name `key`.
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError>;
    /// Appends the value's bytes; only counted lists can fail (more elements than their count
    /// holds).
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError>;
}

/// Fields that are their little-endian bytes.
macro_rules! little_endian {
    ($($t:ty => $read:ident),* $(,)?) => {$(
        impl Field for $t {
            fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
                Ok(r.r.$read(key.name)?)
            }
            fn write(&self, w: &mut Writer<'_>, _: Key<'_>) -> Result<(), EncodeError> {
                w.bytes(&self.to_le_bytes());
                Ok(())
            }
        }
    )*};
}

// Byte, Short, Long (u32: `svc_info`'s magic, a Long kept as its bits), Float.
little_endian!(u8 => u8, i16 => i16, i32 => i32, u32 => u32, f32 => f32);

impl Field for Fixed {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        Ok(Fixed(i32::read(r, key)?))
    }
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError> {
        self.raw().write(w, key)
    }
}

/// Packed types that know their own wire bytes (Position: 3 bytes little-endian; Angle: 2 bytes
/// big-endian).
macro_rules! own_bytes {
    ($($t:ty),*) => {$(
        impl Field for $t {
            fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
                Ok(<$t>::from_bytes(r.r.array(key.name)?))
            }
            fn write(&self, w: &mut Writer<'_>, _: Key<'_>) -> Result<(), EncodeError> {
                w.bytes(&self.to_bytes());
                Ok(())
            }
        }
    )*};
}

own_bytes!(Position, Angle);

impl<const X: u16> Field for Scale<X> {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        Ok(Scale(u8::read(r, key)?))
    }
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError> {
        self.0.write(w, key)
    }
}

impl<const D: u16> Field for Scaled<D> {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        Ok(Scaled(i16::read(r, key)?))
    }
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError> {
        self.0.write(w, key)
    }
}

/// A NUL-terminated String; a datagram that ends before the NUL is truncated.
impl Field for NetString {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        let rest = &r.r.data()[r.r.pos()..];
        let Some(len) = rest.iter().position(|&b| b == 0) else {
            let why = format!("no NUL terminator in the {} bytes left", rest.len());
            return Err(r.r.invalid(key.name, why).into());
        };
        let bytes = r.r.bytes(len, key.name)?.to_vec();
        r.r.skip(1, key.name)?;
        Ok(NetString::from_wire(bytes))
    }
    fn write(&self, w: &mut Writer<'_>, _: Key<'_>) -> Result<(), EncodeError> {
        w.bytes(self.as_bytes());
        w.bytes(&[0]);
        Ok(())
    }
}

/// `CPosition[3]`: Positions or Fixed, as the session's [`DecodeOptions::pos_resolution`] says.
impl Field for EntityPosition {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        Ok(match r.opts.pos_resolution {
            PosResolution::Packed => EntityPosition::Packed(Field::read(r, key)?),
            PosResolution::Fixed => EntityPosition::Fixed(Field::read(r, key)?),
        })
    }
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError> {
        match self {
            EntityPosition::Packed(p) => p.write(w, key),
            EntityPosition::Fixed(p) => p.write(w, key),
        }
    }
}

/// `T[N]`: N values back to back, named by the key's parts or `name[i]`.
impl<T: Field, const N: usize> Field for [T; N] {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        let mut out = Vec::with_capacity(N);
        for i in 0..N {
            let name = match key.parts.get(i) {
                Some(part) => part.to_string(),
                None => format!("{}[{i}]", key.name),
            };
            out.push(T::read(r, Key::element(&name))?);
        }
        Ok(out
            .try_into()
            .unwrap_or_else(|_| unreachable!("N elements read")))
    }
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError> {
        self.iter().try_for_each(|v| v.write(w, key))
    }
}

/// Two values that travel together (`svc_update1`'s frame and fraction), named by the key's parts.
impl<A: Field, B: Field> Field for (A, B) {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        let a = A::read(r, Key::element(key.parts[0]))?;
        let b = B::read(r, Key::element(key.parts[1]))?;
        Ok((a, b))
    }
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError> {
        self.0.write(w, key)?;
        self.1.write(w, key)
    }
}

/// `Short len, Fixed[len]` (`svc_var`). The length is checked against the bytes left before
/// anything is allocated, so a hostile count costs nothing.
impl Field for Vec<Fixed> {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        let at = r.r.pos();
        let len = r.r.i16("len")?;
        let len = usize::try_from(len).map_err(|_| {
            FormatError::out_of_range(r.r.format(), "len", at, len as i64, 0, i16::MAX as i64)
        })?;
        r.r.check_count(len, 4, key.name)?;
        (0..len)
            .map(|i| Fixed::read(r, Key::element(&format!("{}[{i}]", key.name))))
            .collect()
    }
    fn write(&self, w: &mut Writer<'_>, key: Key<'_>) -> Result<(), EncodeError> {
        let too_many = EncodeProblem::TooMany {
            count: self.len(),
            max: i16::MAX as usize,
        };
        let len = i16::try_from(self.len())
            .map_err(|_| EncodeError::new(w.message, key.name, too_many))?;
        len.write(w, key)?;
        self.iter().try_for_each(|v| v.write(w, key))
    }
}

/// A user packet's bytes: they have no length, so they run to the end of the datagram.
impl Field for Vec<u8> {
    fn read(r: &mut Reader<'_>, key: Key<'_>) -> Result<Self, DecodeError> {
        r.rest(key.name)
    }
    fn write(&self, w: &mut Writer<'_>, _: Key<'_>) -> Result<(), EncodeError> {
        w.bytes(self);
        Ok(())
    }
}

/// An entity-update family (`svc_update1/2/3`): codes `FIRST_CODE..=LAST_CODE` name it, and the
/// code's low six bits say which of its fields follow. Made by the `updates!` table.
pub(crate) trait Family: Sized {
    /// The code with no field bit set.
    const FIRST_CODE: u8;
    /// The code with every bit set (bits that name no field are refused by `read`).
    const LAST_CODE: u8 = Self::FIRST_CODE | 0x3f;
    /// The code for the fields present.
    fn code(&self) -> u8;
    /// The fields `code` says follow.
    fn read(r: &mut Reader<'_>, code: u8) -> Result<Self, DecodeError>;
    /// The fields present (the code byte is already written).
    fn write(&self, w: &mut Writer<'_>) -> Result<(), EncodeError>;
}
