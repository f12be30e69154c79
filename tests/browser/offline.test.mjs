// After a first visit the page works offline (a service worker keeps the page's
// own files), and what it keeps is only those files: never the user's text.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchProfile, paste, readDocumentView, startServer, waitReady } from "./helpers.mjs";

describe("offline", () => {
  let server, context, page;
  before(async () => {
    server = await startServer();
    context = await launchProfile(mkdtempSync(path.join(tmpdir(), "chunkwise-offline-")));
    page = await context.newPage();
    await page.goto(server.url);
    await waitReady(page);
  });
  after(async () => {
    await context?.close();
    server?.stop();
  });

  test("the service worker stores the build's files and nothing else", async () => {
    const marker = "Zebra-quartz-7731 is a sentence only this test writes.";
    await paste(page, `${marker}\n\nAnd a second paragraph.`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    const stored = await page.evaluate(async () => (await (await caches.open("chunkwise-page")).keys()).map((r) => [r.method, r.url]));
    const manifest = await (await fetch(server.url + "static/vendor/manifest.json")).json();
    const expected = new Set([
      ...manifest.page.map((p) => new URL(p, server.url).href),
      server.url + "static/vendor/manifest.json",
      ...manifest.pyodide_files.map((n) => server.url + "static/vendor/" + manifest.pyodide_dir + n),
      ...manifest.install.map((p) => server.url + "static/vendor/" + p),
    ]);
    assert.deepEqual(new Set(stored.map(([, url]) => url)), expected);
    assert.ok(stored.every(([method]) => method === "GET"));
    assert.ok(manifest.page.includes("app/main.js") && manifest.page.includes("index.html"));
    for (const [, url] of stored) {
      const body = await page.evaluate(async (u) => {
        const res = await (await caches.open("chunkwise-page")).match(u);
        return (await res.text()).includes("Zebra-quartz-7731");
      }, url);
      assert.equal(body, false, `${url} does not hold the user's text`);
    }
  });

  test("online, a content-addressed file comes through the HTTP cache, not from the stored copy", async () => {
    // Chromium reuses its compiled WebAssembly only for a response it fetched itself:
    // one answered from Cache Storage compiled Pyodide again on every reload.
    const manifest = await (await fetch(server.url + "static/vendor/manifest.json")).json();
    const url = server.url + "static/vendor/" + manifest.install[0];
    const body = await page.evaluate(async (u) => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
      }
      const cache = await caches.open("chunkwise-page");
      const real = await cache.match(u);
      await cache.put(u, new Response("the stored copy"));
      try {
        return (await (await fetch(u)).text()).slice(0, 15);
      } finally {
        await cache.put(u, real); // the offline test below needs it
      }
    }, url);
    assert.notEqual(body, "the stored copy");
    assert.ok(body.startsWith("PK"), "the wheel itself (a zip file)");
  });

  test("offline, a reload boots and chunks", async () => {
    // Nothing in the HTTP cache either: the service worker's stored copies answer.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    await cdp.detach();
    await context.setOffline(true);
    try {
      await page.reload();
      await waitReady(page);
      const text = "Offline now. Still chunking.\n\nA second paragraph here.";
      await paste(page, text);
      const view = await readDocumentView(page);
      assert.equal(view.text, text);
      assert.ok(view.chunks.length >= 1);
    } finally {
      await context.setOffline(false);
    }
  });
});
