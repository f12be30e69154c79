// Getting text in, round 2 (issue 13, defects 6-8): Clear and big pastes can be
// undone, an edited CRLF file keeps its line endings, files in other encodings
// can be read as such (decoded by the CLI's own code), binary and empty files
// are refused with a message, and dropping several files says so.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  PYTHON, ROOT, assertMatchesEngine, cli, download, paste, readDocumentView, screenshot, tmpFile, useApp, waitDone,
} from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";

const settings = { strategy: "smart", max_tokens: 512, overlap: 64, encoding: "cl100k_base" };
const notice = (page) => page.textContent("[data-testid=input-notice]");

// Text in a legacy codec (Node has no cp1251 encoder; Python has).
const encodeWith = (codec, text) => execFileSync(PYTHON, ["-c", "import sys; sys.stdout.buffer.write(sys.argv[2].encode(sys.argv[1]))", codec, text]);
// The CLI with extra arguments, default settings.
const cliWith = (file, args) => execFileSync(PYTHON, ["-m", "chunkwise", ...args, file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });

async function openFile(page, file) {
  await page.setInputFiles("[data-testid=file-input]", file);
  await waitDone(page);
}

async function dropFiles(page, files) {
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const [name, content] of list) dt.items.add(new File([content], name, { type: "text/plain" }));
    const zone = document.querySelector("[data-testid=dropzone]");
    for (const type of ["dragenter", "dragover", "drop"]) zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

describe("getting text in: undo, line endings, encodings, refusals", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  before(() => { page = app.page; });

  test("defect 6: Clear can be undone (button and Ctrl+Z), and so can a large paste", async () => {
    const doc = markdownDoc(3, 3);
    await paste(page, doc);
    await page.click("[data-testid=clear-text]");
    assert.equal(await page.inputValue("[data-testid=source-text]"), "");
    assert.ok(await page.isVisible("[data-testid=toast]"));
    assert.match(await page.textContent("[data-testid=toast-text]"), /cleared/i);
    await page.click("[data-testid=undo]");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=source-text]"), doc);
    await assertMatchesEngine(page, doc, settings);
    assert.equal(await page.isVisible("[data-testid=toast]"), false);

    // Ctrl+Z in the text box right after Clear.
    await page.click("[data-testid=clear-text]");
    await page.focus("[data-testid=source-text]");
    await page.keyboard.press("Control+Z");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=source-text]"), doc);

    // A paste of 100,000+ characters bypasses the browser's own undo: Undo puts the old text back.
    const big = markdownDoc(9, 120);
    assert.ok(big.length > 100_000);
    await page.evaluate((t) => navigator.clipboard.writeText(t), big);
    await page.focus("[data-testid=source-text]");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Control+V");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=source-text]"), big);
    assert.match(await page.textContent("[data-testid=toast-text]"), /Pasted/);
    await screenshot(page, "undo-toast");
    await page.click("[data-testid=undo]");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=source-text]"), doc);
    await assertMatchesEngine(page, doc, settings);
  });

  test("defect 7: editing an opened CRLF file keeps its CRLF; a mixed file says its endings changed", async () => {
    const body = "# Notes\r\n\r\nFirst line.\r\nSecond line.\r\n";
    const file = tmpFile("crlf.md", body);
    await openFile(page, file);
    assert.match(await notice(page), /CRLF/);
    // Type at the end of the text box.
    await page.focus("[data-testid=source-text]");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("Third.");
    await waitDone(page);
    const edited = body + "Third.";
    assert.match(await notice(page), /Edited crlf\.md: its CRLF \(Windows\) line endings are kept/);
    const view = await readDocumentView(page);
    assert.equal(view.text, edited, "the chunked text has the file's CRLF, plus the edit");
    const got = await download(page, "download-jsonl");
    assert.equal(got.name, "crlf.edited.chunks.jsonl", "the download says it is not the file on disk");
    assert.ok(got.bytes.equals(cli(tmpFile("crlf.edited.md", edited), settings, "jsonl")), "equals the CLI on the edited file");

    const mixed = tmpFile("mixed.txt", "One.\r\nTwo.\nThree.\r\n");
    await openFile(page, mixed);
    await page.focus("[data-testid=source-text]");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("Four.");
    await waitDone(page);
    assert.match(await notice(page), /Editing changed mixed\.txt's line endings/);
    assert.equal((await readDocumentView(page)).text, "One.\nTwo.\nThree.\nFour.");
  });

  test("defect 8: a cp1251 file can be read as cp1251, decoded like the CLI's --input-encoding", async () => {
    const text = "# Отчёт\n\nПривет, мир. Съешь же ещё этих мягких французских булок, да выпей чаю.\n";
    const file = tmpFile("report.md", encodeWith("cp1251", text));
    await openFile(page, file);
    assert.match(await notice(page), /invalid byte sequences/);
    assert.ok(await page.isVisible("[data-testid=file-encoding]"), "a choice of encodings is offered");
    await page.selectOption("[data-testid=file-encoding]", "cp1251");
    await waitDone(page);
    assert.match(await notice(page), /Read as cp1251/);
    assert.equal((await readDocumentView(page)).text, text);
    const got = await download(page, "download-jsonl");
    assert.equal(got.name, "report.chunks.jsonl");
    const want = cliWith(file, ["--input-encoding", "cp1251"]);
    assert.ok(got.bytes.equals(want), "equals python -m chunkwise --input-encoding cp1251");
    await screenshot(page, "encoding-choice");
  });

  test("defect 8: binary and empty files are refused with a message; the text before stays", async () => {
    const doc = "Keep me. This text was here before.";
    await paste(page, doc);
    const png = tmpFile("image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    await page.setInputFiles("[data-testid=file-input]", png);
    await page.waitForFunction(() => /not look like text/.test(document.querySelector("[data-testid=input-notice]").textContent));
    assert.match(await notice(page), /image\.png does not look like text/);
    await waitDone(page);
    assert.equal((await readDocumentView(page)).text, doc, "nothing was replaced");
    await screenshot(page, "binary-refused");

    // Text with NUL bytes is refused too; no codec is shown as chosen, so choosing UTF-8
    // (the one a user means: the CLI reads it so, with a warning) reads it.
    const nul = tmpFile("nul.txt", Buffer.from("Text with NULs.\0 More\0\0 text here. ".repeat(40) + "\n\0\n"));
    await page.setInputFiles("[data-testid=file-input]", nul);
    await page.waitForFunction(() => /nul\.txt does not look like text/.test(document.querySelector("[data-testid=input-notice]").textContent));
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=file-encoding]"), "", "no codec shown as the one used");
    await page.selectOption("[data-testid=file-encoding]", "utf-8");
    await waitDone(page);
    assert.ok((await download(page, "download-jsonl")).bytes.equals(cliWith(nul, ["--input-encoding", "utf-8"])));
    await paste(page, doc);

    await page.setInputFiles("[data-testid=file-input]", tmpFile("empty.txt", ""));
    await page.waitForFunction(() => /empty/.test(document.querySelector("[data-testid=input-notice]").textContent));
    assert.match(await notice(page), /empty\.txt is empty \(0 bytes\)/);
    await waitDone(page);
    assert.equal((await readDocumentView(page)).text, doc);
  });

  test("defect 8: UTF-16 without a BOM can be read as UTF-16", async () => {
    const text = "Hello from UTF-16. Zweite Zeile: äöü.\n";
    const file = tmpFile("utf16.txt", Buffer.from(text, "utf16le"));
    await page.setInputFiles("[data-testid=file-input]", file);
    await page.waitForFunction(() => document.querySelector("[data-testid=run-status]").dataset.state !== "pending");
    if (await page.isVisible("[data-testid=file-encoding]")) {
      await page.selectOption("[data-testid=file-encoding]", "utf-16-le");
    }
    await waitDone(page);
    assert.equal((await readDocumentView(page)).text, text);
  });

  test("defect 8: dropping several files opens them all and says which one is shown", async () => {
    await dropFiles(page, [["a.txt", "File A."], ["b.txt", "File B."], ["c.txt", "File C."]]);
    await page.waitForFunction(() => /3 files/.test(document.querySelector("[data-testid=input-notice]").textContent));
    await waitDone(page);
    assert.match(await notice(page), /3 files are open; a\.txt is shown/);
    assert.deepEqual(await page.$$eval("[data-testid=file-row]", (els) => els.map((e) => e.dataset.name)), ["a.txt", "b.txt", "c.txt"]);
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
