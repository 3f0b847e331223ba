//! Who a server lets in: at most so many clients at once, and at most so many accepted joins from
//! one IP address in any one second.
//!
//! Every accepted `cls_join` costs the server a welcome (one `svc_create` per entity and every field
//! of every entity: 764 bytes for the demo's 13 units, about 60 KB for 1000), sent to an address it
//! has not verified. The per-address cap bounds what a stream of joins, real or forged, makes the
//! server send; the client cap bounds the clients it serves (each costs the bytes of every frame).
//! A refused join is not answered: the client repeats its join until a place is free, as it does
//! when the answer is lost.
//!
//! No clock here: the caller passes the time, so the rules are tested without waiting.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The window the per-address cap counts joins in.
pub const JOIN_WINDOW: Duration = Duration::from_secs(1);

/// Most addresses whose joins are counted at once. Only addresses that joined in the last
/// [`JOIN_WINDOW`] are kept, so this binds only during a flood of joins from more addresses than
/// this in one second; joins from further addresses are then refused until the window passes.
pub const TRACKED_ADDRESSES: usize = 4096;

/// What [`Admission::join`] decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JoinVerdict {
    /// Welcome the client (again, if it already is one: its first welcome was lost).
    Accept,
    /// Every place is taken: `max` clients are connected.
    Full {
        /// The client cap.
        max: usize,
    },
    /// This address has had `limit` joins accepted in the current second.
    TooFast {
        /// Joins accepted per address per second.
        limit: u32,
    },
}

impl std::fmt::Display for JoinVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JoinVerdict::Accept => write!(f, "join accepted"),
            JoinVerdict::Full { max } => {
                write!(f, "join refused: the server is full ({max} clients)")
            }
            JoinVerdict::TooFast { limit } => write!(
                f,
                "join refused: this address already had {limit} joins accepted in the last second"
            ),
        }
    }
}

/// The server's door: the client cap and the joins-per-address cap.
#[derive(Debug, Clone)]
pub struct Admission {
    max_clients: usize,
    joins_per_second: u32,
    /// Per address: when its current window began, and the joins accepted in it.
    windows: HashMap<IpAddr, (Instant, u32)>,
}

impl Admission {
    /// At most `max_clients` clients, and at most `joins_per_second` accepted joins per address in
    /// any [`JOIN_WINDOW`].
    pub fn new(max_clients: usize, joins_per_second: u32) -> Admission {
        Admission {
            max_clients,
            joins_per_second,
            windows: HashMap::new(),
        }
    }

    /// The client cap.
    pub fn max_clients(&self) -> usize {
        self.max_clients
    }

    /// A `cls_join` from `from` at `now`, while `clients` clients are connected; `known` when the
    /// sender already is one of them (a repeated join does not need a new place, but counts against
    /// its address like any other).
    pub fn join(&mut self, from: IpAddr, known: bool, clients: usize, now: Instant) -> JoinVerdict {
        if !known && clients >= self.max_clients {
            return JoinVerdict::Full {
                max: self.max_clients,
            };
        }
        let too_fast = JoinVerdict::TooFast {
            limit: self.joins_per_second,
        };
        if !self.windows.contains_key(&from) && self.windows.len() >= TRACKED_ADDRESSES {
            self.windows
                .retain(|_, (start, _)| now.saturating_duration_since(*start) < JOIN_WINDOW);
            if self.windows.len() >= TRACKED_ADDRESSES {
                return too_fast;
            }
        }
        let (start, count) = self.windows.entry(from).or_insert((now, 0));
        if now.saturating_duration_since(*start) >= JOIN_WINDOW {
            *start = now;
            *count = 0;
        }
        if *count >= self.joins_per_second {
            return too_fast;
        }
        *count += 1;
        JoinVerdict::Accept
    }

    /// Addresses currently tracked (at most [`TRACKED_ADDRESSES`]).
    pub fn tracked(&self) -> usize {
        self.windows.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    #[test]
    fn the_cap_refuses_newcomers_but_not_a_repeated_join() {
        let mut a = Admission::new(2, 100);
        let t = Instant::now();
        assert_eq!(a.join(ip(1), false, 0, t), JoinVerdict::Accept);
        assert_eq!(a.join(ip(2), false, 1, t), JoinVerdict::Accept);
        assert_eq!(a.join(ip(3), false, 2, t), JoinVerdict::Full { max: 2 });
        assert_eq!(a.join(ip(1), true, 2, t), JoinVerdict::Accept);
    }

    #[test]
    fn joins_per_address_per_second() {
        let mut a = Admission::new(64, 3);
        let t = Instant::now();
        for _ in 0..3 {
            assert_eq!(a.join(ip(1), true, 1, t), JoinVerdict::Accept);
        }
        let later = t + Duration::from_millis(999);
        assert_eq!(
            a.join(ip(1), true, 1, later),
            JoinVerdict::TooFast { limit: 3 }
        );
        // Another address has its own count; the first one's next second starts afresh.
        assert_eq!(a.join(ip(2), false, 1, later), JoinVerdict::Accept);
        assert_eq!(a.join(ip(1), true, 2, t + JOIN_WINDOW), JoinVerdict::Accept);
    }

    #[test]
    fn the_table_of_addresses_stays_bounded() {
        let mut a = Admission::new(usize::MAX, 1);
        let t = Instant::now();
        for i in 0..TRACKED_ADDRESSES as u32 {
            let addr = IpAddr::from((0x0a00_0000 + i).to_be_bytes());
            assert_eq!(a.join(addr, false, 0, t), JoinVerdict::Accept);
        }
        let one_more = IpAddr::from([192, 168, 0, 1]);
        assert_eq!(
            a.join(one_more, false, 0, t),
            JoinVerdict::TooFast { limit: 1 }
        );
        assert_eq!(a.tracked(), TRACKED_ADDRESSES);
        // Once the window has passed, the old entries make room.
        assert_eq!(
            a.join(one_more, false, 0, t + JOIN_WINDOW),
            JoinVerdict::Accept
        );
        assert_eq!(a.tracked(), 1);
    }
}
