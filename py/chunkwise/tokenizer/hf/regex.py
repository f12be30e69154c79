"""Oniguruma patterns of tokenizer.json files, run with the stdlib `re`.

The `tokenizers` library matches Split and ByteLevel patterns with Oniguruma,
whose \\p{L}, \\s, \\w and (?i) are Unicode-aware in ways `re` is not. Each
pattern is compiled here into a pattern over class codes: every character of
the text becomes one code character that records just what the pattern can ask
of it (which of the pattern's literal characters it is, and its properties:
\\p{..} categories, White_Space, word, ranges). Match offsets in the code string
are offsets in the text. Patterns using anything else (backreferences,
lookbehind, other escapes) raise Unsupported: never a silently wrong count.
How a pattern treats a cut before a space is regex_cuts.py's.
"""
from __future__ import annotations

import re

from . import unicode_tables
from .text import LETTER, NUMBER, CodeTable, RangeSet, category

# Oniguruma's classes in the `tokenizers` build (its Unicode version, not Python's).
_ONIG = {
    "cat:L": LETTER,
    "cat:N": NUMBER,
    "word": RangeSet(unicode_tables.ONIG_WORD),
    "space": RangeSet(unicode_tables.ONIG_SPACE),
}


class RegexUnsupported(ValueError):
    pass


_SPECIAL_FOLDS = {"s": "\u017f", "k": "\u212a", "\u00e5": "\u212b"}


def _folds(ch: str) -> set[str]:
    out = {ch, ch.lower(), ch.upper()}
    out = {c for c in out if len(c) == 1}
    low = ch.lower()
    if low in _SPECIAL_FOLDS:
        out.add(_SPECIAL_FOLDS[low])
    return out


def _prop_fn(name: str):
    """A test of one property, (the character, its category or None) -> bool, and
    whether it asks the category alone. The category is the library's
    (text.category), not the running Python's."""
    if name in _ONIG:
        table = _ONIG[name]
        return (lambda ch, cat: ch in table), False
    if name == "digit":
        return (lambda ch, cat: cat == "Nd"), True
    if name.startswith("cat:"):
        prefix = name[4:]
        return (lambda ch, cat: cat.startswith(prefix)), True
    if name.startswith("range:"):
        lo, hi = name[6], name[8]
        return (lambda ch, cat: lo <= ch <= hi), False
    raise AssertionError(name)


class Properties:
    """Which of a pattern's properties (sorted names) a character has, as a tuple. Those
    that ask its category alone (a pattern can name 33) are answered once per category;
    the category is looked up only where one asks for it."""

    def __init__(self, names):
        self.names = sorted(names)
        tests = [_prop_fn(name) for name in self.names]
        self._tests = [test for test, _ in tests]
        self._per_character = [i for i, (_, by_category) in enumerate(tests) if not by_category]
        self._needs_category = len(self._per_character) < len(tests)
        self._known: dict[str | None, list[bool]] = {}  # category -> the answers of the tests that ask it

    def __call__(self, ch: str) -> tuple[bool, ...]:
        cat = category(ch) if self._needs_category else None
        known = self._known.get(cat)
        if known is None:
            known = self._known[cat] = [test(ch, cat) for test in self._tests]
        if not self._per_character:
            return tuple(known)
        answers = list(known)
        for i in self._per_character:
            answers[i] = self._tests[i](ch, cat)
        return tuple(answers)

    def of(self, ch: str) -> dict[str, bool]:
        return dict(zip(self.names, self(ch)))


_CATEGORIES = {"L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd",
               "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf"}
_CAT_ALIASES = {"Letter": "L", "Number": "N", "Punctuation": "P", "Symbol": "S", "Mark": "M", "Separator": "Z"}


class _Parser:
    """Parses the supported subset into a small tree; matchers are predicates
    on (literal or None, property dict)."""

    def __init__(self, pattern: str):
        self.p = pattern
        self.i = 0
        self.literals: set[str] = set()
        self.props: set[str] = set()

    def error(self, what: str):
        raise RegexUnsupported(f"regex {self.p!r}: {what} (at offset {self.i}) is not supported")

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.p[j] if j < len(self.p) else ""

    # tree nodes: ("alt", [seq...]) ("seq", [node...]) ("char", matcher) ("group", kind, node)
    # ("quant", node, text) ("anchor", "^"|"$")
    def parse(self):
        node = self.alternation(False)
        if self.i != len(self.p):
            self.error("an unbalanced ')'")
        return node

    def alternation(self, icase):
        branches = [self.sequence(icase)]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.sequence(icase))
        return ("alt", branches)

    def sequence(self, icase):
        items = []
        while self.i < len(self.p) and self.peek() not in "|)":
            atom = self.atom(icase)
            q = self.quantifier()
            items.append(("quant", atom, q) if q else atom)
        return ("seq", items)

    def quantifier(self) -> str:
        c = self.peek()
        if c in ("?", "*", "+"):
            self.i += 1
            q = c
        elif c == "{":
            m = re.compile(r"\{(\d+)(,(\d*))?\}").match(self.p, self.i)
            if not m:
                self.error("a '{'")
            self.i = m.end()
            q = m.group(0)
        else:
            return ""
        if self.peek() in ("?", "+"):
            q += self.peek()
            self.i += 1
        return q

    def atom(self, icase):
        c = self.peek()
        if c == "(":
            self.i += 1
            kind = ":"
            inner_icase = icase
            if self.peek() == "?":
                self.i += 1
                if self.p.startswith("i:", self.i):
                    self.i += 2
                    inner_icase = True
                elif self.peek() in (":", "!", "="):
                    kind = self.peek()
                    self.i += 1
                else:
                    self.error("this group kind")
            node = self.alternation(inner_icase)
            if self.peek() != ")":
                self.error("a missing ')'")
            self.i += 1
            return ("group", kind, node)
        if c == "[":
            return ("char", self.char_class(icase))
        if c in ("^", "$"):
            self.i += 1
            if c == "$" or c == "^":
                self.literals.add("\n")
            return ("anchor", c)
        if c == ".":
            self.i += 1
            self.literals.add("\n")
            return ("char", lambda lit, props: lit != "\n")
        if c == "\\":
            return ("char", self.escape(icase, in_class=False))
        if c in "*+?{":
            self.error(f"a bare {c!r}")
        self.i += 1
        return ("char", self.literal(c, icase))

    def literal(self, ch: str, icase: bool):
        chars = _folds(ch) if icase else {ch}
        self.literals.update(chars)
        return lambda lit, props: lit in chars

    def prop(self, name: str, negate: bool = False):
        self.props.add(name)
        if negate:
            return lambda lit, props: not props[name]
        return lambda lit, props: props[name]

    def escape(self, icase, in_class):
        self.i += 1
        c = self.peek()
        self.i += 1
        simple = {"r": "\r", "n": "\n", "t": "\t", "f": "\x0c", "v": "\x0b"}
        if c in simple:
            return self.literal(simple[c], False)
        if c == "s":
            return self.prop("space")
        if c == "S":
            return self.prop("space", True)
        if c == "w":
            return self.prop("word")
        if c == "W":
            return self.prop("word", True)
        if c == "d":
            return self.prop("digit")
        if c == "D":
            return self.prop("digit", True)
        if c in ("p", "P"):
            m = re.compile(r"\{\^?([A-Za-z_]+)\}").match(self.p, self.i)
            if not m:
                self.error("this \\p escape")
            name = _CAT_ALIASES.get(m.group(1), m.group(1))
            if name not in _CATEGORIES:
                self.error(f"the property {m.group(1)!r}")
            self.i = m.end()
            negate = (c == "P") != m.group(0).startswith("{^")
            return self.prop("cat:" + name, negate)
        if c and not c.isalnum():
            return self.literal(c, icase)
        self.error(f"the escape \\{c}")

    def char_class(self, icase):
        self.i += 1
        negate = False
        if self.peek() == "^":
            negate = True
            self.i += 1
        items = []
        first = True
        while True:
            c = self.peek()
            if c == "":
                self.error("an unclosed '['")
            if c == "]" and not first:
                self.i += 1
                break
            first = False
            if c == "[":
                self.error("a nested class")
            if c == "\\":
                item = self.escape(icase, in_class=True)
            else:
                self.i += 1
                if self.peek() == "-" and self.peek(1) not in ("]", ""):
                    hi = self.peek(1)
                    if hi == "\\":
                        self.error("a range ending in an escape")
                    self.i += 2
                    if icase:
                        self.error("a case-insensitive range")
                    item = self.prop(f"range:{c}-{hi}")
                else:
                    item = self.literal(c, icase)
            items.append(item)

        def matcher(lit, props):
            hit = any(item(lit, props) for item in items)
            return hit != negate

        return matcher


class CompiledPattern:
    """An Oniguruma pattern compiled to `re` over class codes.

    A character's code stands for its literal, or for the combination of the
    pattern's properties it has. Codes for combinations are made as the text
    shows them (a character cannot be both \\p{Lu} and \\p{Ll}: of the 2**n
    combinations of n properties, a text meets a few), and the `re` pattern is
    rebuilt when a new one appears."""

    def __init__(self, pattern: str):
        parser = _Parser(pattern)
        self._tree = parser.parse()
        self.pattern = pattern
        properties = Properties(parser.props)
        samples = []  # (code char, literal or None, property dict)
        for lit in sorted(parser.literals):
            samples.append((chr(0xE000 + len(samples)), lit, properties.of(lit)))
        self._samples = samples
        code_of_literal = {lit: code for code, lit, _ in samples}
        self._newline = code_of_literal.get("\n")
        code_of_bits: dict[tuple[bool, ...], str] = {}

        def classify(ch: str) -> str:
            code = code_of_literal.get(ch)
            if code is not None:
                return code
            bits = properties(ch)
            code = code_of_bits.get(bits)
            if code is None:
                code = code_of_bits[bits] = chr(0xE000 + len(samples))
                samples.append((code, None, dict(zip(properties.names, bits))))
            return code

        self._table = CodeTable(classify)
        self._compile()  # (now: a pattern `re` cannot take fails on loading, not on the first text)

    def _compile(self) -> None:
        self._compiled_for = len(self._samples)
        self.regex = re.compile(self._emit(self._tree))

    def _class(self, matcher) -> str:
        chars = [code for code, lit, props in self._samples if matcher(lit, props)]
        if not chars:
            return "(?!)"
        return "[" + "".join(re.escape(c) for c in chars) + "]"

    def _emit(self, node) -> str:
        kind = node[0]
        if kind == "alt":
            return "|".join(self._emit(b) for b in node[1])
        if kind == "seq":
            return "".join(self._emit(n) for n in node[1])
        if kind == "char":
            return self._class(node[1])
        if kind == "group":
            return f"(?{node[1]}{self._emit(node[2])})"
        if kind == "quant":
            return f"(?:{self._emit(node[1])}){node[2]}"
        if kind == "anchor":
            nl = re.escape(self._newline)
            return f"(?:\\A|(?<={nl}))" if node[1] == "^" else f"(?={nl}|\\Z)"
        raise AssertionError(kind)

    def spans(self, text: str) -> list[tuple[int, int]]:
        codes = text.translate(self._table)
        if len(self._samples) != self._compiled_for:  # the text showed a new combination
            self._compile()
        return [m.span() for m in self.regex.finditer(codes)]


_cache: dict[str, CompiledPattern] = {}


def compile_pattern(pattern: str) -> CompiledPattern:
    compiled = _cache.get(pattern)
    if compiled is None:
        compiled = _cache[pattern] = CompiledPattern(pattern)
    return compiled


def literal_spans(text: str, literal: str) -> list[tuple[int, int]]:
    if not literal:
        return []
    out = []
    n = len(literal)
    i = text.find(literal)
    while i >= 0:
        out.append((i, i + n))
        i = text.find(literal, i + n)
    return out
