// The engine's state in the page: boot progress (and a stall watchdog), the
// catalogue of settings once described, ready or failed.

import * as catalog from "../catalog.js";
import * as settingsStore from "../settings.js";
import { keepOffline } from "../offline.js";
import { EMPTY_TEXT, cmp } from "../ui.js";
import { el } from "../dom.js";

export function wireEngineStatus(app) {
  const { ui, state, docView } = app;

  // A start-up stage that makes no progress for this long is reported as a failure
  // (some failures inside the runtime never reject; a slow machine still finishes well within it).
  const BOOT_STALL_MS = 120_000;
  const BOOT_SLOW_MS = 30_000;
  let stallTimers = [];
  function watchBoot() {
    for (const t of stallTimers) clearTimeout(t);
    if (state.engineState !== "booting") return;
    const at = ui.engineText.textContent;
    stallTimers = [
      setTimeout(() => { ui.engineText.textContent = `${at} This is taking a while on this machine; still working.`; }, BOOT_SLOW_MS),
      setTimeout(() => bootFailed(`Start-up made no progress for ${BOOT_STALL_MS / 1000} s (at: ${at})`), BOOT_STALL_MS),
    ];
  }

  // The choices, defaults and automatic overlap are the engine's (chunkwise.about.describe()):
  // show them, check the stored settings. build.py writes the same catalogue into the
  // manifest, so they show before the engine has booted; the engine sends it again when ready.
  const FIXED_LANGUAGES = [...ui.language.options]; // "Automatic" and "Prose", before the languages
  function describeSettings(describe) {
    if (JSON.stringify(describe) === JSON.stringify(catalog.get())) return;
    catalog.set(describe);
    ui.strategy.replaceChildren(...describe.strategies.map((s) => el("option", { value: s.name }, s.label)));
    ui.encoding.replaceChildren(...describe.encodings.map((e) => el("option", { value: e.name, title: e.help }, e.label)));
    ui.overlapUnit.replaceChildren(...describe.overlap_units.map((u) => el("option", { value: u.name }, u.label)));
    ui.context.replaceChildren(...describe.contexts.map((c) => el("option", { value: c.name }, c.label)));
    ui.language.replaceChildren(...FIXED_LANGUAGES,
      ...(describe.languages || []).map((l) => el("option", { value: l.name }, l.label)));
    ui.language.value = state.language;
    // the page's limit for a size or an overlap (the library takes any): one number, the engine's
    for (const input of [ui.maxTokens, ui.overlap, cmp.size, cmp.overlap]) input.max = describe.limits.max_tokens_max;
    app.fillTokenizerPicker();
    state.settings = settingsStore.normalize(state.settings);
    settingsStore.save(state.settings);
    app.showSettings();
  }
  catalog.fromBuild().then((describe) => { if (describe && state.engineState === "booting") describeSettings(describe); });

  function engineReady({ version, describe, resumed }) {
    state.engineState = "ready";
    watchBoot();
    describeSettings(describe);
    ui.engineStatus.dataset.state = "ready";
    const seconds = (performance.now() / 1000).toFixed(1); // since the page was opened: the worker starts with it (app/boot.js)
    ui.engineText.textContent = `Engine ready (${seconds} s${resumed ? ", resumed" : ""})`;
    ui.engineStatus.title = resumed ? "Resumed from the engine state this browser saved on an earlier visit" : "";
    ui.bootProgress.hidden = true;
    ui.bootError.hidden = true; // a slow start that the watchdog reported did finish after all
    ui.version.textContent = version;
    if (state.source.text) app.run();
    else app.setRunState("idle", "Paste or open a document to see its chunks.");
    if (!state.source.text) docView.placeholder(EMPTY_TEXT);
    keepOffline(); // after the first boot, so its downloads never compete with it
  }

  function bootFailed(message) {
    if (state.engineState === "ready") return;
    state.engineState = "error";
    watchBoot();
    ui.engineStatus.dataset.state = "error";
    ui.engineText.textContent = "Engine failed to start";
    ui.bootProgress.hidden = true;
    ui.bootErrorMessage.textContent = message;
    ui.bootError.hidden = false;
    app.setRunState("error", "The engine is not available.");
  }

  function showBootStage({ label, step, steps }) {
    ui.engineText.textContent = `${label}… (${step}/${steps})`;
    ui.bootProgress.max = steps;
    ui.bootProgress.value = step - 1;
    watchBoot();
  }

  function showRestarted() {
    ui.engineText.textContent = "Engine restarted: the last run broke it";
    ui.bootProgress.hidden = true;
  }

  return { watchBoot, describeSettings, engineReady, bootFailed, showBootStage, showRestarted };
}
