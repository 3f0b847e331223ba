//! Datagram → messages. A datagram holds any number of messages back to back, each a code byte and
//! its arguments; decoding yields all of them in order, or the first error.
//!
//! Which code is which message and which fields follow is the message table's (`message.rs`); how
//! each field is read is `codec.rs`'s. Errors name the message, the field and the byte offset in
//! the datagram. Counts (`svc_var`'s `len`) are checked against the bytes left before anything is
//! allocated, and nothing else allocates more than the datagram's length, so a hostile datagram
//! costs at most its own size.

use modex::FormatError;

use crate::message::{ClientMessage, Direction, ServerMessage};
use crate::wire::PosResolution;

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
    /// Shown as it always was (`...: truncated: needs 2 bytes, 0 left`): a datagram is not a file,
    /// and `modex net decode`'s lines are scripted.
    #[error("{}", datagram_message(.0))]
    Field(#[from] FormatError),
}

/// A field error in the words of a datagram: format, field, offset, then what was wrong.
fn datagram_message(e: &FormatError) -> String {
    format!(
        "{}: field `{}` at byte offset {} (0x{:x}): {}",
        e.format, e.field, e.offset, e.offset, e.kind
    )
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

/// Options of a decode that are session settings rather than bytes on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecodeOptions {
    /// The type of `CPosition` in entity updates.
    pub pos_resolution: PosResolution,
}

/// Decode a datagram sent by the server.
pub fn decode_server(data: &[u8], opts: DecodeOptions) -> Result<Vec<ServerMessage>> {
    decode_all(data, |pos| ServerMessage::read(data, pos, opts))
}

/// Decode a datagram sent by a client. (Client messages carry no `CPosition`, so no session
/// option changes how they read.)
pub fn decode_client(data: &[u8]) -> Result<Vec<ClientMessage>> {
    decode_all(data, |pos| {
        ClientMessage::read(data, pos, DecodeOptions::default())
    })
}

/// Every message of `data`, `next` reading the one at a position and saying where the next starts.
fn decode_all<M>(data: &[u8], mut next: impl FnMut(usize) -> Result<(M, usize)>) -> Result<Vec<M>> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let (message, end) = next(pos)?;
        out.push(message);
        pos = end;
    }
    Ok(out)
}
