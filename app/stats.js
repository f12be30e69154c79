// The stats panel: the engine's own numbers (chunkwise.stats.compute), a drawn
// histogram of chunk sizes and the count of chunks per cut reason.

import { el, svgEl, fmtInt } from "./dom.js";
import { reasonText } from "./catalog.js";

const pct = (x) => `${(x * 100).toFixed(1)}%`;

const ROWS = [
  ["source_tokens", "Source tokens", fmtInt],
  ["chunk_count", "Chunks", fmtInt],
  ["min_tokens", "Smallest chunk", (v) => `${fmtInt(v)} tokens`],
  ["mean_tokens", "Mean chunk", (v) => `${Number(v).toLocaleString("en-US", { maximumFractionDigits: 1 })} tokens`],
  ["max_tokens", "Largest chunk", (v) => `${fmtInt(v)} tokens`],
  ["budget", "Budget", (v) => `${fmtInt(v)} tokens`],
  ["mean_fill", "Mean budget fill", pct],
  ["output_tokens", "Output tokens", fmtInt],
  ["overlap_tokens", "Overlap tokens", fmtInt],
  ["overlap_share", "Overlap share of output", pct],
];

export function clearStats(dl, hist, reasons) {
  dl.replaceChildren();
  hist.replaceChildren(el("p", { class: "help" }, "No chunks yet."));
  reasons.replaceChildren();
}

export function renderStats(stats, dl, hist, reasons) {
  dl.replaceChildren(...ROWS.flatMap(([key, label, fmt]) => [
    el("dt", {}, label),
    el("dd", { "data-testid": `stat-${key}`, "data-value": stats[key] }, fmt(stats[key])),
  ]));
  renderHistogram(stats.histogram, stats.budget, hist);
  const max = Math.max(1, ...Object.values(stats.boundaries));
  reasons.replaceChildren(...Object.entries(stats.boundaries).map(([name, n]) =>
    el("li", { "data-testid": `reason-${name}`, "data-value": n, class: n ? "" : "zero" },
      el("span", { class: "reason-name" }, name),
      el("span", { class: "reason-bar", "aria-hidden": "true" }, barFill(n / max)),
      el("span", { class: "reason-count" }, fmtInt(n)),
      el("span", { class: "visually-hidden" }, ` chunks end ${reasonText(name)}`),
    )));
}

function barFill(share) {
  const fill = el("span", { class: "reason-fill" });
  fill.style.width = `${Math.round(share * 100)}%`; // CSSOM, allowed by the CSP
  return fill;
}

// Bars over the budget range, one per bin: [{lo, hi, count}].
function renderHistogram(bins, budget, host) {
  const W = 300, H = 130, left = 30, bottom = 22, top = 8;
  const plotW = W - left - 4, plotH = H - bottom - top;
  const maxCount = Math.max(1, ...bins.map((b) => b.count));
  const total = bins.reduce((s, b) => s + b.count, 0);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "histogram-svg",
    "aria-label": `Histogram of ${total} chunk sizes from 0 to ${budget} tokens, tallest bar ${maxCount} chunks` });
  const barW = plotW / bins.length;
  bins.forEach((b, i) => {
    const h = (b.count / maxCount) * plotH;
    const rect = svgEl("rect", {
      x: left + i * barW + 1, y: top + plotH - h, width: Math.max(1, barW - 2), height: h,
      class: "bar", "data-count": b.count, "data-lo": b.lo, "data-hi": b.hi,
    });
    const title = svgEl("title");
    title.textContent = `${b.lo}–${b.hi} tokens: ${b.count} chunk${b.count === 1 ? "" : "s"}`;
    rect.append(title);
    svg.append(rect);
    if (b.count) {
      const label = svgEl("text", { x: left + (i + 0.5) * barW, y: top + plotH - h - 2, class: "bar-label", "text-anchor": "middle" });
      label.textContent = b.count;
      svg.append(label);
    }
  });
  svg.append(svgEl("line", { x1: left, y1: top + plotH, x2: W - 4, y2: top + plotH, class: "axis" }));
  const text = (x, y, s, anchor) => {
    const t = svgEl("text", { x, y, class: "axis-label", "text-anchor": anchor });
    t.textContent = s;
    svg.append(t);
  };
  text(left, H - 6, "0", "start");
  text(W - 4, H - 6, `${budget} tokens`, "end");
  text(left - 4, top + 8, String(maxCount), "end");
  text(left - 4, top + plotH, "0", "end");
  host.replaceChildren(svg);
}
