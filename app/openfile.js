// Opening a file: read its bytes, decode them in Python exactly as the CLI does
// (chunkwise.io.decode.decode_bytes, optionally with the codec the user picked,
// as `--input-encoding`), and classify the outcome for the page.

// The codecs offered when a file does not decode cleanly (Python codec names).
export const FILE_ENCODINGS = [
  ["utf-8", "UTF-8"],
  ["utf-16-le", "UTF-16 LE"],
  ["utf-16-be", "UTF-16 BE"],
  ["cp1252", "Windows-1252 (Western European)"],
  ["latin-1", "ISO-8859-1 (Latin-1)"],
  ["iso8859-15", "ISO-8859-15 (Latin-9)"],
  ["cp1250", "Windows-1250 (Central European)"],
  ["cp1251", "Windows-1251 (Cyrillic)"],
  ["koi8-r", "KOI8-R (Russian)"],
  ["cp1253", "Windows-1253 (Greek)"],
  ["cp1254", "Windows-1254 (Turkish)"],
  ["cp1255", "Windows-1255 (Hebrew)"],
  ["cp1256", "Windows-1256 (Arabic)"],
  ["cp874", "Windows-874 (Thai)"],
  ["shift_jis", "Shift JIS (Japanese)"],
  ["euc-jp", "EUC-JP (Japanese)"],
  ["gb18030", "GB18030 (Chinese)"],
  ["big5", "Big5 (Traditional Chinese)"],
  ["euc-kr", "EUC-KR (Korean)"],
  ["mac-roman", "Mac Roman"],
];

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
