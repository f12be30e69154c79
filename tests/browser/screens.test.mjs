// The main states at a laptop's 1280×800, a smaller laptop's 1024×768 and a phone's
// 390×844, light and dark: screenshots into test-artifacts/ (looked at by people, not
// compared), axe-core finds no violation in any of them, nothing scrolls the page
// sideways and no chosen label is cut; on the laptops the stats, the JSONL button and
// the chunks are on screen together. Also the README's two screenshots, of a real document.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, cutLabels, pageScrollsSideways, paste, place, screenshot, setSettings, useApp, waitDone } from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc } from "./corpus.mjs";

const VIEWPORTS = { laptop: { width: 1280, height: 800 }, midsize: { width: 1024, height: 768 }, phone: { width: 390, height: 844 } };

// Nothing wider than the window, no chosen label cut; on a laptop, the stats, the JSONL
// button and the chunks in the window with the page unscrolled.
async function assertFits(page, vp, state, chunks = "[data-testid=document-view]") {
  assert.ok(!(await pageScrollsSideways(page)), `${state}: the page scrolls sideways`);
  assert.deepEqual(await cutLabels(page), [], `${state}: a chosen label is cut`);
  if (vp === "phone") return;
  for (const part of ["#stats-heading", "[data-testid=stat-chunk_count]", "[data-testid=download-jsonl]", chunks]) {
    assert.ok((await place(page, part)).inView, `${state}: ${part} is in the window`);
  }
}

describe("screenshots of the main states, with axe in each", () => {
  const app = useApp({ viewport: VIEWPORTS.laptop });
  let page;
  before(() => { page = app.page; });

  for (const [vp, size] of Object.entries(VIEWPORTS)) {
    for (const scheme of ["light", "dark"]) {
      test(`${vp}, ${scheme}: empty, document view, chunk list`, async () => {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.click("[data-testid=clear-text]");
        await page.evaluate(() => scrollTo(0, 0));
        await screenshot(page, `${vp}-${scheme}-1-empty`);
        assert.deepEqual(await axeViolations(page), [], "empty");

        await paste(page, markdownDoc(7, 6));
        await setSettings(page, { size: 128 });
        await page.click("[data-testid=tab-document]");
        await page.evaluate(() => { document.querySelector("[data-testid=document-view]").scrollTop = 0; scrollTo(0, 0); });
        // Select chunk 2 from the keyboard (a pointer may not reach it on a small screen).
        await page.focus("[data-testid=document-view]");
        await page.keyboard.press("Home");
        await page.keyboard.press("ArrowDown");
        await page.evaluate(() => scrollTo(0, 0));
        await screenshot(page, `${vp}-${scheme}-2-document`);
        assert.deepEqual(await axeViolations(page), [], "document view");
        await assertFits(page, vp, "document view");

        await page.click("[data-testid=tab-cards]");
        await page.waitForSelector("[data-testid=card]");
        await screenshot(page, `${vp}-${scheme}-3-chunk-list`);
        assert.deepEqual(await axeViolations(page), [], "chunk list");
        await assertFits(page, vp, "chunk list", "#cards-pane");
        await page.click("[data-testid=tab-document]");

        // Stats and downloads (scrolled to on a phone).
        await page.evaluate(() => document.querySelector("[data-testid=stats-panel]").scrollIntoView());
        await screenshot(page, `${vp}-${scheme}-4-stats`);
        await waitDone(page);
      });
    }
  }

  // docs/screenshot.png and docs/screenshot-phone.png are these two, copied by hand.
  test("the README's screenshots: Node's net.md chunked, at 1280x800 and 390x844", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(VIEWPORTS.laptop);
    await paste(page, readFileSync(path.join(ROOT, "tests/corpus/node-net.md"), "utf8"));
    await setSettings(page, { size: 256 });
    await page.click("[data-testid=tab-document]");
    // The view scrolled to the fourth cut, the pointer on the chunk after it (the inspector
    // shows it), the text box at the document's start.
    const at = await page.evaluate(() => {
      const view = document.querySelector("[data-testid=document-view]");
      document.querySelector("[data-testid=source-text]").scrollTop = 0;
      scrollTo(0, 0);
      const cut = () => view.querySelectorAll("[data-testid=cut]")[3].getBoundingClientRect();
      view.scrollTop += cut().top - view.getBoundingClientRect().top - view.clientHeight * 0.3;
      return { x: view.getBoundingClientRect().left + 60, y: cut().bottom + 30 };
    });
    await page.mouse.move(at.x, at.y);
    assert.match(await page.textContent("[data-testid=inspect-index]"), /^Chunk 5 of/);
    await assertFits(page, "laptop", "README, laptop");
    await screenshot(page, "readme-laptop");
    await page.setViewportSize(VIEWPORTS.phone);
    // a tap on a chunk picks it (the inspector shows it)
    const tap = await page.evaluate(() => {
      document.querySelector("#results").scrollIntoView();
      const start = document.querySelector("[data-testid=document-view] .start-mark[data-n='5']").getBoundingClientRect();
      return { x: start.right + 40, y: start.top + start.height / 2 };
    });
    await page.mouse.click(tap.x, tap.y);
    assert.match(await page.textContent("[data-testid=inspect-index]"), /^Chunk \d+ of/);
    await assertFits(page, "phone", "README, phone");
    await screenshot(page, "readme-phone");
    await page.setViewportSize(VIEWPORTS.laptop);
  });

  test("no errors in the console, no CSP violations", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
