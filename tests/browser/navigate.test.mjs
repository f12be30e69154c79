// Navigation (issue 13): find in the document, go to chunk N, the smallest and
// largest chunk, step through a histogram bar's or a cut reason's chunks; the
// chunk number and size are at every cut without hovering (see ux.test.mjs).

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { engineReference, paste, screenshot, setSettings, useApp } from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc } from "./corpus.mjs";

const doc = markdownDoc(7, 6);
const settings = { strategy: "smart", max_tokens: 128, overlap: 16, encoding: "cl100k_base" };
const inspected = (page) => page.textContent("[data-testid=inspect-index]");
const status = (page) => page.textContent("[data-testid=nav-status]");

// Is the start of chunk i (or the current find match) inside the document view's visible box?
const chunkInView = (page, i) => page.evaluate((i) => {
  const view = document.querySelector("[data-testid=document-view]").getBoundingClientRect();
  const seg = document.querySelector(`.seg[data-last="${i}"]`) || document.querySelector(`.seg[data-first="${i}"]`);
  const r = seg.getClientRects()[0];
  return r.top >= view.top - 1 && r.top < view.bottom;
}, i);

describe("navigation", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page, ref;
  before(async () => {
    page = app.page;
    await paste(page, doc);
    await setSettings(page, { size: 128, overlap: 16 });
    ref = await engineReference(doc, settings);
  });

  test("find: every match highlighted, Enter steps through them and selects their chunk (keyboard only)", async () => {
    const word = "ladder";
    const starts = [...doc.matchAll(/ladder/giu)].map((m) => m.index);
    assert.ok(starts.length > 3);
    // Keyboard only: Tab from the tab list's neighbour reaches the find box.
    await page.focus("[data-testid=find]");
    await page.keyboard.type(word);
    await page.waitForFunction(() => /match/.test(document.querySelector("[data-testid=nav-status]").textContent));
    assert.match(await status(page), new RegExp(`^${starts.length} matches`));
    const painted = await page.evaluate(() => CSS.highlights.get("find").size + CSS.highlights.get("find-current").size);
    assert.equal(painted, starts.length, "every match is highlighted");
    const cp = (utf16) => Array.from(doc.slice(0, utf16)).length;
    const chunkOf = (offset) => {
      const x = cp(offset);
      let found = -1;
      ref.chunks.forEach((c, i) => { if (c.start <= x) found = i; });
      return found;
    };
    for (const k of [0, 1, 2]) {
      await page.keyboard.press("Enter");
      const want = chunkOf(starts[k]);
      assert.equal(await status(page), `Match ${k + 1} of ${starts.length}, in chunk ${want + 1}.`);
      assert.match(await inspected(page), new RegExp(`^Chunk ${want + 1} of`));
      const current = await page.evaluate(() => {
        const [range] = CSS.highlights.get("find-current");
        const r = range.getBoundingClientRect();
        const view = document.querySelector("[data-testid=document-view]").getBoundingClientRect();
        return { text: range.toString(), inView: r.top >= view.top && r.bottom <= view.bottom };
      });
      assert.equal(current.text.toLowerCase(), word);
      assert.ok(current.inView, "the current match is scrolled into view");
    }
    await page.keyboard.press("Shift+Enter");
    assert.match(await status(page), new RegExp(`^Match 2 of ${starts.length}`));
    await page.fill("[data-testid=find]", "no such words anywhere");
    await page.waitForFunction(() => document.querySelector("[data-testid=nav-status]").textContent === "No match.");
    await page.fill("[data-testid=find]", "");
    await screenshot(page, "nav-find");
  });

  test("go to chunk N, with a message for a number out of range", async () => {
    await page.fill("[data-testid=goto]", "7");
    await page.press("[data-testid=goto]", "Enter");
    assert.match(await inspected(page), /^Chunk 7 of/);
    assert.ok(await chunkInView(page, 6));
    await page.fill("[data-testid=goto]", String(ref.chunks.length + 5));
    await page.press("[data-testid=goto]", "Enter");
    assert.equal(await status(page), `Type a chunk number from 1 to ${ref.chunks.length}.`);
    await page.fill("[data-testid=goto]", String(ref.chunks.length));
    await page.press("[data-testid=goto]", "Enter");
    assert.match(await inspected(page), new RegExp(`^Chunk ${ref.chunks.length} of`));
    assert.ok(await chunkInView(page, ref.chunks.length - 1));
  });

  test("the smallest and the largest chunk", async () => {
    const sizes = ref.chunks.map((c) => c.token_count);
    const min = sizes.indexOf(Math.min(...sizes));
    const max = sizes.indexOf(Math.max(...sizes));
    await page.click("[data-testid=goto-smallest]");
    assert.match(await inspected(page), new RegExp(`^Chunk ${min + 1} of`));
    assert.match(await status(page), new RegExp(`is the smallest: ${sizes[min]} tokens`));
    assert.ok(await chunkInView(page, min));
    await page.click("[data-testid=goto-largest]");
    assert.match(await inspected(page), new RegExp(`^Chunk ${max + 1} of`));
    assert.ok(await chunkInView(page, max));
  });

  test("a histogram bar and a cut reason step through their chunks, one per click", async () => {
    const bins = await page.$$eval("[data-testid=histogram-bar]", (els) => els.map((b) => ({ lo: Number(b.dataset.lo), hi: Number(b.dataset.hi), count: Number(b.dataset.count) })));
    const bi = bins.findIndex((b) => b.count >= 2);
    const inBin = ref.chunks.filter((c) => c.token_count >= bins[bi].lo && c.token_count <= bins[bi].hi).map((c) => c.index);
    assert.equal(inBin.length, bins[bi].count);
    const bar = page.locator("[data-testid=histogram-bar]").nth(bi);
    for (let k = 0; k < 3; k++) await bar.click();
    // Three clicks: first, second, third (or the first again when there are two).
    const third = inBin[2 % inBin.length];
    assert.match(await inspected(page), new RegExp(`^Chunk ${third + 1} of`));
    assert.match(await status(page), new RegExp(`^Chunk ${third + 1}: ${(2 % inBin.length) + 1} of ${inBin.length} with ${bins[bi].lo}–${bins[bi].hi} tokens`));

    const reasons = {};
    for (const c of ref.chunks) (reasons[c.boundary] ||= []).push(c.index);
    const [name, list] = Object.entries(reasons).find(([, l]) => l.length >= 2);
    // Keyboard: focus the reason's row and press Enter twice.
    await page.focus(`[data-testid=step-${name}]`);
    await page.keyboard.press("Enter");
    assert.match(await inspected(page), new RegExp(`^Chunk ${list[0] + 1} of`));
    await page.keyboard.press("Enter");
    assert.match(await inspected(page), new RegExp(`^Chunk ${list[1] + 1} of`));
    assert.match(await status(page), new RegExp(`2 of ${list.length} ending`));
    assert.ok(await chunkInView(page, list[1]));
    await screenshot(page, "nav-step-reason");
  });

  test("in the chunk list, going to a chunk focuses its card", async () => {
    await page.click("[data-testid=tab-cards]");
    // The last card: the list builds the cards up to it first.
    await page.fill("[data-testid=goto]", String(ref.chunks.length));
    await page.press("[data-testid=goto]", "Enter");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.index), String(ref.chunks.length - 1));
    await page.click("[data-testid=goto-largest]");
    const sizes = ref.chunks.map((c) => c.token_count);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.index), String(sizes.indexOf(Math.max(...sizes))));
    assert.deepEqual(await axeViolations(page), []);
    await page.click("[data-testid=tab-document]");
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
