//! The server side of the delta rule: "only parameters that have changed are sent over the network".
//!
//! A [`DeltaEncoder`] belongs to one client and remembers, per entity, the wire values it last sent
//! there. Entity state is kept in wire types ([`EntityState`]), so "changed" means "changed at wire
//! resolution": a position that moved by less than 1/128 quant packs to the same [`Position`] and is
//! not sent. A new client's encoder knows nothing, so its first frame carries every field of every
//! entity: that is how a client that joins late gets the whole battlefield.
//!
//! UDP loses datagrams, and a lost change of an entity that then stands still would never be sent
//! again. So the encoder also refreshes each entity in full once every
//! [`DeltaEncoder::refresh_every`] frames, spread over the frames so one frame never carries them all.

use std::collections::BTreeMap;

use crate::message::{ServerMessage, Update1, Update2, Update3};
use crate::wire::{Angle, EntityPosition, NetString, Position, Scale, Scaled};

/// Everything the update messages say about one entity, in wire types.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityState {
    /// `type`: the entity's file name.
    pub model: NetString,
    /// `CPosition[3]`.
    pub position: EntityPosition,
    /// Pan.
    pub pan: Angle,
    /// Scale in quarters (4 = 1.0).
    pub scale: [Scaled<4>; 3],
    /// Animation frame.
    pub frame: i16,
    /// Fraction towards `nextframe`.
    pub fraction: Scale<1>,
    /// flags1.
    pub flags1: u8,
    /// Ambient, 0..=100.
    pub ambient: Scale<100>,
    /// Albedo, 0..=255.
    pub albedo: Scale<255>,
    /// Skin number.
    pub skin: u8,
    /// Tilt.
    pub tilt: Angle,
    /// Roll.
    pub roll: Angle,
    /// Frame interpolated towards.
    pub nextframe: i16,
    /// Light range, 0..=2000.
    pub lightrange: Scale<2000>,
    /// Light colour B, G, R.
    pub color: [Scale<255>; 3],
    /// Alpha, 0..=100.
    pub alpha: Scale<100>,
    /// Texture offset.
    pub uv: [Scaled<16>; 2],
    /// flags2.
    pub flags2: u8,
}

impl EntityState {
    /// An entity of `model` at the origin with the engine's defaults: scale 1, opaque, unlit, the
    /// rest zero.
    pub fn new(model: NetString) -> EntityState {
        EntityState {
            model,
            position: EntityPosition::Packed([Position::default(); 3]),
            pan: Angle(0),
            scale: [Scaled(4); 3],
            frame: 0,
            fraction: Scale(0),
            flags1: 0,
            ambient: Scale(0),
            albedo: Scale(0),
            skin: 0,
            tilt: Angle(0),
            roll: Angle(0),
            nextframe: 0,
            lightrange: Scale(0),
            color: [Scale(0); 3],
            alpha: Scale(255),
            uv: [Scaled(0); 2],
            flags2: 0,
        }
    }

    /// Apply the fields an update carries.
    pub fn apply1(&mut self, u: &Update1) {
        if let Some(p) = u.position {
            self.position = p;
        }
        if let Some(a) = u.pan {
            self.pan = a;
        }
        if let Some(s) = u.scale {
            self.scale = s;
        }
        if let Some(m) = &u.model {
            self.model = m.clone();
        }
        if let Some((f, fr)) = u.frame {
            self.frame = f;
            self.fraction = fr;
        }
        if let Some(f) = u.flags1 {
            self.flags1 = f;
        }
    }

    /// Apply the fields an update carries.
    pub fn apply2(&mut self, u: &Update2) {
        if let Some(v) = u.ambient {
            self.ambient = v;
        }
        if let Some(v) = u.albedo {
            self.albedo = v;
        }
        if let Some(v) = u.skin {
            self.skin = v;
        }
        if let Some(v) = u.tilt {
            self.tilt = v;
        }
        if let Some(v) = u.roll {
            self.roll = v;
        }
        if let Some(v) = u.nextframe {
            self.nextframe = v;
        }
    }

    /// Apply the fields an update carries.
    pub fn apply3(&mut self, u: &Update3) {
        if let Some(v) = u.lightrange {
            self.lightrange = v;
        }
        if let Some(v) = u.color {
            self.color = v;
        }
        if let Some(v) = u.alpha {
            self.alpha = v;
        }
        if let Some(v) = u.uv {
            self.uv = v;
        }
        if let Some(v) = u.flags2 {
            self.flags2 = v;
        }
    }
}

/// `Some(new)` when `old` is unknown or differs.
fn changed<T: PartialEq + Clone>(old: Option<&T>, new: &T) -> Option<T> {
    match old {
        Some(o) if o == new => None,
        _ => Some(new.clone()),
    }
}

/// The updates that take a client from `old` (`None`: knows nothing) to `new`: only the message
/// families with a changed field, each with only its changed fields.
pub fn diff(entity: i16, old: Option<&EntityState>, new: &EntityState) -> Vec<ServerMessage> {
    let u1 = Update1 {
        entity,
        position: changed(old.map(|o| &o.position), &new.position),
        pan: changed(old.map(|o| &o.pan), &new.pan),
        scale: changed(old.map(|o| &o.scale), &new.scale),
        model: changed(old.map(|o| &o.model), &new.model),
        frame: changed(
            old.map(|o| (o.frame, o.fraction)).as_ref(),
            &(new.frame, new.fraction),
        ),
        flags1: changed(old.map(|o| &o.flags1), &new.flags1),
    };
    let u2 = Update2 {
        entity,
        ambient: changed(old.map(|o| &o.ambient), &new.ambient),
        albedo: changed(old.map(|o| &o.albedo), &new.albedo),
        skin: changed(old.map(|o| &o.skin), &new.skin),
        tilt: changed(old.map(|o| &o.tilt), &new.tilt),
        roll: changed(old.map(|o| &o.roll), &new.roll),
        nextframe: changed(old.map(|o| &o.nextframe), &new.nextframe),
    };
    let u3 = Update3 {
        entity,
        lightrange: changed(old.map(|o| &o.lightrange), &new.lightrange),
        color: changed(old.map(|o| &o.color), &new.color),
        alpha: changed(old.map(|o| &o.alpha), &new.alpha),
        uv: changed(old.map(|o| &o.uv), &new.uv),
        flags2: changed(old.map(|o| &o.flags2), &new.flags2),
    };
    let mut out = Vec::new();
    if u1.code() != Update1::BASE {
        out.push(ServerMessage::Update1(u1));
    }
    if u2.code() != Update2::BASE {
        out.push(ServerMessage::Update2(u2));
    }
    if u3.code() != Update3::BASE {
        out.push(ServerMessage::Update3(u3));
    }
    out
}

/// Every field of every entity: what a client that knows nothing needs (a joining client's
/// first frame). The same messages a fresh [`DeltaEncoder`]'s first frame gives, without an
/// encoder: a server that encodes each frame once for every client ([`DeltaEncoder`] shared)
/// sends this to a newcomer and the shared frames after it.
pub fn full_state(entities: &[(i16, EntityState)]) -> Vec<ServerMessage> {
    entities
        .iter()
        .flat_map(|(index, state)| diff(*index, None, state))
        .collect()
}

/// What one client was last sent of each entity.
#[derive(Debug, Clone)]
pub struct DeltaEncoder {
    sent: BTreeMap<i16, EntityState>,
    frame: u64,
    /// Every entity is sent in full once per this many frames (0: never), so a lost datagram heals.
    pub refresh_every: u64,
}

impl Default for DeltaEncoder {
    fn default() -> Self {
        DeltaEncoder::new(60)
    }
}

impl DeltaEncoder {
    /// An encoder for a client that knows nothing yet, refreshing each entity every `refresh_every`
    /// frames.
    pub fn new(refresh_every: u64) -> DeltaEncoder {
        DeltaEncoder {
            sent: BTreeMap::new(),
            frame: 0,
            refresh_every,
        }
    }

    /// The updates of one frame for `entities` (index, current state), in the order given. Entities
    /// the client has not been sent yet go out in full; the rest only with what changed, except the
    /// ones whose turn it is to be refreshed.
    pub fn frame(&mut self, entities: &[(i16, EntityState)]) -> Vec<ServerMessage> {
        let mut out = Vec::new();
        for (n, (index, state)) in entities.iter().enumerate() {
            let refresh = self.refresh_every > 0
                && (n as u64 % self.refresh_every) == self.frame % self.refresh_every;
            let old = if refresh { None } else { self.sent.get(index) };
            out.extend(diff(*index, old, state));
            self.sent.insert(*index, state.clone());
        }
        self.frame += 1;
        out
    }

    /// Forget an entity (it was removed), so a later one with the same index goes out in full.
    pub fn forget(&mut self, index: i16) {
        self.sent.remove(&index);
    }

    /// What the client was last sent of `index`.
    pub fn sent(&self, index: i16) -> Option<&EntityState> {
        self.sent.get(&index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tank() -> EntityState {
        EntityState::new(NetString::from_latin1("tank.vxl").unwrap())
    }

    fn at(x: f64) -> EntityPosition {
        EntityPosition::from_quants([x, 2.0, 3.0], crate::PosResolution::Packed).unwrap()
    }

    #[test]
    fn first_frame_is_full_then_only_changes() {
        let mut enc = DeltaEncoder::new(0);
        let mut s = tank();
        s.position = at(1.0);
        let first = enc.frame(&[(7, s.clone())]);
        assert_eq!(first.len(), 3, "all three families on first contact");
        assert!(enc.frame(&[(7, s.clone())]).is_empty(), "nothing changed");
        s.position = at(1.5);
        let m = enc.frame(&[(7, s.clone())]);
        let [ServerMessage::Update1(u)] = &m[..] else {
            panic!("{m:?}")
        };
        assert_eq!(u.code(), 0x41);
        assert_eq!(u.position, Some(at(1.5)));
        // The manual's "12 bytes including header" for a changed XYZ.
        assert_eq!(crate::encode_server(&m).unwrap().len(), 12);
    }

    #[test]
    fn full_state_is_a_fresh_encoders_first_frame() {
        let mut s = tank();
        s.position = at(4.0);
        let ents = vec![(3, s.clone()), (9, tank())];
        assert_eq!(full_state(&ents), DeltaEncoder::new(60).frame(&ents));
    }

    #[test]
    fn sub_resolution_moves_are_not_sent() {
        let mut enc = DeltaEncoder::new(0);
        let mut s = tank();
        s.position = at(1.0);
        enc.frame(&[(1, s.clone())]);
        s.position = at(1.0 + 1.0 / 512.0);
        assert!(enc.frame(&[(1, s.clone())]).is_empty());
        s.position = at(1.0 + 1.0 / 128.0);
        assert_eq!(enc.frame(&[(1, s)]).len(), 1);
    }

    #[test]
    fn refresh_resends_each_entity_once_per_period() {
        let mut enc = DeltaEncoder::new(4);
        let ents: Vec<(i16, EntityState)> = (0..8).map(|i| (i, tank())).collect();
        enc.frame(&ents);
        let mut refreshed = Vec::new();
        for _ in 0..4 {
            let m = enc.frame(&ents);
            for msg in &m {
                if let ServerMessage::Update1(u) = msg {
                    refreshed.push(u.entity);
                }
            }
            assert_eq!(
                m.len(),
                2 * 3,
                "two entities per frame, three families each"
            );
        }
        refreshed.sort();
        assert_eq!(refreshed, (0..8).collect::<Vec<_>>());
    }
}
