// Documents in Pyodide (Node), as the page's worker reads them: each file is opened with
// the worker's Session (open_file, so HTML, PDF and DOCX are extracted by the vendored
// pypdf and the standard library), chunked and exported as JSONL. Prints one JSON line per
// file: {name, extract_s, chunk_s, pages, chars, sha256} (sha256 of the JSONL download).
//   node bench/documents_pyodide.mjs [--max-tokens N] FILE...      (after build.py: the wheels)
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { loadPyodide } from "pyodide";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
let maxTokens = 512;
if (argv[0] === "--max-tokens") { maxTokens = Number(argv[1]); argv.splice(0, 2); }

const py = await loadPyodide();
const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
const manifest = JSON.parse(readFileSync(path.join(ROOT, "static", "vendor", "manifest.json"), "utf8"));
for (const wheel of manifest.install) {
  py.unpackArchive(new Uint8Array(readFileSync(path.join(ROOT, "static", "vendor", wheel))), "zip", { extractDir: site });
}
py.runPython("from chunkwise.bridge import Session; session = Session(); import json, time");
for (const file of argv) {
  const name = path.basename(file);
  py.globals.set("data", py.toPy(new Uint8Array(readFileSync(file))));
  py.globals.set("name", name);
  const out = py.runPython(`
t0 = time.perf_counter()
opened = json.loads(session.open_file(bytes(data), None, name))
t1 = time.perf_counter()
session.start(json.dumps({"max_tokens": ${maxTokens}, "filename": name}))
while not json.loads(session.step(5.0))["done"]:
    pass
t2 = time.perf_counter()
body = session.export("jsonl", False)
json.dumps({"extract_s": t1 - t0, "chunk_s": t2 - t1, "chars": len(opened["text"]),
            "pages": (opened["document"] or {}).get("pages", 0)})
`);
  const body = py.globals.get("body").toJs();
  const sha256 = createHash("sha256").update(body).digest("hex");
  console.log(JSON.stringify({ name, ...JSON.parse(out), sha256 }));
}
