//! The `serde` feature: messages as the JSON objects `modex net decode --json` prints and `modex net
//! encode` reads, keys in wire order, values in their units, errors naming message and field.

use modex_net::*;
use serde_json::Value;

fn bytes(h: &str) -> Vec<u8> {
    parse_hex(h).unwrap()
}

fn server(h: &str) -> Vec<ServerMessage> {
    decode_server(&bytes(h), DecodeOptions::default()).unwrap()
}

fn read(json: &str) -> Result<AnyMessage, String> {
    let v: Value = serde_json::from_str(json).unwrap();
    serde_json::from_value(v).map_err(|e| e.to_string())
}

#[test]
fn the_worked_example_as_json_in_wire_order() {
    let m = server("43 07 00 80 00 00 00 01 00 80 01 00 80 00");
    assert_eq!(
        serde_json::to_string(&m[0]).unwrap(),
        r#"{"message":"svc_update1","entity":7,"position":[1.0,2.0,3.0],"pan":180.0}"#
    );
    let back = read(r#"{"pan":180,"message":"svc_update1","position":[1,2,3],"entity":7}"#);
    assert_eq!(back, Ok(AnyMessage::Server(m[0].clone())));
}

#[test]
fn every_field_bit_in_bit_order() {
    let m = server(
        "7f 07 00 80 00 00 00 01 00 80 01 00 80 00 04 00 05 00 fc ff 74 61 6e 6b 00 03 00 80 09 \
         bf 01 00 10 20 03 40 00 c0 00 07 00 df 02 00 81 01 02 03 40 ff ff 10 00 aa",
    );
    let lines: Vec<String> = m
        .iter()
        .map(|m| serde_json::to_string(m).unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            r#"{"message":"svc_update1","entity":7,"position":[1.0,2.0,3.0],"pan":180.0,"scale":[1.0,1.25,-1.0],"type":"tank","frame":3,"fraction":0.5019607843137255,"flags1":9}"#,
            r#"{"message":"svc_update2","entity":1,"ambient":6.2745098039215685,"albedo":32.0,"skin":3,"tilt":90.0,"roll":270.0,"nextframe":7}"#,
            r#"{"message":"svc_update3","entity":2,"lightrange":1011.7647058823529,"color":[1.0,2.0,3.0],"alpha":25.098039215686274,"uv":[-0.0625,1.0],"flags2":170}"#,
        ]
    );
}

#[test]
fn every_server_message_survives_json() {
    let datagrams = [
        "7f 07 00 80 00 00 00 01 00 80 01 00 80 00 04 00 05 00 fc ff 74 61 6e 6b 00 03 00 80 09",
        "bf 01 00 10 20 03 40 00 c0 00 07 00",
        "df 02 00 81 01 02 03 40 ff ff 10 00 aa",
        "07 18 12 19 11 01 cd cc 8c 3f 89 88 88 3c 0a 02 00 02 00 00 04 00 00 ff ff ff ff",
        "05 01 00 02 00 80 ff 00 00 00 06 01 00 02 00 80 00 00 00 01 00 80 01 00 00 04 00 00 00 00 00 00 ff ff ff ff",
        "0b 03 00 68 e4 00 0e 01 00 02 00 00 02 00 00 0f 01 00 02 00 01 00 00 00 02 00 00 00 03 00 00 00 03 04 00 05 00 04 01 00 08 11 de ad",
    ];
    for h in datagrams {
        let messages = server(h);
        let mut back = Vec::new();
        for m in &messages {
            let text = serde_json::to_string(m).unwrap();
            back.push(serde_json::from_str::<ServerMessage>(&text).unwrap());
        }
        assert_eq!(back, messages);
        assert_eq!(encode_server(&back).unwrap(), bytes(h));
    }
}

#[test]
fn every_client_message_survives_json() {
    let data = bytes(
        "01 02 05 00 00 00 6d 6f 00 03 05 00 00 00 61 2e 6d 64 6c 00 80 00 00 00 01 00 80 01 00 02 00 03 00 \
         04 05 00 00 00 07 05 00 00 00 08 05 00 00 00 09 05 00 00 00 6c 00 0a 00 00 01 00 00 04 00 00 \
         0b 01 00 73 00 0e 05 00 00 00 08 00 00 08 00 00 0f 05 00 00 00 08 00 00 00 00 00 00 00 00 00 00 00 00 00 11 01",
    );
    let messages = decode_client(&data).unwrap();
    assert_eq!(messages.len(), 12);
    let back: Vec<ClientMessage> = messages
        .iter()
        .map(|m| serde_json::from_str(&serde_json::to_string(m).unwrap()).unwrap())
        .collect();
    assert_eq!(encode_client(&back).unwrap(), data);
}

#[test]
fn names_choose_the_direction() {
    let ping = r#"{"message":"cls_ping","dpid":5}"#;
    assert_eq!(
        read(ping),
        Ok(AnyMessage::Client(ClientMessage::Ping { dpid: 5 }))
    );
    assert!(serde_json::from_str::<ServerMessage>(ping).is_err());
    // User packets are the same bytes both ways; AnyMessage reads them as the server's.
    let user = r#"{"message":"user","bytes":"de ad"}"#;
    assert_eq!(
        read(user),
        Ok(AnyMessage::Server(ServerMessage::User(vec![0xde, 0xad])))
    );
    assert_eq!(
        serde_json::from_str::<ClientMessage>(user).unwrap(),
        ClientMessage::User(vec![0xde, 0xad])
    );
    // The manual's name for svc_effect is read too.
    let particle =
        r#"{"message":"svc_particle","action":1,"number":2,"position":[1,2,3],"vel":[0,0,0]}"#;
    let Ok(AnyMessage::Server(m)) = read(particle) else {
        panic!()
    };
    assert_eq!(m.name(), "svc_effect");
}

#[test]
fn bad_json_names_the_problem() {
    let e = |s: &str| read(s).unwrap_err();
    assert_eq!(
        e(r#"{"message":"svc_update1","entity":7,"position":[70000,0,0]}"#),
        "svc_update1: field `position`: 70000 is outside the Position range -65536..=65535.9921875"
    );
    assert_eq!(
        e(r#"{"message":"cls_join","dpid":1,"name":"a\u0000b"}"#),
        "cls_join: field `name`: string contains a NUL byte at index 1"
    );
    assert_eq!(
        e(r#"{"message":"svc_update1","entity":7,"pann":3}"#),
        "svc_update1: unknown field `pann`"
    );
    assert_eq!(
        e(r#"{"message":"svc_remove","index":40000}"#),
        "svc_remove: field `index`: 40000 does not fit in i16"
    );
    assert_eq!(
        e(r#"{"message":"svc_update1","entity":"7"}"#),
        r#"svc_update1: field `entity`: "7" is not an integer"#
    );
    assert_eq!(
        e(r#"{"message":"svc_update1","entity":7,"fraction":0.5}"#),
        "svc_update1: `fraction` is sent with `frame` only"
    );
    assert_eq!(e(r#"{"message":"svc_nope"}"#), "unknown message `svc_nope`");
    assert_eq!(e("[1]"), "expected a JSON object, got [1]");
}
