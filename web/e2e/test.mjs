// End-to-end test of the web frontend: serves web/dist on 127.0.0.1, loads real samples through
// the file input in headless Chromium, waits for `ready`, and compares the canvas pixels with
// what the native `modex render` writes for the same parameters (decoded to RGBA here by
// Chromium itself, from the PNG the binary wrote), and `#info` with what `modex info` prints.
// Usage: node test.mjs MODEX_BIN SAMPLES_DIR
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { encodeLib, gameFolder, open, root } from "./harness.mjs";

const [modex, samples] = process.argv.slice(2).map((p) => resolve(p));
const tmp = mkdtempSync(join(tmpdir(), "modex-web-"));
let failed = 0;
const check = (ok, what) => { console.log(`${ok ? "ok  " : "FAIL"} ${what}`); if (!ok) failed++; };
const { page, load, close } = await open();

const canvasPixels = () => page.evaluate(() => {
  const c = document.getElementById("view");
  return Array.from(c.getContext("2d").getImageData(0, 0, c.width, c.height).data);
});
// The PNG `modex render` wrote, decoded by the browser (an indexed PNG becomes its palette's RGBA).
async function pngPixels(file) {
  const b64 = readFileSync(file).toString("base64");
  return page.evaluate(async (b64) => {
    const img = new Image(); img.src = `data:image/png;base64,${b64}`; await img.decode();
    const c = new OffscreenCanvas(img.width, img.height); const x = c.getContext("2d");
    x.drawImage(img, 0, 0); return Array.from(x.getImageData(0, 0, img.width, img.height).data);
  }, b64);
}

// #info holds what `modex info NAME` prints, run in the file's folder (the page knows names only).
// A level's entity search starts at the game's folder on disk for the binary, among the dropped
// files for the page: that one line says where, the rest is the same.
async function sameAsInfo(label, file) {
  let want = execFileSync(modex, ["info", basename(file)], { cwd: dirname(file) }).toString();
  const got = await page.textContent("#info");
  if (file.endsWith(".wmb")) want = want.replace(/\(root [^)\n]*\)/, "(root the dropped files)");
  check(got === want, `${label}: #info equals modex info`);
  if (got !== want) console.log(`  page:\n${got}\n  modex info:\n${want}`);
}

// `args`: size, format, and yaw and pitch unless the defaults are meant; `show` picks the file
// shown among those dropped (the page shows the first of its list otherwise).
async function sameAsRender(label, file, files, args) {
  const out = join(tmp, `${label}.png`);
  const given = ["size", "yaw", "pitch", "format"].filter((k) => args[k] !== undefined);
  execFileSync(modex, ["render", file, "-o", out, ...given.flatMap((k) => [`--${k}`, args[k]]), ...(args.extra || [])]);
  const q = new URLSearchParams({ ...Object.fromEntries(given.map((k) => [k, args[k]])), ...(args.query || {}) });
  let state = await load(q.toString(), files);
  if (args.show) {
    await page.click(`#tree button[data-name="${args.show}"]`);
    await page.waitForFunction((n) => document.body.dataset.state !== "loading"
      && document.getElementById("info").textContent.startsWith(`${n}:`), args.show, { timeout: 60000 });
    state = await page.evaluate(() => document.body.dataset.state);
  }
  check(state === "ready", `${label}: ready (${await page.textContent("#error")})`);
  const [a, b] = [await canvasPixels(), await pngPixels(out)];
  const diff = a.length === b.length ? a.filter((v, i) => v !== b[i]).length : -1;
  check(diff === 0, `${label}: canvas equals modex render (${diff} bytes differ of ${b.length})`);
  if (diff > 0) {
    // Where they differ, so that a mismatch can be traced to what is drawn there.
    const w = Number((args.size || "320x240").split("x")[0]);
    const at = [];
    for (let i = 0; i < a.length && at.length < 8; i += 4)
      if ([0, 1, 2, 3].some((k) => a[i + k] !== b[i + k]))
        at.push(`(${(i / 4) % w},${Math.floor(i / 4 / w)}) page ${a.slice(i, i + 4)} native ${b.slice(i, i + 4)}`);
    console.log(`  differs at ${at.join("; ")}`);
  }
  await sameAsInfo(label, file);
  await page.screenshot({ path: join(tmp, `${label}-page.png`) });
  console.log(`  stats ${JSON.stringify(await page.evaluate(() => window.modexStats()))}`);
}

const mdl = join(samples, "mdl/assimp/minigun.MDL");
for (const format of ["8", "565", "4444", "8888"])
  await sameAsRender(`mdl3-${format}`, mdl, [mdl], { size: "320x240", yaw: "30", pitch: "15", format });
// The page runs the SIMD build where the browser has WebAssembly SIMD (Chromium does), and the
// scalar build otherwise: both give modex render's bytes (8888 and 565 are where their span
// kernels differ).
check(await page.evaluate(() => window.modexStats().simd) === true, "simd: Chromium runs the SIMD build");
for (const format of ["565", "8888"])
  await sameAsRender(`mdl3-${format}-scalar`, mdl, [mdl], { size: "320x240", yaw: "30", pitch: "15", format, query: { wasm: "scalar" } });
check(await page.evaluate(() => window.modexStats().simd) === false, "simd: wasm=scalar runs the scalar build");
// An MDL7 whose skin is an external TGA beside it, dropped together.
const level = join(samples, "wmb/lottershock/Game/Level");
const milk = ["milk.mdl", "milk.tga"].map((n) => join(level, n));
await sameAsRender("mdl7-external-skin", milk[0], milk, { size: "320x240", yaw: "200", pitch: "20", format: "8888" });
await sameAsRender("mdl7-external-skin-default-format", milk[0], milk, { size: "320x240", yaw: "200", pitch: "20" });
// The skin was the dropped TGA: without it the page draws something else.
await load(new URLSearchParams({ size: "320x240", yaw: "200", pitch: "20", format: "8888" }).toString(), [milk[0]]);
const [bare, skinned] = [await canvasPixels(), await pngPixels(join(tmp, "mdl7-external-skin.png"))];
check(bare.some((v, i) => v !== skinned[i]), "mdl7-external-skin: without the TGA the picture differs");
const vdir = join(samples, "vxl/vengi");
const unit = ["hmec.vxl", "hmec.hva", "test.vpl"].map((n) => join(vdir, n));
await sameAsRender("vxl-hmec", unit[0], unit, { size: "320x240", yaw: "45", pitch: "30", format: "8", extra: ["--facing", "32"], query: { facing: "32" } });

// A damaged file: its error, then the page still shows the next file.
const bad = join(tmp, "broken.mdl");
const bytes = readFileSync(mdl); writeFileSync(bad, bytes.subarray(0, 200));
check(await load("", [bad]) === "error", "damaged file: state error");
const msg = await page.textContent("#error");
check(/offset|byte/i.test(msg), `damaged file: typed error shown (${msg})`);
await page.setInputFiles("#files", [mdl]);
await page.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 60000 });
check(true, "page usable after the error");

// Levels, with the whole game folder dropped (its entity files are found among the dropped files,
// as `modex render` finds them in the game's folders): bestiary, 44 placed models, is shown first;
// at the page's default view and `modex render`'s default camera; turned; testlevel's lightmapped
// blocks; menue from its POSITION object.
const game = join(samples, "wmb/lottershock/Game");
// The turret's skin lies outside Game/, in the art sources the binary searches below the root.
const gameFiles = ["Level", "Assets"].flatMap((d) => readdirSync(join(game, d)).map((n) => join(game, d, n)))
  .concat([join(game, "../ArtSource/enemie/turretskin.tga")]);
await sameAsRender("wmb-bestiary", join(level, "bestiary.wmb"), gameFiles, { size: "320x240", format: "8" });
await sameAsRender("wmb-bestiary-turned", join(level, "bestiary.wmb"), gameFiles, { size: "320x240", yaw: "40", pitch: "30", format: "8888" });
await sameAsRender("wmb-testlevel", join(level, "testlevel.wmb"), gameFiles, { size: "320x240", format: "565", show: "testlevel.wmb" });
await sameAsRender("wmb-menue", join(level, "menue.wmb"), gameFiles, { size: "320x240", yaw: "-20", format: "8888", show: "menue.wmb" });
// No format: as `modex render`, the level's own (8888, true colour); 8-bit above went through the
// palette built from its textures, as the binary's.
await sameAsRender("wmb-testlevel-default-format", join(level, "testlevel.wmb"), gameFiles, { size: "320x240", show: "testlevel.wmb" });

// The panel: a dropped game folder with a voxel unit beside it, listed as a tree by kind (a
// unit's HVA and the VPL with it), and the filter box.
{
  await load(new URLSearchParams({ size: "320x240" }).toString(), [...gameFiles, ...unit]);
  const tree = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll("#tree details")].map((d) =>
    [d.dataset.kind, [...d.querySelectorAll(".entry")].map((e) => e.dataset.name)])));
  const has = (kind, names) => names.every((n) => tree[kind]?.includes(n));
  check(has("levels", ["bestiary.wmb", "menue.wmb", "testlevel.wmb"]) && has("models", ["milk.mdl", "warlock.MDL"])
    && has("voxel units", ["hmec.vxl"]) && has("palettes", ["test.vpl", "room_atlas_01.pcx"]) && has("other", ["milk.tga"])
    && !Object.values(tree).flat().includes("hmec.hva"),
  `panel: the dropped folder is listed by kind (${Object.entries(tree).map(([k, v]) => `${k}: ${v.length}`).join(", ")})`);
  const note = await page.textContent('#tree [data-name="hmec.vxl"] small');
  check(/hmec\.hva/.test(note) && /test\.vpl/.test(note), `panel: the unit names its HVA and VPL (${note})`);
  await page.fill("#filter", "MILK");
  const visible = await page.evaluate(() => [...document.querySelectorAll("#tree li")].filter((li) => !li.hidden).map((li) => li.firstChild.dataset.name));
  check(visible.length === 2 && visible.every((n) => /milk/i.test(n)), `panel: the filter keeps the matching files (${visible})`);
  const { load_ms } = await page.evaluate(() => window.modexStats());
  console.log(`  ${Object.values(tree).flat().length} files listed and the first shown in ${load_ms.toFixed(0)} ms`);
}

// Turning: a drag orbits; the picture equals `modex render` at the angles the page shows; the
// fragment holds the view, and a reload with the same files and that fragment shows it again;
// "copy view" gives the command line that draws it.
const frameDone = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const shownAngles = () => page.evaluate(() => { const a = document.getElementById("angles").dataset; return [a.yaw, a.pitch]; });
async function sameAsBinary(label, file, args) {
  const out = join(tmp, `${label}.png`);
  execFileSync(modex, ["render", file, "-o", out, ...args]);
  const [a, b] = [await canvasPixels(), await pngPixels(out)];
  const diff = a.length === b.length ? a.filter((v, i) => v !== b[i]).length : -1;
  check(diff === 0, `${label}: canvas equals modex render ${args.join(" ")} (${diff} bytes differ of ${b.length})`);
  return a;
}
{
  await load(new URLSearchParams({ size: "320x240" }).toString(), [mdl]);
  const box = await page.locator("#view").boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const before = await shownAngles();
  await page.mouse.move(cx, cy); await page.mouse.down();
  await page.mouse.move(cx + 25, cy + 10, { steps: 3 }); await page.mouse.move(cx + 47, cy + 31, { steps: 3 });
  await page.mouse.up(); await frameDone();
  const [yaw, pitch] = await shownAngles();
  check(yaw !== before[0] && pitch !== before[1], `drag: the shown angles change (${before} -> ${yaw},${pitch})`);
  const dragged = await sameAsBinary("drag", mdl, ["--size", "320x240", "--yaw", yaw, "--pitch", pitch]);
  // The fragment follows the view within 200 ms (modex.js: FRAGMENT_MS).
  await page.waitForFunction((y) => location.hash.includes(`yaw=${y}`), yaw, { timeout: 5000 }).catch(() => {});
  const hash = await page.evaluate(() => location.hash.slice(1));
  check(hash.includes(`yaw=${yaw}`) && hash.includes("file=minigun.MDL"), `drag: the fragment holds the view (#${hash})`);
  await page.click("#copy");
  const line = await page.textContent("#command");
  const args = line.split(/\s+/).slice(3);
  args.splice(args.indexOf("-o"), 2);
  check(line.startsWith("modex render minigun.MDL -o minigun.png --size 320x240"), `copy view: ${line}`);
  await sameAsBinary("copy-view", mdl, args);
  // Reload: the fragment alone (no parameters but the size) shows the same view.
  check(await load("size=320x240", [mdl], hash) === "ready", "fragment: ready after a reload");
  const again = await canvasPixels();
  check(again.length === dragged.length && again.every((v, i) => v === dragged[i]), "fragment: the reload shows the dragged view");
  check((await shownAngles()).join() === [yaw, pitch].join(), "fragment: the reload shows the same angles");
  // Double-click: back to the first view.
  await page.dblclick("#view"); await frameDone();
  check((await shownAngles()).join() === before.join(), `double-click: back to ${before}`);
}

// Animation: playing moves through the frames and the picture changes; pause stops it.
{
  await load(new URLSearchParams({ size: "320x240", yaw: "30", pitch: "15" }).toString(), [mdl]);
  const p0 = await canvasPixels();
  await page.click("#play");
  await page.waitForFunction(() => Number(document.getElementById("frame-no").textContent) >= 2, null, { timeout: 10000 });
  await page.click("#play");
  const f = Number(await page.textContent("#frame-no"));
  const p1 = await canvasPixels();
  check(f >= 2 && p0.some((v, i) => v !== p1[i]), `animation: frames advance as it plays (frame ${f}) and the picture changes`);
  await sameAsBinary("animation", mdl, ["--size", "320x240", "--yaw", "30", "--pitch", "15", "--frame", String(f)]);
}

// A palette chosen in the panel, as `modex render --palette` (here an 8-bit view of a
// true-colour model through a VPL's palette); a file that is not one is refused inline.
{
  const pcx = join(level, "room_atlas_01.pcx"), vpl = join(vdir, "test.vpl");
  await load(new URLSearchParams({ size: "320x240", yaw: "30", pitch: "15", format: "8" }).toString(), [mdl, pcx, vpl]);
  const before = await canvasPixels();
  await page.selectOption("#palette", "room_atlas_01.pcx");
  const refused = await page.textContent("#error");
  check(/palette trailer/.test(refused), `palette: a PCX without a palette is refused (${refused})`);
  await page.selectOption("#palette", "test.vpl");
  await page.waitForFunction(() => document.body.dataset.state === "ready" && location.hash.includes("palette="));
  const after = await sameAsBinary("palette", mdl, ["--size", "320x240", "--yaw", "30", "--pitch", "15", "--format", "8", "--palette", vpl]);
  check(before.some((v, i) => v !== after[i]), "palette: the picture changes with the palette");
}

// A level walked: at ready the canvas is `modex render`'s (above); W moves the camera, the
// picture changes, and it equals `modex render --camera` at the camera the page shows.
{
  const testlevel = join(level, "testlevel.wmb");
  check(await load(new URLSearchParams({ size: "320x240" }).toString(), gameFiles, "file=testlevel.wmb") === "ready", "walk: ready");
  const p0 = await canvasPixels();
  await page.click("#view");
  await page.keyboard.down("w"); await page.waitForTimeout(400); await page.keyboard.up("w");
  await frameDone(); await frameDone();
  const camera = await page.textContent("#camera");
  const p1 = await canvasPixels();
  check(/^-?[\d.e-]+(,-?[\d.e-]+){4}$/.test(camera) && p0.some((v, i) => v !== p1[i]), `walk: W moves the camera (${camera}) and the picture changes`);
  await sameAsBinary("walk", testlevel, ["--size", "320x240", "--camera", camera]);
  await page.keyboard.press("Escape");
}

// The next file shown frees the last: showing the largest model and a small one in turn keeps the
// module's memory where the first round left it (each pick is a new set of files, so each loads).
const big = join(samples, "mdl/assimp/minigun_mdl5.mdl");
const memory = [];
const drawn = (await page.evaluate(() => window.modexStats())).frames;
for (let i = 0; i < 8; i++) {
  await page.setInputFiles("#files", [i % 2 ? mdl : big]);
  await page.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 60000 });
  memory.push((await page.evaluate(() => window.modexStats())).memory_bytes);
}
const loads = (await page.evaluate(() => window.modexStats())).frames - drawn;
check(loads === 8 && memory[7] === memory[1],
  `memory flat over 8 files shown in turn (${loads} drawn; ${memory.join(", ")} bytes)`);

// The cutscene: the canvas changes as it plays and #time advances.
const cut = join(root, "data/cutscene");
const cfiles = ["ASCR001.ascr", ...["ANI", "ENG"].flatMap((d) => readdirSync(join(cut, d)).map((n) => join(d, n)))].map((n) => join(cut, n));
check(await load("", cfiles) === "ready", `cutscene: ready (${await page.textContent("#error")})`);
await sameAsInfo("cutscene", join(cut, "ASCR001.ascr"));
const t0 = Number(await page.textContent("#time")); const p0 = await canvasPixels();
await page.waitForTimeout(1500);
const t1 = Number(await page.textContent("#time")); const p1 = await canvasPixels();
check(t1 > t0, `cutscene: #time advances (${t0} -> ${t1})`);
check(p0.some((v, i) => v !== p1[i]), "cutscene: the canvas changes as it plays");
await page.screenshot({ path: join(tmp, "cutscene-page.png") });

// An install's scripts by number: the tree lists the scripts with commands of its ASCR000.LIB
// (an archive made here: an empty script, the sample scene, and the scene without its texts at
// number 7), and choosing one plays it: at a tick, the canvas is what `modex export INSTALL
// --script N --png` writes for that tick, and `#info` what `modex info` prints for its text.
{
  const install = join(tmp, "install");
  for (const d of ["ANI", "ENG"]) {
    mkdirSync(join(install, d), { recursive: true });
    for (const n of readdirSync(join(cut, d))) copyFileSync(join(cut, d, n), join(install, d, n));
  }
  const scene = readFileSync(join(cut, "ASCR001.ascr"));
  const textless = Buffer.from(scene.toString("latin1").split("\r\n").filter((l) => !/^write/i.test(l)).join("\r\n"), "latin1");
  writeFileSync(join(install, "ANI/ASCR000.LIB"),
    encodeLib([["ASCR000", Buffer.from("rem no commands\r\n")], ["ASCR001", scene], ["ASCR007", textless]]));
  writeFileSync(join(tmp, "ASCR007.ascr"), textless);
  const files = ["ANI", "ENG"].flatMap((d) => readdirSync(join(install, d)).map((n) => join(install, d, n)));
  check(await load("", files) === "ready", `scripts: ready (${await page.textContent("#error")})`);
  const listed = await page.evaluate(() => [...document.querySelectorAll('#tree details[data-kind="cutscenes"] .entry')]
    .map((e) => `${e.dataset.name}${e.tagName === "BUTTON" ? "" : " (not shown)"}`));
  check(listed.join() === "ASCR000.LIB (not shown),ASCR001,ASCR007", `scripts: the tree lists the scripts with commands by number (${listed})`);
  check((await page.textContent("#info")).startsWith("ASCR001:"), "scripts: the first script with commands plays first");
  await page.click('#tree button[data-name="ASCR007"]');
  await page.waitForFunction(() => document.getElementById("info").textContent.startsWith("ASCR007:"), null, { timeout: 60000 });
  const want = execFileSync(modex, ["info", "ASCR007.ascr"], { cwd: tmp }).toString().replace(/^ASCR007\.ascr:/, "ASCR007:");
  check(await page.textContent("#info") === want, "scripts: #info is modex info of the script's text");
  // The exported ticks of script 1 and 7; a tick where they differ tells which one plays.
  const ticks = {};
  for (const n of [1, 7]) {
    const dir = join(tmp, `script${n}`);
    execFileSync(modex, ["export", install, "--script", String(n), "--png", dir], { stdio: "ignore" });
    ticks[n] = readdirSync(dir).sort().map((f) => readFileSync(join(dir, f)));
  }
  const tick = ticks[7].findIndex((b, i) => i >= 10 && !b.equals(ticks[1][i] || Buffer.alloc(0)));
  check(tick > 0, `scripts: script 7 differs from script 1 (first at tick ${tick})`);
  await page.click("#pause");
  await page.$eval("#seek", (e, t) => { e.value = String(t); e.dispatchEvent(new Event("input")); }, tick);
  await frameDone(); await frameDone();
  check(Number(await page.textContent("#time")) === tick, `scripts: paused at tick ${tick}`);
  const [a, b] = [await canvasPixels(), await pngPixels(join(tmp, "script7", `${String(tick).padStart(4, "0")}.png`))];
  const diff = a.length === b.length ? a.filter((v, i) => v !== b[i]).length : -1;
  check(diff === 0, `scripts: ASCR007 at tick ${tick} equals modex export --script 7 (${diff} bytes differ of ${b.length})`);
}

// A game folder of 150 files (every shared sample, the sample install, and generated palettes and
// notes): every file is listed (a unit's HVA in its unit's note). Its time: web/e2e/bench.mjs.
{
  const files = gameFolder(samples, join(tmp, "folder150"));
  check(files.length === 150, `folder: 150 files (${files.length})`);
  await load(new URLSearchParams({ size: "320x240" }).toString(), files);
  const { list_ms } = await page.evaluate(() => window.modexStats());
  const listed = await page.evaluate(() => [...document.querySelectorAll("#tree .entry")].map((e) => [e.dataset.name, e.textContent]));
  const names = new Set(listed.map(([n]) => n.toLowerCase()));
  const notes = listed.map(([, t]) => t.toLowerCase()).join(" ");
  const missing = files.map((f) => basename(f).toLowerCase()).filter((n) => !names.has(n) && !(n.endsWith(".hva") && notes.includes(n)));
  check(missing.length === 0, `folder: all 150 files listed, in ${list_ms.toFixed(0)} ms (missing: ${missing})`);
}

console.log(`screenshots in ${tmp}`);
await close();
process.exit(failed ? 1 : 0);
