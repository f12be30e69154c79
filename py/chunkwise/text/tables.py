"""Tables: where each starts, where its header ends and where each row ends.

Two kinds are found:
- GitHub-style Markdown pipe tables (outside fenced code): a header line with a
  pipe, a delimiter line (`| --- | :-: |`) with as many cells, then body rows up
  to a blank line or the start of another block (a heading, a fence, a quote);
- a whole CSV or TSV text: its first record is the header, each record a row
  (a quoted field may hold line breaks: they are inside the row).

The packer cuts between rows while one fits (the "row" boundary), never inside a
row's text while it can, and the context of a chunk that starts inside a table
repeats the table's header (packing/context.py).
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import NamedTuple

# A line that may be a delimiter row, then the exact rule (cells of -, with : at either end).
# Possessive throughout: nothing they match is ever needed by what follows, and each run
# of blanks given back to the next one, character by character, made a delimiter row with a
# long run of trailing spaces quadratic (20,000 took 5.6 s) and every indented line of code
# slower (2 ms for 100 KB of Python).
_DELIMITER_MARK = re.compile(r"\n {0,3}+\|?+[ \t]*+:?-")
_DELIMITER = re.compile(r"\n {0,3}+(\|?+[ \t]*+:?+-++:?+[ \t]*+(?:\|[ \t]*+:?+-++:?+[ \t]*+)*+\|?+)[ \t]*+(?=\n|\Z)")
_BLOCK_START = re.compile(r" {0,3}(?:#{1,6}(?:[ \t]|$)|>|```|~~~)")


class Table(NamedTuple):
    start: int  # the header's first character (a line start)
    header_end: int  # the end of the header rows (the line break after them, or the text's end)
    row_ends: tuple[int, ...]  # the line break ending each body row but the last
    end: int  # the end of the last row
    header_breaks: tuple[int, ...] = ()  # the line breaks between header rows (a pipe table's)


def _cells(line: str) -> int:
    """How many cells a pipe-table line has (escaped pipes are text)."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return body.replace("\\|", "").count("|") + 1


def markdown_tables(text: str, fences=()) -> list[Table]:
    """The pipe tables of a Markdown text, in order (none inside fenced code)."""
    if "|" not in text:
        return []
    padded = "\n" + text  # offsets in padded are one more than in text
    code = [(f.start, f.end) for f in fences]
    code_starts = [c[0] for c in code]
    tables: list[Table] = []
    for mark in _DELIMITER_MARK.finditer(padded):
        m = _DELIMITER.match(padded, mark.start())
        if m is None or "|" not in m.group(1):
            continue
        line_start = m.start()  # the delimiter line's start in text
        if line_start == 0 or (tables and line_start <= tables[-1].end):
            continue
        header_start = text.rfind("\n", 0, line_start - 1) + 1
        header = text[header_start : line_start - 1]
        if "|" not in header or not header.strip() or header.startswith("    ") or _BLOCK_START.match(header):
            continue
        if _cells(header) != _cells(m.group(1)):
            continue
        i = bisect_right(code_starts, header_start) - 1
        if i >= 0 and header_start < code[i][1]:
            continue
        header_end = m.end() - 1
        ends, end, pos = [], header_end, header_end
        while pos < len(text):  # the body rows: up to a blank line or another block
            nxt = text.find("\n", pos + 1)
            nxt = len(text) if nxt == -1 else nxt
            line = text[pos + 1 : nxt]
            if not line.strip() or _BLOCK_START.match(line):
                break
            if end > header_end:
                ends.append(end)
            end = pos = nxt
        tables.append(Table(header_start, header_end, tuple(ends), end, (line_start - 1,)))
    return tables


def delimited_table(text: str, delimiter: str) -> Table | None:
    """A whole CSV (delimiter ",") or TSV ("\\t") text as one table: the first record
    is the header; a line break inside a quoted field is inside its row."""
    ends, quoted, i = [], False, 0
    while True:
        nl = text.find("\n", i)
        if nl == -1:
            break
        quoted ^= text.count('"', i, nl) % 2 == 1  # an odd number of quotes opens or closes a field
        if not quoted:
            ends.append(nl)
        i = nl + 1
    last = len(text.rstrip())
    # (text[last - 1] is no whitespace, so a record follows every end before last; asking
    # each end whether text[e + 1 : last] has any, a copy of the rest, was quadratic)
    ends = [e for e in ends if e < last]
    if not ends or not text[: ends[0]].strip():
        return None
    return Table(0, ends[0], tuple(ends[1:]), last)


class Tables:
    """The tables of a text, and what the packer asks of them."""

    def __init__(self, text: str, tables: list[Table]):
        self.text = text
        self.tables = tables
        self.starts = [t.start for t in tables]
        self.row_ends = [e for t in tables for e in t.row_ends]  # every row cut, in order
        # every line break that ends a row, header rows included (the others are inside a row)
        self.breaks = [b for t in tables for b in (*t.header_breaks, t.header_end, *t.row_ends)]

    def __bool__(self) -> bool:
        return bool(self.tables)

    def at(self, pos: int) -> Table | None:
        """The table whose text holds pos, if any."""
        i = bisect_right(self.starts, pos) - 1
        return self.tables[i] if i >= 0 and pos < self.tables[i].end else None

    def inside_row(self, cut: int) -> bool:
        """Is the cut (or a unit start) inside a row, not at its start or end? Such a
        cut is taken only when no row boundary is in reach."""
        table = self.at(cut)
        if table is None or cut == table.start:
            return False
        i = bisect_left(self.breaks, cut - 1)  # the break at cut (a row's end) or just before it (a row's start)
        return not (i < len(self.breaks) and self.breaks[i] in (cut - 1, cut))

