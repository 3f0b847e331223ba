// Which build of the module the page runs: `modex-simd.wasm` (built with WebAssembly SIMD,
// `+simd128`) where the browser validates a SIMD instruction, else `modex.wasm` (scalar). The
// URL parameter `wasm=simd` or `wasm=scalar` forces one (the tests compare the two).
// A tiny module whose one function uses i8x16.splat and i8x16.popcnt.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

export const simdSupported = () => WebAssembly.validate(SIMD_PROBE);

export async function loadModule(imports) {
  const asked = new URLSearchParams(location.search).get("wasm");
  let simd = asked ? asked === "simd" : simdSupported();
  let response = await fetch(simd ? "modex-simd.wasm" : "modex.wasm");
  if (!response.ok && simd && !asked) {
    // A build without the SIMD module: the scalar one.
    simd = false;
    response = await fetch("modex.wasm");
  }
  const { instance } = await WebAssembly.instantiateStreaming(response, { modex: imports });
  return { wasm: instance.exports, simd };
}
