"""HTML, PDF and DOCX read as documents (chunkwise.documents): structure kept, pages
known, text faithful to pdftotext's, and bad input a one-line DocumentError."""
from __future__ import annotations

import io
import pathlib
import time
import zipfile

import pytest

import chunkwise
from chunkwise.documents import DocumentError, binary_kind, extract, is_html_document, kind, read_text
from conftest import ROOT, assert_ends_in_a_child, assert_invariants, python_lines
from documents_files import (
    DEV_REF_PDF, FHS_PDF_GZ, PARAGRAPHS, POLICY_HTML, make_docx, make_pdf, pdftotext_pages, real_file, word_ratio,
)


def pages_of(doc) -> list[str]:
    ends = [*doc.page_starts[1:], len(doc.text)]
    return [doc.text[a:b] for a, b in zip(doc.page_starts, ends)]


# -- PDF -------------------------------------------------------------------------------
@pytest.mark.parametrize("path", [DEV_REF_PDF, FHS_PDF_GZ], ids=["developers-reference", "fhs-3.0"])
def test_pdf_words_match_pdftotext(path):
    data = real_file(path)
    doc = extract(data, "x.pdf")
    reference = pdftotext_pages(data)
    assert doc.pages == len([p for p in reference if p.strip()]) or doc.pages == len(reference) - 1
    ratio = word_ratio(pages_of(doc), reference)
    print(f"{path.name}: {doc.pages} pages, word ratio {ratio:.4f}")
    assert ratio >= 0.95
    # justified lines keep their word gaps (pypdf alone read 'Afteraperiodofdevelopment')
    if path == DEV_REF_PDF:
        assert "After a period of development, once the release manager deems fit" in doc.text


def test_pdf_pages_soft_wraps_and_running_lines():
    data = make_pdf(pages=3)
    doc = chunkwise.read_document(data, "report.pdf")
    assert doc.format == "pdf" and doc.pages == 3
    # every page holds the paragraphs whole: the soft wraps fpdf2 made are joined, the
    # header and the page number are dropped on every page
    expected = "\n\n".join(p.strip() for p in PARAGRAPHS)
    assert pages_of(doc) == [expected + "\n\n", expected + "\n\n", expected]
    assert "Running header" not in doc.text and "Page 2" not in doc.text
    assert "3 pages" in doc.notice and "dropped 6 running header and footer lines" in doc.notice
    result = doc.chunk(max_tokens=40, overlap=0)
    assert_invariants(doc.text, result.chunks, 40, "cl100k_base")
    assert [c.pages for c in result.chunks][0] == (1, 1) and result.chunks[-1].pages == (3, 3)
    for c in result.chunks:
        first, last = c.pages
        assert doc.page_starts[first - 1] <= c.start and (last == 3 or c.end <= doc.page_starts[last])
        assert c.to_dict()["pages"] == [first, last]
    # a page break is a paragraph boundary: no chunk crosses one when a paragraph fits
    assert all(c.pages[0] == c.pages[1] for c in doc.chunk(max_tokens=300, overlap=0).chunks)


def test_pdf_without_text_layer_and_encryption():
    from fpdf.enums import EncryptionMethod

    with pytest.raises(DocumentError, match=r"^no text layer on any of its 2 pages \(OCR is not part of chunkwise\)$"):
        extract(make_pdf(pages=2, text=False, header=None), "scan.pdf")
    # RC4 with an empty user password: pure Python decrypts it
    doc = extract(make_pdf(pages=1, encryption=EncryptionMethod.RC4), "open.pdf")
    assert PARAGRAPHS[2].strip() in doc.text
    with pytest.raises(DocumentError, match=r"^encrypted: needs a password$"):
        extract(make_pdf(pages=1, encryption=EncryptionMethod.RC4, user_password="secret"), "locked.pdf")
    # AES (AESV2 and AESV3 crypt filters) needs a compiled library in pypdf: refused alike in the CLI
    # and the page. (fpdf2 writes AES only with `cryptography`: the RC4 file's dictionary is relabelled.)
    rc4 = make_pdf(pages=1, encryption=EncryptionMethod.RC4)
    for version, method in ((4, b"AESV2"), (5, b"AESV3")):
        aes = rc4.replace(b"/V 2\n>>", b"/V %d\n/CF << /StdCF << /CFM /%s >> >>\n>>" % (version, method))
        with pytest.raises(DocumentError, match=r"^encrypted with AES: chunkwise reads only PDFs encrypted with RC4"):
            extract(aes, "aes.pdf")


@pytest.mark.parametrize("cut", [0.5, 0.9, 0.1])
def test_truncated_and_corrupt_pdf_give_one_line_or_a_result(cut):
    data = make_pdf(pages=4)
    try:
        doc = extract(data[: int(len(data) * cut)], "cut.pdf")
    except DocumentError as error:
        assert "\n" not in str(error) and str(error)
    else:
        assert isinstance(doc.text, str)
    with pytest.raises(DocumentError, match="^not a readable PDF|^no text layer"):
        extract(b"%PDF-1.7\n" + bytes(range(256)) * 40, "noise.pdf")
    with pytest.raises(DocumentError, match="^not a PDF"):
        extract(b"just text", "fake.pdf")


def test_pdf_time_is_linear_in_pages():
    short = [PARAGRAPHS[2]]
    small, large = make_pdf(pages=50, paragraphs=short), make_pdf(pages=1000, paragraphs=short)
    started = time.perf_counter()
    assert extract(small, "a.pdf").pages == 50
    t_small = time.perf_counter() - started
    started = time.perf_counter()
    doc = extract(large, "b.pdf")
    t_large = time.perf_counter() - started
    assert doc.pages == 1000 and doc.page_of(len(doc.text) - 1) == 1000
    assert t_large < 20 * 3 * t_small + 1, (t_small, t_large)  # 20x the pages: about 20x the time


# -- HTML ------------------------------------------------------------------------------
def test_html_structure():
    html = b"""<!doctype html><html><head><title>T</title><style>p{color:red}</style></head><body>
    <nav><a href=x>Home</a></nav><header>Site header</header>
    <main><article><header><h1>The &amp; title</h1></header>
    <p>First   para<br>second line &eacute;.
    <p>Second para.</p>
    <ul><li>one<li>two<ul><li>nested</li></ul></li></ul>
    <ol start=3><li>c</li><li>d</li></ol>
    <blockquote><p>Quoted</p></blockquote>
    <pre><code class="language-python">def f():
        return 1 &lt; 2
    </code></pre>
    <h2>Table</h2>
    <table><tr><th>A</th><th>B|x</th></tr><tr><td>1</td><td>2<br>3</td></tr></table>
    <h3>Deeper</h3><p>Last.</p>
    <script>alert(1)</script><!-- a comment --><template><p>hidden</p></template><noscript>ns</noscript>
    </article></main><footer>Foot</footer><aside>side</aside></body></html>"""
    doc = extract(html, "page.html")
    assert doc.text == (
        "# The & title\n\nFirst para\nsecond line é.\n\nSecond para.\n\n- one\n- two\n  - nested\n\n3. c\n4. d\n\n"
        "> Quoted\n\n```python\ndef f():\n        return 1 < 2\n```\n\n## Table\n\n| A | B\\|x |\n|---|---|\n| 1 | 2 3 |\n\n"
        "### Deeper\n\nLast."
    )
    for dropped in ("Home", "Site header", "Foot", "side", "alert", "comment", "hidden", "ns", "color"):
        assert dropped not in doc.text
    assert "dropped" in doc.notice and "nav ×1" in doc.notice and "script ×1" in doc.notice
    chunks = doc.chunk(max_tokens=12, overlap=0).chunks
    assert ("The & title", "Table", "Deeper") in [c.headings for c in chunks]
    assert all(c.pages is None and "pages" not in c.to_dict() for c in chunks)
    code = [c for c in chunks if "def f" in c.text]
    assert code and code[0].text.startswith("```python")


def test_html_without_main_keeps_page_furniture_and_deep_nesting_is_fine():
    assert extract(b"<html><nav>Menu</nav><p>Body</p></html>", "a.html").text == "Menu\n\nBody"
    deep = b"<div>" * 100_000 + b"deep text" + b"</div>" * 100_000
    assert extract(deep, "deep.html").text == "deep text"
    unclosed = b"<b><i><span>" * 100_000 + b"end"
    assert extract(unclosed, "unclosed.html").text == "end"


def test_html_from_debian_policy_has_its_heading_path():
    doc = extract(real_file(POLICY_HTML / "ch-scope.html"), "ch-scope.html")
    assert doc.text.startswith("# 1. About this manual\n\n## 1.1. Scope\n\nThis manual describes the policy requirements")
    assert "¶" not in doc.text and "<" not in doc.text.split("\n")[0]
    assert "Navigation" not in doc.text  # Sphinx's role="navigation" sidebar, with role="main" content
    chunks = doc.chunk(max_tokens=200).chunks
    assert_invariants(doc.text, chunks, 200, "cl100k_base", overlap=25)
    assert ["1. About this manual", "1.1. Scope"] in [list(c.headings) for c in chunks]
    assert any(h[-1].startswith("1.2") for h in (c.headings for c in chunks) if h)


def test_html_charset_is_read_from_meta():
    data = '<html><head><meta charset="iso-8859-1"></head><body><p>Café</p></body></html>'.encode("latin-1")
    assert extract(data, "x.html").text == "Café"


# -- DOCX ------------------------------------------------------------------------------
def test_docx_headings_lists_tables():
    def build(d):
        d.add_heading("Report title", 0)
        d.add_heading("Chapter one", 1)
        d.add_paragraph("First paragraph.")
        d.add_paragraph("Bullet a", style="List Bullet")
        d.add_paragraph("Bullet b", style="List Bullet")
        d.add_heading("Section 1.1", 2)
        d.add_paragraph("Step one", style="List Number")
        d.add_paragraph("Step two", style="List Number")
        table = d.add_table(rows=2, cols=2)
        for (r, c), value in {(0, 0): "Name", (0, 1): "Value | pipe", (1, 0): "a", (1, 1): "1"}.items():
            table.cell(r, c).text = value
        d.add_paragraph("After the table.")

    doc = chunkwise.read_document(make_docx(build), "r.docx")
    assert doc.format == "docx"
    assert doc.text == (
        "# Report title\n\n# Chapter one\n\nFirst paragraph.\n\n- Bullet a\n- Bullet b\n\n## Section 1.1\n\n"
        "1. Step one\n2. Step two\n\n| Name | Value \\| pipe |\n|---|---|\n| a | 1 |\n\nAfter the table."
    )
    chunks = doc.chunk(max_tokens=8, overlap=0).chunks
    assert ("Chapter one", "Section 1.1") in [c.headings for c in chunks]
    assert "3 headings, 1 table" in doc.notice


def test_docx_list_levels_past_ooxmls_eight_indent_as_the_eighth():
    """ilvl is 0-8 in OOXML; a file claiming 50,000,000 indented each line by it (359
    bytes became 100 MB)."""
    def build(d):
        d.add_paragraph("Step one", style="List Number")
        deep = d.add_paragraph("Deep step", style="List Number")
        deep._p.get_or_add_pPr().get_or_add_numPr().get_or_add_ilvl().val = 50_000_000

    text = chunkwise.read_document(make_docx(build), "r.docx").text
    first, deep = text.splitlines()
    assert first == "1. Step one" and deep.endswith(" Deep step") and len(deep) - len(deep.lstrip()) == 2 * 8, text[:200]
    assert len(text) < 100


def _separate_lists_docx(n: int) -> bytes:
    """n numbered lists of one item each, every list its own numbering instance and abstract."""
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    items = "".join(
        f'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{i}"/></w:numPr></w:pPr>'
        f"<w:r><w:t>Item of list {i}</w:t></w:r></w:p>" for i in range(1, n + 1))
    abstracts = "".join(
        f'<w:abstractNum w:abstractNumId="{i}"><w:lvl w:ilvl="0"><w:start w:val="{i}"/><w:numFmt w:val="decimal"/></w:lvl>'
        f'<w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>' for i in range(1, n + 1))
    nums = "".join(f'<w:num w:numId="{i}"><w:abstractNumId w:val="{i}"/></w:num>' for i in range(1, n + 1))
    return _zip({"word/document.xml": f"<w:document {ns}><w:body>{items}</w:body></w:document>",
                 "word/numbering.xml": f"<w:numbering {ns}>{abstracts}{nums}</w:numbering>"})


def test_many_docx_lists_are_read_in_linear_time():
    """Each item cleared the deeper counters of every list, and each numbering instance
    read every abstract's levels to find its own (quadratic: 32,000 lists took 22.8 s,
    8,000 instances 2.8 s). Measured in lines of Python run, which a 4x larger file
    should make about 4x more."""
    small, large = _separate_lists_docx(300), _separate_lists_docx(1200)
    text = chunkwise.read_document(large, "lists.docx").text
    # each list is numbered from its own start (list i starts at i), not on from the list before
    assert text.splitlines() == [f"{i}. Item of list {i}" for i in range(1, 1201)]
    extract(small, "lists.docx")  # (warm)
    growth = python_lines(lambda: extract(large, "lists.docx")) / python_lines(lambda: extract(small, "lists.docx"))
    assert growth < 5, growth


def _zip(parts: dict) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return out.getvalue()


def test_bad_docx_are_one_line_errors():
    bomb = _zip({"word/document.xml": b" " * (80 << 20)})  # 80 MB of spaces in about 80 KB
    assert len(bomb) < 1 << 20
    with pytest.raises(DocumentError, match="inflates to 83,886,080 bytes, over the limit"):
        extract(bomb, "bomb.docx")
    with pytest.raises(DocumentError, match="without word/document.xml"):
        extract(_zip({"a.txt": b"x"}), "other.docx")
    good = make_docx(lambda d: d.add_paragraph("Hello"))
    with pytest.raises(DocumentError, match="^not a readable DOCX"):
        extract(good[: len(good) // 2], "cut.docx")
    laughs = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'
    with pytest.raises(DocumentError, match="has a DTD"):
        extract(_zip({"word/document.xml": laughs}), "dtd.docx")
    deep = b"<w:document xmlns:w='http://schemas.openxmlformats.org/wordprocessingml/2006/main'>" + b"<w:sdt>" * 5000
    with pytest.raises(DocumentError, match="nested more than"):
        extract(_zip({"word/document.xml": deep}), "deep.docx")


# -- which reader -----------------------------------------------------------------------
def test_kind_and_binary_kind():
    pdf = make_pdf(pages=1)
    docx_bytes = make_docx(lambda d: d.add_paragraph("x"))
    assert kind(pdf, None) == "pdf" and kind(pdf, "noext") == "pdf"
    assert kind(docx_bytes, None) == "docx" and kind(b"<!DOCTYPE html><p>x", None) == "html"
    assert kind(b"<!DOCTYPE html><p>x", "page.php") is None  # a named file's extension decides
    assert kind(b"plain text", "notes.txt") is None
    assert binary_kind(b"\x7fELF\x02\x01\x01" + b"\x00" * 50) == "an ELF executable"
    assert binary_kind(b"\x89PNG\r\n\x1a\n") == "a PNG image"
    assert binary_kind(_zip({"a.txt": b"x"})) == "a zip archive"
    assert binary_kind(b"nul\x00 inside text") is None  # a NUL alone does not make binary
    assert binary_kind("UTF-16 text".encode("utf-16")) is None
    assert binary_kind(b"\x00\xff\xfe\x00" * 100 + b"\x80\x81") is not None
    with pytest.raises(DocumentError, match="^not a document chunkwise reads: a PNG image$"):
        extract(b"\x89PNG\r\n\x1a\n....", "x.png")


def test_one_rule_says_when_text_is_an_html_document():
    """Standard input and pasted text, which have no name: <!doctype html> or <html> first,
    after a BOM, whitespace or comments, in any case; the same rule on bytes and on text."""
    yes = ["<!DOCTYPE html><p>x", "<!doctype HTML>", "\ufeff  \n<html lang=en>", "<HTML>", "<!-- saved -->\n<html>",
           "\t<!DocType html PUBLIC '-//W3C//DTD XHTML 1.0//EN'>"]
    no = ["<htmlx>", "text <html>", "<?php echo 1; ?><html>", "<div>not a document</div>", "# <html>", "<!doctype svg>", ""]
    for text in yes + no:
        assert is_html_document(text) == is_html_document(text.encode("utf-8")) == (text in yes), text
        assert (kind(text.encode("utf-8"), None) == "html") == (text in yes)
    page = "\ufeff<!DOCTYPE html><head><title>T</title></head><h1>Café</h1><p>One &amp; two.</p><script>x()</script>"
    text, document = read_text(page)
    assert (text, document) == (extract(page.encode("utf-8")).text, extract(page.encode("utf-8")))
    assert text == "# Café\n\nOne & two." and document.notice == "HTML: 5 words; dropped head ×1, script ×1"
    assert read_text(page, "html") == (page, None)  # --language html: the markup as it is
    assert read_text("<p>a fragment</p>") == ("<p>a fragment</p>", None)


def test_html_tag_soup_never_fails():
    """Unbalanced, misnested, stray end tags (a </ul> with no list open popped an empty list)."""
    import random

    tags = ["p", "div", "li", "ul", "ol", "table", "tr", "td", "th", "pre", "code", "h1", "h3", "blockquote", "br",
            "b", "script", "nav", "main", "span", "hr", "header", "dl", "dd", "dt", "select", "option", "template"]
    pieces = ["text", "a|b", "  x\n y", "&amp;", "```", "<!-- c -->", "é", "<", "&#0;"]
    rng = random.Random(7)
    for _ in range(2000):
        soup = "".join(
            f"<{rng.choice(tags)}>" if r < 0.4 else f"</{rng.choice(tags)}>" if r < 0.7 else rng.choice(pieces)
            for r in (rng.random() for _ in range(rng.randint(1, 60))))
        text = extract(soup.encode(), "soup.html").text
        assert "\n\n\n" not in text and text == text.rstrip(), soup
    assert extract(b"</ul></ol></li>text</table></td>", "x.html").text == "text"


@pytest.mark.parametrize("opener", ["<ul><li>a", "<ol><li>a", "<blockquote>a"])
def test_html_deep_lists_and_quotes_indent_as_sixteen_deep(opener):
    """Each line carried its whole depth of indentation or "> ": 4,000 nested lists made 16 MB
    of text from 36 kB (16,000: 256 MB); deeper than PREFIX_DEPTH indents as that deep."""
    from chunkwise.documents.html import PREFIX_DEPTH

    html = opener * 4000
    text = extract(html.encode(), "x.html").text
    assert len(text) < 30 * len(html), len(text)
    assert PREFIX_DEPTH == 16 and max(len(line) - len(line.lstrip(" >")) for line in text.splitlines()) <= 2 * 16 + 1


def test_a_ragged_table_keeps_each_rows_own_cells():
    """One wide row among many short ones: each short row was padded to the widest (4,000
    cells times 4,000 rows made 48 MB of text from 56 kB). Only the header is padded, as a
    pipe table needs; GFM reads a short row as filled with empty cells."""
    html = "<table><tr>" + "<td>w</td>" * 4000 + "</tr>" + "<tr><td>s</td></tr>" * 4000 + "</table>"
    text = extract(html.encode(), "x.html").text
    assert len(text) < 2 * len(html), len(text)
    lines = text.splitlines()
    assert lines[1] == "|" + "---|" * 4000 and lines[2:] == ["| s |"] * 4000
    short_first = extract(b"<table><tr><th>A</th></tr><tr><td>1</td><td>2</td></tr></table>", "x.html").text
    assert short_first == "| A |  |\n|---|---|\n| 1 | 2 |"


def test_html_unclosed_at_the_end_is_read_as_the_pages_python_reads_it():
    """The page's Pyodide (Python 3.14) drops an unclosed comment or tag at the end, and a
    comment closed by '--!>'; CPython 3.11.7's own html.parser kept them as text. Both
    now read HTML with the same parser (documents/html_parser.py)."""
    assert extract(b"<p>a<!-- unclosed comment", "x.html").text == "a"
    assert extract(b"<p>a</p><a href='x", "x.html").text == "a"
    assert extract(b"<p>x <b", "x.html").text == "x"
    assert extract(b"<p>x</p><!--a--!>b", "x.html").text == "x\n\nb"


def test_the_vendored_html_parser_is_the_pages_own_unchanged():
    """documents/html_parser.py is the page's Python's Lib/html/parser.py (from the vendored
    Pyodide's standard library) after a licence header: had either moved, page and CLI
    could read HTML apart again."""
    import chunkwise.documents.html_parser as vendored

    with zipfile.ZipFile(ROOT / "node_modules/pyodide/python_stdlib.zip") as stdlib:
        original = stdlib.read("html/parser.py").decode()
    text = pathlib.Path(vendored.__file__).read_text(encoding="utf-8")
    header = text[: len(text) - len(original)]
    assert text.endswith(original)
    assert all(line.startswith("#") or not line for line in header.splitlines()), header[-200:]


@pytest.mark.parametrize("unclosed", ["<a b='", "<a href=", "<!--", "</script", "<![CDATA["])
def test_html_with_many_unclosed_tags_ends_at_once(unclosed):
    """Each unclosed tag was read to the end of the text and then again from the next '<'
    (CPython gh-135462): 16,000 of them took 34 s. 1.2 MB ends in seconds (linear); the
    old parser took far longer than the child process's 120 s. Not a timing."""
    assert_ends_in_a_child("from chunkwise.documents import extract; "
                           f"extract(('<html><body>' + {unclosed!r} * 200_000).encode(), 'x.html')")
