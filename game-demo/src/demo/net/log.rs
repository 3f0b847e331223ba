//! The networked demos' log lines, written by a thread of their own so the frame loop never waits
//! on a pipe.
//!
//! A server whose stdout or stderr is a pipe nobody reads would stop serving once the pipe filled
//! if the frame loop wrote to it. Here the loop hands each line to a bounded channel and goes on;
//! the logging thread writes them (stdout lines with `writeln!`, errors ignored, so a closed pipe
//! is no panic; warnings through `log`, to stderr). When the channel is full the line is counted
//! instead, and the count is logged once there is room again.

use std::io::Write;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Lines waiting for the logging thread at most; beyond, lines are counted and dropped.
const QUEUE: usize = 1024;

enum Line {
    Out(String),
    Warn(String),
}

/// The sending end; see the module docs.
pub struct NetLog {
    tx: Option<SyncSender<Line>>,
    /// Lines dropped since the last count was logged.
    dropped: u64,
    done: Receiver<()>,
    _thread: JoinHandle<()>,
}

impl NetLog {
    /// Start the logging thread.
    pub fn start() -> NetLog {
        let (tx, rx) = sync_channel::<Line>(QUEUE);
        let (done_tx, done) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("net-log".into())
            .spawn(move || {
                for line in rx {
                    match line {
                        Line::Out(s) => {
                            let mut out = std::io::stdout().lock();
                            let _ = writeln!(out, "{s}");
                            let _ = out.flush();
                        }
                        Line::Warn(s) => log::warn!("{s}"),
                    }
                }
                let _ = done_tx.send(());
            })
            .expect("spawn the net-log thread");
        NetLog {
            tx: Some(tx),
            dropped: 0,
            done,
            _thread: thread,
        }
    }

    /// A line for stdout.
    pub fn out(&mut self, line: impl Into<String>) {
        self.send(Line::Out(line.into()));
    }

    /// A warning (stderr, through `log`).
    pub fn warn(&mut self, line: impl Into<String>) {
        self.send(Line::Warn(line.into()));
    }

    fn send(&mut self, line: Line) {
        let Some(tx) = &self.tx else { return };
        if self.dropped > 0 {
            let note = format!(
                "net: {} log lines dropped: the log is not being read fast enough",
                self.dropped
            );
            match tx.try_send(Line::Warn(note)) {
                Ok(()) => self.dropped = 0,
                Err(_) => {
                    self.dropped += 1;
                    return;
                }
            }
        }
        match tx.try_send(line) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => self.dropped += 1,
        }
    }

    /// Let the thread write what is queued, waiting at most `wait` (a reader that never reads
    /// must not keep the process from ending).
    pub fn close(mut self, wait: Duration) {
        self.tx = None;
        let _ = self.done.recv_timeout(wait);
    }
}
