// Nothing leaves the tab, and input is only ever text.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import {
  ROOT, download, foreignRequests, paste, readDocumentView, screenshot, setSettings, tmpFile, useApp, waitDone,
} from "./helpers.mjs";
import { markdownDoc } from "./corpus.mjs";

const PAYLOADS = [
  `<img src=x onerror="window.__pwned='img';alert('img')">`,
  `<script>window.__pwned='script';alert('script')</script>`,
  `<svg onload="window.__pwned='svg'"><circle r=5></circle></svg>`,
  `"><iframe src="javascript:window.parent.__pwned='iframe'"></iframe>`,
  `<a href="javascript:window.__pwned='link'">click</a> <b onmouseover="window.__pwned='hover'">bold</b>`,
  `<style>body{display:none}</style><link rel=stylesheet href="https://example.com/x.css">`,
  `<img src="https://example.com/beacon.png"> <meta http-equiv="refresh" content="0;url=https://example.com">`,
];
const HOSTILE = [
  `# Heading <img src=x onerror="window.__pwned='heading'">`,
  "",
  ...PAYLOADS.map((p, i) => `Paragraph ${i}: ${p} and some words after it.`).join("\n\n").split("\n"),
  "",
  `## <script>window.__pwned='h2'</script> section`,
  "",
  "More text: ${alert(1)} {{constructor.constructor('window.__pwned=1')()}} &lt;b&gt; &amp; &#x3C;",
].join("\n");

describe("security", () => {
  const app = useApp();
  let page;
  const requests = [];

  before(() => {
    page = app.page;
    app.context.on("request", (r) => requests.push(r.url())); // every page and worker of the context
  });

  test("HTML and script payloads are shown as text and never run", async () => {
    await page.evaluate(() => { window.__pwned = undefined; });
    await paste(page, HOSTILE);
    // Hover and keyboard-walk every chunk (headings reach the inspector), then the cards.
    await page.focus("[data-testid=document-view]");
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowDown");
    await page.hover(".seg[data-first]");
    await setSettings(page, { size: 256, strategy: "markdown" });
    await page.click("[data-testid=tab-cards]");
    await page.waitForSelector("[data-testid=card]");
    await page.hover("[data-testid=card]");
    await page.click("[data-testid=tab-document]");

    const view = await readDocumentView(page);
    assert.equal(view.text, HOSTILE, "the payloads are in the view as plain text");
    const injected = await page.evaluate(() => ({
      pwned: window.__pwned,
      inView: document.querySelectorAll("#document-view :is(img, script, svg, iframe, a, b, style, link, meta)").length,
      inCards: document.querySelectorAll("#chunk-cards :is(img, script, svg, iframe, a, b, style, link, meta)").length,
      inInspector: document.querySelectorAll("#chunk-inspector :is(img, script, svg, iframe)").length,
      bodyVisible: getComputedStyle(document.body).display !== "none",
      images: [...document.images].map((i) => i.src),
    }));
    assert.deepEqual(injected, { pwned: undefined, inView: 0, inCards: 0, inInspector: 0, bodyVisible: true, images: [] });
    assert.deepEqual(app.log.dialogs, [], "no alert() ran");
    await screenshot(page, "20-xss-payloads");
  });

  test("a hostile file name is shown as text", async () => {
    const name = `<img src=x onerror="window.__pwned='filename'">.md`;
    await page.setInputFiles("[data-testid=file-input]", { name, mimeType: "text/markdown", buffer: Buffer.from("Harmless text.\n") });
    await waitDone(page);
    assert.match(await page.textContent("[data-testid=source-info]"), /<img src=x onerror/);
    const got = await download(page, "download-jsonl");
    assert.match(got.name, /\.chunks\.jsonl$/); // the browser may sanitise the rest of the name
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });

  test("no request ever leaves the page's origin", async () => {
    // A full session: boot (before), paste, settings, cards, downloads, a file.
    await paste(page, markdownDoc(3, 3));
    await setSettings(page, { strategy: "smart", size: 512, encoding: "o200k_base" });
    await setSettings(page, { encoding: "chars" });
    for (const fmt of ["jsonl", "json", "text"]) await download(page, `download-${fmt}`);
    await page.setInputFiles("[data-testid=file-input]", tmpFile("x.md", "# X\n\ntext\n"));
    await waitDone(page);
    const all = [...new Set([...app.log.requests, ...requests])];
    assert.ok(all.some((u) => u.endsWith("pyodide.asm.wasm")), "the worker's requests are recorded too");
    assert.ok(all.some((u) => /\/wheels\/[0-9a-f]{16}\/chunkwise-/.test(u)), "wheel downloads are recorded");
    assert.deepEqual(foreignRequests({ requests: all }, app.server.origin), []);
  });

  test("no CSP violation, no console error; the page has no inline script or style", async () => {
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    const html = readFileSync(path.join(ROOT, "index.html"), "utf8");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval';/);
    assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'|https?:|\*/);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline <script>");
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i, "no inline style or event handler attributes");
    // The served page carries the same policy as a header (it governs the worker).
    const res = await fetch(app.server.url);
    assert.equal(res.headers.get("content-security-policy"), csp);
  });

  test("the app code never renders through innerHTML", () => {
    const files = readdirSync(path.join(ROOT, "app")).filter((f) => f.endsWith(".js"));
    assert.ok(files.includes("main.js") && files.includes("worker.js"));
    for (const file of files) {
      const src = readFileSync(path.join(ROOT, "app", file), "utf8");
      assert.doesNotMatch(src, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/, file);
    }
  });
});
