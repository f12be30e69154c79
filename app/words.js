// The page's words for the engine's names: what a chunk size is counted in
// (tokens, or characters with the Characters tokenizer) and the labels of the
// settings, used in engine warnings instead of the package's parameter names.

import { fmtInt } from "./dom.js";

// The engine's parameter names -> the labels of the fields that set them.
export const FIELD_LABELS = { max_tokens: "Chunk size", overlap: "Overlap" };

const isChars = (encoding) => encoding === "chars";

// "token"/"tokens" or "character"/"characters", for a count n (plural when n is omitted).
export function unit(encoding, n) {
  const word = isChars(encoding) ? "character" : "token";
  return n === 1 ? word : `${word}s`;
}

// "1,234 tokens", "1 character".
export const count = (n, encoding) => `${fmtInt(n)} ${unit(encoding, n)}`;

// "321.3 tokens": a mean, to one decimal.
export const meanCount = (v, encoding) => `${Number(v).toLocaleString("en-US", { maximumFractionDigits: 1 })} ${unit(encoding)}`;

// "62.8%": a share.
export const percent = (x) => `${(x * 100).toFixed(1)}%`;

// "Tokens" / "Characters": a column or fact label.
export const unitTitle = (encoding) => (isChars(encoding) ? "Characters" : "Tokens");

// An engine warning in the page's words: parameter names become field labels
// ("max_tokens 1 ..." -> "Chunk size 1 ..."), token words follow the tokenizer.
export function pageWords(message, encoding) {
  let out = message;
  // A parameter name followed by its value ("max_tokens 1", "overlap 300") is the field's label.
  for (const [name, label] of Object.entries(FIELD_LABELS)) out = out.replace(new RegExp(`\\b${name}(?= -?\\d)`, "g"), label);
  if (isChars(encoding)) out = out.replace(/\btoken(s?)\b/g, "character$1");
  return out;
}
