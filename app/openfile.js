// Opening a file: read its bytes, decode them in Python exactly as the CLI does
// (chunkwise.io.decode.decode_bytes, optionally with the codec the user picked,
// as `--input-encoding`), and classify the outcome for the page. The codecs a file
// may be read with are the engine's (catalog.js: describe().input_encodings).

// -> {kind: "empty" | "refused" | "binary" | "document" | "text", text, info, size, document, reason}
// ("binary": text with NUL bytes, which a chosen codec may still read).
// `encoding` null: detect as the CLI does. HTML, PDF and DOCX are extracted (by the
// name's extension, else their first bytes); a file that is neither text nor such a
// document (an executable, an image) is refused with the reason, as the CLI refuses it.
// The worker keeps the text as its document.
export async function readFile(engine, file, encoding = null, onProgress = null) {
  const bytes = await file.arrayBuffer();
  if (!bytes.byteLength) return { kind: "empty", text: "", info: {} };
  const { text, info, size, document, refused } = await engine.open(bytes, encoding, file.name, onProgress);
  if (refused) return { kind: "refused", reason: refused, text: "", info: {} };
  return { kind: document ? "document" : info.binary ? "binary" : "text", text, info, size, document };
}
