// The page: hands dropped files to the wasm module (web/src/exports.rs) and puts its pictures on
// the canvas. Plain exports, no binding generator: strings and bytes go through buffers the module
// owns (modex_input), pictures come back as RGBA8 at modex_pixels.
// "auto": `modex render` without --format, which follows the content (8888 for levels and
// true-colour skins, 8-bit for palettized ones).
const FORMATS = { "8": 0, "565": 1, "4444": 2, "8888": 3, "auto": 4 };
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const [w, h] = (params.get("size") || "640x480").split("x").map(Number);
const view = {
  w, h,
  // NaN: not given, so `modex render`'s default for the file shown (the orbit starts there).
  yaw: params.has("yaw") ? Number(params.get("yaw")) : NaN,
  pitch: params.has("pitch") ? Number(params.get("pitch")) : NaN,
  format: params.get("format") || "auto",
  frame: Number(params.get("frame") || 0),
  facing: Number(params.get("facing") || 0),
  zoom: 1,
};
// frame_ms: the last draw; for the benchmarks, open_ms: decoding the file shown (modex_open), and
// load_ms: the dropped files read into the module and the file shown decoded; memory_bytes: the
// module's memory (it never shrinks, but a file shown after another reuses what that one freed).
const stats = { frame_ms: 0, frames: 0, open_ms: 0, load_ms: 0 };
let loadStart = 0;
window.modexStats = () => ({ ...stats, memory_bytes: wasm.memory.buffer.byteLength });
// Draw the current view in `batches` batches of `size` draws and return each batch's mean
// milliseconds per draw (docs/benchmarks.md "Web"; the browser's clock is too coarse for one draw).
window.modexBench = (batches, size) => {
  const means = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < size; i++) drawView();
    means.push((performance.now() - t0) / size);
  }
  show();
  return means;
};
$("format").value = view.format;
const canvas = $("view");
canvas.width = w; canvas.height = h;
const ctx = canvas.getContext("2d", { willReadFrequently: true });

let wasm, mem = () => new Uint8Array(wasm.memory.buffer);
const text = () => new TextDecoder().decode(mem().slice(wasm.modex_text(), wasm.modex_text() + wasm.modex_text_len()));
function put(bytes) { const p = wasm.modex_input(bytes.length); mem().set(bytes, p); }
function setName(s) { put(new TextEncoder().encode(s)); wasm.modex_set_name(); }

const { instance } = await WebAssembly.instantiateStreaming(fetch("modex.wasm"), {
  modex: { console_log: (p, n) => console.log(new TextDecoder().decode(mem().slice(p, p + n))) },
});
wasm = instance.exports;

function show() {
  const [pw, ph] = [wasm.modex_pixels_size() >>> 16, wasm.modex_pixels_size() & 0xffff];
  if (canvas.width !== pw || canvas.height !== ph) { canvas.width = pw; canvas.height = ph; }
  const px = new Uint8ClampedArray(wasm.memory.buffer, wasm.modex_pixels(), pw * ph * 4);
  ctx.putImageData(new ImageData(new Uint8ClampedArray(px), pw, ph), 0, 0);
}
function fail(msg) { $("error").textContent = msg; $("info").textContent = ""; document.body.dataset.state = "error"; }

// The view drawn into the module's picture buffer; 0, or an error whose text is text().
const drawView = () => wasm.modex_draw(view.w, view.h, view.yaw, view.pitch, FORMATS[view.format] ?? 4,
  view.frame, view.facing, view.zoom);

function draw() {
  const t0 = performance.now();
  const rc = drawView();
  if (rc !== 0) return fail(text());
  stats.frame_ms = performance.now() - t0; stats.frames++;
  show();
  $("error").textContent = "";
  document.body.dataset.state = "ready";
}

let audio, audioAt = 0, playing = false, last = 0;
function playCutscene(now) {
  if (!wasm.modex_is_cutscene()) { playing = false; return; }
  const t0 = performance.now();
  const tick = wasm.modex_cutscene_tick(last ? now - last : 0);
  last = now;
  stats.frame_ms = performance.now() - t0; stats.frames++;
  show();
  $("time").textContent = tick; $("seek").value = tick;
  const n = wasm.modex_audio_len();
  if (n > 0) {
    audio ??= new AudioContext();
    const buf = audio.createBuffer(1, n, 22050);
    buf.copyToChannel(new Float32Array(wasm.memory.buffer, wasm.modex_audio(), n).slice(), 0);
    const src = audio.createBufferSource(); src.buffer = buf; src.connect(audio.destination);
    audioAt = Math.max(audioAt, audio.currentTime); src.start(audioAt); audioAt += buf.duration;
  }
  document.body.dataset.state = "ready";
  requestAnimationFrame(playCutscene);
}

function open(name) {
  document.body.dataset.state = "loading";
  setName(name);
  const t0 = performance.now();
  const rc = wasm.modex_open();
  stats.open_ms = performance.now() - t0;
  if (loadStart) { stats.load_ms = performance.now() - loadStart; loadStart = 0; }
  if (rc !== 0) return fail(text());
  $("info").textContent = text();
  const frames = wasm.modex_frames();
  if (wasm.modex_is_cutscene()) {
    $("seek").max = Math.max(0, frames - 1); last = 0;
    if (!playing) { playing = true; requestAnimationFrame(playCutscene); }
  } else {
    $("frame").max = Math.max(0, frames - 1); $("frame").value = view.frame;
    draw();
  }
}

async function load(files) {
  document.body.dataset.state = "loading";
  loadStart = performance.now();
  wasm.modex_clear();
  for (const f of files) {
    setName(f.webkitRelativePath || f.name);
    put(new Uint8Array(await f.arrayBuffer()));
    wasm.modex_add_file();
  }
  wasm.modex_list();
  const list = text().split("\n").filter(Boolean);
  $("shown").replaceChildren(...list.map((n) => new Option(n, n)));
  open(list[0] || "");
}

// Folders dropped: walk their entries.
async function entries(items) {
  const out = [];
  const walk = async (e) => {
    if (e.isFile) out.push(await new Promise((ok, no) => e.file(ok, no)));
    else if (e.isDirectory) {
      const r = e.createReader();
      for (let batch; (batch = await new Promise((ok, no) => r.readEntries(ok, no))).length;)
        for (const c of batch) await walk(c);
    }
  };
  for (const it of items) { const e = it.webkitGetAsEntry?.(); if (e) await walk(e); }
  return out;
}

$("files").onchange = (e) => load([...e.target.files]);
$("folder").onchange = (e) => load([...e.target.files]);
$("shown").onchange = (e) => open(e.target.value);
$("drop").ondragover = (e) => e.preventDefault();
document.body.ondragover = (e) => e.preventDefault();
document.body.ondrop = async (e) => { e.preventDefault(); load(await entries([...e.dataTransfer.items])); };
$("format").onchange = (e) => { view.format = e.target.value; if (!wasm.modex_is_cutscene()) draw(); };
$("frame").oninput = (e) => { view.frame = Number(e.target.value); draw(); };
$("pause").onclick = () => wasm.modex_cutscene_action(0, 0);
$("step").onclick = () => wasm.modex_cutscene_action(1, 0);
$("seek").oninput = (e) => wasm.modex_cutscene_action(3, Number(e.target.value));
$("shot").onclick = () => canvas.toBlob((b) => {
  const a = document.createElement("a"); a.href = URL.createObjectURL(b); a.download = "modex.png"; a.click();
});
// Orbit with the left button, zoom with the wheel.
let drag = null;
canvas.onmousedown = (e) => { drag = [e.clientX, e.clientY]; };
window.onmouseup = () => { drag = null; };
canvas.onmousemove = (e) => {
  if (!drag || wasm.modex_is_cutscene()) return;
  if (isNaN(view.yaw)) view.yaw = wasm.modex_default_yaw();
  if (isNaN(view.pitch)) view.pitch = wasm.modex_default_pitch();
  view.yaw += (e.clientX - drag[0]) * 0.5;
  view.pitch = Math.max(-89, Math.min(89, view.pitch + (e.clientY - drag[1]) * 0.5));
  drag = [e.clientX, e.clientY]; draw();
};
canvas.onwheel = (e) => { e.preventDefault(); view.zoom *= e.deltaY < 0 ? 1.1 : 1 / 1.1; draw(); };
document.body.dataset.state = "empty";
