// A person opens files (picker and drag & drop) and downloads every format:
// the bytes must equal the CLI's output for the same file and settings.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  assertMatchesEngine, cli, download, paste, readDocumentView, screenshot, setSettings, tmpFile, useApp, waitDone,
} from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";

// CRLF line endings, an emoji, and two bytes that are not UTF-8.
const NOTES = Buffer.concat([
  Buffer.from(markdownDoc(11, 4).replace(/\n/g, "\r\n").replace("Part 2", "Part 2 🎉"), "utf8"),
  Buffer.from([0xff, 0xfe, 0x41]),
  Buffer.from("\r\nThe end.\r\n", "utf8"),
]);

async function openFile(page, file) {
  await page.setInputFiles("[data-testid=file-input]", file);
  await waitDone(page);
}

describe("files and downloads", () => {
  const app = useApp();
  let page;
  const notes = tmpFile("notes.md", NOTES);
  const settings = { strategy: "smart", max_tokens: 512, overlap: 64, encoding: "cl100k_base" };

  before(() => { page = app.page; });

  test("opening a file decodes it like the CLI and says what was replaced", async () => {
    await openFile(page, notes);
    const notice = await page.textContent("[data-testid=input-notice]");
    assert.match(notice, /2 invalid byte sequences/);
    assert.match(await page.textContent("[data-testid=source-info]"), /notes\.md/);
    // The CLI's chunks for the file are exactly the chunks shown (CRLF kept as is).
    const records = cli(notes, settings, "jsonl").toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    const view = await readDocumentView(page);
    assert.deepEqual(view.chunks, records.map((r) => r.text));
    assert.ok(view.text.includes("\r\n"), "CRLF line endings are kept");
    assert.ok(view.text.includes("\uFFFD"), "undecodable bytes became U+FFFD");
    await screenshot(page, "10-file-opened");
  });

  for (const [fmt, testid, headers] of [
    ["jsonl", "download-jsonl", false],
    ["json", "download-json", false],
    ["text", "download-text", false],
    ["text", "download-text", true],
  ]) {
    test(`download ${fmt}${headers ? " with headers" : ""}: byte-identical to the CLI`, async () => {
      await page.setChecked("[data-testid=text-headers]", headers);
      const got = await download(page, testid);
      assert.equal(got.name, `notes.chunks.${fmt === "text" ? "txt" : fmt}`);
      const want = cli(notes, settings, fmt, headers);
      assert.ok(got.bytes.equals(want), `${fmt} bytes differ from the CLI (${got.bytes.length} vs ${want.length})`);
    });
  }

  test("downloads follow the settings", async () => {
    const other = { strategy: "lines", max_tokens: 256, overlap: 10, encoding: "o200k_base" };
    await setSettings(page, { strategy: "lines", size: 256, overlap: 10, encoding: "o200k_base" });
    for (const fmt of ["jsonl", "json"]) {
      const got = await download(page, `download-${fmt}`);
      assert.ok(got.bytes.equals(cli(notes, other, fmt)), `${fmt} after changing settings`);
    }
    // Overlap at word starts, in the page and the CLI alike.
    const words = { strategy: "sentences", max_tokens: 256, overlap: 40, encoding: "cl100k_base", overlap_unit: "word" };
    await setSettings(page, { strategy: "sentences", overlap: 40, overlapUnit: "word", encoding: "cl100k_base" });
    assert.match(await page.textContent("[data-testid=overlap-unit-help]"), /whole words/);
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cli(notes, words, "jsonl")), "jsonl with the overlap at word starts");
    assert.ok(!got.bytes.equals(cli(notes, { ...words, overlap_unit: "unit" }, "jsonl")), "the overlap unit changes the cuts");
    await setSettings(page, { strategy: "smart", size: 512, overlapUnit: "unit", encoding: "cl100k_base" });
    await page.click("[data-testid=overlap-auto]");
    await waitDone(page);
  });

  test("pasted text downloads as chunks.* and equals the CLI on the same text", async () => {
    const text = markdownDoc(5, 3);
    await paste(page, text);
    const got = await download(page, "download-jsonl");
    assert.equal(got.name, "chunks.jsonl");
    assert.ok(got.bytes.equals(cli(tmpFile("pasted.txt", text), settings, "jsonl")));
  });

  test("a file dropped on the input opens like a picked one", async () => {
    const text = "# Dropped\r\n\r\nA dropped file with a tab\tand CRLF.\r\n";
    await page.evaluate((content) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], "dropped.txt", { type: "text/plain" }));
      const zone = document.querySelector("[data-testid=dropzone]");
      for (const type of ["dragenter", "dragover", "drop"]) {
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }
    }, text);
    await page.waitForFunction(() => document.querySelector("[data-testid=source-info]").textContent.includes("dropped.txt"));
    await waitDone(page);
    await assertMatchesEngine(page, text, settings);
    await page.setChecked("[data-testid=text-headers]", false);
    const got = await download(page, "download-text");
    assert.equal(got.name, "dropped.chunks.txt");
    assert.ok(got.bytes.equals(cli(tmpFile("dropped.txt", text), settings, "text", false)));
  });

  test("the file's UTF-8 BOM is handled like the CLI", async () => {
    const bom = tmpFile("bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("Hello BOM.\n\nSecond paragraph.\n")]));
    await openFile(page, bom);
    const got = await download(page, "download-json");
    assert.ok(got.bytes.equals(cli(bom, settings, "json")));
    assert.equal(readFileSync(bom)[0], 0xef);
  });
});
