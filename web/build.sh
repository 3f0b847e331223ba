#!/bin/sh
# Build the web frontend into web/dist/: the wasm module (release, no debug info), scalar and with
# SIMD, and the page.
# Adds the wasm32-unknown-unknown target when missing; needs nothing else (plain `extern "C"`
# exports, no binding generator). Serve with: python3 -m http.server -d web/dist
set -eu
cd "$(dirname "$0")/.."
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
# Other people's crates (decoders, serde_json, encoding_rs's tables) are built for size: the
# page downloads them; the draws run in modex's own crates, in glam's inlined maths and libm's
# few calls, which keep opt-level 3.
SIZE="--config profile.release.package.\"*\".opt-level=\"s\" --config profile.release.package.glam.opt-level=3 --config profile.release.package.libm.opt-level=3"
# shellcheck disable=SC2086 # $SIZE is several arguments
cargo build --release --locked -p modex-web --target wasm32-unknown-unknown \
  --config 'profile.release.debug=false' --config 'profile.release.strip=true' $SIZE
target="${CARGO_TARGET_DIR:-target}"
mkdir -p web/dist
cp "$target/wasm32-unknown-unknown/release/modex_web.wasm" web/dist/modex.wasm
# The SIMD build (`+simd128`: the span kernels of engine/raster's dispatch.rs), which the page runs
# where the browser has WebAssembly SIMD (web/page/loader.js). Its own target folder: other code
# generation flags would otherwise rebuild the scalar build's crates each time. LLVM's SLP
# vectoriser is off: it packed the voxel splat's scalar maths into v128 registers only to read the
# lanes back one by one, which made the SIMD build draw voxels slower than the scalar one
# (docs/benchmarks.md "Web"); the loop vectoriser and the hand-written kernels stay.
CARGO_TARGET_DIR="$target/wasm-simd" RUSTFLAGS="-C target-feature=+simd128 -C llvm-args=-vectorize-slp=false" \
  cargo build --release --locked -p modex-web --target wasm32-unknown-unknown \
  --config 'profile.release.debug=false' --config 'profile.release.strip=true' $SIZE
cp "$target/wasm-simd/wasm32-unknown-unknown/release/modex_web.wasm" web/dist/modex-simd.wasm
# Binaryen's wasm-opt (Debian's `binaryen`; .ci/run installs it) merges identical functions (the
# generic code's many copies that differ only in type) and writes the module more tightly: about
# 21 KB less gzipped for the SIMD build, in a second or two. Its -O levels save 10 KB more for
# ten to sixty times the time on CI's two cores (docs/benchmarks.md "Web"). The features are the
# ones rustc's wasm32 target emits; wasm-opt must be told them (the stripped module does not say).
if command -v wasm-opt >/dev/null 2>&1; then
  for w in modex modex-simd; do
    wasm-opt --duplicate-function-elimination --strip-producers \
      --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-multivalue --enable-reference-types \
      "web/dist/$w.wasm" -o "web/dist/$w.wasm"
  done
else
  echo "web/build.sh: wasm-opt not found (Debian package binaryen): the modules are not merged, about 21 KB larger gzipped" >&2
fi
cp web/page/index.html web/page/modex.js web/page/modex.css web/page/loader.js web/dist/
for w in modex modex-simd; do
  echo "web/dist/$w.wasm: $(wc -c < "web/dist/$w.wasm") bytes ($(gzip -9c "web/dist/$w.wasm" | wc -c) gzipped)"
done
