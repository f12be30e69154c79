// Document once, settings many: the worker keeps the current document, so a
// settings change sends only the settings, and the page's texts come from the
// engine's own describe().

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  PYTHON, ROOT, assertMatchesEngine, paste, setSettings, tmpFile, useApp, waitDone,
} from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";

// What the page posts to its worker: each message's type, and the size of any text or bytes in it.
function recordWorkerMessages() {
  window.__sent = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    window.__sent.push({
      type: msg && msg.type,
      text: msg && typeof msg.text === "string" ? msg.text.length : null,
      bytes: msg && msg.bytes ? msg.bytes.byteLength : null,
      keys: msg ? Object.keys(msg).sort().join(",") : "",
    });
    return post.call(this, msg, ...rest);
  };
}

const sentSince = async (page, n) => (await page.evaluate(() => window.__sent)).slice(n);
const sentCount = (page) => page.evaluate(() => window.__sent.length);

describe("the worker keeps the document", () => {
  const app = useApp({ initScript: recordWorkerMessages });
  let page;
  const doc = markdownDoc(5, 5);

  before(() => { page = app.page; });

  test("a paste sends the text once; each settings change sends only the settings", async () => {
    let mark = await sentCount(page);
    await paste(page, doc);
    const first = await sentSince(page, mark);
    assert.deepEqual(first.filter((m) => m.type === "text").map((m) => m.text), [doc.length]);
    assert.ok(first.some((m) => m.type === "chunk"));

    for (const change of [{ strategy: "lines" }, { size: 256 }, { overlap: 5 }, { encoding: "o200k_base" }]) {
      mark = await sentCount(page);
      await setSettings(page, change);
      const sent = await sentSince(page, mark);
      assert.ok(sent.length >= 1, "the change started a run");
      for (const m of sent) {
        assert.equal(m.type, "chunk", `only chunk requests after ${JSON.stringify(change)}`);
        assert.equal(m.keys, "id,settings,type");
      }
    }
    await assertMatchesEngine(page, doc, { strategy: "lines", max_tokens: 256, overlap: 5, encoding: "o200k_base" });
  });

  test("an edit replaces the document, and the result is the new text's", async () => {
    const edited = doc + "\n\nOne more paragraph at the end.";
    const mark = await sentCount(page);
    await paste(page, edited);
    const sent = await sentSince(page, mark);
    assert.deepEqual(sent.filter((m) => m.type === "text").map((m) => m.text), [edited.length]);
    await assertMatchesEngine(page, edited, { strategy: "lines", max_tokens: 256, overlap: 5, encoding: "o200k_base" });
  });

  test("an opened file crosses as bytes once, never as text", async () => {
    const body = doc.replaceAll("\n", "\r\n");
    const file = tmpFile("notes.md", Buffer.from(body, "utf8"));
    const mark = await sentCount(page);
    await page.setInputFiles("[data-testid=file-input]", file);
    await waitDone(page);
    await setSettings(page, { strategy: "paragraphs" });
    const sent = await sentSince(page, mark);
    assert.deepEqual(sent.filter((m) => m.type === "open").map((m) => m.bytes), [Buffer.byteLength(body)]);
    assert.deepEqual(sent.filter((m) => m.text != null), [], "no text went to the worker");
  });

  test("strategy help and cut reasons are the engine's describe()", async () => {
    const described = JSON.parse(execFileSync(PYTHON, ["-c", "import json, chunkwise.about as a; print(json.dumps(a.describe()))"], { cwd: ROOT }));
    const options = (id) => page.$$eval(`[data-testid=${id}] option`, (os) => os.map((o) => ({ name: o.value, label: o.textContent })));
    assert.deepEqual(await options("strategy"), described.strategies.map(({ name, label }) => ({ name, label })));
    // The tokenizer picker: the encodings, then the embedding-model presets, then "load a file".
    assert.deepEqual(await options("encoding"), [
      ...described.encodings.map(({ name, label }) => ({ name, label })),
      ...described.models.map((m) => ({ name: `model:${m.name}`, label: `${m.name} · ${m.max_input_tokens}` })),
      { name: "load-tokenizer", label: "Load tokenizer.json…" },
    ]);
    for (const s of described.strategies) {
      await page.selectOption("[data-testid=strategy]", s.name);
      assert.equal(await page.textContent("[data-testid=strategy-help]"), s.help);
    }
    await waitDone(page);
    const reasons = await page.$$eval("[data-testid=cut]", (cuts) => cuts.map((c) => [c.dataset.reason, c.title]));
    const help = Object.fromEntries(described.boundaries.map((b) => [b.name, b.help]));
    assert.ok(reasons.length > 0);
    for (const [reason, title] of reasons) assert.ok(title.endsWith(help[reason]), `${title} explains ${reason}`);
  });
});
