// Per-chunk flags a reader filters on: chunks that start in the middle of a
// sentence, very small chunks, chunks that hold only headings, and chunks
// that end at a hard cut (between words or tokens, no structure left).
// Computed on the page from the chunk records and the text.

// [name, short label, what it means]
export const FLAGS = [
  ["mid-sentence", "mid-sentence", "starts in the middle of a sentence"],
  ["small", "very small", "under a quarter of the budget"],
  ["heading-only", "heading only", "holds nothing but headings"],
  ["hard-cut", "hard cut", "ends between words or tokens"],
];
export const flagLabel = Object.fromEntries(FLAGS.map(([name, label]) => [name, label]));
export const flagHelp = Object.fromEntries(FLAGS.map(([name, , help]) => [name, help]));

// Flag every chunk of a finished run (sets c.flags); -> {flag: count}. Which chunks start
// mid-sentence is the engine's judgement (Document.starts_sentence: the stats, the CLI and
// the benchmark ask the same), sent with the run's end as their indices.
export function flagAll(chunks, text, budget, midSentence) {
  const counts = Object.fromEntries(FLAGS.map(([name]) => [name, 0]));
  for (const c of chunks) {
    c.flags = flagsOf(c, text, budget, midSentence);
    for (const f of c.flags) counts[f]++;
  }
  return counts;
}

const HEADING_LINE = /^ {0,3}(#{1,6}(\s|$)|(=+|-+)\s*$)/;

// The flags of chunk c (a record with UTF-16 start/end) in `text`, for a budget.
export function flagsOf(c, text, budget, midSentence) {
  const out = [];
  if (midSentence.has(c.index)) out.push("mid-sentence");
  if (c.token_count < budget / 4) out.push("small");
  const lines = text.slice(c.start, c.end).split(/\r?\n|\r/).filter((l) => l.trim());
  if (lines.length && lines.every((l) => HEADING_LINE.test(l))) out.push("heading-only");
  if (c.boundary === "word" || c.boundary === "token") out.push("hard-cut");
  return out;
}
