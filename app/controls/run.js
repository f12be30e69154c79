// Running the engine on the document: debounced, streamed into the views, the
// status line, warnings, what the text was read as, the flags; errors in the page's words.

import { $, el, fmtInt } from "../dom.js";
import * as settingsStore from "../settings.js";
import { engineSettings } from "../settings.js";
import { clearStats, renderFlagCounts, renderStats } from "../stats.js";
import { flagAll, flagHelp, flagLabel } from "../flags.js";
import { count, pageWords } from "../words.js";
import { EMPTY_TEXT } from "../ui.js";

const DEBOUNCE_MS = 250;

export function wireRun(app) {
  const { ui, state, engine, store, docView, cards, announcer, statsParts } = app;
  let debounceTimer = 0;
  // The last finished run as shown (its text, chunks, stats, warnings, page settings):
  // what a Cancel puts back.
  let shown = null;

  // The visible status line (updated freely) and what is announced (see announce.js).
  function setRunState(phase, text, progress) {
    ui.runStatus.dataset.state = phase;
    ui.runText.textContent = text;
    ui.runProgress.hidden = progress == null;
    ui.cancelRun.hidden = phase !== "running";
    if (progress != null) ui.runProgress.value = progress;
    if (phase === "running") announcer.progress(text);
    else if (phase === "pending") announcer.quiet();
    else announcer.result(text);
  }

  // Before the engine runs: say that the text is kept and will be chunked.
  function showWaiting() {
    if (state.engineState === "error") return;
    setRunState("pending", "Waiting for the engine to start…");
    docView.placeholder(state.source.sample ? "The sample document will be chunked as soon as the engine has started (see the top right)."
      : state.source.text
      ? "Your text is here. It will be chunked as soon as the engine has started (see the top right)."
      : EMPTY_TEXT);
  }

  function schedule() {
    clearTimeout(debounceTimer);
    app.setDownloads(false);
    // A run still going (or still being drawn) is for a text or settings the page no
    // longer has: it stops, so its end is not shown as done, with downloads and as the
    // result a Cancel or an uncached tokenizer goes back to, while the edit waits.
    if (state.run && state.run !== shown?.run) {
      engine.cancel();
      state.run = null;
    }
    if (state.engineState === "ready") setRunState("pending", "Waiting for you to stop typing…");
    else showWaiting();
    debounceTimer = setTimeout(run, DEBOUNCE_MS);
  }

  function run() {
    clearTimeout(debounceTimer);
    app.setDownloads(false);
    ui.runError.hidden = true;
    if (state.engineState !== "ready") {
      showWaiting();
      return; // engineReady runs it
    }
    const src = state.source;
    const text = src.text;
    const encoding = state.settings.encoding;
    docView.encoding = cards.encoding = encoding; // the unit the views name
    store.reset(text);
    state.lastStats = null;
    app.search.reset();
    app.stepper.reset();
    app.say("");
    if (!text) {
      state.run = shown = null;
      engine.supersede();
      showWarnings([]);
      clearStats(statsParts);
      $("flag-counts").replaceChildren();
      setRunState("idle", "Paste or open a document to see its chunks.");
      docView.placeholder(EMPTY_TEXT);
      return;
    }
    const started = performance.now();
    let warnings = [];
    engine.setText(text); // sent only when it changed: a settings change sends only the settings
    const run = (state.run = engine.chunk({ ...engineSettings(state.settings), language: state.language, filename: src.name }, {
      onStart(w, size, lang, reading) {
        showReading(src, reading);
        showLanguage(lang);
        warnings = w;
        src.size = size;
        if (src === state.source) app.showSourceInfo();
        showWarnings(w);
        setRunState("running", "Chunking…", 0);
        if (!docView.content || docView.content.classList.contains("doc-placeholder")) docView.placeholder("Chunking…");
      },
      onChunks(chunks, progress) {
        store.add(chunks);
        setRunState("running", `Chunking… ${Math.floor(progress * 100)}% · ${fmtInt(store.chunks.length)} chunks so far`, progress);
      },
    }));
    Object.assign(run, { text, settings: state.settings });
    setRunState("running", "Chunking…", 0);
    run.done.then(async (stats) => {
      if (!stats || run !== state.run) return; // superseded
      run.warnings = [...new Set([...warnings, ...stats.warnings])];
      showWarnings(run.warnings);
      renderStats(stats, statsParts, encoding, app.stepOn);
      docView.setParents(run.parents);
      await store.finish();
      if (run !== state.run) return; // superseded while rendering
      if ($("find").value) app.search.refresh(); // the matches in the new rendering
      showFlags(flagAll(store.chunks, store.text, stats.budget, new Set(run.midSentence)));
      if (state.files) {
        const set = state.files;
        set.stats = null;
        app.showMany();
        try {
          set.stats = await engine.runFiles(engineSettings(state.settings));
        } catch (err) {
          set.stats = null;
          ui.runError.replaceChildren(el("strong", {}, "The engine failed on one of the files: "), err.message);
          ui.runError.hidden = false;
        }
        if (run !== state.run || set !== state.files) return; // superseded meanwhile
        app.showMany();
      }
      app.setDownloads(true);
      state.lastStats = stats;
      shown = { run, text: store.text, chunks: store.chunks, stats };
      app.runCompare(); // B again, against the new A
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      setRunState("done", stats.chunk_count
        ? `${fmtInt(stats.chunk_count)} chunk${stats.chunk_count === 1 ? "" : "s"} from ${count(stats.source_tokens, encoding)} in ${secs} s`
        : `No chunks: the text is only whitespace (${count(stats.source_tokens, encoding)}), and chunks leave whitespace out.`);
    }, async (err) => {
      if (run !== state.run) return;
      if (err.code === "tokenizer-offline") return keepPrevious(err.message);
      ui.runError.replaceChildren(
        el("strong", {}, "The engine failed on this input: "), err.message,
        el("br"), err.restarted
          ? "Change the text or a setting to chunk again; if this input keeps breaking it, please report it."
          : "Try other settings; if it keeps failing, please report it together with the input.");
      ui.runError.hidden = false;
      setRunState("error", "Chunking failed.");
    });
  }

  // Cancel: the run stops in the worker, and the last finished result is shown again as
  // it was. On the same text its settings come back too, and so do its downloads (the
  // worker still holds that result); a new text stays in the box, not chunked.
  ui.cancelRun.addEventListener("click", async () => {
    const result = shown;
    engine.cancel();
    $("results").focus({ preventScroll: true }); // (the button goes)
    if (!result || state.files) {
      state.run = null;
      docView.placeholder("Cancelled: nothing was chunked.");
      return setRunState("cancelled", "Cancelled. Nothing was chunked: edit the text or change a setting to chunk it.");
    }
    const sameText = await restore(result);
    if (sameText == null) return; // a newer run meanwhile
    const { max_tokens: size, overlap } = result.run.settings;
    // (a file opened again replaced the engine's document, and that result's downloads with it)
    const gone = sameText && !engine.holds(result.run) ? " It is no longer in the engine: change a setting to chunk it again for the downloads." : "";
    setRunState("cancelled", sameText
      ? `Cancelled. The previous result is shown: size ${fmtInt(size)}, overlap ${fmtInt(overlap)}.${gone}`
      : `Cancelled. The chunks shown are those of the text before (${fmtInt(result.text.length)} characters); this text is not chunked: edit it or change a setting to chunk it.`);
  });

  // A preset's tokenizer that this device has never fetched, offline: the settings
  // before stay in force, with their result, and the page says why.
  async function keepPrevious(message) {
    const result = shown;
    ui.runError.replaceChildren(el("strong", {}, message), " ",
      result ? "The settings before are kept." : "Choose another tokenizer to chunk offline.");
    ui.runError.hidden = false;
    if (result && !state.files && result.run.text === state.source.text) {
      if (await restore(result) == null) return;
      return setRunState("error", `${message} The settings before are kept.`);
    }
    state.run = null;
    setRunState("error", message);
  }

  // Show a finished result again as it was: on the same text its settings come back too,
  // and so do its downloads (the worker still holds that result). -> whether the text was
  // the same, or null when a newer run began meanwhile.
  async function restore(result) {
    const sameText = result.run.text === state.source.text;
    if (sameText) {
      state.settings = settingsStore.normalize({ ...result.run.settings, view: state.settings.view, textHeaders: state.settings.textHeaders });
      settingsStore.save(state.settings);
      app.showSettings();
    }
    state.run = result.run;
    state.lastStats = result.stats;
    docView.encoding = cards.encoding = result.run.settings.encoding;
    store.reset(result.text);
    store.add(result.chunks);
    showWarnings(result.run.warnings);
    renderStats(result.stats, statsParts, result.run.settings.encoding, app.stepOn);
    docView.setParents(result.run.parents);
    await store.finish();
    if (state.run !== result.run) return null;
    showFlags(flagAll(store.chunks, store.text, result.stats.budget, new Set(result.run.midSentence || [])));
    app.setDownloads(sameText && engine.holds(result.run));
    return sameText;
  }

  // Which text the run chunks: the page's own, or the engine's reading of it (pasted HTML
  // extracted, an HTML file's markup), which the views then show; a PDF's pages.
  function showReading(src, reading) {
    if (reading.text != null) store.reset(reading.text);
    docView.setPages(reading.document?.page_starts);
    app.showHtmlChoice(reading.html);
    if (reading.document && !src.file && !src.htmlNoticed) { // said once per pasted text
      src.htmlNoticed = true;
      const before = ui.inputNotice.hidden ? "" : ui.inputNotice.textContent;
      app.notice([before, `This text is an HTML document (it starts with <!DOCTYPE html> or <html>): its text was extracted, as from an opened .html file. ${reading.document.notice}. To chunk the markup itself, choose “HTML markup” as the language.`].filter(Boolean).join(" "));
    }
  }

  // "Read as Python (from the file name parser.py)": what the run assumed.
  function showLanguage(lang) {
    if (!lang) return;
    const how = state.language === "auto" ? ` (${lang.note})` : "";
    ui.languageNote.textContent = lang.name === "text"
      ? `Read as prose${how}.`
      : `Read as ${lang.label}${how}: cuts between definitions; the section is the definition path.`;
    ui.languageNote.dataset.language = lang.name;
  }

  // The flag counts (stats panel, each a step-through) and the chunk list's filter.
  const cardFilter = $("card-filter");
  function showFlags(counts) {
    renderFlagCounts($("flag-counts"), counts, flagLabel, app.stepOn.flag);
    const keep = cardFilter.value;
    cardFilter.replaceChildren(el("option", { value: "" }, "all chunks"),
      ...Object.entries(counts).map(([f, n]) => el("option", { value: f, disabled: !n && f !== keep }, `${flagLabel[f]}: ${fmtInt(n)} (${flagHelp[f]})`)));
    cardFilter.value = keep;
    cards.setFilter(cardFilter.value || null);
  }
  cardFilter.addEventListener("change", () => cards.setFilter(cardFilter.value || null));
  cards.onUnfilter = () => { cardFilter.value = ""; cards.setFilter(null); };

  function showWarnings(list) {
    ui.warnings.replaceChildren(...list.map((w) => el("li", { "data-testid": "warning" }, pageWords(w, state.settings.encoding))));
    ui.warnings.hidden = !list.length;
  }

  return { setRunState, schedule, run, showWarnings };
}
