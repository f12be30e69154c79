// The document: typed, pasted, dropped or opened (one file, or several as the
// CLI's FILE1 FILE2 ...), its facts and notices, the codec choice, Undo.

import { $, el, fmtBytes, fmtInt } from "../dom.js";
import { wireInput, wellFormed } from "../input.js";
import { EOL_NAMES, lineEndings, withLineEndings } from "../eol.js";
import { readFile } from "../openfile.js";
import * as catalog from "../catalog.js";
import { count } from "../words.js";
import { LARGE_TEXT } from "../ui.js";
import * as session from "../session.js";
import * as sample from "../sample.js";

export function wireSource(app) {
  const { ui, state, engine, undo } = app;
  let editLarge = false; // the user asked to edit a large text in the textarea anyway

  // "notes.md · 12,345 characters · 13.1 KB". The sizes come from the worker
  // (measured off the main thread) once a run starts.
  function showSourceInfo() {
    const { text, name, size, onDisk } = state.source;
    const parts = [];
    if (state.source.sample) parts.push("Sample document");
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
    ui.textarea.value = state.source.text; // slow for megabytes, but asked for
    showLarge(state.source.text);
    ui.textarea.focus();
  });

  function setSource(text, name, replacedSurrogates) {
    state.source = { text, name: text ? name : null, size: null, onDisk: null };
    if (text) sample.ownTextSeen();
    notice([replacedSurrogates ? `${fmtInt(replacedSurrogates)} unpaired surrogate code unit${replacedSurrogates === 1 ? " was" : "s were"} replaced with U+FFFD (\uFFFD).` : "",
      notKept(text)].filter(Boolean).join(" "));
    showSourceInfo();
  }

  // A reload of this tab keeps the text (session.js), unless it is too large to: said at once,
  // not when the page goes away, when nobody could read it.
  const notKept = (text) => (session.tooLargeToKeep(text)
    ? `This text is over ${session.KEEP_MAX / 1e6} million characters: it is not kept across a reload of this tab.` : "");
  // (the sample is not the user's text: it is not kept as if typed)
  addEventListener("pagehide", () => (state.files || state.source.sample ? session.forget() : session.keep(state.source)));
  // The text from before a reload of this tab, as it was (main.js calls this when the box
  // is empty). -> whether there was one.
  function restoreKept() {
    const before = session.kept();
    if (!before) return false;
    showText(before.text);
    setSource(before.text, before.name, 0);
    notice("Your text is back after the reload: it is kept in this tab only, never sent, and gone when the tab is closed.");
    app.run();
    return true;
  }
  // A first visit (this browser never chunked a text of its own) shows the sample, chunked:
  // in the document view only, so the text box is empty for the user's text, and whatever
  // is typed, pasted or opened replaces it.
  function showSample() {
    if (!sample.wanted()) return;
    state.source = { text: sample.SAMPLE_TEXT, name: null, size: null, onDisk: null, sample: true };
    notice(sample.SAMPLE_NOTICE);
    showSourceInfo();
    app.run();
  }

  // Put back a whole earlier state of the input (Undo).
  function restoreSource(before) {
    state.source = before;
    if (state.source.text.length <= LARGE_TEXT) editLarge = false;
    showText(state.source.text);
    notice(before.notice || "");
    showEncodingChoice(before.file && before.encodingShown ? before.encoding : null, before.file && before.encodingShown, before.file, before.suggested);
    showSourceInfo();
    app.run();
  }
  // Offer Undo for a change that replaces the whole text.
  function offerUndo(message) {
    if (state.source.sample) return; // the sample is not the user's to lose
    const before = { ...state.source, notice: ui.inputNotice.hidden ? "" : ui.inputNotice.textContent, encodingShown: !ui.encodingRow.hidden };
    undo.offer(message, () => restoreSource(before));
  }

  // The text box changed: an opened file keeps its own line endings where it had
  // one kind (the text box shows every line break as LF); otherwise say what changed.
  function editedText(value, replacedAll) {
    if (replacedAll || !state.source.file) return { text: value, name: replacedAll ? null : state.source.name, note: "" };
    const { eol, file } = state.source;
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
    dropOverlay: ui.dropOverlay,
    onText(value, replacedAll) {
      undo.dismiss();
      dropMany();
      const edit = editedText(value, replacedAll);
      const { text, replaced } = wellFormed(edit.text);
      const { file, eol } = state.source;
      setSource(text, edit.name, replaced);
      if (file && !replacedAll) Object.assign(state.source, { file, eol, edited: true });
      if (edit.note) notice([edit.note, ui.inputNotice.hidden ? "" : ui.inputNotice.textContent].filter(Boolean).join(" "));
      if (replacedAll) showEncodingChoice(null, false);
      if (text.length <= LARGE_TEXT) editLarge = false;
      showLarge(text);
      app.schedule();
    },
    onPaste(value, caret, replacedAll) {
      offerUndo(`Pasted ${fmtInt(value.length)} characters.`);
      dropMany();
      const { text, replaced } = wellFormed(value);
      showText(value, caret);
      setSource(text, replacedAll ? null : state.source.name, replaced);
      if (replacedAll) showEncodingChoice(null, false);
      app.run(); // a paste is a complete edit: no need to wait for more typing
    },
    onFiles(files) {
      if (files.length > 1) openMany(files);
      else openFile(files[0]);
    },
    onClear() {
      app.resetLanguage();
      if (state.source.text) offerUndo("The text was cleared.");
      dropMany();
      showText("");
      setSource("", null, 0);
      showEncodingChoice(null, false);
      app.run();
      ui.textarea.focus();
    },
  });

  // Open (or re-read with another codec) a file. Empty and binary files are not
  // opened: the text before stays, and the page says why.
  async function openFile(file, encoding, extra = "", keepMany = false) {
    if (!keepMany) dropMany();
    app.setRunState("pending", `Opening ${file.name}…`);
    const say = (message) => notice([message, extra].filter(Boolean).join(" "));
    try {
      await engine.booted;
      // The worker decodes the bytes and keeps the text as its document: it does not cross back.
      const pages = (done, total) => app.setRunState("pending", `Reading ${file.name}: page ${done} of ${total}…`, done / total);
      const { kind, text, info, size, reason, document } = await readFile(engine, file, encoding, pages);
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
      if (kind === "refused") {
        // (text in a codec with NUL bytes, such as UTF-16 without a mark, reads once the codec is chosen)
        const binary = /not text nor a document/.test(reason);
        say(binary
          ? `${file.name} does not look like text: ${reason}, so it was not opened. The text before is still here. If it is text in another encoding, such as UTF-16, choose it below.`
          : `${file.name} was not opened: ${reason}. The text before is still here.`);
        showEncodingChoice(null, binary, file);
        finishIdle();
        return;
      }
      if (encoding == null) offerUndo(`Opened ${file.name}.`);
      sample.ownTextSeen();
      showText(text); // shown for editing; `source.text` keeps CRLF exactly as decoded
      state.source = { text, name: file.name, size, onDisk: file.size, file, encoding: info.encoding, suggested: info.suggested, chosenEncoding: encoding, eol: lineEndings(text) };
      app.resetLanguage();
      const messages = [];
      if (info.message) messages.push(info.message);
      if (document?.format === "html") messages.push("To chunk the markup itself, choose “HTML markup” as the language.");
      if (state.source.eol === "crlf" || state.source.eol === "mixed") messages.push(`Line endings: ${EOL_NAMES[state.source.eol]}, kept as in the file.`);
      messages.push(notKept(text));
      say(messages.filter(Boolean).join(" "));
      showEncodingChoice(info.encoding, encoding != null || info.replaced > 0, file, info.suggested);
      showSourceInfo();
      app.run();
    } catch (err) {
      app.setRunState("error", `Could not open ${file.name}: ${err.message}`);
    }
  }

  // --- several files at once --------------------------------------------------------
  // They are decoded and chunked in the worker as `python -m chunkwise FILE1 FILE2 …`
  // does (apart from the current document); the first is shown, any can be.

  const fileList = $("file-list");
  const fileRows = $("file-rows");

  async function openMany(files) {
    app.setRunState("pending", `Opening ${files.length} files…`);
    try {
      await engine.booted;
      const contents = await Promise.all(files.map((f) => f.arrayBuffer()));
      const listed = await engine.setFiles(files.map((f) => f.name), contents);
      state.files = { files, listed, stats: null };
      showMany();
      // The first file that is read (a refused one is named in the list, and left out)
      const shown = files[Math.max(0, listed.findIndex((f) => !f.info.refused))];
      const refused = listed.filter((f) => f.info.refused).map((f) => f.name);
      const left = refused.length ? ` Left out: ${refused.join(", ")} (neither text nor a document chunkwise reads).` : "";
      const open = refused.length ? `${files.length - refused.length} of ${files.length}` : files.length;
      await openFile(shown, null, `${open} files are open; ${shown.name} is shown.${left}`, true);
    } catch (err) {
      app.setRunState("error", `Could not open the files: ${err.message}`);
    }
  }

  function dropMany() {
    if (!state.files) return;
    state.files = null;
    fileList.hidden = true;
    fileRows.replaceChildren();
  }

  function showMany() {
    fileList.hidden = !state.files;
    if (!state.files) return;
    fileRows.replaceChildren(...state.files.listed.map((f, i) => {
      const st = state.files.stats && state.files.stats[i];
      const view = el("button", { type: "button", class: "file-name", "data-testid": "file-view",
        "aria-current": state.source.file === state.files.files[i] ? "true" : null, disabled: f.info.refused ? "" : null }, f.name);
      view.addEventListener("click", () => openFile(state.files.files[i], null, `${state.files.files.length} files are open; ${f.name} is shown.`, true));
      const facts = st
        ? `${fmtInt(st.chunk_count)} chunk${st.chunk_count === 1 ? "" : "s"} · ${count(st.source_tokens, state.settings.encoding)}`
        : `${fmtInt(f.chars)} characters`;
      const note = f.info.refused ? `left out: ${f.info.refused}` : !f.chars ? "empty" : f.info.replaced ? `${fmtInt(f.info.replaced)} bytes replaced` : "";
      return el("li", { "data-testid": "file-row", "data-name": f.name, "data-chunks": st ? st.chunk_count : "" },
        view, " ", el("span", { class: "file-facts" }, facts), note ? el("span", { class: "file-note" }, ` (${note})`) : null);
    }));
  }

  // Nothing new to run: put back the status of what is on screen.
  function finishIdle() {
    if (state.source.text) app.run();
    else app.setRunState("idle", "Paste or open a document to see its chunks.");
  }

  // The codec choice, offered when decoding replaced bytes (or refused a file). A refused
  // file was read as no codec: none is shown as chosen, so choosing any (UTF-8 too,
  // NULs and all) is a change that reads it. The likely codec (decode_bytes' `suggested`,
  // the CLI's --input-encoding auto) comes first, and a button reads the file in it.
  let encodingFile = null;
  function showEncodingChoice(chosen, show, file = encodingFile, suggested = null) {
    encodingFile = show ? file : null;
    ui.encodingRow.hidden = !show;
    if (!show) return;
    const codecs = catalog.get()?.input_encodings || [];
    const likely = codecs.find((c) => c.name === suggested) || null;
    const ordered = likely ? [likely, ...codecs.filter((c) => c !== likely)] : codecs;
    ui.fileEncoding.replaceChildren(
      el("option", { value: "", disabled: true }, "Choose an encoding…"),
      ...ordered.map((c) => el("option", { value: c.name }, c === likely ? `${c.label} (likely)` : c.label)),
    );
    ui.suggestedEncoding.hidden = !likely;
    if (likely) ui.suggestedEncoding.textContent = `Read as ${likely.label}`; // (hidden otherwise, its name kept)
    ui.suggestedEncoding.dataset.encoding = likely ? likely.name : "";
    ui.fileEncoding.value = chosen == null ? "" : codecs.some((c) => c.name === chosen) ? chosen : "utf-8";
  }
  ui.fileEncoding.addEventListener("change", () => {
    if (encodingFile) openFile(encodingFile, ui.fileEncoding.value);
  });
  ui.suggestedEncoding.addEventListener("click", () => {
    if (encodingFile && ui.suggestedEncoding.dataset.encoding) openFile(encodingFile, ui.suggestedEncoding.dataset.encoding);
  });

  return { showSourceInfo, notice, showMany, dropMany, restoreKept, showSample };
}
