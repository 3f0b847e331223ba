// Opens a `modex bench --html` report in headless Chromium (Debian's /usr/bin/chromium, driven by
// the playwright-core that .ci/web-deps.sh installs under web/e2e) and fails on any console error,
// page error or failed request, on a chart that is missing, or on a picture that does not decode.
// Usage: node engine/bench/e2e/open_report.mjs REPORT.html
import { createRequire } from "node:module";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(new URL("../../..", import.meta.url).pathname);
const { chromium } = createRequire(join(root, "web/e2e/package.json"))("playwright-core");
const report = resolve(process.argv[2] ?? "");
const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "modex-report-")), {
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const problems = [];
try {
  const page = await browser.newPage();
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url().slice(0, 80)}`));
  await page.goto(pathToFileURL(report).href, { waitUntil: "load" });
  const facts = await page.evaluate(() => ({
    charts: document.querySelectorAll("svg").length,
    images: [...document.images].map((i) => ({ alt: i.alt, ok: i.complete && i.naturalWidth > 0 })),
    rows: document.querySelectorAll("table tr").length,
  }));
  if (facts.charts < 2) problems.push(`only ${facts.charts} charts`);
  if (facts.rows < 2) problems.push("the table has no rows");
  for (const i of facts.images) if (!i.ok) problems.push(`picture ${i.alt} does not decode`);
  console.log(`${report}: ${facts.charts} charts, ${facts.images.length} pictures, ${facts.rows - 1} table rows`);
} finally {
  await browser.close();
}
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
