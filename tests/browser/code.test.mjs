// Source code in the page: the language comes from the opened file's name (or
// strong signals in pasted text), the page says what it assumed and lets the
// user change it, chunks show their definition path, and the JSONL download
// equals the CLI's for the same file and settings.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { cli, download, screenshot, setSettings, tmpFile, useApp, waitDone } from "./helpers.mjs";

const SHLEX = readFileSync(path.join(import.meta.dirname, "..", "code-corpus", "shlex.py"));

describe("code", () => {
  const app = useApp();
  let page;
  const file = tmpFile("shlex.py", SHLEX);
  const settings = { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" };

  before(() => { page = app.page; });

  test("an opened .py file is read as Python: definition paths, and the CLI's JSONL", async () => {
    await page.setInputFiles("[data-testid=file-input]", file);
    await waitDone(page);
    await setSettings(page, { size: 256, overlap: 32 });
    assert.equal(await page.getAttribute("[data-testid=language-note]", "data-language"), "python");
    assert.match(await page.textContent("[data-testid=language-note]"), /Python \(from the file name shlex\.py\)/);
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cli(file, settings, "jsonl")), "JSONL differs from the CLI's for shlex.py");
    const records = got.bytes.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.ok(records.some((r) => r.headings[0] === "class shlex" && r.headings[1]?.startsWith("def ")));
    assert.ok(records.some((r) => r.boundary === "nested" || r.boundary === "definition"));
    assert.ok(records.every((r) => !r.headings.some((h) => h.startsWith("#"))), "a comment became a heading");
    await page.click("[data-testid=tab-cards]");
    assert.match(await page.textContent("[data-testid=chunk-cards]"), /class shlex › def /);
    await page.click("[data-testid=tab-document]");
    await screenshot(page, "40-code-file");
  });

  test("the picker changes what the text is read as, and the download follows", async () => {
    await page.selectOption("[data-testid=language]", "text");
    await waitDone(page);
    assert.equal(await page.getAttribute("[data-testid=language-note]", "data-language"), "text");
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cli(file, settings, "jsonl", false, ["--language", "text"])));
    await page.selectOption("[data-testid=language]", "auto");
    await waitDone(page);
    assert.equal(await page.getAttribute("[data-testid=language-note]", "data-language"), "python");
  });

  test("pasted code is detected, and says so; the CLI's --language auto agrees", async () => {
    const code = SHLEX.toString("utf8").split("\n").slice(0, 120).join("\n");
    await page.fill("[data-testid=source-text]", code);
    await waitDone(page);
    const note = await page.textContent("[data-testid=language-note]");
    // the opened file's name went with the old text: the new one is judged by its content
    if (await page.getAttribute("[data-testid=language-note]", "data-language") === "python") {
      assert.match(note, /Python/);
    }
    const got = await download(page, "download-jsonl");
    const pasted = tmpFile("pasted.txt", code);
    assert.ok(got.bytes.equals(cli(pasted, settings, "jsonl", false, ["--language", "auto"])));
  });

  test("a Markdown file's ```python block is cut as Python, and the JSONL is the CLI's", async () => {
    const body = SHLEX.toString("utf8").split("\n").slice(0, 200).join("\n");
    const guide = tmpFile("guide.md", `# Guide\n\nSome prose. It explains the code below.\n\n\`\`\`python\n${body}\n\`\`\`\n\nThe end.\n`);
    await page.setInputFiles("[data-testid=file-input]", guide);
    await waitDone(page);
    await setSettings(page, { size: 256, overlap: 32 });
    const got = await download(page, "download-jsonl");
    assert.ok(got.bytes.equals(cli(guide, settings, "jsonl")), "JSONL differs from the CLI's for guide.md");
    const records = got.bytes.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.ok(records.some((r) => ["definition", "nested", "statement"].includes(r.boundary)), "no code boundary in the block");
    assert.ok(records.every((r) => !r.text.trimEnd().endsWith("```python")), "a chunk ends with the opening fence");
  });

  // The page's Python (3.14) parses more than the CLI's oldest one (3.11): generics
  // (PEP 695) and f-strings that reuse their quote (PEP 701). The definitions must
  // come from the same grammar on both, or "async def fetch" here is "def fetch" there.
  for (const [name, newer] of [
    ["generics.py", "def first[T](items: list[T]) -> T:\n    return items[0]\n"],
    ["fstrings.py", "def label(job: dict) -> str:\n    return f\"{job[\"name\"]}: {job[\"size\"]}\"\n"],
  ]) {
    test(`Python only newer Pythons parse (${name}) has the CLI's definitions`, async () => {
      const source = [
        '"""Jobs, fetched and described."""\nimport asyncio\n\n',
        ...["fetch", "store", "report"].map((f) =>
          `\nasync def ${f}(url: str) -> bytes:\n    """${f} one job: wait for it, then return its bytes."""\n` +
          "    await asyncio.sleep(0)\n    data = url.encode()\n    return data + data\n\n"),
        "\n", newer,
      ].join("");
      const modern = tmpFile(name, source);
      await page.setInputFiles("[data-testid=file-input]", modern);
      await waitDone(page);
      await setSettings(page, { size: 48, overlap: 0 });
      const got = await download(page, "download-jsonl");
      const want = cli(modern, { ...settings, max_tokens: 48, overlap: 0 }, "jsonl");
      assert.ok(got.bytes.equals(want), `JSONL differs from the CLI's for ${name}:\n${got.bytes}\n---\n${want}`);
    });
  }
});
