// Finding chunks: find text, go to chunk N, the smallest or largest, and step
// through a histogram bar, a cut reason or a flag (the stats panel's groups).

import { $, fmtInt } from "../dom.js";
import * as catalog from "../catalog.js";
import { flagHelp, flagLabel } from "../flags.js";
import { Search } from "../search.js";
import { Stepper, extreme } from "../navigate.js";
import { count, unit } from "../words.js";

export function wireNavigation(app) {
  const { state, store, docView, cards } = app;

  const navStatus = $("nav-status");
  const say = (message) => { navStatus.textContent = message; };
  // Select chunk i in the view that is shown, and bring it into sight.
  function goTo(i) {
    if (state.settings.view === "cards") cards.focusCard(i);
    else docView.select(i, true);
  }
  // The stats panel steps through groups of chunks; on a phone it is below the
  // chunks, so the picked one is brought into sight there.
  const stepper = new Stepper((i) => { goTo(i); bringResultsIntoView(); }, say);
  function bringResultsIntoView() {
    const panel = $("results").getBoundingClientRect();
    if (panel.top < 0 || panel.bottom > innerHeight) $("results").scrollIntoView({ block: "start" });
  }
  const search = new Search({
    input: $("find"), prev: $("find-prev"), next: $("find-next"), view: docView, onStatus: say,
    onMatch(i) {
      if (state.settings.view === "cards") app.selectView("document");
      docView.select(i, false); // the search brings the match itself into sight
    },
  });
  // The arrow keys in the document view, told to a screen reader (nav-status is polite).
  docView.onKeyMove = (i) => {
    const c = store.chunks[i];
    say(c ? `Chunk ${fmtInt(i + 1)} of ${fmtInt(store.chunks.length)}, ${count(c.token_count, docView.encoding)}, ${catalog.endsText(c.boundary)}` : "");
  };
  const gotoInput = $("goto");
  function goToTyped() {
    const n = gotoInput.valueAsNumber;
    const total = store.chunks.length;
    if (!total) return say("There are no chunks yet.");
    if (!Number.isInteger(n) || n < 1 || n > total) return say(`Type a chunk number from 1 to ${fmtInt(total)}.`);
    goTo(n - 1);
    say(`Chunk ${fmtInt(n)} of ${fmtInt(total)}.`);
  }
  gotoInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); goToTyped(); } });
  gotoInput.addEventListener("change", goToTyped);
  for (const [id, sign, word] of [["goto-smallest", 1, "smallest"], ["goto-largest", -1, "largest"]]) {
    $(id).addEventListener("click", () => {
      const i = extreme(store.chunks, sign);
      if (i < 0) return say("There are no chunks yet.");
      gotoInput.value = i + 1;
      goTo(i);
      say(`Chunk ${fmtInt(i + 1)} is the ${word}: ${count(store.chunks[i].token_count, docView.encoding)}.`);
    });
  }
  // A histogram bar or a cut reason: each click goes to the next of its chunks.
  const stepOn = {
    bin(b) {
      const indices = store.chunks.filter((c) => c.token_count >= b.lo && c.token_count <= b.hi).map((c) => c.index);
      stepper.step(`bin:${b.lo}`, indices, `with ${fmtInt(b.lo)}–${fmtInt(b.hi)} ${unit(docView.encoding)}`);
    },
    flag(name) {
      const indices = store.chunks.filter((c) => c.flags && c.flags.includes(name)).map((c) => c.index);
      stepper.step(`flag:${name}`, indices, `flagged "${flagLabel[name]}" (${flagHelp[name]})`);
    },
    reason(name) {
      const indices = store.chunks.filter((c) => c.boundary === name).map((c) => c.index);
      stepper.step(`reason:${name}`, indices, `ending ${catalog.reasonText(name)} (${name})`);
    },
  };

  return { say, goTo, stepper, search, stepOn };
}
