//! Any byte string, read as a datagram from either side and with either position resolution, gives
//! messages or a typed error; messages that decoded encode back to exactly the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use modex_net::{
    decode_client, decode_server, encode_client, encode_server, DecodeOptions, PosResolution,
};

fuzz_target!(|data: &[u8]| {
    for pos_resolution in [PosResolution::Packed, PosResolution::Fixed] {
        if let Ok(messages) = decode_server(data, DecodeOptions { pos_resolution }) {
            let bytes = encode_server(&messages).expect("decoded messages encode");
            assert_eq!(bytes, data, "server round trip");
        }
    }
    if let Ok(messages) = decode_client(data) {
        let bytes = encode_client(&messages).expect("decoded messages encode");
        assert_eq!(bytes, data, "client round trip");
    }
});
