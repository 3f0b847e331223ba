//! The client side: what a client knows of the server's entities, and dead reckoning between
//! updates ("a dead reckoning mechanism is used for extrapolating positions and angles between
//! cycles").
//!
//! Time comes from the server: each datagram the server sends starts with `svc_info`, whose
//! `server_time` stamps every update in that datagram. Position and the three angles of each entity
//! keep their last two stamped samples; between updates, [`ClientEntity::position_at`] and the angle
//! functions continue the motion those two samples show, for at most
//! [`ClientState::max_extrapolation`] seconds (so an entity whose updates stopped coming stops
//! instead of flying away).
//!
//! The delta rule makes silence meaningful: a datagram newer than any before that does not move an
//! entity says the entity's position did not change at wire resolution. The client records that as
//! an *inferred* sample (same value, new time), so an entity that stops is not extrapolated onwards.
//! A real sample of the same time (the server split a frame over two datagrams, which may arrive in
//! either order) always wins over an inferred one.
//!
//! Datagrams can arrive late and out of order: a sample older than the newest one of its track is
//! dropped, and so is a whole update whose datagram is older than the entity's newest update.

use std::collections::BTreeMap;

use crate::delta::EntityState;
use crate::message::{ServerMessage, INFO_MAGIC};
use crate::wire::{Angle, NetString};

#[derive(Debug, Clone, Copy, PartialEq)]
struct Sample<const N: usize> {
    time: f64,
    value: [f64; N],
    inferred: bool,
}

/// The last two samples of a value, for extrapolation.
#[derive(Debug, Clone, PartialEq)]
struct Track<const N: usize> {
    prev: Option<Sample<N>>,
    last: Sample<N>,
}

impl<const N: usize> Track<N> {
    fn new(time: f64, value: [f64; N]) -> Self {
        Track {
            prev: None,
            last: Sample {
                time,
                value,
                inferred: false,
            },
        }
    }

    fn push(&mut self, time: f64, value: [f64; N], inferred: bool) {
        let s = Sample {
            time,
            value,
            inferred,
        };
        if time < self.last.time {
            return; // a late datagram: the track already knows better
        }
        if time == self.last.time {
            // A real sample replaces anything; an inferred one only another inferred one.
            if !inferred || self.last.inferred {
                self.last = s;
            }
            return;
        }
        self.prev = Some(self.last);
        self.last = s;
    }

    /// The value at `time`, continuing the last two samples' motion for at most `max_ahead` seconds
    /// past the last one. `period` is 360 for angles (motion is the shortest way round).
    fn at(&self, time: f64, max_ahead: f64, period: Option<f64>) -> [f64; N] {
        let Some(prev) = self.prev else {
            return self.last.value;
        };
        let dt = self.last.time - prev.time;
        if dt <= 0.0 {
            return self.last.value;
        }
        let ahead = (time - self.last.time).clamp(0.0, max_ahead);
        let mut out = self.last.value;
        for (i, o) in out.iter_mut().enumerate() {
            let mut d = self.last.value[i] - prev.value[i];
            if let Some(p) = period {
                d = (d + p / 2.0).rem_euclid(p) - p / 2.0;
            }
            *o += d / dt * ahead;
            if let Some(p) = period {
                *o = o.rem_euclid(p);
            }
        }
        out
    }
}

/// One entity as the client knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientEntity {
    /// The id of `svc_create`, once that arrived.
    pub id: Option<i16>,
    /// The entity's fields as last received (the creation defaults until updates arrive).
    pub state: EntityState,
    /// Whether any update carried the entity's `type` yet.
    pub has_model: bool,
    updated: f64,
    position: Option<Track<3>>,
    angles: Option<Track<3>>,
}

impl ClientEntity {
    fn new() -> Self {
        ClientEntity {
            id: None,
            state: EntityState::new(NetString::default()),
            has_model: false,
            updated: f64::NEG_INFINITY,
            position: None,
            angles: None,
        }
    }

    /// Whether a position update arrived yet.
    pub fn has_position(&self) -> bool {
        self.position.is_some()
    }

    /// Position in quants, extrapolated to server time `time` (at most `max_ahead` s past the last
    /// update).
    pub fn position_at(&self, time: f64, max_ahead: f64) -> [f64; 3] {
        match &self.position {
            Some(t) => t.at(time, max_ahead, None),
            None => self.state.position.quants(),
        }
    }

    /// Pan, tilt and roll in degrees, extrapolated like the position.
    pub fn angles_at(&self, time: f64, max_ahead: f64) -> [f64; 3] {
        match &self.angles {
            Some(t) => t.at(time, max_ahead, Some(360.0)),
            None => self.angles_now(),
        }
    }

    /// The position of the last update, in quants.
    pub fn last_position(&self) -> [f64; 3] {
        self.state.position.quants()
    }

    fn angles_now(&self) -> [f64; 3] {
        [self.state.pan, self.state.tilt, self.state.roll].map(Angle::degrees)
    }
}

/// What the client knows of the session.
#[derive(Debug, Clone)]
pub struct ClientState {
    entities: BTreeMap<i16, ClientEntity>,
    time: Option<f64>,
    /// Protocol version of the last `svc_info`.
    pub protocol: Option<u8>,
    /// The server's frame time of the last `svc_info`, seconds.
    pub frame_time: Option<f64>,
    /// `svc_info` messages whose magic was not [`INFO_MAGIC`] (their times are not trusted).
    pub bad_magic: u64,
    /// The server said `svc_leave`.
    pub server_left: bool,
    /// Longest extrapolation past an entity's last update, seconds.
    pub max_extrapolation: f64,
}

impl Default for ClientState {
    fn default() -> Self {
        ClientState {
            entities: BTreeMap::new(),
            time: None,
            protocol: None,
            frame_time: None,
            bad_magic: 0,
            server_left: false,
            max_extrapolation: 0.25,
        }
    }
}

impl ClientState {
    /// A client that knows nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The newest server time seen, seconds.
    pub fn server_time(&self) -> Option<f64> {
        self.time
    }

    /// The entities by index.
    pub fn entities(&self) -> &BTreeMap<i16, ClientEntity> {
        &self.entities
    }

    /// One entity.
    pub fn entity(&self, index: i16) -> Option<&ClientEntity> {
        self.entities.get(&index)
    }

    /// Position of `index` extrapolated to server time `time`.
    pub fn position_at(&self, index: i16, time: f64) -> Option<[f64; 3]> {
        self.entities
            .get(&index)
            .map(|e| e.position_at(time, self.max_extrapolation))
    }

    /// Apply one datagram's messages, in order.
    pub fn apply(&mut self, messages: &[ServerMessage]) {
        // The datagram's time: its svc_info, else the newest known (a datagram without one is not
        // placed in time and its samples count as "now").
        let stamp = messages.iter().find_map(|m| match m {
            ServerMessage::Info {
                magic, server_time, ..
            } if *magic == INFO_MAGIC && server_time.is_finite() => Some(*server_time as f64),
            _ => None,
        });
        let newest = self.time.unwrap_or(f64::NEG_INFINITY);
        let time = stamp.or(self.time).unwrap_or(0.0);
        let advances = time > newest;
        let mut moved = Vec::new();
        let mut turned = Vec::new();
        for m in messages {
            match m {
                ServerMessage::Info {
                    magic,
                    protocol,
                    frame_time,
                    ..
                } => {
                    if *magic != INFO_MAGIC {
                        self.bad_magic += 1;
                    } else if advances {
                        self.protocol = Some(*protocol);
                        self.frame_time = Some(*frame_time as f64);
                    }
                }
                ServerMessage::Create { index, id } => {
                    self.entities
                        .entry(*index)
                        .or_insert_with(ClientEntity::new)
                        .id = Some(*id);
                }
                ServerMessage::Remove { index } => {
                    self.entities.remove(index);
                }
                ServerMessage::Leave => self.server_left = true,
                ServerMessage::Update1(u) => {
                    let e = self
                        .entities
                        .entry(u.entity)
                        .or_insert_with(ClientEntity::new);
                    if time < e.updated {
                        continue;
                    }
                    e.updated = time;
                    e.state.apply1(u);
                    e.has_model |= u.model.is_some();
                    if u.position.is_some() {
                        let q = e.state.position.quants();
                        match &mut e.position {
                            Some(t) => t.push(time, q, false),
                            None => e.position = Some(Track::new(time, q)),
                        }
                        moved.push(u.entity);
                    }
                    if u.pan.is_some() {
                        Self::turn(e, time);
                        turned.push(u.entity);
                    }
                }
                ServerMessage::Update2(u) => {
                    let e = self
                        .entities
                        .entry(u.entity)
                        .or_insert_with(ClientEntity::new);
                    if time < e.updated {
                        continue;
                    }
                    e.updated = time;
                    e.state.apply2(u);
                    if u.tilt.is_some() || u.roll.is_some() {
                        Self::turn(e, time);
                        turned.push(u.entity);
                    }
                }
                ServerMessage::Update3(u) => {
                    let e = self
                        .entities
                        .entry(u.entity)
                        .or_insert_with(ClientEntity::new);
                    if time < e.updated {
                        continue;
                    }
                    e.updated = time;
                    e.state.apply3(u);
                }
                // Sounds, effects, variables, strings, skills and user packets carry no entity
                // state this client keeps; the frontend may look at them itself.
                _ => {}
            }
        }
        if advances {
            self.time = Some(time);
            // Silence is news under the delta rule: what this newer datagram did not change stayed.
            for (index, e) in &mut self.entities {
                if !moved.contains(index) {
                    if let Some(t) = &mut e.position {
                        let v = t.last.value;
                        t.push(time, v, true);
                    }
                }
                if !turned.contains(index) {
                    if let Some(t) = &mut e.angles {
                        let v = t.last.value;
                        t.push(time, v, true);
                    }
                }
            }
        }
    }

    fn turn(e: &mut ClientEntity, time: f64) {
        let a = e.angles_now();
        match &mut e.angles {
            // Angles unwrap against the previous sample so a turn through 0 is a small step.
            Some(t) => t.push(time, a, false),
            None => e.angles = Some(Track::new(time, a)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Update1;
    use crate::wire::{EntityPosition, PosResolution};

    fn info(t: f32) -> ServerMessage {
        ServerMessage::Info {
            magic: INFO_MAGIC,
            protocol: 1,
            server_time: t,
            frame_time: 1.0 / 60.0,
        }
    }

    fn moved(entity: i16, x: f64, pan: f64) -> ServerMessage {
        ServerMessage::Update1(Update1 {
            entity,
            position: Some(
                EntityPosition::from_quants([x, 0.0, 0.0], PosResolution::Packed).unwrap(),
            ),
            pan: Some(Angle::from_degrees(pan).unwrap()),
            ..Update1::default()
        })
    }

    #[test]
    fn extrapolates_from_the_last_two_updates() {
        let mut c = ClientState::new();
        c.apply(&[info(1.0), moved(3, 10.0, 350.0)]);
        c.apply(&[info(1.1), moved(3, 11.0, 355.0)]);
        let e = c.entity(3).unwrap();
        let p = e.position_at(1.2, 0.25);
        assert!((p[0] - 12.0).abs() < 1e-4, "{p:?}");
        // Pan turns through 0: 355 + 5 = 360 = 0.
        let a = e.angles_at(1.2, 0.25);
        assert!(a[0].abs() < 1e-3 || (a[0] - 360.0).abs() < 1e-3, "{a:?}");
        // Capped past the last update.
        let p = e.position_at(5.0, 0.25);
        assert!((p[0] - 13.5).abs() < 1e-4, "{p:?}");
    }

    #[test]
    fn silence_means_the_entity_stopped() {
        let mut c = ClientState::new();
        c.apply(&[info(1.0), moved(3, 10.0, 0.0)]);
        c.apply(&[info(1.1), moved(3, 11.0, 0.0)]);
        c.apply(&[info(1.2)]);
        let p = c.position_at(3, 1.3).unwrap();
        assert!((p[0] - 11.0).abs() < 1e-6, "{p:?}");
    }

    #[test]
    fn late_datagrams_do_not_move_entities_back() {
        let mut c = ClientState::new();
        c.apply(&[info(1.0), moved(3, 10.0, 0.0)]);
        c.apply(&[info(1.2), moved(3, 12.0, 0.0)]);
        c.apply(&[info(1.1), moved(3, 11.0, 0.0)]);
        assert_eq!(c.entity(3).unwrap().last_position()[0], 12.0);
        assert_eq!(c.server_time(), Some(1.2f32 as f64));
    }

    #[test]
    fn a_split_frame_in_either_order_keeps_the_real_sample() {
        for swap in [false, true] {
            let mut c = ClientState::new();
            c.apply(&[info(1.0), moved(1, 0.0, 0.0), moved(2, 0.0, 0.0)]);
            let a = vec![info(1.1), moved(1, 1.0, 0.0)];
            let b = vec![info(1.1), moved(2, 2.0, 0.0)];
            if swap {
                c.apply(&b);
                c.apply(&a);
            } else {
                c.apply(&a);
                c.apply(&b);
            }
            // Both moving: extrapolation continues both.
            assert!((c.position_at(1, 1.2).unwrap()[0] - 2.0).abs() < 1e-4);
            assert!((c.position_at(2, 1.2).unwrap()[0] - 4.0).abs() < 1e-4);
        }
    }

    #[test]
    fn create_remove_leave() {
        let mut c = ClientState::new();
        c.apply(&[info(0.0), ServerMessage::Create { index: 4, id: 9 }]);
        assert_eq!(c.entity(4).unwrap().id, Some(9));
        c.apply(&[ServerMessage::Remove { index: 4 }, ServerMessage::Leave]);
        assert!(c.entity(4).is_none());
        assert!(c.server_left);
    }
}
