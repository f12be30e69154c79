// The main states at a laptop's 1280×800 and a phone's 390×844, light and dark:
// screenshots into test-artifacts/ (looked at by people, not compared), and
// axe-core finds no violation in any of them.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { paste, screenshot, setSettings, useApp, waitDone } from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc } from "./corpus.mjs";

const VIEWPORTS = { laptop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

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

        await page.click("[data-testid=tab-cards]");
        await page.waitForSelector("[data-testid=card]");
        await screenshot(page, `${vp}-${scheme}-3-chunk-list`);
        assert.deepEqual(await axeViolations(page), [], "chunk list");
        await page.click("[data-testid=tab-document]");

        // Stats and downloads (scrolled to on a phone).
        await page.evaluate(() => document.querySelector("[data-testid=stats-panel]").scrollIntoView());
        await screenshot(page, `${vp}-${scheme}-4-stats`);
        await waitDone(page);
      });
    }
  }

  test("no errors in the console, no CSP violations", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
