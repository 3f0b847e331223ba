//! What a server (or client) drops, logged at most once per second per address, with a count.
//!
//! A flood of bad datagrams must not become a flood of log lines: 40,000 hostile datagrams from 32
//! addresses once made `modex demo --serve` write 18,491 lines, and a server whose log is a pipe
//! nobody reads stops when the pipe fills. [`DropLog`] counts each address's dropped datagrams and
//! refused joins, and says when a line is due: the first drop from an address at once, then at most
//! one line per [`DropLog::interval`] with what was dropped since the last one, the first reason
//! of the period as the example. Addresses are IP addresses (a host that changes its port is the
//! same peer); the table holds only the addresses heard from in the last interval, at most
//! [`DROP_ADDRESSES`], and drops from further addresses are counted together as "other
//! addresses", so neither memory nor lines grow with the number of senders.
//!
//! No clock here: the caller passes the time, and writes the lines where it likes.

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

/// Most addresses counted one by one; drops from others are counted together.
pub const DROP_ADDRESSES: usize = 1024;

/// Longest example reason kept (bytes); the rest is cut at a character boundary.
const MAX_REASON: usize = 160;

/// Why a datagram was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropKind {
    /// It could not be decoded, was too large, or carried a value the receiver refuses.
    Bad,
    /// A join refused: the server is full.
    Full,
    /// A join refused: too many joins from this address this second.
    TooFast,
}

/// Counts of dropped datagrams by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dropped {
    /// Bad datagrams.
    pub bad: u64,
    /// Joins refused because the server was full.
    pub full: u64,
    /// Joins refused because their address joined too often.
    pub too_fast: u64,
}

impl Dropped {
    /// Everything counted.
    pub fn total(&self) -> u64 {
        self.bad + self.full + self.too_fast
    }

    fn add(&mut self, kind: DropKind) {
        match kind {
            DropKind::Bad => self.bad += 1,
            DropKind::Full => self.full += 1,
            DropKind::TooFast => self.too_fast += 1,
        }
    }
}

/// One log line: what was dropped from an address since its last line.
#[derive(Debug, Clone, PartialEq)]
pub struct DropReport {
    /// The sender (its latest port), or `None` for the addresses beyond [`DROP_ADDRESSES`].
    pub from: Option<SocketAddr>,
    /// What was dropped.
    pub dropped: Dropped,
    /// The first reason of the period.
    pub reason: String,
    /// How long since this address's previous line (`None`: its first).
    pub since: Option<Duration>,
}

impl fmt::Display for DropReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.from {
            Some(a) => write!(f, "net: from {a}: dropped ")?,
            None => write!(f, "net: from other addresses: dropped ")?,
        }
        let d = &self.dropped;
        if d.total() == 1 {
            let what = if d.bad == 1 { "bad datagram" } else { "join" };
            write!(f, "1 {what}")?;
        } else {
            write!(f, "{} datagrams", d.total())?;
            if let Some(s) = self.since {
                write!(f, " in {:.1} s", s.as_secs_f64())?;
            }
            let mut parts = Vec::new();
            if d.bad > 0 {
                parts.push(format!("{} bad", d.bad));
            }
            if d.full > 0 {
                parts.push(format!("{} joins refused (full)", d.full));
            }
            if d.too_fast > 0 {
                parts.push(format!("{} joins refused (too fast)", d.too_fast));
            }
            write!(f, " ({})", parts.join(", "))?;
        }
        write!(f, ": {}", self.reason)
    }
}

#[derive(Debug, Clone)]
struct Peer {
    port: u16,
    /// When its last line was due (`None`: never).
    last_line: Option<Instant>,
    /// Dropped since then, not yet reported.
    pending: Dropped,
    reason: Option<String>,
    /// Last drop counted.
    last_seen: Instant,
}

impl Peer {
    fn new(now: Instant) -> Peer {
        Peer {
            port: 0,
            last_line: None,
            pending: Dropped::default(),
            reason: None,
            last_seen: now,
        }
    }

    fn due(&self, now: Instant, interval: Duration) -> bool {
        self.last_line
            .is_none_or(|t| now.saturating_duration_since(t) >= interval)
    }

    /// The line for what is pending, resetting the period.
    fn take(&mut self, ip: Option<IpAddr>, now: Instant) -> DropReport {
        let report = DropReport {
            from: ip.map(|ip| SocketAddr::new(ip, self.port)),
            dropped: std::mem::take(&mut self.pending),
            reason: self.reason.take().unwrap_or_default(),
            since: self.last_line.map(|t| now.saturating_duration_since(t)),
        };
        self.last_line = Some(now);
        report
    }
}

/// Per-address counts of dropped datagrams, with the lines due; see the module docs.
#[derive(Debug, Clone)]
pub struct DropLog {
    /// At most one line per address per this long.
    pub interval: Duration,
    peers: HashMap<IpAddr, Peer>,
    others: Peer,
    total: Dropped,
}

impl Default for DropLog {
    fn default() -> Self {
        DropLog::new(Duration::from_secs(1))
    }
}

impl DropLog {
    /// A log of at most one line per address per `interval`.
    pub fn new(interval: Duration) -> DropLog {
        let now = Instant::now();
        DropLog {
            interval,
            peers: HashMap::new(),
            others: Peer::new(now),
            total: Dropped::default(),
        }
    }

    /// Count a drop from `from` at `now`; `reason` is asked only when it will be shown. Returns the
    /// line when one is due now (the address's first drop, or the first after its interval).
    pub fn record(
        &mut self,
        from: SocketAddr,
        kind: DropKind,
        now: Instant,
        reason: impl FnOnce() -> String,
    ) -> Option<DropReport> {
        self.total.add(kind);
        let ip = from.ip();
        if !self.peers.contains_key(&ip) && self.peers.len() >= DROP_ADDRESSES {
            self.forget_idle(now);
        }
        let interval = self.interval;
        let (peer, key) = if self.peers.len() < DROP_ADDRESSES || self.peers.contains_key(&ip) {
            (
                self.peers.entry(ip).or_insert_with(|| Peer::new(now)),
                Some(ip),
            )
        } else {
            (&mut self.others, None)
        };
        peer.port = from.port();
        peer.last_seen = now;
        peer.pending.add(kind);
        if peer.reason.is_none() {
            peer.reason = Some(cut(reason()));
        }
        peer.due(now, interval).then(|| peer.take(key, now))
    }

    /// The lines due at `now`: every address with drops not yet reported whose interval has
    /// passed. Addresses idle for an interval are forgotten. Call it once a frame.
    pub fn due(&mut self, now: Instant) -> Vec<DropReport> {
        let interval = self.interval;
        let mut out = Vec::new();
        for (ip, p) in &mut self.peers {
            if p.pending.total() > 0 && p.due(now, interval) {
                out.push(p.take(Some(*ip), now));
            }
        }
        if self.others.pending.total() > 0 && self.others.due(now, interval) {
            out.push(self.others.take(None, now));
        }
        self.forget_idle(now);
        out
    }

    /// Every count not yet reported, due or not (at exit).
    pub fn flush(&mut self, now: Instant) -> Vec<DropReport> {
        let mut out: Vec<DropReport> = self
            .peers
            .iter_mut()
            .filter(|(_, p)| p.pending.total() > 0)
            .map(|(ip, p)| p.take(Some(*ip), now))
            .collect();
        if self.others.pending.total() > 0 {
            out.push(self.others.take(None, now));
        }
        out
    }

    /// Everything dropped since the log began.
    pub fn total(&self) -> Dropped {
        self.total
    }

    /// Addresses counted one by one right now (at most [`DROP_ADDRESSES`]).
    pub fn addresses(&self) -> usize {
        self.peers.len()
    }

    /// Forget the addresses with nothing pending whose last line and last drop are an interval old.
    fn forget_idle(&mut self, now: Instant) {
        let interval = self.interval;
        self.peers.retain(|_, p| {
            p.pending.total() > 0
                || now.saturating_duration_since(p.last_seen) < interval
                || !p.due(now, interval)
        });
    }
}

/// `s` cut to [`MAX_REASON`] bytes at a character boundary.
fn cut(mut s: String) -> String {
    if s.len() > MAX_REASON {
        let mut end = MAX_REASON;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(last: u8, port: u16) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, last], port))
    }

    #[test]
    fn one_line_per_second_per_address_with_the_count() {
        let mut log = DropLog::new(Duration::from_secs(1));
        let t = Instant::now();
        let first = log
            .record(addr(1, 5), DropKind::Bad, t, || "garbage".into())
            .expect("the first drop is logged at once");
        assert_eq!(first.dropped.bad, 1);
        assert_eq!(
            first.to_string(),
            "net: from 127.0.0.1:5: dropped 1 bad datagram: garbage"
        );
        let mut asked = 0;
        for i in 0..999u64 {
            let at = t + Duration::from_micros(i * 900);
            let kind = if i % 3 == 0 {
                DropKind::TooFast
            } else {
                DropKind::Bad
            };
            let line = log.record(addr(1, 6), kind, at, || {
                asked += 1;
                format!("reason {i}")
            });
            assert!(line.is_none(), "nothing more within the second");
        }
        assert_eq!(asked, 1, "the reason is made once per period");
        assert!(log.due(t + Duration::from_millis(999)).is_empty());
        let lines = log.due(t + Duration::from_secs(1));
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].dropped.total(), 999);
        assert_eq!(lines[0].dropped.too_fast, 333);
        assert_eq!(
            lines[0].to_string(),
            "net: from 127.0.0.1:6: dropped 999 datagrams in 1.0 s (666 bad, 333 joins refused \
             (too fast)): reason 0"
        );
        assert_eq!(log.total().total(), 1000);
        // Quiet for an interval: forgotten, and its next drop is logged at once again.
        assert!(log.due(t + Duration::from_secs(3)).is_empty());
        assert_eq!(log.addresses(), 0);
        assert!(log
            .record(
                addr(1, 7),
                DropKind::Full,
                t + Duration::from_secs(3),
                || { "full".into() }
            )
            .is_some());
    }

    #[test]
    fn many_addresses_share_one_line_beyond_the_table() {
        let mut log = DropLog::new(Duration::from_secs(1));
        let t = Instant::now();
        let mut lines = 0;
        for i in 0..(DROP_ADDRESSES as u32 + 500) {
            let ip = IpAddr::from((0x0a00_0000 + i).to_be_bytes());
            let from = SocketAddr::new(ip, 9);
            for _ in 0..3 {
                lines += log
                    .record(from, DropKind::Bad, t, || "x".into())
                    .into_iter()
                    .count();
            }
        }
        assert_eq!(log.addresses(), DROP_ADDRESSES);
        assert_eq!(
            lines,
            DROP_ADDRESSES + 1,
            "one each, and one for the others"
        );
        let rest = log.flush(t);
        let others = rest.iter().find(|r| r.from.is_none()).unwrap();
        assert_eq!(others.dropped.bad, 500 * 3 - 1);
        assert!(others.to_string().starts_with("net: from other addresses:"));
    }

    #[test]
    fn long_reasons_are_cut() {
        let mut log = DropLog::default();
        let r = log
            .record(addr(2, 1), DropKind::Bad, Instant::now(), || {
                "é".repeat(500)
            })
            .unwrap();
        assert!(r.reason.len() <= MAX_REASON + 3);
        assert!(r.reason.ends_with("..."));
    }
}
