"""The page's engine reads documents as the CLI does: the worker's Session in Pyodide (Node,
the vendored wheels that build.py made: pypdf among them) gives the JSONL bytes the CLI
writes for a PDF, an HTML page and a DOCX. Needs `python build.py` first (./dev test runs it)."""
from __future__ import annotations

import hashlib
import json
import pathlib
import shutil
import subprocess
import sys

from documents_files import FHS_PDF_GZ, POLICY_HTML, make_docx, real_file

from conftest import ROOT


def test_pyodide_session_downloads_equal_the_clis_bytes(tmp_path):
    manifest = ROOT / "static" / "vendor" / "manifest.json"
    assert manifest.exists(), "run `python build.py` first (./dev test does)"
    assert any("/pypdf-" in w for w in json.loads(manifest.read_text())["install"]), "build.py vendors pypdf"
    assert shutil.which("node"), "node is needed (Node 20)"
    files = [tmp_path / "fhs.pdf", tmp_path / "scope.html", tmp_path / "report.docx", tmp_path / "unclosed.html"]
    files[0].write_bytes(real_file(FHS_PDF_GZ))
    files[1].write_bytes(real_file(POLICY_HTML / "ch-scope.html"))
    files[2].write_bytes(make_docx(lambda d: (d.add_heading("Report", 1), d.add_paragraph("Body text. " * 300))))
    # (what CPython 3.11.7's own html.parser kept as text, and Pyodide's 3.14 drops)
    files[3].write_bytes(b"<html><body><h1>Notes</h1><p>one</p><!--a--!><p>two " * 40 + b"<p>end<a href='x")
    out = subprocess.run(["node", str(ROOT / "bench" / "documents_pyodide.mjs"), "--max-tokens", "200", *map(str, files)],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert [g["name"] for g in got] == ["fhs.pdf", "scope.html", "report.docx", "unclosed.html"] and got[0]["pages"] == 50
    for path, page in zip(files, got):
        cli = subprocess.run([sys.executable, "-m", "chunkwise", str(path), "--max-tokens", "200"], capture_output=True)
        assert cli.returncode == 0 and cli.stdout
        assert hashlib.sha256(cli.stdout).hexdigest() == page["sha256"], path.name
