//! `modex net decode|encode` (the dissector) and the two networked demos (`modex demo --serve` /
//! `--connect`), over the A5 protocol of the `modex-net` crate.

pub mod json;
pub mod session;
mod units;

use anyhow::{anyhow, Context, Result};
use modex_net::{decode_client, decode_server, encode_client, encode_server, DecodeOptions};
use serde_json::Value;

use crate::cli::{NetArgs, NetCommand, NetDecodeArgs, NetEncodeArgs, NetSide};
use json::AnyMessage;

pub fn run(args: &NetArgs) -> Result<()> {
    match &args.command {
        NetCommand::Decode(a) => decode(a),
        NetCommand::Encode(a) => encode(a),
    }
}

/// One message as a line of text: its name, then `key=value` for each field.
fn text_line(v: &Value) -> String {
    let mut line = v["message"].as_str().unwrap_or("?").to_string();
    if let Value::Object(m) = v {
        for (k, val) in m.iter().filter(|(k, _)| k.as_str() != "message") {
            line.push_str(&format!(" {k}={val}"));
        }
    }
    line
}

fn decode(args: &NetDecodeArgs) -> Result<()> {
    for (n, h) in args.hex.iter().enumerate() {
        let bytes = json::parse_hex(h).with_context(|| format!("datagram {}", n + 1))?;
        let messages: Vec<Value> = match args.from {
            NetSide::Server => decode_server(&bytes, DecodeOptions::default())
                .map(|ms| ms.iter().map(json::server_to_json).collect()),
            NetSide::Client => {
                decode_client(&bytes).map(|ms| ms.iter().map(json::client_to_json).collect())
            }
        }
        .map_err(|e| anyhow!("datagram {} ({} bytes): {e}", n + 1, bytes.len()))?;
        for m in &messages {
            if args.json {
                println!("{m}");
            } else {
                println!("{}", text_line(m));
            }
        }
    }
    Ok(())
}

fn encode(args: &NetEncodeArgs) -> Result<()> {
    let v: Value = serde_json::from_str(&args.json).context("the argument is not JSON")?;
    let bytes = match json::from_json(&v)? {
        AnyMessage::Server(m) => encode_server(&[m])?,
        AnyMessage::Client(m) => encode_client(&[m])?,
    };
    let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
    println!("{}", hex.join(" "));
    Ok(())
}
