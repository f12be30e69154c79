// Adds bytecode to pure-Python wheels with the pinned Pyodide's own Python
// (tools/wheel_bytecode.py says why). build.py runs it:
//   node tools/wheel_bytecode.mjs IN.whl OUT.whl [IN.whl OUT.whl ...]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pairs = process.argv.slice(2);
if (!pairs.length || pairs.length % 2) throw new Error("usage: wheel_bytecode.mjs IN.whl OUT.whl [...]");
const py = await loadPyodide();
py.runPython(readFileSync(join(root, "tools", "wheel_bytecode.py"), "utf8"));
const addBytecode = py.globals.get("add_bytecode");
for (let i = 0; i < pairs.length; i += 2) {
  py.FS.writeFile("/tmp/in.whl", new Uint8Array(readFileSync(pairs[i])));
  addBytecode("/tmp/in.whl", "/tmp/out.whl");
  writeFileSync(pairs[i + 1], py.FS.readFile("/tmp/out.whl"));
}
addBytecode.destroy();
