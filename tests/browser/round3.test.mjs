// What a new user hit on the page, round 3 (issue 27, defects 4, 6, 9, 10, 12):
// each test failed on the page before its fix.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertMatchesEngine, cli, clipboard, download, paste, readStats, setSettings, tmpFile, useApp, waitDone,
} from "./helpers.mjs";
import { markdownDoc, paragraph, rng } from "./corpus.mjs";

const doc = markdownDoc(7, 6);
const status = (page) => page.textContent("[data-testid=run-status-text]");

// A file dropped on `selector` as a person drags one there: enter, over, drop.
function dropFile(page, selector, name, content, types = ["dragenter", "dragover", "drop"]) {
  return page.evaluate(({ selector, name, content, types }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], name, { type: "text/plain" }));
    const target = document.querySelector(selector);
    for (const type of types) target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, { selector, name, content, types });
}

describe("page round 3: defects a new user hit", () => {
  const app = useApp();
  let page;
  before(async () => {
    page = app.page;
    await paste(page, doc);
  });

  test("defect 4: a cleared Overlap means Auto, in the stats, the address and the command line", async () => {
    await setSettings(page, { size: 256, overlap: 10 });
    assert.match(page.url(), /overlap=10/);
    await page.fill("[data-testid=overlap]", "");
    await waitDone(page);
    await page.locator("[data-testid=overlap]").blur();
    assert.equal(await page.locator("[data-testid=overlap-error]").isVisible(), false, "no error: empty is Auto");
    assert.match(await page.textContent("#overlap-help"), /^Automatic: .*32 for 256\. Type a number to set your own; empty is automatic\.$/);
    assert.doesNotMatch(page.url(), /overlap=/, "the address says automatic");
    await assertMatchesEngine(page, doc, { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" });
    await page.click("[data-testid=copy-cli]");
    assert.doesNotMatch(await clipboard(page), /--overlap/, "the command line leaves the CLI's automatic overlap");
  });

  test("defect 4: a cleared Chunk size is an error at the size field, and the status names it", async () => {
    await setSettings(page, { size: 256 });
    await page.fill("[data-testid=max-tokens]", "");
    await page.locator("[data-testid=max-tokens]").blur();
    await page.fill("[data-testid=overlap]", "");
    await page.locator("[data-testid=overlap]").blur();
    const error = page.locator("[data-testid=max-tokens-error]");
    assert.ok(await error.isVisible());
    assert.match(await error.textContent(), /^Chunk size is needed/);
    assert.equal(await page.getAttribute("[data-testid=max-tokens]", "aria-invalid"), "true");
    assert.equal(await page.locator("[data-testid=overlap-error]").isVisible(), false);
    assert.equal(await status(page), "Not chunked again: Chunk size is not valid. These chunks are for size 256, overlap 32.");
    await page.fill("[data-testid=max-tokens]", "300");
    await waitDone(page);
    await assertMatchesEngine(page, doc, { strategy: "smart", max_tokens: 300, overlap: 37, encoding: "cl100k_base" });
    await setSettings(page, { size: 256 });
  });

  test("defect 6: a file dropped anywhere on the page opens, with a visible drop target", async () => {
    const text = "# Dropped on the chunks\n\nA file dropped on the document view.\n";
    await dropFile(page, "[data-testid=document-view]", "anywhere.md", text, ["dragenter", "dragover"]);
    const overlay = page.locator("[data-testid=drop-overlay]");
    assert.ok(await overlay.isVisible(), "the drop target shows while a file is dragged over the page");
    assert.match(await overlay.textContent(), /Drop to open/);
    await dropFile(page, "[data-testid=document-view]", "anywhere.md", text, ["drop"]);
    assert.equal(await overlay.isVisible(), false, "and goes once the file is dropped");
    await page.waitForFunction(() => document.querySelector("[data-testid=source-info]").textContent.includes("anywhere.md"));
    await waitDone(page);
    await assertMatchesEngine(page, text, { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" });
    // Dragged over the settings and away again: the target goes, nothing opens.
    await dropFile(page, "#settings-panel", "away.md", "away", ["dragenter", "dragover"]);
    assert.ok(await overlay.isVisible());
    await dropFile(page, "#settings-panel", "away.md", "away", ["dragleave"]);
    assert.equal(await overlay.isVisible(), false);
    await paste(page, doc);
  });

  test("defect 9: moving between chunks with the arrow keys is announced politely", async () => {
    const stats = await readStats(page);
    await page.focus("[data-testid=document-view]");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    const region = page.locator("[data-testid=nav-status]");
    assert.equal(await region.getAttribute("role"), "status", "a polite live region");
    const tokens = await page.textContent("[data-testid=inspect-tokens]");
    const n = tokens.replace(/\D/g, "");
    const ends = await page.getAttribute('[data-testid=cut][data-chunk="2"]', "data-reason");
    const phrase = { paragraph: "ends at a paragraph break", heading: "ends before a heading", sentence: "ends at a sentence end", end: "ends at the end of the document" }[ends];
    assert.ok(phrase, `chunk 3 ends at ${ends}`);
    assert.equal(await region.textContent(), `Chunk 3 of ${stats.chunk_count}, ${Number(n).toLocaleString("en-US")} tokens, ${phrase}`);
  });

  test("defect 10: the text download separates chunks visibly by default, byte-identical to the CLI", async () => {
    const settings = { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" };
    assert.equal(await page.isChecked("[data-testid=text-headers]"), true, "chunk headers are the default");
    const got = await download(page, "download-text");
    const text = got.bytes.toString("utf8");
    assert.match(text, /^--- Chunk 1\/\d+ ---\n/);
    const file = tmpFile("pasted.txt", doc);
    assert.ok(got.bytes.equals(cli(file, settings, "text")), "= python -m chunkwise --format text (its default)");
  });

  test("defect 12: a long run can be cancelled; the previous result stays, and the page says so", async () => {
    const settings = { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" };
    await setSettings(page, { size: 256 });
    const before = await readStats(page);
    const rand = rng(12);
    const parts = [];
    for (let n = 0; n < 8_000_000; n += parts.at(-1).length + 2) parts.push(paragraph(rand, 6));
    const big = parts.join("\n\n");
    await page.evaluate((t) => navigator.clipboard.writeText(t), big);
    await page.focus("[data-testid=source-text]");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Control+V");
    const cancel = page.locator("[data-testid=cancel-run]");
    await cancel.waitFor({ state: "visible" });
    await cancel.click();
    await page.waitForFunction(() => document.querySelector("[data-testid=run-status]").dataset.state === "cancelled");
    assert.equal(await cancel.isVisible(), false, "Cancel shows only while a run is going");
    assert.match(await status(page), /^Cancelled\. The chunks shown are those of the text before/);
    await assertMatchesEngine(page, doc, settings); // the previous result, as it was
    assert.deepEqual((await readStats(page)).histogram, before.histogram);
    // The engine still works: the big text, chunked to the end.
    await page.fill("[data-testid=max-tokens]", "256");
    await waitDone(page, 300_000);
    // A settings change on the same text, cancelled: the settings and downloads go back too.
    const bigStats = await readStats(page);
    await page.fill("[data-testid=max-tokens]", "40");
    await cancel.waitFor({ state: "visible" });
    await cancel.click();
    await page.waitForFunction(() => document.querySelector("[data-testid=run-status]").dataset.state === "cancelled");
    assert.match(await status(page), /^Cancelled\. The previous result is shown: size 256, overlap 32\./);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "256", "the settings of the result shown");
    assert.match(page.url(), /size=256/);
    assert.equal((await readStats(page)).chunk_count, bigStats.chunk_count);
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cli(tmpFile("pasted.txt", big), settings, "jsonl")), "the download is the result shown");
    await page.click("[data-testid=clear-text]");
    await paste(page, doc);
  });

  // Reported: after a Cancel on a file opened again, the downloads were enabled for the
  // result shown, which the engine no longer held (opening a file replaces its document):
  // a click said "Download failed: These chunks are out of date" and saved nothing.
  test("defect 12: a cancelled run of a file opened again: downloads only for a result the engine still holds", async () => {
    const settings = { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" };
    const rand = rng(27);
    const parts = [];
    for (let n = 0; n < 8_000_000; n += parts.at(-1).length + 2) parts.push(paragraph(rand, 6));
    const file = tmpFile("big.txt", parts.join("\n\n"));
    await setSettings(page, { size: 256, overlap: 32 });
    await page.setInputFiles("[data-testid=file-input]", file);
    await waitDone(page, 300_000);
    const shown = await readStats(page);
    await page.setInputFiles("[data-testid=file-input]", file); // the same file again
    const cancel = page.locator("[data-testid=cancel-run]");
    await cancel.waitFor({ state: "visible" });
    await cancel.click();
    await page.waitForFunction(() => document.querySelector("[data-testid=run-status]").dataset.state === "cancelled");
    assert.equal((await readStats(page)).chunk_count, shown.chunk_count, "the result before is shown");
    assert.match(await status(page), /It is no longer in the engine: change a setting to chunk it again for the downloads\.$/);
    assert.equal(await page.isEnabled("[data-testid=download-jsonl]"), false, "no downloads the engine cannot give");
    // Chunked again, its downloads are the file's.
    await page.fill("[data-testid=max-tokens]", "300");
    await waitDone(page, 300_000);
    assert.ok((await download(page, "download-jsonl")).bytes.equals(cli(file, { ...settings, max_tokens: 300 }, "jsonl")));
    await page.click("[data-testid=clear-text]");
    await paste(page, doc);
  });
});
