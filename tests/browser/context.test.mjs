// Context inside the budget, parents and the exports vector stores load (issue 26),
// as a person uses them: open a file, choose "Heading path and table header" and a
// parent size, read the inspector, download every format; the bytes are the CLI's.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { cli, clipboard, download, runCommand, runPython, setSettings, tmpFile, useApp, waitDone } from "./helpers.mjs";

const rows = Array.from({ length: 40 }, (_, i) =>
  `| 02:${String(i).padStart(2, "0")} | Batch ${i} copied to the archive, checked by the on-call engineer. | on-call |`).join("\n");
const report = `# Incident\n\nSome intro paragraph.\n\n## Timeline\n\n| Time | Event | Who |\n|---|---|---|\n${rows}\n\n## Aftermath\n\n${"We wrote it down. ".repeat(120)}\n`;

describe("context, parents and exports", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  before(() => { page = app.page; });

  test("with the heading path and table header, parents of 400: every download is the CLI's bytes", async () => {
    const file = tmpFile("incident.md", report);
    await page.setInputFiles("[data-testid=file-input]", file);
    await waitDone(page);
    await setSettings(page, { size: 100, overlap: 10 });
    assert.equal(await page.isVisible("[data-testid=context]"), false, "folded away until wanted");
    await page.click("[data-testid=embedding-options] > summary");
    await page.selectOption("[data-testid=context]", "headings");
    await waitDone(page);
    await page.fill("[data-testid=parents]", "400");
    await waitDone(page);
    assert.match(new URL(page.url()).hash, /context=headings&parents=400/);
    const settings = { max_tokens: 100, overlap: 10, strategy: "smart", encoding: "cl100k_base" };
    const extra = ["--context", "headings", "--parents", "400"];
    for (const [testid, format] of [["download-jsonl", "jsonl"], ["download-json", "json"], ["download-langchain", "langchain"], ["download-vectors", "vectors"]]) {
      const got = await download(page, testid);
      assert.ok(got.bytes.equals(cli(file, settings, format, false, extra)), `${format}: the CLI's bytes`);
      if (format === "langchain") assert.equal(got.name, "incident.chunks.langchain.jsonl");
    }
    // The stats say what the context takes and how many parents there are.
    assert.match(await page.textContent("[data-testid=stat-context_tokens]"), /of what is embedded/);
    assert.ok(Number(await page.getAttribute("[data-testid=stat-parent_count]", "data-value")) >= 3);
    assert.ok(Number(await page.getAttribute("[data-testid=reason-row]", "data-value")) > 0, "cuts between table rows are counted");

    // The inspector of a chunk inside the table shows its context and its parent.
    const records = cli(file, settings, "jsonl", false, extra).toString("utf8").trim().split("\n").map(JSON.parse);
    const inside = records.find((r) => r.kind !== "parent" && r.text.startsWith("| 02:1"));
    await page.focus("[data-testid=document-view]");
    for (let i = 0; i <= inside.index; i++) await page.keyboard.press(i === 0 ? "Home" : "ArrowDown");
    await page.waitForFunction((n) => document.querySelector("[data-testid=inspect-index]")?.textContent.includes(`${n} of`), inside.index + 1);
    const context = await page.textContent("[data-testid=inspect-context]");
    assert.match(context, /# Incident ⏎ ## Timeline ⏎ \| Time \| Event \| Who \|/);
    assert.match(await page.textContent("[data-testid=inspect-parent]"), new RegExp(`${inside.parent_id} · \\d+ tokens`));

    // The chunk list shows each chunk's context above its text, and its parent.
    await page.click("[data-testid=tab-cards]");
    const card = page.locator(`[data-testid=card][data-index="${inside.index}"]`);
    await card.scrollIntoViewIfNeeded();
    assert.equal(await card.locator("[data-testid=card-context]").textContent(),
      inside.embed_text.slice(0, inside.embed_text.length - inside.text.length).replace(/\n+$/, ""));
    assert.equal(await card.locator("[data-testid=card-parent]").textContent(), `Parent ${inside.parent_id}`);
    assert.equal(await card.locator("[data-testid=card-text]").textContent(), inside.text);
    await page.click("[data-testid=tab-document]");

    // Copy as command line and as Python reproduce the JSONL with context and parents.
    const want = (await download(page, "download-jsonl")).bytes;
    await page.click("[data-testid=copy-cli]");
    const command = await clipboard(page);
    assert.match(command, /--context headings --parents 400/);
    assert.ok(runCommand(command, path.dirname(file)).equals(want));
    await page.click("[data-testid=copy-python]");
    assert.ok(runPython(await clipboard(page), path.dirname(file)).equals(want));
  });

  test("a parent size not above the chunk size is refused where it is typed", async () => {
    await page.fill("[data-testid=parents]", "50");
    assert.match(await page.textContent("[data-testid=parents-error]"), /larger than the chunk size \(100\)/);
    assert.equal(await page.getAttribute("[data-testid=parents]", "aria-invalid"), "true");
    await page.fill("[data-testid=parents]", "0");
    await waitDone(page);
    assert.equal(await page.isHidden("[data-testid=parents-error]"), true);
    assert.equal(await page.locator("[data-testid=stat-parent_count]").count(), 0);
  });
});
