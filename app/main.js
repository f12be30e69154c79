// The page's composition root: the state, the views and the engine, and the
// panels (app/controls/) that wire them together. boot.js calls start() with
// the engine's worker, which it started first.
//
// Data flow: input (controls/source.js) -> settings (controls/settings.js) ->
// a run (controls/run.js: engine.js -> worker.js -> chunkwise) -> the views
// (docview.js, cards.js through chunks.js), the stats, downloads and compare.
// Each panel's functions are gathered on one `app` object, so one panel calls
// another's (app.run(), app.notice()) without importing it.

import { $ } from "./dom.js";
import { Engine } from "./engine.js";
import { DocumentView } from "./docview.js";
import { CardList } from "./cards.js";
import { ChunkStore } from "./chunks.js";
import { clearStats } from "./stats.js";
import { Announcer } from "./announce.js";
import { UndoToast } from "./undo.js";
import { EMPTY_TEXT, statsParts, ui } from "./ui.js";
import { initialState } from "./state.js";
import { wireEngineStatus } from "./controls/engine-status.js";
import { wireNavigation } from "./controls/navigation.js";
import { wireSettings } from "./controls/settings.js";
import { wireTabs } from "./controls/tabs.js";
import { wireCompare } from "./controls/compare.js";
import { wireSource } from "./controls/source.js";
import { wireRun } from "./controls/run.js";
import { wireDownloads } from "./controls/downloads.js";

export function start(spawned) {
  ui.staticHint.hidden = true; // JavaScript runs: the static fallback hint is not needed

  const docView = new DocumentView($("document-view"), $("chunk-inspector"));
  const cards = new CardList($("chunk-cards"), $("cards-more"), (msg) => app.say(msg)); // (a copied chunk, said where the downloads are)
  const app = {
    ui, statsParts, docView, cards,
    state: initialState(),
    store: new ChunkStore([docView, cards]), // one list of chunks feeds both views
    announcer: new Announcer(ui.announce),
    undo: new UndoToast({ box: $("toast"), text: $("toast-text"), button: $("toast-undo"), textarea: ui.textarea }),
  };
  Object.assign(app, wireEngineStatus(app));
  app.engine = new Engine(spawned, { onBoot: app.showBootStage, onRestarted: app.showRestarted });
  app.engine.booted.then(app.engineReady, (err) => app.bootFailed(err.message));
  app.watchBoot();
  for (const wire of [wireNavigation, wireSettings, wireTabs, wireCompare, wireSource, wireRun, wireDownloads]) {
    Object.assign(app, wire(app));
  }

  app.showSettings();
  app.setDownloads(false);
  clearStats(statsParts);
  docView.placeholder(EMPTY_TEXT);

  // Text typed or pasted before these modules had loaded (the engine's worker
  // starts first and the page after it: boot.js) is the document, as if typed now.
  if (ui.textarea.value) ui.textarea.dispatchEvent(new Event("input"));
  else if (!app.restoreKept()) app.showSample(); // the text from before a reload of this tab, else a first visit's sample
}
