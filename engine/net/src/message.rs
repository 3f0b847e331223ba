//! The messages of the notes' table, one enum per direction.
//!
//! Several codes mean different messages in the two directions (0x07 is `svc_info` from the server
//! and `cls_ping` from a client), so a datagram can only be decoded knowing who sent it: hence two
//! enums rather than one.

use modex::Fixed;

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

/// `svc_update1` (codes 0x40..=0x7f): position, pan, scale, model, frame, flags. A field is sent when
/// it is `Some`; the code's low six bits are derived from that, so a value can never disagree with its
/// code.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Update1 {
    /// Entity index.
    pub entity: i16,
    /// Bit 0: `CPosition[3]`.
    pub position: Option<EntityPosition>,
    /// Bit 1: pan.
    pub pan: Option<Angle>,
    /// Bit 2: scale `Short[3]` in quarters.
    pub scale: Option<[Scaled<4>; 3]>,
    /// Bit 3: `type`, the entity's file name.
    pub model: Option<NetString>,
    /// Bit 4: frame number and `Scale(1)` fraction towards the next frame.
    pub frame: Option<(i16, Scale<1>)>,
    /// Bit 5: flags1.
    pub flags1: Option<u8>,
}

/// `svc_update2` (codes 0x80..=0xbf): lighting, skin and the other two angles.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Update2 {
    /// Entity index.
    pub entity: i16,
    /// Bit 0: ambient, `Scale(100)`.
    pub ambient: Option<Scale<100>>,
    /// Bit 1: albedo, `Scale(255)`.
    pub albedo: Option<Scale<255>>,
    /// Bit 2: skin number.
    pub skin: Option<u8>,
    /// Bit 3: tilt.
    pub tilt: Option<Angle>,
    /// Bit 4: roll.
    pub roll: Option<Angle>,
    /// Bit 5: the frame being interpolated towards.
    pub nextframe: Option<i16>,
}

/// `svc_update3` (codes 0xc0..=0xdf; bit 5 is unused and refused): light, colour, transparency,
/// texture offset, flags.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Update3 {
    /// Entity index.
    pub entity: i16,
    /// Bit 0: light range, `Scale(2000)`.
    pub lightrange: Option<Scale<2000>>,
    /// Bit 1: light colour, `Scale(255)` each, in the wire's order **B, G, R**.
    pub color: Option<[Scale<255>; 3]>,
    /// Bit 2: alpha, `Scale(100)`.
    pub alpha: Option<Scale<100>>,
    /// Bit 3: texture offset u, v in sixteenths.
    pub uv: Option<[Scaled<16>; 2]>,
    /// Bit 4: flags2.
    pub flags2: Option<u8>,
}

fn bits(fields: [bool; 6]) -> u8 {
    fields
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &on)| acc | (u8::from(on) << i))
}

impl Update1 {
    /// Base code of the family.
    pub const BASE: u8 = 0x40;

    /// The code these fields go out under.
    pub fn code(&self) -> u8 {
        Self::BASE
            | bits([
                self.position.is_some(),
                self.pan.is_some(),
                self.scale.is_some(),
                self.model.is_some(),
                self.frame.is_some(),
                self.flags1.is_some(),
            ])
    }
}

impl Update2 {
    /// Base code of the family.
    pub const BASE: u8 = 0x80;

    /// The code these fields go out under.
    pub fn code(&self) -> u8 {
        Self::BASE
            | bits([
                self.ambient.is_some(),
                self.albedo.is_some(),
                self.skin.is_some(),
                self.tilt.is_some(),
                self.roll.is_some(),
                self.nextframe.is_some(),
            ])
    }
}

impl Update3 {
    /// Base code of the family.
    pub const BASE: u8 = 0xc0;

    /// The code these fields go out under.
    pub fn code(&self) -> u8 {
        Self::BASE
            | bits([
                self.lightrange.is_some(),
                self.color.is_some(),
                self.alpha.is_some(),
                self.uv.is_some(),
                self.flags2.is_some(),
                false,
            ])
    }
}

/// A message from the server (`svc_*`).
#[derive(Debug, Clone, PartialEq)]
pub enum ServerMessage {
    /// 0x03: an entity was created with this index.
    Create {
        /// Entity index.
        index: i16,
        /// The id the client gave it in `cls_create`.
        id: i16,
    },
    /// 0x04: an entity was removed.
    Remove {
        /// Entity index.
        index: i16,
    },
    /// 0x05: play an entity sound.
    EntSound {
        /// Entity index.
        ent: i16,
        /// Sound number.
        sound: i16,
        /// Volume, `Scale(2000)`.
        volume: Scale<2000>,
        /// Sound handle.
        handle: i32,
    },
    /// 0x06: a particle effect (`svc_effect`, the manual's `SVC_PARTICLE`).
    Effect {
        /// Particle action.
        action: i16,
        /// Number of particles.
        number: i16,
        /// Where.
        position: [Position; 3],
        /// Initial velocity.
        velocity: [Fixed; 3],
    },
    /// 0x07: the server's clock.
    Info {
        /// Always [`INFO_MAGIC`] from a real server; kept as read so a dissector shows what came.
        magic: u32,
        /// Protocol version.
        protocol: u8,
        /// Server time, seconds.
        server_time: f32,
        /// Duration of the server frame, seconds.
        frame_time: f32,
    },
    /// 0x08: the server goes down.
    Leave,
    /// 0x0a: a variable (array) for all clients.
    Var {
        /// Variable index.
        index: i16,
        /// Its values (`Short len` then `Fixed[len]`).
        values: Vec<Fixed>,
    },
    /// 0x0b: a string for all clients.
    String {
        /// String index.
        index: i16,
        /// The text.
        string: NetString,
    },
    /// 0x0e: an entity skill for the entity's client.
    Skill {
        /// Entity index.
        ent: i16,
        /// Byte offset of the skill in the entity struct.
        offset: i16,
        /// The value.
        value: Fixed,
    },
    /// 0x0f: a vector skill.
    Skill3 {
        /// Entity index.
        ent: i16,
        /// Byte offset of the skill in the entity struct.
        offset: i16,
        /// The values.
        value: [Fixed; 3],
    },
    /// 0x40..=0x7f.
    Update1(Update1),
    /// 0x80..=0xbf.
    Update2(Update2),
    /// 0xc0..=0xdf.
    Update3(Update3),
    /// 0x11: user data. It has no length field, so it runs to the end of the datagram; `bytes` is
    /// what follows the 0x11 (the SDK's `ReceivePacket` sees the 0x11 too).
    User(Vec<u8>),
}

impl ServerMessage {
    /// The message's name, lower case, as the CLI prints it.
    pub fn name(&self) -> &'static str {
        match self {
            ServerMessage::Create { .. } => "svc_create",
            ServerMessage::Remove { .. } => "svc_remove",
            ServerMessage::EntSound { .. } => "svc_entsound",
            ServerMessage::Effect { .. } => "svc_effect",
            ServerMessage::Info { .. } => "svc_info",
            ServerMessage::Leave => "svc_leave",
            ServerMessage::Var { .. } => "svc_var",
            ServerMessage::String { .. } => "svc_string",
            ServerMessage::Skill { .. } => "svc_skill",
            ServerMessage::Skill3 { .. } => "svc_skill3",
            ServerMessage::Update1(_) => "svc_update1",
            ServerMessage::Update2(_) => "svc_update2",
            ServerMessage::Update3(_) => "svc_update3",
            ServerMessage::User(_) => "user",
        }
    }

    /// The code byte this message goes out under.
    pub fn code(&self) -> u8 {
        match self {
            ServerMessage::Create { .. } => 0x03,
            ServerMessage::Remove { .. } => 0x04,
            ServerMessage::EntSound { .. } => 0x05,
            ServerMessage::Effect { .. } => 0x06,
            ServerMessage::Info { .. } => 0x07,
            ServerMessage::Leave => 0x08,
            ServerMessage::Var { .. } => 0x0a,
            ServerMessage::String { .. } => 0x0b,
            ServerMessage::Skill { .. } => 0x0e,
            ServerMessage::Skill3 { .. } => 0x0f,
            ServerMessage::Update1(u) => u.code(),
            ServerMessage::Update2(u) => u.code(),
            ServerMessage::Update3(u) => u.code(),
            ServerMessage::User(_) => USER_CODE,
        }
    }
}

/// A message from a client (`cls_*`).
#[derive(Debug, Clone, PartialEq)]
pub enum ClientMessage {
    /// 0x01: no arguments (a filler).
    Fill,
    /// 0x02: request to join the session.
    Join {
        /// The client's DirectPlay id.
        dpid: i32,
        /// Player name.
        name: NetString,
    },
    /// 0x03: create an entity from a model file and link the client to it.
    Create {
        /// The client's DirectPlay id.
        dpid: i32,
        /// Model file name.
        file: NetString,
        /// Where.
        position: [Position; 3],
        /// The action to run.
        action: i16,
        /// The client's id for it, echoed by `svc_create`.
        id: i16,
    },
    /// 0x04: remove the client's entity.
    Remove {
        /// The client's DirectPlay id.
        dpid: i32,
    },
    /// 0x07: sent after each client frame.
    Ping {
        /// The client's DirectPlay id.
        dpid: i32,
    },
    /// 0x08: leave the session. Its arguments were not recovered; the notes define it as a Long dpid
    /// like the other client messages.
    Leave {
        /// The client's DirectPlay id.
        dpid: i32,
    },
    /// 0x09: the client has loaded a level. Arguments not recovered; defined by the notes as Long
    /// dpid, String level.
    Level {
        /// The client's DirectPlay id.
        dpid: i32,
        /// Level file.
        level: NetString,
    },
    /// 0x0a: a variable, laid out as `svc_var`.
    Var {
        /// Variable index.
        index: i16,
        /// Its values.
        values: Vec<Fixed>,
    },
    /// 0x0b: a string, laid out as `svc_string`.
    String {
        /// String index.
        index: i16,
        /// The text.
        string: NetString,
    },
    /// 0x0e: an entity skill.
    Skill {
        /// The client's DirectPlay id.
        dpid: i32,
        /// Byte offset of the skill in the entity struct.
        offset: i16,
        /// The value.
        value: Fixed,
    },
    /// 0x0f: a vector skill.
    Skill3 {
        /// The client's DirectPlay id.
        dpid: i32,
        /// Byte offset of the skill in the entity struct.
        offset: i16,
        /// The values.
        value: [Fixed; 3],
    },
    /// 0x11: user data to the end of the datagram (after the 0x11).
    User(Vec<u8>),
}

impl ClientMessage {
    /// The message's name, lower case, as the CLI prints it.
    pub fn name(&self) -> &'static str {
        match self {
            ClientMessage::Fill => "cls_fill",
            ClientMessage::Join { .. } => "cls_join",
            ClientMessage::Create { .. } => "cls_create",
            ClientMessage::Remove { .. } => "cls_remove",
            ClientMessage::Ping { .. } => "cls_ping",
            ClientMessage::Leave { .. } => "cls_leave",
            ClientMessage::Level { .. } => "cls_level",
            ClientMessage::Var { .. } => "cls_var",
            ClientMessage::String { .. } => "cls_string",
            ClientMessage::Skill { .. } => "cls_skill",
            ClientMessage::Skill3 { .. } => "cls_skill3",
            ClientMessage::User(_) => "user",
        }
    }

    /// The code byte this message goes out under.
    pub fn code(&self) -> u8 {
        match self {
            ClientMessage::Fill => 0x01,
            ClientMessage::Join { .. } => 0x02,
            ClientMessage::Create { .. } => 0x03,
            ClientMessage::Remove { .. } => 0x04,
            ClientMessage::Ping { .. } => 0x07,
            ClientMessage::Leave { .. } => 0x08,
            ClientMessage::Level { .. } => 0x09,
            ClientMessage::Var { .. } => 0x0a,
            ClientMessage::String { .. } => 0x0b,
            ClientMessage::Skill { .. } => 0x0e,
            ClientMessage::Skill3 { .. } => 0x0f,
            ClientMessage::User(_) => USER_CODE,
        }
    }
}
