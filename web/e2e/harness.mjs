// What the Chromium test and the page benchmark share: web/dist served on 127.0.0.1, a headless
// Chromium with a fresh profile, and loading files through the page's file input.
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const root = resolve(new URL("../..", import.meta.url).pathname);

export async function open() {
  const dist = join(root, "web/dist");
  const port = 8000 + (process.pid % 1000);
  const server = spawn("python3", ["-m", "http.server", "-b", "127.0.0.1", "-d", dist, String(port)], { stdio: "ignore" });
  // A fresh user data dir (playwright passes it as --user-data-dir).
  const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "modex-chromium-")), {
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Another page of the same browser (the benchmark keeps one per build loaded).
  const newPage = async () => {
    const p = await browser.newPage();
    p.on("console", (m) => console.log("  page:", m.text()));
    return p;
  };
  const page = await newPage();
  for (let i = 0; i < 50; i++) { try { await fetch(`http://127.0.0.1:${port}/`); break; } catch { await new Promise((r) => setTimeout(r, 100)); } }

  // Open the page with `query` (and the fragment `hash`), drop `files` on its file input, wait
  // for the first frame. `page` unless another page `p` is given.
  async function load(query, files, hash = "", p = page) {
    // A page of its own first: a new URL that differs from the last in its fragment alone
    // would not load the page again.
    await p.goto("about:blank");
    await p.goto(`http://127.0.0.1:${port}/index.html?${query}${hash ? `#${hash}` : ""}`);
    await p.waitForFunction(() => document.body.dataset.state === "empty");
    await p.setInputFiles("#files", files);
    await p.waitForFunction(() => ["ready", "error"].includes(document.body.dataset.state), null, { timeout: 60000 });
    return p.evaluate(() => document.body.dataset.state);
  }
  const close = async () => { await browser.close(); server.kill(); };
  return { page, newPage, load, close, port };
}

// A Blue Byte LIB archive of `entries` ([name, Buffer] pairs, in file order): the index's offset,
// the entries' bytes, then 12 bytes per entry (the name NUL-padded to 8, its offset).
export function encodeLib(entries) {
  const data = Buffer.concat(entries.map(([, b]) => b));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(4 + data.length);
  const index = Buffer.alloc(entries.length * 12);
  let at = 4;
  entries.forEach(([name, b], i) => { index.write(name, i * 12, 8, "latin1"); index.writeUInt32LE(at, i * 12 + 8); at += b.length; });
  return Buffer.concat([head, data, index]);
}

// A game folder of `count` files with distinct names (the page keeps names only): every file of
// the shared samples (`samples`) and of the repository's sample install (data/cutscene), then
// generated VGA palettes and notes written into `dir` (outside the repository) up to `count`.
// Returns their paths.
export function gameFolder(samples, dir, count = 150) {
  const walk = (d) => readdirSync(d).sort().flatMap((n) => {
    const p = join(d, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
  const seen = new Set(), out = [];
  for (const p of [...walk(samples), ...walk(join(root, "data/cutscene"))]) {
    const key = p.split("/").pop().toLowerCase();
    if (out.length < count && !seen.has(key)) { seen.add(key); out.push(p); }
  }
  mkdirSync(dir, { recursive: true });
  for (let i = 0; out.length < count; i++) {
    const p = join(dir, i % 2 ? `notes${i}.txt` : `ramp${i}.pal`);
    writeFileSync(p, i % 2 ? `generated note ${i}\n` : Buffer.from(Array.from({ length: 768 }, (_, k) => (k * (i + 1)) & 63)));
    out.push(p);
  }
  return out;
}
