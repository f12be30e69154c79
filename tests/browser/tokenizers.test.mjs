// Hugging Face tokenizers in the page: a model preset (its vendored tokenizer.json,
// fetched from the page's own origin) and a tokenizer.json opened from disk (it
// stays in the tab); the downloads equal the CLI's bytes with the same tokenizer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PYTHON, ROOT, download, foreignRequests, paste, readStats, setSettings, tmpFile, useApp, waitDone } from "./helpers.mjs";

const TEXT = [
  readFileSync(path.join(ROOT, "tests/corpus/node-net.md"), "utf8").slice(0, 9000),
  readFileSync(path.join(ROOT, "tests/corpus/russian.txt"), "utf8").slice(0, 3000),
  "Emoji 👩‍👩‍👧 and e\u0301 and 日本語のテキスト, [CLS] </s> <s>.",
].join("\n\n");

const cliBytes = (file, args) =>
  execFileSync(PYTHON, ["-m", "chunkwise", file, ...args, "--format", "jsonl"], { cwd: ROOT, maxBuffer: 1 << 30 });

describe("Hugging Face tokenizers in the page", () => {
  const app = useApp();
  const input = tmpFile("input.txt", TEXT);

  test("a model preset: its tokenizer and size, its limit in the stats, JSONL equal to the CLI's", async () => {
    const { page, log } = app;
    await paste(page, TEXT);
    await page.selectOption("[data-testid=encoding]", "model:all-MiniLM-L6-v2");
    await waitDone(page);
    const stats = await readStats(page);
    assert.equal(stats.budget, 254); // 256 less [CLS] and [SEP]
    assert.equal(stats.model_max_tokens, 256);
    assert.match(await page.textContent("[data-testid=stat-budget]"), /254 tokens of all-MiniLM-L6-v2/);
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cliBytes(input, ["--model", "all-MiniLM-L6-v2"])), "page and CLI differ");
    assert.deepEqual(foreignRequests(log, app.server.origin), []);
  });

  test("a local tokenizer.json: chunks as the CLI's --tokenizer, nothing leaves the tab", async () => {
    const { page, log } = app;
    const requests = log.requests.length;
    const file = path.join(ROOT, ".cache/build/tokenizers/multilingual-e5-small.json");
    const local = tmpFile("tokenizer.json", readFileSync(file));
    await page.setInputFiles("[data-testid=tokenizer-file]", local);
    await page.waitForFunction(() => document.querySelector("[data-testid=encoding]").value.endsWith("tokenizer.json"));
    await setSettings(page, { size: 300, overlap: 20 });
    await waitDone(page);
    const got = await download(page, "download-jsonl");
    const want = cliBytes(input, ["--tokenizer", local, "--max-tokens", "300", "--overlap", "20"]);
    assert.ok(got.bytes.equals(want), "page and CLI differ");
    assert.deepEqual(log.requests.slice(requests).filter((u) => u.includes("tokenizer")), []);
  });

  test("a file that is not a usable tokenizer gets a clear message", async () => {
    const { page } = app;
    const bad = tmpFile("tokenizer.json", '{"model": {"type": "Mystery"}}');
    await page.setInputFiles("[data-testid=tokenizer-file]", bad);
    await page.waitForFunction(() => /cannot be used/.test(document.body.textContent));
    assert.match(await page.textContent("body"), /model 'Mystery' is not supported/);
  });
});
