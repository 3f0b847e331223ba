// The page's frame time against the same code drawing natively on one thread, side by side in one
// run (docs/benchmarks.md "Web"), the time to load and parse each file, and the time to list a
// game folder of 150 files. Usage:
//   node web/e2e/bench.mjs FRAME_TIME_BIN SAMPLES_DIR [draw|list|walk]
// FRAME_TIME_BIN is the release build of `cargo build --release -p modex-web --example frame_time`.
// Each side draws 21 batches of 20 draws, each batch timed whole (the browser's clock is coarse);
// the median batch's mean per draw is printed. The listing is timed 5 times per build: the files
// read into the module and listed in the panel (`list_ms`), and with the first file shown
// (`load_ms`). `walk` (only when asked): testlevel.wmb with its game folder at 1920x1080, W held
// for 4 s (`modexStats().frames` over the time: the page's whole frame, draw, canvas and
// compositor), beside the level's draw alone, page and native, at yaw 20 pitch 30 in 8888.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gameFolder, open } from "./harness.mjs";

const [native, samples] = process.argv.slice(2, 4).map((p) => resolve(p));
const only = process.argv[4];
const BATCHES = 21, BATCH = 20; // BATCH is frame_time's too
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const { page, load, close } = await open();

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
const [size, yaw, pitch, facing] = ["640x480", "30", "15", "32"];
if (only === "walk") {
  const game = join(samples, "wmb/lottershock/Game");
  const files = ["Level", "Assets"].flatMap((d) => readdirSync(join(game, d)).map((n) => join(game, d, n)))
    .concat([join(game, "../ArtSource/enemie/turretskin.tga")]);
  const level = join(game, "Level/testlevel.wmb");
  // The native side opens the first showable file: the level, without the game's other levels.
  const nativeFiles = [level, ...files.filter((f) => !f.endsWith(".wmb"))];
  const out = execFileSync(native, ["1920x1080", "20", "30", "8888", "0", "8", ...nativeFiles]).toString();
  const nativeMs = Number(/frame_ms=([\d.]+)/.exec(out)[1]);
  for (const wasm of ["simd", "scalar"]) {
    if (await load(new URLSearchParams({ size: "1920x1080", wasm }).toString(), files, "file=testlevel.wmb") !== "ready") throw new Error(`walk: ${await page.textContent("#error")}`);
    await page.focus("#view");
    const s0 = await page.evaluate(() => window.modexStats());
    await page.keyboard.down("KeyW");
    const t0 = Date.now();
    await page.waitForTimeout(4000);
    await page.keyboard.up("KeyW");
    const t1 = Date.now();
    const s1 = await page.evaluate(() => window.modexStats());
    await load(new URLSearchParams({ size: "1920x1080", wasm, yaw: "20", pitch: "30", format: "8888" }).toString(), files, "file=testlevel.wmb");
    const ms = median(await page.evaluate(() => window.modexBench(8, 5)));
    console.log(`WEB walk level=testlevel.wmb size=1920x1080 wasm=${wasm} frame_ms=${((t1 - t0) / (s1.frames - s0.frames)).toFixed(1)} ` +
      `frames=${s1.frames - s0.frames} draw_ms=${ms.toFixed(1)} native_draw_ms=${nativeMs.toFixed(1)} ratio=${(ms / nativeMs).toFixed(2)}`);
  }
}
for (const [label, files, format] of only === "list" || only === "walk" ? [] : scenes) {
  const out = execFileSync(native, [size, yaw, pitch, format, facing, String(BATCHES), ...files]).toString();
  const n = Object.fromEntries([...out.matchAll(/(\w+)=([\d.]+)/g)].map((m) => [m[1], Number(m[2])]));
  // Both builds of the page: SIMD (what browsers with WebAssembly SIMD run) and scalar.
  for (const wasm of ["simd", "scalar"]) {
    const state = await load(new URLSearchParams({ size, yaw, pitch, format, facing, wasm }).toString(), files);
    if (state !== "ready") throw new Error(`${label}: ${await page.textContent("#error")}`);
    const { open_ms, load_ms } = await page.evaluate(() => window.modexStats());
    const ms = median(await page.evaluate(([n, b]) => window.modexBench(n, b), [BATCHES, BATCH]));
    console.log(`WEB scene=${label} size=${size} format=${format} wasm=${wasm} page_ms=${ms.toFixed(2)} ` +
      `native_ms=${n.frame_ms.toFixed(2)} ratio=${(ms / n.frame_ms).toFixed(2)} ` +
      `page_open_ms=${open_ms.toFixed(1)} native_open_ms=${n.open_ms.toFixed(1)} page_load_ms=${load_ms.toFixed(1)}`);
  }
}
if (only !== "draw" && only !== "walk") {
  const folder = gameFolder(samples, mkdtempSync(join(tmpdir(), "modex-folder-")));
  for (const wasm of ["simd", "scalar"]) {
    for (let run = 0; run < 5; run++) {
      await load(new URLSearchParams({ size, wasm }).toString(), folder);
      const { list_ms, load_ms, listed } = await page.evaluate(() => window.modexStats());
      console.log(`WEB listing files=${folder.length} wasm=${wasm} list_ms=${list_ms.toFixed(1)} ` +
        `load_ms=${load_ms.toFixed(1)} entries=${listed}`);
    }
  }
}
await close();
