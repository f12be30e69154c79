// The compare view: the same document chunked with a second set of settings
// (B) next to the settings in force (A): their stats side by side (with the
// engine's comparison: chunks that start mid-sentence, chunks over the budget,
// the cuts only one side makes), and the document with every cut marked as in
// both, only in A or only in B, with the number and size of the chunk each ends.

import { el, fmtInt } from "./dom.js";
import { count, meanCount, percent } from "./words.js";

// (formatted as the stats panel formats them)
const ROWS = [
  ["chunk_count", "Chunks", (v) => fmtInt(v)],
  ["min_tokens", "Smallest chunk", count],
  ["mean_tokens", "Mean chunk", meanCount],
  ["max_tokens", "Largest chunk", count],
  ["mean_fill", "Mean budget fill", percent],
  ["overlap_share", "Overlap share", percent],
];
// The engine's comparison (bridge compare(): stats.comparison), per side.
const COMPARISON_ROWS = [
  ["mid_sentence", "Chunks starting mid-sentence", (c) => c.mid_sentence],
  ["over_budget", "Chunks over the budget", (c) => c.over_budget],
];
const SIDE_TEXT = { both: "cut in A and B", a: "cut only in A", b: "cut only in B" };

// Cut positions (chunk ends) of A and B -> [[offset, "both" | "a" | "b"], ...] in order.
export function diffCuts(a, b) {
  const ea = new Set(a.map((c) => c.end));
  const eb = new Set(b.map((c) => c.end));
  const all = [...new Set([...ea, ...eb])].sort((x, y) => x - y);
  return all.map((x) => [x, ea.has(x) && eb.has(x) ? "both" : ea.has(x) ? "a" : "b"]);
}

const row = (key, label, a, b, fa = String, fb = fa) => el("tr", { "data-testid": `cmp-row-${key}` },
  el("th", { scope: "row" }, label),
  el("td", { "data-side": "a", "data-value": a }, fa(a)),
  el("td", { "data-side": "b", "data-value": b }, fb(b)));

// The chunk of each side that ends at a cut (the last, if several do): "A 3 · 412".
const endsAt = (chunks) => new Map(chunks.map((c) => [c.end, c]));
const cutLabel = (name, c) => `${name} ${fmtInt(c.index + 1)} · ${fmtInt(c.token_count)}`;
const cutTitle = (name, c, encoding) => `${name}: chunk ${fmtInt(c.index + 1)} ends here (${count(c.token_count, encoding)})`;

export function renderComparison({ rows, table, headA, headB, view, summary }, text, A, B) {
  headA.textContent = `A: ${A.label}`;
  headB.textContent = `B: ${B.label}`;
  const c = B.comparison;
  rows.replaceChildren(
    ...ROWS.map(([key, label, fmt]) => row(key, label, A.stats[key], B.stats[key], (v) => fmt(v, A.encoding), (v) => fmt(v, B.encoding))),
    ...(c ? COMPARISON_ROWS.map(([key, label, get]) => row(key, label, get(c.a), get(c.b), fmtInt)) : []),
    ...(c ? [row("cuts_only", "Cuts only on this side", c.cuts.a, c.cuts.b, fmtInt)] : []));
  table.hidden = false;
  const cuts = diffCuts(A.chunks, B.chunks);
  const ends = { a: endsAt(A.chunks), b: endsAt(B.chunks) };
  const n = { both: 0, a: 0, b: 0 };
  const frag = document.createDocumentFragment();
  let pos = 0;
  for (const [x, side] of cuts) {
    n[side]++;
    if (x > pos) frag.append(text.slice(pos, x));
    const here = [["A", ends.a.get(x), A.encoding], ["B", ends.b.get(x), B.encoding]].filter(([, chunk]) => chunk);
    // (the label is drawn from data-label: the view's text stays the document's)
    frag.append(el("span", { class: "cmp-cut", "data-testid": "cmp-cut", "data-side": side, "data-at": x,
      "data-label": here.map(([name, chunk, enc]) => cutLabel(name, chunk)).join(" | "),
      title: `${SIDE_TEXT[side]}: ${here.map(([name, chunk, enc]) => cutTitle(name, chunk, enc)).join("; ")}` }));
    pos = Math.max(pos, x);
  }
  if (pos < text.length) frag.append(text.slice(pos));
  const content = el("div", { class: "doc-block cmp-content" });
  content.append(frag);
  view.replaceChildren(content);
  summary(`${fmtInt(n.both)} cut${n.both === 1 ? "" : "s"} in both, ${fmtInt(n.a)} only in A, ${fmtInt(n.b)} only in B.`);
}
