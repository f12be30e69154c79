// Chunking settings: defaults, validation and persistence in localStorage.
// The text itself is never stored. Help texts and the overlap rule are the
// engine's (catalog.js, from chunkwise.about.describe()).

import { defaultOverlap } from "./catalog.js";

const KEY = "chunkwise.settings.v1";
export const SIZE_PRESETS = [256, 512, 1024, 2048, 4096];
export const STRATEGIES = ["smart", "paragraphs", "markdown", "lines", "sentences", "tokens"];
export const ENCODINGS = ["cl100k_base", "o200k_base", "chars"];
const MAX_TOKENS_LIMIT = 1_000_000;

export const DEFAULTS = Object.freeze({
  strategy: "smart",
  max_tokens: 512,
  overlap: null,
  overlapAuto: true, // the engine's default overlap (it follows the size) until the user sets one
  encoding: "cl100k_base",
  headers: false,
  view: "document",
});

const clampInt = (value, lo, hi, fallback) => {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) ? Math.min(hi, Math.max(lo, n)) : fallback;
};

// Anything read from storage or typed by the user goes through here.
export function normalize(raw) {
  const s = { ...DEFAULTS, ...(raw && typeof raw === "object" ? raw : {}) };
  const out = {
    strategy: STRATEGIES.includes(s.strategy) ? s.strategy : DEFAULTS.strategy,
    encoding: ENCODINGS.includes(s.encoding) ? s.encoding : DEFAULTS.encoding,
    max_tokens: clampInt(s.max_tokens, 1, MAX_TOKENS_LIMIT, DEFAULTS.max_tokens),
    overlapAuto: s.overlapAuto !== false,
    headers: s.headers === true,
    view: s.view === "cards" ? "cards" : "document",
  };
  // Auto: what the engine will use (null until the engine has described its rule).
  out.overlap = out.overlapAuto ? defaultOverlap(out.max_tokens) : clampInt(s.overlap, 0, MAX_TOKENS_LIMIT, 0);
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
  strategy: s.strategy,
  encoding: s.encoding,
});
