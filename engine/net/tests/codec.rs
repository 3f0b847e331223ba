//! The codec against the manual's worked example, the error contract, and round trips of every
//! message in both directions (proptest).

use modex::Fixed;
use modex_net::*;
use proptest::prelude::*;

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

#[test]
fn the_manuals_worked_example() {
    let bytes = hex("43 07 00 80 00 00 00 01 00 80 01 00 80 00");
    let msgs = decode_server(&bytes, DecodeOptions::default()).unwrap();
    let [ServerMessage::Update1(u)] = &msgs[..] else {
        panic!("{msgs:?}")
    };
    assert_eq!(u.entity, 7);
    assert_eq!(u.position.unwrap().quants(), [1.0, 2.0, 3.0]);
    assert_eq!(u.pan.unwrap().degrees(), 180.0);
    assert_eq!(
        (u.scale, &u.model, u.frame, u.flags1),
        (None, &None, None, None)
    );
    assert_eq!(encode_server(&msgs).unwrap(), bytes);
    // "a player's changed XYZ coordinate needs only 12 bytes including header"
    let xyz = ServerMessage::Update1(Update1 {
        pan: None,
        ..u.clone()
    });
    assert_eq!(encode_server(&[xyz]).unwrap().len(), 12);
}

#[test]
fn a_datagram_yields_all_its_messages_in_order() {
    let mut bytes = hex("07 18 12 19 11 01 00 00 80 3f 89 88 88 3c");
    bytes.extend(hex("03 07 00 02 00 04 05 00 08"));
    let msgs = decode_server(&bytes, DecodeOptions::default()).unwrap();
    let names: Vec<&str> = msgs.iter().map(ServerMessage::name).collect();
    assert_eq!(names, ["svc_info", "svc_create", "svc_remove", "svc_leave"]);
    let ServerMessage::Info {
        magic,
        protocol,
        server_time,
        ..
    } = msgs[0]
    else {
        panic!()
    };
    assert_eq!((magic, protocol, server_time), (INFO_MAGIC, 1, 1.0));
}

#[test]
fn the_same_code_means_different_messages_per_direction() {
    let bytes = hex("07 05 00 00 00");
    let c = decode_client(&bytes).unwrap();
    assert_eq!(c, [ClientMessage::Ping { dpid: 5 }]);
    let e = decode_server(&bytes, DecodeOptions::default()).unwrap_err();
    assert_eq!(e.message(), Some("svc_info"));
    // Four bytes of magic were there; the protocol byte is not.
    assert_eq!(e.field(), Some("protocol"));
    assert_eq!(e.offset(), 5);
}

#[test]
fn truncation_names_message_field_and_offset() {
    // A second update whose pan is cut off.
    let bytes = hex("41 07 00 80 00 00 00 01 00 80 01 00  42 08 00 80");
    let e = decode_server(&bytes, DecodeOptions::default()).unwrap_err();
    assert_eq!(e.message(), Some("svc_update1"));
    assert_eq!(e.field(), Some("pan"));
    assert_eq!(e.offset(), 15);
    let text = e.to_string();
    assert!(
        text.contains("svc_update1") && text.contains("`pan`") && text.contains("15"),
        "{text}"
    );
    // A string without its NUL.
    let e = decode_client(b"\x02\x01\x00\x00\x00modex").unwrap_err();
    assert_eq!(
        (e.message(), e.field(), e.offset()),
        (Some("cls_join"), Some("name"), 5)
    );
}

#[test]
fn unknown_codes_are_named() {
    let e = decode_server(&hex("08 09"), DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e,
        DecodeError::UnknownCode {
            direction: Direction::Server,
            code: 0x09,
            offset: 1
        }
    );
    assert!(e.to_string().contains("0x09"));
    let e = decode_client(&hex("41 00 00")).unwrap_err();
    assert!(matches!(e, DecodeError::UnknownCode { code: 0x41, .. }));
    // svc_update3 does not use bit 5.
    let e = decode_server(&hex("e0 01 00"), DecodeOptions::default()).unwrap_err();
    assert_eq!(
        (e.message(), e.field()),
        (Some("svc_update3"), Some("code"))
    );
}

#[test]
fn hostile_lengths_do_not_allocate() {
    // svc_var claiming 32767 values in a 6-byte datagram.
    let e = decode_server(&hex("0a 01 00 ff 7f 00"), DecodeOptions::default()).unwrap_err();
    assert_eq!((e.message(), e.field()), (Some("svc_var"), Some("values")));
    let e = decode_server(&hex("0a 01 00 ff ff"), DecodeOptions::default()).unwrap_err();
    assert_eq!(e.field(), Some("len"));
}

#[test]
fn values_that_do_not_fit_are_refused() {
    assert!(Position::from_quants(70000.0).is_err());
    assert!(NetString::new(b"ta\0nk".to_vec()).is_err());
    let long = ServerMessage::Var {
        index: 0,
        values: vec![Fixed(0); 40000],
    };
    let e = encode_server(&[long]).unwrap_err();
    assert_eq!((e.message, e.field.as_str()), ("svc_var", "values"));
    let e = encode_server(&[ServerMessage::User(vec![1]), ServerMessage::Leave]).unwrap_err();
    assert_eq!(e.problem, EncodeProblem::UserNotLast);
}

#[test]
fn fixed_resolution_positions() {
    let u = ServerMessage::Update1(Update1 {
        entity: 2,
        position: Some(EntityPosition::Fixed([Fixed(1024), Fixed(-1), Fixed(7)])),
        ..Update1::default()
    });
    let bytes = encode_server(std::slice::from_ref(&u)).unwrap();
    assert_eq!(bytes.len(), 1 + 2 + 12);
    let opts = DecodeOptions {
        pos_resolution: PosResolution::Fixed,
    };
    assert_eq!(decode_server(&bytes, opts).unwrap(), [u]);
}

// --- round trips -----------------------------------------------------------------------------

fn position() -> impl Strategy<Value = Position> {
    (Position::MIN_RAW..=Position::MAX_RAW).prop_map(|r| Position::from_raw(r).unwrap())
}
fn position3() -> impl Strategy<Value = [Position; 3]> {
    [position(), position(), position()]
}
fn fixed() -> impl Strategy<Value = Fixed> {
    any::<i32>().prop_map(Fixed)
}
fn fixed3() -> impl Strategy<Value = [Fixed; 3]> {
    [fixed(), fixed(), fixed()]
}
fn string() -> impl Strategy<Value = NetString> {
    proptest::collection::vec(1u8..=255, 0..12).prop_map(|b| NetString::new(b).unwrap())
}
fn angle() -> impl Strategy<Value = Angle> {
    any::<u16>().prop_map(Angle)
}
fn scale<const X: u16>() -> impl Strategy<Value = Scale<X>> {
    any::<u8>().prop_map(Scale)
}
fn scaled<const D: u16>() -> impl Strategy<Value = Scaled<D>> {
    any::<i16>().prop_map(Scaled)
}
fn values() -> impl Strategy<Value = Vec<Fixed>> {
    proptest::collection::vec(fixed(), 0..6)
}
fn entity_position(res: PosResolution) -> BoxedStrategy<EntityPosition> {
    match res {
        PosResolution::Packed => position3().prop_map(EntityPosition::Packed).boxed(),
        PosResolution::Fixed => fixed3().prop_map(EntityPosition::Fixed).boxed(),
    }
}

fn update1(res: PosResolution) -> impl Strategy<Value = Update1> {
    (
        any::<i16>(),
        proptest::option::of(entity_position(res)),
        proptest::option::of(angle()),
        proptest::option::of([scaled(), scaled(), scaled()]),
        proptest::option::of(string()),
        proptest::option::of((any::<i16>(), scale())),
        proptest::option::of(any::<u8>()),
    )
        .prop_map(
            |(entity, position, pan, scale, model, frame, flags1)| Update1 {
                entity,
                position,
                pan,
                scale,
                model,
                frame,
                flags1,
            },
        )
}

fn update2() -> impl Strategy<Value = Update2> {
    (
        any::<i16>(),
        proptest::option::of(scale()),
        proptest::option::of(scale()),
        proptest::option::of(any::<u8>()),
        proptest::option::of(angle()),
        proptest::option::of(angle()),
        proptest::option::of(any::<i16>()),
    )
        .prop_map(
            |(entity, ambient, albedo, skin, tilt, roll, nextframe)| Update2 {
                entity,
                ambient,
                albedo,
                skin,
                tilt,
                roll,
                nextframe,
            },
        )
}

fn update3() -> impl Strategy<Value = Update3> {
    (
        any::<i16>(),
        proptest::option::of(scale()),
        proptest::option::of([scale(), scale(), scale()]),
        proptest::option::of(scale()),
        proptest::option::of([scaled(), scaled()]),
        proptest::option::of(any::<u8>()),
    )
        .prop_map(|(entity, lightrange, color, alpha, uv, flags2)| Update3 {
            entity,
            lightrange,
            color,
            alpha,
            uv,
            flags2,
        })
}

fn server_message(res: PosResolution) -> impl Strategy<Value = ServerMessage> {
    use ServerMessage as S;
    prop_oneof![
        (any::<i16>(), any::<i16>()).prop_map(|(index, id)| S::Create { index, id }),
        any::<i16>().prop_map(|index| S::Remove { index }),
        (any::<i16>(), any::<i16>(), scale(), any::<i32>()).prop_map(
            |(ent, sound, volume, handle)| S::EntSound {
                ent,
                sound,
                volume,
                handle
            }
        ),
        (any::<i16>(), any::<i16>(), position3(), fixed3()).prop_map(
            |(action, number, position, velocity)| S::Effect {
                action,
                number,
                position,
                velocity
            }
        ),
        (any::<u32>(), any::<u8>(), any::<f32>(), any::<f32>()).prop_map(
            |(magic, protocol, server_time, frame_time)| S::Info {
                magic,
                protocol,
                server_time,
                frame_time
            }
        ),
        Just(S::Leave),
        (any::<i16>(), values()).prop_map(|(index, values)| S::Var { index, values }),
        (any::<i16>(), string()).prop_map(|(index, string)| S::String { index, string }),
        (any::<i16>(), any::<i16>(), fixed()).prop_map(|(ent, offset, value)| S::Skill {
            ent,
            offset,
            value
        }),
        (any::<i16>(), any::<i16>(), fixed3()).prop_map(|(ent, offset, value)| S::Skill3 {
            ent,
            offset,
            value
        }),
        update1(res).prop_map(S::Update1),
        update2().prop_map(S::Update2),
        update3().prop_map(S::Update3),
    ]
}

fn client_message() -> impl Strategy<Value = ClientMessage> {
    use ClientMessage as C;
    prop_oneof![
        Just(C::Fill),
        (any::<i32>(), string()).prop_map(|(dpid, name)| C::Join { dpid, name }),
        (
            any::<i32>(),
            string(),
            position3(),
            any::<i16>(),
            any::<i16>()
        )
            .prop_map(|(dpid, file, position, action, id)| C::Create {
                dpid,
                file,
                position,
                action,
                id
            }),
        any::<i32>().prop_map(|dpid| C::Remove { dpid }),
        any::<i32>().prop_map(|dpid| C::Ping { dpid }),
        any::<i32>().prop_map(|dpid| C::Leave { dpid }),
        (any::<i32>(), string()).prop_map(|(dpid, level)| C::Level { dpid, level }),
        (any::<i16>(), values()).prop_map(|(index, values)| C::Var { index, values }),
        (any::<i16>(), string()).prop_map(|(index, string)| C::String { index, string }),
        (any::<i32>(), any::<i16>(), fixed()).prop_map(|(dpid, offset, value)| C::Skill {
            dpid,
            offset,
            value
        }),
        (any::<i32>(), any::<i16>(), fixed3()).prop_map(|(dpid, offset, value)| C::Skill3 {
            dpid,
            offset,
            value
        }),
    ]
}

/// Floats compare by bits (NaN payloads must survive too).
fn same_server(a: &[ServerMessage], b: &[ServerMessage]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (
                ServerMessage::Info {
                    magic: m1,
                    protocol: p1,
                    server_time: s1,
                    frame_time: f1,
                },
                ServerMessage::Info {
                    magic: m2,
                    protocol: p2,
                    server_time: s2,
                    frame_time: f2,
                },
            ) => {
                m1 == m2 && p1 == p2 && s1.to_bits() == s2.to_bits() && f1.to_bits() == f2.to_bits()
            }
            _ => x == y,
        })
}

fn resolution() -> impl Strategy<Value = PosResolution> {
    prop_oneof![Just(PosResolution::Packed), Just(PosResolution::Fixed)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn server_datagrams_round_trip(
        (res, msgs, user) in resolution().prop_flat_map(|res| (
            Just(res),
            proptest::collection::vec(server_message(res), 0..6),
            proptest::option::of(proptest::collection::vec(any::<u8>(), 0..8)),
        ))
    ) {
        let mut msgs = msgs;
        if let Some(u) = user {
            msgs.push(ServerMessage::User(u));
        }
        let bytes = encode_server(&msgs).unwrap();
        let back = decode_server(&bytes, DecodeOptions { pos_resolution: res }).unwrap();
        prop_assert!(same_server(&msgs, &back), "{msgs:?} != {back:?}");
        prop_assert_eq!(encode_server(&back).unwrap(), bytes);
    }

    #[test]
    fn client_datagrams_round_trip(
        msgs in proptest::collection::vec(client_message(), 0..6),
        user in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..8)),
    ) {
        let mut msgs = msgs;
        if let Some(u) = user {
            msgs.push(ClientMessage::User(u));
        }
        let bytes = encode_client(&msgs).unwrap();
        let back = decode_client(&bytes).unwrap();
        prop_assert_eq!(&back, &msgs);
        prop_assert_eq!(encode_client(&back).unwrap(), bytes);
    }

    /// User values survive their conversion: what a packed value reports converts back to itself.
    #[test]
    fn user_values_round_trip_through_their_units(raw in Position::MIN_RAW..=Position::MAX_RAW, a in any::<u16>(), s in any::<u8>(), q in any::<i16>()) {
        let p = Position::from_raw(raw).unwrap();
        prop_assert_eq!(Position::from_quants(p.quants()).unwrap(), p);
        prop_assert_eq!(Angle::from_degrees(Angle(a).degrees()).unwrap(), Angle(a));
        prop_assert_eq!(Scale::<100>::from_value(Scale::<100>(s).value()).unwrap(), Scale(s));
        prop_assert_eq!(Scale::<2000>::from_value(Scale::<2000>(s).value()).unwrap(), Scale(s));
        prop_assert_eq!(Scale::<1>::from_value(Scale::<1>(s).value()).unwrap(), Scale(s));
        prop_assert_eq!(Scaled::<16>::from_value(Scaled::<16>(q).value()).unwrap(), Scaled(q));
        prop_assert_eq!(Scaled::<4>::from_value(Scaled::<4>(q).value()).unwrap(), Scaled(q));
    }

    /// With the `serde` feature every message survives its JSON object, bit for bit (but for the
    /// floats JSON has no number for, NaN and the infinities, which it shows as `null`).
    #[cfg(feature = "serde")]
    #[test]
    fn messages_survive_json(
        server in proptest::collection::vec(server_message(PosResolution::Packed), 0..6),
        client in proptest::collection::vec(client_message(), 0..6),
    ) {
        let finite = |m: &ServerMessage| match m {
            ServerMessage::Info { server_time, frame_time, .. } => {
                server_time.is_finite() && frame_time.is_finite()
            }
            _ => true,
        };
        let server: Vec<ServerMessage> = server.into_iter().filter(finite).collect();
        let text = serde_json::to_string(&server).unwrap();
        let back: Vec<ServerMessage> = serde_json::from_str(&text).unwrap();
        prop_assert!(same_server(&server, &back), "{text}");
        let text = serde_json::to_string(&client).unwrap();
        let back: Vec<ClientMessage> = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, client);
    }

    /// Arbitrary bytes never panic, and whatever decodes encodes back to the same bytes.
    #[test]
    fn arbitrary_bytes_decode_or_error(data in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(m) = decode_server(&data, DecodeOptions::default()) {
            prop_assert_eq!(encode_server(&m).unwrap(), data.clone());
        }
        if let Ok(m) = decode_client(&data) {
            prop_assert_eq!(encode_client(&m).unwrap(), data);
        }
    }
}
