// The baseline for the page's boot time: a module worker that only loads Pyodide
// from the same vendored files. Records when it is ready (ms since navigation start).
const status = document.getElementById("status");
const worker = new Worker(new URL("./bare-worker.mjs", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.type === "ready") {
    window.__readyAt = performance.now();
    status.textContent = `Pyodide ${data.version} ready`;
    status.dataset.state = "ready";
  } else {
    status.textContent = "failed: " + data.message;
    status.dataset.state = "error";
  }
};
worker.onerror = (e) => { status.textContent = "worker failed: " + e.message; status.dataset.state = "error"; };
