"""Python's definitions from its own parser (`ast`), only where every Python reads
the code alike: up to AST_LIMIT, by the AST_GRAMMAR grammar, without the f-strings
only Python 3.12 on reads, and never nested deeper than the page's stack survives
(_parser_may_read, measured in one linear pass first). Otherwise the scanner's
definitions (definitions.py) stand."""
from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
import warnings

from ..memory import collector_paused
from .structure import _INDENT

# Python's parser takes ~1 s a megabyte; above this the scanner's indentation reading
# (decorators and comments attached the same way) stands in for it.
AST_LIMIT = 1_000_000
# The grammar Python code is parsed by: the oldest Python the package runs on
# (pyproject.toml). The page's Python is newer and parses more (PEP 695 generics,
# PEP 701 f-strings); had it used that, a file would get other definitions, and other
# cuts, in the page than in the CLI on 3.11.
AST_GRAMMAR = (3, 11)


def _python_defs(text: str, scanner):
    """Definitions from Python's own parser, or None when it does not parse by
    AST_GRAMMAR (the scanner's are used then, on every Python alike). scanner is the
    scan._Scanner that read the text (its line breaks give each definition's end)."""
    if "\r" in text.replace("\r\n", ""):
        return None  # ast counts a lone \r as a line break; the scanner does not
    if not _parser_may_read(text):
        return None
    # The tree is about a hundred thousand nodes a megabyte, with no cycle: the collector
    # waits until it is gone.
    try:
        with collector_paused(), warnings.catch_warnings():
            # an invalid escape ("\d") is a DeprecationWarning in 3.11 and a printed SyntaxWarning from 3.12 on
            warnings.simplefilter("ignore")
            tree = ast.parse(text, feature_version=AST_GRAMMAR)
            found = _tree_defs(tree, scanner.nls, len(text))
            del tree
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None  # (RecursionError: visiting the tree too)
    if sys.version_info[:2] > AST_GRAMMAR and _has_newer_f_strings(text):
        return None
    return found


def _tree_defs(tree: ast.Module, nls: list[int], n: int) -> list[tuple]:
    """The definitions of a parsed tree: (first line incl. decorators, end, label, False, def line)."""
    found = []

    def visit(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kw = "class" if isinstance(node, ast.ClassDef) else ("async def" if isinstance(node, ast.AsyncFunctionDef) else "def")
                first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
                end_line = node.end_lineno or node.lineno  # 1-based last line
                end = nls[end_line - 1] + 1 if end_line - 1 < len(nls) else n
                found.append((first, end, f"{kw} {node.name}", False, node.lineno - 1))
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                child = getattr(node, field, None)
                if isinstance(child, list):
                    visit(child)

    visit(tree.body)
    return found


def _has_newer_f_strings(text: str) -> bool:
    """Does the code use what f-strings may hold only from Python 3.12 on (PEP 701),
    which ast's feature_version does not reject: the enclosing f-string's quote
    inside a replacement field, a backslash in a string there, a comment there, or
    a line break inside a single-quoted f-string? (Python 3.12+ only: its tokenizer
    gives f-strings' parts as tokens.)"""
    quotes: list[str] = []  # the quotes of the f-strings the tokens are inside, innermost last
    starts: list[int] = []  # and the lines they started on
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind = tokenize.tok_name[tok.type]
            if kind in ("FSTRING_START", "TSTRING_START"):
                quote = tok.string.lstrip("fFrRbBtT")
                if any(q in quote for q in quotes):
                    return True
                quotes.append(quote)
                starts.append(tok.start[0])
            elif kind in ("FSTRING_END", "TSTRING_END") and quotes:
                if len(quotes[-1]) == 1 and tok.end[0] != starts[-1]:
                    return True
                quotes.pop()
                starts.pop()
            elif quotes and kind == "COMMENT":
                return True
            elif quotes and kind in ("STRING", "FSTRING_MIDDLE", "TSTRING_MIDDLE"):
                # a string inside a replacement field (a nested f-string's text too;
                # the outermost one's own text is free): 3.11 ended the f-string at
                # its quote, and allowed no backslash there
                outer = quotes if kind == "STRING" else quotes[:-1]
                if outer and ("\\" in tok.string or any(q in tok.string for q in outer)):
                    return True
    except (tokenize.TokenError, SyntaxError, ValueError):
        return False  # what ast parsed, the 3.11 grammar parsed too
    return False


# -- what Python's parser may be given --------------------------------------------
# Python's parser, and ast's conversion of what it parsed, recurse in C once per
# nesting level: a bracket, a unary operator, each operator of a chain (a + b + c
# nests), each elif. The page's Python runs on the browser's stack, which 900 unary
# minus signs in a row or 200 brackets overflowed, killing it (CPython has room to
# raise RecursionError). So the nesting is measured first, in one linear pass, in units
# of about one unary operator's share of that stack: a bracket costs four more, an
# indentation level or an elif two (measured in Chromium's worker and in Node). Past
# _DEPTH_LIMIT, a quarter of what the browser survives, the scanner reads the code, on
# every Python alike.
_DEPTH_LIMIT = 200
_BRACKET, _LEVEL, _ELIF = 4, 2, 2
_STRING_TOKEN = (
    r"[rRbBuUfFtT]{0,2}"
    r"(?:'''(?:[^'\\]++|\\[\s\S]|'(?!''))*+(?:'''|\Z)|\"\"\"(?:[^\"\\]++|\\[\s\S]|\"(?!\"\"))*+(?:\"\"\"|\Z)"
    r"|'(?:[^'\\\n]++|\\[\s\S])*+(?:'|(?=\n)|\Z)|\"(?:[^\"\\\n]++|\\[\s\S])*+(?:\"|(?=\n)|\Z))"
)
# A number as Python's tokenizer reads one, so that what follows it is read as it
# does: "0 if 1else 2", "0x1for" (0x1f or).
_NUMBER = (
    r"0[xX](?:_?[0-9a-fA-F])*+|0[bB](?:_?[01])*+|0[oO](?:_?[0-7])*+"
    r"|[0-9](?:_?[0-9])*+(?:\.(?:[0-9](?:_?[0-9])*+)?)?(?:[eE][+-]?[0-9](?:_?[0-9])*+)?[jJ]?"
)


def _nesting_tokens(field: bool) -> re.Pattern:
    """The tokens that nest, open or close a level or end a statement, each string
    whole (as Python 3.11 reads it: an f-string ends at its first closing quote), and
    any character outside ASCII (see _parser_may_read); in an f-string's replacement
    field also a backslash. Each match first skips what is none of these, names and
    numbers included, inside re (one Python step per token, not per character).
    ASCII classes only (re.A)."""
    skip = (
        r"(?:[^'\"#,;:+\-*/%@&|^~.<>()\[\]{}\n\\A-Za-z0-9_\x80-\U0010ffff]++"
        rf"|{_NUMBER}|(?!(?:and|or|not|lambda|else|await)\b|[rRbBuUfFtT]{{1,2}}['\"])[A-Za-z_][A-Za-z0-9_]*+)*+"
    )
    tokens = (
        rf"(?P<s>{_STRING_TOKEN})|(?P<c>#[^\n]*)|(?P<a>(?:and|or)\b)|(?P<r>[,;])|(?P<h>(?:lambda|else)\b)"
        r"|(?P<o>(?:not|await)\b|<<|>>|[-+*/%@&|^~.])|(?P<b>[(\[{])|(?P<e>[)\]}])|(?P<k>:)|(?P<n>\n)"
        r"|(?P<l>\\\r?\n)|(?P<u>[^\x00-\x7f])" + (r"|(?P<x>\\)" if field else "")
    )
    return re.compile(rf"{skip}(?:{tokens}|(?P<z>[\s\S]|\Z))", re.A)  # z: anything else, the end


_NESTING = _nesting_tokens(False)
_IN_FIELD = _nesting_tokens(True)  # in an f-string's {...}
_F_TEXT = re.compile(r"(?:[^{\\]++|\{\{|\\\\|\\N\{[^}\n]*\}|\\)*+")  # an f-string's text up to its next "{"
_F_RAW_TEXT = re.compile(r"(?:[^{]++|\{\{)*+")
_SPEC_TEXT = re.compile(r"[^{}]*+")  # a format spec's text
_ELSE_LINE = re.compile(r"(?:elif|else)\b", re.A)


_PASSED = frozenset("enczlx")  # the token kinds _Nesting.token leaves to its caller


class _Unsafe(Exception):
    """Python's parser must not see this text (_parser_may_read)."""


def _parser_may_read(text: str) -> bool:
    """May Python's parser be given this code, the same on every Python? Not when it
    nests deeper than _DEPTH_LIMIT; not when a character outside ASCII stands outside
    strings and comments (an identifier: CPython 3.11 knows Unicode 14, the page's
    Python 16, so a letter of Unicode 15 or 16 parsed in the page only); not when an
    f-string holds its own quote in a replacement field, or a '#' or a backslash in
    its code (only Python 3.12 on reads those; 3.11 raised SyntaxError)."""
    try:
        _Nesting(text).run()
    except _Unsafe:
        return False
    return True


class _Nesting:
    """What the open levels (brackets, a lambda's parameters, f-string fields) and the
    operators at each cost. An operator nests what follows it until a comma ends the
    element, and until an "and" or "or" unless it is a lambda or an else: those take
    in the whole rest ("lambda: a and lambda: b" nests)."""

    def __init__(self, text: str):
        self.text = text
        self.levels = [[0, 0]]  # per open level: [operators that "and" ends, lambdas and elses]
        self.lambdas: list[int] = []  # the levels that are a lambda's parameters (up to its ":")
        self.cost = 0  # of the open levels and their operators
        self.blocks = [[0, 0]]  # the open indentation levels: [width, elifs and elses in a row]
        self.block_cost = 0

    def add(self, units: int) -> None:
        self.cost += units
        if self.cost + self.block_cost > _DEPTH_LIMIT:
            raise _Unsafe

    def op(self, held: int = 0) -> None:
        self.levels[-1][held] += 1
        self.add(1)

    def reset(self, held: bool) -> None:
        """After "and" (held=False) or a comma: what follows is a sibling of what came before."""
        level = self.levels[-1]
        self.cost -= level[0] + (level[1] if held else 0)
        level[0] = 0
        if held:
            level[1] = 0

    def open(self) -> None:
        self.levels[-1][0] += 1  # f(x)(y): a call, a subscript or a bracketed atom nests like an operator
        self.levels.append([0, 0])
        self.add(1 + _BRACKET)  # (the operator's unit and the bracket's, checked at once)

    def close(self, floor: int = 1) -> bool:
        """A closing bracket: closes the innermost bracket above the level floor, if any."""
        while self.lambdas and self.lambdas[-1] == len(self.levels) > floor:  # "(lambda x)": no ":"
            self._pop()
        if len(self.levels) <= floor:
            return False
        self._pop()
        return True

    def _pop(self) -> None:
        if self.lambdas and self.lambdas[-1] == len(self.levels):
            self.lambdas.pop()
        self.cost -= _BRACKET + sum(self.levels.pop())

    def token(self, m: re.Match) -> str | None:
        """Count one token; returns its kind where the caller has more to do."""
        kind = m.lastgroup
        if kind in _PASSED:  # (most tokens: a line break, a closing bracket)
            return kind
        if kind == "o":
            self.op()
        elif kind == "a":
            self.reset(False)
        elif kind == "r":
            self.reset(True)
        elif kind == "b":
            self.open()
        elif kind == "h":
            self.op(held=1)
            if m.group("h") == "lambda":  # its parameters, up to its ":", are a level of their own
                self.levels.append([0, 0])
                self.add(_BRACKET)
                self.lambdas.append(len(self.levels))
        elif kind == "k" and self.lambdas and self.lambdas[-1] == len(self.levels):
            self._pop()
        elif kind == "s":
            self.string(m)
        elif kind == "u":
            raise _Unsafe
        else:
            return kind
        return None

    def run(self) -> None:
        levels = self.levels
        for m in _NESTING.finditer(self.text):
            kind = m.lastgroup
            if kind not in _PASSED:
                self.token(m)
            elif kind == "e":
                self.close()
            elif kind == "n" and len(levels) == 1:
                self.reset(True)
                self.line(m.end())

    def line(self, pos: int) -> None:
        """At the start of a statement's line: its indentation level, and whether it
        goes on an if's chain of elifs (each nests the next)."""
        text = self.text
        first = _INDENT.match(text, pos).end()
        if first == len(text) or text[first] in "#\r\n":
            return  # a blank or comment line
        indent = text[pos:first]
        if "\t" in indent or "\f" in indent:
            width = len(indent[indent.rfind("\f") + 1 :].expandtabs(8))  # (a form feed resets the column)
        else:
            width = first - pos
        blocks = self.blocks
        while len(blocks) > 1 and blocks[-1][0] > width:
            self.block_cost -= _LEVEL + blocks.pop()[1] * _ELIF
        if width > blocks[-1][0]:
            blocks.append([width, 0])
            self.block_cost += _LEVEL
        if _ELSE_LINE.match(text, first):
            blocks[-1][1] += 1
            self.block_cost += _ELIF
        else:
            self.block_cost -= blocks[-1][1] * _ELIF
            blocks[-1][1] = 0
        self.add(0)

    def string(self, m: re.Match) -> None:
        """A string: an f-string's (and a t-string's) replacement fields are code."""
        token = m.group("s")
        quote = token.lstrip("rRbBuUfFtT")
        prefix = token[: len(token) - len(quote)].lower()
        if "f" not in prefix and "t" not in prefix:
            return
        q = quote[:3] if quote[:3] in ("'''", '"""') else quote[0]
        start = m.start("s") + len(prefix) + len(q)
        end = m.end() - len(q) if len(quote) >= 2 * len(q) and quote.endswith(q) else m.end()
        self.op()
        literal = _F_RAW_TEXT if "r" in prefix else _F_TEXT
        while True:
            start = literal.match(self.text, start, end).end()
            if start >= end:
                return
            start = self.field(start + 1, end)  # at a "{"

    def field(self, pos: int, end: int) -> int:
        """A replacement field from pos (after its "{") in an f-string's body that
        ends at end: its code, and its format spec; returns where the field ends."""
        self.open()
        level = len(self.levels)
        for m in _IN_FIELD.finditer(self.text, pos, end):
            kind = self.token(m)
            if kind == "e" and not self.close(level):
                if m.group("e") != "}":
                    raise _Unsafe  # a ")" that nothing in the field opened
                self._pop()
                return m.end()
            elif kind == "k" and len(self.levels) == level:
                return self.spec(m.end(), end)
            elif kind in ("c", "x", "l"):
                raise _Unsafe  # a '#' or a backslash
        raise _Unsafe  # the f-string ends inside the field: 3.11 ends it at its quote

    def spec(self, pos: int, end: int) -> int:
        """A format spec (after the ":"), up to the "}" that ends its field; it may
        hold fields of its own."""
        text = self.text
        while True:
            pos = _SPEC_TEXT.match(text, pos, end).end()
            if pos >= end:
                raise _Unsafe
            if text[pos] == "}":
                self._pop()
                return pos + 1
            pos = self.field(pos + 1, end)

