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
    const refA = await engineReference(doc, A);
    const refB = await engineReference(doc, B);
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
    // In the page's words, formatted as the stats panel formats them.
    assert.equal(await page.textContent("#cmp-head-a"), "A: Smart · size 256 · overlap auto · cl100k_base");
    assert.equal(await page.textContent("#cmp-head-b"), "B: Sentences · size 128 · overlap 0 · o200k_base");
    for (const key of ["mean_tokens", "mean_fill", "min_tokens"]) {
      assert.equal(await page.textContent(`[data-testid=cmp-row-${key}] [data-side=a]`), await page.textContent(`[data-testid=stat-${key}]`), key);
    }
    await screenshot(page, "compare");
  });

  test("side by side: A's chunks in one column and B's in the other, numbered and sized, scrolling together", async () => {
    const refA = await engineReference(doc, A);
    const refB = await engineReference(doc, B);
    // From the keyboard: Tab from the interleaved button to "Side by side", then Space.
    await page.focus("[data-testid=cmp-mode-merged]");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "cmp-mode-sides");
    await page.keyboard.press("Space");
    assert.equal(await page.getAttribute("[data-testid=cmp-mode-sides]", "aria-pressed"), "true");
    assert.equal(await page.getAttribute("[data-testid=cmp-mode-merged]", "aria-pressed"), "false");
    assert.ok(await page.isVisible("[data-testid=cmp-sides]"));
    assert.ok(!(await page.isVisible("[data-testid=cmp-view]")), "one reading mode at a time");
    const column = (side) => page.$$eval(`[data-testid=cmp-side-${side}] [data-testid=cmp-chunk]`, (els) => els.map((e) => ({
      head: e.querySelector("[data-testid=cmp-chunk-head]").textContent, text: e.querySelector("[data-testid=cmp-chunk-text]").textContent })));
    for (const [name, ref, other] of [["A", refA, refB], ["B", refB, refA]]) {
      const shown = await column(name.toLowerCase());
      assert.deepEqual(shown.map((c) => c.text), ref.chunks.map((c) => c.text), `${name}'s chunks, in order`);
      const ends = new Set(other.chunks.map((c) => c.end));
      ref.chunks.forEach((c, i) => {
        assert.ok(shown[i].head.startsWith(`${name} ${i + 1} · ${c.token_count} token${c.token_count === 1 ? "" : "s"} · ends `), shown[i].head);
        assert.equal(shown[i].head.endsWith(`cuts here too`), ends.has(c.end), `${name} ${i + 1}: whether the other side cuts there too`);
      });
    }
    assert.equal(await page.textContent("[data-testid=cmp-side-a-head]"), "A: Smart · size 256 · overlap auto · cl100k_base");
    assert.equal(await page.textContent("[data-testid=cmp-side-b-head]"), "B: Sentences · size 128 · overlap 0 · o200k_base");
    // Scrolled to A's chunk k, B shows at its top the chunk that holds A's chunk k's start.
    for (const k of [Math.floor(refA.chunks.length / 2), refA.chunks.length - 2]) {
      const top = await page.evaluate(async (k) => {
        const [a, b] = ["a", "b"].map((s) => document.querySelector(`[data-testid=cmp-side-${s}]`));
        a.scrollTop = a.children[k].offsetTop;
        for (let i = 0; i < 3; i++) await new Promise(requestAnimationFrame);
        const atTop = [...b.children].filter((c) => c.offsetTop <= b.scrollTop + 1).pop();
        return { start: Number(a.children[k].dataset.start), b: [Number(atTop.dataset.start), Number(atTop.dataset.end)],
          bottom: b.scrollTop >= b.scrollHeight - b.clientHeight - 1 };
      }, k);
      // (unless B's column is scrolled to its end, and can go no further)
      assert.ok(top.bottom || (top.b[0] <= top.start && top.start < top.b[1]), `B's top chunk ${top.b} holds A's offset ${top.start}`);
    }
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await axeViolations(page), [], `compare side by side, ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await screenshot(page, "compare-sides");
    await page.focus("[data-testid=cmp-mode-merged]");
    await page.keyboard.press("Enter");
    assert.ok(await page.isVisible("[data-testid=cmp-view]"));
    assert.ok(!(await page.isVisible("[data-testid=cmp-sides]")));
  });

  test("changing A compares again; the compare view passes axe, light and dark", async () => {
    await setSettings(page, { strategy: "paragraphs" });
    await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
    const refA = await engineReference(doc, { ...A, strategy: "paragraphs" });
    assert.equal(Number(await page.getAttribute("[data-testid=cmp-row-chunk_count] [data-side=a]", "data-value")), refA.stats.chunk_count);
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      assert.deepEqual(await axeViolations(page), [], `compare view, ${scheme}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.click("[data-testid=tab-document]");
    await waitDone(page);
  });

  test("B's numbers are checked as A's are: the reason in the status line, B kept as it was", async () => {
    await page.click("[data-testid=tab-compare]");
    const before = await page.textContent("[data-testid=cmp-status]");
    for (const [field, value, message] of [
      ["cmp-size", "0", "Chunk size B must be at least 1, not 0."],
      ["cmp-size", "999999999", "Chunk size B can be at most 1,000,000."],
      ["cmp-size", "2.5", "Chunk size B must be a whole number, not 2.5."],
      ["cmp-overlap", "-3", "Overlap B must be 0 or more, not -3."],
    ]) {
      await page.fill("[data-testid=cmp-size]", field === "cmp-size" ? value : "128");
      await page.fill("[data-testid=cmp-overlap]", field === "cmp-overlap" ? value : "");
      await page.click("[data-testid=cmp-run]");
      assert.equal(await page.textContent("[data-testid=cmp-status]"), message);
      assert.equal(await page.getAttribute(`[data-testid=${field}]`, "aria-invalid"), "true");
      assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), field, "the field to fix has the focus");
    }
    assert.match(before, /only in B/);
    await page.fill("[data-testid=cmp-size]", "128");
    await page.fill("[data-testid=cmp-overlap]", "");
    await page.click("[data-testid=cmp-run]");
    await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
    assert.equal(await page.getAttribute("[data-testid=cmp-overlap]", "aria-invalid"), null);
    assert.equal(await page.textContent("#cmp-head-b"), "B: Sentences · size 128 · overlap auto · o200k_base");
    await page.click("[data-testid=tab-document]");
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});

// Where B's fields and stats take most of the panel (a phone, a short window), the
// compare view stays inside it: nothing covers the Stats panel, nothing scrolls sideways.
for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 720 }]) {
  describe(`compare at ${viewport.width}x${viewport.height}`, () => {
    const app = useApp({ viewport });
    test("B's fields, stats and text stay inside the results panel", async () => {
      const { page } = app;
      await paste(page, doc);
      await waitDone(page);
      await page.click("[data-testid=tab-compare]");
      await page.fill("[data-testid=cmp-size]", "128");
      await page.click("[data-testid=cmp-run]");
      await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
      const layout = await page.evaluate(() => {
        const pane = document.querySelector("#compare-pane");
        const panel = pane.closest("section").getBoundingClientRect();
        const inPanel = (el) => { const r = el.getBoundingClientRect(); return r.right <= panel.right + 0.5 && r.left >= panel.left - 0.5; };
        const stats = document.querySelector("#stats-heading");
        stats.scrollIntoView({ block: "center" });
        const s = stats.getBoundingClientRect();
        const hit = document.elementFromPoint(s.left + 4, s.top + s.height / 2);
        return {
          pageWidth: document.documentElement.scrollWidth, viewWidth: window.innerWidth,
          outside: [...document.querySelectorAll("#compare-pane select, #compare-pane input, #compare-pane button")]
            .filter((el) => !inPanel(el)).map((el) => el.id),
          statsHeadingVisible: hit === stats || stats.contains(hit),
          // what does not fit the pane is scrolled inside it, not drawn past the panel's edge
          spills: pane.scrollHeight > pane.clientHeight + 1 && getComputedStyle(pane).overflowY === "visible",
        };
      });
      assert.ok(layout.pageWidth <= layout.viewWidth, `the page scrolls sideways: ${layout.pageWidth} > ${layout.viewWidth}`);
      assert.deepEqual(layout.outside, [], "fields past the panel's edge");
      assert.ok(layout.statsHeadingVisible, "the compare view covers the Stats panel");
      assert.ok(!layout.spills, "the compare view spills past the results panel");
      await screenshot(page, `compare-${viewport.width}x${viewport.height}`);
    });
  });
}
