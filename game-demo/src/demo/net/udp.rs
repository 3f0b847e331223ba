//! The UDP socket as both networked demos use it: every waiting datagram read at once without
//! blocking the frame, sends that tolerate a peer not (yet, or any more) there, and the traffic
//! counted for the `net:` line each run prints on exit.

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

/// Every datagram waiting on `socket`, with its sender.
pub fn drain(socket: &UdpSocket, buf: &mut [u8]) -> Result<Vec<(Vec<u8>, SocketAddr)>> {
    let mut out = Vec::new();
    loop {
        match socket.recv_from(buf) {
            Ok((n, from)) => out.push((buf[..n].to_vec(), from)),
            Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(out),
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
