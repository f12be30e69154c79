// Sharing a setup: the settings (never the text) in the URL's hash, and the
// current run as a command line or as Python that gives the same bytes as the
// page's downloads.
import * as catalog from "./catalog.js";
import { isLocalEncoding as isLocal } from "./settings.js";

// Where overlaps start, when it is not the engine's default (like the overlap, left
// out when automatic, so the shared setup and the command line say only what was chosen).
const chosenUnit = (s) => (s.overlapUnit && s.overlapUnit !== catalog.defaultOverlapUnit() ? s.overlapUnit : null);
// The context and the parents, likewise only when chosen.
const chosenContext = (s) => (s.context && s.context !== catalog.get()?.defaults.context ? s.context : null);

// A tokenizer.json the user opened (settings.js keeps which) is named by its file
// name (the engine may have prefixed "file:" to keep it apart from a built-in name).
const fileName = (encoding) => encoding.replace(/^file:/, "");

// "#strategy=smart&size=512&overlap=64&encoding=cl100k_base" (no overlap: automatic;
// "&overlap_unit=word" only when it is not the default; an embedding-model preset
// is named by model=NAME instead of its encoding).
export function toHash(s) {
  const p = new URLSearchParams({ strategy: s.strategy, size: String(s.max_tokens) });
  if (!s.overlapAuto) p.set("overlap", String(s.overlap));
  if (chosenUnit(s)) p.set("overlap_unit", chosenUnit(s));
  if (chosenContext(s)) p.set("context", chosenContext(s));
  if (s.parents) p.set("parents", String(s.parents));
  if (s.model) p.set("model", s.model);
  else p.set("encoding", s.encoding);
  return `#${p}`;
}

// The settings a hash names (only those it names), or null when it names none.
// Names are checked against the engine's by settings.normalize, once it has described them.
export function fromHash(hash) {
  const p = new URLSearchParams(String(hash || "").replace(/^#/, ""));
  const out = {};
  const name = (v) => (v && v.length <= 200 ? v : null);
  if (name(p.get("strategy"))) out.strategy = p.get("strategy");
  if (name(p.get("encoding"))) Object.assign(out, { encoding: p.get("encoding"), model: "" });
  if (name(p.get("model"))) Object.assign(out, { model: p.get("model"), encoding: null });
  const whole = (v, min) => (/^\d+$/.test(v || "") && Number(v) >= min ? Number(v) : null);
  if (whole(p.get("size"), 1) != null) out.max_tokens = whole(p.get("size"), 1);
  if (p.has("overlap")) {
    if (p.get("overlap") === "auto") out.overlapAuto = true;
    else if (whole(p.get("overlap"), 0) != null) Object.assign(out, { overlap: whole(p.get("overlap"), 0), overlapAuto: false });
  } else if (Object.keys(out).length) out.overlapAuto = true;
  // A hash that names settings but no overlap unit means the default one (null: normalize's default).
  if (name(p.get("overlap_unit"))) out.overlapUnit = p.get("overlap_unit");
  else if (Object.keys(out).length) out.overlapUnit = null;
  if (Object.keys(out).length) {
    out.context = name(p.get("context"));
    out.parents = whole(p.get("parents"), 0) ?? 0;
  }
  return Object.keys(out).length ? out : null;
}

// POSIX shell quoting: plain words stay as they are.
const shq = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
// A Python string literal.
const pyq = (s) => JSON.stringify(s);

// The file the command reads: the opened file's name, or a stand-in for pasted text.
const fileOf = (name) => name || "pasted.txt";

// The language to name: a chosen one (or "text", prose) always. "Automatic" reads a
// file by its name's language, else by strong signs in the text, which the CLI
// without --language never looks at: a language the run detected in the text is
// named (`readAs`: the run's {name, detected}). Several files are each read by their
// names, in the page as by the CLI.
function cliLanguage(language, readAs, several) {
  if (language && language !== "auto") return language;
  return !several && readAs?.detected ? readAs.name : null;
}
// chunkwise.chunk knows no file name and reads prose unless told: whatever the run
// read the text as is named, unless prose.
function apiLanguage(language, readAs, several) {
  const name = language && language !== "auto" ? language : several ? null : readAs?.name;
  return name && name !== "text" ? name : null;
}

// `python -m chunkwise FILE ...` with every setting spelled out (automatic overlap: the CLI's own default).
// `names`: several files, as one command (its records name their `source`).
// `language`: the page's choice ("auto", "text" or a language); `readAs`: what the run read the text as
// (the engine's {name, detected}).
export function commandLine(s, { name, names, inputEncoding, format = "jsonl", headers = true, language, readAs } = {}) {
  const files = names ? names.map(shq) : [shq(fileOf(name))];
  const args = ["python", "-m", "chunkwise", ...files, "--max-tokens", String(s.max_tokens)];
  if (!s.overlapAuto) args.push("--overlap", String(s.overlap));
  if (chosenUnit(s)) args.push("--overlap-unit", chosenUnit(s));
  if (chosenContext(s)) args.push("--context", chosenContext(s));
  if (s.parents) args.push("--parents", String(s.parents));
  args.push("--strategy", s.strategy, ...tokenizerArgs(s));
  const lang = cliLanguage(language, readAs, Boolean(names));
  if (lang) args.push("--language", lang);
  if (inputEncoding) args.push("--input-encoding", shq(inputEncoding));
  if (format !== "jsonl") args.push("--format", format);
  if (format === "text" && !headers) args.push("--no-headers"); // (headed is the CLI's default)
  const base = names ? "chunks" : fileOf(name).replace(/\.[^./]*$/, "");
  const out = `${base}.chunks.${format === "text" ? "txt" : format}`.replace(/^chunks\.chunks\./, "chunks.");
  return `${args.join(" ")} > ${shq(out)}`;
}

// The preset, the tokenizer.json (expected beside the input, as the page had it)
// or the encoding.
function tokenizerArgs(s) {
  if (s.model) return ["--model", s.model];
  if (isLocal(s.encoding)) return ["--tokenizer", shq(fileName(s.encoding))];
  return ["--encoding", s.encoding];
}

// The same run as a Python script: the file read as the CLI reads it (read_input: an
// HTML, PDF or DOCX file's text extracted, other bytes decoded), the same chunks, the
// same JSONL bytes written.
export function pythonCode(s, { name, names, inputEncoding, language, readAs } = {}) {
  const file = fileOf(name);
  // the chosen codec; "html" keeps an HTML file as markup, as --language html does
  const readArgs = (language === "html" ? `, language="html"` : "") + (inputEncoding ? `, encoding=${pyq(inputEncoding)}` : "");
  const args = [`max_tokens=${s.max_tokens}`];
  if (!s.overlapAuto) args.push(`overlap=${s.overlap}`);
  if (chosenUnit(s)) args.push(`overlap_unit=${pyq(chosenUnit(s))}`);
  if (chosenContext(s)) args.push(`context=${pyq(chosenContext(s))}`);
  if (s.parents) args.push(`parent_tokens=${s.parents}`);
  const local = isLocal(s.encoding);
  args.push(`strategy=${pyq(s.strategy)}`, `encoding=${local ? "encoding" : pyq(s.encoding)}`);
  // chunkwise.chunk reads prose unless told (it knows no file name): several files
  // are each read by their names' language, as the CLI reads them.
  const lang = apiLanguage(language, readAs, Boolean(names));
  const byName = names && (!language || language === "auto");
  if (lang) args.push(`language=${pyq(lang)}`);
  if (byName) args.push("language=language");
  // A tokenizer.json is registered first; its name is what `encoding` then says.
  const register = local ? [`encoding = chunkwise.register_tokenizer(${pyq(fileName(s.encoding))})`] : [];
  if (names) {
    return [
      "import sys",
      "import chunkwise",
      "from chunkwise import export",
      ...(byName ? ["from chunkwise.code import languages"] : []),
      "from chunkwise.documents import DocumentError, read_input",
      "",
      ...register,
      "groups = []",
      `for name in [${names.map(pyq).join(", ")}]:`,
      "    with open(name, \"rb\") as f:",
      "        data = f.read()",
      "    try:",
      `        text, note, document = read_input(data, name${readArgs})`,
      "    except DocumentError:  # neither text nor a document: left out, as the CLI leaves it out",
      "        continue",
      ...(byName ? ["    language = \"text\" if document else languages.choose(None, name, text)[0] or \"text\""] : []),
      `    result = chunkwise.chunk_document(text, ${args.join(", ")})`,
      "    if document:",
      "        result.chunks, result.parents = document.with_pages(result.chunks), document.with_pages(result.parents)",
      "    groups.append((result.chunks, name, result.parents))",
      "sys.stdout.buffer.write(export.render_many(groups, \"jsonl\").encode(\"utf-8\"))",
      "",
    ].join("\n");
  }
  return [
    "import sys",
    "import chunkwise",
    "from chunkwise import export",
    "from chunkwise.documents import read_input",
    "",
    ...register,
    `with open(${pyq(file)}, "rb") as f:`,
    `    text, note, document = read_input(f.read(), ${pyq(file)}${readArgs})`,
    `result = chunkwise.chunk_document(text, ${args.join(", ")})`,
    "if document:  # a PDF's chunks (and parents) say their pages",
    "    result.chunks, result.parents = document.with_pages(result.chunks), document.with_pages(result.parents)",
    // the parents' records come before the chunks that tile them
    "sys.stdout.buffer.write(export.render(result.chunks, \"jsonl\", parents=result.parents).encode(\"utf-8\"))",
    "",
  ].join("\n");
}
