// A bare loadPyodide() from the same content-addressed vendored files as the page.
// Its performance marks are app/worker.js's boot stages that it has (bench/browser.mjs
// prints both timelines).
performance.mark("boot:manifest");
const VENDOR = new URL("../../static/vendor/", import.meta.url);
try {
  const manifest = await (await fetch(new URL("manifest.json", VENDOR), { cache: "no-cache" })).json();
  const indexURL = new URL(manifest.pyodide_dir, VENDOR).href;
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  performance.mark("boot:runtime");
  const py = await loadPyodide({ indexURL, lockFileURL: indexURL + "pyodide-lock.json", packageBaseUrl: indexURL });
  performance.mark("boot:ready");
  self.postMessage({ type: "ready", version: py.version });
} catch (err) {
  self.postMessage({ type: "error", message: String((err && err.message) || err) });
}
