// The engine's own catalogue of settings (chunkwise.about.describe(), sent by the
// worker when it is ready, and written by build.py into the manifest): strategy and
// encoding labels and help, boundary explanations, defaults and limits. The page
// keeps no copy of these texts.

let described = null;
const byName = (list) => Object.fromEntries((list || []).map((item) => [item.name, item]));
let strategies = {};
let boundaries = {};
let overlapUnits = {};
let encodings = {};
let modelsByName = {};

export function set(describe) {
  described = describe;
  strategies = byName(describe.strategies);
  boundaries = byName(describe.boundaries);
  overlapUnits = byName(describe.overlap_units);
  encodings = byName(describe.encodings);
  modelsByName = byName(describe.models);
}

export const get = () => described;

// The catalogue as build.py wrote it into static/vendor/manifest.json (null when it
// cannot be read: the engine's own arrives when it is ready).
export async function fromBuild() {
  try {
    const res = await fetch(new URL("../static/vendor/manifest.json", import.meta.url), { cache: "no-cache" });
    return res.ok ? (await res.json()).describe || null : null;
  } catch {
    return null;
  }
}
// Embedding-model presets: [{name, label, encoding, max_input_tokens, special_tokens, chunk_tokens}].
export const models = () => Object.values(modelsByName);
export const model = (name) => (name && modelsByName[name]) || null;
export const strategyHelp = (name) => strategies[name]?.help ?? "";
export const strategyLabel = (name) => strategies[name]?.label ?? name;
export const encodingHelp = (name) => encodings[name]?.help ?? "";
// Where an overlap starts ("unit": where a sentence, line... starts; "word"), and the default.
export const overlapUnitHelp = (name) => overlapUnits[name]?.help ?? "";
export const contextHelp = (name) => described?.contexts?.find((c) => c.name === name)?.help ?? "";
export const defaultOverlapUnit = () => described?.defaults.overlap_unit ?? null;
// The overlap the engine uses when none is set (chunkwise.default_overlap): the
// size times the engine's ratio, rounded down, in whole numbers as the engine
// computes it (a float share can round the other way); null until described.
export function defaultOverlap(maxTokens) {
  if (!described) return null;
  const [numerator, denominator] = described.defaults.overlap_ratio;
  return Math.floor((maxTokens * numerator) / denominator);
}
export const overlapRule = () => described?.defaults.overlap_rule ?? "";
// Why a chunk ends where it does, as a reader would say it ("sentence end").
export const reasonText = (boundary) => boundaries[boundary]?.help ?? boundary;
// ... as the end of a sentence: "ends at a paragraph break", "ends before a heading".
export function endsText(boundary) {
  const help = reasonText(boundary);
  if (/^(before|between|at) /.test(help)) return `ends ${help}`;
  return boundary === "end" ? "ends at the end of the document" : `ends at a ${help}`;
}
