// Compare: settings B on the same text, beside the current run (A).

import { el, fmtInt } from "../dom.js";
import * as catalog from "../catalog.js";
import { checkNumber, markValidity } from "../fields.js";
import { renderComparison, syncSides } from "../compare.js";
import { cmp } from "../ui.js";

export function wireCompare(app) {
  const { ui, state, engine, store } = app;

  // "Sentences · size 128 · overlap auto · o200k_base": a set of settings, in the page's words.
  const settingsLabel = (s) =>
    `${catalog.strategyLabel(s.strategy)} · size ${fmtInt(s.max_tokens)} · overlap ${s.overlap == null ? "auto" : fmtInt(s.overlap)} · ${s.encoding}`;

  // Fill B's choices from A's (the engine's) and start B at A's settings.
  function prepareCompare() {
    for (const [a, b] of [[ui.strategy, cmp.strategy], [ui.encoding, cmp.encoding]]) {
      if (b.options.length !== a.options.length) b.replaceChildren(...[...a.options].map((o) => el("option", { value: o.value }, o.textContent)));
    }
    if (!state.compareB && state.settings.strategy) {
      cmp.strategy.value = state.settings.strategy;
      cmp.encoding.value = state.settings.encoding;
      cmp.size.value = state.settings.max_tokens;
      cmp.overlap.value = state.settings.overlapAuto ? "" : state.settings.overlap;
    }
  }

  // B's settings as last compared (what an uncached preset tokenizer offline goes back to).
  let comparedB = null;
  function showB(b) {
    cmp.strategy.value = b.strategy;
    cmp.encoding.value = b.choice;
    cmp.size.value = b.max_tokens;
    cmp.overlap.value = b.overlap ?? "";
  }

  async function runCompare() {
    if (!state.compareB) return;
    const a = state.run;
    if (!a || !a.finished || !state.lastStats) { cmp.status.textContent = "Chunk a document first: B runs on the same text."; return; }
    cmp.status.textContent = "Comparing…";
    try {
      const B = await engine.compare(state.compareB);
      if (a !== state.run) return; // A changed meanwhile: its own run compares again
      const labelA = settingsLabel({ ...state.settings, overlap: state.settings.overlapAuto ? null : state.settings.overlap });
      renderComparison({ rows: cmp.rows, table: cmp.table, tableSummary: cmp.tableSummary, headA: cmp.headA, headB: cmp.headB, view: cmp.view,
        sides: { headA: cmp.sideHeadA, headB: cmp.sideHeadB, a: cmp.sideA, b: cmp.sideB },
        summary: (t) => { cmp.status.textContent = t; } }, store.text,
      { chunks: store.chunks, stats: state.lastStats, encoding: state.settings.encoding, label: labelA },
      { chunks: B.records, stats: B.stats, encoding: state.compareB.encoding, label: settingsLabel(state.compareB),
        comparison: B.comparison });
      comparedB = state.compareB;
    } catch (err) {
      // A preset's tokenizer this device never fetched, offline: B's settings and
      // comparison before stay, as A's do (run.js).
      if (err.code === "tokenizer-offline" && comparedB) {
        state.compareB = comparedB;
        showB(comparedB);
        cmp.status.textContent = `${err.message} B's settings before are kept.`;
        return;
      }
      cmp.status.textContent = err.code === "tokenizer-offline" ? `${err.message} Choose another tokenizer for B to compare offline.`
        : `B could not run: ${err.message}`;
    }
  }

  // B's numbers are checked as A's are (checkNumber), the reason in the status line.
  // emptyIsAuto: an empty field is no error but the automatic value (null).
  function checkCompareField(input, label, min, emptyIsAuto = false) {
    const auto = emptyIsAuto && input.value.trim() === "" && !input.validity.badInput;
    const { value, error } = auto ? { value: null, error: null } : checkNumber(input, label, min, true);
    markValidity(input, error);
    return { value, error };
  }

  cmp.form.addEventListener("submit", (e) => {
    e.preventDefault();
    const size = checkCompareField(cmp.size, "Chunk size B", 1);
    const overlap = checkCompareField(cmp.overlap, "Overlap B", 0, true);
    const error = size.error || overlap.error;
    if (error) {
      cmp.status.textContent = error;
      (size.error ? cmp.size : cmp.overlap).focus();
      return;
    }
    // B starts its overlaps where A does (the "Overlap starts at" setting).
    // An embedding-model preset ("model:NAME") is compared with its tokenizer; `choice`: the picker's value.
    const choice = cmp.encoding.value;
    const encoding = choice.startsWith("model:") ? catalog.model(choice.slice("model:".length))?.encoding ?? choice : choice;
    state.compareB = { max_tokens: size.value, overlap: overlap.value, overlap_unit: state.settings.overlapUnit, strategy: cmp.strategy.value, encoding, choice };
    runCompare();
  });

  // The reading mode: the text once with both sides' cuts ("merged"), or each side's chunks
  // in a column of its own ("sides"). Two toggle buttons, each a Tab stop.
  function showMode(mode) {
    for (const button of cmp.modes) button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
    cmp.view.hidden = cmp.legend.hidden = mode !== "merged";
    cmp.sides.hidden = mode !== "sides";
  }
  for (const button of cmp.modes) button.addEventListener("click", () => showMode(button.dataset.mode));
  syncSides(cmp.sideA, cmp.sideB);

  return { prepareCompare, runCompare };
}
