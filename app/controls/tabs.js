// The result views' tabs: the document, the chunk list, compare.

import { $ } from "../dom.js";
import * as settingsStore from "../settings.js";

export function wireTabs(app) {
  const { ui, state, cards } = app;

  const VIEWS = ["document", "cards", "compare"];
  const viewParts = () => ({
    document: [ui.tabDocument, ui.documentPane], cards: [ui.tabCards, ui.cardsPane], compare: [$("tab-compare"), $("compare-pane")],
  });
  function showView(view) {
    for (const [name, [tab, pane]] of Object.entries(viewParts())) {
      tab.setAttribute("aria-selected", String(name === view));
      tab.tabIndex = name === view ? 0 : -1;
      pane.hidden = name !== view;
    }
    cards.show(view === "cards");
    if (view === "compare") app.prepareCompare();
  }
  function selectView(view, focus) {
    state.settings = settingsStore.normalize({ ...state.settings, view });
    settingsStore.save(state.settings);
    showView(view);
    if (focus) viewParts()[view][0].focus();
  }
  ui.tabDocument.addEventListener("click", () => selectView("document"));
  ui.tabCards.addEventListener("click", () => selectView("cards"));
  $("tab-compare").addEventListener("click", () => selectView("compare"));
  $("view-tabs").addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
    if (!step) return;
    e.preventDefault();
    const i = VIEWS.indexOf(state.settings.view);
    selectView(VIEWS[(i + step + VIEWS.length) % VIEWS.length], true);
  });

  return { showView, selectView };
}
