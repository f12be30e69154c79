#!/usr/bin/env node
// Boot and 1 MB chunking of the real page in each engine, measured the same way in all:
// Chromium (playwright-core), Firefox ESR (puppeteer-core over WebDriver BiDi) and
// WebKitGTK (WebKitWebDriver + MiniBrowser under Xvfb), Debian's packages all three
// (tests/browser/engines/drivers.mjs launches them).
//
//   node bench/engines.mjs [--quick] [--engines chromium,firefox,webkit]
//
//   cold boot   navigation start -> "Engine ready", in a fresh browser (a new profile:
//               nothing cached), best of 2 (--quick: 1)
//   reload      the same after a reload, once the first visit saved its engine snapshot
//   1 MB        a 1,000,000-character Ctrl+V paste (bench/web/corpus.mjs's mixed text, a
//               new document each time), from the paste event to chunked and rendered,
//               smart 512 with the automatic overlap, timed in the page: the first paste
//               (the engine's code not yet warm) and the best of 3 (--quick: 1)
//
// Progress goes to stderr; the LAST stdout line is one JSON object
// {"table": "<plain-text table>", ...raw numbers...} (bench/run.py reads it).

import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SNAPSHOT_CACHE } from "../app/snapshot.js";
import { CORPUS_FILES, mixedText } from "./web/corpus.mjs";
import { ENGINES } from "../tests/browser/engines/drivers.mjs";
import { paste } from "../tests/browser/engines/core.mjs";
import { startServer } from "../tests/browser/helpers.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const QUICK = args.includes("--quick");
const NAMES = args.includes("--engines") ? args[args.indexOf("--engines") + 1].split(",") : Object.keys(ENGINES);
const BOOTS = QUICK ? 1 : 2;
const RUNS = QUICK ? 1 : 3;
const CHARS = 1_000_000;

const log = (...a) => console.error("[bench:engines]", ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmtS = (ms) => (ms == null ? "n/a" : `${(ms / 1000).toFixed(2)} s`);

async function poll(tab, fn, arg, timeout, what) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await tab.evaluate(fn, arg);
    if (v) return v;
    if (Date.now() > end) throw new Error(`${tab.name}: timed out waiting for ${what}`);
    await sleep(25);
  }
}

// ms since navigation start when the page said "Engine ready" (polled every 25 ms).
async function bootMs(tab) {
  const r = await poll(tab, () => {
    const s = document.querySelector("[data-testid=engine-status]")?.dataset.state;
    return (s === "ready" || s === "error") && { s, at: performance.now(), text: document.querySelector("[data-testid=boot-error-message]")?.textContent };
  }, null, 300_000, "the engine");
  if (r.s !== "ready") throw new Error(`${tab.name}: boot failed: ${r.text}`);
  return r.at;
}

// Paste `text` as a person does (core.mjs paste: the clipboard, then Ctrl+A, Ctrl+V; the
// page takes a large paste itself), timed in the page from the paste event to chunked and rendered.
async function pasteMs(tab, text) {
  await tab.evaluate(() => {
    const status = document.querySelector("[data-testid=run-status]");
    const view = document.querySelector("[data-testid=document-view]");
    window.__bench = { start: 0, doneAt: 0, state: "" };
    addEventListener("paste", () => {
      window.__bench.start = performance.now();
      // (the page runs the engine on a large paste at once: "running" before the event returns)
      new MutationObserver((_, observer) => {
        if (status.dataset.state === "error" || (status.dataset.state === "done" && view.dataset.rendered === "true")) {
          Object.assign(window.__bench, { doneAt: performance.now(), state: status.dataset.state });
          observer.disconnect();
        }
      }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
    }, { capture: true, once: true });
  });
  await paste(tab, "[data-testid=source-text]", text);
  const r = await poll(tab, () => window.__bench.doneAt && window.__bench, null, 300_000, "the 1 MB run");
  if (r.state !== "done") throw new Error(`${tab.name}: the 1 MB run failed`);
  const shown = await tab.evaluate(() => ({
    chunks: Number(document.querySelector("[data-testid=stat-chunk_count]").dataset.value),
    chars: document.querySelector("[data-testid=source-text]").value.length,
  }));
  if (shown.chars !== text.length) throw new Error(`${tab.name}: ${shown.chars} of the ${text.length} characters were pasted`);
  return { ms: r.doneAt - r.start, chunks: shown.chunks };
}

async function measure(name, url, texts) {
  const launch = ENGINES[name];
  const out = { cold_ms: [], reload_ms: null, chunk_1mb_ms: [], chunks: null };
  for (let i = 0; i < BOOTS; i++) {
    const tab = await launch({ downloads: mkdtempSync(path.join(os.tmpdir(), "chunkwise-bench-dl-")) });
    try {
      out.version = tab.version;
      await tab.goto(url);
      out.cold_ms.push(await bootMs(tab));
      log(`${tab.version}: cold boot ${fmtS(out.cold_ms.at(-1))}`);
      if (i > 0) continue;
      await poll(tab, async (cache) => (await (await caches.open(cache)).keys()).length > 0, SNAPSHOT_CACHE, 60_000, "the engine snapshot");
      await tab.reload();
      out.reload_ms = await bootMs(tab);
      log(`${tab.version}: reload ${fmtS(out.reload_ms)}`);
      for (let run = 0; run < RUNS; run++) {
        const r = await pasteMs(tab, `Run ${run} of the 1 MB paste.\n\n` + texts.slice(0, CHARS - 40));
        out.chunk_1mb_ms.push(r.ms);
        out.chunks = r.chunks;
        log(`${tab.version}: 1 MB ${fmtS(r.ms)} (${r.chunks} chunks)`);
      }
    } finally {
      await tab.close();
    }
  }
  return out;
}

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const lines = rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join(" | ").trimEnd());
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("-+-"));
  return lines.join("\n");
}

async function main() {
  const started = Date.now();
  const loadAtStart = os.loadavg()[0];
  const texts = mixedText(CORPUS_FILES.map((n) => readFileSync(path.join(ROOT, "tests/corpus", n), "utf8")), CHARS);
  const server = await startServer(); // build.py --serve (a warm build is instant)
  const results = {};
  try {
    for (const name of NAMES) {
      try {
        results[name] = await measure(name, server.url, texts);
      } catch (err) {
        log(`${name}: ${err.stack || err}`);
        results[name] = { error: String(err.message || err).split("\n")[0] };
      }
    }
  } finally {
    server.stop();
  }
  const best = (xs) => (xs?.length ? Math.min(...xs) : null);
  const rows = [["engine", "cold boot", "reload", "1 MB paste to chunked + rendered: first", `best of ${RUNS}`, "chunks"]];
  for (const [name, r] of Object.entries(results)) {
    if (r.error) rows.push([name, "failed", "", r.error, "", ""]);
    else rows.push([r.version, fmtS(best(r.cold_ms)), fmtS(r.reload_ms), fmtS(r.chunk_1mb_ms[0]), fmtS(best(r.chunk_1mb_ms)), r.chunks]);
  }
  const notes = `${os.cpus().length} CPUs, load average ${loadAtStart.toFixed(2)} at the start; the same page and build in each engine; ` +
    `cold boot best of ${BOOTS} fresh browsers, 1 MB best of ${RUNS}`;
  const result = { table: table(rows) + "\n\n" + notes, engines: results, boots: BOOTS, runs: RUNS, seconds: (Date.now() - started) / 1000 };
  log(`done in ${result.seconds.toFixed(0)} s\n${result.table}`);
  process.stdout.write(JSON.stringify(result) + "\n");
  if (Object.values(results).some((r) => r.error)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
