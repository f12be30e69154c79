// The page's engine survives what could break it: Python that nests deep enough to
// overflow the JS stack in the worker, had the engine asked Python's parser (Pyodide
// died of it; the engine's own scanner reads Python now), is chunked as the CLI chunks
// it, and a runtime that breaks anyway is replaced, with the user's text and settings kept.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cli, download, setSettings, tmpFile, useApp, waitDone } from "./helpers.mjs";

const HEAD = "import os\n\n\ndef main():\n    return os.getcwd()\n\n\n";
const DEEP = {
  "unary minus": `${HEAD}x = ${"-".repeat(1000)}y\n`,
  "not not": `${HEAD}x = ${"not ".repeat(1000)}y\n`,
  "parentheses": `${HEAD}x = ${"(".repeat(1000)}y${")".repeat(1000)}\n`,
};

describe("recovery", () => {
  const app = useApp();
  let page;
  const settings = { strategy: "smart", max_tokens: 64, overlap: 8, encoding: "cl100k_base" };

  before(async () => {
    page = app.page;
    await page.selectOption("[data-testid=language]", "python");
  });

  for (const [name, text] of Object.entries(DEEP)) {
    test(`deeply nested Python (${name}) is chunked as the CLI chunks it`, async () => {
      await page.fill("[data-testid=source-text]", text);
      await waitDone(page);
      await setSettings(page, { size: 64, overlap: 8 });
      const got = await download(page, "download-jsonl");
      const file = tmpFile("deep.py", text);
      assert.ok(got.bytes.equals(cli(file, settings, "jsonl", false, ["--language", "python"])), `JSONL differs from the CLI's (${name})`);
    });
  }

  test("a runtime that breaks is replaced: the page says so, keeps the text and settings, and chunks again", async () => {
    const text = "First paragraph. It has two sentences.\n\nSecond paragraph here.\n";
    await page.selectOption("[data-testid=language]", "auto");
    await page.fill("[data-testid=source-text]", text);
    await setSettings(page, { size: 64, overlap: 8 });
    // The next document breaks the worker's runtime for real: its JS stack overflows
    // inside Pyodide's parser, as deep Python did when the engine still parsed it.
    await page.workers().at(-1).evaluate(() => self.pyodide.runPython(
      "import ast, chunkwise.bridge\n"
      + "chunkwise.bridge.Session.set_text = lambda self, text: ast.parse('x = ' + '-' * 200000 + 'y')"));
    await page.fill("[data-testid=source-text]", text + "Third.\n");
    await page.waitForFunction(() => document.querySelector("[data-testid=run-status]").dataset.state === "error");
    assert.match(await page.textContent("[data-testid=run-error]"), /The engine stopped and was restarted; your text and settings are kept/);
    await page.waitForFunction(() => /Engine restarted/.test(document.querySelector("[data-testid=engine-status]").textContent));
    assert.equal(await page.inputValue("[data-testid=source-text]"), text + "Third.\n");
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "64");
    assert.equal(await page.inputValue("[data-testid=overlap]"), "8");
    await page.fill("[data-testid=source-text]", text + "Third. Fourth.\n");
    await waitDone(page);
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cli(tmpFile("after.txt", text + "Third. Fourth.\n"), settings, "jsonl")), "the new engine's JSONL differs from the CLI's");
  });
});
