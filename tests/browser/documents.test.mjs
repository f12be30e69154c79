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
import { PYTHON, ROOT, download, readDocumentView, useApp, waitDone } from "./helpers.mjs";

const dir = mkdtempSync(path.join(tmpdir(), "chunkwise-documents-"));
// A PDF of three pages and a DOCX with headings, made by the tests' own makers
// (fpdf2 and python-docx), and an HTML page with furniture around its <main>.
execFileSync(PYTHON, ["-c", `
import sys; sys.path.insert(0, "tests")
from documents_files import make_docx, make_pdf
open(sys.argv[1] + "/report.pdf", "wb").write(make_pdf(3))
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
    assert.ok(!got.bytes.toString("utf8").includes("\ufffd"));
  });

  test("no errors in the console", () => {
    assert.deepEqual(app.log.pageErrors, []);
    assert.deepEqual(app.log.consoleErrors, []);
  });
});
