"""Documents for the document tests: real ones from Debian packages (installed by ./dev's
setup: debian-policy, GPL-2+; developers-reference, GPL-2; poppler-utils for pdftotext),
and ones made here with fpdf2 (LGPL-3.0) and python-docx (MIT), whose text is known."""
from __future__ import annotations

import difflib
import gzip
import io
import pathlib
import shutil
import subprocess

DEV_REF_PDF = pathlib.Path("/usr/share/developers-reference/developers-reference.pdf")
FHS_PDF_GZ = pathlib.Path("/usr/share/doc/debian-policy/fhs/fhs-3.0.pdf.gz")
POLICY_HTML = pathlib.Path("/usr/share/doc/debian-policy/policy.html")
MISSING = "installed by ./dev test's setup (apt-get install debian-policy developers-reference poppler-utils)"


def real_file(path: pathlib.Path) -> bytes:
    assert path.exists(), f"{path} is missing: {MISSING}"
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def write_documents(folder: pathlib.Path) -> pathlib.Path:
    """One document of each kind in folder: fhs.pdf (Debian's FHS, 50 pages), scope.html
    (the policy manual's first chapter) and report.docx (a heading and a paragraph)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fhs.pdf").write_bytes(real_file(FHS_PDF_GZ))
    (folder / "scope.html").write_bytes(real_file(POLICY_HTML / "ch-scope.html"))
    (folder / "report.docx").write_bytes(make_docx(lambda d: (d.add_heading("Report", 1), d.add_paragraph("Body text."))))
    return folder


def pdftotext_pages(data: bytes) -> list[str]:
    """poppler's text of each page (it ends each one with a form feed)."""
    assert shutil.which("pdftotext"), f"pdftotext is missing: {MISSING}"
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=data, capture_output=True, check=True)
    return out.stdout.decode("utf-8").split("\f")


def word_ratio(pages_a: list[str], pages_b: list[str]) -> float:
    """difflib's ratio on the word sequences, page by page and summed (the same as one
    ratio over the whole where pages align, and linear in the pages)."""
    matched = total = 0
    for a, b in zip(pages_a, pages_b):
        a, b = a.split(), b.split()
        matched += sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
        total += len(a) + len(b)
    return 2 * matched / total


PARAGRAPHS = [
    "Chunkwise reads the text layer of a PDF page by page. " * 6,
    "A second paragraph follows the first one, long enough to wrap over several lines of the page. " * 4,
    "Short closing paragraph.",
]


def make_pdf(pages: int = 3, paragraphs=PARAGRAPHS, header: str | None = "Running header of the report",
             encryption=None, user_password: str = "", text: bool = True) -> bytes:
    """A PDF of `pages` pages, each with the paragraphs (wrapped by fpdf2: soft wraps), a running
    header and a footer with the page number."""
    from fpdf import FPDF

    class Report(FPDF):
        def header(self):
            if header:
                self.set_font("Helvetica", size=9)
                self.cell(0, 8, header)
                self.ln(12)

        def footer(self):
            if header:
                self.set_y(-15)
                self.set_font("Helvetica", size=9)
                self.cell(0, 8, f"Page {self.page_no()}")

    pdf = Report()
    if encryption is not None:
        pdf.set_encryption(owner_password="owner", user_password=user_password, encryption_method=encryption)
    for number in range(1, pages + 1):
        pdf.add_page()
        if not text:
            pdf.rect(20, 20, 100, 100)
            continue
        pdf.set_font("Helvetica", size=11)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 6, paragraph.strip().replace("#", str(number)))
            pdf.ln(4)
    return bytes(pdf.output())


def make_docx(build) -> bytes:
    import docx

    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
