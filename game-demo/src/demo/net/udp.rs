//! The UDP socket as both networked demos use it: waiting datagrams read without blocking the
//! frame (at most [`MAX_DATAGRAMS_PER_FRAME`] a frame), sends that tolerate a peer not (yet, or
//! any more) there, and the traffic counted for the `net:` line each run prints on exit.

use std::io::ErrorKind;
use std::net::{SocketAddr, UdpSocket};
use std::time::Instant;

use anyhow::{Context, Result};

/// Counts datagrams and bytes from the first one on.
pub struct Traffic {
    datagrams: u64,
    bytes: u64,
    start: Instant,
}

impl Traffic {
    pub fn new() -> Self {
        Traffic {
            datagrams: 0,
            bytes: 0,
            start: Instant::now(),
        }
    }

    pub fn count(&mut self, len: usize) {
        self.datagrams += 1;
        self.bytes += len as u64;
    }

    /// `net: VERB N datagrams, M bytes, B bytes/s, E entities`
    pub fn line(&self, verb: &str, entities: usize) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        format!(
            "net: {verb} {} datagrams, {} bytes, {:.0} bytes/s, {entities} entities",
            self.datagrams,
            self.bytes,
            self.bytes as f64 / secs
        )
    }
}

/// Most datagrams one frame reads: under a flood the frame's work stays bounded, and what is
/// left waits for the next frame (or is dropped by the kernel when the socket's buffer is full).
pub const MAX_DATAGRAMS_PER_FRAME: usize = 2048;

/// The next datagram waiting on `socket` (its length in `buf`, and its sender), `None` when there
/// is none.
pub fn receive(socket: &UdpSocket, buf: &mut [u8]) -> Result<Option<(usize, SocketAddr)>> {
    loop {
        match socket.recv_from(buf) {
            Ok((n, from)) => return Ok(Some((n, from))),
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(None),
            // A previous datagram bounced off a closed port (ICMP): not this read's concern.
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::ConnectionRefused | ErrorKind::ConnectionReset
                ) => {}
            Err(e) => return Err(e).context("UDP receive"),
        }
    }
}

/// Send, tolerating the errors UDP gives when the other side is not (yet, or any more) there.
pub fn send(socket: &UdpSocket, bytes: &[u8], to: SocketAddr, traffic: &mut Traffic) -> Result<()> {
    match socket.send_to(bytes, to) {
        Ok(_) => {
            traffic.count(bytes.len());
            Ok(())
        }
        Err(e)
            if matches!(
                e.kind(),
                ErrorKind::ConnectionRefused | ErrorKind::ConnectionReset | ErrorKind::WouldBlock
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(e).with_context(|| format!("UDP send to {to}")),
    }
}
