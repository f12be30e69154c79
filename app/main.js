// The page's wiring: input -> settings -> engine (worker) -> views.

import { $, el, fmtBytes, fmtInt } from "./dom.js";
import { Engine } from "./engine.js";
import * as catalog from "./catalog.js";
import * as settingsStore from "./settings.js";
import { SIZE_PRESETS, engineSettings } from "./settings.js";
import { wireInput, wellFormed } from "./input.js";
import { DocumentView } from "./docview.js";
import { CardList } from "./cards.js";
import { ChunkStore } from "./chunks.js";
import { keepOffline } from "./offline.js";
import { clearStats, renderStats } from "./stats.js";
import { downloadName, saveBytes } from "./downloads.js";

const DEBOUNCE_MS = 250;
// Above this many UTF-16 units the text is kept out of the visible textarea:
// Chrome needs ~0.7 s to lay out 5 MB there and over a second per keystroke.
const LARGE_TEXT = 1_000_000;

const ui = {
  engineStatus: $("engine-status"), engineText: $("engine-status-text"), bootProgress: $("boot-progress"),
  bootError: $("boot-error"), bootErrorMessage: $("boot-error-message"), staticHint: $("static-hint"),
  textarea: $("source-text"), largeNote: $("large-note"), largeSize: $("large-size"), editLarge: $("edit-large"),
  fileInput: $("file-input"), openFile: $("open-file"), clear: $("clear-text"),
  dropzone: $("dropzone"), sourceInfo: $("source-info"), inputNotice: $("input-notice"),
  strategy: $("strategy"), strategyHelp: $("strategy-help"), language: $("language"), languageNote: $("language-note"), sizePreset: $("size-preset"), maxTokens: $("max-tokens"),
  overlap: $("overlap"), overlapAuto: $("overlap-auto"), overlapHelp: $("overlap-help"), encoding: $("encoding"),
  runStatus: $("run-status"), runText: $("run-status-text"), runProgress: $("run-progress"),
  warnings: $("warnings"), runError: $("run-error"),
  tabDocument: $("tab-document"), tabCards: $("tab-cards"), documentPane: $("document-pane"), cardsPane: $("cards-pane"),
  stats: $("stats"), histogram: $("histogram"), reasons: $("boundary-counts"),
  downloads: [$("download-jsonl"), $("download-json"), $("download-text")], headers: $("text-headers"),
  downloadHint: $("download-hint"), version: $("engine-version"),
};

let settings = settingsStore.load();
// The text being chunked. `name` is the opened file's name (for download names).
let source = { text: "", name: null, size: null, onDisk: null };
// What the text is read as: "auto" (the file name's language, else strong signals
// in the text), "text" (prose) or a language; the engine says what it assumed.
let language = "auto";
let current = null; // the current run (engine.js Run): id, done promise, export()
let engineState = "booting"; // "booting" | "ready" | "error"
let debounceTimer = 0;
const bootStarted = performance.now();
let editLarge = false; // the user asked to edit a large text in the textarea anyway

const docView = new DocumentView($("document-view"), $("chunk-inspector"));
const cards = new CardList($("chunk-cards"), $("cards-more"), (msg) => { ui.downloadHint.textContent = msg; });
const store = new ChunkStore([docView, cards]); // one list of chunks feeds both views

ui.staticHint.hidden = true; // JavaScript runs: the static fallback hint is not needed

// --- engine boot --------------------------------------------------------------

// A start-up stage that makes no progress for this long is reported as a failure
// (some failures inside the runtime never reject; a slow machine still finishes well within it).
const BOOT_STALL_MS = 120_000;
const BOOT_SLOW_MS = 30_000;
let stallTimers = [];
function watchBoot() {
  for (const t of stallTimers) clearTimeout(t);
  if (engineState !== "booting") return;
  const at = ui.engineText.textContent;
  stallTimers = [
    setTimeout(() => { ui.engineText.textContent = `${at} This is taking a while on this machine; still working.`; }, BOOT_SLOW_MS),
    setTimeout(() => bootFailed(`Start-up made no progress for ${BOOT_STALL_MS / 1000} s (at: ${at})`), BOOT_STALL_MS),
  ];
}

const engine = new Engine({
  onBoot({ label, step, steps }) {
    ui.engineText.textContent = `${label}… (${step}/${steps})`;
    ui.bootProgress.max = steps;
    ui.bootProgress.value = step - 1;
    watchBoot();
  },
});
engine.booted.then(engineReady, (err) => bootFailed(err.message));
watchBoot();

function engineReady({ version, describe }) {
  engineState = "ready";
  watchBoot();
  catalog.set(describe);
  // The choices, defaults and automatic overlap are the engine's: show them, check the stored settings.
  ui.strategy.replaceChildren(...describe.strategies.map((s) => el("option", { value: s.name }, s.label)));
  ui.encoding.replaceChildren(...describe.encodings.map((e) => el("option", { value: e.name, title: e.help }, e.label)));
  ui.language.append(...(describe.languages || []).map((l) => el("option", { value: l.name }, l.label)));
  settings = settingsStore.normalize(settings);
  settingsStore.save(settings);
  showSettings();
  ui.engineStatus.dataset.state = "ready";
  ui.engineText.textContent = `Engine ready (${((performance.now() - bootStarted) / 1000).toFixed(1)} s)`;
  ui.bootProgress.hidden = true;
  ui.bootError.hidden = true; // a slow start that the watchdog reported did finish after all
  ui.version.textContent = version;
  if (source.text) run();
  else setRunState("idle", "Paste or open a document to see its chunks.");
  keepOffline(); // after the first boot, so its downloads never compete with it
}

function bootFailed(message) {
  if (engineState === "ready") return;
  engineState = "error";
  watchBoot();
  ui.engineStatus.dataset.state = "error";
  ui.engineText.textContent = "Engine failed to start";
  ui.bootProgress.hidden = true;
  ui.bootErrorMessage.textContent = message;
  ui.bootError.hidden = false;
  setRunState("error", "The engine is not available.");
}

// --- settings controls --------------------------------------------------------

function showSettings() {
  // Before the engine has described its settings some are not known yet (null).
  if (settings.strategy) ui.strategy.value = settings.strategy;
  ui.strategyHelp.textContent = catalog.strategyHelp(settings.strategy);
  if (settings.encoding) ui.encoding.value = settings.encoding;
  if (settings.max_tokens == null) ui.maxTokens.value = "";
  else if (Number(ui.maxTokens.value) !== settings.max_tokens) ui.maxTokens.value = settings.max_tokens;
  if (settings.max_tokens != null) ui.sizePreset.value = SIZE_PRESETS.includes(settings.max_tokens) ? String(settings.max_tokens) : "custom";
  if (settings.overlap == null) ui.overlap.value = ""; // the engine has not described its rule yet
  else if (Number(ui.overlap.value) !== settings.overlap || ui.overlap.value === "") ui.overlap.value = settings.overlap;
  ui.overlapAuto.disabled = settings.overlapAuto;
  const auto = catalog.defaultOverlap(settings.max_tokens);
  ui.overlapHelp.textContent = settings.overlapAuto
    ? `Automatic: ${catalog.overlapRule() || "set by the engine"}. Type a number to set your own.`
    : `Set by you. "Auto" goes back to ${catalog.overlapRule() || "the engine's default"}${auto == null ? "" : ` (${auto})`}.`;
  ui.headers.checked = settings.headers;
  showView(settings.view);
}

function changeSettings(patch) {
  settings = settingsStore.normalize({ ...settings, ...patch });
  settingsStore.save(settings);
  showSettings();
  schedule();
}

ui.strategy.addEventListener("change", () => changeSettings({ strategy: ui.strategy.value }));
ui.language.addEventListener("change", () => { language = ui.language.value; schedule(); });
// A new file, or a cleared text, is read by its own name or content again.
function resetLanguage() { language = ui.language.value = "auto"; }
ui.encoding.addEventListener("change", () => changeSettings({ encoding: ui.encoding.value }));
ui.sizePreset.addEventListener("change", () => {
  if (ui.sizePreset.value === "custom") ui.maxTokens.focus();
  else changeSettings({ max_tokens: Number(ui.sizePreset.value) });
});
ui.maxTokens.addEventListener("input", () => {
  const n = ui.maxTokens.valueAsNumber;
  if (Number.isInteger(n) && n >= 1) changeSettings({ max_tokens: n });
});
ui.overlap.addEventListener("input", () => {
  const n = ui.overlap.valueAsNumber;
  if (Number.isInteger(n) && n >= 0) changeSettings({ overlap: n, overlapAuto: false });
});
// Put back what is in force if the user leaves a field empty or invalid.
for (const input of [ui.maxTokens, ui.overlap]) input.addEventListener("change", () => showSettings());
ui.overlapAuto.addEventListener("click", () => changeSettings({ overlapAuto: true }));
ui.headers.addEventListener("change", () => {
  settings = settingsStore.normalize({ ...settings, headers: ui.headers.checked });
  settingsStore.save(settings);
});

// --- views (tabs) ---------------------------------------------------------------

function showView(view) {
  const cardsOn = view === "cards";
  ui.tabDocument.setAttribute("aria-selected", String(!cardsOn));
  ui.tabCards.setAttribute("aria-selected", String(cardsOn));
  ui.tabDocument.tabIndex = cardsOn ? -1 : 0;
  ui.tabCards.tabIndex = cardsOn ? 0 : -1;
  ui.documentPane.hidden = cardsOn;
  ui.cardsPane.hidden = !cardsOn;
  cards.show(cardsOn);
}
function selectView(view, focus) {
  settings = settingsStore.normalize({ ...settings, view });
  settingsStore.save(settings);
  showView(view);
  if (focus) (view === "cards" ? ui.tabCards : ui.tabDocument).focus();
}
ui.tabDocument.addEventListener("click", () => selectView("document"));
ui.tabCards.addEventListener("click", () => selectView("cards"));
$("view-tabs").addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    e.preventDefault();
    selectView(settings.view === "cards" ? "document" : "cards", true);
  }
});

// --- input --------------------------------------------------------------------

// "notes.md · 12,345 characters · 13.1 KB". The sizes come from the worker
// (measured off the main thread) once a run starts.
function showSourceInfo() {
  const { text, name, size, onDisk } = source;
  const parts = [];
  if (name) parts.push(name);
  if (text && size) parts.push(`${fmtInt(size.chars)} characters`, fmtBytes(size.bytes));
  if (onDisk != null) parts.push(`${fmtBytes(onDisk)} on disk`);
  ui.sourceInfo.textContent = text || name ? parts.join(" · ") : "";
}

function notice(message) {
  ui.inputNotice.textContent = message || "";
  ui.inputNotice.hidden = !message;
}

// Put text into the textarea. A large text is kept out of it: a textarea
// holding megabytes costs the browser most of a second to set and lay out,
// and over a second per keystroke. The note offers to edit it there anyway.
function showText(text, caret) {
  if (text.length > LARGE_TEXT) editLarge = false;
  const large = text.length > LARGE_TEXT;
  ui.textarea.value = large ? "" : text;
  if (!large && caret != null) ui.textarea.selectionStart = ui.textarea.selectionEnd = caret;
  showLarge(text);
}
function showLarge(text) {
  const large = text.length > LARGE_TEXT && !editLarge;
  ui.dropzone.classList.toggle("large", large);
  ui.largeNote.hidden = !large;
  if (large) ui.largeSize.textContent = `about ${(text.length / 1e6).toFixed(1)} million characters`;
}
ui.editLarge.addEventListener("click", () => {
  editLarge = true;
  ui.textarea.value = source.text; // slow for megabytes, but asked for
  showLarge(source.text);
  ui.textarea.focus();
});

function setSource(text, name, replacedSurrogates) {
  source = { text, name: text ? name : null, size: null, onDisk: null };
  notice(replacedSurrogates ? `${fmtInt(replacedSurrogates)} unpaired surrogate code unit${replacedSurrogates === 1 ? " was" : "s were"} replaced with U+FFFD (\uFFFD).` : "");
  showSourceInfo();
}

wireInput({
  textarea: ui.textarea, largeNote: ui.largeNote, fileInput: ui.fileInput, openButton: ui.openFile, clearButton: ui.clear,
  dropzone: ui.dropzone,
  onText(value, replacedAll) {
    const { text, replaced } = wellFormed(value);
    setSource(text, replacedAll ? null : source.name, replaced);
    if (text.length <= LARGE_TEXT) editLarge = false;
    showLarge(text);
    schedule();
  },
  onPaste(value, caret, replacedAll) {
    const { text, replaced } = wellFormed(value);
    showText(value, caret);
    setSource(text, replacedAll ? null : source.name, replaced);
    run(); // a paste is a complete edit: no need to wait for more typing
  },
  async onFile(file) {
    setRunState("pending", `Opening ${file.name}…`);
    notice("");
    try {
      const bytes = await file.arrayBuffer();
      await engine.booted;
      // The worker decodes the bytes and keeps the text as its document: it does not cross back.
      const { text, info, size } = await engine.open(bytes);
      showText(text); // shown for editing; `source.text` keeps CRLF exactly as decoded
      source = { text, name: file.name, size, onDisk: file.size };
      resetLanguage();
      const messages = [];
      if (info.message) messages.push(info.message);
      else if (info.replaced) messages.push(`${fmtInt(info.replaced)} undecodable byte sequence(s) replaced with U+FFFD.`);
      notice(messages.join(" "));
      showSourceInfo();
      run();
    } catch (err) {
      setRunState("error", `Could not open ${file.name}: ${err.message}`);
    }
  },
  onClear() {
    resetLanguage();
    showText("");
    setSource("", null, 0);
    run();
    ui.textarea.focus();
  },
});

// --- running the engine --------------------------------------------------------

function setRunState(state, text, progress) {
  ui.runStatus.dataset.state = state;
  ui.runText.textContent = text;
  ui.runProgress.hidden = progress == null;
  if (progress != null) ui.runProgress.value = progress;
}

function schedule() {
  clearTimeout(debounceTimer);
  setDownloads(false);
  if (engineState === "ready") setRunState("pending", "Waiting for you to stop typing…");
  debounceTimer = setTimeout(run, DEBOUNCE_MS);
}

function run() {
  clearTimeout(debounceTimer);
  setDownloads(false);
  ui.runError.hidden = true;
  if (engineState !== "ready") {
    if (engineState === "booting") setRunState("pending", "Waiting for the engine to start…");
    return; // engineReady runs it
  }
  const src = source;
  const text = src.text;
  store.reset(text);
  if (!text) {
    current = null;
    engine.supersede();
    showWarnings([]);
    clearStats(ui.stats, ui.histogram, ui.reasons);
    setRunState("idle", "Paste or open a document to see its chunks.");
    return;
  }
  const started = performance.now();
  let warnings = [];
  engine.setText(text); // sent only when it changed: a settings change sends only the settings
  const run = (current = engine.chunk({ ...engineSettings(settings), language, filename: src.name }, {
    onStart(w, size, lang) {
      showLanguage(lang);
      warnings = w;
      src.size = size;
      if (src === source) showSourceInfo();
      showWarnings(w);
      setRunState("running", "Chunking…", 0);
    },
    onChunks(chunks, progress) {
      store.add(chunks);
      setRunState("running", `Chunking… ${Math.floor(progress * 100)}% · ${fmtInt(store.chunks.length)} chunks so far`, progress);
    },
  }));
  setRunState("running", "Chunking…", 0);
  run.done.then(async (stats) => {
    if (!stats || run !== current) return; // superseded
    showWarnings([...new Set([...warnings, ...stats.warnings])]);
    renderStats(stats, ui.stats, ui.histogram, ui.reasons);
    await store.finish();
    if (run !== current) return; // superseded while rendering
    setDownloads(true);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    setRunState("done", `${fmtInt(stats.chunk_count)} chunk${stats.chunk_count === 1 ? "" : "s"} from ${fmtInt(stats.source_tokens)} tokens in ${secs} s`);
  }, (err) => {
    if (run !== current) return;
    ui.runError.replaceChildren(
      el("strong", {}, "The engine failed on this input: "), err.message,
      el("br"), "Try other settings; if it keeps failing, please report it together with the input.");
    ui.runError.hidden = false;
    setRunState("error", "Chunking failed.");
  });
}

// "Read as Python (from the file name parser.py)": what the run assumed.
function showLanguage(lang) {
  if (!lang) return;
  const how = language === "auto" ? ` (${lang.note})` : "";
  ui.languageNote.textContent = lang.name === "text"
    ? `Read as prose${how}.`
    : `Read as ${lang.label}${how}: cuts between definitions; the section is the definition path.`;
  ui.languageNote.dataset.language = lang.name;
}

function showWarnings(list) {
  ui.warnings.replaceChildren(...list.map((w) => el("li", { "data-testid": "warning" }, w)));
  ui.warnings.hidden = !list.length;
}

// --- downloads -------------------------------------------------------------------

function setDownloads(on) {
  for (const b of ui.downloads) b.disabled = !on;
  ui.downloadHint.textContent = on ? "" : "Available once chunking has finished.";
}

for (const button of ui.downloads) {
  button.addEventListener("click", async () => {
    const fmt = button.dataset.format;
    if (!current || !current.finished) return;
    try {
      const bytes = await current.export(fmt, fmt === "text" && settings.headers);
      const name = downloadName(source.name, fmt);
      saveBytes(bytes, name, fmt);
      ui.downloadHint.textContent = `Saved ${name} (${fmtBytes(bytes.byteLength)}).`;
    } catch (err) {
      ui.downloadHint.textContent = `Download failed: ${err.message}`;
    }
  });
}

showSettings();
setDownloads(false);
clearStats(ui.stats, ui.histogram, ui.reasons);
