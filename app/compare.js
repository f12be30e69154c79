// The compare view: the same document chunked with a second set of settings
// (B) next to the settings in force (A): their stats side by side, and the
// document with every cut marked as in both, only in A or only in B.

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
const SIDE_TEXT = { both: "cut in A and B", a: "cut only in A", b: "cut only in B" };

// Cut positions (chunk ends) of A and B -> [[offset, "both" | "a" | "b"], ...] in order.
export function diffCuts(a, b) {
  const ea = new Set(a.map((c) => c.end));
  const eb = new Set(b.map((c) => c.end));
  const all = [...new Set([...ea, ...eb])].sort((x, y) => x - y);
  return all.map((x) => [x, ea.has(x) && eb.has(x) ? "both" : ea.has(x) ? "a" : "b"]);
}

export function renderComparison({ rows, table, headA, headB, view, summary }, text, A, B) {
  headA.textContent = `A: ${A.label}`;
  headB.textContent = `B: ${B.label}`;
  rows.replaceChildren(...ROWS.map(([key, label, fmt]) => el("tr", { "data-testid": `cmp-row-${key}` },
    el("th", { scope: "row" }, label),
    el("td", { "data-side": "a", "data-value": A.stats[key] }, fmt(A.stats[key], A.encoding)),
    el("td", { "data-side": "b", "data-value": B.stats[key] }, fmt(B.stats[key], B.encoding)))));
  table.hidden = false;
  const cuts = diffCuts(A.chunks, B.chunks);
  const n = { both: 0, a: 0, b: 0 };
  const frag = document.createDocumentFragment();
  let pos = 0;
  for (const [x, side] of cuts) {
    n[side]++;
    if (x > pos) frag.append(text.slice(pos, x));
    frag.append(el("span", { class: "cmp-cut", "data-testid": "cmp-cut", "data-side": side, "data-at": x, title: SIDE_TEXT[side] }));
    pos = Math.max(pos, x);
  }
  if (pos < text.length) frag.append(text.slice(pos));
  const content = el("div", { class: "doc-block cmp-content" });
  content.append(frag);
  view.replaceChildren(content);
  summary(`${fmtInt(n.both)} cut${n.both === 1 ? "" : "s"} in both, ${fmtInt(n.a)} only in A, ${fmtInt(n.b)} only in B.`);
}
