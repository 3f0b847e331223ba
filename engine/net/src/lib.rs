//! # modex-net — the Acknex A5 client/server protocol
//!
//! The A5 engine's multiplayer messages as the SDK manual describes them: a one-byte code and its
//! arguments, several messages per datagram, packed value types ([`Position`], [`Angle`],
//! [`Scale`], Fixed 22.10), entity updates whose code bits say which fields follow, and user
//! packets (code 0x11).
//!
//! - [`ServerMessage`] / [`ClientMessage`]: every message, written once in a table (`message.rs`)
//!   from which the enums, names, codes, decoder, encoder and JSON shape are all made.
//! - [`decode_server`] / [`decode_client`]: a datagram's messages, in order, or a [`DecodeError`]
//!   naming the message, the field and the byte offset (unknown codes are named too).
//! - [`encode_server`] / [`encode_client`]: the exact inverse (decode → encode gives the same
//!   bytes); values that do not fit their wire type are refused when they are built.
//! - [`DeltaEncoder`]: the server's per-client memory of what it sent, so each frame carries only the
//!   fields that changed at wire resolution.
//! - [`ClientState`]: what a client knows of the entities, with dead reckoning from the last two
//!   updates.
//! - [`Admission`]: a server's client cap and joins-per-address cap; [`DropLog`]: what it drops,
//!   counted per address and logged at most once a second.
//! - [`LossyLink`]: a seeded link that drops, duplicates and reorders datagrams, for tests.
//! - With the `serde` feature, `Serialize` and `Deserialize` for the messages (and `AnyMessage`,
//!   either direction chosen by name) in the JSON shape of `modex net decode --json`: one object
//!   per message, `message` first, then the fields in wire order.
//!
//! `docs/network.md` in the repository describes the wire format as implemented.
//!
//! No sockets here: the crate turns bytes into messages and state, and the `modex` binary owns the
//! UDP socket and the clock.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod admission;
mod client;
mod codec;
mod decode;
mod delta;
mod drops;
mod encode;
mod hex;
#[cfg(feature = "serde")]
mod json;
mod loopback;
mod message;
mod table;
mod wire;

pub use admission::{Admission, JoinVerdict, JOIN_WINDOW, TRACKED_ADDRESSES};
pub use client::{ClientEntity, ClientState};
pub use decode::{decode_client, decode_server, DecodeError, DecodeOptions};
pub use delta::{diff, full_state, DeltaEncoder, EntityState};
pub use drops::{DropKind, DropLog, DropReport, Dropped, DROP_ADDRESSES};
pub use encode::{
    encode_client, encode_server, packetize, EncodeError, EncodeProblem, MAX_DATAGRAM,
};
pub use hex::{parse_hex, to_hex, HexError};
#[cfg(feature = "serde")]
pub use json::AnyMessage;
pub use loopback::{LinkQuality, LossyLink};
pub use message::{
    ClientMessage, Direction, ServerMessage, Update1, Update2, Update3, INFO_MAGIC, USER_CODE,
};
pub use wire::{
    fixed_from_quants, Angle, EntityPosition, NetString, PosResolution, Position, Scale, Scaled,
    ValueError, POSITION_UNITS_PER_QUANT,
};
