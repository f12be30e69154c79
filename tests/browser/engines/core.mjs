// The core browser checks, the same in every engine (firefox.mjs and webkit.mjs run
// them; the Chromium suites check all this and much more through playwright):
// boot to "Engine ready", type, paste, chunk (every chunk, cut, overlap and stat equal
// to the CPython engine's), change a setting, walk the chunks by keyboard, open a file
// through the file input, download JSONL equal to the CLI's bytes (a real download,
// into a folder), and work offline after the first visit.
//
// A tab (drivers.mjs) only clicks, types, presses keys, sets files and evaluates in
// the page; everything here is engine-independent.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { assertMatchesEngine, BOOT_TIMEOUT, cli, engineReference, readDocumentView, startServer, tmpFile } from "../helpers.mjs";
import { markdownDoc } from "../corpus.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const RUN_TIMEOUT_SMALL = 30_000; // each document here chunks in well under a second

// Poll fn in the page (every 100 ms) until it returns something truthy; that value.
export async function waitFor(tab, fn, arg, { timeout = RUN_TIMEOUT_SMALL, what = "the page" } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await tab.evaluate(fn, arg);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await sleep(100);
  }
}

// Boot: the status says "Engine ready" (or the boot failed, and says why). A page
// that did not load at all (no status element) fails in 20 s, not in BOOT_TIMEOUT.
export async function waitReady(tab) {
  await waitFor(tab, () => !!document.querySelector("[data-testid=engine-status]"), null, { timeout: 20_000, what: "the page to load" });
  const { state, text, error } = await waitFor(tab, () => {
    const status = document.querySelector("[data-testid=engine-status]");
    const state = status?.dataset.state;
    return (state === "ready" || state === "error") && {
      state, text: status.textContent.trim(), error: document.querySelector("[data-testid=boot-error-message]")?.textContent,
    };
  }, null, { timeout: BOOT_TIMEOUT, what: "the engine to start" });
  if (state !== "ready") throw new Error("engine failed to boot: " + error);
  return text;
}

// The run for the current input is finished and rendered (as helpers.waitDone).
export async function waitDone(tab) {
  const r = await waitFor(tab, () => {
    const s = document.querySelector("[data-testid=run-status]").dataset.state;
    const rendered = document.querySelector("[data-testid=document-view]").dataset.rendered === "true";
    return (s === "error" || (s === "done" && rendered)) && {
      s, text: document.querySelector("[data-testid=run-status-text]").textContent,
      error: document.querySelector("[data-testid=run-error]").textContent,
    };
  }, null, { timeout: RUN_TIMEOUT_SMALL, what: "the run to finish" });
  if (r.s !== "done") throw new Error(`run failed: ${r.text} ${r.error}`);
}

// A real paste: a click on the element puts `text` on the system clipboard (from the
// click's own handler, where the browser allows it), then Ctrl+A, Ctrl+V.
export async function paste(tab, selector, text) {
  await tab.evaluate(({ selector, text }) => {
    window.__clipboard = "pending";
    document.querySelector(selector).addEventListener("click", () => {
      navigator.clipboard.writeText(text).then(() => { window.__clipboard = "ok"; }, (e) => { window.__clipboard = String(e); });
    }, { once: true });
  }, { selector, text });
  await tab.click(selector);
  const clip = await waitFor(tab, () => window.__clipboard !== "pending" && window.__clipboard, null, { timeout: 10_000, what: "the clipboard" });
  assert.equal(clip, "ok", "the text is on the clipboard");
  await tab.press("Control+a");
  await tab.press("Control+v");
}

// Click a download button; the file the browser saved in `dir` (emptied first).
export async function download(tab, dir, testid) {
  for (const name of readdirSync(dir)) rmSync(path.join(dir, name), { recursive: true, force: true });
  await tab.click(`[data-testid=${testid}]`);
  const partial = (name) => /\.(part|download|wkdownload)$/.test(name) || name.startsWith(".");
  let last = null;
  for (let i = 0; i < 300; i++) {
    await sleep(100);
    const names = readdirSync(dir);
    const done = names.filter((n) => !partial(n));
    if (done.length === 1 && names.length === 1) {
      const size = statSync(path.join(dir, done[0])).size;
      if (last === size) return { name: done[0], bytes: readFileSync(path.join(dir, done[0])) };
      last = size;
    }
  }
  throw new Error(`no download in ${dir} after 30 s: ${readdirSync(dir).join(", ") || "nothing"}`);
}

// What the keyboard selected: the inspector's "Chunk N of M" and the highlighted extent.
const selected = (tab) => tab.evaluate(() => ({
  index: document.querySelector("[data-testid=inspect-index]")?.textContent ?? "",
  active: [...document.querySelectorAll("[data-testid=document-view] .seg.active")].map((s) => s.textContent).join(""),
}));

// CRLF line endings, an emoji, and two bytes that are not UTF-8 (as files.test.mjs).
const NOTES = Buffer.concat([
  Buffer.from(markdownDoc(11, 4).replace(/\n/g, "\r\n").replace("Part 2", "Part 2 🎉"), "utf8"),
  Buffer.from([0xff, 0xfe, 0x41]),
  Buffer.from("\r\nThe end.\r\n", "utf8"),
]);
const TYPED = "# Typed by hand\n\nA first paragraph, typed key by key. It has two sentences.\n\nA second paragraph.";
const PASTED = markdownDoc(5, 6) + "\nAstral text: 🎉 👩‍👩‍👧 𠀀𠀁 and a flag 🇫🇷 at the end.\n";
const AUTO = { strategy: "smart", max_tokens: 512, overlap: null, encoding: "cl100k_base" }; // the page's defaults
const SMALL = { ...AUTO, max_tokens: 256 };
// The CLI is given the overlap the page shows (Auto: the engine's default, in the field).
const cliSettings = async (tab, s) => ({ ...s, overlap: Number(await tab.evaluate(() => document.querySelector("[data-testid=overlap]").value)) });

// launch({downloads}) -> a tab (drivers.mjs).
export function coreSuite(launch) {
  const downloads = mkdtempSync(path.join(tmpdir(), "chunkwise-downloads-"));
  let server, tab, booted = false;
  // Every check after the boot needs the booted page: without it, each fails at once.
  const check = (name, fn) => test(name, async (t) => {
    assert.ok(booted, "the page booted (see the first test)");
    await fn(t);
  });
  before(async () => {
    server = await startServer();
    tab = await launch({ downloads });
  });
  after(async () => {
    await tab?.close();
    server?.stop();
  });

  test("boots to Engine ready", async (t) => {
    t.diagnostic(tab.version);
    await tab.goto(server.url);
    assert.match(await waitReady(tab), /^Engine ready\b/);
    booted = true;
  });

  check("typed text is chunked as the engine chunks it", async () => {
    await tab.click("[data-testid=source-text]");
    await tab.press("Control+a"); // over whatever the box holds
    await tab.type(TYPED);
    await waitDone(tab);
    await assertMatchesEngine(tab, TYPED, AUTO);
  });

  check("a pasted document is chunked as the engine chunks it; a typed chunk size chunks it again; JSONL = the CLI's", async () => {
    await paste(tab, "[data-testid=source-text]", PASTED);
    await waitDone(tab);
    assert.equal(await tab.evaluate(() => document.querySelector("[data-testid=source-text]").value), PASTED, "the whole text was pasted");
    const ref = await assertMatchesEngine(tab, PASTED, AUTO);
    assert.ok(ref.chunks.length >= 3, `several chunks (${ref.chunks.length})`);

    await tab.click("[data-testid=max-tokens]");
    await tab.press("Control+a");
    await tab.type("256");
    await waitFor(tab, () => document.querySelector("[data-testid=stat-budget]")?.dataset.value === "256", null, { what: "size 256" });
    await waitDone(tab);
    await assertMatchesEngine(tab, PASTED, SMALL);

    const got = await download(tab, downloads, "download-jsonl");
    assert.equal(got.name, "chunks.jsonl");
    const want = cli(tmpFile("pasted.txt", PASTED), await cliSettings(tab, SMALL), "jsonl");
    assert.ok(got.bytes.equals(want), `JSONL differs from the CLI's (${got.bytes.length} vs ${want.length} bytes)`);
  });

  check("the keyboard walks the chunks", async () => {
    const chunks = (await engineReference(PASTED, SMALL)).chunks;
    const n = chunks.length;
    await tab.evaluate(() => document.querySelector("[data-testid=document-view]").focus());
    const expect = async (i, what) => {
      const s = await selected(tab);
      assert.match(s.index, new RegExp(`^Chunk ${i + 1} of ${n}\\b`), what);
      assert.equal(s.active, chunks[i].text, `${what}: the highlighted extent is chunk ${i + 1}`);
    };
    await tab.press("Home");
    await expect(0, "Home");
    await tab.press("ArrowDown");
    await tab.press("ArrowDown");
    await expect(2, "ArrowDown twice");
    await tab.press("End");
    await expect(n - 1, "End");
    await tab.press("ArrowUp");
    await expect(n - 2, "ArrowUp");
  });

  check("a file opened through the file input is read like the CLI; its JSONL download is the CLI's bytes", async () => {
    const notes = tmpFile("notes.md", NOTES);
    await tab.setFiles("[data-testid=file-input]", notes);
    await waitFor(tab, () => document.querySelector("[data-testid=source-info]").textContent.includes("notes.md"), null, { timeout: 30_000, what: "the file" });
    await waitDone(tab);
    assert.match(await tab.evaluate(() => document.querySelector("[data-testid=input-notice]").textContent), /2 invalid byte sequences/);
    const want = cli(notes, await cliSettings(tab, SMALL), "jsonl");
    const view = await readDocumentView(tab);
    assert.deepEqual(view.chunks, want.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l).text));
    assert.ok(view.text.includes("\r\n") && view.text.includes("\uFFFD"), "CRLF kept, undecodable bytes as U+FFFD");
    const got = await download(tab, downloads, "download-jsonl");
    assert.equal(got.name, "notes.chunks.jsonl");
    assert.ok(got.bytes.equals(want), `JSONL differs from the CLI's (${got.bytes.length} vs ${want.length} bytes)`);
  });

  check("offline after the first visit: with the server gone, a reload boots and chunks", async () => {
    // The service worker has stored every file of the build and controls the page.
    const manifest = await (await fetch(server.url + "static/vendor/manifest.json")).json();
    const expected = [
      ...manifest.page.map((p) => new URL(p, server.url).href),
      ...manifest.pyodide_files.map((n) => server.url + "static/vendor/" + manifest.pyodide_dir + n),
      ...manifest.install.map((p) => server.url + "static/vendor/" + p),
    ];
    const stored = await waitFor(tab, async (want) => {
      const reg = await navigator.serviceWorker.ready;
      const keys = (await (await caches.open("chunkwise-page")).keys()).map((r) => r.url);
      return reg.active && navigator.serviceWorker.controller && want.every((u) => keys.includes(u)) && keys;
    }, expected, { timeout: 60_000, what: "the service worker to store the build's files" });
    assert.ok(stored.length >= expected.length);

    server.stop();
    for (let i = 0; ; i++) { // until nothing answers
      try { await fetch(server.url); } catch { break; }
      assert.ok(i < 100, "the server stopped");
      await sleep(100);
    }
    await tab.reload();
    await waitReady(tab);
    const text = "Offline now. Still chunking.\n\nA second paragraph, typed offline.";
    await tab.click("[data-testid=source-text]");
    await tab.press("Control+a");
    await tab.type(text);
    await waitDone(tab);
    const view = await readDocumentView(tab);
    assert.equal(view.text, text);
    assert.equal(view.chunks.join(""), text);
    assert.ok(await tab.evaluate(() => !!navigator.serviceWorker.controller), "the service worker answered");
  });
}

// One describe block per engine: its file is a line or two.
export function runCore(name, launch) {
  describe(`core checks in ${name}`, () => coreSuite(launch));
}
