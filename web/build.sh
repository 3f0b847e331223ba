#!/bin/sh
# Build the web frontend into web/dist/: the wasm module (release, no debug info) and the page.
# Adds the wasm32-unknown-unknown target when missing; needs nothing else (plain `extern "C"`
# exports, no binding generator). Serve with: python3 -m http.server -d web/dist
set -eu
cd "$(dirname "$0")/.."
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
cargo build --release --locked -p modex-web --target wasm32-unknown-unknown \
  --config 'profile.release.debug=false' --config 'profile.release.strip=true'
target="${CARGO_TARGET_DIR:-target}"
mkdir -p web/dist
cp "$target/wasm32-unknown-unknown/release/modex_web.wasm" web/dist/modex.wasm
cp web/page/index.html web/page/modex.js web/page/modex.css web/page/loader.js web/dist/
echo "web/dist: $(wc -c < web/dist/modex.wasm) bytes of wasm ($(gzip -9c web/dist/modex.wasm | wc -c) gzipped)"
