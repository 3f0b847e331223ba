//! Messages → datagram bytes, the exact inverse of decoding (`decode.rs`); each message's bytes
//! come from the message table (`message.rs`) and each field's from `codec.rs`.
//!
//! The packed types can only hold representable values (their constructors refuse the rest), so what
//! is left to refuse here is structure: a `svc_var` longer than its Short length field can count, and
//! a user packet that is not the last message (it has no length, so it runs to the datagram's end and
//! anything after it would be read as user bytes).

use crate::message::{ClientMessage, ServerMessage};
use crate::wire::ValueError;

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

/// Encode one datagram of server messages.
pub fn encode_server(messages: &[ServerMessage]) -> Result<Vec<u8>, EncodeError> {
    encode_all(
        messages,
        |m| matches!(m, ServerMessage::User(_)),
        ServerMessage::name,
        ServerMessage::write,
    )
}

/// Encode one datagram of client messages.
pub fn encode_client(messages: &[ClientMessage]) -> Result<Vec<u8>, EncodeError> {
    encode_all(
        messages,
        |m| matches!(m, ClientMessage::User(_)),
        ClientMessage::name,
        ClientMessage::write,
    )
}

/// `messages` back to back, refusing a user packet (`is_user`) anywhere but last.
fn encode_all<M>(
    messages: &[M],
    is_user: impl Fn(&M) -> bool,
    name: impl Fn(&M) -> &'static str,
    write: impl Fn(&M, &mut Vec<u8>) -> Result<(), EncodeError>,
) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if is_user(m) && i + 1 < messages.len() {
            return Err(user_not_last(name(m)));
        }
        write(m, &mut out)?;
    }
    Ok(out)
}

fn user_not_last(message: &'static str) -> EncodeError {
    EncodeError::new(message, "bytes", EncodeProblem::UserNotLast)
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
    header.write(&mut head)?;
    let mut out = Vec::new();
    let mut current = head.clone();
    let mut one = Vec::new();
    for m in messages {
        if matches!(m, ServerMessage::User(_)) {
            return Err(user_not_last(m.name()));
        }
        one.clear();
        m.write(&mut one)?;
        if current.len() > head.len() && current.len() + one.len() > max {
            out.push(std::mem::replace(&mut current, head.clone()));
        }
        current.extend_from_slice(&one);
    }
    out.push(current);
    Ok(out)
}
