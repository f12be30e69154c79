// The messages between the page (engine.js) and the engine's worker (worker.js):
// their type names, and what each carries. Chunk records have Chunk.to_dict()'s
// field names (without the text); start and end are UTF-16 offsets into the
// page's string.

// Page -> worker. Each has an id; a reply names the id it answers.
export const REQUEST = {
  text: "text", //              {text}: typed or pasted text replaces the document
  open: "open", //              {bytes, encoding, name}: a file, read there as the CLI reads it (HTML, PDF, DOCX
  //                            extracted; encoding: the user's codec, or null to detect)
  chunk: "chunk", //            {settings}: chunk the document; a newer text/open/chunk supersedes it
  export: "export", //          {run, fmt, headers}: the download bytes of a finished run
  files: "files", //            {names, contents}: several files, apart from the document
  filesRun: "files-run", //     {settings}: chunk every file
  filesExport: "files-export", // {fmt, headers}: the download bytes of all files
  compare: "compare", //        {settings}: the document with other settings, apart from its run
  tokenizer: "tokenizer", //    {name, bytes}: a tokenizer.json the user opened (it stays in the tab)
  cancel: "cancel", //          {}: the running chunk request stops at its next slice (the last finished
  //                            result stays the one exported)
};

// Worker -> page.
export const REPLY = {
  boot: "boot", //              {stage, label}: a start-up stage began
  ready: "ready", //            {version, pyodide, describe, resumed}
  bootError: "boot-error", //   {message}: the engine cannot start
  openProgress: "open-progress", // {id, done, total}: pages of a document read so far
  opened: "opened", //          {id, text, info, size, document}: document null for text, else {format, notice,
  //                            pages, page_starts}; or {id, refused}: why the file was not read
  started: "started", //        {id, warnings, settings, size, language, reading}: reading {text, document, html}:
  //                            the text the offsets index when it is not the page's own (pasted HTML extracted,
  //                            an HTML file's markup), else null; the document's summary or null; whether the
  //                            source is an HTML document (the language "html" chunks its markup)
  chunks: "chunks", //          {id, chunks, progress}: a run's next chunks
  done: "done", //              {id, stats}
  cancelled: "cancelled", //    {id}: a superseded run stopped
  exported: "exported", //      {id, bytes}
  filesSet: "files-set", //     {id, files}
  filesDone: "files-done", //   {id, stats}
  compared: "compared", //      {id, records, stats, warnings}
  tokenizer: "tokenizer", //    {id, encoding, family, special_tokens}
  error: "error", //            {id, request, message}: a request failed; the engine is fine
  fatal: "fatal", //            {id, request, message}: the runtime broke (stack, memory): replace the worker
  cspViolation: "csp-violation", // {directive, blocked}: the worker's CSP blocked something
};
