import { loadPyodide } from "../../static/vendor/pyodide/pyodide.mjs";

const indexURL = new URL("../../static/vendor/pyodide/", import.meta.url).href;
try {
  const py = await loadPyodide({ indexURL, lockFileURL: indexURL + "pyodide-lock.json", packageBaseUrl: indexURL });
  self.postMessage({ type: "ready", version: py.version });
} catch (err) {
  self.postMessage({ type: "error", message: String((err && err.message) || err) });
}
