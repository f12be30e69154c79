// A faster second visit: the vendored files are content-addressed and cached for
// good, so a reload asks the server only for the page, its modules and the
// manifest (revalidated), never again for Pyodide or the wheels.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { launchProfile, paste, startServer, waitReady } from "./helpers.mjs";

const IMMUTABLE = "public, max-age=31536000, immutable";
// The requests build.py --serve --verbose logged after `since` characters of its log: [path, status].
const served = (server, since) => [...server.stderr().slice(since).matchAll(/"GET (\S+) HTTP\/[\d.]+" (\d+)/g)]
  .map((m) => [m[1], Number(m[2])]);

describe("caching", () => {
  let server, context;
  before(async () => {
    server = await startServer(["--verbose"]);
    // A profile on disk, as a person's browser has: a disk cache (a throwaway
    // context's in-memory cache keeps no 10 MB WebAssembly binary).
    context = await launchProfile(mkdtempSync(path.join(tmpdir(), "chunkwise-profile-")));
  });
  after(async () => {
    await context?.close();
    server?.stop();
  });

  test("vendored files are content-addressed and immutable; the manifest and the page are revalidated", async () => {
    const manifest = await (await fetch(server.url + "static/vendor/manifest.json")).json();
    assert.match(manifest.pyodide_dir, /^pyodide\/[0-9a-f]{16}\/$/);
    for (const file of [manifest.pyodide_dir + "pyodide.asm.wasm", ...manifest.install]) {
      const res = await fetch(server.url + "static/vendor/" + file);
      assert.equal(res.status, 200, file);
      assert.equal(res.headers.get("cache-control"), IMMUTABLE, file);
      await res.arrayBuffer();
    }
    for (const file of ["", "index.html", "app/main.js", "app/worker.js", "static/vendor/manifest.json"]) {
      const res = await fetch(server.url + file);
      assert.equal(res.headers.get("cache-control"), "no-cache", file);
      await res.arrayBuffer();
    }
  });

  test("a reload is served from the cache: no vendored file is fetched again", async () => {
    const page = await context.newPage();
    let mark = server.stderr().length;
    await page.goto(server.url);
    await waitReady(page);
    const first = served(server, mark);
    assert.ok(first.some(([p]) => p.endsWith("pyodide.asm.wasm")), "the first visit fetched the runtime");
    assert.ok(first.some(([p]) => p.endsWith(".whl")), "and the wheels");

    mark = server.stderr().length;
    await page.reload();
    await waitReady(page);
    const again = served(server, mark);
    assert.deepEqual(again.filter(([p]) => p.startsWith("/static/vendor/") && !p.endsWith("manifest.json")), [],
      "vendored files come from the cache");
    assert.ok(again.some(([p]) => p.endsWith("manifest.json")), "the manifest is asked for again (it names the files)");
    await paste(page, "Still works after a reload. Second sentence.");
  });
});
