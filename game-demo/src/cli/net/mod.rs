//! `modex net decode|encode`: the A5 protocol dissector, over the `modex-net` crate.

mod text;

use anyhow::{anyhow, Context, Result};
use modex_net::{
    decode_client, decode_server, encode_client, encode_server, parse_hex, to_hex, AnyMessage,
    DecodeOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cli::{NetArgs, NetCommand, NetDecodeArgs, NetEncodeArgs, NetSide};

pub fn run(args: &NetArgs) -> Result<()> {
    match &args.command {
        NetCommand::Decode(a) => decode(a),
        NetCommand::Encode(a) => encode(a),
    }
}

/// A message as `decode` prints it: its JSON object, or the text line.
fn shown(m: &impl Serialize, json: bool) -> Result<String> {
    Ok(if json {
        serde_json::to_string(m)?
    } else {
        text::line(m)?
    })
}

fn decode(args: &NetDecodeArgs) -> Result<()> {
    for (n, h) in args.hex.iter().enumerate() {
        let bytes = parse_hex(h).with_context(|| format!("datagram {}", n + 1))?;
        let lines: Result<Vec<String>> = match args.from {
            NetSide::Server => decode_server(&bytes, DecodeOptions::default())
                .map(|ms| ms.iter().map(|m| shown(m, args.json)).collect()),
            NetSide::Client => {
                decode_client(&bytes).map(|ms| ms.iter().map(|m| shown(m, args.json)).collect())
            }
        }
        .map_err(|e| anyhow!("datagram {} ({} bytes): {e}", n + 1, bytes.len()))?;
        for line in lines? {
            println!("{line}");
        }
    }
    Ok(())
}

fn encode(args: &NetEncodeArgs) -> Result<()> {
    let v: Value = serde_json::from_str(&args.json).context("the argument is not JSON")?;
    let bytes = match AnyMessage::deserialize(v)? {
        AnyMessage::Server(m) => encode_server(&[m])?,
        AnyMessage::Client(m) => encode_client(&[m])?,
    };
    println!("{}", to_hex(&bytes));
    Ok(())
}
