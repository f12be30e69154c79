// Issue 27, defect 2: a layout a laptop user lives in. On a laptop's screen the
// chunks, the histogram and the downloads are in view together, with the page not
// scrolled; on a phone the downloads sit with the chunks. Failed before: the stats
// started at y≈1315 and the JSONL button at y≈2330 at 1280x800.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cutLabels, download, pageScrollsSideways, paste, place, screenshot, setSettings, useApp } from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc } from "./corpus.mjs";

describe("defect 2: stats and downloads beside the chunks", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  async function assertInView(parts, size) {
    for (const part of parts) {
      const p = await place(page, part);
      assert.ok(p.inView, `${part} is in the window at ${size.width}x${size.height}: ${JSON.stringify(p)}`);
    }
  }

  before(async () => {
    page = app.page;
    await paste(page, markdownDoc(7, 6));
    await setSettings(page, { size: 128 });
  });

  for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
    test(`${size.width}x${size.height}: chunks, histogram and downloads in view, the page not scrolled`, async () => {
      await page.setViewportSize(size);
      await page.evaluate(() => scrollTo(0, 0));
      await assertInView(["[data-testid=document-view]", "[data-testid=histogram]", "[data-testid=histogram-caption]",
        "[data-testid=reason-end]", "[data-testid=download-jsonl]", "[data-testid=download-text]", "[data-testid=strategy]"], size);
      const view = await place(page, "[data-testid=document-view]");
      assert.ok(view.bottom - view.top >= 400, `the document view stays tall: ${view.bottom - view.top}px`);
      assert.ok(view.right - view.left >= 540, `and wide: ${view.right - view.left}px`);
      // A click on the histogram shows its chunk in the view beside it, the page still unscrolled.
      await page.click("[data-testid=histogram-bar]:not([data-count=\"0\"]) >> nth=-1");
      assert.ok((await place(page, ".seg.active")).inView, "the chunk picked in the histogram is in view");
      const { name, bytes } = await download(page, "download-jsonl");
      assert.match(name, /\.jsonl$/);
      assert.ok(bytes.length > 0);
      assert.equal(await page.evaluate(() => scrollY), 0, "nothing needed scrolling the page");
      await screenshot(page, `layout-${size.width}x${size.height}`);
      assert.deepEqual(await axeViolations(page), []);
    });
  }

  // Issue 27 leftovers: a 1024, 1100 or 1180 px laptop had the Stats under the settings,
  // two screens down (y≈1417 at 1024x768).
  for (const size of [{ width: 1024, height: 768 }, { width: 1100, height: 800 }, { width: 1180, height: 820 }]) {
    test(`${size.width}x${size.height}: chunks, stats, histogram and downloads in view, the page not scrolled`, async () => {
      await page.setViewportSize(size);
      await page.evaluate(() => scrollTo(0, 0));
      await assertInView(["[data-testid=document-view]", "#stats-heading", "[data-testid=stat-chunk_count]", "[data-testid=histogram]",
        "[data-testid=download-jsonl]", "[data-testid=download-text]", "[data-testid=strategy]"], size);
      const view = await place(page, "[data-testid=document-view]");
      assert.ok(view.bottom - view.top >= 300, `the document view stays tall: ${view.bottom - view.top}px`);
      assert.ok(view.right - view.left >= 420, `and wide: ${view.right - view.left}px`);
      assert.ok(!(await pageScrollsSideways(page)), "the page scrolls sideways");
      assert.deepEqual(await cutLabels(page, { every: true }), [], "a setting's label is cut");
      await page.click("[data-testid=histogram-bar]:not([data-count=\"0\"]) >> nth=0");
      assert.ok((await place(page, ".seg.active")).inView, "the chunk picked in the histogram is in view");
      assert.equal(await page.evaluate(() => scrollY), 0, "nothing needed scrolling the page");
      await screenshot(page, `layout-${size.width}x${size.height}`);
    });
  }

  test("1280x800: every setting's label fits its select", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(await cutLabels(page, { every: true }), []);
  });

  test("a phone: the downloads sit with the chunks, the settings just above", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => document.querySelector("#results").scrollIntoView());
    assert.ok((await place(page, "[data-testid=download-jsonl]")).inView, "the JSONL button is on screen with the chunks");
    const view = await place(page, "[data-testid=document-view]");
    assert.ok(view.bottom - view.top >= 280, `the chunks keep their room: ${view.bottom - view.top}px`);
    await screenshot(page, "layout-phone");
    assert.deepEqual(await axeViolations(page), []);
  });

  // Issue 27 leftovers on a phone: "cl100k_base (GF", the Text button alone on a second
  // row, and a heading path drawn past the inspector's edge.
  test("a phone: whole labels, the downloads in a tidy grid, the section path wrapped", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => scrollTo(0, 0));
    assert.ok(!(await pageScrollsSideways(page)), "the page scrolls sideways");
    assert.deepEqual(await cutLabels(page, { every: true }), [], "a setting's label is cut");
    // The label and the five formats: rows of the same number of cells, none left alone.
    const rows = await page.evaluate(() => {
      const byTop = new Map();
      for (const cell of document.querySelector(".result-actions").children) {
        const r = cell.getBoundingClientRect();
        const top = Math.round(r.top + r.height / 2); // (a row: the same middle)
        byTop.set(top, [...(byTop.get(top) || []), Math.round(r.width)]);
      }
      return [...byTop.values()];
    });
    assert.ok(rows.length <= 2 && rows.every((r) => r.length === rows[0].length), `the Download row: ${JSON.stringify(rows)}`);
    for (const button of ["jsonl", "json", "langchain", "vectors", "text"]) {
      const b = await page.$eval(`[data-testid=download-${button}]`, (e) => ({ sw: e.scrollWidth, cw: e.clientWidth }));
      assert.ok(b.sw <= b.cw, `${button}'s name fits its button`);
    }
    // A chunk three headings deep: its section path wraps inside the inspector.
    await page.evaluate(() => document.querySelector("#results").scrollIntoView());
    await page.focus("[data-testid=document-view]");
    await page.keyboard.press("Home");
    for (let i = 0; i < 60 && (await page.textContent("[data-testid=inspect-headings]").catch(() => "")).split("›").length < 3; i++) {
      await page.keyboard.press("ArrowDown");
    }
    const facts = await page.evaluate(() => {
      const box = document.querySelector("[data-testid=chunk-inspector]").getBoundingClientRect();
      return [...document.querySelectorAll("[data-testid=chunk-inspector] .fact")].map((f) => {
        const r = f.getBoundingClientRect();
        return { id: f.dataset.testid, text: f.textContent, inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 };
      });
    });
    const section = facts.find((f) => f.id === "inspect-headings");
    assert.equal(section.text.split("›").length, 3, section.text);
    assert.deepEqual(facts.filter((f) => !f.inside), [], "facts drawn past the inspector's edge");
    await screenshot(page, "layout-phone-inspector");
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

// Compare, side by side, at 1280x800: its two columns had the stats table and B's form
// above them and started at y≈550, the page's fold; they start where the main view does
// (about y=320) and end in the window, nothing scrolled.
describe("compare's reading view has the room of the main view", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  test("1280x800, side by side: the two columns start high and end in the window", async () => {
    const { page } = app;
    await paste(page, markdownDoc(7, 6));
    await setSettings(page, { size: 256 });
    const main = await place(page, "[data-testid=document-view]");
    await page.click("[data-testid=tab-compare]");
    await page.fill("[data-testid=cmp-size]", "128");
    await page.click("[data-testid=cmp-run]");
    await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
    await page.click("[data-testid=cmp-mode-sides]");
    for (const side of ["a", "b"]) {
      const p = await place(page, `[data-testid=cmp-side-${side}]`);
      assert.ok(p.inView, `column ${side} is in the window: ${JSON.stringify(p)}`);
      assert.ok(p.top <= main.top + 100, `column ${side} starts at y=${p.top}, the main view at y=${main.top}`);
      assert.ok(p.bottom - p.top >= 340, `column ${side} is ${p.bottom - p.top}px tall`);
    }
    assert.equal(await page.evaluate(() => scrollY + document.querySelector("#compare-pane").scrollTop), 0, "nothing scrolled");
    assert.deepEqual(await cutLabels(page), [], "B's chosen labels are cut");
    // The stats of A and B are a click away, their headline in the fold's summary.
    assert.match(await page.textContent("[data-testid=cmp-stats-summary]"), /^Stats: \d+ chunks in A, \d+ in B$/);
    await page.click("[data-testid=cmp-stats-summary]");
    assert.ok(await page.isVisible("[data-testid=cmp-row-chunk_count]"));
    await screenshot(page, "layout-compare-sides");
    assert.deepEqual(await axeViolations(page), []);
  });
});
