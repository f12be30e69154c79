// Downloads (JSONL, JSON, text) of the finished run, and the same run as a
// command line or Python to copy. What each did is said in the results' status
// line (app.say, under the navigation), beside the buttons.

import { fmtBytes } from "../dom.js";
import { downloadName, saveBytes } from "../downloads.js";
import { commandLine, pythonCode } from "../share.js";

export function wireDownloads(app) {
  const { ui, state, engine } = app;

  function setDownloads(on) {
    // (disabled while a run is not finished: a line saying so would come and go with every run)
    for (const b of [...ui.downloads, ui.copyCli, ui.copyPython]) b.disabled = !on;
  }

  for (const button of ui.downloads) {
    button.addEventListener("click", async () => {
      const fmt = button.dataset.format;
      if (!state.run || !state.run.finished) return;
      try {
        const headers = fmt === "text" && state.settings.textHeaders === true;
        const bytes = state.files && state.files.stats ? await engine.exportFiles(fmt, headers) : await state.run.export(fmt, headers);
        const name = downloadName(state.files ? null : state.source.name, fmt);
        saveBytes(bytes, name, fmt);
        app.say(`Saved ${name} (${fmtBytes(bytes.byteLength)}).`);
      } catch (err) {
        app.say(`Download failed: ${err.message}`);
      }
    });
  }

  // The finished run as a command line or Python: same settings, same file, same bytes.
  for (const [button, make, what] of [[ui.copyCli, commandLine, "command line"], [ui.copyPython, pythonCode, "Python"]]) {
    button.addEventListener("click", async () => {
      const text = make(state.settings, state.files
        ? { names: state.files.files.map((f) => f.name), language: state.language }
        // pasted HTML is saved as pasted.html: the CLI reads a .txt as text, whatever it starts with
        : { name: state.source.name || (state.run?.reading?.html ? "pasted.html" : null), inputEncoding: state.source.chosenEncoding, language: state.language, readAs: state.run?.language });
      ui.copied.textContent = text;
      ui.copied.hidden = false;
      try {
        await navigator.clipboard.writeText(text);
        app.say(`Copied as ${what}.`);
      } catch {
        app.say(`The browser refused clipboard access; copy the ${what} shown under the Reproduce buttons.`);
      }
    });
  }

  return { setDownloads };
}
