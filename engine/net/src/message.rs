//! The message table: every A5 message, once, with its code, its name and its fields in wire order.
//! The enums, `name`, `code`, the decoder, the encoder and the JSON shape are all made from these
//! lines (`table.rs`); a field's type says how it travels (`codec.rs`) and how it is shown
//! (`json/`), and its `=> "key"` is the name errors and JSON use.
//!
//! Several codes mean different messages in the two directions (0x07 is `svc_info` from the server
//! and `cls_ping` from a client), so a datagram can only be decoded knowing who sent it: hence two
//! enums rather than one.

use modex::Fixed;

use crate::table::{messages, updates};
use crate::wire::{Angle, EntityPosition, NetString, Position, Scale, Scaled};

/// The magic `svc_info` starts with.
pub const INFO_MAGIC: u32 = 0x1119_1218;

/// Code of a user packet in both directions: the SDK's `SendPacket` requires the first byte of user
/// data to be 17.
pub const USER_CODE: u8 = 0x11;

/// Who sent a datagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// The server sent it (`svc_*`).
    #[default]
    Server,
    /// A client sent it (`cls_*`).
    Client,
}

impl std::fmt::Display for Direction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Direction::Server => "server",
            Direction::Client => "client",
        })
    }
}

updates! {
    /// `svc_update1` (codes 0x40..=0x7f): position, pan, scale, model, frame, flags. A field is sent
    /// when it is `Some`; the code's low six bits are derived from that, so a value can never
    /// disagree with its code.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Update1 = 0x40 {
        /// Bit 0: `CPosition[3]`.
        position: EntityPosition => "position",
        /// Bit 1: pan.
        pan: Angle => "pan",
        /// Bit 2: scale `Short[3]` in quarters.
        scale: [Scaled<4>; 3] => "scale",
        /// Bit 3: `type`, the entity's file name.
        model: NetString => "type",
        /// Bit 4: frame number and `Scale(1)` fraction towards the next frame.
        frame: (i16, Scale<1>) => "frame" ["frame", "fraction"],
        /// Bit 5: flags1.
        flags1: u8 => "flags1",
    }

    /// `svc_update2` (codes 0x80..=0xbf): lighting, skin and the other two angles.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Update2 = 0x80 {
        /// Bit 0: ambient, `Scale(100)`.
        ambient: Scale<100> => "ambient",
        /// Bit 1: albedo, `Scale(255)`.
        albedo: Scale<255> => "albedo",
        /// Bit 2: skin number.
        skin: u8 => "skin",
        /// Bit 3: tilt.
        tilt: Angle => "tilt",
        /// Bit 4: roll.
        roll: Angle => "roll",
        /// Bit 5: the frame being interpolated towards.
        nextframe: i16 => "nextframe",
    }

    /// `svc_update3` (codes 0xc0..=0xdf; bit 5 is unused and refused): light, colour,
    /// transparency, texture offset, flags.
    #[derive(Debug, Clone, PartialEq, Default)]
    pub struct Update3 = 0xc0 {
        /// Bit 0: light range, `Scale(2000)`.
        lightrange: Scale<2000> => "lightrange",
        /// Bit 1: light colour, `Scale(255)` each, in the wire's order **B, G, R**.
        color: [Scale<255>; 3] => "color" ["color.b", "color.g", "color.r"],
        /// Bit 2: alpha, `Scale(100)`.
        alpha: Scale<100> => "alpha",
        /// Bit 3: texture offset u, v in sixteenths.
        uv: [Scaled<16>; 2] => "uv" ["uv.u", "uv.v"],
        /// Bit 4: flags2.
        flags2: u8 => "flags2",
    }
}

messages! {
    /// A message from the server (`svc_*`).
    #[derive(Debug, Clone, PartialEq)]
    pub enum ServerMessage from Direction::Server;

    /// 0x03: an entity was created with this index.
    Create {
        /// Entity index.
        index: i16 => "index",
        /// The id the client gave it in `cls_create`.
        id: i16 => "id",
    } = 0x03, "svc_create";
    /// 0x04: an entity was removed.
    Remove {
        /// Entity index.
        index: i16 => "index",
    } = 0x04, "svc_remove";
    /// 0x05: play an entity sound.
    EntSound {
        /// Entity index.
        ent: i16 => "ent",
        /// Sound number.
        sound: i16 => "sound",
        /// Volume, `Scale(2000)`.
        volume: Scale<2000> => "volume",
        /// Sound handle.
        handle: i32 => "handle",
    } = 0x05, "svc_entsound";
    /// 0x06: a particle effect (`svc_effect`, the manual's `SVC_PARTICLE`).
    Effect {
        /// Particle action.
        action: i16 => "action",
        /// Number of particles.
        number: i16 => "number",
        /// Where.
        position: [Position; 3] => "position",
        /// Initial velocity.
        velocity: [Fixed; 3] => "vel",
    } = 0x06, "svc_effect" | "svc_particle";
    /// 0x07: the server's clock.
    Info {
        /// Always [`INFO_MAGIC`] from a real server; kept as read so a dissector shows what came.
        magic: u32 => "magic",
        /// Protocol version.
        protocol: u8 => "protocol",
        /// Server time, seconds.
        server_time: f32 => "server_time",
        /// Duration of the server frame, seconds.
        frame_time: f32 => "frame_time",
    } = 0x07, "svc_info";
    /// 0x08: the server goes down.
    Leave = 0x08, "svc_leave";
    /// 0x0a: a variable (array) for all clients.
    Var {
        /// Variable index.
        index: i16 => "index",
        /// Its values (`Short len` then `Fixed[len]`).
        values: Vec<Fixed> => "values",
    } = 0x0a, "svc_var";
    /// 0x0b: a string for all clients.
    String {
        /// String index.
        index: i16 => "index",
        /// The text.
        string: NetString => "string",
    } = 0x0b, "svc_string";
    /// 0x0e: an entity skill for the entity's client.
    Skill {
        /// Entity index.
        ent: i16 => "ent",
        /// Byte offset of the skill in the entity struct.
        offset: i16 => "offset",
        /// The value.
        value: Fixed => "value",
    } = 0x0e, "svc_skill";
    /// 0x0f: a vector skill.
    Skill3 {
        /// Entity index.
        ent: i16 => "ent",
        /// Byte offset of the skill in the entity struct.
        offset: i16 => "offset",
        /// The values.
        value: [Fixed; 3] => "value",
    } = 0x0f, "svc_skill3";
    /// 0x40..=0x7f.
    Update1(Update1), "svc_update1";
    /// 0x80..=0xbf.
    Update2(Update2), "svc_update2";
    /// 0xc0..=0xdf (0xe0..=0xff set the unused bit 5 and are refused).
    Update3(Update3), "svc_update3";
    /// 0x11: user data. It has no length field, so it runs to the end of the datagram; `bytes` is
    /// what follows the 0x11 (the SDK's `ReceivePacket` sees the 0x11 too).
    User(Vec<u8> => "bytes") = USER_CODE, "user";
}

messages! {
    /// A message from a client (`cls_*`).
    #[derive(Debug, Clone, PartialEq)]
    pub enum ClientMessage from Direction::Client;

    /// 0x01: no arguments (a filler).
    Fill = 0x01, "cls_fill";
    /// 0x02: request to join the session.
    Join {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
        /// Player name.
        name: NetString => "name",
    } = 0x02, "cls_join";
    /// 0x03: create an entity from a model file and link the client to it.
    Create {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
        /// Model file name.
        file: NetString => "file",
        /// Where.
        position: [Position; 3] => "position",
        /// The action to run.
        action: i16 => "action",
        /// The client's id for it, echoed by `svc_create`.
        id: i16 => "id",
    } = 0x03, "cls_create";
    /// 0x04: remove the client's entity.
    Remove {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
    } = 0x04, "cls_remove";
    /// 0x07: sent after each client frame.
    Ping {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
    } = 0x07, "cls_ping";
    /// 0x08: leave the session. Its arguments were not recovered from the SDK manual; modex defines
    /// them as a Long dpid, like the other client messages.
    Leave {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
    } = 0x08, "cls_leave";
    /// 0x09: the client has loaded a level. Its arguments were not recovered either; modex defines
    /// them as a Long dpid and a String level file.
    Level {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
        /// Level file.
        level: NetString => "level",
    } = 0x09, "cls_level";
    /// 0x0a: a variable, laid out as `svc_var`.
    Var {
        /// Variable index.
        index: i16 => "index",
        /// Its values.
        values: Vec<Fixed> => "values",
    } = 0x0a, "cls_var";
    /// 0x0b: a string, laid out as `svc_string`.
    String {
        /// String index.
        index: i16 => "index",
        /// The text.
        string: NetString => "string",
    } = 0x0b, "cls_string";
    /// 0x0e: an entity skill.
    Skill {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
        /// Byte offset of the skill in the entity struct.
        offset: i16 => "struct_offset",
        /// The value.
        value: Fixed => "value",
    } = 0x0e, "cls_skill";
    /// 0x0f: a vector skill.
    Skill3 {
        /// The client's DirectPlay id.
        dpid: i32 => "dpid",
        /// Byte offset of the skill in the entity struct.
        offset: i16 => "struct_offset",
        /// The values.
        value: [Fixed; 3] => "value",
    } = 0x0f, "cls_skill3";
    /// 0x11: user data to the end of the datagram (after the 0x11).
    User(Vec<u8> => "bytes") = USER_CODE, "user";
}
