// Per-chunk flags (issue 13): starts mid-sentence, very small, heading only,
// hard cut; counted in the stats panel (a click steps through them) and a
// filter of the chunk list.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { engineReference, paste, screenshot, setSettings, useApp } from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc } from "./corpus.mjs";

// Headings on their own (a heading-only chunk at a small budget), prose, one
// long sentence without punctuation (cut between words), a hard-wrapped one (its line
// breaks are soft wraps: a chunk that starts after one starts mid-sentence) and a tiny last paragraph.
const wrapped = Array.from({ length: 12 }, (_, i) => `line ${i} of a sentence that is wrapped at a width and goes on,`).join("\n");
const doc = "# Handbook\n\n## Part one\n\n### Detail\n\n" + markdownDoc(4, 3)
  + "\n\n" + "alpha beta gamma delta ".repeat(30) + "final.\n\n" + wrapped + " to its end.\n\nTiny.\n";
const settings = { strategy: "smart", max_tokens: 40, overlap: 0, encoding: "cl100k_base" };

describe("per-chunk flags", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page, ref, expected;
  before(async () => {
    page = app.page;
    await paste(page, doc);
    await setSettings(page, { size: 40, overlap: 0 });
    ref = await engineReference(doc, settings);
    const cps = Array.from(doc);
    expected = {
      "hard-cut": ref.chunks.filter((c) => c.boundary === "word" || c.boundary === "token").map((c) => c.index),
      small: ref.chunks.filter((c) => c.token_count < 40 / 4).map((c) => c.index),
      "heading-only": ref.chunks.filter((c) => c.text.split("\n").filter((l) => l.trim()).every((l) => /^#{1,6} /.test(l))).map((c) => c.index),
      // Mid-sentence: the engine's one judge (Document.starts_sentence), which the page shows
      "mid-sentence": ref.mid_sentence,
    };
    // a chunk that starts right after a soft wrap is mid-sentence, though a line starts there
    assert.ok(ref.mid_sentence.some((i) => cps[ref.chunks[i].start - 1] === "\n"), "the sample starts a chunk after a soft wrap");
    for (const [flag, list] of Object.entries(expected)) assert.ok(list.length > 0, `the sample has ${flag} chunks`);
  });

  test("the stats panel counts each flag, and a click steps through its chunks", async () => {
    for (const [flag, list] of Object.entries(expected)) {
      assert.equal(await page.getAttribute(`[data-testid=flag-${flag}]`, "data-value"), String(list.length), flag);
    }
    await page.click("[data-testid=step-flag-hard-cut]");
    assert.match(await page.textContent("[data-testid=inspect-index]"), new RegExp(`^Chunk ${expected["hard-cut"][0] + 1} of`));
    await page.click("[data-testid=step-flag-hard-cut]");
    assert.match(await page.textContent("[data-testid=inspect-index]"), new RegExp(`^Chunk ${expected["hard-cut"][1 % expected["hard-cut"].length] + 1} of`));
    assert.match(await page.textContent("[data-testid=nav-status]"), /flagged "hard cut"/);
  });

  test("the chunk list filters on a flag, and each card shows its flags", async () => {
    await page.click("[data-testid=tab-cards]");
    for (const [flag, list] of Object.entries(expected)) {
      await page.selectOption("[data-testid=card-filter]", flag);
      const shown = await page.$$eval("[data-testid=card]", (els) => els.map((e) => Number(e.dataset.index)));
      assert.deepEqual(shown, list.slice(0, shown.length), `${flag}: only its chunks, in order`);
      assert.ok(shown.length === Math.min(list.length, 40) || shown.length === list.length);
      const badges = await page.$$eval("[data-testid=card]", (els, f) => els.every((e) =>
        [...e.querySelectorAll("[data-testid=card-flag]")].some((b) => b.dataset.flag === f)), flag);
      assert.ok(badges, `${flag}: every shown card carries the flag`);
    }
    await screenshot(page, "flags-filter");
    assert.deepEqual(await axeViolations(page), []);
    // Going to a chunk the filter hides shows every chunk again.
    const hidden = ref.chunks.find((c) => !expected.small.includes(c.index));
    await page.selectOption("[data-testid=card-filter]", "small");
    await page.fill("[data-testid=goto]", String(hidden.index + 1));
    await page.press("[data-testid=goto]", "Enter");
    assert.equal(await page.inputValue("[data-testid=card-filter]"), "");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.index), String(hidden.index));
    await page.click("[data-testid=tab-document]");
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
