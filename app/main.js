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
import { clearStats, renderFlagCounts, renderStats } from "./stats.js";
import { flagAll, flagHelp, flagLabel } from "./flags.js";
import { downloadName, saveBytes } from "./downloads.js";
import { count, pageWords, unit } from "./words.js";
import { checkNumber, markValidity } from "./fields.js";
import { Announcer } from "./announce.js";
import { UndoToast } from "./undo.js";
import { EOL_NAMES, lineEndings, withLineEndings } from "./eol.js";
import { FILE_ENCODINGS, readFile } from "./openfile.js";
import { Search } from "./search.js";
import { Stepper, extreme } from "./navigate.js";
import { commandLine, fromHash, pythonCode, toHash } from "./share.js";
import { renderComparison } from "./compare.js";

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
  strategy: $("strategy"), strategyHelp: $("strategy-help"), encodingHelp: $("encoding-help"), language: $("language"), languageNote: $("language-note"), sizePreset: $("size-preset"), maxTokens: $("max-tokens"),
  overlap: $("overlap"), overlapAuto: $("overlap-auto"), overlapHelp: $("overlap-help"),
  overlapUnit: $("overlap-unit"), overlapUnitHelp: $("overlap-unit-help"), encoding: $("encoding"), tokenizerFile: $("tokenizer-file"),
  runStatus: $("run-status"), runText: $("run-status-text"), runProgress: $("run-progress"),
  warnings: $("warnings"), runError: $("run-error"),
  tabDocument: $("tab-document"), tabCards: $("tab-cards"), documentPane: $("document-pane"), cardsPane: $("cards-pane"),
  maxTokensError: $("max-tokens-error"), overlapError: $("overlap-error"), announce: $("run-announce"),
  stats: $("stats"), histogram: $("histogram"), histogramCaption: $("histogram-caption"), reasons: $("boundary-counts"),
  downloads: [$("download-jsonl"), $("download-json"), $("download-text")], headers: $("text-headers"),
  downloadHint: $("download-hint"), version: $("engine-version"),
  encodingRow: $("file-encoding-row"), fileEncoding: $("file-encoding"),
  copyCli: $("copy-cli"), copyPython: $("copy-python"), copied: $("copied"),
};

// Settings named in the address (a shared setup) win over the stored ones.
let settings = settingsStore.normalize({ ...settingsStore.load(), ...fromHash(location.hash) });
// The text being chunked. `name` is the opened file's name (for download names).
let source = { text: "", name: null, size: null, onDisk: null };
// What the text is read as: "auto" (the file name's language, else strong signals
// in the text), "text" (prose) or a language; the engine says what it assumed.
let language = "auto";
let current = null; // the current run (engine.js Run): id, done promise, export()
let engineState = "booting"; // "booting" | "ready" | "error"
let debounceTimer = 0;
let editLarge = false; // the user asked to edit a large text in the textarea anyway

const statsParts = { dl: ui.stats, hist: ui.histogram, caption: ui.histogramCaption, reasons: ui.reasons };
const announcer = new Announcer(ui.announce);
const undo = new UndoToast({ box: $("toast"), text: $("toast-text"), button: $("toast-undo"), textarea: ui.textarea });
const docView = new DocumentView($("document-view"), $("chunk-inspector"));
const cards = new CardList($("chunk-cards"), $("cards-more"), (msg) => { ui.downloadHint.textContent = msg; });
const store = new ChunkStore([docView, cards]); // one list of chunks feeds both views

// --- navigation: find, go to a chunk, step through a group -----------------------

const navStatus = $("nav-status");
const say = (message) => { navStatus.textContent = message; };
// Select chunk i in the view that is shown, and bring it into sight.
function goTo(i) {
  if (settings.view === "cards") cards.focusCard(i);
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
    if (settings.view === "cards") selectView("document");
    docView.select(i, false); // the search brings the match itself into sight
  },
});
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
  onRestarted() {
    ui.engineText.textContent = "Engine restarted: the last run broke it";
    ui.bootProgress.hidden = true;
  },
});
engine.booted.then(engineReady, (err) => bootFailed(err.message));
watchBoot();

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
  ui.language.replaceChildren(...FIXED_LANGUAGES,
    ...(describe.languages || []).map((l) => el("option", { value: l.name }, l.label)));
  ui.language.value = language;
  // the page's limit for a size or an overlap (the library takes any): one number, the engine's
  for (const input of [ui.maxTokens, ui.overlap, cmp.size, cmp.overlap]) input.max = describe.limits.max_tokens_max;
  fillTokenizerPicker();
  settings = settingsStore.normalize(settings);
  settingsStore.save(settings);
  showSettings();
}
catalog.fromBuild().then((describe) => { if (describe && engineState === "booting") describeSettings(describe); });

function engineReady({ version, describe, resumed }) {
  engineState = "ready";
  watchBoot();
  describeSettings(describe);
  ui.engineStatus.dataset.state = "ready";
  const seconds = (performance.now() / 1000).toFixed(1); // since the page was opened: the worker starts with it (app/spawn.js)
  ui.engineText.textContent = `Engine ready (${seconds} s${resumed ? ", resumed" : ""})`;
  ui.engineStatus.title = resumed ? "Resumed from the engine state this browser saved on an earlier visit" : "";
  ui.bootProgress.hidden = true;
  ui.bootError.hidden = true; // a slow start that the watchdog reported did finish after all
  ui.version.textContent = version;
  if (source.text) run();
  else setRunState("idle", "Paste or open a document to see its chunks.");
  if (!source.text) docView.placeholder(EMPTY_TEXT);
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

const EMPTY_TEXT = "No document yet: paste text into the box above, or open a file.";

function showSettings() {
  showHash();
  for (const span of document.querySelectorAll(".unit-plural")) span.textContent = unit(settings.encoding);
  ui.maxTokens.setAttribute("aria-label", `Chunk size in ${unit(settings.encoding)}`);
  // Before the engine has described its settings some are not known yet (null).
  if (settings.strategy) ui.strategy.value = settings.strategy;
  ui.strategyHelp.textContent = catalog.strategyHelp(settings.strategy);
  if (settings.encoding) ui.encoding.value = settings.model ? `${MODEL}${settings.model}` : settings.encoding;
  ui.encodingHelp.textContent = tokenizerHelp();
  if (settings.max_tokens == null) ui.maxTokens.value = "";
  else if (Number(ui.maxTokens.value) !== settings.max_tokens) ui.maxTokens.value = settings.max_tokens;
  if (settings.max_tokens != null) ui.sizePreset.value = SIZE_PRESETS.includes(settings.max_tokens) ? String(settings.max_tokens) : "custom";
  if (settings.overlap == null) ui.overlap.value = ""; // the engine has not described its rule yet
  else if (Number(ui.overlap.value) !== settings.overlap || ui.overlap.value === "") ui.overlap.value = settings.overlap;
  ui.overlapAuto.disabled = settings.overlapAuto;
  const auto = catalog.defaultOverlap(settings.max_tokens);
  const rule = catalog.overlapRule() ? `${catalog.overlapRule()}${auto == null ? "" : `: ${auto} for ${settings.max_tokens}`}` : "";
  ui.overlapHelp.textContent = settings.overlapAuto
    ? `Automatic: ${rule || "set by the engine"}. Type a number to set your own.`
    : `Set by you. "Auto" goes back to ${rule || "the engine's default"}.`;
  ui.overlapUnit.value = settings.overlapUnit;
  ui.overlapUnitHelp.textContent = catalog.overlapUnitHelp(settings.overlapUnit);
  ui.headers.checked = settings.headers;
  showView(settings.view);
}

function changeSettings(patch) {
  settings = settingsStore.normalize({ ...settings, ...patch });
  settingsStore.save(settings);
  showSettings();
  schedule();
}

// The address carries the settings, so a setup can be shared (never the text).
function showHash() {
  if (!settings.strategy || !settings.encoding || settings.max_tokens == null) return; // not described yet
  const hash = toHash(settings);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}
addEventListener("hashchange", () => {
  const patch = fromHash(location.hash);
  if (patch) changeSettings(patch);
});

ui.strategy.addEventListener("change", () => changeSettings({ strategy: ui.strategy.value }));
ui.language.addEventListener("change", () => { language = ui.language.value; schedule(); });
// A new file, or a cleared text, is read by its own name or content again.
function resetLanguage() { language = ui.language.value = "auto"; }
// The tokenizer picker: encodings, embedding-model presets (their tokenizer, and
// the size the model takes whole), and tokenizer.json files opened in this tab.
const MODEL = "model:";
const LOAD_TOKENIZER = "load-tokenizer";
function fillTokenizerPicker() {
  const group = el("optgroup", { label: "Embedding models" }, ...catalog.models().map((m) =>
    el("option", { value: `${MODEL}${m.name}` }, `${m.label} · ${m.max_input_tokens} tokens`)));
  const local = el("optgroup", { label: "Your tokenizer", id: "local-tokenizers" },
    el("option", { value: LOAD_TOKENIZER }, "Load tokenizer.json…"));
  ui.encoding.append(group, local);
}
// What the tokenizer in use is; with a model, where the chunk size comes from.
function tokenizerHelp() {
  const model = catalog.model(settings.model);
  if (!model) return catalog.encodingHelp(settings.encoding) || (settings.encoding ? "A tokenizer.json you opened: it stays in this tab." : "");
  const limit = `${model.name} embeds ${fmtInt(model.max_input_tokens)} tokens, ${model.special_tokens} of them its special tokens`;
  return settings.sizeChosen
    ? `${limit}. The chunk size is the one you chose.`
    : `${limit}: the chunk size follows, ${fmtInt(model.chunk_tokens)}, unless you choose one.`;
}

ui.encoding.addEventListener("change", () => {
  const value = ui.encoding.value;
  if (value === LOAD_TOKENIZER) {
    showSettings(); // the picker keeps showing the tokenizer in use until a file is loaded
    ui.tokenizerFile.click();
    return;
  }
  const model = value.startsWith(MODEL) ? catalog.model(value.slice(MODEL.length)) : null;
  // A model sets the size it embeds whole, unless the user chose a size (a larger
  // one gets the engine's truncation warning).
  if (model) changeSettings({ encoding: model.encoding, model: model.name, max_tokens: settings.sizeChosen ? settings.max_tokens : model.chunk_tokens });
  // Leaving a model: a size it set goes back to the default (8191 characters is no size to keep).
  else changeSettings({ encoding: value, model: "", ...(settings.model && !settings.sizeChosen ? { max_tokens: catalog.get().defaults.max_tokens } : {}) });
});
ui.tokenizerFile.addEventListener("change", async () => {
  const file = ui.tokenizerFile.files[0];
  ui.tokenizerFile.value = "";
  if (!file) return;
  try {
    const loaded = await engine.loadTokenizer(file.name, await file.arrayBuffer());
    settingsStore.addLocalEncoding(loaded.encoding);
    // A second file of the same name (every download is tokenizer.json) takes the name over.
    const label = `${loaded.encoding} (${loaded.family})`;
    const option = [...ui.encoding.options].find((o) => o.value === loaded.encoding);
    if (option) option.textContent = label;
    else $("local-tokenizers").prepend(el("option", { value: loaded.encoding }, label));
    changeSettings({ encoding: loaded.encoding, model: "" });
  } catch (err) {
    notice(`${file.name} cannot be used: ${err.message}`);
  }
});
ui.sizePreset.addEventListener("change", () => {
  if (ui.sizePreset.value === "custom") ui.maxTokens.focus();
  else changeSettings({ max_tokens: Number(ui.sizePreset.value), sizeChosen: true });
});
// A number that is not valid is kept in the field, with the reason next to it;
// the settings in force stay until it is fixed (an empty field only says so once left).
const NUMBER_FIELDS = [
  { input: ui.maxTokens, error: ui.maxTokensError, label: "Chunk size", min: 1, apply: (n) => ({ max_tokens: n, sizeChosen: true }) },
  { input: ui.overlap, error: ui.overlapError, label: "Overlap", min: 0, apply: (n) => ({ overlap: n, overlapAuto: false }) },
];
const invalidFields = new Set(); // of NUMBER_FIELDS, those holding a number that is not valid
for (const field of NUMBER_FIELDS) {
  const check = (leaving) => {
    const { value, error } = checkNumber(field.input, field.label, field.min, leaving);
    field.error.textContent = error || "";
    field.error.hidden = !error;
    markValidity(field.input, error);
    if (error) invalidFields.add(field); else invalidFields.delete(field);
    showInForce();
    return value;
  };
  field.input.addEventListener("input", () => {
    const n = check(false);
    if (n != null) changeSettings(field.apply(n));
  });
  field.input.addEventListener("change", () => check(true));
}
// While a number is not valid, the chunks shown are those of the settings in force:
// the status line says so (and is put back when the number is fixed).
let statusBeforeInvalid = null;
function showInForce() {
  const invalid = NUMBER_FIELDS.filter((f) => invalidFields.has(f)).map((f) => f.label);
  if (invalid.length && current?.finished) {
    statusBeforeInvalid ??= { state: ui.runStatus.dataset.state, text: ui.runText.textContent };
    setRunState("pending", `Not chunked again: ${invalid.join(" and ")} ${invalid.length > 1 ? "are" : "is"} not valid.` +
      ` These chunks are for size ${fmtInt(settings.max_tokens)}, overlap ${fmtInt(settings.overlap)}.`);
  } else if (!invalid.length && statusBeforeInvalid) {
    setRunState(statusBeforeInvalid.state, statusBeforeInvalid.text);
    statusBeforeInvalid = null;
  }
}
ui.overlapAuto.addEventListener("click", () => changeSettings({ overlapAuto: true }));
ui.overlapUnit.addEventListener("change", () => changeSettings({ overlapUnit: ui.overlapUnit.value }));
ui.headers.addEventListener("change", () => {
  settings = settingsStore.normalize({ ...settings, headers: ui.headers.checked });
  settingsStore.save(settings);
});

// --- views (tabs) ---------------------------------------------------------------

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
  if (view === "compare") prepareCompare();
}
function selectView(view, focus) {
  settings = settingsStore.normalize({ ...settings, view });
  settingsStore.save(settings);
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
  const i = VIEWS.indexOf(settings.view);
  selectView(VIEWS[(i + step + VIEWS.length) % VIEWS.length], true);
});

// --- compare: a second set of settings on the same text --------------------------

const cmp = {
  form: $("compare-form"), strategy: $("cmp-strategy"), size: $("cmp-size"), overlap: $("cmp-overlap"),
  encoding: $("cmp-encoding"), status: $("cmp-status"), table: $("cmp-stats"), rows: $("cmp-rows"),
  headA: $("cmp-head-a"), headB: $("cmp-head-b"), view: $("cmp-view"),
};
let compareB = null; // settings B, once the user has compared
let lastStats = null; // the stats of the current run, once it is done
// "Sentences · size 128 · overlap auto · o200k_base": a set of settings, in the page's words.
const settingsLabel = (s) =>
  `${catalog.strategyLabel(s.strategy)} · size ${fmtInt(s.max_tokens)} · overlap ${s.overlap == null ? "auto" : fmtInt(s.overlap)} · ${s.encoding}`;

// Fill B's choices from A's (the engine's) and start B at A's settings.
function prepareCompare() {
  for (const [a, b] of [[ui.strategy, cmp.strategy], [ui.encoding, cmp.encoding]]) {
    if (b.options.length !== a.options.length) b.replaceChildren(...[...a.options].map((o) => el("option", { value: o.value }, o.textContent)));
  }
  if (!compareB && settings.strategy) {
    cmp.strategy.value = settings.strategy;
    cmp.encoding.value = settings.encoding;
    cmp.size.value = settings.max_tokens;
    cmp.overlap.value = settings.overlapAuto ? "" : settings.overlap;
  }
}

async function runCompare() {
  if (!compareB) return;
  const a = current;
  if (!a || !a.finished || !lastStats) { cmp.status.textContent = "Chunk a document first: B runs on the same text."; return; }
  cmp.status.textContent = "Comparing…";
  try {
    const B = await engine.compare(compareB);
    if (a !== current) return; // A changed meanwhile: its own run compares again
    const labelA = settingsLabel({ ...settings, overlap: settings.overlapAuto ? null : settings.overlap });
    renderComparison({ rows: cmp.rows, table: cmp.table, headA: cmp.headA, headB: cmp.headB, view: cmp.view,
      summary: (t) => { cmp.status.textContent = t; } }, store.text,
    { chunks: store.chunks, stats: lastStats, encoding: settings.encoding, label: labelA },
    { chunks: B.records, stats: B.stats, encoding: compareB.encoding, label: settingsLabel(compareB) });
  } catch (err) {
    cmp.status.textContent = `B could not run: ${err.message}`;
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
  compareB = { max_tokens: size.value, overlap: overlap.value, overlap_unit: settings.overlapUnit, strategy: cmp.strategy.value, encoding: cmp.encoding.value };
  runCompare();
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

// Put back a whole earlier state of the input (Undo).
function restoreSource(before) {
  source = before;
  if (source.text.length <= LARGE_TEXT) editLarge = false;
  showText(source.text);
  notice(before.notice || "");
  showEncodingChoice(before.file && before.encodingShown ? before.encoding : null, before.file && before.encodingShown);
  showSourceInfo();
  run();
}
// Offer Undo for a change that replaces the whole text.
function offerUndo(message) {
  const before = { ...source, notice: ui.inputNotice.hidden ? "" : ui.inputNotice.textContent, encodingShown: !ui.encodingRow.hidden };
  undo.offer(message, () => restoreSource(before));
}

// The text box changed: an opened file keeps its own line endings where it had
// one kind (the text box shows every line break as LF); otherwise say what changed.
function editedText(value, replacedAll) {
  if (replacedAll || !source.file) return { text: value, name: replacedAll ? null : source.name, note: "" };
  const { eol, file } = source;
  const name = file.name.replace(/(\.[^.]*)?$/, ".edited$1");
  if (eol === "crlf" || eol === "cr") {
    return { text: withLineEndings(value, eol), name, note: `Edited ${file.name}: its ${EOL_NAMES[eol]} line endings are kept (the text box shows them as plain line breaks).` };
  }
  if (eol === "mixed") {
    return { text: value, name, note: `Editing changed ${file.name}'s line endings: it mixes CRLF and LF, and the text box keeps only LF, so offsets now refer to the edited text, not the file on disk.` };
  }
  return { text: value, name, note: "" };
}

wireInput({
  textarea: ui.textarea, largeNote: ui.largeNote, fileInput: ui.fileInput, openButton: ui.openFile, clearButton: ui.clear,
  dropzone: ui.dropzone,
  onText(value, replacedAll) {
    undo.dismiss();
    dropMany();
    const edit = editedText(value, replacedAll);
    const { text, replaced } = wellFormed(edit.text);
    const { file, eol } = source;
    setSource(text, edit.name, replaced);
    if (file && !replacedAll) Object.assign(source, { file, eol, edited: true });
    if (edit.note) notice([edit.note, ui.inputNotice.hidden ? "" : ui.inputNotice.textContent].filter(Boolean).join(" "));
    if (replacedAll) showEncodingChoice(null, false);
    if (text.length <= LARGE_TEXT) editLarge = false;
    showLarge(text);
    schedule();
  },
  onPaste(value, caret, replacedAll) {
    offerUndo(`Pasted ${fmtInt(value.length)} characters.`);
    dropMany();
    const { text, replaced } = wellFormed(value);
    showText(value, caret);
    setSource(text, replacedAll ? null : source.name, replaced);
    if (replacedAll) showEncodingChoice(null, false);
    run(); // a paste is a complete edit: no need to wait for more typing
  },
  onFiles(files) {
    if (files.length > 1) openMany(files);
    else openFile(files[0]);
  },
  onClear() {
    resetLanguage();
    if (source.text) offerUndo("The text was cleared.");
    dropMany();
    showText("");
    setSource("", null, 0);
    showEncodingChoice(null, false);
    run();
    ui.textarea.focus();
  },
});

// Open (or re-read with another codec) a file. Empty and binary files are not
// opened: the text before stays, and the page says why.
async function openFile(file, encoding, extra = "", keepMany = false) {
  if (!keepMany) dropMany();
  setRunState("pending", `Opening ${file.name}…`);
  const say = (message) => notice([message, extra].filter(Boolean).join(" "));
  try {
    await engine.booted;
    // The worker decodes the bytes and keeps the text as its document: it does not cross back.
    const { kind, text, info, size } = await readFile(engine, file, encoding);
    if (kind === "empty") {
      say(`${file.name} is empty (0 bytes): there is nothing to chunk. The text before is still here.`);
      finishIdle();
      return;
    }
    if (kind === "binary") {
      say(`${file.name} does not look like text (it contains NUL bytes, as images, archives and programs do), so it was not opened. If it is text in another encoding, such as UTF-16, choose it below.`);
      showEncodingChoice(null, true, file);
      finishIdle();
      return;
    }
    if (encoding == null) offerUndo(`Opened ${file.name}.`);
    showText(text); // shown for editing; `source.text` keeps CRLF exactly as decoded
    source = { text, name: file.name, size, onDisk: file.size, file, encoding: info.encoding, chosenEncoding: encoding, eol: lineEndings(text) };
    resetLanguage();
    const messages = [];
    if (info.message) messages.push(info.message);
    if (source.eol === "crlf" || source.eol === "mixed") messages.push(`Line endings: ${EOL_NAMES[source.eol]}, kept as in the file.`);
    say(messages.join(" "));
    showEncodingChoice(info.encoding, encoding != null || info.replaced > 0, file);
    showSourceInfo();
    run();
  } catch (err) {
    setRunState("error", `Could not open ${file.name}: ${err.message}`);
  }
}

// --- several files at once --------------------------------------------------------
// They are decoded and chunked in the worker as `python -m chunkwise FILE1 FILE2 …`
// does (apart from the current document); the first is shown, any can be.

let many = null; // {files: [File], listed: [{name, chars, info}], stats: [per file] | null}
const fileList = $("file-list");
const fileRows = $("file-rows");

async function openMany(files) {
  setRunState("pending", `Opening ${files.length} files…`);
  try {
    await engine.booted;
    const contents = await Promise.all(files.map((f) => f.arrayBuffer()));
    const listed = await engine.setFiles(files.map((f) => f.name), contents);
    many = { files, listed, stats: null };
    showMany();
    await openFile(files[0], null, `${files.length} files are open; ${files[0].name} is shown.`, true);
  } catch (err) {
    setRunState("error", `Could not open the files: ${err.message}`);
  }
}

function dropMany() {
  if (!many) return;
  many = null;
  fileList.hidden = true;
  fileRows.replaceChildren();
}

function showMany() {
  fileList.hidden = !many;
  if (!many) return;
  fileRows.replaceChildren(...many.listed.map((f, i) => {
    const st = many.stats && many.stats[i];
    const view = el("button", { type: "button", class: "file-name", "data-testid": "file-view",
      "aria-current": source.file === many.files[i] ? "true" : null }, f.name);
    view.addEventListener("click", () => openFile(many.files[i], null, `${many.files.length} files are open; ${f.name} is shown.`, true));
    const facts = st
      ? `${fmtInt(st.chunk_count)} chunk${st.chunk_count === 1 ? "" : "s"} · ${count(st.source_tokens, settings.encoding)}`
      : `${fmtInt(f.chars)} characters`;
    const note = !f.chars ? "empty" : f.info.binary ? "looks binary" : f.info.replaced ? `${fmtInt(f.info.replaced)} bytes replaced` : "";
    return el("li", { "data-testid": "file-row", "data-name": f.name, "data-chunks": st ? st.chunk_count : "" },
      view, " ", el("span", { class: "file-facts" }, facts), note ? el("span", { class: "file-note" }, ` (${note})`) : null);
  }));
}

// Nothing new to run: put back the status of what is on screen.
function finishIdle() {
  if (source.text) run();
  else setRunState("idle", "Paste or open a document to see its chunks.");
}

// The codec choice, offered when decoding replaced bytes (or refused a file). A refused
// file was read as no codec: none is shown as chosen, so choosing any (UTF-8 too,
// NULs and all) is a change that reads it.
let encodingFile = null;
function showEncodingChoice(current, show, file = encodingFile) {
  encodingFile = show ? file : null;
  ui.encodingRow.hidden = !show;
  if (!show) return;
  if (!ui.fileEncoding.options.length) {
    ui.fileEncoding.append(el("option", { value: "", disabled: true }, "Choose an encoding…"));
    for (const [value, label] of FILE_ENCODINGS) ui.fileEncoding.append(el("option", { value }, label));
  }
  ui.fileEncoding.value = current == null ? "" : FILE_ENCODINGS.some(([v]) => v === current) ? current : "utf-8";
}
ui.fileEncoding.addEventListener("change", () => {
  if (encodingFile) openFile(encodingFile, ui.fileEncoding.value);
});

// --- running the engine --------------------------------------------------------

// The visible status line (updated freely) and what is announced (see announce.js).
function setRunState(state, text, progress) {
  ui.runStatus.dataset.state = state;
  ui.runText.textContent = text;
  ui.runProgress.hidden = progress == null;
  if (progress != null) ui.runProgress.value = progress;
  if (state === "running") announcer.progress(text);
  else if (state === "pending") announcer.quiet();
  else announcer.result(text);
}

// Before the engine runs: say that the text is kept and will be chunked.
function showWaiting() {
  if (engineState === "error") return;
  setRunState("pending", "Waiting for the engine to start…");
  docView.placeholder(source.text
    ? "Your text is here. It will be chunked as soon as the engine has started (see the top right)."
    : EMPTY_TEXT);
}

function schedule() {
  clearTimeout(debounceTimer);
  setDownloads(false);
  if (engineState === "ready") setRunState("pending", "Waiting for you to stop typing…");
  else showWaiting();
  debounceTimer = setTimeout(run, DEBOUNCE_MS);
}

function run() {
  clearTimeout(debounceTimer);
  setDownloads(false);
  ui.runError.hidden = true;
  if (engineState !== "ready") {
    showWaiting();
    return; // engineReady runs it
  }
  const src = source;
  const text = src.text;
  const encoding = settings.encoding;
  docView.encoding = cards.encoding = encoding; // the unit the views name
  store.reset(text);
  lastStats = null;
  search.reset();
  stepper.reset();
  say("");
  if (!text) {
    current = null;
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
  const run = (current = engine.chunk({ ...engineSettings(settings), language, filename: src.name }, {
    onStart(w, size, lang) {
      showLanguage(lang);
      warnings = w;
      src.size = size;
      if (src === source) showSourceInfo();
      showWarnings(w);
      setRunState("running", "Chunking…", 0);
      if (!docView.content || docView.content.classList.contains("doc-placeholder")) docView.placeholder("Chunking…");
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
    renderStats(stats, statsParts, encoding, stepOn);
    await store.finish();
    if (run !== current) return; // superseded while rendering
    if ($("find").value) search.refresh(); // the matches in the new rendering
    showFlags(flagAll(store.chunks, text, stats.budget));
    if (many) {
      const set = many;
      set.stats = null;
      showMany();
      try {
        set.stats = await engine.runFiles(engineSettings(settings));
      } catch (err) {
        set.stats = null;
        ui.runError.replaceChildren(el("strong", {}, "The engine failed on one of the files: "), err.message);
        ui.runError.hidden = false;
      }
      if (run !== current || set !== many) return; // superseded meanwhile
      showMany();
    }
    setDownloads(true);
    lastStats = stats;
    runCompare(); // B again, against the new A
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    setRunState("done", stats.chunk_count
      ? `${fmtInt(stats.chunk_count)} chunk${stats.chunk_count === 1 ? "" : "s"} from ${count(stats.source_tokens, encoding)} in ${secs} s`
      : `No chunks: the text is only whitespace (${count(stats.source_tokens, encoding)}), and chunks leave whitespace out.`);
  }, (err) => {
    if (run !== current) return;
    ui.runError.replaceChildren(
      el("strong", {}, "The engine failed on this input: "), err.message,
      el("br"), err.restarted
        ? "Change the text or a setting to chunk again; if this input keeps breaking it, please report it."
        : "Try other settings; if it keeps failing, please report it together with the input.");
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

// The flag counts (stats panel, each a step-through) and the chunk list's filter.
const cardFilter = $("card-filter");
function showFlags(counts) {
  renderFlagCounts($("flag-counts"), counts, flagLabel, stepOn.flag);
  const keep = cardFilter.value;
  cardFilter.replaceChildren(el("option", { value: "" }, "all chunks"),
    ...Object.entries(counts).map(([f, n]) => el("option", { value: f, disabled: !n && f !== keep }, `${flagLabel[f]}: ${fmtInt(n)} (${flagHelp[f]})`)));
  cardFilter.value = keep;
  cards.setFilter(cardFilter.value || null);
}
cardFilter.addEventListener("change", () => cards.setFilter(cardFilter.value || null));
cards.onUnfilter = () => { cardFilter.value = ""; cards.setFilter(null); };

function showWarnings(list) {
  ui.warnings.replaceChildren(...list.map((w) => el("li", { "data-testid": "warning" }, pageWords(w, settings.encoding))));
  ui.warnings.hidden = !list.length;
}

// --- downloads -------------------------------------------------------------------

function setDownloads(on) {
  for (const b of [...ui.downloads, ui.copyCli, ui.copyPython]) b.disabled = !on;
  ui.downloadHint.textContent = on ? "" : "Available once chunking has finished.";
}

for (const button of ui.downloads) {
  button.addEventListener("click", async () => {
    const fmt = button.dataset.format;
    if (!current || !current.finished) return;
    try {
      const headers = fmt === "text" && settings.headers;
      const bytes = many && many.stats ? await engine.exportFiles(fmt, headers) : await current.export(fmt, headers);
      const name = downloadName(many ? null : source.name, fmt);
      saveBytes(bytes, name, fmt);
      ui.downloadHint.textContent = `Saved ${name} (${fmtBytes(bytes.byteLength)}).`;
    } catch (err) {
      ui.downloadHint.textContent = `Download failed: ${err.message}`;
    }
  });
}

// The finished run as a command line or Python: same settings, same file, same bytes.
for (const [button, make, what] of [[ui.copyCli, commandLine, "command line"], [ui.copyPython, pythonCode, "Python"]]) {
  button.addEventListener("click", async () => {
    const text = make(settings, many
      ? { names: many.files.map((f) => f.name), language }
      : { name: source.name, inputEncoding: source.chosenEncoding, headers: false, language, readAs: current?.language });
    ui.copied.textContent = text;
    ui.copied.hidden = false;
    try {
      await navigator.clipboard.writeText(text);
      ui.downloadHint.textContent = `Copied as ${what}.`;
    } catch {
      ui.downloadHint.textContent = `The browser refused clipboard access; copy the ${what} shown below.`;
    }
  });
}

showSettings();
setDownloads(false);
clearStats(statsParts);
docView.placeholder(EMPTY_TEXT);

// Text typed or pasted before these modules had loaded (the engine's worker
// starts first and the page after it: app/spawn.js) is the document, as if typed now.
if (ui.textarea.value) ui.textarea.dispatchEvent(new Event("input"));
