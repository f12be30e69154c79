// Downloads: the bytes come from chunkwise.io.export in the worker (identical to
// the CLI's output); this module only names the file and hands it to the browser.

const EXTENSIONS = { jsonl: "jsonl", json: "json", langchain: "langchain.jsonl", vectors: "vectors.jsonl", text: "txt" };
const MIME = {
  jsonl: "application/x-ndjson", json: "application/json", langchain: "application/x-ndjson", vectors: "application/x-ndjson",
  text: "text/plain;charset=utf-8",
};

// notes.md -> notes.chunks.jsonl; pasted text -> chunks.jsonl
export function downloadName(sourceName, fmt) {
  const ext = EXTENSIONS[fmt];
  if (!sourceName) return `chunks.${ext}`;
  const base = sourceName.replace(/[\\/]/g, "_").replace(/\.[^.]*$/, "") || "chunks";
  return `${base}.chunks.${ext}`;
}

export function saveBytes(bytes, name, fmt) {
  const url = URL.createObjectURL(new Blob([bytes], { type: MIME[fmt] }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // some browsers read it late
}
