// Drives bench-worker.mjs for bench/browser.mjs: window.benchWorker(msg) -> reply.
let worker = null;
let nextId = 1;
const pending = new Map();

function start() {
  worker = new Worker(new URL("./bench-worker.mjs", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.error) p.reject(new Error(data.error)); else p.resolve(data.result);
  };
  worker.onerror = (e) => { for (const p of pending.values()) p.reject(new Error(e.message || "worker error")); pending.clear(); };
}

// A fresh worker (a fresh Pyodide and wasm memory).
window.restartWorker = () => { if (worker) worker.terminate(); start(); };
window.benchWorker = (msg) => new Promise((resolve, reject) => {
  if (!worker) start();
  const id = nextId++;
  pending.set(id, { resolve, reject });
  worker.postMessage({ ...msg, id });
});
document.getElementById("status").dataset.state = "loaded";
