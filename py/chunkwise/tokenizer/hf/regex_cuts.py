"""How a tokenizer.json pattern (a Split's, a Replace's, ByteLevel's) treats a cut
before a space: whether its matches may take the character before the cut
(takes_a_head) or reach across it (cut_before), read from the pattern's tree
(regex.py's parser) as a Glushkov automaton. cuts_at_spaces asks, step by step."""
from __future__ import annotations

from .regex import Properties, RegexUnsupported, _Parser
from .text import WHITE_SPACE


class _Classes:
    """What the character classes of a pattern take: a given character, or some character
    that may end the text before a cut: a letter, number or ASCII symbol, one of `ends`
    (what earlier steps may have made of one), or any when ends is None."""

    def __init__(self, parser: _Parser, ends):
        self.parser = parser
        self.ends = ends
        self.properties = Properties(parser.props)

    def takes(self, matcher, ch: str) -> bool:
        return matcher(ch if ch in self.parser.literals else None, self.properties.of(ch))

    def takes_a_head(self, matcher) -> bool:
        # Every class such a character may have: the pattern's literals and each
        # combination of its properties.
        anything = self.ends is None
        if not anything and any(self.takes(matcher, ch) for ch in self.ends):
            return True
        for lit in self.parser.literals:
            if (anything or lit not in WHITE_SPACE) and self.takes(matcher, lit):
                return True
        for bits in range(1 << len(self.properties.names)):
            values = {p: bool(bits >> i & 1) for i, p in enumerate(self.properties.names)}
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
