"""Documents through every door: the CLI (plain and corpus mode) and the page's Session read
HTML, PDF and DOCX with the same extraction (Ray's ChunkRows too: corpus_mode/test_ray.py), so their bytes agree;
a file that is neither text nor a document is refused by name, never chunked as U+FFFD."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

import chunkwise
from chunkwise.io import export
from chunkwise.bridge import Session
from documents_files import write_documents

ELF = shutil.which("ls")


def run(*args, stdin: bytes = b""):
    return subprocess.run([sys.executable, "-m", "chunkwise", *map(str, args)], input=stdin, capture_output=True)


def records(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.decode("utf-8").splitlines()]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = write_documents(tmp_path_factory.mktemp("docs"))
    (folder / "notes.txt").write_text("Plain notes.\n", encoding="utf-8")
    return folder


def test_cli_chunks_a_pdf_with_pages_and_extract_prints_the_text_they_index(files):
    out = run(files / "fhs.pdf", "--max-tokens", 256)
    assert out.returncode == 0, out.stderr
    assert "fhs.pdf: PDF: 50 pages" in out.stderr.decode()
    got = records(out.stdout)
    extracted = run(files / "fhs.pdf", "--extract")
    assert extracted.returncode == 0
    text = extracted.stdout.decode("utf-8")
    assert text == chunkwise.read_document(files / "fhs.pdf").text
    for r in got:
        assert text[r["start"] : r["end"]] == r["text"]
        assert list(r) == ["index", "text", "start", "end", "token_count", "overlap_tokens", "boundary", "headings", "pages"]
        assert 1 <= r["pages"][0] <= r["pages"][1] <= 50
    assert got[-1]["pages"][1] == 50
    # the bytes the library renders for the same document
    doc = chunkwise.read_document(files / "fhs.pdf")
    assert out.stdout == export.to_jsonl(doc.chunk(max_tokens=256).chunks).encode("utf-8")


def test_cli_html_and_docx_and_language_html(files):
    html = records(run(files / "scope.html", "--max-tokens", 200).stdout)
    assert html[0]["text"].startswith("# 1. About this manual") and html[0]["headings"] == ["1. About this manual"]
    assert html[1]["headings"] == ["1. About this manual", "1.1. Scope"]
    assert all("pages" not in r for r in html)
    markup = records(run(files / "scope.html", "--max-tokens", 200, "--language", "html").stdout)
    assert markup[0]["text"].startswith("<!DOCTYPE html>")  # today's chunking of the markup, as code
    docx = records(run(files / "report.docx").stdout)
    assert [(r["text"], r["headings"]) for r in docx] == [("# Report\n\nBody text.", ["Report"])]
    # a PDF on standard input is found by its first bytes
    piped = run("--extract", stdin=(files / "fhs.pdf").read_bytes())
    assert piped.stdout == run(files / "fhs.pdf", "--extract").stdout


def test_cli_refuses_a_binary_file_by_name_and_chunks_the_rest(files, tmp_path):
    png = tmp_path / "pixel.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200))
    out = run(ELF, files / "notes.txt", png)
    assert out.returncode == 2
    err = out.stderr.decode()
    assert f"cannot read '{ELF}': an ELF executable, not text nor a document chunkwise reads (HTML, PDF, DOCX); it is left out" in err
    assert "cannot read" in err and "a PNG image" in err
    got = records(out.stdout)
    assert [(r["text"], r["source"]) for r in got] == [("Plain notes.", "notes.txt")]
    alone = run(png)
    assert alone.returncode == 2 and alone.stdout == b"" and alone.stderr.count(b"\n") == 1
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 8)
    out = run(broken)
    assert out.returncode == 2 and out.stderr.count(b"\n") == 1 and b"Traceback" not in out.stderr
    assert b"not a readable PDF" in out.stderr or b"no text layer" in out.stderr


def test_corpus_mode_reads_documents_and_a_failing_file_is_an_error_row(files, tmp_path):
    folder = tmp_path / "corpus"
    shutil.copytree(files, folder)
    (folder / "locked.pdf").write_bytes(b"%PDF-1.7 truncated")
    shutil.copy(ELF, folder / "tool")
    out = run(folder, "--max-tokens", 256, "--jobs", 1)
    assert out.returncode == 1, out.stderr
    rows = records(out.stdout)
    errors = {r["doc_id"].rsplit("/", 1)[1]: r["error"] for r in rows if "error" in r}
    assert errors.keys() == {"locked.pdf", "tool"}
    assert errors["tool"].startswith("an ELF executable") and errors["locked.pdf"].startswith("not a readable PDF")
    pdf = [r for r in rows if r["doc_id"].endswith("fhs.pdf")]
    plain = records(run(files / "fhs.pdf", "--max-tokens", 256).stdout)
    assert [{k: r[k] for k in plain[0]} for r in pdf] == plain  # the same chunks, pages too
    assert all("pages" not in r for r in rows if r["doc_id"].endswith(("scope.html", "notes.txt")) and "error" not in r)
    assert out.stderr.decode().endswith("chunkwise: 6 documents, %d chunks, 2 failed\n" % (len(rows) - 2))
    # Parquet: a pages column, null for documents without pages
    parquet = run(folder, "--max-tokens", 256, "-o", tmp_path / "out.parquet")
    assert parquet.returncode == 1
    table = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert [r["pages"] for r in table if r["doc_id"].endswith("fhs.pdf")] == [r["pages"] for r in pdf]
    assert {r["pages"] is None for r in table if r["doc_id"].endswith("notes.txt")} == {True}


def test_the_pages_session_downloads_the_clis_bytes(files):
    session = Session()
    for name in ("fhs.pdf", "scope.html", "report.docx"):
        opened = json.loads(session.open_file((files / name).read_bytes(), None, name))
        assert opened["document"]["format"] == name.rsplit(".", 1)[1]
        assert opened["info"]["message"] == opened["document"]["notice"]
        session.start(json.dumps({"max_tokens": 256, "filename": name}))
        while not json.loads(session.step(5.0))["done"]:
            pass
        assert session.export("jsonl", False) == run(files / name, "--max-tokens", 256).stdout, name
    # several files at once, a binary one among them: listed as left out, the rest as the CLI writes them
    names = ["fhs.pdf", "ls", "notes.txt"]
    contents = [(files / "fhs.pdf").read_bytes(), open(ELF, "rb").read(), (files / "notes.txt").read_bytes()]
    listed = json.loads(session.set_files(json.dumps(names), contents))
    assert listed[1]["info"]["refused"].startswith("an ELF executable") and listed[1]["chars"] == 0
    session.run_files(json.dumps({"max_tokens": 256}))
    cli = run(files / "fhs.pdf", ELF, files / "notes.txt", "--max-tokens", 256)
    assert cli.returncode == 2
    assert session.export_files("jsonl", False) == cli.stdout.replace(ELF.encode(), b"ls")
    with pytest.raises(ValueError, match="an ELF executable"):
        session.open_file(open(ELF, "rb").read(), None, "ls")


def test_the_session_reports_a_pdfs_pages_as_they_are_read(files):
    seen = []
    opened = json.loads(Session().open_file((files / "fhs.pdf").read_bytes(), None, "fhs.pdf", lambda done, total: seen.append((done, total))))
    assert seen == [(page, 50) for page in range(1, 51)] and opened["document"]["pages"] == 50
    # page starts in UTF-16 units, as the page indexes its text
    text = opened["text"]
    starts = opened["document"]["page_starts"]
    assert starts[0] == 0 and starts == sorted(starts) and starts[-1] < len(text.encode("utf-16-le")) // 2


def _run_session(session, **settings) -> dict:
    started = json.loads(session.start(json.dumps({"max_tokens": 200, **settings})))
    while not json.loads(session.step(5.0))["done"]:
        pass
    return started["reading"]


def test_standard_input_and_pasted_text_read_an_html_document_as_the_file_is_read(files):
    """An HTML document on standard input (it has no name) is extracted as the .html file is;
    --language html keeps its markup. The page's pasted text is read by the same rule, and
    chunked as both readings into the CLI's bytes."""
    page = (files / "scope.html").read_bytes()
    piped, named = run("-", "--max-tokens", 200, stdin=page), run(files / "scope.html", "--max-tokens", 200)
    assert piped.stdout == named.stdout and piped.returncode == 0
    assert piped.stderr.decode().startswith("chunkwise: <stdin>: HTML: ")  # the notice
    markup = run("-", "--max-tokens", 200, "--language", "html", stdin=page)
    assert markup.stdout == run(files / "scope.html", "--max-tokens", 200, "--language", "html").stdout
    assert records(markup.stdout)[0]["text"].startswith("<!DOCTYPE html>")

    session = Session()
    pasted = page.decode("utf-8")
    session.set_text(pasted)
    reading = _run_session(session)
    assert reading["text"] == run("-", "--extract", stdin=page).stdout.decode("utf-8")  # the page shows this text
    assert reading["document"]["format"] == "html" and reading["html"] is True
    assert session.export("jsonl", False) == piped.stdout
    reading = _run_session(session, language="html")
    assert reading == {"text": None, "document": None, "html": True}  # the page's own text, the markup
    assert session.export("jsonl", False) == markup.stdout
    assert _run_session(session, language="text")["text"] == reading_text(page)  # extracted again
    assert session.export("jsonl", False) == piped.stdout
    # text that is not an HTML document stays as it is
    session.set_text("<p>a fragment of markup</p>\n")
    assert _run_session(session) == {"text": None, "document": None, "html": False}


def reading_text(page: bytes) -> str:
    return chunkwise.read_document(page).text


def test_an_opened_html_file_is_chunked_as_markup_when_the_language_is_html(files):
    session = Session()
    opened = json.loads(session.open_file((files / "scope.html").read_bytes(), None, "scope.html"))
    assert _run_session(session, filename="scope.html")["text"] is None  # the text open_file gave
    markup = _run_session(session, filename="scope.html", language="html")
    assert markup["text"] == (files / "scope.html").read_text(encoding="utf-8") and markup["document"] is None
    assert markup["html"] is True
    assert session.export("jsonl", False) == run(files / "scope.html", "--max-tokens", 200, "--language", "html").stdout
    back = _run_session(session, filename="scope.html", language="auto")
    assert back["text"] is None and back["document"] == opened["document"]
    assert session.export("jsonl", False) == run(files / "scope.html", "--max-tokens", 200).stdout
