//! Server and client through a link that loses, duplicates and reorders datagrams: nothing panics,
//! and once datagrams get through again the client's picture converges to the server's.

use modex_net::*;

const STEP: f64 = 1.0 / 60.0;

/// Twelve entities driving circles at different speeds, and one that stands still after a jump.
fn world(t: f64) -> Vec<(i16, EntityState)> {
    (0..13)
        .map(|i| {
            let mut s = EntityState::new(NetString::from_latin1("tank.vxl").unwrap());
            let (x, y, pan) = if i == 12 {
                // Jumps once at t = 1 s, then never moves again: only a refresh can heal its loss.
                let x = if t < 1.0 { 0.0 } else { 40.0 };
                (x, 0.0, 0.0)
            } else {
                let r = 50.0 + i as f64 * 10.0;
                let w = 0.2 + i as f64 * 0.05;
                let a = w * t;
                (
                    r * a.cos(),
                    r * a.sin(),
                    (a.to_degrees() + 90.0).rem_euclid(360.0),
                )
            };
            s.position = EntityPosition::from_quants([x, y, 5.0], PosResolution::Packed).unwrap();
            s.pan = Angle::from_degrees(pan).unwrap();
            (i, s)
        })
        .collect()
}

fn info(t: f64) -> ServerMessage {
    ServerMessage::Info {
        magic: INFO_MAGIC,
        protocol: 1,
        server_time: t as f32,
        frame_time: STEP as f32,
    }
}

fn max_error(client: &ClientState, t: f64) -> f64 {
    world(t)
        .iter()
        .map(|(i, s)| {
            let p = client
                .position_at(*i, t)
                .expect("client knows every entity");
            let q = s.position.quants();
            (0..3).map(|k| (p[k] - q[k]).abs()).fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

#[test]
fn client_converges_after_loss_and_reordering() {
    let bad = LinkQuality {
        loss: 0.4,
        duplicate: 0.1,
        max_delay: 4,
    };
    let mut link = LossyLink::new(1994, bad);
    let mut enc = DeltaEncoder::new(60);
    let mut client = ClientState::new();
    let mut frame = 0u64;
    let mut run = |frames: u64, link: &mut LossyLink, client: &mut ClientState| {
        for _ in 0..frames {
            let t = frame as f64 * STEP;
            let updates = enc.frame(&world(t));
            // Small datagrams so frames are split and their parts arrive in any order.
            for d in packetize(&info(t), &updates, 120).unwrap() {
                link.send(d);
            }
            for d in link.tick() {
                let msgs = decode_server(&d, DecodeOptions::default()).unwrap();
                client.apply(&msgs);
            }
            frame += 1;
        }
    };
    run(300, &mut link, &mut client);
    assert!(link.lost > 100, "the link was lossy: {} lost", link.lost);
    link.quality = LinkQuality::PERFECT;
    // Drain what is in flight and run a second (60 frames refresh every entity) on a good link.
    run(65, &mut link, &mut client);
    let t = (frame - 1) as f64 * STEP;
    let err = max_error(&client, t);
    assert!(err < 0.05, "client is {err} quants off the server");
    // Between updates the extrapolation stays close too (half a frame ahead).
    let err = max_error(&client, t + STEP / 2.0);
    assert!(err < 0.1, "extrapolated {err} quants off");
    // The entity that stood still sits exactly where the server put it.
    assert_eq!(client.entity(12).unwrap().last_position(), [40.0, 0.0, 5.0]);
}

#[test]
fn a_late_joiner_gets_every_entity_in_its_first_frame() {
    let mut early = DeltaEncoder::new(60);
    for f in 0..100 {
        early.frame(&world(f as f64 * STEP));
    }
    let mut late = DeltaEncoder::new(60);
    let t = 100.0 * STEP;
    let mut client = ClientState::new();
    for d in packetize(&info(t), &late.frame(&world(t)), MAX_DATAGRAM).unwrap() {
        client.apply(&decode_server(&d, DecodeOptions::default()).unwrap());
    }
    assert_eq!(client.entities().len(), 13);
    assert!(client
        .entities()
        .values()
        .all(|e| e.has_model && e.has_position()));
    assert!(max_error(&client, t) < 0.01);
    // The early client's next frame, by contrast, is small: only what moved.
    let next = early.frame(&world(101.0 * STEP));
    let bytes: usize = next
        .iter()
        .map(|m| encode_server(std::slice::from_ref(m)).unwrap().len())
        .sum();
    assert!(bytes < 13 * 20, "{bytes} bytes for a delta frame");
}

#[test]
fn packetize_splits_frames_under_the_limit() {
    let mut enc = DeltaEncoder::new(0);
    let updates = enc.frame(&world(0.0));
    let ds = packetize(&info(0.0), &updates, 200).unwrap();
    assert!(ds.len() > 1);
    let mut n = 0;
    for d in &ds {
        assert!(d.len() <= 200);
        let m = decode_server(d, DecodeOptions::default()).unwrap();
        assert!(matches!(m[0], ServerMessage::Info { .. }));
        n += m.len() - 1;
    }
    assert_eq!(n, updates.len());
}
