"""Document extraction speed (./dev bench documents): per MB and per page, CPython beside
poppler's pdftotext on the same PDFs (Debian's developers-reference, FHS and policy manuals),
the word ratio against pdftotext, peak memory of the largest, HTML and DOCX per MB, and the
same files in Pyodide (bench/documents_pyodide.mjs) with whether its JSONL equals the CLI's."""
from __future__ import annotations

import gzip
import hashlib
import json
import pathlib
import subprocess
import sys
import tempfile

from timing import best_of

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

PDFS = {
    "developers-reference.pdf": pathlib.Path("/usr/share/developers-reference/developers-reference.pdf"),
    "fhs-3.0.pdf": pathlib.Path("/usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz"),
    "policy.pdf": pathlib.Path("/usr/share/doc/debian-policy/policy.pdf.gz"),
}
HTML_DIR = pathlib.Path("/usr/share/doc/debian-policy/policy.html")


def _bytes(path: pathlib.Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def _peak_mb(data: bytes, name: str) -> float:
    """Peak Python memory (tracemalloc) while extracting the file, in MB."""
    import tracemalloc

    import chunkwise

    tracemalloc.start()
    try:
        chunkwise.read_document(data, name)
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def section(quick: bool, table) -> tuple[str, dict]:
    from documents_files import make_docx, pdftotext_pages, word_ratio

    import chunkwise

    runs = 1 if quick else 2
    rows = [["file", "pages", "MB", "chunkwise s", "ms/page", "MB/s", "pdftotext s", "× pdftotext", "word ratio"]]
    data = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for name, path in PDFS.items():
            raw = _bytes(path)
            (tmp / name).write_bytes(raw)
            doc = chunkwise.read_document(raw, name)
            ours = best_of(lambda: chunkwise.read_document(raw, name), runs)
            theirs = best_of(lambda: subprocess.run(["pdftotext", "-q", str(tmp / name), "-"], capture_output=True, check=True), runs)
            ends = [*doc.page_starts[1:], len(doc.text)]
            ratio = word_ratio([doc.text[a:b] for a, b in zip(doc.page_starts, ends)], pdftotext_pages(raw))
            mb = len(raw) / 1e6
            data[name] = {"pages": doc.pages, "MB": mb, "s": ours, "pdftotext_s": theirs, "word_ratio": ratio}
            rows.append([name, str(doc.pages), f"{mb:.2f}", f"{ours:.2f}", f"{1000 * ours / doc.pages:.1f}", f"{mb / ours:.2f}",
                         f"{theirs:.3f}", f"{ours / theirs:.0f}x", f"{ratio:.4f}"])
        largest = max(PDFS, key=lambda n: data[n]["MB"])
        data["peak_MB"] = _peak_mb((tmp / largest).read_bytes(), largest)
        html = b"".join(p.read_bytes() for p in sorted(HTML_DIR.glob("*.html")))
        html_s = best_of(lambda: [chunkwise.read_document(p) for p in sorted(HTML_DIR.glob("*.html"))], runs)
        docx = make_docx(lambda d: [(d.add_heading(f"Part {i}", 1), d.add_paragraph("A paragraph of a report. " * 30),
                                     d.add_table(rows=3, cols=3)) for i in range(400)])
        (tmp / "report.docx").write_bytes(docx)
        docx_s = best_of(lambda: chunkwise.read_document(docx, "report.docx"), runs)
        data["html"] = {"MB": len(html) / 1e6, "s": html_s}
        data["docx"] = {"MB": len(docx) / 1e6, "s": docx_s}
        rows.append(["policy.html/*.html", "", f"{len(html) / 1e6:.2f}", f"{html_s:.2f}", "", f"{len(html) / 1e6 / html_s:.2f}", "", "", ""])
        rows.append(["report.docx (python-docx)", "", f"{len(docx) / 1e6:.2f}", f"{docx_s:.2f}", "", f"{len(docx) / 1e6 / docx_s:.2f}", "", "", ""])
        text = ("### Documents: extraction on CPython beside pdftotext\n\n" + table(rows)
                + f"\n\nPeak Python memory extracting {largest} (tracemalloc): {data['peak_MB']:.0f} MB.")
        # the page's worker: Pyodide in Node, the same Session; its JSONL against the CLI's
        files = [tmp / "fhs-3.0.pdf", HTML_DIR / "ch-controlfields.html", tmp / "report.docx"]
        proc = subprocess.run(["node", str(ROOT / "bench" / "documents_pyodide.mjs"), *map(str, files)],
                              capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            return text + f"\n\nPyodide: failed:\n{proc.stderr[-2000:]}", data
        rows = [["file", "MB", "Pyodide extract s", "MB/s", "ms/page", "JSONL equals the CLI's"]]
        for line, path in zip(proc.stdout.strip().splitlines(), files):
            got = json.loads(line)
            cli = subprocess.run([sys.executable, "-m", "chunkwise", str(path), "--max-tokens", "512"], capture_output=True)
            same = hashlib.sha256(cli.stdout).hexdigest() == got["sha256"]
            mb = path.stat().st_size / 1e6
            data["pyodide_" + got["name"]] = got | {"same_as_cli": same}
            rows.append([got["name"], f"{mb:.2f}", f"{got['extract_s']:.2f}", f"{mb / got['extract_s']:.2f}",
                         f"{1000 * got['extract_s'] / got['pages']:.0f}" if got["pages"] else "", "yes" if same else "NO"])
    return text + "\n\n### Documents in Pyodide (Node: the page's worker Session)\n\n" + table(rows), data
