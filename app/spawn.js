// The page's entry point: starts the engine's worker first, then loads the page
// (app/main.js).
//
// The engine is the page's critical path: nothing chunks before Pyodide is up.
// So its worker starts before anything else, and the page's own modules (some
// twenty requests) load once the worker is past its first step: it has read the
// manifest and Pyodide's files are on their way (its second message), or it
// failed. Loaded together, they competed with it for the browser's six
// connections to the origin and for the main thread, and held back Pyodide's
// downloads by about half a second. app/engine.js adopts the same worker (one
// module instance per page) with whatever it has posted meanwhile.

const PAGE_AT_THE_LATEST_MS = 3000; // a worker that says nothing must not keep the page from loading

let loading = null; // the page's modules, once asked for
const early = []; // [handler name, event] that arrived before app/engine.js took over
let started;
try {
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    early.push(["onmessage", event]);
    if (early.length > 1) loadPage();
  };
  worker.onerror = (event) => {
    event.preventDefault(); // reported once engine.js has adopted the worker
    early.push(["onerror", event]);
    loadPage();
  };
  started = { worker };
  setTimeout(loadPage, PAGE_AT_THE_LATEST_MS);
} catch (error) {
  started = { error };
  loadPage();
}

function loadPage() {
  loading ??= import("./main.js");
}

// The worker, now handled by these two; they first get what it posted so far, in order.
// Throws when the browser could not start it.
export function adoptWorker(handlers) {
  if (started.error) throw started.error;
  const { worker } = started;
  Object.assign(worker, handlers);
  for (const [name, event] of early.splice(0)) handlers[name](event);
  return worker;
}
