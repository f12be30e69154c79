// A faster second visit: the vendored files are content-addressed and cached for
// good, so a reload asks the server only for the page, its modules and the
// manifest (revalidated), never again for Pyodide or the wheels; and it resumes
// the engine's state saved by the first visit (app/snapshot.js) instead of
// starting Python again.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BOOT_TIMEOUT, PYTHON, assertMatchesEngine, launchProfile, paste, setSettings, startServer, waitDone, waitReady } from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";
import { SNAPSHOT_CACHE } from "../../app/snapshot.js";

const IMMUTABLE = "public, max-age=31536000, immutable";
// The requests build.py --serve --verbose logged after `since` characters of its log: [path, status].
const served = (server, since) => [...server.stderr().slice(since).matchAll(/"GET (\S+) HTTP\/[\d.]+" (\d+)/g)]
  .map((m) => [m[1], Number(m[2])]);

const status = (page) => page.textContent("[data-testid=engine-status]");

// Saving the engine (about 45 MB into Cache Storage) follows a boot and, on a loaded
// machine, takes about as long: every wait for a snapshot gets a boot's time.
const snapshotDeadline = () => Date.now() + BOOT_TIMEOUT;

// The URLs of the engine snapshots this profile keeps, once the first is saved
// (the worker saves it just after it is ready).
async function savedSnapshots(page) {
  for (const deadline = snapshotDeadline(); Date.now() < deadline; await page.waitForTimeout(100)) {
    const urls = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), SNAPSHOT_CACHE);
    if (urls.length) return urls;
  }
  throw new Error("no engine snapshot was saved");
}

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
    // The manifest's pattern (build.py's one definition, read by sw.js and the benchmark) names them all.
    const immutable = new RegExp(manifest.immutable);
    for (const file of [manifest.pyodide_dir + "pyodide.asm.wasm", ...manifest.install, ...Object.values(manifest.tokenizers)]) {
      assert.match(`/static/vendor/${file}`, immutable, file);
      const res = await fetch(server.url + "static/vendor/" + file);
      assert.equal(res.status, 200, file);
      assert.equal(res.headers.get("cache-control"), IMMUTABLE, file);
      await res.arrayBuffer();
    }
    assert.doesNotMatch("/static/vendor/manifest.json", immutable);
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

  test("a reload resumes the engine saved by the first visit; it holds none of the text typed meanwhile", async () => {
    const profile = await launchProfile(mkdtempSync(path.join(tmpdir(), "chunkwise-profile-")));
    try {
      const page = await profile.newPage();
      await page.goto(server.url);
      // Typed while the engine boots: it reaches the worker only after the snapshot was taken.
      const marker = "Quokka zebra marmalade 4711, typed during the boot.";
      await page.fill("[data-testid=source-text]", marker);
      await waitReady(page);
      assert.doesNotMatch(await status(page), /resumed/);
      await waitDone(page);
      const [saved] = await savedSnapshots(page);
      const found = await page.evaluate(async ({ name, url, marker }) => {
        const bytes = new Uint8Array(await (await (await caches.open(name)).match(url)).arrayBuffer());
        const needle = new TextEncoder().encode(marker.slice(0, 24));
        outer: for (let i = bytes.indexOf(needle[0]); i !== -1; i = bytes.indexOf(needle[0], i + 1)) {
          for (let j = 1; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
          return { size: bytes.length, at: i };
        }
        return { size: bytes.length, at: -1 };
      }, { name: SNAPSHOT_CACHE, url: saved, marker });
      assert.ok(found.size > 1e6, `a snapshot of the interpreter (${found.size} bytes)`);
      assert.equal(found.at, -1, "the user's text is not in the saved snapshot");

      await page.reload();
      await waitReady(page);
      assert.match(await status(page), /Engine ready \(.*resumed\)/, "the reload resumed the saved engine");
      const doc = markdownDoc(3, 2);
      await paste(page, doc);
      await assertMatchesEngine(page, doc, { strategy: "smart", max_tokens: 512, overlap: 64, encoding: "cl100k_base" });
      // o200k's rank file is read from the file system on first use, after the resume.
      await setSettings(page, { encoding: "o200k_base", size: 256 });
      await assertMatchesEngine(page, doc, { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "o200k_base" });
    } finally {
      await profile.close();
    }
  });

  test("a saved snapshot that cannot be resumed is dropped, and the engine starts afresh", async () => {
    const profile = await launchProfile(mkdtempSync(path.join(tmpdir(), "chunkwise-profile-")));
    try {
      const page = await profile.newPage();
      await page.goto(server.url);
      await waitReady(page);
      const [saved] = await savedSnapshots(page);
      // The current build's snapshot, spoilt: not a Pyodide snapshot at all.
      await page.evaluate(async ({ name, url }) => {
        await (await caches.open(name)).put(url, new Response(new Uint8Array(1 << 20).fill(7)));
      }, { name: SNAPSHOT_CACHE, url: saved });
      await page.reload();
      await waitReady(page);
      assert.doesNotMatch(await status(page), /resumed/, "it started Python afresh");
      const doc = markdownDoc(2, 2);
      await paste(page, doc);
      await assertMatchesEngine(page, doc, { strategy: "smart", max_tokens: 512, overlap: 64, encoding: "cl100k_base" });
      // ...and saved a good snapshot in its place, which the next reload resumes.
      let size = 0;
      for (const deadline = snapshotDeadline(); Date.now() < deadline && size <= 1 << 20;) {
        size = await page.evaluate(async ({ name, url }) => {
          const hit = await (await caches.open(name)).match(url);
          return hit ? (await hit.arrayBuffer()).byteLength : 0;
        }, { name: SNAPSHOT_CACHE, url: saved });
        if (size <= 1 << 20) await page.waitForTimeout(100);
      }
      assert.ok(size > 1 << 20, "a new snapshot replaced the spoilt one");
      await page.reload();
      await waitReady(page);
      assert.match(await status(page), /resumed/);
    } finally {
      await profile.close();
    }
  });
});

describe("the saved engine and a new build", () => {
  test("a changed vendored file is never resumed from the earlier build's snapshot", async () => {
    const dist = path.join(mkdtempSync(path.join(tmpdir(), "chunkwise-dist-")), "site");
    const server = await startServer(["--dist", dist]);
    const profile = await launchProfile(mkdtempSync(path.join(tmpdir(), "chunkwise-profile-")));
    try {
      const page = await profile.newPage();
      await page.goto(server.url);
      await waitReady(page);
      const version = await page.textContent("[data-testid=engine-version]");
      const [first] = await savedSnapshots(page);

      // A new build: the chunkwise wheel changes (its version), so it gets a new
      // content-addressed folder and the manifest names it, as build.py does.
      const vendor = path.join(dist, "static", "vendor");
      const changed = `${version}+rebuilt`;
      execFileSync(PYTHON, ["-c", `
import hashlib, json, os, sys, zipfile
vendor, version, changed = sys.argv[1:]
manifest_path = os.path.join(vendor, "manifest.json")
manifest = json.load(open(manifest_path))
old = next(p for p in manifest["install"] if p.split("/")[-1].startswith("chunkwise-"))
src = zipfile.ZipFile(os.path.join(vendor, old))
tmp = os.path.join(vendor, "rebuilt.whl")
with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as out:
    for info in src.infolist():
        data = src.read(info)
        if info.filename == "chunkwise/_version.py":
            data = data.replace(f'__version__ = "{version}"'.encode(), f'__version__ = "{changed}"'.encode())
        out.writestr(info, data)
key = hashlib.sha256(open(tmp, "rb").read()).hexdigest()[:16]
new = f"wheels/{key}/{old.split('/')[-1]}"
os.makedirs(os.path.join(vendor, "wheels", key))
os.replace(tmp, os.path.join(vendor, new))
manifest["install"] = [new if p == old else p for p in manifest["install"]]
json.dump(manifest, open(manifest_path, "w"), indent=2)
`, vendor, version, changed]);

      await page.reload();
      await waitReady(page);
      assert.doesNotMatch(await status(page), /resumed/, "the new build started Python afresh");
      assert.equal(await page.textContent("[data-testid=engine-version]"), changed, "and runs the new wheel");
      let saved;
      for (const deadline = snapshotDeadline(); Date.now() < deadline && !(saved = await savedSnapshots(page)).every((u) => u !== first);) {
        await page.waitForTimeout(100);
      }
      assert.equal(saved.length, 1, "one snapshot is kept: the new build's");
      assert.notEqual(saved[0], first);

      await page.reload();
      await waitReady(page);
      assert.match(await status(page), /resumed/, "the next reload resumes the new build's snapshot");
      assert.equal(await page.textContent("[data-testid=engine-version]"), changed);
      await paste(page, "Still the same chunks. Second sentence.");
    } finally {
      await profile.close();
      server.stop();
    }
  });
});
