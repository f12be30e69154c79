// The page's one state: what the user set and opened, and what the engine is
// doing with it. The panels (app/controls/) read and replace its fields; nothing
// else holds a copy.

import * as settingsStore from "./settings.js";
import { fromHash } from "./share.js";

export function initialState() {
  return {
    // Settings named in the address (a shared setup) win over the stored ones.
    settings: settingsStore.normalize({ ...settingsStore.load(), ...fromHash(location.hash) }),
    // The text being chunked. `name` is the opened file's name (for download names).
    source: { text: "", name: null, size: null, onDisk: null },
    // What the text is read as: "auto" (the file name's language, else strong signals
    // in the text), "text" (prose) or a language; the engine says what it assumed.
    language: "auto",
    run: null, // the current run (engine.js Run): id, done promise, export()
    engineState: "booting", // "booting" | "ready" | "error"
    files: null, // several files open: {files: [File], listed: [{name, chars, info}], stats: [per file] | null}
    compareB: null, // compare's settings B, once the user has compared
    lastStats: null, // the stats of the current run, once it is done
  };
}
