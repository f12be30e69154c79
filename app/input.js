// Where the text comes from: the textarea (paste / typing), the file picker,
// or a file dropped anywhere on the page. Files are read as raw bytes and decoded
// in the worker, exactly as the CLI decodes them.

// Pastes bigger than this bypass the browser's editing machinery, which takes
// seconds to minutes to insert megabytes into a textarea (the cost is native).
const LARGE_PASTE = 100_000;

// onText(value, replacedAll): the user edited the textarea. onPaste(value, caret,
// replacedAll): a large paste (or any paste on the large-document note).
// onText's second argument says whether the edit replaced all of the old text
// (select all + paste or type): then it is a new document, not an edited file.
export function wireInput({ textarea, largeNote, fileInput, openButton, clearButton, dropOverlay, onText, onPaste, onFiles, onClear }) {
  let replacesAll = false;
  const coversAll = () => textarea.selectionStart === 0 && textarea.selectionEnd === textarea.value.length;
  textarea.addEventListener("beforeinput", () => { replacesAll = textarea.value.length > 0 && coversAll(); });
  textarea.addEventListener("input", () => onText(textarea.value, replacesAll));
  const paste = (e, replaceAll) => {
    const text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (!text || (!replaceAll && text.length < LARGE_PASTE)) return; // small pastes stay native (and undoable)
    e.preventDefault();
    // A textarea stores line breaks as \n, whatever was pasted: do the same.
    const pasted = text.replace(/\r\n?/g, "\n");
    const { selectionStart: a, selectionEnd: b, value } = textarea;
    if (replaceAll || coversAll()) onPaste(pasted, pasted.length, true);
    else onPaste(value.slice(0, a) + pasted + value.slice(b), a + pasted.length, false);
  };
  textarea.addEventListener("paste", (e) => paste(e, false));
  largeNote.addEventListener("paste", (e) => paste(e, true));
  openButton.addEventListener("click", () => fileInput.click());
  clearButton.addEventListener("click", () => onClear());
  fileInput.addEventListener("change", () => {
    const files = [...(fileInput.files || [])];
    if (files.length) onFiles(files);
    fileInput.value = ""; // choosing the same file again still fires change
  });

  // Drag and drop anywhere on the page (the overlay shows where it lands): only
  // drags that carry files. Nothing here is in the keyboard's or a screen reader's way.
  const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes("Files");
  let depth = 0; // dragenter/dragleave pairs of the elements under the pointer
  const show = (on) => { if (!on) depth = 0; dropOverlay.hidden = !on; };
  addEventListener("dragenter", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    show(true);
  });
  addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault(); // (and the browser never navigates to a dropped file)
    e.dataTransfer.dropEffect = "copy";
  });
  addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) show(false);
  });
  addEventListener("drop", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    show(false);
    const files = [...e.dataTransfer.files];
    if (files.length) onFiles(files);
  });
}

// Lone surrogates (possible in pasted text) -> U+FFFD, and how many there were.
export function wellFormed(text) {
  if (text.isWellFormed ? text.isWellFormed() : !/[\uD800-\uDFFF]/.test(text)) return { text, replaced: 0 };
  const fixed = text.toWellFormed
    ? text.toWellFormed()
    : text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  let replaced = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== fixed.charCodeAt(i)) replaced++;
  }
  return { text: fixed, replaced };
}
