//! A lossy, reordering datagram link for tests: what UDP may do to the server's datagrams, seeded so a
//! failing test fails the same way every time.

use std::collections::VecDeque;

use modex::Rng;

/// How bad the link is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkQuality {
    /// Chance that a datagram is lost, 0..=1.
    pub loss: f32,
    /// Chance that a datagram arrives twice.
    pub duplicate: f32,
    /// Each datagram is delayed by 0..=`max_delay` ticks, so later ones can overtake it.
    pub max_delay: u32,
}

impl LinkQuality {
    /// A perfect link.
    pub const PERFECT: LinkQuality = LinkQuality {
        loss: 0.0,
        duplicate: 0.0,
        max_delay: 0,
    };
}

/// Datagrams in flight, delivered by [`LossyLink::tick`].
#[derive(Debug, Clone)]
pub struct LossyLink {
    rng: Rng,
    /// The link's current behaviour (may be changed between ticks).
    pub quality: LinkQuality,
    now: u64,
    in_flight: VecDeque<(u64, Vec<u8>)>,
    /// Datagrams sent, lost, and delivered so far.
    pub sent: u64,
    /// Datagrams dropped.
    pub lost: u64,
    /// Datagrams delivered (duplicates count twice).
    pub delivered: u64,
}

impl LossyLink {
    /// A link with `quality`, seeded.
    pub fn new(seed: u64, quality: LinkQuality) -> LossyLink {
        LossyLink {
            rng: Rng::new(seed),
            quality,
            now: 0,
            in_flight: VecDeque::new(),
            sent: 0,
            lost: 0,
            delivered: 0,
        }
    }

    /// Put a datagram on the link.
    pub fn send(&mut self, datagram: Vec<u8>) {
        self.sent += 1;
        if self.rng.unit() < self.quality.loss {
            self.lost += 1;
            return;
        }
        let copies = if self.rng.unit() < self.quality.duplicate {
            2
        } else {
            1
        };
        for _ in 0..copies {
            let delay = self.rng.below(self.quality.max_delay + 1) as u64;
            self.in_flight
                .push_back((self.now + delay, datagram.clone()));
        }
    }

    /// Advance one tick and return what arrives during it, in arrival order (which need not be the
    /// sending order).
    pub fn tick(&mut self) -> Vec<Vec<u8>> {
        let now = self.now;
        self.now += 1;
        let mut out = Vec::new();
        let mut keep = VecDeque::new();
        while let Some((due, d)) = self.in_flight.pop_front() {
            if due <= now {
                out.push(d);
            } else {
                keep.push_back((due, d));
            }
        }
        self.in_flight = keep;
        // Same-tick arrivals come in random order too.
        for i in (1..out.len()).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            out.swap(i, j);
        }
        self.delivered += out.len() as u64;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_link_delivers_in_order() {
        let mut l = LossyLink::new(1, LinkQuality::PERFECT);
        l.send(vec![1]);
        assert_eq!(l.tick(), vec![vec![1]]);
        assert!(l.tick().is_empty());
    }

    #[test]
    fn bad_link_loses_duplicates_and_reorders() {
        let q = LinkQuality {
            loss: 0.3,
            duplicate: 0.2,
            max_delay: 3,
        };
        let mut l = LossyLink::new(7, q);
        let mut got = Vec::new();
        for i in 0..200u8 {
            l.send(vec![i]);
            got.extend(l.tick().into_iter().map(|d| d[0]));
        }
        for _ in 0..5 {
            got.extend(l.tick().into_iter().map(|d| d[0]));
        }
        assert!(l.lost > 30 && l.lost < 90, "lost {}", l.lost);
        assert!(got.windows(2).any(|w| w[0] > w[1]), "some reordering");
        let mut sorted = got.clone();
        sorted.sort();
        assert!(sorted.windows(2).any(|w| w[0] == w[1]), "some duplicates");
        assert_eq!(l.delivered as usize, got.len());
    }
}
