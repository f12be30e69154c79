// The compare view: the same document chunked with a second set of settings
// (B) next to the settings in force (A): their stats side by side (with the
// engine's comparison: chunks that start mid-sentence, chunks over the budget,
// the cuts only one side makes), and the document with every cut marked as in
// both, only in A or only in B, with the number and size of the chunk each ends;
// or, side by side, A's chunks and B's in two columns kept aligned by offset.

import { lastAtOrBefore } from "./bisect.js";
import { el, fmtInt } from "./dom.js";
import { endsText } from "./catalog.js";
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

export function renderComparison({ rows, table, tableSummary, headA, headB, view, sides, summary }, text, A, B) {
  headA.textContent = `A: ${A.label}`;
  headB.textContent = `B: ${B.label}`;
  const c = B.comparison;
  rows.replaceChildren(
    ...ROWS.map(([key, label, fmt]) => row(key, label, A.stats[key], B.stats[key], (v) => fmt(v, A.encoding), (v) => fmt(v, B.encoding))),
    ...(c ? COMPARISON_ROWS.map(([key, label, get]) => row(key, label, get(c.a), get(c.b), fmtInt)) : []),
    ...(c ? [row("cuts_only", "Cuts only on this side", c.cuts.a, c.cuts.b, fmtInt)] : []));
  table.hidden = false;
  // (the fold's headline: how many chunks each side makes)
  tableSummary.textContent = `Stats: ${fmtInt(A.stats.chunk_count)} chunk${A.stats.chunk_count === 1 ? "" : "s"} in A, ${fmtInt(B.stats.chunk_count)} in B`;
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
  renderSides(sides, text, A, B, ends);
  summary(`${fmtInt(n.both)} cut${n.both === 1 ? "" : "s"} in both, ${fmtInt(n.a)} only in A, ${fmtInt(n.b)} only in B.`);
}

// Side by side: each side's chunks in order, each headed with its number, size and why
// it ends ("A 3 · 412 tokens · ends at a paragraph break"), and whether the other side
// cuts there too. `ends`: each side's chunks by end offset.
function renderSides({ headA, headB, a, b }, text, A, B, ends) {
  headA.textContent = `A: ${A.label}`;
  headB.textContent = `B: ${B.label}`;
  for (const [name, side, col, other] of [["A", A, a, ends.b], ["B", B, b, ends.a]]) {
    const otherName = name === "A" ? "B" : "A";
    const blocks = side.chunks.map((c) => el("div", {
      class: `cmp-chunk tint-${c.index % 2}`, "data-testid": "cmp-chunk", "data-index": c.index, "data-start": c.start, "data-end": c.end,
    },
    el("p", { class: "cmp-chunk-head", "data-testid": "cmp-chunk-head" },
      `${name} ${fmtInt(c.index + 1)} · ${count(c.token_count, side.encoding)} · ${endsText(c.boundary)}`,
      other.has(c.end) ? el("span", { class: "cmp-same" }, ` · ${otherName} cuts here too`) : null),
    el("div", { class: "cmp-chunk-text", "data-testid": "cmp-chunk-text" }, text.slice(c.start, c.end))));
    col.replaceChildren(...blocks);
    col.scrollTop = 0;
  }
}

// The offset in the text at the top of a side's column: inside the chunk there, as far
// as its share of the chunk's height scrolled past ([chunk, fraction]).
function topOf(col) {
  const blocks = col.children;
  const y = col.scrollTop;
  // the last block that starts at or above the top (the first, when none does)
  const block = blocks[Math.max(0, lastAtOrBefore(blocks.length, (i) => blocks[i].offsetTop, y))];
  if (!block) return null;
  const fraction = Math.min(1, Math.max(0, (y - block.offsetTop) / Math.max(1, block.offsetHeight)));
  const start = Number(block.dataset.start), end = Number(block.dataset.end);
  return start + fraction * (end - start);
}

// Scroll a column so that `offset` is at its top: the last chunk that starts at or before
// it (overlaps make several hold it), as far into it as the offset is.
function scrollTo(col, offset) {
  const blocks = col.children;
  const block = blocks[Math.max(0, lastAtOrBefore(blocks.length, (i) => Number(blocks[i].dataset.start), offset))];
  if (!block) return;
  const start = Number(block.dataset.start), end = Number(block.dataset.end);
  const fraction = end > start ? Math.min(1, Math.max(0, (offset - start) / (end - start))) : 0;
  col.scrollTop = block.offsetTop + fraction * block.offsetHeight;
}

// The two columns scroll together: what one shows at its top, the other does too. The
// scroll that one sets on the other is not followed back (it would drift both).
export function syncSides(a, b) {
  const expected = new Map([[a, null], [b, null]]);
  for (const [from, to] of [[a, b], [b, a]]) {
    from.addEventListener("scroll", () => {
      const mine = expected.get(from);
      if (mine != null && Math.abs(from.scrollTop - mine) < 2) { expected.set(from, null); return; }
      expected.set(from, null);
      const offset = topOf(from);
      if (offset == null) return;
      const before = to.scrollTop;
      scrollTo(to, offset);
      if (to.scrollTop !== before) expected.set(to, to.scrollTop);
    }, { passive: true });
  }
}
