// Sharing a setup (issue 13): the settings, never the text, are in the URL hash;
// "Copy as command line" and "Copy as Python" reproduce the page's run exactly
// (their output bytes equal the page's JSONL download).

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import {
  PYTHON, assertMatchesEngine, clipboard, download, paste, runCommand, runPython, setSettings, tmpFile, useApp, waitDone, waitReady,
} from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";

const doc = markdownDoc(5, 4);
describe("sharing a setup", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  before(() => { page = app.page; });

  test("a hash with settings sets them; the text is never in the address", async () => {
    await page.goto(`${app.server.url}#strategy=lines&size=300&overlap=20&encoding=o200k_base`);
    await page.reload();
    await waitReady(page);
    assert.equal(await page.inputValue("[data-testid=strategy]"), "lines");
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "300");
    assert.equal(await page.inputValue("[data-testid=overlap]"), "20");
    assert.equal(await page.inputValue("[data-testid=encoding]"), "o200k_base");
    await paste(page, doc);
    await assertMatchesEngine(page, doc, { strategy: "lines", max_tokens: 300, overlap: 20, encoding: "o200k_base" });
    assert.ok(!page.url().includes("Retrieval"), "no text in the address");
    // A change of settings is written to the address.
    await setSettings(page, { strategy: "sentences" });
    assert.match(new URL(page.url()).hash, /strategy=sentences&size=300&overlap=20&encoding=o200k_base/);
    await page.click("[data-testid=overlap-auto]");
    await waitDone(page);
    assert.equal(new URL(page.url()).hash, "#strategy=sentences&size=300&encoding=o200k_base");
    // Editing the address applies it.
    await page.evaluate(() => { location.hash = "#strategy=smart&size=256&encoding=cl100k_base"; });
    await page.waitForFunction(() => document.querySelector("[data-testid=strategy]").value === "smart");
    await waitDone(page);
    assert.equal(await page.inputValue("[data-testid=max-tokens]"), "256");
  });

  test("copy as command line / as Python: both give the page's JSONL bytes (a file with a space in its name)", async () => {
    const file = tmpFile("my notes.md", doc.replace(/\n/g, "\r\n"));
    await page.setInputFiles("[data-testid=file-input]", file);
    await waitDone(page);
    await setSettings(page, { size: 200, overlap: 30, strategy: "paragraphs" });
    const want = (await download(page, "download-jsonl")).bytes;

    await page.click("[data-testid=copy-cli]");
    const command = await clipboard(page);
    assert.equal(command, "python -m chunkwise 'my notes.md' --max-tokens 200 --overlap 30 --strategy paragraphs --encoding cl100k_base > 'my notes.chunks.jsonl'");
    assert.equal(await page.textContent("[data-testid=copied]"), command, "the copied text is shown too");
    assert.ok(runCommand(command, path.dirname(file)).equals(want), "the command line's bytes equal the download");

    await page.click("[data-testid=copy-python]");
    const code = await clipboard(page);
    assert.ok(runPython(code, path.dirname(file)).equals(want), "the Python's bytes equal the download");

    // Automatic overlap: the CLI's own default, not spelled out.
    await page.click("[data-testid=overlap-auto]");
    await waitDone(page);
    const auto = (await download(page, "download-jsonl")).bytes;
    await page.click("[data-testid=copy-cli]");
    const autoCommand = await clipboard(page);
    assert.doesNotMatch(autoCommand, /--overlap/);
    assert.ok(runCommand(autoCommand, path.dirname(file)).equals(auto));

    // Overlap at word starts (not the default): named in the address, the command and the Python.
    await setSettings(page, { overlapUnit: "word" });
    assert.match(new URL(page.url()).hash, /&overlap_unit=word&/);
    const words = (await download(page, "download-jsonl")).bytes;
    assert.ok(!words.equals(auto), "the overlap unit moves where chunks start");
    await page.click("[data-testid=copy-cli]");
    const wordCommand = await clipboard(page);
    assert.match(wordCommand, / --overlap-unit word /);
    assert.ok(runCommand(wordCommand, path.dirname(file)).equals(words), "the command line's bytes equal the download");
    await page.click("[data-testid=copy-python]");
    const wordCode = await clipboard(page);
    assert.match(wordCode, /overlap_unit="word"/);
    assert.ok(runPython(wordCode, path.dirname(file)).equals(words), "the Python's bytes equal the download");
    // A shared address without the unit is the default one again.
    await page.evaluate(() => { location.hash = "#strategy=paragraphs&size=200&encoding=cl100k_base"; });
    await page.waitForFunction(() => document.querySelector("[data-testid=overlap-unit]").value === "unit");
    await waitDone(page);
    assert.ok((await download(page, "download-jsonl")).bytes.equals(auto));
  });

  test("a file read with a chosen encoding: the command and the Python name it", async () => {
    const text = "Привет, мир. Это проверка.\n\nВторой абзац.\n";
    const bytes = execFileSync(PYTHON, ["-c", "import sys; sys.stdout.buffer.write(sys.argv[1].encode('cp1251'))", text]);
    const file = tmpFile("ru.txt", bytes);
    await page.setInputFiles("[data-testid=file-input]", file);
    await waitDone(page);
    await page.selectOption("[data-testid=file-encoding]", "cp1251");
    await waitDone(page);
    const want = (await download(page, "download-jsonl")).bytes;
    await page.click("[data-testid=copy-cli]");
    const command = await clipboard(page);
    assert.match(command, /--input-encoding cp1251/);
    assert.ok(runCommand(command, path.dirname(file)).equals(want));
    await page.click("[data-testid=copy-python]");
    assert.ok(runPython(await clipboard(page), path.dirname(file)).equals(want));
  });

  test("code read as a language: the command and the Python name it, and give the page's bytes", async () => {
    // Python in a .txt file: Automatic reads it as Python from the text itself, which
    // the CLI and chunkwise.chunk do only when told (they read it as prose).
    const code = [
      "import json", "import sys", "", "",
      ...Array.from({ length: 6 }, (_, i) => [
        `def step_${i}(values):`, `    """Step ${i} of the pipeline."""`, "    total = 0", "    for v in values:",
        `        total += v * ${i + 1}`, "    return total", "", ""]).flat(),
      "class Runner:", "    def run(self):", "        return [step_0([1, 2])]", "",
    ].join("\n");
    const file = tmpFile("steps.txt", code);
    await page.setInputFiles("[data-testid=file-input]", file);
    await waitDone(page);
    await setSettings(page, { size: 64, strategy: "smart" });
    assert.match(await page.textContent("[data-testid=language-note]"), /^Read as Python \(/);
    const want = (await download(page, "download-jsonl")).bytes;
    await page.click("[data-testid=copy-cli]");
    const command = await clipboard(page);
    assert.match(command, / --language python /);
    assert.ok(runCommand(command, path.dirname(file)).equals(want), "the command line's bytes equal the download");
    await page.click("[data-testid=copy-python]");
    const pyCode = await clipboard(page);
    assert.match(pyCode, /language="python"/);
    assert.ok(runPython(pyCode, path.dirname(file)).equals(want), "the Python's bytes equal the download");

    // Prose, chosen: the command names it; the Python needs nothing (prose is chunk's default).
    await page.selectOption("[data-testid=language]", "text");
    await waitDone(page);
    const prose = (await download(page, "download-jsonl")).bytes;
    assert.ok(!prose.equals(want), "read as prose, the cuts are others");
    await page.click("[data-testid=copy-cli]");
    const proseCommand = await clipboard(page);
    assert.match(proseCommand, / --language text /);
    assert.ok(runCommand(proseCommand, path.dirname(file)).equals(prose));
    await page.click("[data-testid=copy-python]");
    assert.ok(runPython(await clipboard(page), path.dirname(file)).equals(prose));
    await page.selectOption("[data-testid=language]", "auto");
    await waitDone(page);
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
