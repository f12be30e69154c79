// Compare (issue 13): a second set of settings (or tokenizer) on the same text,
// the two stats side by side and every cut marked as in both, only A or only B;
// axe finds nothing in the compare view, light and dark.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { engineReference, paste, screenshot, setSettings, useApp, waitDone } from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc } from "./corpus.mjs";

const doc = markdownDoc(7, 4);
const A = { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" };
const B = { strategy: "sentences", max_tokens: 128, overlap: 0, encoding: "o200k_base" };

// The cuts (chunk ends, as UTF-16 offsets) of a reference answer.
const cutsOf = (ref) => ref.chunks.map((c) => Array.from(doc).slice(0, c.end).join("").length);

describe("compare two settings", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  before(async () => {
    page = app.page;
    await paste(page, doc);
    await setSettings(page, { size: 256 });
  });

  async function compareWith(b) {
    await page.click("[data-testid=tab-compare]");
    await page.selectOption("[data-testid=cmp-strategy]", b.strategy);
    await page.fill("[data-testid=cmp-size]", String(b.max_tokens));
    await page.fill("[data-testid=cmp-overlap]", b.overlap == null ? "" : String(b.overlap));
    await page.selectOption("[data-testid=cmp-encoding]", b.encoding);
    await page.click("[data-testid=cmp-run]");
    await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
  }

  test("B's stats sit next to A's, and the cuts that differ are marked", async () => {
    await compareWith(B);
    const refA = engineReference(doc, A);
    const refB = engineReference(doc, B);
    for (const key of ["chunk_count", "min_tokens", "max_tokens", "mean_fill", "overlap_share"]) {
      assert.equal(Number(await page.getAttribute(`[data-testid=cmp-row-${key}] [data-side=a]`, "data-value")), refA.stats[key], `A ${key}`);
      assert.equal(Number(await page.getAttribute(`[data-testid=cmp-row-${key}] [data-side=b]`, "data-value")), refB.stats[key], `B ${key}`);
    }
    const a = new Set(cutsOf(refA)), b = new Set(cutsOf(refB));
    const want = [...new Set([...a, ...b])].sort((x, y) => x - y).map((x) => ({ at: x, side: a.has(x) && b.has(x) ? "both" : a.has(x) ? "a" : "b" }));
    const shown = await page.$$eval("[data-testid=cmp-cut]", (els) => els.map((e) => ({ at: Number(e.dataset.at), side: e.dataset.side })));
    assert.deepEqual(shown, want);
    assert.ok(want.some((c) => c.side === "a") && want.some((c) => c.side === "b"), "these settings cut differently");
    const n = (side) => want.filter((c) => c.side === side).length;
    assert.equal(await page.textContent("[data-testid=cmp-status]"), `${n("both")} cut${n("both") === 1 ? "" : "s"} in both, ${n("a")} only in A, ${n("b")} only in B.`);
    assert.equal(await page.textContent("[data-testid=cmp-view]"), doc, "the whole text, once");
    await screenshot(page, "compare");
  });

  test("changing A compares again; the compare view passes axe, light and dark", async () => {
    await setSettings(page, { strategy: "paragraphs" });
    await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
    const refA = engineReference(doc, { ...A, strategy: "paragraphs" });
    assert.equal(Number(await page.getAttribute("[data-testid=cmp-row-chunk_count] [data-side=a]", "data-value")), refA.stats.chunk_count);
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await axeViolations(page), [], `compare view, ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.click("[data-testid=tab-document]");
    await waitDone(page);
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
