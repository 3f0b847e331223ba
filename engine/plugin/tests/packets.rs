//! `ENGINE_INTERFACE`'s packets: `SendPacket` is NULL without a network session, checks the A5
//! rule (first byte 17) and the datagram size, and queues what it accepts; `ReceivePacket`, set by
//! the plugin, gets what the engine delivers. Native (a C plugin built here) and Rust.

use std::path::Path;

use modex_plugin::{Engine, FrameBuffer, Packet, Plugin, PluginHost, RawFixed, USER_PACKET};
use modex_testkit::cplugin::{c_compiler, compile_plugin};

fn call(host: &mut PluginHost, name: &str) -> i32 {
    let mut bytes = [0u8; 4];
    host.call_each_frame(
        name,
        FrameBuffer {
            bytes: &mut bytes,
            pitch: 4,
            width: 4,
            height: 1,
            bpp: 1,
        },
    )
    .unwrap()
}

#[test]
fn a_c_plugin_sends_and_receives_user_packets() {
    let Some(cc) = c_compiler() else { return };
    let dir = std::env::temp_dir().join(format!("modex-packets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let so = dir.join("packets_rules.so");
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    compile_plugin(
        &cc,
        &here.join("include"),
        &here.join("tests/packets_rules.c"),
        &so,
    );
    let mut host = PluginHost::new();
    host.load(&so).unwrap();

    // No session: SendPacket is NULL.
    assert_eq!(call(&mut host, "Probe"), 1);
    assert!(host.take_packets().is_empty());

    host.set_network(Some(1400));
    assert_eq!(call(&mut host, "Probe"), 2);
    let errors = host.take_errors();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("must be 17 (0x11), not 5"), "{errors:?}");
    assert!(errors[1].contains("no data"), "{errors:?}");
    assert!(
        errors[2].contains("2000 bytes is more than the 1400"),
        "{errors:?}"
    );
    assert!(errors.iter().all(|e| e.starts_with("packets_rules.so: ")));
    assert_eq!(
        host.take_packets(),
        [Packet {
            to: 7,
            bytes: vec![USER_PACKET, b'o', b'k'],
            guaranteed: true,
        }]
    );

    host.receive_packet(3, &[USER_PACKET, b'x', b'y']);
    host.receive_packet(0, &[USER_PACKET, b'z']);
    assert_eq!(call(&mut host, "Received"), 2 + 100 * i32::from(b'z'));

    // Closed again: NULL.
    host.set_network(None);
    assert_eq!(call(&mut host, "Probe"), 1);
    drop(host);
    std::fs::remove_dir_all(&dir).ok();
}

/// Packets received: (from, bytes).
type Inbox = std::rc::Rc<std::cell::RefCell<Vec<(i64, Vec<u8>)>>>;

/// Sends a fixed packet on each call and keeps what it receives.
struct Echo {
    inbox: Inbox,
}

impl Plugin for Echo {
    fn name(&self) -> &str {
        "echo"
    }
    fn exports(&self) -> &[&str] {
        &["Send", "Probe"]
    }
    fn call(&mut self, function: &str, a5: &mut Engine<'_>) -> RawFixed {
        match function {
            "Probe" => a5.has_network() as RawFixed,
            _ => a5.send_packet(2, &[USER_PACKET, 1, 2, 3], false) as RawFixed,
        }
    }
    fn receive_packet(&mut self, from: i64, data: &[u8], _: &mut Engine<'_>) {
        self.inbox.borrow_mut().push((from, data.to_vec()));
    }
}

#[test]
fn a_rust_plugin_sends_and_receives_user_packets() {
    let inbox = std::rc::Rc::default();
    let mut host = PluginHost::new();
    host.add(Box::new(Echo {
        inbox: std::rc::Rc::clone(&inbox),
    }));
    assert_eq!(call(&mut host, "Probe"), 0);
    assert_eq!(call(&mut host, "Send"), 0, "refused without a session");
    assert!(host.take_errors()[0].contains("no network session"));
    host.set_network(Some(8));
    assert_eq!(call(&mut host, "Probe"), 1);
    assert_eq!(call(&mut host, "Send"), 1);
    assert_eq!(host.take_packets()[0].bytes, [USER_PACKET, 1, 2, 3]);
    host.receive_packet(5, &[USER_PACKET, 9]);
    assert_eq!(*inbox.borrow(), [(5, vec![USER_PACKET, 9])]);
}
