// The settings panel: strategy, tokenizer (encodings, model presets, a tokenizer.json
// of the user's), size and overlap fields checked as typed, the address that carries them.

import { $, el, fmtInt } from "../dom.js";
import * as catalog from "../catalog.js";
import * as settingsStore from "../settings.js";
import { SIZE_PRESETS } from "../settings.js";
import { checkNumber, markValidity } from "../fields.js";
import { fromHash, toHash } from "../share.js";
import { unit } from "../words.js";

export function wireSettings(app) {
  const { ui, state, engine } = app;

  function showSettings() {
    showHash();
    for (const span of document.querySelectorAll(".unit-plural")) span.textContent = unit(state.settings.encoding);
    ui.maxTokens.setAttribute("aria-label", `Chunk size in ${unit(state.settings.encoding)}`);
    // Before the engine has described its settings some are not known yet (null).
    if (state.settings.strategy) ui.strategy.value = state.settings.strategy;
    ui.strategyHelp.textContent = catalog.strategyHelp(state.settings.strategy);
    if (state.settings.encoding) ui.encoding.value = state.settings.model ? `${MODEL}${state.settings.model}` : state.settings.encoding;
    ui.encodingHelp.textContent = tokenizerHelp();
    showSizeNote();
    if (state.settings.max_tokens == null) ui.maxTokens.value = "";
    else if (Number(ui.maxTokens.value) !== state.settings.max_tokens) ui.maxTokens.value = state.settings.max_tokens;
    if (state.settings.max_tokens != null) ui.sizePreset.value = SIZE_PRESETS.includes(state.settings.max_tokens) ? String(state.settings.max_tokens) : "custom";
    // (an Overlap just emptied, for Auto, stays empty while it is being typed in)
    const emptied = state.settings.overlapAuto && ui.overlap.value === "" && document.activeElement === ui.overlap;
    if (state.settings.overlap == null) ui.overlap.value = ""; // the engine has not described its rule yet
    else if (!emptied && (Number(ui.overlap.value) !== state.settings.overlap || ui.overlap.value === "")) ui.overlap.value = state.settings.overlap;
    ui.overlapAuto.disabled = state.settings.overlapAuto;
    const auto = catalog.defaultOverlap(state.settings.max_tokens);
    const rule = catalog.overlapRule() ? `${catalog.overlapRule()}${auto == null ? "" : `: ${auto} for ${state.settings.max_tokens}`}` : "";
    ui.overlapHelp.textContent = state.settings.overlapAuto
      ? `Automatic: ${rule || "set by the engine"}. Type a number to set your own; empty is automatic.`
      : `Set by you. "Auto" (or an empty field) goes back to ${rule || "the engine's default"}.`;
    ui.overlapUnit.value = state.settings.overlapUnit;
    ui.overlapUnitHelp.textContent = catalog.overlapUnitHelp(state.settings.overlapUnit);
    // a context or parents in force: their fold is open, so what is in force shows
    if ((state.settings.context && state.settings.context !== catalog.get()?.defaults.context) || state.settings.parents) {
      document.getElementById("embedding-options").open = true;
    }
    if (state.settings.context) ui.context.value = state.settings.context;
    ui.contextHelp.textContent = catalog.contextHelp(state.settings.context);
    if (Number(ui.parents.value) !== state.settings.parents || ui.parents.value === "") ui.parents.value = state.settings.parents;
    ui.parentsHelp.textContent = parentsHelp();
    ui.headers.checked = state.settings.textHeaders === true;
    app.showView(state.settings.view);
  }

  // `typing`: the number field being typed in (its digits are one step of the history);
  // `fromHistory`: Back or Forward brought these settings (the entry is already there).
  function changeSettings(patch, { typing = null, fromHistory = false } = {}) {
    state.settings = settingsStore.normalize({ ...state.settings, ...patch });
    settingsStore.save(state.settings);
    historyStep = fromHistory ? null : { typing };
    showSettings();
    historyStep = null;
    app.schedule();
  }

  // The address carries the settings, so a setup can be shared (never the text), and each
  // change of a setting is an entry of the tab's history: Back and Forward move through
  // them in the page. Shown without a change (the settings first described, a hash put
  // in the engine's spelling), the entry is replaced instead.
  let historyStep = null; // set by changeSettings while it shows the new settings
  let typingIn = null; // the field whose typing made the current entry
  function showHash() {
    if (!state.settings.strategy || !state.settings.encoding || state.settings.max_tokens == null) return; // not described yet
    const hash = toHash(state.settings);
    const step = historyStep;
    if (location.hash === hash) return;
    // (a field typed on adds its digits to the entry its first digit made)
    if (step && !(step.typing && step.typing === typingIn)) history.pushState(null, "", hash);
    else history.replaceState(null, "", hash);
    typingIn = step?.typing ?? null;
  }
  // Back, Forward, or a hash typed in the address bar.
  const followAddress = () => {
    typingIn = null;
    const patch = fromHash(location.hash);
    if (patch) changeSettings(patch, { fromHistory: true });
  };
  addEventListener("hashchange", followAddress);
  addEventListener("popstate", followAddress);

  ui.strategy.addEventListener("change", () => changeSettings({ strategy: ui.strategy.value }));
  ui.language.addEventListener("change", () => { state.language = ui.language.value; app.schedule(); });
  // An HTML document (opened or pasted) is read as its text; the HTML language chunks
  // its markup instead (the CLI's --language html): the choice says so while there is one.
  function showHtmlChoice(on) {
    const option = [...ui.language.options].find((o) => o.value === "html");
    if (!option) return;
    option.dataset.label ??= option.textContent;
    option.textContent = on ? "HTML markup (the tags too, as code)" : option.dataset.label;
  }
  // A new file, or a cleared text, is read by its own name or content again.
  function resetLanguage() { state.language = ui.language.value = "auto"; }
  // The tokenizer picker: encodings, embedding-model presets (their tokenizer, and
  // the size the model takes whole), and tokenizer.json files opened in this tab.
  const MODEL = "model:";
  const LOAD_TOKENIZER = "load-tokenizer";
  function fillTokenizerPicker() {
    // (named short, "all-MiniLM-L6-v2 · 256", so that the chosen one is read whole in a
    // narrow column; the full label in its title)
    const group = el("optgroup", { label: "Embedding models · tokens each embeds" }, ...catalog.models().map((m) =>
      el("option", { value: `${MODEL}${m.name}`, title: `${m.label}: embeds ${m.max_input_tokens} tokens` }, `${m.name} · ${m.max_input_tokens}`)));
    const local = el("optgroup", { label: "Your tokenizer", id: "local-tokenizers" },
      el("option", { value: LOAD_TOKENIZER }, "Load tokenizer.json…"));
    ui.encoding.append(group, local);
  }
  // What the tokenizer in use is; with a model, where the chunk size comes from.
  function tokenizerHelp() {
    const model = catalog.model(state.settings.model);
    if (!model) return catalog.encodingHelp(state.settings.encoding) || (state.settings.encoding ? "A tokenizer.json you opened: it stays in this tab." : "");
    const limit = `${model.name} embeds ${fmtInt(model.max_input_tokens)} tokens, ${model.special_tokens} of them its special tokens`;
    return state.settings.sizeChosen
      ? `${limit}. The chunk size is the one you chose.`
      : `${limit}: the chunk size follows, ${fmtInt(model.chunk_tokens)}, unless you choose one.`;
  }

  // What a model preset did to the chunk size, where the size is: set to the size the model
  // embeds whole, or kept (the user chose it) though larger, with the fix a click away.
  const sizeNote = $("size-note"), sizeNoteText = $("size-note-text"), useModelSize = $("use-model-size");
  function showSizeNote() {
    const model = catalog.model(state.settings.model);
    const size = state.settings.max_tokens;
    const over = model && size > model.chunk_tokens;
    const text = !model ? ""
      : !state.settings.sizeChosen && size === model.chunk_tokens ? `Chunk size set to ${fmtInt(size)}, the model's limit. Choose a size to set your own.`
        : over ? `Chunk size ${fmtInt(size)} is more than ${model.name} embeds whole (${fmtInt(model.chunk_tokens)}): longer chunks would be truncated.`
          : "";
    sizeNote.hidden = !text;
    sizeNoteText.textContent = text;
    useModelSize.hidden = !over;
    if (over) useModelSize.textContent = `Use ${fmtInt(model.chunk_tokens)}`;
  }
  // (the size follows the model again, as if none had been chosen)
  useModelSize.addEventListener("click", () => {
    const model = catalog.model(state.settings.model);
    if (model) changeSettings({ max_tokens: model.chunk_tokens, sizeChosen: false });
    ui.maxTokens.focus(); // (the button goes)
  });

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
    if (model) changeSettings({ encoding: model.encoding, model: model.name, max_tokens: state.settings.sizeChosen ? state.settings.max_tokens : model.chunk_tokens });
    // Leaving a model: a size it set goes back to the default (8191 characters is no size to keep).
    else changeSettings({ encoding: value, model: "", ...(state.settings.model && !state.settings.sizeChosen ? { max_tokens: catalog.get().defaults.max_tokens } : {}) });
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
      app.notice(`${file.name} cannot be used: ${err.message}`);
    }
  });
  ui.sizePreset.addEventListener("change", () => {
    if (ui.sizePreset.value === "custom") ui.maxTokens.focus();
    else changeSettings({ max_tokens: Number(ui.sizePreset.value), sizeChosen: true });
  });
  // A number that is not valid is kept in the field, with the reason next to it;
  // the settings in force stay until it is fixed (an empty field only says so once left).
  // `empty`: what an empty field means, where it is no error (an empty Overlap is Auto).
  const NUMBER_FIELDS = [
    { input: ui.maxTokens, error: ui.maxTokensError, label: "Chunk size", min: 1, apply: (n) => ({ max_tokens: n, sizeChosen: true }) },
    { input: ui.overlap, error: ui.overlapError, label: "Overlap", min: 0, apply: (n) => ({ overlap: n, overlapAuto: false }),
      empty: { patch: { overlapAuto: true }, shows: () => state.settings.overlap } },
    { input: ui.parents, error: ui.parentsError, label: "Parent size", min: 0, apply: (n) => ({ parents: n }),
      refuse: (n) => (n && n <= state.settings.max_tokens
        ? `Parent size must be larger than the chunk size (${fmtInt(state.settings.max_tokens)}), or 0 for none.` : null) },
  ];
  const invalidFields = new Set(); // of NUMBER_FIELDS, those holding a number that is not valid
  for (const field of NUMBER_FIELDS) {
    const check = (leaving) => {
      const checked = checkNumber(field.input, field.label, field.min, leaving && !field.empty);
      const error = checked.error || (checked.value != null && field.refuse?.(checked.value)) || null;
      const value = error ? null : checked.value;
      field.error.textContent = error || "";
      field.error.hidden = !error;
      markValidity(field.input, error);
      if (error) invalidFields.add(field); else invalidFields.delete(field);
      showInForce();
      return value;
    };
    const isEmpty = () => field.input.value.trim() === "" && !field.input.validity.badInput;
    field.input.addEventListener("input", () => {
      const n = check(false);
      if (n != null) changeSettings(field.apply(n), { typing: field.input });
      else if (field.empty && isEmpty() && Object.entries(field.empty.patch).some(([k, v]) => state.settings[k] !== v)) changeSettings(field.empty.patch, { typing: field.input });
    });
    field.input.addEventListener("change", () => {
      typingIn = null; // left or entered: the next digits are a step of their own
      check(true);
      if (field.empty && isEmpty()) field.input.value = field.empty.shows() ?? ""; // left empty: the value it stands for
    });
  }
  // While a number is not valid, the chunks shown are those of the settings in force:
  // the status line says so (and is put back when the number is fixed).
  let statusBeforeInvalid = null;
  function showInForce() {
    const invalid = NUMBER_FIELDS.filter((f) => invalidFields.has(f)).map((f) => f.label);
    if (invalid.length && state.run?.finished) {
      statusBeforeInvalid ??= { state: ui.runStatus.dataset.state, text: ui.runText.textContent };
      app.setRunState("pending", `Not chunked again: ${invalid.join(" and ")} ${invalid.length > 1 ? "are" : "is"} not valid.` +
        ` These chunks are for size ${fmtInt(state.settings.max_tokens)}, overlap ${fmtInt(state.settings.overlap)}.`);
    } else if (!invalid.length && statusBeforeInvalid) {
      app.setRunState(statusBeforeInvalid.state, statusBeforeInvalid.text);
      statusBeforeInvalid = null;
    }
  }
  ui.overlapAuto.addEventListener("click", () => changeSettings({ overlapAuto: true }));
  ui.overlapUnit.addEventListener("change", () => changeSettings({ overlapUnit: ui.overlapUnit.value }));
  ui.context.addEventListener("change", () => changeSettings({ context: ui.context.value }));
  // Parents (small-to-big retrieval): larger chunks by the same strategy, which the chunks tile.
  function parentsHelp() {
    return state.settings.parents
      ? `Each chunk lies in a parent of up to ${fmtInt(state.settings.parents)} ${unit(state.settings.encoding)}: the records name it (parent_id) and the downloads hold the parents too.`
      : "0: no parents. A larger size makes parent chunks by the same strategy, which the chunks tile (small-to-big retrieval).";
  }
  ui.headers.addEventListener("change", () => {
    state.settings = settingsStore.normalize({ ...state.settings, textHeaders: ui.headers.checked });
    settingsStore.save(state.settings);
  });

  return { showSettings, changeSettings, resetLanguage, fillTokenizerPicker, showHtmlChoice };
}
