"""DOCX -> text with the standard library: zipfile and xml.etree. Word's heading styles
(Heading 1-6, Title, or a style's outline level) become ATX headings, numbered and bulleted
paragraphs list items, tables pipe tables; the body only (not headers, footers, footnotes,
comments). One streaming pass (iterparse): no recursion, memory bounded by the part's size."""
from __future__ import annotations

import io
import re
import zipfile
import zlib
from xml.etree import ElementTree as ET

from .model import DocumentError, Extracted, pipe_table, words

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
MAX_PART = 64 << 20  # inflated bytes of one XML part: a zip bomb stops here
MAX_DEPTH = 1_000  # XML nesting; Word writes a few dozen levels
_HEADING = re.compile(r"heading\s*([1-9])$", re.I)


def _part(archive: zipfile.ZipFile, name: str) -> bytes | None:
    """A part's bytes, read no further than MAX_PART (a header may lie about the size)."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > MAX_PART:
        raise DocumentError(f"its {name} inflates to {info.file_size:,} bytes, over the limit of {MAX_PART:,}")
    with archive.open(info) as f:
        data = f.read(MAX_PART + 1)
    if len(data) > MAX_PART:
        raise DocumentError(f"its {name} inflates to more than {MAX_PART:,} bytes, over the limit")
    if b"<!DOCTYPE" in data:  # Word never writes one; entities (billion laughs) live there
        raise DocumentError(f"its {name} has a DTD, which Word documents do not")
    return data


def _val(element, path: str) -> str | None:
    found = element.find(path)
    return None if found is None else found.get(W + "val")


def _styles(data: bytes | None) -> dict:
    """styleId -> (heading level or 0, numId or None), basedOn chains followed."""
    if not data:
        return {}
    raw = {}
    for style in ET.fromstring(data).iter(W + "style"):
        name = _val(style, W + "name") or ""
        level = 1 if name.lower() == "title" else int(_HEADING.match(name).group(1)) if _HEADING.match(name) else 0
        outline = _val(style, f"{W}pPr/{W}outlineLvl")
        if not level and outline and outline.isdigit() and int(outline) < 9:
            level = int(outline) + 1
        raw[style.get(W + "styleId")] = (level, _val(style, f"{W}pPr/{W}numPr/{W}numId"), _val(style, W + "basedOn"))
    out = {}
    for sid in raw:
        level, num, base, seen = *raw[sid][:2], raw[sid][2], 0
        while base in raw and seen < 20 and not (level and num):
            level, num = level or raw[base][0], num or raw[base][1]
            base, seen = raw[base][2], seen + 1
        out[sid] = (min(level, 6), num)
    return out


def _numbering(data: bytes | None) -> dict:
    """(numId, ilvl) -> (ordered, start)."""
    if not data:
        return {}
    root = ET.fromstring(data)
    abstract: dict[str | None, dict] = {}  # abstractNumId -> {ilvl: (ordered, start)}
    for a in root.iter(W + "abstractNum"):
        levels = abstract.setdefault(a.get(W + "abstractNumId"), {})
        for lvl in a.iter(W + "lvl"):
            fmt = _val(lvl, W + "numFmt") or "decimal"
            start = _val(lvl, W + "start") or "1"
            levels[lvl.get(W + "ilvl")] = (fmt not in ("bullet", "none"), int(start) if start.isdigit() else 1)
    out = {}
    for num in root.iter(W + "num"):  # (each looks up its own abstract: every abstract for each num was quadratic)
        for ilvl, value in abstract.get(_val(num, W + "abstractNumId"), {}).items():
            out[(num.get(W + "numId"), ilvl)] = value
    return out


_DEEPEST_LEVEL = 8


class _Body:
    """The body's events in, blocks out."""

    def __init__(self, styles: dict, numbering: dict):
        self.styles, self.numbering = styles, numbering
        self.blocks: list[str] = []
        self.list_lines: list[str] = []  # the open list's items
        self.counters: dict[str, dict[int, int]] = {}  # numId -> depth -> the last number
        self.paragraphs: list[list[str]] = []  # open paragraphs (a text box's sit inside another)
        self.tables: list[list[list[str]]] = []  # open tables: rows of cells
        self.cell: list[str] | None = None
        self.headings = self.table_count = 0

    def end_list(self) -> None:
        if self.list_lines:
            self.blocks.append("\n".join(self.list_lines))
            self.list_lines = []

    def paragraph(self, p, text: str) -> None:
        if self.paragraphs:  # a text box inside a paragraph: its text joins that one
            self.paragraphs[-1].append(" " + text)
            return
        if self.tables:
            if self.cell is not None and text.strip():
                self.cell.append(text)
            return
        text = text.strip()
        style = _val(p, f"{W}pPr/{W}pStyle")
        level, num = self.styles.get(style, (0, None))
        outline = _val(p, f"{W}pPr/{W}outlineLvl")
        if outline and outline.isdigit() and int(outline) < 6:
            level = int(outline) + 1
        num = _val(p, f"{W}pPr/{W}numPr/{W}numId") or num
        ilvl = _val(p, f"{W}pPr/{W}numPr/{W}ilvl") or "0"
        if not text:
            return
        if level:
            self.end_list()
            self.headings += 1
            self.blocks.append("#" * level + " " + " ".join(text.split()))
        elif num and num != "0":
            # (OOXML has levels 0-8: a larger ilvl indented each line by its value)
            depth = min(int(ilvl), _DEEPEST_LEVEL) if ilvl.isdigit() else 0
            ordered, start = self.numbering.get((num, str(depth) if ilvl.isdigit() else ilvl), (False, 1))
            counters = self.counters.setdefault(num, {})  # one list's: depth -> the last number
            counters[depth] = counters.get(depth, start - 1) + 1
            for deeper in [d for d in counters if d > depth]:  # (this list's only: all lists' was quadratic)
                del counters[deeper]
            marker = f"{counters[depth]}. " if ordered else "- "
            self.list_lines.append("  " * depth + marker + text.replace("\n", "\n" + "  " * (depth + 1)))
        else:
            self.end_list()
            self.blocks.append(text)

    def end_table(self) -> None:
        rows = [r for r in self.tables.pop() if any(r)]
        if self.tables:  # a nested table: its text goes into the outer cell
            if self.cell is not None:
                self.cell.append(" ".join(c for r in rows for c in r))
            return
        self.end_list()
        if rows:
            self.table_count += 1
            self.blocks.append(pipe_table(rows))


def _body(data: bytes, styles: dict, numbering: dict) -> _Body:
    body = _Body(styles, numbering)
    runs: list[list[str]] = []  # text pieces of each open paragraph
    depth = 0
    for event, element in ET.iterparse(io.BytesIO(data), events=("start", "end")):
        tag = element.tag
        if event == "start":
            depth += 1
            if depth > MAX_DEPTH:
                raise DocumentError(f"its XML is nested more than {MAX_DEPTH:,} levels deep")
            if tag == W + "p":
                runs.append([])
                body.paragraphs = runs[:-1]
            elif tag == W + "tbl":
                body.tables.append([])
            elif tag == W + "tr" and body.tables:
                body.tables[-1].append([])
            elif tag == W + "tc" and len(body.tables) == 1:
                body.cell = []
            continue
        depth -= 1
        if not runs and tag not in (W + "tbl", W + "tr", W + "tc"):
            continue
        if tag == W + "t" and runs:
            runs[-1].append(element.text or "")
        elif tag == W + "tab" and runs:
            runs[-1].append("\t")
        elif tag in (W + "br", W + "cr") and runs:
            runs[-1].append("\n")
        elif tag == W + "noBreakHyphen" and runs:
            runs[-1].append("-")
        elif tag == W + "p":
            text = "".join(runs.pop())
            body.paragraphs = runs
            body.paragraph(element, text)
            element.clear()
        elif tag == W + "tc" and len(body.tables) == 1 and body.cell is not None:
            body.tables[-1][-1].append(" ".join(" ".join(body.cell).split()).replace("|", "\\|"))
            body.cell = None
        elif tag == W + "tbl" and body.tables:
            body.end_table()
            element.clear()
    body.end_list()
    return body


def extract_docx(data: bytes) -> Extracted:
    """A Word document's body as text; DocumentError when it is not one or cannot be read."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            document = _part(archive, "word/document.xml")
            if document is None:
                raise DocumentError("a zip archive without word/document.xml: not a Word document")
            styles = _styles(_part(archive, "word/styles.xml"))
            numbering = _numbering(_part(archive, "word/numbering.xml"))
            body = _body(document, styles, numbering)
    except DocumentError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ET.ParseError, OSError, ValueError) as error:
        raise DocumentError(f"not a readable DOCX ({str(error).splitlines()[0] if str(error) else type(error).__name__})") from None
    text = "\n\n".join(body.blocks)
    notice = (f"DOCX: {words(text):,} words, {body.headings:,} headings, {body.table_count:,} table{'' if body.table_count == 1 else 's'};"
              " headers, footers, footnotes and comments are not read")
    return Extracted(text, "docx", notice)
