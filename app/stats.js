// The stats panel: the engine's own numbers (chunkwise.io.stats.compute), a
// histogram of chunk sizes (one button per bin, its range always readable in
// the caption) and the count of chunks per cut reason.

import { el, fmtInt } from "./dom.js";
import { reasonText } from "./catalog.js";
import { count, meanCount, percent, unit } from "./words.js";

// [key, label(encoding), format(value, encoding, stats)]; labels name the unit of the tokenizer.
const ROWS = [
  ["source_tokens", (e) => `Source ${unit(e)}`, (v) => fmtInt(v)],
  ["chunk_count", () => "Chunks", (v) => fmtInt(v)],
  ["min_tokens", () => "Smallest chunk", count],
  ["mean_tokens", () => "Mean chunk", meanCount],
  ["max_tokens", () => "Largest chunk", count],
  ["budget", () => "Budget", (v, e, s) => `${count(v, e)}${s.model ? ` of ${s.model}` : ""}`],
  ["model_max_tokens", () => "Model limit", (v, e, s) => `${count(v, e)}, ${s.special_tokens} of them special`],
  ["mean_fill", () => "Mean budget fill", percent],
  ["output_tokens", (e) => `Output ${unit(e)}`, (v) => fmtInt(v)],
  ["overlap_tokens", (e) => `Overlap ${unit(e)}`, (v) => fmtInt(v)],
  ["overlap_share", () => "Overlap share of output", percent],
  ["context_tokens", (e) => `Context ${unit(e)} (embed_text)`, (v, e, s) => `${fmtInt(v)}, ${percent(s.context_share)} of what is embedded`],
  ["embed_tokens_max", () => "Largest embed_text", count],
  ["parent_count", () => "Parents", (v, e, s) => `${fmtInt(v)} of up to ${count(s.parent_tokens, e)}`],
];

export function clearStats({ dl, hist, caption, reasons }) {
  dl.replaceChildren();
  hist.replaceChildren();
  caption.textContent = "No chunks yet.";
  reasons.replaceChildren();
}

// on.bin(bin) and on.reason(name): a bar or a cut reason was clicked (step through its chunks).
export function renderStats(stats, { dl, hist, caption, reasons }, encoding, on = {}) {
  dl.replaceChildren(...ROWS.filter(([key]) => stats[key] !== undefined).flatMap(([key, label, fmt]) => [
    el("dt", {}, label(encoding)),
    el("dd", { "data-testid": `stat-${key}`, "data-value": stats[key] }, fmt(stats[key], encoding, stats)),
  ]));
  renderHistogram(stats.histogram, stats.budget, hist, caption, encoding, on.bin);
  const max = Math.max(1, ...Object.values(stats.boundaries));
  reasons.replaceChildren(...Object.entries(stats.boundaries).map(([name, n]) =>
    el("li", { "data-testid": `reason-${name}`, "data-value": n, "data-reason": name, class: n ? "" : "zero" },
      stepButton(name, n, on.reason,
        el("span", { class: "reason-name" }, name),
        el("span", { class: "reason-bar", "aria-hidden": "true" }, barFill(n / max)),
        el("span", { class: "reason-count" }, fmtInt(n)),
        el("span", { class: "visually-hidden" }, ` chunk${n === 1 ? "" : "s"} end: ${reasonText(name)}`),
      ))));
}

// One row per flag (flags.js): its count, and a click steps through its chunks.
export function renderFlagCounts(list, counts, labels, onStep) {
  const max = Math.max(1, ...Object.values(counts));
  list.replaceChildren(...Object.entries(counts).map(([flag, n]) =>
    el("li", { "data-testid": `flag-${flag}`, "data-value": n, class: n ? "" : "zero" },
      stepButton(`flag-${flag}`, n, onStep && (() => onStep(flag)),
        el("span", { class: "reason-name flag-name" }, labels[flag]),
        el("span", { class: "reason-bar", "aria-hidden": "true" }, barFill(n / max)),
        el("span", { class: "reason-count" }, fmtInt(n)),
      ))));
}

// A reason row that steps through its chunks when clicked (a plain row when it has none).
function stepButton(name, n, onClick, ...children) {
  if (!n || !onClick) return el("span", { class: "reason-step" }, ...children);
  const button = el("button", { type: "button", class: "reason-step", "data-testid": `step-${name}`,
    title: "Go to these chunks, one per click" }, ...children);
  button.addEventListener("click", () => onClick(name));
  return button;
}

function barFill(share) {
  const fill = el("span", { class: "reason-fill" });
  fill.style.width = `${Math.round(share * 100)}%`; // CSSOM, allowed by the CSP
  return fill;
}

const binText = (b, encoding) => `${fmtInt(b.lo)}–${fmtInt(b.hi)} ${unit(encoding)}: ${fmtInt(b.count)} chunk${b.count === 1 ? "" : "s"}`;

// One bar per bin ([{lo, hi, count}]), as buttons in a group with one Tab stop
// (arrow keys move between bars). The caption says the range of the bar in
// focus or under the pointer, and of the tallest bar otherwise.
function renderHistogram(bins, budget, host, caption, encoding, onBin) {
  const maxCount = Math.max(1, ...bins.map((b) => b.count));
  const tallest = bins.reduce((best, b) => (b.count > best.count ? b : best), bins[0]);
  const rest = () => { caption.textContent = `Tallest bar: ${binText(tallest, encoding)}.`; };
  const bars = bins.map((b, i) => {
    const bar = el("button", {
      type: "button", class: "bar", "data-testid": "histogram-bar", "data-count": b.count, "data-lo": b.lo, "data-hi": b.hi,
      "data-bin": i, "aria-label": binText(b, encoding), tabindex: b === tallest ? 0 : -1,
    }, el("span", { class: "bar-count", "aria-hidden": "true" }, b.count ? fmtInt(b.count) : ""), el("span", { class: "bar-fill" }));
    bar.lastChild.style.height = `${(b.count / maxCount) * 100}%`;
    const show = () => { caption.textContent = binText(b, encoding); };
    bar.addEventListener("focus", show);
    if (onBin) bar.addEventListener("click", () => onBin(b));
    bar.addEventListener("mouseenter", show);
    bar.addEventListener("blur", rest);
    bar.addEventListener("mouseleave", () => { if (document.activeElement !== bar) rest(); });
    return bar;
  });
  const group = el("div", { class: "bars", role: "group", "aria-label": `Chunk sizes in ${bins.length} ranges from 0 to ${fmtInt(budget)} ${unit(encoding)}` }, ...bars);
  group.addEventListener("keydown", (e) => {
    const i = bars.indexOf(e.target);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: bars.length - 1 }[e.key];
    if (i < 0 || to == null || !bars[to]) return;
    e.preventDefault();
    bars[i].tabIndex = -1;
    bars[to].tabIndex = 0;
    bars[to].focus();
  });
  host.replaceChildren(group, el("div", { class: "axis", "aria-hidden": "true" },
    el("span", {}, "0"), el("span", {}, `${fmtInt(Math.round(budget / 2))}`), el("span", {}, count(budget, encoding))));
  rest();
}
