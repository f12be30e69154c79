// The engine's home: a module Web Worker that boots Pyodide from the page's own
// origin, installs the vendored wheels and runs chunkwise in time slices.
//
// Page -> worker: {type: "decode", id, bytes, name}
//                 {type: "chunk", id, text, settings: {max_tokens, overlap, strategy, encoding}}
//                 {type: "export", id, job, fmt, headers}
// Worker -> page: {type: "boot", stage, label} ... {type: "ready", version}
//                 {type: "boot-error", message}
//                 {type: "decoded", id, text, info}
//                 {type: "started", id, warnings, size: {chars, bytes}} {type: "chunks", id, chunks, progress}
//                 {type: "done", id, stats} {type: "cancelled", id}
//                 {type: "exported", id, bytes} {type: "error", id, message}
//                 {type: "csp-violation", directive, blocked}
import { loadPyodide } from "../static/vendor/pyodide/pyodide.mjs";

const VENDOR = new URL("../static/vendor/", import.meta.url);
const SLICE_SECONDS = 0.03; // one engine step; short enough that a newer request is seen quickly

let py = null;
let bridge = null; // the namespace app/bridge.py ran in
let latestChunkId = 0; // the newest chunk request: every older job stops at its next slice
let finished = null; // {id, result}: the last completed job's Result (a PyProxy), for downloads

const post = (msg, transfer = []) => self.postMessage(msg, transfer);
const stage = (name, label) => post({ type: "boot", stage: name, label });

// The worker's own CSP (from its response header) reports here, not in the page: forward it.
self.addEventListener("securitypolicyviolation", (e) =>
  post({ type: "csp-violation", directive: e.violatedDirective, blocked: e.blockedURI }));

async function boot() {
  stage("manifest", "Reading the build manifest");
  const res = await fetch(new URL("manifest.json", VENDOR), { cache: "no-cache" });
  if (!res.ok) throw new Error(`static/vendor/manifest.json: HTTP ${res.status} (run build.py)`);
  const manifest = await res.json();

  stage("runtime", "Starting Python (Pyodide)");
  const indexURL = new URL("pyodide/", VENDOR).href;
  // Point every URL Pyodide derives at the vendored copy, so it never falls back to a CDN.
  py = await Promise.race([
    loadPyodide({
      indexURL,
      lockFileURL: indexURL + "pyodide-lock.json",
      packageBaseUrl: indexURL,
      stdout: (line) => console.log("[python]", line),
      stderr: (line) => console.warn("[python]", line),
    }),
    runtimeFailure(),
  ]).finally(() => { console.warn = realWarn; });

  // The two wheels are pure Python and we ship their dependencies ourselves, so
  // loadPackage installs them directly: micropip's resolver added ~0.55 s to boot.
  stage("engine", "Installing chunkwise and its tokenizer");
  const wheel = (name) => new URL("wheels/" + name, VENDOR).href;
  await py.loadPackage(manifest.install.map(wheel), {
    messageCallback: () => {},
    errorCallback: (m) => console.warn(m),
  });

  stage("bridge", "Preparing the engine");
  const code = await (await fetch(new URL("./bridge.py", import.meta.url))).text();
  bridge = py.runPython("dict()");
  py.runPython(code, { globals: bridge });
  post({ type: "ready", version: bridge.get("VERSION"), pyodide: py.version });
}

// When the WebAssembly binary cannot be fetched or compiled, Emscripten only
// logs a warning and loadPyodide never settles: turn that warning into an error.
const realWarn = console.warn;
function runtimeFailure() {
  return new Promise((_, reject) => {
    const seen = [];
    console.warn = (...args) => {
      realWarn(...args);
      seen.push(args.map(String).join(" "));
      if (/wasm instantiation failed|failed to asynchronously prepare wasm|Aborted\(/i.test(seen[0] || "") || /Aborted\(/.test(seen.at(-1))) {
        // The cause is usually the next warning: give it a moment to arrive.
        setTimeout(() => reject(new Error(`The Python runtime failed to load: ${seen.join(" / ")}`)), 50);
      }
    };
  });
}

// Wait for one macrotask so that messages posted meanwhile (a newer request) are handled.
const channel = new MessageChannel();
const pending = [];
channel.port1.onmessage = () => pending.shift()();
const nextTask = () => new Promise((resolve) => { pending.push(resolve); channel.port2.postMessage(0); });

// Code-point offsets (Python) -> UTF-16 offsets (JavaScript). `astral` holds the
// code-point index of every character outside the BMP (two UTF-16 units each).
function astralPositions(text) {
  const out = [];
  const re = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
  for (let m; (m = re.exec(text)); ) out.push(m.index - out.length);
  return out;
}
function toUtf16(cp, astral) {
  let lo = 0, hi = astral.length; // count astral characters before code point `cp`
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (astral[mid] < cp) lo = mid + 1; else hi = mid;
  }
  return cp + lo;
}

function call(name, ...args) {
  const fn = bridge.get(name);
  try { return fn(...args); } finally { fn.destroy(); }
}

async function runChunkJob({ id, text, settings }) {
  if (id !== latestChunkId) return post({ type: "cancelled", id });
  if (finished) { finished.result.destroy(); finished = null; }
  const astral = astralPositions(text);
  const job = call("new_job", text, settings.max_tokens, settings.overlap, settings.strategy, settings.encoding);
  try {
    // Sizes for the page, measured here so the page's main thread never scans megabytes.
    const size = { chars: text.length - astral.length, bytes: new TextEncoder().encode(text).length };
    post({ type: "started", id, warnings: JSON.parse(call("job_warnings", job)), size });
    for (;;) {
      const out = JSON.parse(call("step", job, SLICE_SECONDS));
      const chunks = out.chunks.map(([index, start, end, tokens, overlap, boundary, headings]) => ({
        index, start: toUtf16(start, astral), end: toUtf16(end, astral),
        tokens, overlap, boundary, headings,
      }));
      post({ type: "chunks", id, chunks, progress: out.progress });
      if (out.done) break;
      await nextTask();
      if (id !== latestChunkId) return post({ type: "cancelled", id });
    }
    const result = job.result();
    post({ type: "done", id, stats: JSON.parse(call("stats", result)) });
    finished = { id, result };
  } finally {
    job.destroy();
  }
}

function runExport({ id, job, fmt, headers }) {
  if (!finished || finished.id !== job) throw new Error("These chunks are out of date; wait for the current run to finish.");
  const proxy = call("export", finished.result, fmt, headers);
  try {
    const bytes = proxy.toJs(); // a fresh Uint8Array copy of the Python bytes
    post({ type: "exported", id, bytes }, [bytes.buffer]);
  } finally {
    proxy.destroy();
  }
}

function runDecode({ id, bytes }) {
  // A Uint8Array reaches Python as a JsProxy; bridge.decode copies it with to_bytes().
  const { text, info } = JSON.parse(call("decode", new Uint8Array(bytes)));
  post({ type: "decoded", id, text, info });
}

const booted = boot().catch((err) => {
  console.error(err);
  post({ type: "boot-error", message: String((err && err.message) || err) });
  throw err;
});

// Requests are handled one at a time, in order; a chunk request that a newer
// one has superseded by the time its turn comes is dropped.
let queue = booted;
self.onmessage = (event) => {
  const msg = event.data;
  // A newer text or setting (a chunk request, or a file being opened) stops older jobs.
  if (msg.type === "chunk" || msg.type === "decode") latestChunkId = Math.max(latestChunkId, msg.id);
  queue = queue.then(async () => {
    try {
      if (msg.type === "chunk") await runChunkJob(msg);
      else if (msg.type === "export") runExport(msg);
      else if (msg.type === "decode") runDecode(msg);
    } catch (err) {
      console.error(err);
      post({ type: "error", id: msg.id, request: msg.type, message: pythonMessage(err) });
    }
  }, () => {}); // boot failed: boot-error was already posted
};

// A Python exception arrives as a long traceback; the page shows its last line.
function pythonMessage(err) {
  const text = String((err && err.message) || err).trim();
  const lines = text.split("\n").filter(Boolean);
  return lines.length ? lines[lines.length - 1] : text;
}
