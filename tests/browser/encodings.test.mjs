// Files in a legacy codec (issue 27, defect 7): a file that is not UTF-8 is offered in
// its likely codec first (decode_bytes' `suggested`, as `--input-encoding auto` reads
// it), and one click reads it so; the download equals the CLI's auto bytes.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { PYTHON, ROOT, download, readDocumentView, tmpFile, useApp, waitDone } from "./helpers.mjs";

// Bytes in a legacy codec, made by Python's own codecs (Node has no cp1251 encoder).
const encodeWith = (codec, text) => execFileSync(PYTHON, ["-c", "import sys; sys.stdout.buffer.write(sys.argv[2].encode(sys.argv[1]))", codec, text]);
const cliWith = (file, args) => execFileSync(PYTHON, ["-m", "chunkwise", ...args, file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
const notice = (page) => page.textContent("[data-testid=input-notice]");

const FILES = [
  ["cp1251", "report.md", "Windows-1251 (Cyrillic)",
    "# Отчёт\n\nПривет, мир. Съешь же ещё этих мягких французских булок, да выпей чаю. Это простой текст на русском языке.\n"],
  ["shift_jis", "notes.txt", "Shift JIS (Japanese)",
    "これは日本語のテキストです。ファイルの文字コードを判定するために使います。\n\n二行目のテキストもあります。\n"],
  // Latin-1 bytes of French: Windows-1252 (a superset for text) is the likely codec, as on the CLI.
  ["latin-1", "lettre.txt", "Windows-1252 (Western European)",
    "Le café est très bon. Voilà une phrase en français, avec des accents : élève, garçon, naïve. À bientôt.\n"],
];

describe("legacy encodings: the likely codec offered first", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  before(() => { page = app.page; });

  for (const [codec, name, label, text] of FILES) {
    test(`a ${codec} file: ${label} is offered first, and reads as --input-encoding auto does`, async () => {
      const file = tmpFile(name, encodeWith(codec, text));
      await page.setInputFiles("[data-testid=file-input]", file);
      await waitDone(page);
      assert.match(await notice(page), new RegExp(`It looks like ${label.replace(/[()]/g, "\\$&")}`));
      const suggested = page.locator("[data-testid=file-encoding-suggested]");
      assert.ok(await suggested.isVisible(), "a one-click reading in the likely codec");
      assert.equal(await suggested.textContent(), `Read as ${label}`);
      const options = await page.$$eval("[data-testid=file-encoding] option", (os) => os.map((o) => [o.value, o.textContent]));
      assert.equal(options[1][1], `${label} (likely)`, "first in the choice");
      await suggested.click();
      await waitDone(page);
      assert.equal((await readDocumentView(page)).text, text);
      assert.doesNotMatch((await readDocumentView(page)).text, /\uFFFD/);
      assert.equal(await page.inputValue("[data-testid=file-encoding]"), options[1][0], "the codec used is shown as chosen");
      const got = await download(page, "download-jsonl");
      const auto = cliWith(file, ["--input-encoding", "auto"]);
      assert.ok(got.bytes.equals(auto), "equals python -m chunkwise --input-encoding auto");
    });
  }
});
