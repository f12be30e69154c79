// Documents in the page (issue 25): a PDF, an HTML page and a DOCX opened as a
// person opens them are read as the CLI reads them (HTML, PDF and DOCX extracted,
// PDFs with their pages), the JSONL download equals the CLI's bytes, and a file
// that is neither text nor a document is refused by name and left out of a set.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PYTHON, ROOT, clipboard, download, paste, readDocumentView, runCommand, runPython, useApp, waitDone } from "./helpers.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "chunkwise-documents-"));
// A PDF of three pages and a DOCX with headings, made by the tests' own makers
// (fpdf2 and python-docx), and an HTML page with furniture around its <main>.
execFileSync(PYTHON, ["-c", `
import sys; sys.path.insert(0, "tests")
from documents_files import FHS_PDF_GZ, POLICY_HTML, make_docx, make_pdf, real_file
open(sys.argv[1] + "/report.pdf", "wb").write(make_pdf(3))
open(sys.argv[1] + "/fhs.pdf", "wb").write(real_file(FHS_PDF_GZ))  # Debian's FHS 3.0, 50 pages
open(sys.argv[1] + "/scope.html", "wb").write(real_file(POLICY_HTML / "ch-scope.html"))  # Debian's policy manual
def build(d):
    d.add_heading("Handbook", 0)
    d.add_heading("Installing", 1)
    d.add_paragraph("Run the installer. It asks two questions. " * 8)
    d.add_heading("Upgrading", 1)
    d.add_paragraph("Back up first. Then upgrade in place. " * 8)
open(sys.argv[1] + "/handbook.docx", "wb").write(make_docx(build))
`, dir], { cwd: ROOT });
writeFileSync(path.join(dir, "manual.html"), `<!DOCTYPE html><html><head><title>Manual</title><style>body{color:red}</style>
<script>var tracking = 1;</script></head><body><nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>
<main><h1>Manual</h1><p>${"The tool reads files. It writes chunks. ".repeat(12)}</p>
<h2>Options</h2><ul><li>--max-tokens sets the size.</li><li>--overlap sets the overlap.</li></ul>
<table><tr><th>Flag</th><th>Meaning</th></tr><tr><td>-o</td><td>output file</td></tr></table>
<pre><code class="language-python">def main():\n    return 0\n</code></pre></main><footer>© Example</footer></body></html>`);
writeFileSync(path.join(dir, "program"), readFileSync("/usr/bin/true")); // a real executable

const cli = (names, extra = []) => execFileSync(PYTHON, ["-m", "chunkwise", ...names, "--format", "jsonl", ...extra],
  { cwd: dir, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
// The CLI reading standard input (`python -m chunkwise - < file`), as the page reads pasted text.
const cliStdin = (bytes, extra = []) => execFileSync(PYTHON, ["-m", "chunkwise", "-", "--format", "jsonl", ...extra],
  { cwd: dir, input: bytes, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 1 << 28 });
const cliStatus = (names) => {
  try { cli(names); return 0; } catch (err) { return err.status; }
};

describe("documents", () => {
  const app = useApp({ viewport: { width: 1280, height: 800 } });
  let page;
  before(() => { page = app.page; });

  for (const name of ["report.pdf", "manual.html", "handbook.docx"]) {
    test(`${name} opened: its text is extracted, and the JSONL is the CLI's`, async () => {
      await page.setInputFiles("[data-testid=file-input]", path.join(dir, name));
      await waitDone(page);
      const got = await download(page, "download-jsonl");
      assert.ok(got.bytes.equals(cli([name])), `the page's JSONL for ${name} equals python -m chunkwise ${name}`);
      // Copy as Python read every file as decoded text: a PDF's bytes, a DOCX's zip, HTML's markup
      await page.click("[data-testid=copy-python]");
      assert.ok(runPython(await clipboard(page), dir).equals(got.bytes), `Copy as Python gives the page's JSONL for ${name}`);
      const records = got.bytes.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
      const view = (await readDocumentView(page)).text;
      assert.equal(view, execFileSync(PYTHON, ["-m", "chunkwise", name, "--extract"], { cwd: dir }).toString("utf8"),
        "the view shows the extracted text, as --extract prints it");
      assert.ok(!/<|\ufffd/.test(view), "no markup, no replacement characters");
      if (name === "report.pdf") {
        assert.equal(records[0].pages[0], 1, "chunks say their pages");
        assert.equal(records.at(-1).pages.at(-1), 3, "the last chunk ends on the last page");
      }
      if (name === "manual.html") {
        assert.ok(!view.includes("tracking") && !view.includes("Home"), "script and navigation are dropped");
        assert.match(view, /^# Manual$/m);
        assert.match(view, /^## Options$/m, "h1 and h2 are headings");
        assert.equal(records[0].headings[0], "Manual");
      }
      if (name === "handbook.docx") assert.match(view, /^#+ Upgrading$/m, "Word's heading styles are headings");
    });
  }

  test("an executable is refused by name, the text before stays", async () => {
    const before = (await readDocumentView(page)).text;
    await page.setInputFiles("[data-testid=file-input]", path.join(dir, "program"));
    await page.waitForFunction(() => /program does not look like text/.test(document.querySelector("[data-testid=input-notice]").textContent));
    assert.match(await page.textContent("[data-testid=input-notice]"), /so it was not opened/);
    await waitDone(page);
    assert.equal((await readDocumentView(page)).text, before);
  });

  test("several files with an executable among them: it is named and left out; the JSONL is the CLI's on the rest", async () => {
    const names = ["manual.html", "program", "report.pdf"];
    await page.setInputFiles("[data-testid=file-input]", names.map((n) => path.join(dir, n)));
    await page.waitForFunction(() => /Left out: program/.test(document.querySelector("[data-testid=input-notice]").textContent));
    await waitDone(page);
    assert.match(await page.textContent('[data-testid=file-row][data-name="program"]'), /left out: an ELF executable/);
    assert.ok(await page.isDisabled('[data-testid=file-row][data-name="program"] [data-testid=file-view]'));
    await page.waitForFunction(() => document.querySelector('[data-testid=file-row][data-name="report.pdf"]').dataset.chunks !== "");
    const got = await download(page, "download-jsonl");
    assert.notEqual(cliStatus(names), 0, "the CLI says so too");
    let want;
    try { want = cli(names); } catch (err) { want = err.stdout; }
    assert.ok(got.bytes.equals(want), "the page's JSONL equals the CLI's on the same files");
    await page.click("[data-testid=copy-python]");
    assert.ok(runPython(await clipboard(page), dir).equals(got.bytes), "Copy as Python gives the same bytes, the executable left out");
    assert.ok(!got.bytes.toString("utf8").includes("\ufffd"));
  });

  test("a real 50-page PDF: a rule where each page starts, at its offset, and the inspector names a chunk's pages", async () => {
    await page.setInputFiles("[data-testid=file-input]", path.join(dir, "fhs.pdf"));
    await waitDone(page);
    const records = (await download(page, "download-jsonl")).bytes.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    // where each page starts, in UTF-16 units (the page's string offsets), as the library reads the PDF
    const starts = JSON.parse(execFileSync(PYTHON, ["-c", `
import json, sys, chunkwise
doc = chunkwise.read_document(sys.argv[1])
print(json.dumps([len(doc.text[:p].encode("utf-16-le")) // 2 for p in doc.page_starts]))`, path.join(dir, "fhs.pdf")]).toString());
    assert.equal(starts.length, 50);
    const marks = await page.evaluate(() => {
      const view = document.querySelector("[data-testid=document-view]");
      return [...view.querySelectorAll("[data-testid=page-mark]")].map((mark) => {
        const before = document.createRange();
        before.setStart(view, 0);
        before.setEndBefore(mark);
        return { page: Number(mark.dataset.page), at: before.toString().length, hidden: mark.getAttribute("aria-hidden"),
          label: getComputedStyle(mark, "::before").content, text: mark.textContent };
      });
    });
    // one rule per page that starts somewhere of its own (a page without text starts where the next does)
    const expected = starts.map((at, i) => ({ page: i + 1, at })).filter((p, i) => starts[i + 1] !== p.at);
    assert.deepEqual(marks.map(({ page, at }) => ({ page, at })), expected, "each page's rule where its text starts");
    assert.ok(marks.every((m) => m.hidden === "true" && m.text === ""), "decorative: hidden from assistive technology, no text");
    assert.equal(marks[2].label, `"page ${marks[2].page}"`, "the label is generated content");
    assert.equal((await readDocumentView(page)).text,
      execFileSync(PYTHON, ["-m", "chunkwise", "fhs.pdf", "--extract"], { cwd: dir }).toString("utf8"), "the view's text is still --extract's");
    // a chunk that runs over a page break: the inspector says so
    const i = records.findIndex((r) => r.pages[0] < r.pages[1]);
    assert.ok(i >= 0, "some chunk spans two pages");
    await page.click(`.seg[data-first="${i}"][data-last="${i}"]`);
    assert.equal(await page.textContent("[data-testid=inspect-pages]"), `Pages ${records[i].pages[0]}–${records[i].pages[1]}`);
    const j = records.findIndex((r) => r.pages[0] === r.pages[1]);
    await page.click(`.seg[data-first="${j}"][data-last="${j}"]`);
    assert.equal(await page.textContent("[data-testid=inspect-pages]"), `Page ${records[j].pages[0]}`);
    const [first, last] = records[0].pages;
    await page.click("[data-testid=tab-cards]");
    assert.equal(await page.textContent("[data-testid=card] [data-testid=card-pages]"), first === last ? `Page ${first}` : `Pages ${first}–${last}`,
      "the chunk list's cards name their pages too");
    await page.click("[data-testid=tab-document]");
  });

  test("pasted HTML is read as an HTML document, as the CLI reads it on standard input; HTML markup chunks the markup", async () => {
    const html = readFileSync(path.join(dir, "scope.html"));
    await paste(page, html.toString("utf8"));
    assert.ok((await download(page, "download-jsonl")).bytes.equals(cliStdin(html)), "the JSONL is python -m chunkwise - < scope.html");
    assert.equal((await readDocumentView(page)).text, cliStdin(html, ["--extract"]).toString("utf8"), "the view shows the extracted text");
    assert.match(await page.textContent("[data-testid=input-notice]"), /This text is an HTML document .* HTML: [\d,]+ words; dropped .*choose “HTML markup”/);
    assert.match(await page.textContent('[data-testid=language] option[value="html"]'), /^HTML markup/);
    await page.click("[data-testid=copy-cli]");
    const copied = await clipboard(page);
    const saved = path.join(mkdtempSync(path.join(tmpdir(), "chunkwise-pasted-")), "pasted.html");
    writeFileSync(saved, html);
    assert.ok(runCommand(copied, path.dirname(saved)).equals(cliStdin(html)), `${copied} gives the page's bytes`);

    await page.selectOption("[data-testid=language]", "html");
    await waitDone(page);
    const markup = cliStdin(html, ["--language", "html"]);
    assert.ok((await download(page, "download-jsonl")).bytes.equals(markup), "the JSONL is python -m chunkwise - --language html");
    assert.equal((await readDocumentView(page)).text, html.toString("utf8"), "the view shows the markup");
    await page.click("[data-testid=copy-cli]");
    assert.match(await clipboard(page), / --language html /);
    assert.ok(runCommand(await clipboard(page), path.dirname(saved)).equals(markup));

    await page.selectOption("[data-testid=language]", "auto");
    await waitDone(page);
    assert.ok((await download(page, "download-jsonl")).bytes.equals(cliStdin(html)), "back to the document's text");
    await paste(page, "<p>A fragment is not a document.</p>\n");
    assert.equal(await page.textContent('[data-testid=language] option[value="html"]'), "HTML", "no document, no markup choice");
  });

  test("an opened .html file chunked as HTML markup gives the CLI's --language html bytes, and copies as it", async () => {
    await page.setInputFiles("[data-testid=file-input]", path.join(dir, "scope.html"));
    await waitDone(page);
    assert.match(await page.textContent("[data-testid=input-notice]"), /choose “HTML markup” as the language/);
    await page.selectOption("[data-testid=language]", "html");
    await waitDone(page);
    const want = cli(["scope.html"], ["--language", "html"]);
    assert.ok((await download(page, "download-jsonl")).bytes.equals(want), "the JSONL is python -m chunkwise scope.html --language html");
    assert.equal((await readDocumentView(page)).text, readFileSync(path.join(dir, "scope.html"), "utf8"), "the view shows the markup");
    await page.click("[data-testid=copy-cli]");
    const copied = await clipboard(page);
    assert.match(copied, /^python -m chunkwise scope\.html .*--language html /);
    assert.ok(runCommand(copied, dir).equals(want));
    await page.selectOption("[data-testid=language]", "auto");
    await waitDone(page);
    assert.ok((await download(page, "download-jsonl")).bytes.equals(cli(["scope.html"])), "Automatic: the extracted text again");
  });

  test("no errors in the console", () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
  });
});
