// The page's entry point: starts the engine's worker first, then loads the page
// (main.js) and hands the worker to it.
//
// The engine is the page's critical path: nothing chunks before Pyodide is up.
// So its worker starts before anything else, and the page's own modules (some
// twenty requests) load once the worker is past its first step: it has read the
// manifest and Pyodide's files are on their way (its second message), or it
// failed. Loaded together, they competed with it for the browser's six
// connections to the origin and for the main thread, and held back Pyodide's
// downloads by about half a second. engine.js adopts the worker with whatever it
// has posted meanwhile.

const PAGE_AT_THE_LATEST_MS = 3000; // a worker that says nothing must not keep the page from loading

const spawned = { worker: null, error: null, early: [] }; // early: [handler name, event] before engine.js took over
let loading = null; // the page's modules, once asked for
try {
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    spawned.early.push(["onmessage", event]);
    if (spawned.early.length > 1) loadPage();
  };
  worker.onerror = (event) => {
    event.preventDefault(); // reported once engine.js has adopted the worker
    spawned.early.push(["onerror", event]);
    loadPage();
  };
  spawned.worker = worker;
  setTimeout(loadPage, PAGE_AT_THE_LATEST_MS);
} catch (error) {
  spawned.error = error;
  loadPage();
}

function loadPage() {
  loading ??= import("./main.js").then((main) => main.start(spawned));
}
