// Hugging Face tokenizers in the page: a model preset (its vendored tokenizer.json,
// fetched from the page's own origin) and a tokenizer.json opened from disk (it
// stays in the tab); the downloads equal the CLI's bytes with the same tokenizer.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  PYTHON, ROOT, clipboard, download, foreignRequests, paste, readStats, runCommand, runPython, setSettings, tmpFile, useApp,
  waitDone, waitReady,
} from "./helpers.mjs";

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
    // The tokenizer's help says where the size came from; leaving the model takes its size back.
    assert.equal(await page.textContent("[data-testid=encoding-help]"),
      "all-MiniLM-L6-v2 embeds 256 tokens, 2 of them its special tokens: the chunk size follows, 254, unless you choose one.");
    await page.selectOption("[data-testid=encoding]", "chars");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "512");
    assert.equal(await page.textContent("[data-testid=encoding-help]"), "Counts characters (code points) instead of tokens.");
  });

  test("a size you chose stays when you pick a model; the address, command line and Python name the model", async () => {
    const { page } = app;
    await setSettings(page, { encoding: "cl100k_base" });
    await setSettings(page, { size: 200 });
    await page.selectOption("[data-testid=encoding]", "model:multilingual-e5-small");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "200");
    assert.match(await page.textContent("[data-testid=encoding-help]"), /The chunk size is the one you chose\.$/);
    assert.match(new URL(page.url()).hash, /size=200&model=multilingual-e5-small$/);
    const want = (await download(page, "download-jsonl")).bytes;
    const dir = path.dirname(tmpFile("pasted.txt", TEXT));
    await page.click("[data-testid=copy-cli]");
    const command = await clipboard(page);
    assert.match(command, / --model multilingual-e5-small /);
    assert.ok(runCommand(command, dir).equals(want), "the command line's bytes differ from the page's");
    await page.click("[data-testid=copy-python]");
    assert.ok(runPython(await clipboard(page), dir).equals(want), "the Python's bytes differ from the page's");
    // The address brings the model back.
    await page.reload();
    await waitReady(page);
    assert.equal(await page.inputValue("[data-testid=encoding]"), "model:multilingual-e5-small");
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "200");
  });

  test("a local tokenizer.json: chunks as the CLI's --tokenizer, nothing leaves the tab", async () => {
    const { page, log } = app;
    await paste(page, TEXT); // (after the reload the text is back, kept in the tab; pasted again, the run starts afresh)
    const requests = log.requests.length;
    const { tokenizers } = JSON.parse(readFileSync(path.join(ROOT, "static/vendor/manifest.json"), "utf8"));
    const file = path.join(ROOT, "static/vendor", tokenizers["multilingual-e5-small"]); // the vendored copy
    const local = tmpFile("tokenizer.json", readFileSync(file));
    await page.setInputFiles("[data-testid=tokenizer-file]", local);
    await page.waitForFunction(() => document.querySelector("[data-testid=encoding]").value.endsWith("tokenizer.json"));
    await setSettings(page, { size: 300, overlap: 20 });
    await waitDone(page);
    const got = await download(page, "download-jsonl");
    const want = cliBytes(input, ["--tokenizer", local, "--max-tokens", "300", "--overlap", "20"]);
    assert.ok(got.bytes.equals(want), "page and CLI differ");
    assert.deepEqual(log.requests.slice(requests).filter((u) => u.includes("tokenizer")), []);
    // The copied command line and Python read the tokenizer.json from beside the input.
    const dir = path.dirname(tmpFile("pasted.txt", TEXT));
    copyFileSync(local, path.join(dir, "tokenizer.json"));
    await page.click("[data-testid=copy-cli]");
    const command = await clipboard(page);
    assert.match(command, / --tokenizer tokenizer\.json /);
    assert.ok(runCommand(command, dir).equals(got.bytes), "the command line's bytes differ from the page's");
    await page.click("[data-testid=copy-python]");
    assert.ok(runPython(await clipboard(page), dir).equals(got.bytes), "the Python's bytes differ from the page's");
  });

  test("a second tokenizer.json (the same file name, another model) counts with the second", async () => {
    const { page } = app;
    const { tokenizers } = JSON.parse(readFileSync(path.join(ROOT, "static/vendor/manifest.json"), "utf8"));
    const second = tmpFile("tokenizer.json", readFileSync(path.join(ROOT, "static/vendor", tokenizers["all-MiniLM-L6-v2"])));
    await page.setInputFiles("[data-testid=tokenizer-file]", second);
    await page.waitForFunction(() => /WordPiece/.test(document.querySelector("[data-testid=encoding]").selectedOptions[0]?.textContent));
    await waitDone(page);
    const got = await download(page, "download-jsonl");
    const want = cliBytes(input, ["--tokenizer", second, "--max-tokens", "300", "--overlap", "20"]);
    assert.ok(got.bytes.equals(want), "the page still counts with the first tokenizer.json");
  });

  test("a file that is not a usable tokenizer gets a clear message", async () => {
    const { page } = app;
    const bad = tmpFile("tokenizer.json", '{"model": {"type": "Mystery"}}');
    await page.setInputFiles("[data-testid=tokenizer-file]", bad);
    await page.waitForFunction(() => /cannot be used/.test(document.body.textContent));
    assert.equal(await page.textContent("[data-testid=input-notice]"), "tokenizer.json cannot be used: model 'Mystery' is not supported",
      "Python's exception names are for the console");
  });
});
