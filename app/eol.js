// Line endings of an opened file, kept through edits. A textarea stores every
// line break as LF, so an edited CRLF file would silently become LF and its
// offsets would stop matching the file on disk.

// "lf", "crlf", "cr", "mixed" or "none"
export function lineEndings(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const cr = (text.match(/\r(?!\n)/g) || []).length;
  const lf = (text.match(/(?<!\r)\n/g) || []).length;
  const kinds = [["crlf", crlf], ["cr", cr], ["lf", lf]].filter(([, n]) => n);
  if (!kinds.length) return "none";
  return kinds.length === 1 ? kinds[0][0] : "mixed";
}

// The text box's value with the file's own line endings, when it had one kind.
export function withLineEndings(value, eol) {
  if (eol === "crlf") return value.replace(/\n/g, "\r\n");
  if (eol === "cr") return value.replace(/\n/g, "\r");
  return value;
}

export const EOL_NAMES = { crlf: "CRLF (Windows)", cr: "CR (old Mac)", lf: "LF", mixed: "mixed" };
