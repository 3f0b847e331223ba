// The page: hands dropped files to the wasm module (web/src/exports.rs) and puts its pictures on
// the canvas. Plain exports, no binding generator: strings and bytes go through buffers the module
// owns (modex_input), pictures come back as RGBA8 at modex_pixels.
//
// State: the URL's parameters (`?size=..&yaw=..`) hold for every file shown, as `modex render`'s
// flags would; its fragment (`#file=..&yaw=..`, the same keys) is the view shown now, kept up to
// date, and applied to the first file shown after a load (so a reload with the same files
// dropped shows the same view).
import { loadModule } from "./loader.js";

// "auto": `modex render` without --format, which follows the content (8888 for levels and
// true-colour skins, 8-bit for palettized ones).
const FORMATS = { "8": 0, "565": 1, "4444": 2, "8888": 3, "auto": 4 };
// Models' frames per second when played (Quake's and GameStudio's animation rate).
const FPS = 10;
// Degrees the view orbits per pixel dragged, and per second an arrow key is held (models, units).
const ORBIT_PER_PIXEL = 0.5, TURN_RATE = 90, TILT_RATE = 60;

const $ = (id) => document.getElementById(id);
const canvas = $("view");
const ctx = canvas.getContext("2d", { willReadFrequently: true });
const params = new URLSearchParams(location.search);
// The fragment as the page was opened: applied to the first file shown.
let pending = new URLSearchParams(location.hash.slice(1));
if (![...pending.keys()].length) pending = null;

// The size asked for (`size=WxH`), else null: the canvas follows the window.
const sizeOf = (s) => { const m = /^(\d+)x(\d+)$/.exec(s || ""); return m ? [Number(m[1]), Number(m[2])] : null; };
const fixed = sizeOf(params.get("size")) || sizeOf(pending?.get("size"));
if (fixed) document.body.classList.add("fixed");

// The view of the file shown; `base` is what a file starts from (the URL's parameters).
const num = (v, dflt) => (v === null || v === undefined || v === "" || isNaN(Number(v)) ? dflt : Number(v));
function base(from = params) {
  return {
    // NaN: not given, so `modex render`'s default for the file shown (the orbit starts there).
    yaw: num(from.get("yaw"), NaN),
    pitch: num(from.get("pitch"), NaN),
    format: FORMATS[from.get("format")] !== undefined ? from.get("format") : "auto",
    frame: num(from.get("frame"), 0),
    facing: num(from.get("facing"), 0),
    zoom: num(from.get("zoom"), 1),
    panX: 0, panY: 0,
    camera: from.get("camera"),
  };
}
let view = base();
let shown = { name: "", kind: "none", frames: 0, actions: [] };

// frame_ms: the last draw; for the benchmarks, open_ms: decoding the file shown (modex_open),
// load_ms: the dropped files read into the module and the file shown decoded, list_ms: the
// dropped files read into the module and listed in the panel (`listed` entries); memory_bytes: the
// module's memory (it never shrinks, but a file shown after another reuses what that one freed).
const stats = { frame_ms: 0, frames: 0, open_ms: 0, load_ms: 0, list_ms: 0, listed: 0 };
let loadStart = 0;
window.modexStats = () => ({ ...stats, memory_bytes: wasm.memory.buffer.byteLength, simd: simd });
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

const { wasm, simd } = await loadModule({
  console_log: (p, n) => console.log(new TextDecoder().decode(mem().slice(p, p + n))),
});
function mem() { return new Uint8Array(wasm.memory.buffer); }
const text = () => new TextDecoder().decode(mem().slice(wasm.modex_text(), wasm.modex_text() + wasm.modex_text_len()));
function put(bytes) { const p = wasm.modex_input(bytes.length); mem().set(bytes, p); }
function setName(s) { put(new TextEncoder().encode(s)); wasm.modex_set_name(); }

// ---- The canvas's size: `size=WxH`, else the stage's size in device pixels over the scale. ----
function pictureSize() {
  if (fixed) return fixed;
  const r = $("stage").getBoundingClientRect();
  const s = Number($("scale").value) || 1;
  const dpr = window.devicePixelRatio || 1;
  return [Math.max(1, Math.floor((r.width * dpr) / s)), Math.max(1, Math.floor((r.height * dpr) / s))];
}
function placeCanvas() {
  if (fixed) { canvas.style.width = `${canvas.width}px`; canvas.style.height = `${canvas.height}px`; return; }
  const dpr = window.devicePixelRatio || 1;
  let s = Number($("scale").value) || 1;
  if (shown.kind === "cutscene") {
    // A cutscene's picture has the game's size: the largest whole multiple that fits.
    const r = $("stage").getBoundingClientRect();
    s = Math.max(1, Math.floor(Math.min((r.width * dpr) / canvas.width, (r.height * dpr) / canvas.height)));
  }
  canvas.style.width = `${(canvas.width * s) / dpr}px`;
  canvas.style.height = `${(canvas.height * s) / dpr}px`;
}

function show() {
  const [pw, ph] = [wasm.modex_pixels_size() >>> 16, wasm.modex_pixels_size() & 0xffff];
  if (canvas.width !== pw || canvas.height !== ph) { canvas.width = pw; canvas.height = ph; }
  placeCanvas();
  // The module's picture as it lies in its memory, uncopied: putImageData copies it once (a copy
  // here as well was a fifth of a walked level's frame at 1920x1080).
  const px = new Uint8ClampedArray(wasm.memory.buffer, wasm.modex_pixels(), pw * ph * 4);
  ctx.putImageData(new ImageData(px, pw, ph), 0, 0);
}
function fail(msg) {
  $("error").textContent = msg; $("info").textContent = "";
  document.body.dataset.state = "error";
}

// The view drawn into the module's picture buffer; 0, or an error whose text is text().
function drawView() {
  const [w, h] = pictureSize();
  return wasm.modex_draw(w, h, view.yaw, view.pitch, FORMATS[view.format] ?? 4,
    view.frame, view.facing, view.zoom, view.panX, view.panY);
}

function draw() {
  const t0 = performance.now();
  const rc = drawView();
  if (rc !== 0) return fail(text());
  stats.frame_ms = performance.now() - t0; stats.frames++;
  show();
  $("error").textContent = "";
  shownState();
  document.body.dataset.state = "ready";
}
// One draw per animation frame however many events asked for one.
let drawAsked = false;
function redraw() {
  if (drawAsked || shown.kind === "none" || shown.kind === "cutscene") return;
  drawAsked = true;
  requestAnimationFrame(() => { drawAsked = false; draw(); });
}

// ---- What is shown, in the HUD, the panel and the fragment. ----
// The shortest decimal that is the same f32 (what the module draws with), so the numbers shown
// and copied give `modex render` the same value.
function f32(x) {
  const v = Math.fround(x);
  for (let p = 1; p < 10; p++) { const s = String(Number(v.toPrecision(p))); if (Math.fround(Number(s)) === v) return s; }
  return String(v);
}
const shownYaw = () => (isNaN(view.yaw) ? wasm.modex_default_yaw() : view.yaw);
const shownPitch = () => (isNaN(view.pitch) ? wasm.modex_default_pitch() : view.pitch);
// The level's camera when a walker stands somewhere: [text, mode] (1 flying, 2 walking), else null.
function levelCamera() {
  if (shown.kind !== "level") return null;
  const mode = wasm.modex_camera();
  return mode ? [text(), mode] : null;
}

function shownState() {
  const angles = $("angles");
  const cam = levelCamera();
  if (cam) {
    angles.textContent = `${cam[1] === 2 ? "walking" : "flying"}`;
    delete angles.dataset.yaw; delete angles.dataset.pitch;
    $("camera").textContent = cam[0];
    $("where").textContent = `camera ${cam[0]}`;
  } else {
    const [y, p] = [f32(shownYaw()), f32(shownPitch())];
    const levelDefault = shown.kind === "level" && isNaN(view.yaw) && isNaN(view.pitch);
    angles.dataset.yaw = y; angles.dataset.pitch = p;
    angles.textContent = levelDefault ? "the level's view" : `yaw ${y}  pitch ${p}`;
    if (view.zoom !== 1) angles.textContent += `  zoom ${view.zoom.toFixed(2)}`;
    $("where").textContent = "";
    if (shown.kind === "level") $("camera").textContent = "the level's";
  }
  $("frame").value = view.frame; $("frame-no").textContent = view.frame;
  writeFragment(cam);
}

// The fragment: the view shown now, with the parameters' keys. Written at most once per
// FRAGMENT_MS, the last view within FRAGMENT_MS after it is drawn: a walk or a drag draws every
// animation frame, and a history update each time was a tenth of a walked level's frame (browsers
// also throttle them).
const FRAGMENT_MS = 200;
let fragmentAt = -Infinity, fragmentLater = 0;
function writeFragment(cam) {
  const f = new URLSearchParams();
  if (shown.name) f.set("file", shown.name);
  if (cam) f.set("camera", cam[0]);
  else {
    if (!isNaN(view.yaw)) f.set("yaw", f32(view.yaw));
    if (!isNaN(view.pitch)) f.set("pitch", f32(view.pitch));
  }
  if (view.zoom !== 1) f.set("zoom", f32(view.zoom));
  if (view.frame) f.set("frame", view.frame);
  if (view.facing) f.set("facing", view.facing);
  if (view.format !== "auto") f.set("format", view.format);
  if (paletteName) f.set("palette", paletteName);
  if (fixed) f.set("size", `${fixed[0]}x${fixed[1]}`);
  const hash = `#${f.toString().replace(/%2C/g, ",")}`;
  if (hash === location.hash) return;
  const wait = fragmentAt + FRAGMENT_MS - performance.now();
  if (wait <= 0) {
    history.replaceState(null, "", hash);
    fragmentAt = performance.now();
  } else if (!fragmentLater) {
    fragmentLater = setTimeout(() => { fragmentLater = 0; writeFragment(levelCamera()); }, wait);
  }
}

// The `modex render` command line of the view shown.
function command() {
  const q = (s) => (/^[\w.,+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  const stem = shown.name.replace(/\.[^.]*$/, "");
  const args = ["modex", "render", q(shown.name), "-o", q(`${stem}.png`), "--size", `${canvas.width}x${canvas.height}`];
  if (view.format !== "auto") args.push("--format", view.format);
  if (paletteName) args.push("--palette", q(paletteName));
  const cam = levelCamera();
  if (cam) args.push("--camera", cam[0]);
  else if (!(shown.kind === "level" && isNaN(view.yaw) && isNaN(view.pitch)))
    args.push("--yaw", f32(shownYaw()), "--pitch", f32(shownPitch()));
  if (view.frame) args.push("--frame", String(view.frame));
  if (view.facing) args.push("--facing", String(view.facing));
  let line = args.join(" ");
  if (view.zoom !== 1 || view.panX || view.panY) line += "   # zoom and pan are the page's own: render frames the file whole";
  return line;
}

// ---- Opening files. ----
function kindOf() {
  if (wasm.modex_is_cutscene()) return "cutscene";
  const e = treeEntries.find((t) => t.name === shown.name);
  return { levels: "level", "voxel units": "unit", terrain: "model", models: "model" }[e?.kind] || "model";
}

// The dropped file chosen as the palette (`--palette`), or "".
let paletteName = "";
function choosePalette(name) {
  setName(name);
  if (wasm.modex_set_palette() !== 0) { fail(text()); $("palette").value = paletteName; return false; }
  paletteName = name; $("palette").value = name;
  return true;
}

// `keep`: the view to show the file with (the palette changed), else where the file starts.
function open(name, keep) {
  document.body.dataset.state = "loading";
  stopAnimation();
  setName(name);
  const t0 = performance.now();
  const rc = wasm.modex_open();
  stats.open_ms = performance.now() - t0;
  if (loadStart) { stats.load_ms = performance.now() - loadStart; loadStart = 0; }
  if (rc !== 0) { shown = { name, kind: "none", frames: 0, actions: [] }; markCurrent(name); return fail(text()); }
  $("info").textContent = text();
  const opened = text().split(":")[0];
  shown = { name: opened, kind: "none", frames: wasm.modex_frames(), actions: [] };
  shown.kind = kindOf();
  document.body.dataset.kind = shown.kind;
  markCurrent(shown.name);
  // The fragment of the page's first load applies to the first file it names (or the first
  // file shown when it names none); every other file starts from the URL's parameters.
  const fromFragment = pending && (!pending.get("file") || pending.get("file").toLowerCase() === opened.toLowerCase());
  view = keep || (fromFragment ? { ...base(), ...definedOf(base(pending)) } : base());
  if (fromFragment) { $("format").value = view.format; pending = null; }
  if (shown.kind === "cutscene") {
    $("seek").max = Math.max(0, shown.frames - 1); last = 0;
    if (!playing) { playing = true; requestAnimationFrame(playCutscene); }
    return;
  }
  if (shown.kind === "level" && view.camera) {
    const c = view.camera.split(",").map(Number);
    if (c.length === 5 && c.every(Number.isFinite)) wasm.modex_set_camera(...c);
  }
  wasm.modex_actions();
  shown.actions = text().split("\n").filter(Boolean).map((l) => { const [n, f, c] = l.split("\t"); return { name: n, first: Number(f), count: Number(c) }; });
  $("action").replaceChildren(new Option(`all frames (${shown.frames})`, "all"),
    ...shown.actions.map((a, i) => new Option(`${a.name} (${a.count})`, String(i))));
  $("frame").max = Math.max(0, shown.frames - 1);
  draw();
}
// The values of `v` the fragment gave (its NaNs and defaults do not override the parameters).
function definedOf(v) {
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x === "number" && isNaN(x)) continue;
    if (x === null || (k === "format" && x === "auto") || (k === "zoom" && x === 1) || (k === "frame" && x === 0) || (k === "facing" && x === 0)) continue;
    out[k] = x;
  }
  return out;
}

// ---- The tree of dropped files by kind. ----
let treeEntries = [];
function buildTree() {
  wasm.modex_tree();
  treeEntries = text().split("\n").filter(Boolean).map((l) => {
    const [kind, name, showable, note] = l.split("\t");
    return { kind, name, showable: showable === "1", note };
  });
  const groups = new Map();
  for (const e of treeEntries) { if (!groups.has(e.kind)) groups.set(e.kind, []); groups.get(e.kind).push(e); }
  const tree = $("tree");
  tree.replaceChildren();
  for (const [kind, entries] of groups) {
    const d = document.createElement("details");
    d.open = kind !== "other" || entries.length <= 12;
    d.dataset.kind = kind;
    const s = document.createElement("summary");
    s.innerHTML = `<span class="kind"></span> <span class="count"></span>`;
    s.querySelector(".kind").textContent = kind;
    const ul = document.createElement("ul");
    for (const e of entries) {
      const li = document.createElement("li");
      const el = document.createElement(e.showable ? "button" : "span");
      el.className = "entry"; el.dataset.name = e.name;
      el.textContent = e.name;
      if (e.note) { const n = document.createElement("small"); n.textContent = ` ${e.note}`; el.append(n); }
      if (e.showable) el.onclick = () => open(e.name);
      li.append(el); ul.append(li);
    }
    d.append(s, ul);
    tree.append(d);
  }
  filterTree();
}
function filterTree() {
  const f = $("filter").value.trim().toLowerCase();
  for (const d of $("tree").children) {
    let n = 0;
    for (const li of d.querySelectorAll("li")) {
      const hit = !f || li.firstChild.dataset.name.toLowerCase().includes(f);
      li.hidden = !hit; n += hit;
    }
    d.hidden = n === 0;
    d.querySelector(".count").textContent = `(${n})`;
  }
}
function markCurrent(name) {
  for (const el of $("tree").querySelectorAll(".entry"))
    el.setAttribute("aria-current", String(el.dataset.name === name));
}
// Up and down move between the tree's entries.
$("tree").addEventListener("keydown", (e) => {
  if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
  const all = [...$("tree").querySelectorAll("li:not([hidden]) button.entry")].filter((b) => b.offsetParent);
  const i = all.indexOf(document.activeElement);
  const next = all[i + (e.key === "ArrowDown" ? 1 : -1)];
  if (next) { next.focus(); e.preventDefault(); }
});

// Files read at once: the browser reads them off the page's thread, in parallel, while the module
// takes the ones already read (and a whole game folder is never held twice over).
const READ_AHEAD = 16;
async function load(files) {
  document.body.dataset.state = "loading";
  loadStart = performance.now();
  wasm.modex_clear();
  const reads = files.slice(0, READ_AHEAD).map((f) => f.arrayBuffer());
  for (let i = 0; i < files.length; i++) {
    const bytes = new Uint8Array(await reads[i]);
    reads[i] = null;
    if (i + READ_AHEAD < files.length) reads.push(files[i + READ_AHEAD].arrayBuffer());
    const f = files[i];
    setName(f.webkitRelativePath || f.relativePath || f.name);
    put(bytes);
    wasm.modex_add_file();
  }
  buildTree();
  stats.list_ms = performance.now() - loadStart;
  stats.listed = treeEntries.length;
  paletteName = "";
  const palettes = treeEntries.filter((e) => e.kind === "palettes").map((e) => e.name);
  $("palette").replaceChildren(new Option("as made", ""), ...palettes.map((n) => new Option(n, n)));
  const wantedPalette = pending?.get("palette") || params.get("palette");
  if (wantedPalette) {
    const found = palettes.find((n) => n.toLowerCase() === wantedPalette.toLowerCase());
    if (!found || !choosePalette(found)) return fail(found ? text() : `${wantedPalette}: no such palette among the dropped files`);
  }
  wasm.modex_list();
  const list = text().split("\n").filter(Boolean);
  const wanted = pending?.get("file");
  const first = (wanted && list.find((n) => n.toLowerCase() === wanted.toLowerCase())) || list[0] || "";
  open(first);
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
  const roots = items.map((it) => it.webkitGetAsEntry?.()).filter(Boolean);
  for (const e of roots) await walk(e);
  return out;
}

// ---- Cutscenes: the engine's clock and sound, with the transport. ----
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
  writeFragment(null);
  document.body.dataset.state = "ready";
  requestAnimationFrame(playCutscene);
}

// ---- Animation: frames of the chosen action at FPS x speed. ----
let animating = false, animFrom = 0, animAt = 0;
function actionRange() {
  const a = shown.actions[Number($("action").value)];
  return a ? [a.first, a.first + a.count] : [0, shown.frames];
}
function stopAnimation() { animating = false; $("play").textContent = "play"; $("play").setAttribute("aria-pressed", "false"); }
function startAnimation() {
  if (shown.frames < 2) return;
  animating = true; animFrom = performance.now(); animAt = view.frame;
  $("play").textContent = "pause"; $("play").setAttribute("aria-pressed", "true");
  requestAnimationFrame(animate);
}
function animate(now) {
  if (!animating) return;
  const [lo, hi] = actionRange();
  const speed = Number($("speed").value);
  const f = lo + ((Math.max(animAt, lo) - lo + Math.floor(((now - animFrom) / 1000) * FPS * speed)) % (hi - lo));
  if (f !== view.frame) { view.frame = f; draw(); }
  requestAnimationFrame(animate);
}
$("play").onclick = () => (animating ? stopAnimation() : startAnimation());
$("action").onchange = () => {
  const [lo] = actionRange(); view.frame = lo; animAt = lo; animFrom = performance.now(); redraw();
};
$("speed").onchange = () => { animAt = view.frame; animFrom = performance.now(); };
$("frame").oninput = (e) => { view.frame = Number(e.target.value); animAt = view.frame; animFrom = performance.now(); redraw(); };

// ---- Turning, zooming and panning (models, terrain, units; levels orbit until walked). ----
const pointers = new Map();
let gesture = null;
function startOrbit() {
  if (isNaN(view.yaw)) view.yaw = wasm.modex_default_yaw();
  if (isNaN(view.pitch)) view.pitch = wasm.modex_default_pitch();
}
function orbit(dx, dy) {
  startOrbit();
  view.yaw += dx * ORBIT_PER_PIXEL;
  view.pitch = Math.max(-89, Math.min(89, view.pitch + dy * ORBIT_PER_PIXEL));
}
function pan(dx, dy) {
  const h = canvas.getBoundingClientRect().height || 1;
  view.panX += dx / h; view.panY += dy / h;
}
function zoomBy(f) { view.zoom = Math.max(0.05, Math.min(50, view.zoom * f)); }
// Mouse look in a level (pointer lock when the browser grants it, else while the button is held).
let lookX = 0, lookY = 0;
const walkingLevel = () => shown.kind === "level";

canvas.addEventListener("contextmenu", (e) => e.preventDefault());
canvas.addEventListener("pointerdown", (e) => {
  canvas.focus();
  if (shown.kind === "none" || shown.kind === "cutscene") return;
  canvas.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, [e.clientX, e.clientY]);
  if (walkingLevel() && e.pointerType === "mouse" && e.button === 0 && !document.pointerLockElement) {
    canvas.requestPointerLock?.()?.catch?.(() => {});
  }
  gesture = pointers.size === 2 ? "pinch" : e.button === 2 || e.button === 1 || e.shiftKey ? "pan" : "orbit";
});
canvas.addEventListener("pointermove", (e) => {
  if (document.pointerLockElement === canvas) { lookX += e.movementX; lookY += e.movementY; keepWalking(); return; }
  const was = pointers.get(e.pointerId);
  if (!was) return;
  const now = [e.clientX, e.clientY];
  if (gesture === "pinch" && pointers.size === 2) {
    const [a, b] = [...pointers.values()];
    const other = [...pointers.entries()].find(([id]) => id !== e.pointerId)[1];
    const before = Math.hypot(a[0] - b[0], a[1] - b[1]);
    const after = Math.hypot(now[0] - other[0], now[1] - other[1]);
    if (before > 0 && !walkingLevel()) zoomBy(after / before);
    pan((now[0] - was[0]) / 2, (now[1] - was[1]) / 2);
  } else if (walkingLevel() && gesture === "orbit") {
    lookX += now[0] - was[0]; lookY += now[1] - was[1]; keepWalking();
  } else if (gesture === "pan") pan(now[0] - was[0], now[1] - was[1]);
  else orbit(now[0] - was[0], now[1] - was[1]);
  pointers.set(e.pointerId, now);
  if (!walkingLevel() || gesture !== "orbit") redraw();
});
const lift = (e) => { pointers.delete(e.pointerId); if (!pointers.size) gesture = null; };
canvas.addEventListener("pointerup", lift);
canvas.addEventListener("pointercancel", lift);
canvas.addEventListener("wheel", (e) => {
  e.preventDefault();
  if (shown.kind === "none" || shown.kind === "cutscene" || levelCamera()) return;
  zoomBy(e.deltaY < 0 ? 1.1 : 1 / 1.1); redraw();
}, { passive: false });
function resetView() {
  view = base();
  if (shown.kind === "level") wasm.modex_set_camera(NaN, 0, 0, 0, 0);
  redraw();
}
canvas.addEventListener("dblclick", resetView);
$("reset").onclick = resetView;

// ---- Keys: `modex view`'s (game-demo/src/cli/formats/keys.rs, the one table), by key code. ----
const held = new Set();
const axis = (more, less) => (more.some((k) => held.has(k)) ? 1 : 0) - (less.some((k) => held.has(k)) ? 1 : 0);
const MOVE_KEYS = ["KeyW", "KeyS", "KeyA", "KeyD", "KeyE", "KeyQ", "PageUp", "PageDown", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Equal", "Minus", "NumpadAdd", "NumpadSubtract"];
const typing = (t) => t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement;
const keysFor = () => document.activeElement === canvas || document.pointerLockElement === canvas;
document.addEventListener("keydown", (e) => {
  if (typing(e.target) || !keysFor() || shown.kind === "none") return;
  if (shown.kind === "cutscene") {
    if (e.code === "Space") { wasm.modex_cutscene_action(0, 0); e.preventDefault(); }
    return;
  }
  if (MOVE_KEYS.includes(e.code) || e.key === "Shift") { held.add(e.code); keepWalking(); e.preventDefault(); return; }
  if (e.repeat) return;
  if (shown.kind === "level") {
    if (e.code === "KeyG") { wasm.modex_walk_toggle(); redraw(); }
    if (e.code === "KeyC") copyCamera();
  } else {
    if (e.code === "Space") { animating ? stopAnimation() : startAnimation(); e.preventDefault(); }
    if (e.code === "Period" || e.code === "Comma") {
      stopAnimation();
      view.frame = (view.frame + (e.code === "Period" ? 1 : shown.frames - 1)) % Math.max(1, shown.frames);
      redraw();
    }
  }
});
document.addEventListener("keyup", (e) => { held.delete(e.code); if (e.key === "Shift") { held.delete("ShiftLeft"); held.delete("ShiftRight"); } });
window.addEventListener("blur", () => held.clear());

// While keys are held or the mouse looks: one step of the walker (levels) or the orbit (others)
// per animation frame, `dt` the time since the last.
let stepping = false, stepLast = 0;
function keepWalking() {
  if (stepping) return;
  stepping = true; stepLast = performance.now();
  requestAnimationFrame(stepFrame);
}
function stepFrame(now) {
  const dt = Math.min(0.25, Math.max(0, (now - stepLast) / 1000));
  stepLast = now;
  const busy = held.size > 0 || lookX || lookY;
  if (!busy || shown.kind === "none" || shown.kind === "cutscene") { stepping = false; return; }
  const turn = axis(["ArrowRight"], ["ArrowLeft"]), tilt = axis(["ArrowUp"], ["ArrowDown"]);
  if (shown.kind === "level") {
    const run = held.has("ShiftLeft") || held.has("ShiftRight");
    wasm.modex_walk(dt, axis(["KeyW"], ["KeyS"]), axis(["KeyD"], ["KeyA"]), axis(["KeyE", "PageUp"], ["KeyQ", "PageDown"]),
      run ? 1 : 0, turn, tilt, lookX, lookY);
    lookX = lookY = 0;
  } else {
    // Right orbits right and Up higher, as the viewer's arrows.
    if (turn || tilt) { startOrbit(); view.yaw += turn * TURN_RATE * dt; view.pitch = Math.max(-89, Math.min(89, view.pitch + tilt * TILT_RATE * dt)); }
    const z = axis(["Equal", "NumpadAdd"], ["Minus", "NumpadSubtract"]);
    if (z) zoomBy(Math.pow(2, z * dt));
  }
  draw();
  requestAnimationFrame(stepFrame);
}

async function copyCamera() {
  const cam = levelCamera();
  const line = `--camera ${cam ? cam[0] : ""}`;
  console.log(line);
  $("command").textContent = command();
  try { await navigator.clipboard.writeText(line); } catch { /* no clipboard: the line is shown */ }
}
$("copy").onclick = async () => {
  const line = command();
  $("command").textContent = line;
  try { await navigator.clipboard.writeText(line); } catch { /* no clipboard: the line is shown */ }
};

// ---- The panel's other controls. ----
$("files").onchange = (e) => load([...e.target.files]);
$("filter").oninput = filterTree;
$("format").value = view.format;
$("format").onchange = (e) => { view.format = e.target.value; redraw(); };
$("scale").onchange = () => redraw();
$("palette").onchange = (e) => {
  if (choosePalette(e.target.value) && shown.name) open(shown.name, shown.kind === "cutscene" ? undefined : view);
};
$("pause").onclick = () => wasm.modex_cutscene_action(0, 0);
$("step").onclick = () => wasm.modex_cutscene_action(1, 0);
$("back").onclick = () => wasm.modex_cutscene_action(2, 0);
$("seek").oninput = (e) => wasm.modex_cutscene_action(3, Number(e.target.value));
$("shot").onclick = () => canvas.toBlob((b) => {
  const a = document.createElement("a"); a.href = URL.createObjectURL(b);
  a.download = `${shown.name.replace(/\.[^.]*$/, "") || "modex"}.png`; a.click();
});
$("toggle").onclick = () => {
  const hidden = document.body.classList.toggle("panel-hidden");
  $("toggle").setAttribute("aria-expanded", String(!hidden));
  redraw();
};
// Drops anywhere on the page.
let dragDepth = 0;
document.addEventListener("dragenter", (e) => { e.preventDefault(); dragDepth++; document.body.classList.add("dropping"); });
document.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; document.body.classList.remove("dropping"); } });
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", async (e) => {
  e.preventDefault(); dragDepth = 0; document.body.classList.remove("dropping");
  load(await entries([...e.dataTransfer.items]));
});
// The window's size and pixel ratio: the picture follows them (unless `size` was given).
new ResizeObserver(() => { if (!fixed) redraw(); }).observe($("stage"));
function watchRatio() {
  matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener("change", () => { redraw(); watchRatio(); }, { once: true });
}
watchRatio();
document.body.dataset.state = "empty";
