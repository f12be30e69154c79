// Offsets are code points in Python and UTF-16 units in JavaScript: with
// emoji, flags, ZWJ sequences and CJK Extension B everywhere, the page's
// chunk extents must still be exactly the engine's chunk texts.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  assertMatchesEngine, engineReference, paste, readDocumentView, screenshot, setSettings, useApp, waitDone,
} from "./helpers.mjs";
import { astralDoc } from "./corpus.mjs";

describe("astral characters and lone surrogates", () => {
  const app = useApp();
  let page;
  const doc = astralDoc(3, 14);

  before(() => { page = app.page; });

  test("the document is really astral-heavy", () => {
    const astral = [...doc].filter((ch) => ch.codePointAt(0) > 0xffff).length;
    assert.ok(astral > 200, `${astral} astral characters`);
    assert.notEqual(doc.length, [...doc].length);
  });

  for (const settings of [
    { strategy: "smart", max_tokens: 64, overlap: 16, encoding: "cl100k_base" },
    { strategy: "tokens", max_tokens: 37, overlap: 9, encoding: "o200k_base" },
    { strategy: "sentences", max_tokens: 50, overlap: 10, encoding: "chars" },
    { strategy: "smart", max_tokens: 7, overlap: 3, encoding: "chars" },
  ]) {
    test(`every chunk's DOM text equals the engine's chunk text: ${JSON.stringify(settings)}`, async () => {
      if ((await page.inputValue("[data-testid=source-text]")) !== doc) await paste(page, doc);
      await setSettings(page, { strategy: settings.strategy, size: settings.max_tokens, overlap: settings.overlap, encoding: settings.encoding });
      const ref = await assertMatchesEngine(page, doc, settings);
      assert.ok(ref.chunks.length > 10);
      // Cards slice the same JS string with the same offsets.
      await page.click("[data-testid=tab-cards]");
      await page.waitForSelector("[data-testid=card]");
      const cards = await page.$$eval("[data-testid=card-text]", (els) => els.map((e) => e.textContent));
      cards.forEach((t, i) => assert.equal(t, ref.chunks[i].text, `card ${i}`));
      await page.click("[data-testid=tab-document]");
    });
  }

  test("screenshot of emoji chunks", async () => {
    await setSettings(page, { strategy: "smart", size: 64, overlap: 16, encoding: "cl100k_base" });
    // Point at the widest line box of chunk 3's own text: its first box can be a
    // lone space at a wrap, past the view's edge, where the view takes the pointer.
    const box = await page.$eval('.seg[data-first="3"][data-last="3"]', (seg) => {
      seg.scrollIntoView({ block: "center" });
      const r = [...seg.getClientRects()].sort((a, b) => b.width - a.width)[0];
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    await page.mouse.move(box.x, box.y);
    await page.waitForFunction(() => /Chunk 4\b/.test(document.querySelector("[data-testid=chunk-inspector]").textContent));
    await screenshot(page, "30-astral");
  });

  test("lone surrogates in pasted text become U+FFFD and the user is told", async () => {
    // Built inside the page: a lone surrogate would not survive the trip through the test driver.
    await page.evaluate(() => {
      const ta = document.querySelector("[data-testid=source-text]");
      ta.value = "Broken \uD83D here and \uDE00 there, but 😀 is fine.\n\nNext paragraph \uDBFF.";
      ta.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await waitDone(page);
    assert.match(await page.textContent("[data-testid=input-notice]"), /3 unpaired surrogate code units were replaced/);
    const fixed = "Broken \uFFFD here and \uFFFD there, but 😀 is fine.\n\nNext paragraph \uFFFD.";
    const view = await readDocumentView(page);
    assert.equal(view.text, fixed);
    const settings = { strategy: "smart", max_tokens: 64, overlap: 16, encoding: "cl100k_base" };
    await assertMatchesEngine(page, fixed, settings);
    assert.equal((await engineReference(fixed, settings)).warnings.length, 0);
  });
});
