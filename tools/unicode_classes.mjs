// Runs tools/unicode_classes.py inside the pinned Pyodide (its Python has the
// Unicode version tiktoken's regex engine uses) and writes py/chunkwise/unicode/tables.py.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "pyodide";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const py = await loadPyodide();
py.runPython(readFileSync(join(root, "tools", "unicode_classes.py"), "utf8").replace('if __name__ == "__main__":', "if False:"));
writeFileSync(join(root, "py", "chunkwise", "unicode", "tables.py"), py.runPython("generate()"));
console.log("wrote py/chunkwise/unicode/tables.py");
