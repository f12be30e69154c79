"""A structural scanner for source code, in one linear pass and never raising.

For each language (code/languages.py) it finds the comments and string literals
(multi-line, raw, template strings, heredocs), the bracket depth at every line
break, and the definitions (classes, functions, methods, tables, keys...) with
the decorators, attributes and leading doc comments that belong to them.
Python's definitions are read by indentation as its parser reads them (the same
spans as `ast` on every module of the standard library and of this project's
dependencies, tests/source_code/test_python_definitions.py), on every Python alike.

The result, a CodeStructure, is what the code ladder cuts by: every line break
with its state (code, string, comment) and depth, and the definitions with
their spans and labels (the `headings` path of a chunk).

The parts: lexer.py (comments, strings, brackets), definitions.py (where each
definition starts and ends, its label, what is attached to it), markup.py (HTML
and XML); structure.py holds what they find.
"""
from __future__ import annotations

from ..unicode import classes
from .definitions import DefinitionTracker, _finish
from .languages import LANGUAGES, Language
from .lexer import Lexer, _line_heads, _patterns
from .markup import MarkupScanner
from .structure import CodeStructure


_PLAIN = Language("text", "Plain text", structure="none")  # lines only: the code strategy on prose


def scan(text: str, language: str) -> CodeStructure:
    """The structure of `text` read as `language` (a languages.LANGUAGES id)."""
    lang = LANGUAGES.get(language) or _PLAIN
    scanner = _Scanner(text, lang)
    try:
        scanner.run()
    except RecursionError:  # pragma: no cover - the scanner does not recurse
        pass
    defs = _finish(text, scanner, scanner.raw_defs)
    return CodeStructure(text, language, scanner.nls, scanner.states, scanner.depths, defs)


class _Scanner(Lexer, DefinitionTracker, MarkupScanner):
    """One pass over a text: the lexer (lexer.py) calls the definitions' hooks
    (definitions.py); markup is read by markup.py."""

    def __init__(self, text: str, lang: Language):
        # The patterns (\w, \b) run over the text as known to this Python (unicode/classes.py),
        # so they match the same everywhere; labels are taken from the source.
        self.source = text
        self.text = classes.as_known(text)
        self.n = len(text)
        self.lang = lang
        self.nls: list[int] = []
        self.states: list[int] = []
        self.depths: list[int] = []
        self.comment_starts: list[int] = []
        self.raw_defs: list[tuple[int, int, str, bool]] = []  # (line index, end, label, transparent)
        self.depth = 0
        self.stack: list[str] = []
        self.heredocs: list[tuple[str, str]] = []  # (kind, delimiter) waiting for the next line
        # brace and indentation structure
        self.pending = None  # (line index, depth, first code offset) of a definition line awaiting its "{"
        self.open_defs: list[tuple[int, int, int, str, bool]] = []  # (body depth or indent, line index, first, label, transparent)
        self.prev_line_end = 0
        self.sql_open = False
        self.kinds, self.trigger, self.events, self.block, self.decl, self.transparent, _ = _patterns(lang)
        self.head, self.decl_lines = _line_heads(lang)
