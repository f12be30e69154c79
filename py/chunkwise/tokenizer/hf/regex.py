"""Oniguruma patterns of tokenizer.json files, run with the stdlib `re`.

The `tokenizers` library matches Split and ByteLevel patterns with Oniguruma,
whose \\p{L}, \\s, \\w and (?i) are Unicode-aware in ways `re` is not. Each
pattern is compiled here into a pattern over class codes: every character of
the text becomes one code character that records just what the pattern can ask
of it (which of the pattern's literal characters it is, and its properties:
\\p{..} categories, White_Space, word, ranges). Match offsets in the code string
are offsets in the text. Patterns using anything else (backreferences,
lookbehind, other escapes) raise Unsupported: never a silently wrong count.
"""
from __future__ import annotations

import re

from . import unicode_tables as hf_unicode
from .text import LETTER, NUMBER, WHITE_SPACE, CodeTable, RangeSet, category

# Oniguruma's classes in the `tokenizers` build (its Unicode version, not Python's).
_ONIG = {
    "cat:L": LETTER,
    "cat:N": NUMBER,
    "word": RangeSet(hf_unicode.ONIG_WORD),
    "space": RangeSet(hf_unicode.ONIG_SPACE),
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
    if name in _ONIG:
        table = _ONIG[name]
        return lambda ch: ch in table
    # the library's categories (hf_text.category), not the running Python's
    if name == "digit":
        return lambda ch: category(ch) == "Nd"
    if name.startswith("cat:"):
        cat = name[4:]
        return lambda ch: category(ch).startswith(cat)
    if name.startswith("range:"):
        lo, hi = name[6], name[8]
        return lambda ch: lo <= ch <= hi
    raise AssertionError(name)


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
        props = sorted(parser.props)
        fns = [_prop_fn(p) for p in props]
        samples = []  # (code char, literal or None, property dict)
        for lit in sorted(parser.literals):
            samples.append((chr(0xE000 + len(samples)), lit, {p: f(lit) for p, f in zip(props, fns)}))
        self._samples = samples
        code_of_literal = {lit: code for code, lit, _ in samples}
        self._newline = code_of_literal.get("\n")
        code_of_bits: dict[tuple[bool, ...], str] = {}

        def classify(ch: str) -> str:
            code = code_of_literal.get(ch)
            if code is not None:
                return code
            bits = tuple(f(ch) for f in fns)
            code = code_of_bits.get(bits)
            if code is None:
                code = code_of_bits[bits] = chr(0xE000 + len(samples))
                samples.append((code, None, dict(zip(props, bits))))
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


# -- how a pattern treats a cut before a space -------------------------------------


class _Classes:
    """What the character classes of a pattern take: a given character, or some character
    that may end the text before a cut: a letter, number or ASCII symbol, one of `ends`
    (what earlier steps may have made of one), or any when ends is None."""

    def __init__(self, parser: _Parser, ends):
        self.parser = parser
        self.ends = ends
        self.props = sorted(parser.props)
        self.fns = [_prop_fn(p) for p in self.props]

    def takes(self, matcher, ch: str) -> bool:
        return matcher(ch if ch in self.parser.literals else None, {p: f(ch) for p, f in zip(self.props, self.fns)})

    def takes_a_head(self, matcher) -> bool:
        # Every class such a character may have: the pattern's literals and each
        # combination of its properties.
        anything = self.ends is None
        if not anything and any(self.takes(matcher, ch) for ch in self.ends):
            return True
        for lit in self.parser.literals:
            if (anything or lit not in WHITE_SPACE) and self.takes(matcher, lit):
                return True
        for bits in range(1 << len(self.props)):
            values = {p: bool(bits >> i & 1) for i, p in enumerate(self.props)}
            if not anything and values.get("space"):
                continue
            if matcher(None, values):
                return True
        return False


def _parsed(pattern: str):
    parser = _Parser(pattern)
    try:
        tree = parser.parse()
    except RegexUnsupported:
        return None, None
    return (parser, tree) if len(parser.props) <= 12 else (None, None)


def takes_a_head(pattern: str, ends) -> bool:
    """Whether a match may take the character before a cut (see cut_before)."""
    parser, tree = _parsed(pattern)
    if parser is None:
        return True
    classes = _Classes(parser, ends)
    return any(classes.takes_a_head(m) for m in _matchers(tree))


def _matchers(node):
    kind = node[0]
    if kind == "char":
        yield node[1]
    elif kind in ("alt", "seq"):
        for n in node[1]:
            yield from _matchers(n)
    elif kind == "group":
        yield from _matchers(node[2])
    elif kind == "quant":
        yield from _matchers(node[1])


def cut_before(pattern: str, c: str, ends) -> str | None:
    """How the pattern's leftmost matches treat a cut before the character c, in a
    text whose character before the cut is a letter, number or ASCII symbol, or one
    of the characters `ends` (any character when ends is None). "blind": no match holds or looks at c; "apart": no match holds or
    looks at both sides, so the matches of the whole are those of the two sides;
    "starts": that, and a match always starts at c; None: a match may cross the cut
    (or the pattern may match empty, or has an anchor).

    A match crosses the cut only by taking c right after the character before it:
    the pattern's Glushkov automaton (which character positions may follow which)
    says whether any position that takes a possible character before the cut may be
    followed by one that takes c, or by a lookahead that looks at c."""
    parser, tree = _parsed(pattern)
    if parser is None:
        return None
    classes = _Classes(parser, ends)
    takes, takes_a_head = classes.takes, classes.takes_a_head

    chars: list = []  # position -> matcher (None for a lookahead)
    looks: dict[int, set[int]] = {}  # lookahead position -> the positions it may look at first
    follow: dict[int, set[int]] = {}

    def walk(node):
        """(nullable, first positions, last positions); fills follow. None: an anchor."""
        kind = node[0]
        if kind == "char":
            chars.append(node[1])
            pos = len(chars) - 1
            follow[pos] = set()
            return False, {pos}, {pos}
        if kind == "anchor":
            raise _Anchor
        if kind == "alt":
            results = [walk(b) for b in node[1]]
            return any(r[0] for r in results), set().union(*(r[1] for r in results)), set().union(*(r[2] for r in results))
        if kind == "seq":
            nullable, first, last = True, set(), set()
            for item in node[1]:
                n, f, l = walk(item)
                for p in last:
                    follow[p] |= f
                if nullable:
                    first |= f
                last = last | l if n else l
                nullable = nullable and n
            return nullable, first, last
        if kind == "group":
            if node[1] == ":":
                return walk(node[2])
            _, inner_first, _ = walk(node[2])
            chars.append(None)
            pos = len(chars) - 1
            follow[pos] = set()
            looks[pos] = inner_first
            return True, {pos}, {pos}
        if kind == "quant":
            n, f, l = walk(node[1])
            low, high = _bounds(node[2])
            if high == 0:
                return True, set(), set()
            if high > 1:
                for p in l:
                    follow[p] |= f
            return n or low == 0, f, l
        raise AssertionError(kind)

    try:
        nullable, _, _ = walk(tree)
    except _Anchor:
        return None
    if nullable:
        return None

    def looks_at(positions: set[int], seen: set[int]) -> bool:
        """Whether any of these positions (a lookahead's, through its own) may take c."""
        for p in positions:
            if chars[p] is not None:
                if takes(chars[p], c):
                    return True
            elif p not in seen and looks_at(looks[p], seen | {p}):
                return True
        return False

    if not any(m is not None and takes(m, c) for m in chars):
        return "blind"
    for p, matcher in enumerate(chars):
        if matcher is not None and takes_a_head(matcher) and looks_at(follow[p], set()):
            return None
    # A match always starts at c: some branch is one class that takes c (one or more
    # times), and nothing after it but what may match empty without looking ahead.
    for branch in tree[1]:
        items = branch[1]
        if items and _one_or_more_of(items[0], lambda m: takes(m, c)) and all(_plain_empty(i) for i in items[1:]):
            return "starts"
    return "apart"


class _Anchor(Exception):
    pass


def _bounds(q: str) -> tuple[float, float]:
    q = q.rstrip("?+") or q[:1]  # (a lazy or possessive mark takes no other paths)
    if q == "?":
        return 0, 1
    if q == "*":
        return 0, float("inf")
    if q == "+":
        return 1, float("inf")
    low, _, high = q[1:-1].partition(",")
    if not _:
        return int(low), int(low)
    return int(low), float(high) if high else float("inf")


def _one_or_more_of(node, takes_c) -> bool:
    if node[0] == "char":
        return takes_c(node[1])
    if node[0] == "quant" and node[1][0] == "char":
        low, high = _bounds(node[2])
        return low <= 1 <= high and takes_c(node[1][1])
    return False


def _plain_empty(node) -> bool:
    """The node may match empty, and has no lookahead or anchor."""
    kind = node[0]
    if kind == "quant":
        return _bounds(node[2])[0] == 0 and _no_look(node[1])
    if kind == "group" and node[1] == ":":
        return any(all(_plain_empty(i) for i in b[1]) for b in node[2][1]) and _no_look(node[2])
    return False


def _no_look(node) -> bool:
    kind = node[0]
    if kind in ("char",):
        return True
    if kind == "anchor":
        return False
    if kind == "group":
        return node[1] == ":" and _no_look(node[2])
    if kind == "quant":
        return _no_look(node[1])
    return all(_no_look(n) for n in node[1])
