// The engine's home: a module Web Worker that boots Pyodide from the page's own
// origin, installs the vendored wheels and runs chunkwise in time slices.
//
// It keeps the current document (chunkwise.bridge.Session): the text crosses
// once, when it changes, and a settings change sends only the settings. The
// messages it takes and sends are named and described in protocol.js.
//
// The vendored files are content-addressed (build.py): manifest.json, revalidated
// on every load, names the Pyodide folder and the wheels, which are cached for good.

import { REPLY, REQUEST } from "./protocol.js";

// Fetched while the manifest is: a static import would hold the whole boot back by its round trip.
const snapshots = import("./snapshot.js");
snapshots.catch(() => {}); // reported where it is awaited

const VENDOR = new URL("../static/vendor/", import.meta.url);
const SLICE_SECONDS = 0.03; // one engine step; short enough that a newer request is seen quickly

let py = null;
let session = null; // chunkwise.bridge.Session: the current document and its last result
let latest = 0; // the newest chunk, text or open request: every older job stops at its next slice
let finishedRun = 0; // id of the run whose result the session holds, for downloads
let size = null; // {chars, bytes} of the current document

const post = (msg, transfer = []) => self.postMessage(msg, transfer);
// Each stage is also a performance mark ("boot:<stage>", and "boot:ready"): the
// benchmark reads them for its timeline of where a boot's time goes.
const stage = (name, label) => {
  performance.mark(`boot:${name}`);
  post({ type: REPLY.boot, stage: name, label });
};

// The worker's own CSP (from its response header) reports here, not in the page: forward it.
self.addEventListener("securitypolicyviolation", (e) =>
  post({ type: REPLY.cspViolation, directive: e.violatedDirective, blocked: e.blockedURI }));

async function boot() {
  stage("manifest", "Reading the build manifest");
  const res = await fetch(new URL("manifest.json", VENDOR), { cache: "no-cache" });
  if (!res.ok) throw new Error(`static/vendor/manifest.json: HTTP ${res.status} (run build.py)`);
  const manifest = await res.json();

  // The wheels download while Pyodide starts (they are content-addressed and
  // cached for good); a snapshot saved by an earlier visit is read meanwhile.
  const wheels = manifest.install.map((path) => new URL(path, VENDOR).href);
  const downloaded = Promise.all(wheels.map(async (url) => {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return r.arrayBuffer();
  }));
  downloaded.catch(() => {}); // reported where it is awaited
  const indexURL = new URL(manifest.pyodide_dir, VENDOR).href;
  const runtime = import(indexURL + "pyodide.mjs"); // loads while the saved snapshot is looked up
  runtime.catch(() => {}); // reported where it is awaited
  const { findSnapshot, forgetSnapshot, saveSnapshot, snapshotUrl, withMemoryOf } = await snapshots;
  const savedAt = snapshotUrl(VENDOR, manifest);
  const saved = await findSnapshot(savedAt);
  const { loadPyodide } = await runtime;
  // Point every URL Pyodide derives at the vendored copy, so it never falls back to a CDN.
  const options = {
    indexURL,
    lockFileURL: indexURL + "pyodide-lock.json",
    packageBaseUrl: indexURL,
    stdout: (line) => console.log("[python]", line),
    stderr: (line) => console.warn("[python]", line),
  };
  const start = (more) => Promise.race([loadPyodide({ ...options, ...more }), runtimeFailure()])
    .finally(() => { console.warn = realWarn; });
  let resumed = false;
  if (saved) {
    stage("runtime", "Resuming the engine saved by an earlier visit");
    try {
      // A thenable that lets go of the bytes once read: Pyodide keeps its options.
      let { bytes } = saved;
      const once = { then: (resolve, reject) => { bytes.then(resolve, reject); bytes = null; } };
      py = await withMemoryOf(saved.bytes, () => start({ _loadSnapshot: once }));
      resumed = true;
    } catch (err) {
      console.warn(`The saved engine could not be resumed; starting it afresh: ${err.message}`);
      await forgetSnapshot(savedAt);
    }
  }
  if (!resumed) {
    stage("runtime", "Starting Python (Pyodide)");
    py = await start({ _makeSnapshot: true });
  }

  // The wheels are pure Python and we ship their dependencies ourselves: they
  // are unpacked into site-packages (micropip's resolver added ~0.55 s to boot, and
  // loadPackage leaves a record that a memory snapshot cannot hold). A resumed
  // interpreter has chunkwise imported already, but not its files (Pyodide's file
  // system is not in the snapshot): what it imports or reads later needs them.
  stage("engine", "Installing chunkwise and its tokenizer");
  // site.getsitepackages() and not sysconfig, whose import took ~0.15 s of the boot.
  const site = py.runPython("import site; site.getsitepackages()[0]");
  for (const bytes of await downloaded) py.unpackArchive(bytes, "wheel", { extractDir: site });

  self.pyodide = py; // for a developer's console, and the test that breaks the runtime on purpose
  tokenizerFiles = manifest.tokenizers || {};
  stage("bridge", "Preparing the engine");
  const bridge = py.pyimport("chunkwise.bridge");
  session = bridge.Session();
  const describe = JSON.parse(bridge.describe_json());
  performance.mark("boot:ready");
  post({ type: REPLY.ready, version: bridge.VERSION, pyodide: py.version, describe, resumed });
  if (!resumed) {
    // Saved before any request is handled (they wait for boot), so before any text arrives.
    const warmUp = bridge.warm_up;
    try {
      warmUp();
      saveSnapshot(savedAt, py.makeMemorySnapshot());
    } catch (err) {
      console.warn(`The engine's state could not be saved for the next visit: ${err.message}`);
    } finally {
      warmUp.destroy();
    }
  }
  bridge.destroy();
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

// Preset tokenizer files (vendored, content-addressed) are fetched the first time
// a run needs one; the session keeps them for the rest of the visit, and the service
// worker keeps each once fetched, for offline visits. Offline, one never fetched is
// not on this device: an answer for the user (code "tokenizer-offline"), not a failure.
let tokenizerFiles = {};
const provided = new Set();
async function ensureTokenizer(encoding) {
  const file = tokenizerFiles[encoding];
  if (!file || provided.has(encoding)) return;
  let res;
  try {
    res = await fetch(new URL(file, VENDOR));
  } catch {
    throw Object.assign(new Error(`${encoding}'s tokenizer is not on this device yet; connect once to fetch it.`), { code: "tokenizer-offline" });
  }
  if (!res.ok) throw new Error(`The tokenizer file of ${encoding} could not be loaded (HTTP ${res.status}).`);
  call("provide_tokenizer", encoding, await res.text());
  provided.add(encoding);
}

// A tokenizer.json the user opened: checked and kept by the session, never sent anywhere.
function loadTokenizer({ id, name, bytes }) {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  const loaded = JSON.parse(call("load_tokenizer", String(name || "tokenizer.json"), text));
  post({ type: REPLY.tokenizer, id, ...loaded });
}

function call(name, ...args) {
  const fn = session[name];
  try { return fn(...args); } finally { fn.destroy(); }
}

function setText({ text }) {
  finishedRun = 0;
  size = JSON.parse(call("set_text", text)).size;
}

function openFile({ id, bytes, encoding, name }) {
  finishedRun = 0;
  // A Uint8Array reaches Python as a JsProxy; the session copies it with to_bytes().
  // `encoding`: the codec the user picked (the CLI's --input-encoding), or null to detect;
  // `name`: the file's, whose extension says HTML, PDF or DOCX.
  const progress = (done, total) => post({ type: REPLY.openProgress, id, done, total });
  let opened;
  try {
    opened = JSON.parse(call("open_file", new Uint8Array(bytes), encoding || null, name || null, progress));
  } catch (err) {
    // Neither text nor a document it reads, or a document it cannot read: an answer, not a failure.
    if (err?.type !== "DocumentError") throw err;
    return post({ type: REPLY.opened, id, refused: pythonMessage(err) });
  }
  size = opened.size;
  post({ type: REPLY.opened, id, text: opened.text, info: opened.info, size, document: opened.document });
}

// The compare view: other settings on the current document, apart from its run.
async function runCompare({ id, settings }) {
  await ensureTokenizer(settings.encoding); // a preset's, fetched the first time (or "tokenizer-offline")
  post({ type: REPLY.compared, id, ...JSON.parse(call("compare", JSON.stringify(settings))) });
}

// Several files at once, apart from the current document (python -m chunkwise FILE1 FILE2 ...).
function setFiles({ id, names, contents }) {
  const listed = call("set_files", JSON.stringify(names), contents.map((b) => new Uint8Array(b)));
  post({ type: REPLY.filesSet, id, files: JSON.parse(listed) });
}
function runFiles({ id, settings }) {
  post({ type: REPLY.filesDone, id, stats: JSON.parse(call("run_files", JSON.stringify(settings))) });
}
function exportFiles({ id, fmt, headers }) {
  const proxy = call("export_files", fmt, headers);
  try {
    const bytes = proxy.toJs();
    post({ type: REPLY.exported, id, bytes }, [bytes.buffer]);
  } finally {
    proxy.destroy();
  }
}

async function runChunks({ id, settings }) {
  if (id !== latest) return post({ type: REPLY.cancelled, id });
  // (finishedRun stays until this run is done: after a Cancel its result is still the one shown)
  await ensureTokenizer(settings.encoding);
  if (id !== latest) return post({ type: REPLY.cancelled, id });
  const started = JSON.parse(call("start", JSON.stringify(settings)));
  // (the size of the text chunked: the engine may read an HTML document's other way)
  post({ type: REPLY.started, id, warnings: started.warnings, settings: started.settings, size: started.reading.size || size,
    language: started.language, reading: started.reading });
  for (;;) {
    const out = JSON.parse(call("step", SLICE_SECONDS));
    post({ type: REPLY.chunks, id, chunks: out.chunks, progress: out.progress });
    if (out.done) {
      finishedRun = id;
      return post({ type: REPLY.done, id, stats: out.stats, parents: out.parents || [], midSentence: out.mid_sentence || [] });
    }
    await nextTask();
    if (id !== latest) return post({ type: REPLY.cancelled, id });
  }
}

function runExport({ id, run, fmt, headers }) {
  if (finishedRun !== run) throw new Error("These chunks are out of date; wait for the current run to finish.");
  const proxy = call("export", fmt, headers);
  try {
    const bytes = proxy.toJs(); // a fresh Uint8Array copy of the Python bytes
    post({ type: REPLY.exported, id, bytes }, [bytes.buffer]);
  } finally {
    proxy.destroy();
  }
}

const booted = boot().catch((err) => {
  console.error(err);
  post({ type: REPLY.bootError, message: String((err && err.message) || err) });
  throw err;
});

// Requests are handled one at a time, in order; a chunk request that a newer
// one has superseded by the time its turn comes is dropped.
const HANDLERS = {
  [REQUEST.text]: setText, [REQUEST.open]: openFile, [REQUEST.chunk]: runChunks, [REQUEST.export]: runExport,
  [REQUEST.files]: setFiles, [REQUEST.filesRun]: runFiles, [REQUEST.filesExport]: exportFiles,
  [REQUEST.compare]: runCompare, [REQUEST.tokenizer]: loadTokenizer,
  [REQUEST.cancel]: () => {}, // being newer than the run is what stops it
};
// Requests that leave the current document's run alone.
const ASIDE = new Set([REQUEST.export, REQUEST.files, REQUEST.filesRun, REQUEST.filesExport, REQUEST.compare, REQUEST.tokenizer]);
let queue = booted;
self.onmessage = (event) => {
  const msg = event.data;
  // A newer text or setting (a chunk request, new text, a file being opened) stops older jobs.
  if (!ASIDE.has(msg.type)) latest = Math.max(latest, msg.id);
  queue = queue.then(async () => {
    try {
      await HANDLERS[msg.type](msg);
    } catch (err) {
      console.error(err);
      // A JS stack overflow or an out-of-memory inside the runtime leaves Pyodide
      // unusable for good: the page replaces this worker (engine.js) and resends
      // the document; nothing more is handled here.
      if (runtimeBroken(err)) {
        queue = new Promise(() => {});
        return post({ type: REPLY.fatal, id: msg.id, request: msg.type, message: pythonMessage(err) });
      }
      post({ type: REPLY.error, id: msg.id, request: msg.type, message: pythonMessage(err), code: err?.code || null });
    }
  }, () => {}); // boot failed: boot-error was already posted
};

// The JS stack or the memory ran out inside the runtime (its state cannot be
// trusted after that, even where it still answers), or Pyodide said it is done.
function runtimeBroken(err) {
  if (err instanceof RangeError || err instanceof WebAssembly.RuntimeError) return true;
  try {
    py.runPython("None");
    return false;
  } catch {
    return true;
  }
}

// A Python exception arrives as a long traceback; the page shows its last line's
// message, without the exception's name ("chunkwise.tokenizer.hf.normalizers.Unsupported: "):
// the whole traceback is in the console.
function pythonMessage(err) {
  const text = String((err && err.message) || err).trim();
  const lines = text.split("\n").filter(Boolean);
  const last = lines.length ? lines[lines.length - 1] : text;
  const named = err?.type && /^([\w.]+): ([^]+)$/.exec(last);
  return named && named[1].split(".").pop() === err.type ? named[2] : last;
}
