// Compare against the splitter people use today (issue 27): LangChain's
// RecursiveCharacterTextSplitter as Compare's B; the stats say, for the same text, how
// many chunks of each side start mid-sentence, how many are over the budget and how
// many cuts only one side makes; every cut shows the number and size of the chunk each
// side ends there; the CLI's `--strategy langchain-recursive` gives B's chunks; the
// compare view has the room of the main document view.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PYTHON, ROOT, cli, engineReference, paste, screenshot, setSettings, tmpFile, useApp } from "./helpers.mjs";

// Russian prose: at 64 tokens LangChain makes chunks over the budget (it sums its pieces' counts).
const doc = readFileSync(path.join(ROOT, "tests/corpus/russian.txt"), "utf8");
const A = { strategy: "smart", max_tokens: 64, overlap: 32, encoding: "cl100k_base" };
const B = { strategy: "langchain-recursive", max_tokens: 64, overlap: 32, encoding: "cl100k_base" };

// The engine's comparison on CPython (io/stats.py comparison), for the same text and settings.
function comparisonReference(text, a, b) {
  const file = tmpFile("input.txt", Buffer.from(text, "utf8"));
  const code = `
import json, sys
import chunkwise
from chunkwise.io import stats
doc = chunkwise.Document(open(sys.argv[1], encoding="utf-8").read())
a, b = (doc.chunk(**json.loads(s)) for s in sys.argv[2:])
print(json.dumps(stats.comparison(a, b)))`;
  return JSON.parse(execFileSync(PYTHON, ["-c", code, file, JSON.stringify(a), JSON.stringify(b)], { cwd: ROOT }).toString());
}

describe("compare with LangChain recursive", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page, mainViewHeight;
  before(async () => {
    page = app.page;
    await paste(page, doc);
    await setSettings(page, { size: A.max_tokens, overlap: A.overlap });
    mainViewHeight = await page.evaluate(() => document.querySelector("[data-testid=document-view]").clientHeight);
    await page.click("[data-testid=tab-compare]");
    const label = await page.$eval("[data-testid=cmp-strategy] option[value=langchain-recursive]", (o) => o.textContent);
    assert.equal(label, "LangChain recursive (reference)");
    await page.selectOption("[data-testid=cmp-strategy]", B.strategy);
    await page.fill("[data-testid=cmp-size]", String(B.max_tokens));
    await page.fill("[data-testid=cmp-overlap]", String(B.overlap));
    await page.selectOption("[data-testid=cmp-encoding]", B.encoding);
    await page.click("[data-testid=cmp-run]");
    await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
  });

  const value = async (key, side) => Number(await page.getAttribute(`[data-testid=cmp-row-${key}] [data-side=${side}]`, "data-value"));

  test("the stats say how many chunks start mid-sentence, are over the budget, and cut elsewhere", async () => {
    const want = comparisonReference(doc, A, B);
    for (const side of ["a", "b"]) {
      assert.equal(await value("mid_sentence", side), want[side].mid_sentence, `${side} mid-sentence`);
      assert.equal(await value("over_budget", side), want[side].over_budget, `${side} over the budget`);
      assert.equal(await value("cuts_only", side), want.cuts[side], `${side} cuts only`);
    }
    assert.ok(want.b.over_budget > 0 && want.a.over_budget === 0, "LangChain goes over the budget here, smart never");
    assert.equal(await page.textContent("[data-testid=cmp-row-over_budget] th"), "Chunks over the budget");
    assert.equal(await page.textContent("#cmp-head-b"), "B: LangChain recursive (reference) · size 64 · overlap 32 · cl100k_base");
    assert.equal(await page.textContent("[data-testid=cmp-status]"),
      `${want.cuts.both} cut${want.cuts.both === 1 ? "" : "s"} in both, ${want.cuts.a} only in A, ${want.cuts.b} only in B.`);
  });

  test("the CLI's --strategy langchain-recursive gives B's chunks: each cut shows its number and size", async () => {
    const file = tmpFile("russian.txt", doc);
    const records = cli(file, B, "jsonl").toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(await value("chunk_count", "b"), records.length);
    assert.equal(await value("max_tokens", "b"), Math.max(...records.map((r) => r.token_count)));
    const marks = await page.$$eval("[data-testid=cmp-cut]", (els) => els.map((e) => ({ at: Number(e.dataset.at), label: e.dataset.label, side: e.dataset.side })));
    const at = new Map(marks.map((m) => [m.at, m]));
    const lastEnding = new Map(records.map((r) => [r.end, r])); // (the text is in the BMP: code points are UTF-16 units)
    for (const [end, r] of lastEnding) {
      const mark = at.get(end);
      assert.ok(mark && mark.side !== "a", `no B cut at ${end}`);
      assert.ok(mark.label.includes(`B ${r.index + 1} · ${r.token_count}`), `${mark.label} names B's chunk ${r.index + 1}`);
    }
    for (const c of (await engineReference(doc, A)).chunks) {
      assert.ok(at.get(c.end)?.label.startsWith(`A ${c.index + 1} · ${c.token_count}`), `A's chunk ${c.index + 1} at ${c.end}`);
    }
    assert.equal(marks.filter((m) => m.side !== "a").length, lastEnding.size);
    // the label is drawn, not text: the view's text is the document's
    assert.equal(await page.textContent("[data-testid=cmp-view]"), doc);
    const drawn = await page.$eval("[data-testid=cmp-cut][data-side=both]", (e) => getComputedStyle(e, "::before").content);
    assert.match(drawn, /^"A \d+ · \d+ \| B \d+ · \d+"$/);
  });

  test("the compare view has the room of the main document view", async () => {
    const height = await page.evaluate(() => document.querySelector("[data-testid=cmp-view]").clientHeight);
    assert.ok(height >= mainViewHeight * 0.9, `compare view ${height}px, the main one ${mainViewHeight}px`);
    await page.$eval("[data-testid=cmp-view]", (e) => e.scrollIntoView());
    await screenshot(page, "compare-langchain");
  });

  test("no errors in the console", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
  });
});
