// What a new user, a keyboard user and a screen-reader user hit on the page
// (issue 13, defects 1-3, 5, 9, 11-14): each test failed on the page before its fix.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  ROOT, engineReference, launchBrowser, openApp, pageServer, paste, readStats, screenshot, setSettings, useApp, waitDone,
} from "./helpers.mjs";
import { axeViolations } from "./axe.mjs";
import { markdownDoc, paragraph, rng } from "./corpus.mjs";

const LAPTOP = { width: 1280, height: 800 };
const doc = markdownDoc(7, 6);
const settings256 = { strategy: "smart", max_tokens: 256, overlap: 32, encoding: "cl100k_base" };

// Is the element's box (or its first line box) inside the window's viewport?
const inViewport = (page, selector) => page.evaluate((sel) => {
  const el = document.querySelector(sel);
  const r = (el.getClientRects()[0]) || el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
}, selector);

describe("page round 2: defects a new user hit", () => {
  const app = useApp({ viewport: LAPTOP });
  let page;
  before(async () => {
    page = app.page;
    await paste(page, doc);
    await setSettings(page, { size: 256 });
  });

  test("defect 1: clicking in the document selects the chunk under the pointer and never scrolls", async () => {
    const ref = await engineReference(doc, settings256);
    const target = ref.chunks[5];
    // Bring chunk 6 into the middle of the view, as a reader scrolling to it would.
    await page.evaluate((i) => document.querySelector(`.seg[data-first="${i}"][data-last="${i}"]`).scrollIntoView({ block: "center" }), target.index);
    // Blocks coming into view are laid out and hit-testable from a later frame on
    // (content-visibility): wait until the point is really on the chunk's text. The
    // middle of its widest line box: its first box may begin with the chunk's start marker.
    const box = await (await page.waitForFunction((i) => {
      const seg = document.querySelector(`.seg[data-first="${i}"][data-last="${i}"]`);
      const r = [...seg.getClientRects()].sort((a, b) => b.width - a.width)[0];
      const p = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      return document.elementFromPoint(p.x, p.y) === seg && p;
    }, target.index, { polling: "raf" })).jsonValue();
    const before = await page.evaluate(() => ({ view: document.querySelector("[data-testid=document-view]").scrollTop, page: scrollY }));
    await page.mouse.click(box.x, box.y);
    const afterClick = await page.evaluate(() => ({ view: document.querySelector("[data-testid=document-view]").scrollTop, page: scrollY }));
    assert.deepEqual(afterClick, before, "a click never scrolls");
    assert.match(await page.textContent("[data-testid=inspect-index]"), /Chunk 6 of/);
    await page.mouse.move(0, 0); // leave the view: the clicked chunk stays selected
    assert.match(await page.textContent("[data-testid=inspect-index]"), /Chunk 6 of/);
  });

  test("defect 2: arrow keys keep the selected chunk and its details both in view", async () => {
    await page.evaluate(() => scrollTo(0, 0));
    await page.focus("[data-testid=document-view]");
    await page.keyboard.press("Home");
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("ArrowDown");
      assert.ok(await inViewport(page, "[data-testid=chunk-inspector]"), `inspector visible after ${i + 1} ArrowDown`);
      assert.ok(await inViewport(page, ".seg.active"), `selected chunk visible after ${i + 1} ArrowDown`);
      const shown = await page.evaluate(() => {
        const view = document.querySelector("[data-testid=document-view]").getBoundingClientRect();
        const seg = document.querySelector(".seg.active").getClientRects()[0];
        return seg.top >= view.top - 1 && seg.top < view.bottom;
      });
      assert.ok(shown, "the chunk's start is inside the document view");
    }
    assert.match(await page.textContent("[data-testid=inspect-index]"), /Chunk 13 of/);
  });

  test("defect 3: the chunk list is one tab stop with arrow keys inside; a skip link leads to Settings", async () => {
    await page.click("[data-testid=tab-cards]");
    await page.waitForSelector("[data-testid=card]");
    const violations = (await axeViolations(page)).filter((v) => v.startsWith("scrollable-region-focusable"));
    assert.deepEqual(violations, []);
    // From the tab, Tab enters the list; a few more leave it for good.
    const inList = () => page.evaluate(() => !!document.activeElement.closest("[data-testid=chunk-cards]"));
    await page.focus("[data-testid=card-filter]"); // the list's filter, right before it
    await page.keyboard.press("Tab");
    assert.ok(await inList(), "Tab from the filter goes into the list");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.index), "0");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.index), "2", "ArrowDown moves to the next card");
    await page.keyboard.press("End");
    const count = await page.$$eval("[data-testid=card]", (els) => els.length);
    assert.ok(Number(await page.evaluate(() => document.activeElement.dataset.index)) >= count - 1, "End goes to the last card");
    let presses = 0;
    while (await inList()) {
      await page.keyboard.press("Tab");
      assert.ok(++presses <= 2, "at most two Tab presses leave the list (its current card and that card's Copy button)");
    }
    // The skip links: the second Tab stop of the page leads to Settings.
    await page.click("[data-testid=tab-document]");
    await page.focus(".skip-link");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.textContent), "Skip to the settings");
    await page.keyboard.press("Enter");
    assert.equal(await page.evaluate(() => document.activeElement.id), "settings-panel");
  });

  test("defect 5: an invalid number says why, next to the field, in the page's words", async () => {
    for (const [field, value, pattern] of [
      ["max-tokens", "0", /Chunk size must be at least 1/],
      ["max-tokens", "-5", /Chunk size must be at least 1/],
      ["max-tokens", "2.5", /Chunk size must be a whole number/],
      ["max-tokens", "2000000", /Chunk size can be at most 1,000,000\./], // the engine's limit (describe)
      ["overlap", "-3", /Overlap must be 0 or more/],
    ]) {
      await page.fill(`[data-testid=${field}]`, value);
      await page.locator(`[data-testid=${field}]`).blur();
      const error = page.locator(`[data-testid=${field}-error]`);
      assert.ok(await error.isVisible(), `${field}=${value}: a message is shown`);
      assert.match(await error.textContent(), pattern);
      assert.equal(await page.getAttribute(`[data-testid=${field}]`, "aria-invalid"), "true");
      const described = await page.getAttribute(`[data-testid=${field}]`, "aria-describedby");
      assert.ok(described.split(" ").includes(await error.getAttribute("id")), "the message describes the field");
      assert.equal(await page.inputValue(`[data-testid=${field}]`), value, "what the user typed stays, to be fixed");
    }
    // A valid value clears the message and is used.
    await page.fill("[data-testid=overlap]", "16");
    await page.fill("[data-testid=max-tokens]", "200");
    await waitDone(page);
    assert.equal(await page.locator("[data-testid=max-tokens-error]").isVisible(), false);
    assert.equal(await page.locator("[data-testid=overlap-error]").isVisible(), false);
    assert.equal(await page.getAttribute("[data-testid=max-tokens]", "aria-invalid"), null);
    // Engine warnings use the page's words too.
    await setSettings(page, { size: 2, overlap: 0 });
    const warnings = await page.$$eval("[data-testid=warning]", (els) => els.map((e) => e.textContent));
    assert.ok(warnings.some((w) => /^Chunk size 2 is too small/.test(w)), `page words: ${warnings}`);
    assert.ok(warnings.every((w) => !/max_tokens/.test(w)), `no engine field names: ${warnings}`);
    // The overlap's help gives the automatic value for this size, not for 512.
    await setSettings(page, { size: 300, overlap: 40 });
    assert.equal(await page.textContent("#overlap-help"),
      'Set by you. "Auto" (or an empty field) goes back to an eighth of the chunk size, rounded down: 37 for 300.');
    await setSettings(page, { size: 256 });
    await page.click("[data-testid=overlap-auto]");
    await waitDone(page);
    assert.equal(await page.textContent("#overlap-help"),
      "Automatic: an eighth of the chunk size, rounded down: 32 for 256. Type a number to set your own; empty is automatic.");
  });

  test("while a number is not valid, the status line says the chunks shown are the settings in force", async () => {
    await setSettings(page, { size: 256 });
    await waitDone(page);
    const done = await page.textContent("[data-testid=run-status-text]");
    await page.fill("[data-testid=max-tokens]", "0");
    assert.equal(await page.textContent("[data-testid=run-status-text]"),
      "Not chunked again: Chunk size is not valid. These chunks are for size 256, overlap 32.");
    await page.fill("[data-testid=overlap]", "-1");
    assert.match(await page.textContent("[data-testid=run-status-text]"), /^Not chunked again: Chunk size and Overlap are not valid\./);
    await page.fill("[data-testid=overlap]", "32");
    await page.fill("[data-testid=max-tokens]", "256");
    await waitDone(page);
    const untimed = (t) => t.replace(/ in [\d.]+ s$/, "");  // (the run's time varies)
    assert.equal(untimed(await page.textContent("[data-testid=run-status-text]")), untimed(done), "fixed: the run's own status again");
    await page.click("[data-testid=overlap-auto]");
    await waitDone(page);
  });

  test("an overlap you typed that no chunk gets is explained", async () => {
    const sections = Array.from({ length: 5 }, (_, i) => `# Section ${i}\n\n${"Some text about it. ".repeat(30)}`).join("\n\n");
    await paste(page, sections);
    await setSettings(page, { strategy: "markdown", size: 256, overlap: 40 });
    await waitDone(page);
    const stats = await readStats(page);
    assert.equal(stats.overlap_tokens, 0);
    assert.ok(stats.warnings.includes("Overlap 40: no chunk repeats text from the one before it: each ends before a heading,"
      + " and an overlap never crosses one."), `warnings: ${stats.warnings}`);
    await page.click("[data-testid=overlap-auto]");
    await waitDone(page);
    assert.deepEqual((await readStats(page)).warnings, [], "Auto: the default overlap is not explained");
    await setSettings(page, { strategy: "smart" });
    await paste(page, doc);
    await waitDone(page);
  });

  test("defect 9: with the Characters tokenizer every label says characters", async () => {
    await setSettings(page, { encoding: "chars", size: 1024 });
    // (the Tokenizer's help names what Characters counts instead: "... instead of tokens")
    assert.equal(await page.textContent("#encoding-help"), "Counts characters (code points) instead of tokens.");
    await page.hover(".seg.tint-1");
    const texts = await page.evaluate(() => [
      ...[...document.querySelectorAll("label, .help:not(#strategy-help):not(#encoding-help), [data-testid=run-status-text], #stats-panel dt, #stats-panel dd, #histogram, [data-testid=chunk-inspector]")]
        .map((e) => e.textContent),
      document.querySelector("[data-testid=max-tokens]").getAttribute("aria-label") || "",
    ]);
    const offending = texts.filter((t) => /\btokens?\b/i.test(t));
    assert.deepEqual(offending, []);
    assert.match(await page.textContent("label[for=size-preset]"), /Chunk size \(characters\)/);
    assert.match(await page.textContent("[data-testid=inspect-tokens]"), /^Characters \d/);
    assert.match(await page.textContent("[data-testid=run-status-text]"), /from [\d,]+ characters/);
    await setSettings(page, { encoding: "cl100k_base", size: 256 });
    assert.match(await page.textContent("label[for=size-preset]"), /Chunk size \(tokens\)/);
  });

  test("defect 12: the histogram's labels fit, and bin ranges are visible without a mouse", async () => {
    const clipped = await page.evaluate(() => {
      const host = document.querySelector("[data-testid=histogram]").getBoundingClientRect();
      return [...document.querySelectorAll("[data-testid=histogram] .bar-count")].filter((l) => {
        const r = l.getBoundingClientRect();
        return r.top < host.top || r.bottom > host.bottom || r.left < host.left || r.right > host.right;
      }).map((l) => l.textContent);
    });
    assert.deepEqual(clipped, []);
    const bars = page.locator("[data-testid=histogram] .bar");
    assert.ok((await bars.count()) > 1);
    // Focus a bar from the keyboard: its range is shown as text on the page.
    await bars.nth(0).focus();
    const lo = await bars.nth(0).getAttribute("data-lo");
    const hi = await bars.nth(0).getAttribute("data-hi");
    const caption = page.locator("[data-testid=histogram-caption]");
    assert.ok(await caption.isVisible());
    assert.match(await caption.textContent(), new RegExp(`${lo}–${hi} tokens`));
  });

  test("defect 13: the inspector is not a live region; a run is announced once, not per step", async () => {
    assert.equal(await page.getAttribute("[data-testid=chunk-inspector]", "aria-live"), null);
    await page.evaluate(() => {
      window.__announced = [];
      const live = [...document.querySelectorAll("[aria-live], [role=status], [role=alert]")].filter((e) => e.getAttribute("aria-live") !== "off");
      const mo = new MutationObserver(() => {
        for (const r of live) {
          const t = r.textContent.trim();
          if (!r.hidden && t && r.__last !== t) { r.__last = t; window.__announced.push(t); }
        }
      });
      for (const r of live) { r.__last = r.textContent.trim(); mo.observe(r, { subtree: true, childList: true, characterData: true }); }
    });
    const rand = rng(5);
    const parts = [];
    for (let n = 0; n < 300_000; n += parts.at(-1).length + 2) parts.push(paragraph(rand, 4));
    const big = parts.join("\n\n"); // 300 KB: a few seconds of work in slices
    await page.evaluate((t) => navigator.clipboard.writeText(t), big);
    await page.fill("[data-testid=source-text]", "");
    await page.evaluate(() => { window.__announced.length = 0; });
    await page.focus("[data-testid=source-text]");
    await page.keyboard.press("Control+V");
    await waitDone(page);
    // Hover over several chunks: nothing is announced.
    for (let i = 0; i < 5; i++) await page.hover(`.seg[data-first="${i}"]`);
    const announced = await page.evaluate(() => window.__announced);
    assert.ok(announced.length <= 4, `announcements during a big run: ${announced.length}: ${announced.join(" / ")}`);
    assert.match(announced.at(-1), /^[\d,]+ chunks from [\d,]+ tokens/);
    await page.fill("[data-testid=source-text]", doc);
    await waitDone(page);
  });

  test("defect 11: whitespace-only text is explained", async () => {
    await page.fill("[data-testid=source-text]", "   \n\n \t \n");
    await waitDone(page);
    assert.match(await page.textContent("[data-testid=run-status-text]"), /only whitespace/i);
    await page.fill("[data-testid=source-text]", doc);
    await waitDone(page);
  });

  test("defect 4: chunk extents and overlap depth are visible without colour", async () => {
    const s = { strategy: "smart", max_tokens: 128, overlap: 64, encoding: "cl100k_base" };
    await setSettings(page, { size: 128, overlap: 64 });
    const ref = await engineReference(doc, s);
    const marks = await page.evaluate(() => {
      const view = document.querySelector("[data-testid=document-view]");
      const label = (e) => getComputedStyle(e, "::before").content;
      return {
        starts: [...view.querySelectorAll("[data-testid=start-mark]")].map((e) => ({ chunk: Number(e.dataset.chunk), label: label(e) })),
        cuts: [...view.querySelectorAll("[data-testid=cut]")].map((e) => ({ chunk: Number(e.dataset.chunk), label: label(e) })),
        // Where each start marker sits: the text before it must be the text before the chunk.
        startOffsets: [...view.querySelectorAll("[data-testid=start-mark]")].map((m) => {
          const range = document.createRange();
          range.setStart(view, 0);
          range.setEndBefore(m);
          return range.toString().length;
        }),
        deep: [...view.querySelectorAll(".seg[data-depth]")].map((e) => ({
          depth: Number(e.dataset.depth), style: getComputedStyle(e).textDecorationStyle, line: getComputedStyle(e).textDecorationLine,
        })),
      };
    });
    // A numbered marker at every start and every end, in grayscale as in colour.
    assert.deepEqual(marks.starts.map((m) => m.chunk), ref.chunks.map((c) => c.index));
    marks.starts.forEach((m) => assert.equal(m.label, `"${m.chunk + 1}"`));
    marks.cuts.forEach((m) => {
      const c = ref.chunks[m.chunk];
      assert.equal(m.label, `"✂ ${c.index + 1} · ${c.token_count} tokens · ${c.boundary}"`, "the cut says the chunk's number, size and reason");
    });
    const cpLength = (str) => Array.from(str).length;
    assert.deepEqual(marks.startOffsets.map((o) => cpLength(doc.slice(0, o))), ref.chunks.map((c) => c.start), "start markers sit at chunk starts");
    // Text held by three chunks looks different from text held by two, without colour.
    const depth3 = ref.chunks.filter((c, i) => i >= 2 && c.start < ref.chunks[i - 2].end).length;
    assert.ok(depth3 > 0, "these settings give text in three chunks");
    const twice = marks.deep.filter((d) => d.depth === 2);
    const thrice = marks.deep.filter((d) => d.depth >= 3);
    assert.ok(twice.length && thrice.length);
    assert.ok(twice.every((d) => d.line === "underline" && d.style === "solid"));
    assert.ok(thrice.every((d) => d.line === "underline" && d.style === "double"));
    await screenshot(page, "grayscale-check");
    await setSettings(page, { size: 256 });
    await page.click("[data-testid=overlap-auto]");
    await waitDone(page);
  });

  test("defect 10: on a laptop screen the chunks, the text box and the settings are in view together", async () => {
    await page.evaluate(() => scrollTo(0, 0));
    const r = await page.evaluate(() => {
      const box = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
      return { view: box("[data-testid=document-view]"), text: box("[data-testid=source-text]"), strategy: box("[data-testid=strategy]"), h: innerHeight };
    });
    assert.ok(r.view.top >= 0 && r.view.bottom <= r.h, `the document view is inside the window: ${JSON.stringify(r.view)}`);
    assert.ok(r.view.height >= 450, `the document view is tall: ${r.view.height}px`);
    assert.ok(r.text.top >= 0 && r.text.bottom <= r.h, "the text box is in view");
    assert.ok(r.strategy.top >= 0 && r.strategy.bottom <= r.h, "the settings are in view");
    // Scrolling the page to the stats keeps the chunks in view.
    await page.evaluate(() => document.querySelector("[data-testid=stats-panel]").scrollIntoView());
    assert.ok(await inViewport(page, "[data-testid=document-view]"));
    await screenshot(page, "laptop-layout");
  });

  test("axe: no violations in the document view and the chunk list, light and dark", async () => {
    await page.hover(".seg.tint-0");
    for (const scheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const tab of ["document", "cards"]) {
        await page.click(`[data-testid=tab-${tab}]`);
        if (tab === "cards") await page.waitForSelector("[data-testid=card]");
        assert.deepEqual(await axeViolations(page), [], `${tab} view, ${scheme}`);
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.click("[data-testid=tab-document]");
  });

  test("no errors in the console, no CSP violations", async () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  });
});

describe("page round 2: while booting, and on a touch screen", () => {
  let server, browser;
  // (browser: a first visit's, for the engine starting from nothing)
  before(async () => { server = await pageServer(); browser = await launchBrowser(); });
  after(async () => { await browser?.close(); server?.stop(); });
  // A phone's screen and touch (a returning visitor's), with the test document chunked.
  async function phoneWithDoc() {
    const { context, page } = await openApp(server, { viewport: { width: 390, height: 844 }, touch: true });
    await paste(page, doc);
    return { context, page };
  }

  test("defect 11: text pasted while the engine starts is never called 'No document yet'", async () => {
    const context = await browser.newContext({ viewport: LAPTOP });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.fill("[data-testid=source-text]", doc);
    const booting = await page.evaluate(() => document.querySelector("[data-testid=engine-status]").dataset.state);
    const empty = await page.evaluate(() => {
      const view = document.querySelector("[data-testid=document-view]");
      return view.textContent + getComputedStyle(view, "::before").content;
    });
    assert.doesNotMatch(empty, /No document/, `while ${booting}`);
    await waitDone(page);
    await context.close();
  });

  test("defect 14: a touch screen is never told to hover", async () => {
    const { context, page } = await phoneWithDoc();
    assert.ok(await page.evaluate(() => matchMedia("(hover: none)").matches), "the emulated phone cannot hover");
    const text = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /\bhover/i);
    await page.tap(".seg.tint-1");
    assert.match(await page.textContent("[data-testid=inspect-index]"), /Chunk 2 of/);
    await screenshot(page, "phone-tapped");
    // Defect 10 on a phone: with the settings at the top of the screen, the chunks are in view below them.
    await page.evaluate(() => document.querySelector("#settings-panel").scrollIntoView());
    const r = await page.evaluate(() => ({
      settings: document.querySelector("#settings-panel").getBoundingClientRect().toJSON(),
      view: document.querySelector("[data-testid=document-view]").getBoundingClientRect().toJSON(), h: innerHeight,
    }));
    assert.ok(r.settings.bottom <= r.h, "all settings fit on the screen");
    assert.ok(r.view.top <= r.h - 200, `at least 200 px of chunks below the settings (view top ${r.view.top} of ${r.h})`);
    await context.close();
  });

  test("on a phone, a chunk picked in the stats (a cut reason, a bar) is shown: the chunks are above them", async () => {
    const { context, page } = await phoneWithDoc();
    for (const target of ["[data-testid=step-heading]", "[data-testid=histogram-bar]:not([data-count=\"0\"]) >> nth=-1"]) {
      await page.locator(target).scrollIntoViewIfNeeded();
      await page.locator(target).tap();
      assert.ok(await inViewport(page, ".seg.active"), `the chunk picked with ${target} is on the screen`);
      assert.ok(await inViewport(page, "[data-testid=nav-status]"), "and the line saying which it is");
    }
    await page.fill("[data-testid=goto]", "99");
    await page.tap("[data-testid=goto-smallest]");
    assert.match(await page.textContent("[data-testid=nav-status]"), /^Chunk (\d+) is the smallest/);
    const n = (await page.textContent("[data-testid=nav-status]")).match(/^Chunk (\d+)/)[1];
    assert.equal(await page.inputValue("[data-testid=goto]"), n, "Go to chunk shows the chunk gone to");
    await context.close();
  });

  test("on a phone, a text read as code says so in the settings; prose adds no line", async () => {
    const { context, page } = await phoneWithDoc();
    assert.equal(await page.locator("[data-testid=language-note]").isVisible(), false, "prose: the settings stay compact");
    const code = readFileSync(path.join(ROOT, "tests/corpus/argparse.py.txt"), "utf8").split("\n").slice(0, 300).join("\n");
    await page.fill("[data-testid=source-text]", code);
    await waitDone(page);
    await page.evaluate(() => document.querySelector("#settings-panel").scrollIntoView());
    assert.ok(await page.locator("[data-testid=language-note]").isVisible(), "the note is shown");
    assert.match(await page.textContent("[data-testid=language-note]"), /^Read as Python/);
    const r = await page.evaluate(() => ({
      note: document.querySelector("[data-testid=language-note]").getBoundingClientRect().toJSON(),
      settings: document.querySelector("#settings-panel").getBoundingClientRect().toJSON(), w: innerWidth, h: innerHeight,
    }));
    assert.ok(r.note.right <= r.w && r.note.width > r.w / 2, "across the panel, not squeezed into a column");
    assert.ok(r.settings.bottom <= r.h, "all settings still fit on the screen");
    await screenshot(page, "phone-code-settings");
    await context.close();
  });
});
