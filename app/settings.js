// Chunking settings: defaults, validation and persistence in localStorage.
// The text itself is never stored.

const KEY = "chunkwise.settings.v1";
export const SIZE_PRESETS = [256, 512, 1024, 2048, 4096];
export const STRATEGIES = ["smart", "paragraphs", "markdown", "lines", "sentences", "tokens"];
export const ENCODINGS = ["cl100k_base", "o200k_base", "chars"];
const MAX_TOKENS_LIMIT = 1_000_000;

export const STRATEGY_HELP = {
  smart: "Structure first: cuts at headings, then blank lines, lines, sentences, phrases, words; packs pieces up to the budget.",
  paragraphs: "Whole paragraphs (blank-line blocks) packed together; a paragraph is split only if it alone is too big.",
  markdown: "One chunk per Markdown heading section; long sections are split further.",
  lines: "Whole lines packed together: logs, CSV, lists.",
  sentences: "Whole sentences packed together.",
  tokens: "Fixed windows of tokens: the baseline, ignores structure.",
};

// Default overlap: an eighth of the chunk size, rounded down (64 for 512), as in
// the package (chunkwise.default_overlap) and the CLI.
export const defaultOverlap = (maxTokens) => Math.floor(maxTokens * 0.125);

export const DEFAULTS = Object.freeze({
  strategy: "smart",
  max_tokens: 512,
  overlap: 64,
  overlapAuto: true, // overlap follows the size until the user sets it
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
  out.overlap = out.overlapAuto ? defaultOverlap(out.max_tokens) : clampInt(s.overlap, 0, MAX_TOKENS_LIMIT, defaultOverlap(out.max_tokens));
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

// What the engine gets.
export const engineSettings = (s) => ({
  max_tokens: s.max_tokens,
  overlap: s.overlap,
  strategy: s.strategy,
  encoding: s.encoding,
});
