// Shared harness for the browser suites: build + serve the page, launch Debian's
// Chromium through playwright-core, boot the page once per test file, and ask
// the Python engine / CLI for reference answers.

import assert from "node:assert/strict";
import { after, before } from "node:test";
import { spawn, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { pageWords } from "../../app/words.js";
import { OWN_TEXT_KEY } from "../../app/sample.js";
import { SNAPSHOT_CACHE } from "../../app/snapshot.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const ARTIFACTS = path.join(ROOT, "test-artifacts");
export const PYTHON = process.env.PYTHON || (existsSync(path.join(ROOT, ".venv/bin/python")) ? path.join(ROOT, ".venv/bin/python") : "python3");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];
export const BOOT_TIMEOUT = 180_000;
export const RUN_TIMEOUT = 120_000;

// Build (warm builds are instant: everything is cached) and serve on a free port.
// extraArgs: e.g. ["--dist", DIR] to serve a written dist folder instead of the repo.
export async function startServer(extraArgs = []) {
  const proc = spawn(PYTHON, ["build.py", ...extraArgs, "--serve", "--port", "0"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /Serving chunkwise on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.on("exit", (code) => reject(new Error(`build.py --serve exited with ${code}:\n${stderr}`)));
  });
  // stderr(): what the server logged (with --verbose, one line per request).
  return { url, origin: new URL(url).origin, stop: () => proc.kill(), stderr: () => stderr };
}

// The page's server for a test file: the one suite.mjs serves every file of the run from
// (one origin, so one returning visitor's profile serves them all), or else a new one.
export async function pageServer() {
  const url = process.env.CHUNKWISE_PAGE_SERVER;
  if (!url) return startServer();
  const shared = () => { throw new Error("the shared server's log is not this file's: use startServer([\"--verbose\"])"); };
  return { url, origin: new URL(url).origin, stop: () => {}, stderr: shared };
}

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

// A browser context with a profile (and so a disk cache) in `dir`, as a person's browser has.
export function launchProfile(dir, options = {}) {
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, ...options });
}

// One server and the booted app for a describe block: registers its before/after
// hooks and fills in the returned object (server, context, page, log) when the tests start.
export function useApp(options) {
  const app = {};
  before(async () => {
    app.server = await pageServer();
    Object.assign(app, await openApp(app.server, options));
  });
  after(async () => {
    await app.context?.close();
    app.server?.stop();
  });
  return app;
}

// A new browser on the app, booted; closing its context closes the browser. `log`
// collects what the page did. sample: a first visit (a new profile), which shows the
// sample document (app/sample.js). Otherwise someone who has chunked a text of their own
// here before: the page starts empty, and the browser keeps what their first visit left
// (the service worker's copy of the build, the engine's saved state), so it resumes the
// engine instead of starting Python.
// touch: a phone's screen, touch and no hover (Chromium's mobile emulation). initScript:
// a function run in the page before its own scripts.
export async function openApp(server, {
  colorScheme = "light", viewport = { width: 1400, height: 1000 }, sample = false, touch = false, initScript = null,
} = {}) {
  const options = { acceptDownloads: true, colorScheme, viewport, ...(touch && { hasTouch: true, isMobile: true }) };
  const context = sample ? await newVisitor(options) : await returningVisitor(server, options);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
  const page = context.pages()[0] ?? await context.newPage(); // (a profile's browser opens with one tab)
  const log = { requests: [], consoleErrors: [], pageErrors: [], dialogs: [] };
  page.on("request", (r) => log.requests.push(r.url()));
  page.on("console", (m) => { if (m.type() === "error") log.consoleErrors.push(m.text()); });
  page.on("pageerror", (e) => log.pageErrors.push(String(e)));
  page.on("dialog", (d) => { log.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  // Record CSP violations from the very start (page and worker report to the page).
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  if (initScript) await page.addInitScript(initScript);
  await page.goto(server.url);
  await waitReady(page);
  return { context, page, log };
}

async function newVisitor(options) {
  const browser = await launchBrowser();
  const context = await browser.newContext(options);
  context.on("close", () => browser.close());
  return context;
}

// Profiles of returning visitors, one per origin and build: suite.mjs's folder for the
// whole run, or this process's.
export const VISITORS = process.env.CHUNKWISE_VISITOR_PROFILES || mkdtempSync(path.join(tmpdir(), "chunkwise-visitors-"));
if (!process.env.CHUNKWISE_VISITOR_PROFILES) process.on("exit", () => rmSync(VISITORS, { recursive: true, force: true }));
let copies = 0;

async function returningVisitor(server, options) {
  const profile = await visitorProfile(server);
  const copy = `${profile}-${process.pid}-${copies++}`;
  cpSync(profile, copy, { recursive: true });
  const context = await launchProfile(copy, options);
  context.on("close", () => {
    try { rmSync(copy, { recursive: true, force: true, maxRetries: 5 }); } catch { /* a temporary folder; the run's folder goes at its end */ }
  });
  return context;
}

// The profile a first visit left, made once (by whichever test file asks first) and
// copied for each returning visitor.
async function visitorProfile(server) {
  const build = readFileSync(path.join(ROOT, "static/vendor/manifest.json"));
  const dir = path.join(VISITORS, createHash("sha256").update(server.origin).update(build).digest("hex").slice(0, 16));
  const done = path.join(dir, "first-visit-done");
  const deadline = Date.now() + BOOT_TIMEOUT;
  while (!existsSync(done)) {
    try {
      mkdirSync(`${dir}.lock`);
    } catch {
      if (Date.now() > deadline) throw new Error(`no returning visitor's profile in ${dir}: the first visit never finished`);
      await sleep(200);
      continue;
    }
    await firstVisit(server, `${dir}.making`);
    renameSync(`${dir}.making`, dir);
    writeFileSync(done, "");
  }
  return dir;
}

// A first visit that chunks the user's own text: its engine is saved and the service
// worker has stored the build before the browser closes.
async function firstVisit(server, dir) {
  const context = await launchProfile(dir);
  try {
    const page = await context.newPage();
    await page.goto(server.url);
    await waitReady(page);
    const kept = () => page.evaluate(async (cache) => (await (await caches.open(cache)).keys()).length > 0
      && (await navigator.serviceWorker.ready).active?.state === "activated", SNAPSHOT_CACHE);
    for (const deadline = Date.now() + BOOT_TIMEOUT; !(await kept()); await sleep(100)) {
      if (Date.now() > deadline) throw new Error("the first visit saved no engine, or its service worker never started");
    }
    await page.evaluate((key) => { localStorage.clear(); localStorage.setItem(key, "1"); }, OWN_TEXT_KEY);
  } finally {
    await context.close();
  }
}

export async function waitReady(page) {
  await page.waitForSelector('[data-testid=engine-status][data-state="ready"], [data-testid=engine-status][data-state="error"]', { timeout: BOOT_TIMEOUT });
  const state = await page.getAttribute("[data-testid=engine-status]", "data-state");
  if (state !== "ready") throw new Error("engine failed to boot: " + (await page.textContent("[data-testid=boot-error-message]")));
}

// Wait until the run for the current input is finished and fully rendered.
export async function waitDone(page, timeout = RUN_TIMEOUT) {
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=run-status]").dataset.state;
    const view = document.querySelector("[data-testid=document-view]");
    return s === "error" || (s === "done" && view.dataset.rendered === "true");
  }, null, { timeout, polling: 50 });
  const state = await page.getAttribute("[data-testid=run-status]", "data-state");
  if (state !== "done") {
    throw new Error(`run failed: ${await page.textContent("[data-testid=run-status-text]")} ${await page.textContent("[data-testid=run-error]")}`);
  }
}

// Type or paste a whole document, as a person pasting would.
export async function paste(page, text) {
  await page.fill("[data-testid=source-text]", text);
  await waitDone(page);
}

export async function setSettings(page, { strategy, size, overlap, overlapUnit, encoding }) {
  if (strategy) await page.selectOption("[data-testid=strategy]", strategy);
  if (size != null) {
    const presets = ["256", "512", "1024", "2048", "4096"];
    if (presets.includes(String(size))) await page.selectOption("[data-testid=size-preset]", String(size));
    else await page.fill("[data-testid=max-tokens]", String(size));
  }
  if (overlap != null) await page.fill("[data-testid=overlap]", String(overlap));
  if (overlapUnit) await page.selectOption("[data-testid=overlap-unit]", overlapUnit);
  if (encoding) await page.selectOption("[data-testid=encoding]", encoding);
  await waitDone(page);
}

// What the document view shows: per chunk, the text of every segment that
// covers it (in order), the overlap segments, and the cut markers.
export function readDocumentView(page) {
  return page.evaluate(() => {
    const view = document.querySelector("[data-testid=document-view]");
    const chunks = [];
    const overlaps = [];
    for (const seg of view.querySelectorAll(".seg")) {
      if (seg.dataset.first === undefined) continue;
      const first = Number(seg.dataset.first), last = Number(seg.dataset.last);
      for (let i = first; i <= last; i++) chunks[i] = (chunks[i] || "") + seg.textContent;
      if (last > first) overlaps.push({ first, last, text: seg.textContent });
    }
    const cuts = [...view.querySelectorAll("[data-testid=cut]")].map((c) => ({
      chunk: Number(c.dataset.chunk), reason: c.dataset.reason,
    }));
    const gaps = [...view.querySelectorAll(".seg.gap")].map((g) => g.textContent);
    // The whole view's text, with cut markers contributing nothing (their labels are CSS).
    return { chunks, overlaps, cuts, gaps, text: view.textContent };
  });
}

export async function readStats(page) {
  return page.evaluate(() => {
    const out = {};
    for (const dd of document.querySelectorAll("[data-testid^=stat-]")) out[dd.dataset.testid.slice(5)] = Number(dd.dataset.value);
    out.boundaries = {};
    for (const li of document.querySelectorAll("[data-testid^=reason-]")) out.boundaries[li.dataset.testid.slice(7)] = Number(li.dataset.value);
    out.histogram = [...document.querySelectorAll("[data-testid=histogram] .bar")].map((b) => ({
      lo: Number(b.dataset.lo), hi: Number(b.dataset.hi), count: Number(b.dataset.count),
    }));
    out.warnings = [...document.querySelectorAll("[data-testid=warning]")].map((w) => w.textContent);
    return out;
  });
}

// --- references from the Python engine and CLI ------------------------------------

const tmp = mkdtempSync(path.join(tmpdir(), "chunkwise-browser-"));
let tmpCount = 0;
export function tmpFile(name, content) {
  const dir = path.join(tmp, String(tmpCount++));
  mkdirSync(dir);
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

// One Python process per test file answers every engineReference, a JSON line each way
// (a process for each answer cost about a second of CPU: interpreter, imports, tokenizer).
// The text goes as its UTF-8 bytes, as a file held it: lone surrogates become U+FFFD alike.
const REFERENCE = `
import base64, json, sys, traceback
import chunkwise.packing.packer, chunkwise.io.stats
for line in sys.stdin:
    try:
        request = json.loads(line)
        text = base64.b64decode(request["text"]).decode("utf-8")
        s = request["settings"]
        job = chunkwise.packing.packer.ChunkJob(text, max_tokens=s["max_tokens"], overlap=s["overlap"], strategy=s["strategy"], encoding=s["encoding"])
        result = job.result()
        answer = {"chunks": [c.to_dict() for c in result.chunks], "stats": chunkwise.io.stats.compute(result), "warnings": job.warnings,
                  "mid_sentence": result.mid_sentence}
    except Exception:
        answer = {"error": traceback.format_exc()}
    print(json.dumps(answer), flush=True)
`;
let reference = null;

function referenceProcess() {
  if (reference) return reference;
  const child = spawn(PYTHON, ["-c", REFERENCE], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  const waiting = [];
  const lines = [];  // the answer being read, in pieces
  let stderr = "";
  const failAll = (why) => {
    if (reference?.child === child) reference = null;
    for (const w of waiting.splice(0)) w.reject(new Error(`the engine reference failed (${why}): ${stderr.slice(-2000)}`));
  };
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (data) => {
    for (let start = 0, end; start < data.length; start = end + 1) {
      end = data.indexOf("\n", start);
      if (end < 0) { lines.push(data.slice(start)); break; }
      lines.push(data.slice(start, end));
      const answer = JSON.parse(lines.splice(0).join(""));
      const asked = waiting.shift();
      if (answer.error) asked?.reject(new Error(`the engine reference raised:\n${answer.error}`));
      else asked?.resolve(answer);
    }
    if (!waiting.length) idle(child);
  });
  child.stderr.on("data", (data) => { stderr += data; });
  child.on("error", (error) => failAll(error.message));
  child.stdin.on("error", (error) => failAll(error.message));
  child.on("close", (code) => failAll(`it ended with ${code}`));
  reference = { child, waiting };
  return reference;
}

// (an idle reference process keeps no test file's process alive; one being asked does)
function idle(child) { for (const handle of [child, child.stdin, child.stdout, child.stderr]) handle.unref(); }
function busy(child) { for (const handle of [child, child.stdin, child.stdout, child.stderr]) handle.ref(); }

// The engine's own answer on CPython for pasted text (no byte decoding involved).
export function engineReference(text, settings) {
  const { child, waiting } = referenceProcess();
  busy(child);
  return new Promise((resolve, reject) => {
    waiting.push({ resolve, reject });
    child.stdin.write(JSON.stringify({ text: Buffer.from(text, "utf8").toString("base64"), settings }) + "\n");
  });
}

// The CLI's output bytes for a file (overlap_unit: only when given, so the CLI's default is tested).
// headers (text only): true --headers, false --no-headers, null the CLI's default.
export function cli(file, { max_tokens, overlap, strategy, encoding, overlap_unit }, format, headers = null, extra = []) {
  const args = ["-m", "chunkwise", file, "--max-tokens", String(max_tokens), "--overlap", String(overlap),
    "--strategy", strategy, "--encoding", encoding, "--format", format, ...extra];
  if (overlap_unit) args.push("--overlap-unit", overlap_unit);
  if (format === "text" && headers != null) args.push(headers ? "--headers" : "--no-headers");
  return execFileSync(PYTHON, args, { cwd: ROOT, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
}

// --- layout: where things are, and whether they fit --------------------------------

// Whether the page scrolls sideways (something is wider than the window).
export const pageScrollsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > innerWidth);

// The selects on show whose label does not fit: [id, label] for the chosen one, or with
// every: true for any of their options (each is shown whole when chosen). The room is
// the select's content box (the page's selects draw their arrow in their padding).
export const cutLabels = (page, { every = false } = {}) => page.evaluate((every) => {
  // (a label's width: the text in a span set in the select's font)
  const probe = document.body.appendChild(document.createElement("span"));
  probe.style.cssText = "position: absolute; visibility: hidden; white-space: pre";
  const cut = [];
  for (const select of document.querySelectorAll("#settings-panel select, #compare-pane select")) {
    if (!select.checkVisibility()) continue;
    const cs = getComputedStyle(select);
    probe.style.font = cs.font;
    const room = select.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    for (const option of every ? select.options : select.selectedOptions) {
      probe.textContent = option.text;
      const width = probe.getBoundingClientRect().width;
      if (width > room + 0.5) cut.push([select.id, option.text, Math.round(width), Math.round(room)]);
    }
  }
  probe.remove();
  return cut;
}, every);

// Where an element is, and whether all of it is inside the window.
export const place = (page, selector) => page.evaluate((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right),
    inView: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0 };
}, selector);

export async function screenshot(page, name, locator) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (locator) await page.locator(locator).screenshot({ path: file });
  else await page.screenshot({ path: file });
  return file;
}

export async function download(page, testid) {
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click(`[data-testid=${testid}]`)]);
  const file = await dl.path();
  return { name: dl.suggestedFilename(), bytes: readFileSync(file) };
}

// Every URL the page asked for that is not on its own origin (data: and blob: are local).
export function foreignRequests(log, origin) {
  return log.requests.filter((u) => !u.startsWith(origin + "/") && !u.startsWith("data:") && !u.startsWith("blob:" + origin));
}

// --- the central check: the page shows exactly what the engine computes ------------


const cpSlice = (s, a, b) => Array.from(s).slice(a, b).join("");

// Every chunk's extent, cut marker, overlap region and stat on the page must
// equal the CPython engine's answer for the same text and settings.
export async function assertMatchesEngine(page, text, settings) {
  const ref = await engineReference(text, settings);
  const view = await readDocumentView(page);
  const chunks = ref.chunks;

  assert.equal(view.chunks.length, chunks.length, "chunk count");
  chunks.forEach((c, i) => assert.equal(view.chunks[i], c.text, `text of chunk ${i}`));
  assert.deepEqual(view.cuts, chunks.map((c) => ({ chunk: c.index, reason: c.boundary })), "one cut marker per chunk, with its reason");
  assert.equal(view.text, text, "the view shows the whole document, once");

  // Overlap: the repeated region [start_i, end_{i-1}) is highlighted, and nothing else is.
  const expected = [];
  chunks.forEach((c, i) => {
    if (i && c.start < chunks[i - 1].end) expected.push({ pair: i, text: cpSlice(c.text, 0, chunks[i - 1].end - c.start) });
  });
  // A region can be shared by three chunks (a chunk starting inside the previous overlap):
  // the overlap of pair (i-1, i) is every segment that both chunks cover.
  const shown = new Map();
  for (const o of view.overlaps) {
    for (let i = o.first + 1; i <= o.last; i++) shown.set(i, (shown.get(i) || "") + o.text);
  }
  assert.deepEqual([...shown.entries()].sort((a, b) => a[0] - b[0]).map(([pair, t]) => ({ pair, text: t })), expected, "overlap highlighting");
  chunks.forEach((c, i) => {
    if (c.overlap_tokens > 0) assert.ok(shown.has(i), `chunk ${i} has ${c.overlap_tokens} overlap tokens and a highlighted overlap`);
  });

  const stats = await readStats(page);
  for (const key of ["source_tokens", "chunk_count", "min_tokens", "mean_tokens", "max_tokens", "output_tokens",
    "overlap_tokens", "overlap_share", "mean_fill", "budget"]) {
    assert.equal(stats[key], ref.stats[key], `stat ${key}`);
  }
  assert.deepEqual(stats.boundaries, ref.stats.boundaries, "cut reasons");
  assert.deepEqual(stats.histogram, ref.stats.histogram, "histogram");
  // The engine's warnings, in the page's words ("Chunk size", not max_tokens).
  assert.deepEqual(stats.warnings, [...new Set([...ref.warnings, ...ref.stats.warnings])].map((w) => pageWords(w, settings.encoding)), "warnings");
  return ref;
}

// What "Copy as command line" / "Copy as Python" put on the clipboard.
export const clipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

// Run a copied command line in the file's folder (`python` is this test's Python);
// the bytes of the file it writes.
export function runCommand(command, dir) {
  const script = command.replace(/^python /, `${PYTHON} `);
  execFileSync("sh", ["-c", script], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  const out = /> ('[^']*'|\S+)$/.exec(command)[1].replace(/^'(.*)'$/, "$1");
  return readFileSync(path.join(dir, out));
}

// Run copied Python in the file's folder; what it writes to standard output.
export const runPython = (code, dir) =>
  execFileSync(PYTHON, ["-c", code], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
