// Several files at once (issue 13): picked or dropped together, listed with
// their own stats, each viewable, and the downloads equal
// `python -m chunkwise FILE1 FILE2 ...` byte for byte (records carry `source`).

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  PYTHON, download, paste, readDocumentView, setSettings, useApp, waitDone,
} from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc } from "./corpus.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "chunkwise-many-"));
const FILES = [
  ["guide.md", Buffer.from(markdownDoc(2, 3))],
  ["notes.txt", Buffer.from(markdownDoc(8, 2).replace(/\n/g, "\r\n"))],
  ["latin.txt", Buffer.concat([Buffer.from("Caf"), Buffer.from([0xe9]), Buffer.from(" au lait. Une phrase de plus.\n")])],
  // read as Python by its name, in the page as by the CLI (and so by the copied Python)
  ["tool.py", Buffer.from(Array.from({ length: 8 }, (_, i) => `def f${i}(x):\n    # step ${i}\n    return x + ${i}\n\n\n`).join(""))],
];
for (const [name, bytes] of FILES) writeFileSync(path.join(dir, name), bytes);
const names = FILES.map(([name]) => name);

// The CLI on all the files, in the page's order.
const cliMany = (args) => execFileSync(PYTHON, ["-m", "chunkwise", ...names, ...args], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
// One file's stats, as the CLI prints them (--stats, on standard error).
const cliStats = (name, args) => {
  const r = spawnSync(PYTHON, ["-m", "chunkwise", name, "--stats", ...args], { cwd: dir });
  return JSON.parse(r.stderr.toString().trim().split("\n").at(-1));
};

describe("several files at once", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  before(() => { page = app.page; });

  test("picked together: listed with their stats, the first shown, downloads equal the CLI on all of them", async () => {
    await page.setInputFiles("[data-testid=file-input]", names.map((n) => path.join(dir, n)));
    await waitDone(page);
    assert.deepEqual(await page.$$eval("[data-testid=file-row]", (els) => els.map((e) => e.dataset.name)), names);
    const counts = await page.$$eval("[data-testid=file-row]", (els) => els.map((e) => Number(e.dataset.chunks)));
    const args = ["--max-tokens", "512", "--strategy", "smart", "--encoding", "cl100k_base"];
    assert.deepEqual(counts, names.map((n) => cliStats(n, args).chunk_count), "each file's chunk count is the CLI's");
    assert.match(await page.textContent("[data-testid=source-info]"), /guide\.md/);
    for (const [fmt, headers] of [["jsonl", false], ["json", false], ["text", true]]) {
      await page.setChecked("[data-testid=text-headers]", headers);
      const got = await download(page, `download-${fmt}`);
      assert.equal(got.name, `chunks.${fmt === "text" ? "txt" : fmt}`);
      const want = cliMany([...args, "--format", fmt, ...(headers ? ["--headers"] : [])]);
      assert.ok(got.bytes.equals(want), `${fmt}: the page's bytes equal python -m chunkwise ${names.join(" ")}`);
      if (fmt === "text") assert.ok(got.bytes.toString("utf8").includes(` of ${names[0]} ---\n`), "the text names each file");
    }
    const records = (await download(page, "download-jsonl")).bytes.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual([...new Set(records.map((r) => r.source))], names, "records carry their source");
  });

  test("each file can be viewed; settings apply to all; the command line reproduces them", async () => {
    await page.click('[data-testid=file-row][data-name="notes.txt"] [data-testid=file-view]');
    await waitDone(page);
    assert.match(await page.textContent("[data-testid=source-info]"), /notes\.txt/);
    assert.equal((await readDocumentView(page)).text, FILES[1][1].toString("utf8"), "the file's own text, CRLF kept");
    assert.equal(await page.getAttribute('[data-testid=file-row][data-name="notes.txt"] [data-testid=file-view]', "aria-current"), "true");

    await setSettings(page, { strategy: "paragraphs", size: 256, overlap: 20 });
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cliMany(["--max-tokens", "256", "--overlap", "20", "--strategy", "paragraphs", "--encoding", "cl100k_base"])));
    await page.click("[data-testid=copy-cli]");
    const command = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(command, `python -m chunkwise ${names.join(" ")} --max-tokens 256 --overlap 20 --strategy paragraphs --encoding cl100k_base > chunks.jsonl`);
    await page.click("[data-testid=copy-python]");
    const code = await page.evaluate(() => navigator.clipboard.readText());
    const fromPython = execFileSync(PYTHON, ["-c", code], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
    assert.ok(fromPython.equals(got.bytes), "the copied Python reads each file as the CLI does (tool.py as Python)");
    assert.deepEqual(await axeViolations(page), []);
  });

  test("pasting text leaves the set of files", async () => {
    await paste(page, "Just this text now.");
    assert.equal(await page.isVisible("[data-testid=file-list]"), false);
    assert.equal((await download(page, "download-jsonl")).name, "chunks.jsonl");
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});
