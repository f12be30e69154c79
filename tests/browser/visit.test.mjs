// Issue 27, defects 8 and 11: a reload keeps the text (in this tab only), Back and
// Forward move through the settings, and a model preset says what it did to the
// size and offers the fix for a size it cannot embed whole. Each failed before:
// a reload showed an empty box, Back left the settings as they were, and the
// presets changed the size (or kept one too large) without a word.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertMatchesEngine, engineReference, openApp, pageServer, paste, readDocumentView, readStats, setSettings, useApp, waitDone, waitReady } from "./helpers.mjs";
import { SAMPLE_NOTICE, SAMPLE_TEXT } from "../../app/sample.js";
import { markdownDoc, paragraph, rng } from "./corpus.mjs";

const doc = markdownDoc(7, 6);
const sizeNote = (page) => page.locator("[data-testid=size-note]");

describe("a reload, Back and Forward, and the presets", () => {
  const app = useApp();
  let page;
  let newTab = null; // the new visitor's tab of defect 11
  before(async () => { page = app.page; });
  after(() => newTab?.context.close());

  test("defect 8: a reload keeps the pasted text, and says so", async () => {
    await paste(page, doc);
    const chunks = (await readStats(page)).chunk_count;
    await page.reload();
    await waitReady(page);
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=source-text]"), doc, "the text is back in the box");
    assert.equal((await readStats(page)).chunk_count, chunks, "and chunked as before");
    assert.match(await page.textContent("[data-testid=input-notice]"), /kept in this tab/);
    // Kept in this tab's session storage only: nothing in the long-lived storage.
    assert.ok(await page.evaluate(() => !JSON.stringify({ ...localStorage }).includes("Retrieval handbook")));
  });

  test("defect 8: Back and Forward move through the settings, and stay in the page", async () => {
    const start = page.url();
    await setSettings(page, { strategy: "paragraphs" });
    await setSettings(page, { size: 256 });
    // A typed size is one step back, not one per digit.
    await page.click("[data-testid=max-tokens]", { clickCount: 3 });
    await page.keyboard.type("300");
    await waitDone(page);
    assert.match(page.url(), /size=300/);
    const back = async (expect) => {
      await page.goBack();
      // (the settings follow the address once the browser has moved back)
      await page.waitForFunction((e) => document.querySelector("[data-testid=max-tokens]").value === e.size
        && document.querySelector("[data-testid=strategy]").value === e.strategy, expect, { timeout: 5000 });
      await waitDone(page);
    };
    await back({ size: "256", strategy: "paragraphs" });
    await back({ size: "512", strategy: "paragraphs" });
    await back({ size: "512", strategy: "smart" });
    assert.equal(page.url(), start);
    await page.goForward();
    await page.waitForFunction(() => document.querySelector("[data-testid=strategy]").value === "paragraphs", null, { timeout: 5000 });
    await waitDone(page);
    assert.match(await page.textContent("[data-testid=run-status-text]"), /chunks from/);
    assert.equal(await page.inputValue("[data-testid=source-text]"), doc, "the text is still there");
    await setSettings(page, { strategy: "smart", size: 512 });
  });

  test("defect 8: a text over 4 MB is not kept, and the notice says so", async () => {
    const rand = rng(3);
    const parts = [];
    for (let n = 0; n < 4_300_000; n += parts.at(-1).length + 2) parts.push(paragraph(rand, 8));
    const big = parts.join("\n\n");
    await page.evaluate((t) => navigator.clipboard.writeText(t), big);
    await page.click("[data-testid=clear-text]");
    await page.focus("[data-testid=source-text]");
    await page.keyboard.press("Control+V");
    await waitDone(page);
    assert.match(await page.textContent("[data-testid=input-notice]"), /not kept across a reload/);
    await page.reload();
    await waitReady(page);
    assert.equal(await page.inputValue("[data-testid=source-text]"), "", "not kept");
    await paste(page, doc);
  });

  test("defect 11: a preset says what it did to the chunk size", async () => {
    // A new visitor's tab: no size chosen yet
    newTab = await openApp(app.server);
    ({ page } = newTab);
    await paste(page, doc);
    await page.selectOption("[data-testid=encoding]", "model:text-embedding-3-small");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "8191");
    assert.ok(await sizeNote(page).isVisible());
    assert.match(await sizeNote(page).textContent(), /^Chunk size set to 8,191, the model's limit/);
    await page.selectOption("[data-testid=encoding]", "cl100k_base");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "512");
    assert.equal(await sizeNote(page).isVisible(), false, "no model, no note");
  });

  test("defect 11: a size the model cannot embed whole is fixed in one click", async () => {
    await setSettings(page, { size: 256 });
    await page.selectOption("[data-testid=encoding]", "model:all-MiniLM-L6-v2");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "256", "the size you chose is kept");
    assert.ok((await readStats(page)).warnings.some((w) => /truncated/.test(w)), "and the engine warns");
    assert.match(await sizeNote(page).textContent(), /256 is more than all-MiniLM-L6-v2 embeds whole \(254\)/);
    await page.click("[data-testid=use-model-size]");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "254");
    assert.deepEqual((await readStats(page)).warnings.filter((w) => /truncated/.test(w)), []);
    assert.match(await sizeNote(page).textContent(), /^Chunk size set to 254, the model's limit/);
    await page.selectOption("[data-testid=encoding]", "cl100k_base");
    await setSettings(page, { size: 512 });
  });

  test("no errors in the console", () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
  });
});

// Issue 27: a first visit shows a short sample document, chunked, that says it is one;
// the user's first paste (or file) replaces it, and only the user's text is kept across
// a reload. Before, a first visit showed an empty page.
describe("a first visit: the sample document", () => {
  let server, page;
  const visits = [];
  const firstVisit = async () => {
    visits.push(await openApp(server, { sample: true }));
    return visits.at(-1).page;
  };
  before(async () => {
    server = await pageServer();
    page = await firstVisit();
  });
  after(async () => {
    for (const { context } of visits) await context.close();
    server.stop();
  });

  test("the sample is chunked as the engine chunks it, and says it is a sample", async () => {
    await waitDone(page);
    assert.equal(await page.textContent("[data-testid=input-notice]"), SAMPLE_NOTICE);
    assert.match(await page.textContent("[data-testid=source-info]"), /^Sample document · /);
    assert.equal(await page.inputValue("[data-testid=source-text]"), "", "the box is empty for the user's own text");
    await assertMatchesEngine(page, SAMPLE_TEXT, { strategy: "smart", max_tokens: 512, overlap: null, encoding: "cl100k_base" });
    const view = await readDocumentView(page);
    assert.ok(view.chunks.length >= 2, "the sample shows a cut");
    // Each structure the page marks is in it.
    for (const shape of [/^# /m, /^## /m, /^### /m, /^- \*\*/m, /^\| --- \|/m, /^```python$/m, /wraps|wrapped/]) assert.match(SAMPLE_TEXT, shape);
    assert.equal(await page.isEnabled("[data-testid=download-jsonl]"), true);
  });

  test("a reload is still a first visit, and the sample is never kept as the user's text", async () => {
    await page.reload();
    await waitReady(page);
    await waitDone(page);
    assert.equal(await page.evaluate(() => sessionStorage.getItem("chunkwise.text.v1")), null);
    assert.equal(await page.textContent("[data-testid=input-notice]"), SAMPLE_NOTICE);
    assert.equal((await readDocumentView(page)).text, SAMPLE_TEXT);
  });

  test("the first paste replaces the sample; a reload keeps the user's text, not the sample", async () => {
    await paste(page, doc);
    assert.equal((await readDocumentView(page)).text, doc);
    assert.equal(await page.isVisible("[data-testid=input-notice]"), false, "the sample's notice is gone");
    assert.doesNotMatch(await page.textContent("[data-testid=source-info]"), /Sample/);
    assert.equal(await page.isVisible("[data-testid=undo]"), false, "no Undo to bring back the sample");
    await page.reload();
    await waitReady(page);
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=source-text]"), doc);
    assert.equal((await readDocumentView(page)).text, doc);
    // Cleared, the page stays empty: this browser has had a text of its own.
    await page.click("[data-testid=clear-text]");
    await page.reload();
    await waitReady(page);
    assert.equal(await page.textContent("[data-testid=run-status-text]"), "Paste or open a document to see its chunks.");
    assert.equal(await page.inputValue("[data-testid=source-text]"), "");
  });

  // The sample's chunks were still being drawn when the first paste came (helpers.paste
  // fills the box: an edit, chunked after a pause): the page said done for the sample,
  // so a run after it (offline-presets.test) kept the sample as "the settings before".
  // The clock stops while a run's chunks are drawn: its end cannot come before the edit.
  test("an edit while the chunks before are drawn: the page waits for the edit, never done for the text before", async () => {
    const fresh = await firstVisit();
    await waitDone(fresh);
    await fresh.clock.install();
    await fresh.clock.pauseAt(Date.now() + 60_000);
    await fresh.setInputFiles("[data-testid=file-input]", { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from(doc) });
    // its stats are in (the run is finished in the engine), its chunks not yet drawn
    const expected = (await engineReference(doc, { strategy: "smart", max_tokens: 512, overlap: null, encoding: "cl100k_base" })).stats.chunk_count;
    await fresh.waitForFunction((n) => Number(document.querySelector("[data-testid=stat-chunk_count]")?.dataset.value) === n, expected, { polling: 50 });
    await fresh.fill("[data-testid=source-text]", "A text of my own.");
    await fresh.clock.runFor(200); // the drawing ends; the edit's pause (250 ms) has not
    assert.equal(await fresh.getAttribute("[data-testid=run-status]", "data-state"), "pending");
    assert.equal(await fresh.isEnabled("[data-testid=download-jsonl]"), false, "no downloads for the file's chunks");
    await fresh.clock.resume();
    await waitDone(fresh);
    assert.equal((await readDocumentView(fresh)).text, "A text of my own.");
    assert.equal(await fresh.isEnabled("[data-testid=download-jsonl]"), true);
  });

  test("an opened file replaces the sample too", async () => {
    const fresh = await firstVisit();
    await waitDone(fresh);
    await fresh.setInputFiles("[data-testid=file-input]", { name: "notes.md", mimeType: "text/markdown", buffer: Buffer.from(doc) });
    await fresh.waitForFunction(() => /notes\.md/.test(document.querySelector("[data-testid=source-info]").textContent));
    await waitDone(fresh);
    assert.equal((await readDocumentView(fresh)).text, doc);
    assert.doesNotMatch(await fresh.textContent("[data-testid=input-notice]"), /Sample/);
    assert.equal(await fresh.isVisible("[data-testid=undo]"), false, "no Undo to bring back the sample");
  });
});
