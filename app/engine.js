// Talks to app/worker.js: boot progress, the current document, runs (streamed), export.
//
// The worker keeps the document: setText() sends the text only when it changed,
// open() hands over a file's bytes, and run() sends only the settings.

import { REPLY, REQUEST } from "./protocol.js";

const BOOT_STAGES = ["manifest", "runtime", "engine", "bridge"];

// One chunking run: its id, a `done` promise (the stats, or null when a newer run
// or text superseded it) and export(), the download bytes once it is done.
class Run {
  constructor(engine, id, handlers) {
    this.engine = engine;
    this.id = id;
    this.handlers = handlers; // onStart(warnings, size, language, reading), onChunks(chunks, progress)
    this.finished = false;
    this.language = null; // what the text was read as, once started: {name ("text": prose), label, note}
    // ... and which text: {text (null: the page's own), document (its summary, or null), html (an HTML document)}
    this.reading = null;
    this.done = new Promise((resolve, reject) => { this.settle = { resolve, reject }; });
  }

  // The download bytes: chunkwise.io.export.render(...) as UTF-8, as the CLI writes them.
  async export(fmt, headers) {
    if (!this.finished) throw new Error("These chunks are not complete yet.");
    const msg = await this.engine.request({ type: REQUEST.export, run: this.id, fmt, headers });
    return msg.bytes;
  }
}

// A worker whose runtime broke is replaced by a new one that boots like a reload;
// the page's text, settings, opened files and tokenizer.json files are sent to it again.
function newWorker() {
  return new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
}

export class Engine {
  // spawned: {worker, error, early} from boot.js: the worker it started, or why it
  // could not, and what the worker posted before this took over.
  constructor(spawned, { onBoot, onRestarted }) {
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject} for one-shot requests
    this.progress = new Map(); // id -> onProgress(done, total) of an open request
    this.run = null; // the current Run: the only one whose messages we still want
    this.sentText = null; // the text the worker holds as its document
    // Bumped whenever the worker's document is replaced (new text, a file opened, a new
    // worker): a finished run's result, and so its downloads, is gone from the worker then.
    this.documentCount = 0;
    this.describe = null; // the engine's settings catalogue (chunkwise.about.describe)
    this.onBoot = onBoot;
    this.onRestarted = onRestarted; // (reason): a replaced worker is ready
    this.restarting = null; // the reason, while a replacement worker boots
    this.localTokenizers = new Map(); // name -> bytes of each tokenizer.json opened, to hand a new worker
    this.files = null; // {names, contents} of the last setFiles, likewise
    // Resolves with {version, pyodide, describe} once the engine is ready; rejects with the reason it cannot start.
    this.booted = new Promise((resolve, reject) => { this.boot = { resolve, reject }; });
    this.booted.catch(() => {}); // handled by whoever awaits it

    if (spawned.error) {
      this.boot.reject(new Error(`Could not start the Web Worker: ${spawned.error.message}`));
      return;
    }
    const handlers = this.handlers();
    this.worker = Object.assign(spawned.worker, handlers);
    for (const [name, event] of spawned.early.splice(0)) handlers[name](event);
  }

  handlers() {
    return {
      onmessage: (event) => this.handle(event.data),
      // A worker script that fails to load or parse never posts anything: say so.
      onerror: (event) => {
        event.preventDefault();
        this.boot.reject(new Error(event.message || "The engine's worker script failed to load."));
      },
    };
  }

  // The worker's runtime broke: everything waiting on it fails with the reason, and
  // a new worker gets the document, the opened files and tokenizers (not the run:
  // the same input would break it again; the page asks for the next one).
  restart(reason) {
    const error = new Error(`${reason}. The engine stopped and was restarted; your text and settings are kept.`);
    error.restarted = true;
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
    if (this.run && !this.run.finished) this.run.settle.reject(error);
    this.run = null;
    this.sentText = null;
    this.documentCount++;
    this.restarting = reason;
    this.worker = Object.assign(newWorker(), this.handlers());
    for (const [name, bytes] of this.localTokenizers) {
      this.worker.postMessage({ type: REQUEST.tokenizer, id: this.nextId++, name, bytes: bytes.slice(0) });
    }
    if (this.files) {
      const contents = this.files.contents.map((b) => b.slice(0));
      this.worker.postMessage({ type: REQUEST.files, id: this.nextId++, names: this.files.names, contents }, contents);
    }
  }

  handle(msg) {
    switch (msg.type) {
      case REPLY.boot: {
        const step = BOOT_STAGES.indexOf(msg.stage) + 1;
        this.onBoot({ stage: msg.stage, label: msg.label, step, steps: BOOT_STAGES.length });
        return;
      }
      case REPLY.ready:
        this.describe = msg.describe;
        this.boot.resolve(msg);
        if (this.restarting) this.onRestarted?.(this.restarting);
        this.restarting = null;
        return;
      case REPLY.fatal:
        return this.restart(msg.message);
      case REPLY.bootError:
        this.boot.reject(new Error(msg.message));
        return;
      case REPLY.openProgress:
        return this.progress.get(msg.id)?.(msg.done, msg.total);
      case REPLY.opened:
      case REPLY.exported:
      case REPLY.filesSet:
      case REPLY.compared:
      case REPLY.filesDone:
      case REPLY.tokenizer:
        return this.settle(msg.id, msg);
      case REPLY.error: {
        // (`code`: what the page answers in its own words, as "tokenizer-offline")
        const error = Object.assign(new Error(msg.message), msg.code ? { code: msg.code } : {});
        if (this.pending.has(msg.id)) return this.settle(msg.id, null, error);
        if (msg.request === REQUEST.text) this.sentText = null; // the worker has no document: resend next time
        return this.forRun(msg, (run) => run.settle.reject(error));
      }
      case REPLY.started:
        return this.forRun(msg, (run) => {
          run.language = msg.language;
          run.reading = msg.reading;
          run.handlers.onStart(msg.warnings, msg.size, msg.language, msg.reading);
        });
      case REPLY.chunks:
        return this.forRun(msg, (run) => run.handlers.onChunks(msg.chunks, msg.progress));
      case REPLY.done:
        return this.forRun(msg, (run) => { run.finished = true; run.parents = msg.parents || []; run.midSentence = msg.midSentence || []; run.settle.resolve(msg.stats); });
      case REPLY.cancelled:
        return; // a superseded run: its promise was settled when it was superseded
      case REPLY.cspViolation:
        console.error(`Content-Security-Policy blocked ${msg.blocked} in the engine worker (${msg.directive})`);
        return;
    }
  }

  forRun(msg, fn) {
    if (this.run && this.run.id === msg.id) fn(this.run);
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

  // Whether the worker still has this finished run's result to export (its document is the same).
  holds(run) {
    return run.finished && run.document === this.documentCount;
  }

  // The current run, if any, is superseded: its `done` resolves with null.
  supersede() {
    if (this.run && !this.run.finished) this.run.settle.resolve(null);
    this.run = null;
  }

  // The user cancelled the current run: the worker stops it at its next slice (30 ms).
  cancel() {
    if (!this.run || this.run.finished) return;
    this.worker.postMessage({ type: REQUEST.cancel, id: this.nextId++ });
    this.supersede();
  }

  // Decode a file's bytes in Python, exactly as the CLI does (`encoding`: a codec
  // the user picked, as the CLI's --input-encoding; null detects); the worker
  // keeps the result as its document. -> {text, info, size}
  // `name` says by its extension whether it is HTML, PDF or DOCX; onProgress(done, total)
  // hears how many pages of a document are read. -> {text, info, size, document}, or
  // {refused: the reason} for a file that is neither text nor a document it reads
  async open(bytes, encoding = null, name = null, onProgress = null) {
    this.supersede();
    this.sentText = null;
    this.documentCount++;
    const id = this.nextId;
    if (onProgress) this.progress.set(id, onProgress);
    try {
      const msg = await this.request({ type: REQUEST.open, bytes, encoding, name }, [bytes]);
      if (msg.refused) return { refused: msg.refused };
      this.sentText = msg.text;
      return { text: msg.text, info: msg.info, size: msg.size, document: msg.document };
    } finally {
      this.progress.delete(id);
    }
  }

  // The current document chunked with other settings (the compare view),
  // leaving the current run alone. -> {records, stats, warnings, comparison}: comparison
  // beside the finished run (mid-sentence starts, chunks over the budget, cuts that differ).
  async compare(settings) {
    const { records, stats, warnings, comparison } = await this.request({ type: REQUEST.compare, settings });
    return { records, stats, warnings, comparison };
  }

  // Several files (python -m chunkwise FILE1 FILE2 ...), kept apart from the
  // current document: names and ArrayBuffers -> [{name, chars, info}].
  async setFiles(names, contents) {
    this.files = { names, contents: contents.map((b) => b.slice(0)) }; // (the originals are transferred)
    const msg = await this.request({ type: REQUEST.files, names, contents }, contents);
    return msg.files;
  }
  // Chunk every file with these settings -> [stats per file, with its name].
  async runFiles(settings) {
    return (await this.request({ type: REQUEST.filesRun, settings })).stats;
  }
  // The bytes the CLI writes for all the files (records carry `source`).
  async exportFiles(fmt, headers) {
    return (await this.request({ type: REQUEST.filesExport, fmt, headers })).bytes;
  }

  // Check and keep a local tokenizer.json in the worker (it never leaves the tab).
  // -> {encoding, family, special_tokens}
  async loadTokenizer(name, bytes) {
    const copy = bytes.slice(0); // (the original is transferred)
    const loaded = await this.request({ type: REQUEST.tokenizer, name, bytes }, [bytes]);
    this.localTokenizers.set(name, copy);
    return loaded;
  }

  // Make `text` the worker's document, unless it already is.
  setText(text) {
    if (text === this.sentText) return;
    this.supersede();
    this.sentText = text;
    this.documentCount++;
    this.worker.postMessage({ type: REQUEST.text, id: this.nextId++, text });
  }

  // Chunk the current document with these settings; any earlier run is superseded.
  // handlers: onStart(warnings, {chars, bytes}, language {name, label, note}, reading), onChunks(chunks, progress).
  // Returns the Run.
  chunk(settings, handlers) {
    this.supersede();
    const run = (this.run = new Run(this, this.nextId++, handlers));
    run.document = this.documentCount;
    this.worker.postMessage({ type: REQUEST.chunk, id: run.id, settings });
    return run;
  }
}
