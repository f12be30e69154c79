// A preset's tokenizer offline (issue 27, defect 5). Its file is fetched the first time
// the preset is picked, and the service worker keeps it for offline visits. Offline,
// a preset never picked on this device says so, in the page's words, and the settings
// before stay in force with their chunks and downloads.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  PYTHON, ROOT, assertMatchesEngine, cli, download, launchProfile, paste, startServer, tmpFile, waitDone, waitReady,
} from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";

const doc = markdownDoc(4, 4);
const before0 = { strategy: "smart", max_tokens: 512, overlap: 64, encoding: "cl100k_base" };
const MINILM = "model:all-MiniLM-L6-v2";

// Offline, with nothing in the HTTP cache: only what the service worker stored answers.
async function goOffline(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  await cdp.detach();
  await context.setOffline(true);
}

// The run has settled (done, or a message in the status line).
const settled = (page) => page.waitForFunction(() => {
  const s = document.querySelector("[data-testid=run-status]").dataset.state;
  return s === "error" || (s === "done" && document.querySelector("[data-testid=document-view]").dataset.rendered === "true");
}, null, { polling: 50 });

describe("offline: preset tokenizers", () => {
  let server, context, page;
  before(async () => {
    server = await startServer();
    context = await launchProfile(mkdtempSync(path.join(tmpdir(), "chunkwise-presets-")));
    page = await context.newPage();
    await page.goto(server.url);
    await waitReady(page);
    // The service worker controls the page (and its engine worker's fetches) from here on.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
      }
    });
  });
  after(async () => {
    await context?.close();
    server?.stop();
  });

  test("a preset never fetched: its tokenizer is not on this device; the settings before are kept", async () => {
    await paste(page, doc);
    await goOffline(context, page);
    try {
      await page.selectOption("[data-testid=encoding]", MINILM);
      await settled(page);
      const status = await page.textContent("[data-testid=run-status-text]");
      assert.match(status, /all-MiniLM-L6-v2's tokenizer is not on this device yet; connect once to fetch it\./);
      const error = await page.textContent("[data-testid=run-error]");
      assert.doesNotMatch(error, /engine failed|report/i);
      assert.match(error, /The settings before are kept/);
      assert.equal(await page.inputValue("[data-testid=encoding]"), "cl100k_base", "the tokenizer before is shown");
      assert.equal(await page.inputValue("[data-testid=max-tokens]"), "512", "and its size");
      assert.doesNotMatch(page.url(), /model=/, "the address keeps the settings before");
      await assertMatchesEngine(page, doc, before0);
      const got = await download(page, "download-jsonl");
      assert.ok(got.bytes.equals(cli(tmpFile("input.txt", doc), before0, "jsonl")), "the downloads are those of the settings before");
    } finally {
      await context.setOffline(false);
    }
  });

  test("Compare: B with a preset never fetched, offline, says so and keeps B's settings and result", async () => {
    await page.click("[data-testid=tab-compare]");
    await page.selectOption("[data-testid=cmp-strategy]", "sentences");
    await page.fill("[data-testid=cmp-size]", "128");
    await page.fill("[data-testid=cmp-overlap]", "0");
    await page.selectOption("[data-testid=cmp-encoding]", "o200k_base");
    await page.click("[data-testid=cmp-run]");
    await page.waitForFunction(() => /only in B/.test(document.querySelector("[data-testid=cmp-status]").textContent));
    const comparison = await page.textContent("[data-testid=cmp-status]");
    const headB = await page.textContent("#cmp-head-b");
    const rowsB = await page.$$eval("[data-testid^=cmp-row-] [data-side=b]", (els) => els.map((e) => e.dataset.value));
    await goOffline(context, page);
    try {
      await page.selectOption("[data-testid=cmp-encoding]", MINILM);
      await page.click("[data-testid=cmp-run]");
      // (past "Comparing…", which the line shows while B runs)
      await page.waitForFunction((before) => {
        const status = document.querySelector("[data-testid=cmp-status]").textContent;
        return status !== before && status !== "Comparing…";
      }, comparison);
      const status = await page.textContent("[data-testid=cmp-status]");
      assert.match(status, /all-MiniLM-L6-v2's tokenizer is not on this device yet; connect once to fetch it\. B's settings before are kept\./);
      assert.doesNotMatch(status, /engine failed|report|could not run/i);
      assert.equal(await page.inputValue("[data-testid=cmp-encoding]"), "o200k_base", "B's tokenizer before is shown");
      assert.equal(await page.inputValue("[data-testid=cmp-size]"), "128");
      assert.equal(await page.textContent("#cmp-head-b"), headB, "and B's result before");
      assert.deepEqual(await page.$$eval("[data-testid^=cmp-row-] [data-side=b]", (els) => els.map((e) => e.dataset.value)), rowsB);
    } finally {
      await context.setOffline(false);
    }
    await page.click("[data-testid=tab-document]");
  });

  test("once picked online, the preset's tokenizer works offline after a reload", async () => {
    await page.selectOption("[data-testid=encoding]", MINILM);
    await waitDone(page);
    const cliMinilm = execFileSync(PYTHON, ["-m", "chunkwise", tmpFile("input.txt", doc), "--model", "all-MiniLM-L6-v2"],
      { cwd: ROOT, maxBuffer: 1 << 30 });
    assert.ok((await download(page, "download-jsonl")).bytes.equals(cliMinilm));
    // (the service worker stores it just after answering)
    let stored = false;
    for (let i = 0; i < 100 && !stored; i++, await page.waitForTimeout(50)) {
      stored = await page.evaluate(async () => (await (await caches.open("chunkwise-page")).keys()).some((r) => r.url.endsWith("/all-MiniLM-L6-v2.json")));
    }
    assert.ok(stored, "the service worker keeps the tokenizer file");
    await page.selectOption("[data-testid=encoding]", "cl100k_base");
    await waitDone(page);

    await goOffline(context, page);
    try {
      await page.reload();
      await waitReady(page);
      await paste(page, doc);
      await page.selectOption("[data-testid=encoding]", MINILM);
      await waitDone(page);
      const got = await download(page, "download-jsonl");
      assert.ok(got.bytes.equals(cliMinilm), "equals python -m chunkwise --model all-MiniLM-L6-v2");
    } finally {
      await context.setOffline(false);
    }
  });
});
