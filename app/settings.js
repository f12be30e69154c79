// Chunking settings: defaults, validation and persistence in localStorage.
// The text itself is never stored. Help texts and the overlap rule are the
// engine's (catalog.js, from chunkwise.about.describe()).

import * as catalog from "./catalog.js";

const KEY = "chunkwise.settings.v1";
export const SIZE_PRESETS = [256, 512, 1024, 2048, 4096];

const clampInt = (value, lo, hi, fallback) => {
  const n = Math.floor(Number(value));
  return value != null && value !== "" && Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
};

// tokenizer.json files opened in this tab (the worker keeps them; a reload forgets them).
const localEncodings = new Set();
export const addLocalEncoding = (name) => localEncodings.add(name);
export const isLocalEncoding = (name) => localEncodings.has(name);

// A model preset (describe().models) chooses the encoding: valid while the
// catalogue has it (kept as given until described).
const validModel = (s, d) => typeof s.model === "string" && s.model !== "" && (!d || catalog.model(s.model) != null);

// Anything read from storage or typed by the user goes through here. The names,
// defaults and limits are the engine's (catalog.js); until the engine has
// described them, values are kept as given (or null), and checked once it has.
export function normalize(raw) {
  const d = catalog.get();
  const s = raw && typeof raw === "object" ? raw : {};
  const known = (value, list, fallback) =>
    d ? (list.some((item) => item.name === value) ? value : fallback) : typeof value === "string" ? value : null;
  const limit = d ? d.limits.max_tokens_max : Number.MAX_SAFE_INTEGER;
  const model = validModel(s, d);
  const out = {
    strategy: known(s.strategy, d?.strategies, d?.defaults.strategy),
    encoding: model ? catalog.model(s.model)?.encoding ?? s.encoding ?? null
      : localEncodings.has(s.encoding) ? s.encoding : known(s.encoding, d?.encodings, d?.defaults.encoding),
    model: model ? s.model : "",
    max_tokens: clampInt(s.max_tokens, d ? d.limits.max_tokens_min : 1, limit, d ? d.defaults.max_tokens : null),
    sizeChosen: s.sizeChosen === true, // the user set the size: picking a model keeps it
    overlapAuto: s.overlapAuto !== false,
    overlapUnit: known(s.overlapUnit, d?.overlap_units, d?.defaults.overlap_unit),
    context: known(s.context, d?.contexts, d?.defaults.context),
    parents: clampInt(s.parents, 0, limit, 0), // 0: no parents
    // Chunk headers in the Text file (the engine's default; named anew so that the old
    // default, false, kept in many a browser's storage, is not taken for a choice).
    textHeaders: typeof s.textHeaders === "boolean" ? s.textHeaders : d ? d.defaults.text_headers : null,
    view: ["cards", "compare"].includes(s.view) ? s.view : "document",
  };
  // Auto: what the engine will use (null until the engine has described its rule).
  out.overlap = out.overlapAuto
    ? out.max_tokens == null ? null : catalog.defaultOverlap(out.max_tokens)
    : clampInt(s.overlap, 0, limit, 0);
  return out;
}

export function load() {
  try {
    return normalize(JSON.parse(localStorage.getItem(KEY) || "null"));
  } catch {
    return normalize(null); // storage disabled or corrupt: defaults
  }
}

export function save(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    /* storage full or disabled: settings just do not persist */
  }
}

// What the engine gets. Auto overlap is sent as null: the engine applies its own rule.
export const engineSettings = (s) => ({
  max_tokens: s.max_tokens,
  overlap: s.overlapAuto ? null : s.overlap,
  overlap_unit: s.overlapUnit,
  context: s.context,
  parent_tokens: s.parents || null,
  strategy: s.strategy,
  encoding: s.encoding,
  model: s.model || null,
});
