"""HTML -> Markdown-ish text the engine already reads: ATX headings, blank-line blocks,
list items and table rows one per line, fenced code. One pass of html.parser (CPython
3.14's, the page's, in html_parser.py: the CLI reads HTML alike on any Python) with an
explicit stack of open elements: no recursion, so nesting depth costs memory in a list,
not stack frames."""
from __future__ import annotations

import codecs
import re
from .html_parser import HTMLParser

from .model import DocumentError, Extracted, pipe_table, words

# Their content is never text for a reader.
SKIPPED = {"script", "style", "template", "noscript", "head", "svg", "canvas", "iframe", "object", "embed", "select"}
# Page furniture: dropped when the page marks its content with <main> or <article>.
# ARIA's roles for the same say it of any element (Sphinx: <div role="main">, <div role="navigation">).
FURNITURE = {"nav", "header", "footer", "aside"}
FURNITURE_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search"}
CONTENT = {"main", "article"}
# Sphinx's and MkDocs' heading anchors (a pilcrow after every heading): not text.
SKIPPED_CLASSES = {"headerlink"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
BLOCKS = {
    "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "html", "legend", "li", "main",
    "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "ul", "h1", "h2", "h3", "h4", "h5", "h6",
}
HEADINGS = {f"h{n}": n for n in range(1, 7)}
LISTS = {"ul", "ol", "menu"}
CELLS = {"td", "th"}
# A start tag closes an open element of these names first, as browsers do (<p>a<p>b, <li>a<li>b),
# looking no further down than the given containers, and at most CLOSE_REACH elements.
IMPLIED_END = {
    "p": ({"p"}, {"div", "li", "td", "th", "blockquote", "body"}),
    "li": ({"li"}, LISTS),
    "dt": ({"dt", "dd"}, {"dl"}), "dd": ({"dt", "dd"}, {"dl"}),
    "tr": ({"tr", "td", "th"}, {"table"}),
    "td": ({"td", "th"}, {"tr", "table"}), "th": ({"td", "th"}, {"tr", "table"}),
    "option": ({"option"}, {"select"}),
}
CLOSE_REACH = 32
# Lists and quotes nested deeper than this are indented as this deep: each line of the
# text carried its whole depth ("<ul><li>a" 16,000 times: 144 kB of HTML became 256 MB).
PREFIX_DEPTH = 16
_SPACES = re.compile(r"[ \t\n\r\f]+")  # HTML's whitespace: &nbsp; is not
_LANGUAGE = re.compile(r"(?:^|\s)(?:language|lang)-([\w+#.-]+)")
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
_HAS_CONTENT = re.compile(r"""<(?:main|article)[\s>/]|\srole\s*=\s*["']?main\b""", re.I)


def decode_html(data: bytes) -> tuple[str, str | None]:
    """Bytes as text: a BOM, else a <meta charset> in the first 2 KB, else UTF-8. Invalid bytes
    become U+FFFD; the note says how many (None when there were none)."""
    from ..io.decode import decode_bytes

    for mark in (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
        if data.startswith(mark):
            text, info = decode_bytes(data)
            return text, info["message"] if info["replaced"] else None
    found = _CHARSET.search(data[:2048])
    codec = "utf-8"
    if found:
        try:
            codec = codecs.lookup(found.group(1).decode("ascii")).name
        except LookupError:
            pass
    text = data.decode(codec, errors="replace")
    bad = text.count("\ufffd") - data.decode(codec, errors="ignore").count("\ufffd")
    return text, f"{bad:,} invalid byte sequences became U+FFFD" if bad else None


class _Open:
    """An element on the stack, with what closing it undoes."""

    __slots__ = ("tag", "skip", "content", "effect", "saved")

    def __init__(self, tag: str, skip: bool = False, content: bool = False):
        self.tag, self.skip, self.content = tag, skip, content
        self.effect = None  # what its start tag did ("list", "cell", ...): its end undoes exactly that
        self.saved = 0


class _Converter(HTMLParser):
    def __init__(self, drop_furniture: bool):
        super().__init__(convert_charrefs=True)
        self.drop_furniture = drop_furniture
        self.stack: list[_Open] = []
        self.open_count: dict[str, int] = {}  # tag -> how many are open: an end tag's match in O(1)
        self.skipping = 0  # open elements whose content is dropped
        self.in_content = 0  # open <main>, <article> or role="main" elements
        self.blocks: list[str] = []
        self.lines: list[str] = []  # the current block's finished lines
        self.line: list[str] = []  # the current line's pieces
        self.lists: list[list] = []  # per open list: [ordered, next number]
        self.item_start = False  # the next text starts a list item: it gets the marker
        self.quote = 0  # open blockquotes
        self.heading = 0  # level of the open heading, 0 outside one
        self.pre: list[str] | None = None  # the open <pre>'s text
        self.pre_class = ""
        self.table: list[list[str]] | None = None  # rows of the open (outermost) table
        self.cell: list[str] | None = None
        self.tables = 0  # open tables: a nested one is read as text of its cell
        self.dropped: dict[str, int] = {}

    # -- text ---------------------------------------------------------------
    def _prefix(self) -> str:
        prefix = "> " * min(self.quote, PREFIX_DEPTH)
        if self.lists:
            depth = min(len(self.lists), PREFIX_DEPTH)
            if self.item_start:
                ordered = self.lists[-1]
                marker = f"{ordered[1]}. " if ordered[0] else "- "
                if ordered[0]:
                    ordered[1] += 1
                self.item_start = False
                return prefix + "  " * (depth - 1) + marker
            return prefix + "  " * depth
        return prefix

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.pre is not None:
            self.pre.append(data)
            return
        if self.cell is not None:
            self.cell.append(_SPACES.sub(" ", data))
            return
        text = _SPACES.sub(" ", data)
        if not self.line or self.line[-1].endswith(" "):
            text = text.lstrip(" ")
        if not text:
            return
        if not self.line:
            self.line.append(self._prefix())
            if self.heading:
                self.line.append("#" * self.heading + " ")
        self.line.append(text)

    def break_line(self, keep_empty: bool = False) -> None:
        if self.cell is not None:
            self.cell.append(" ")
            return
        line = "".join(self.line).rstrip()
        self.line = []
        if line.strip(" >") or (keep_empty and self.lines and self.lines[-1]):  # <br><br>: one blank line at most
            self.lines.append(line)

    def break_block(self) -> None:
        self.break_line()
        while self.lines and not self.lines[-1].strip():
            self.lines.pop()
        if self.lines:
            self.blocks.append("\n".join(self.lines))
        self.lines = []

    def boundary(self) -> None:
        """A block element starts or ends: inside a list, a new line; elsewhere a new block."""
        if self.lists or self.heading:
            self.break_line()
        else:
            self.break_block()

    # -- tags ---------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in IMPLIED_END:
            self._close_implied(*IMPLIED_END[tag])
        if tag in HEADINGS and self.heading:
            self._close_implied({t for t in HEADINGS}, set())
        if tag in VOID:
            if tag == "br" and not self.skipping:
                if self.pre is not None:
                    self.pre.append("\n")
                elif not self.heading:
                    self.break_line(keep_empty=True)
            elif tag == "hr" and not self.skipping and self.pre is None and self.cell is None:
                self.break_block()
            return
        attrs = dict(attrs)
        classes, role = attrs.get("class") or "", (attrs.get("role") or "").strip().lower()
        furniture = tag in FURNITURE or role in FURNITURE_ROLES
        skip = (tag in SKIPPED or (self.drop_furniture and furniture and not self.in_content)
                or not SKIPPED_CLASSES.isdisjoint(classes.split()))
        if skip and not self.skipping:
            why = tag if tag in SKIPPED or tag in FURNITURE else role if furniture else "heading anchor"
            self.dropped[why] = self.dropped.get(why, 0) + 1
        entry = _Open(tag, skip, tag in CONTENT or role == "main")
        self._push(entry)
        self.in_content += entry.content
        if skip:
            self.skipping += 1
        if self.skipping:
            return
        if self.pre is not None:
            if tag == "code" and not self.pre_class:
                self.pre_class = classes
            return
        entry.effect = self._start_effect(tag, attrs, classes)

    def _start_effect(self, tag: str, attrs: dict, classes: str) -> str | None:
        if self.tables and tag == "table":
            self.tables += 1
            return "nested table"
        if tag == "table":
            self.boundary()
            self.tables, self.table = 1, []
            return "table"
        if self.tables == 1 and tag == "tr":
            self.table.append([])
            self.cell = None
            return None
        if self.tables == 1 and tag in CELLS:
            if not self.table:
                self.table.append([])
            self.cell = []
            return "cell"
        if self.cell is not None:  # inside a cell (or a nested table): text of that cell
            if tag in BLOCKS or tag in CELLS or tag == "tr":
                self.cell.append(" ")
            return None
        if tag == "pre":
            self.boundary()
            self.pre, self.pre_class = [], classes
            return "pre"
        if tag in HEADINGS:
            self.break_block()
            self.heading = HEADINGS[tag]
            return "heading"
        if tag in LISTS:
            start = attrs.get("start") or "1"
            self.break_line() if self.lists else self.break_block()
            self.lists.append([tag == "ol", int(start) if start.isdigit() else 1])
            return "list"
        if tag == "li":
            self.break_line()
            self.item_start = bool(self.lists)
            return "item"
        if tag == "blockquote":
            self.boundary()
            self.quote += 1
            return "quote"
        if tag in BLOCKS:
            self.boundary()
            return "block"
        return None

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID or not self.open_count.get(tag):
            if tag == "p" and not self.skipping and self.cell is None:
                self.boundary()  # a stray </p> is an empty paragraph, as browsers read it
            return
        while self.stack:
            entry = self._pop()
            if entry.tag == tag:
                break

    def _close_implied(self, names: set, containers: set) -> None:
        for depth, entry in enumerate(reversed(self.stack)):
            if depth >= CLOSE_REACH or entry.tag in containers:
                return
            if entry.tag in names:
                while self._pop() is not entry:
                    pass
                return

    def _push(self, entry: _Open) -> None:
        self.stack.append(entry)
        self.open_count[entry.tag] = self.open_count.get(entry.tag, 0) + 1

    def _pop(self) -> _Open:
        entry = self.stack.pop()
        self.open_count[entry.tag] -= 1
        self.in_content -= entry.content
        if entry.skip:
            self.skipping -= 1
        effect = entry.effect
        if effect == "pre":
            self._end_pre()
        elif effect == "nested table":
            self.tables -= 1
        elif effect == "table":
            self._end_table()
        elif effect == "cell" and self.cell is not None:
            self.table[-1].append("".join(self.cell).strip().replace("|", "\\|"))
            self.cell = None
        elif effect == "heading":
            self.break_block()
            self.heading = 0
        elif effect == "list":
            self.lists.pop()
            self.break_line() if self.lists else self.break_block()
        elif effect == "item":
            self.break_line()
            self.item_start = False
        elif effect == "quote":
            self.break_block()
            self.quote -= 1
        elif effect == "block":
            self.boundary()
        return entry

    def _end_pre(self) -> None:
        code = "".join(self.pre).removeprefix("\n").rstrip()
        found = _LANGUAGE.search(self.pre_class)
        self.pre = None
        if not code.strip():
            return
        fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", code)), default=0))
        lines = [fence + (found.group(1) if found else ""), *code.split("\n"), fence]
        prefix = self._prefix() if self.lists or self.quote else ""
        self.break_line()
        if not self.lists:
            self.break_block()
        self.lines += [prefix + line if prefix.strip() else line for line in lines]
        if not self.lists:
            self.break_block()

    def _end_table(self) -> None:
        if self.cell is not None:
            self.table[-1].append("".join(self.cell).strip().replace("|", "\\|"))
            self.cell = None
        rows = [row for row in self.table if any(row)]
        self.table, self.tables = None, 0
        self.break_block()
        if not rows:
            return
        self.blocks.append(pipe_table(rows))

    def finish(self) -> str:
        self.close()
        while self.stack:
            self._pop()
        self.break_block()
        return "\n\n".join(self.blocks)


def extract_html(data: bytes | str) -> Extracted:
    """An HTML page's text with its structure kept (see the module's docstring)."""
    note = None
    if isinstance(data, bytes):
        data, note = decode_html(data)
    converter = _Converter(drop_furniture=bool(_HAS_CONTENT.search(data)))
    try:
        converter.feed(data)
        text = converter.finish()
    except (AssertionError, ValueError) as error:  # html.parser refuses very little; say it in one line
        raise DocumentError(f"not readable as HTML: {error}") from None
    dropped = ", ".join(f"{what} \u00d7{n:,}" for what, n in sorted(converter.dropped.items()))
    notice = f"HTML: {words(text):,} words" + (f"; dropped {dropped}" if dropped else "") + (f"; {note}" if note else "")
    return Extracted(text, "html", notice)
