// A faster second visit: the engine's interpreter state, kept by this browser.
//
// Starting Python is most of a boot (about 3 s of 4 on a reload, while the
// compiled WebAssembly comes from Chromium's cache). So after a boot that started
// Python, the worker saves Pyodide's memory snapshot (its wasm memory: the
// interpreter with chunkwise imported and the default tokenizer built), and a
// later visit resumes from it instead.
//
// It is taken before the worker handles any request (app/worker.js), so it never
// holds the user's text. It is keyed by the vendored files' content hashes: a
// new build never resumes an old snapshot, and saving one forgets every other.

export const SNAPSHOT_CACHE = "chunkwise-engine"; // Cache Storage; the service worker's is another

// The URL the current build's snapshot is kept under (never requested from a
// server): named by the content hashes in the vendored files' paths (the Pyodide
// folder's and each wheel's), so any change to them names another snapshot.
export function snapshotUrl(vendor, manifest) {
  const hashes = [manifest.pyodide_dir, ...manifest.install].map((path) => path.split("/").at(-2));
  return new URL(`snapshot/${hashes.join("-")}`, vendor).href;
}

const storage = () => (typeof caches === "undefined" ? null : caches); // absent outside secure contexts

// The saved snapshot: null, or {bytes}, a promise of its bytes (read meanwhile:
// about 45 MB, some 150 ms, while Pyodide's own files load).
export async function findSnapshot(url) {
  try {
    const hit = await (await storage()?.open(SNAPSHOT_CACHE))?.match(url);
    return hit ? { bytes: hit.arrayBuffer().then((buffer) => new Uint8Array(buffer)) } : null;
  } catch {
    return null; // no storage: a normal boot
  }
}

// Keep `bytes` as the snapshot of this build; forget any other. Failure (no
// storage, the quota) only means the next visit starts Python again.
export async function saveSnapshot(url, bytes) {
  try {
    const cache = await storage()?.open(SNAPSHOT_CACHE);
    if (!cache) return;
    await cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    await Promise.all((await cache.keys()).filter((r) => r.url !== url).map((r) => cache.delete(r)));
  } catch (err) {
    console.warn(`The engine's state could not be saved for the next visit: ${err.message}`);
  }
}

export async function forgetSnapshot(url) {
  try {
    await (await storage()?.open(SNAPSHOT_CACHE))?.delete(url);
  } catch {
    // nothing saved, nothing to forget
  }
}

// Run fn (a loadPyodide that restores `bytes`, a promise) with the WebAssembly
// memory grown to their size as the module is instantiated (Pyodide reads the
// snapshot first). Pyodide 314 restores a snapshot into the heap size the module
// declares (30 MB; pyodide/pyodide#6254), and ours is larger: without this the
// restore fails with "offset is out of bounds".
export async function withMemoryOf(bytes, fn) {
  const { instantiate, instantiateStreaming } = WebAssembly;
  const grow = async (result) => {
    const size = (await bytes).length;
    const memory = result?.instance?.exports?.memory;
    if (memory instanceof WebAssembly.Memory && memory.buffer.byteLength < size) {
      memory.grow(Math.ceil((size - memory.buffer.byteLength) / 65536));
    }
    return result;
  };
  WebAssembly.instantiateStreaming = (...args) => instantiateStreaming(...args).then(grow);
  WebAssembly.instantiate = (...args) => instantiate(...args).then(grow);
  try {
    return await fn();
  } finally {
    Object.assign(WebAssembly, { instantiate, instantiateStreaming });
  }
}
