// Talks to app/worker.js: boot progress, chunk jobs (streamed), decode and export.

const BOOT_STAGES = ["manifest", "runtime", "engine", "bridge"];

export class Engine {
  constructor({ onBoot, onReady, onBootError }) {
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject} for one-shot requests
    this.job = null; // {id, handlers} of the chunk job whose messages we still want
    this.ready = false;
    this.onBoot = onBoot;
    this.onReady = onReady;
    this.onBootError = onBootError;

    try {
      this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    } catch (err) {
      queueMicrotask(() => onBootError(`Could not start the Web Worker: ${err.message}`));
      return;
    }
    this.worker.onmessage = (event) => this.handle(event.data);
    // A worker script that fails to load or parse never posts anything: say so.
    this.worker.onerror = (event) => {
      event.preventDefault();
      if (!this.ready) onBootError(event.message || "The engine's worker script failed to load.");
    };
  }

  handle(msg) {
    switch (msg.type) {
      case "boot": {
        const step = BOOT_STAGES.indexOf(msg.stage) + 1;
        this.onBoot({ stage: msg.stage, label: msg.label, step, steps: BOOT_STAGES.length });
        return;
      }
      case "ready":
        this.ready = true;
        this.onReady(msg);
        return;
      case "boot-error":
        this.onBootError(msg.message);
        return;
      case "decoded":
      case "exported":
        return this.settle(msg.id, msg);
      case "error":
        if (this.pending.has(msg.id)) return this.settle(msg.id, null, new Error(msg.message));
        return this.forJob(msg, "onError", msg.message);
      case "started":
        return this.forJob(msg, "onStart", msg.warnings, msg.size);
      case "chunks":
        return this.forJob(msg, "onChunks", msg.chunks, msg.progress);
      case "done":
        return this.forJob(msg, "onDone", msg.stats);
      case "csp-violation":
        console.error(`Content-Security-Policy blocked ${msg.blocked} in the engine worker (${msg.directive})`);
        return;
      case "cancelled":
        return; // a superseded job: nothing to show
    }
  }

  forJob(msg, name, ...args) {
    if (this.job && this.job.id === msg.id) this.job.handlers[name](...args);
  }

  settle(id, value, error) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (error) p.reject(error); else p.resolve(value);
  }

  request(msg, transfer) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id }, transfer);
    });
  }

  // Decode a file's bytes in Python, exactly as the CLI does. -> {text, info}
  async decode(bytes) {
    this.job = null; // opening a file supersedes the running job
    const msg = await this.request({ type: "decode", bytes }, [bytes]);
    return { text: msg.text, info: msg.info };
  }

  // Start chunking; any earlier job is dropped. Returns the job id.
  // handlers: onStart(warnings, {chars, bytes}), onChunks(chunks, progress), onDone(stats), onError(message)
  chunk(text, settings, handlers) {
    const id = this.nextId++;
    this.job = { id, handlers };
    this.worker.postMessage({ type: "chunk", id, text, settings });
    return id;
  }

  // The download bytes for a finished job: chunkwise.export.render(...) as UTF-8.
  async export(job, fmt, headers) {
    const msg = await this.request({ type: "export", job, fmt, headers });
    return msg.bytes;
  }
}
