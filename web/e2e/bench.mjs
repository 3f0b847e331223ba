// The page's frame time against the same code drawing natively on one thread, side by side in one
// run (docs/benchmarks.md "Web"), the time to load and parse each file, and the time to list a
// game folder of 150 files. Usage:
//   node web/e2e/bench.mjs FRAME_TIME_BIN SAMPLES_DIR [draw|list|walk]
// FRAME_TIME_BIN is the release build of `cargo build --release -p modex-web --example frame_time`.
// Draws: each scene at 640x480 (the rows the docs compare with earlier runs) and at 1920x1080
// (where one draw takes milliseconds, so the clock's and the scheduler's noise weigh less). The
// three sides (native on one thread, the SIMD page, the scalar page; each page loaded once and
// kept) take turns: ROUNDS rounds, each a fresh native process and each page drawing BATCHES
// batches of BATCH draws, each batch timed whole (the browser's clock is coarse). Interference
// from other work only ever adds time, so the numbers are the lowest batch mean of each side
// over all rounds (`page_ms`, `native_ms`, `ratio`); the medians are printed beside them
// (`page_median_ms`, `native_median_ms`, `ratio_median`), and `load` is the 1-minute load
// average when the line was printed. The listing is timed 5 times per build: the files read into
// the module and listed in the panel (`list_ms`), and with the first file shown (`load_ms`).
// `walk` (only when asked): testlevel.wmb with its game folder at 1920x1080, W held for 4 s
// (`modexStats().frames` over the time: the page's whole frame, draw, canvas and compositor),
// beside the level's draw alone, page and native in turns as above, at yaw 20 pitch 30 in 8888.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gameFolder, open } from "./harness.mjs";

const [native, samples] = process.argv.slice(2, 4).map((p) => resolve(p));
const only = process.argv[4];
const ROUNDS = 5, BATCHES = 6, BATCH = 20; // BATCH is frame_time's too
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const lowest = (xs) => Math.min(...xs);
const { page, newPage, load, close } = await open();
// One page per build, each keeping its file loaded while the sides take turns.
const pages = { simd: page, scalar: await newPage() };
const BUILDS = Object.keys(pages);
const load1 = () => loadavg()[0].toFixed(2);

// One native process drawing `batches` batches: its open time and each batch's mean.
function nativeBatches(args) {
  const out = execFileSync(native, args).toString();
  return { open_ms: Number(/open_ms=([\d.]+)/.exec(out)[1]), means: /means=([\d.,]+)/.exec(out)[1].split(",").map(Number) };
}
// ROUNDS turns of: the native process `args` (then `batches` more batches), each build's page
// drawing `batches` batches of `size` (native first in even rounds, last in odd ones, so a drift
// in the machine's speed falls on both). Returns every batch mean of each side.
async function inTurns(args, batches, size) {
  const means = { native: [], ...Object.fromEntries(BUILDS.map((b) => [b, []])) };
  let nativeOpen = Infinity;
  const runNative = () => { const n = nativeBatches([...args.slice(0, 5), String(batches), ...args.slice(5)]); nativeOpen = Math.min(nativeOpen, n.open_ms); means.native.push(...n.means); };
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) runNative();
    for (const b of BUILDS) {
      await pages[b].bringToFront();
      means[b].push(...await pages[b].evaluate(([n, s]) => window.modexBench(n, s), [batches, size]));
    }
    if (r % 2 === 1) runNative();
  }
  return { means, nativeOpen };
}
const figures = (page, native) => `page_ms=${lowest(page).toFixed(3)} native_ms=${lowest(native).toFixed(3)} ` +
  `ratio=${(lowest(page) / lowest(native)).toFixed(2)} page_median_ms=${median(page).toFixed(3)} ` +
  `native_median_ms=${median(native).toFixed(3)} ratio_median=${(median(page) / median(native)).toFixed(2)} ` +
  `batches=${page.length}/${native.length}`;

const mdl3 = join(samples, "mdl/assimp/minigun.MDL");
const mdl5 = join(samples, "mdl/assimp/minigun_mdl5.mdl"); // the largest model sample, 2.9 MB
const mdl7 = join(samples, "wmb/lottershock/Game/Level/Teleport.mdl");
const vdir = join(samples, "vxl/vengi");
const unit = ["hmec.vxl", "hmec.hva", "test.vpl"].map((n) => join(vdir, n));
const scenes = [
  ["mdl3-minigun", [mdl3], "8"], ["mdl3-minigun", [mdl3], "8888"], ["mdl3-minigun", [mdl3], "565"],
  ["mdl5-minigun", [mdl5], "8"], ["mdl7-teleport", [mdl7], "8888"],
  ["vxl-hmec", unit, "8"], ["vxl-hmec", unit, "8888"],
];
const [yaw, pitch, facing] = ["30", "15", "32"];
if (only === "walk") {
  const game = join(samples, "wmb/lottershock/Game");
  const files = ["Level", "Assets"].flatMap((d) => readdirSync(join(game, d)).map((n) => join(game, d, n)))
    .concat([join(game, "../ArtSource/enemie/turretskin.tga")]);
  const level = join(game, "Level/testlevel.wmb");
  // The native side opens the first showable file: the level, without the game's other levels.
  const nativeFiles = [level, ...files.filter((f) => !f.endsWith(".wmb"))];
  const walked = {};
  for (const wasm of BUILDS) {
    if (await load(new URLSearchParams({ size: "1920x1080", wasm }).toString(), files, "file=testlevel.wmb") !== "ready") throw new Error(`walk: ${await page.textContent("#error")}`);
    await page.bringToFront();
    await page.focus("#view");
    const s0 = await page.evaluate(() => window.modexStats());
    await page.keyboard.down("KeyW");
    const t0 = Date.now();
    await page.waitForTimeout(4000);
    await page.keyboard.up("KeyW");
    const t1 = Date.now();
    const s1 = await page.evaluate(() => window.modexStats());
    walked[wasm] = { frame_ms: (t1 - t0) / (s1.frames - s0.frames), frames: s1.frames - s0.frames };
  }
  for (const wasm of BUILDS) {
    if (await load(new URLSearchParams({ size: "1920x1080", wasm, yaw: "20", pitch: "30", format: "8888" }).toString(), files, "file=testlevel.wmb", pages[wasm]) !== "ready") throw new Error(`walk: ${await pages[wasm].textContent("#error")}`);
  }
  const { means } = await inTurns(["1920x1080", "20", "30", "8888", "0", ...nativeFiles], 2, BATCH);
  for (const wasm of BUILDS) {
    console.log(`WEB walk level=testlevel.wmb size=1920x1080 wasm=${wasm} frame_ms=${walked[wasm].frame_ms.toFixed(1)} ` +
      `frames=${walked[wasm].frames} draw_ms=${lowest(means[wasm]).toFixed(1)} native_draw_ms=${lowest(means.native).toFixed(1)} ` +
      `ratio=${(lowest(means[wasm]) / lowest(means.native)).toFixed(2)} draw_median_ms=${median(means[wasm]).toFixed(1)} ` +
      `native_draw_median_ms=${median(means.native).toFixed(1)} ratio_median=${(median(means[wasm]) / median(means.native)).toFixed(2)} load=${load1()}`);
  }
}
for (const [label, files, format] of only === "list" || only === "walk" ? [] : scenes) {
  for (const size of ["640x480", "1920x1080"]) {
    const opened = {};
    for (const wasm of BUILDS) {
      const state = await load(new URLSearchParams({ size, yaw, pitch, format, facing, wasm }).toString(), files, "", pages[wasm]);
      if (state !== "ready") throw new Error(`${label}: ${await pages[wasm].textContent("#error")}`);
      opened[wasm] = await pages[wasm].evaluate(() => window.modexStats());
    }
    const { means, nativeOpen } = await inTurns([size, yaw, pitch, format, facing, ...files], BATCHES, BATCH);
    // Both builds of the page: SIMD (what browsers with WebAssembly SIMD run) and scalar.
    for (const wasm of BUILDS) {
      const { open_ms, load_ms } = opened[wasm];
      console.log(`WEB scene=${label} size=${size} format=${format} wasm=${wasm} ${figures(means[wasm], means.native)} ` +
        `page_open_ms=${open_ms.toFixed(1)} native_open_ms=${nativeOpen.toFixed(1)} page_load_ms=${load_ms.toFixed(1)} load=${load1()}`);
    }
  }
}
if (only !== "draw" && only !== "walk") {
  const folder = gameFolder(samples, mkdtempSync(join(tmpdir(), "modex-folder-")));
  for (const wasm of ["simd", "scalar"]) {
    for (let run = 0; run < 5; run++) {
      await load(new URLSearchParams({ size: "640x480", wasm }).toString(), folder);
      const { list_ms, load_ms, listed } = await page.evaluate(() => window.modexStats());
      console.log(`WEB listing files=${folder.length} wasm=${wasm} list_ms=${list_ms.toFixed(1)} ` +
        `load_ms=${load_ms.toFixed(1)} entries=${listed}`);
    }
  }
}
await close();
