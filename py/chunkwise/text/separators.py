"""Where a person would cut: finds the candidate cuts of each level in a window.

A cut is an offset in the source. The chunk before it ends there (trailing
whitespace dropped) and the next one starts there (leading whitespace dropped),
so a cut may sit anywhere in the whitespace between two pieces of text.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from .markdown import Outline
from ..types import HEADING, LINE, PARAGRAPH, PHRASE, ROW, SENTENCE, WORD
from ..unicode.classes import is_alnum, is_decimal, is_letter, is_lower, is_upper
from ..unicode.whitespace import CHARS as _SPACES
from ..unicode.whitespace import CLASS as _S
from ..unicode.whitespace import HORIZONTAL as _HS
from ..unicode.whitespace import NONSPACE as _NONSPACE
from ..unicode.whitespace import SPACE_RUN as _WHITESPACE
from ..unicode.whitespace import next_space, skip_space, trim_end  # noqa: F401  (the engine's imports)

_CLOSERS = "\"'”’»›)\\]}"
_CJK_CLOSERS = "」』”’）】》〉\"'"
# Both patterns below open with one character class naming every possible first
# character: only then does Python's re skip ahead to candidates quickly (7 ns a
# character, against 50-70 for an alternation of classes). The alternatives then
# look back at that first character.
#
# Whitespace is the tokenizer's (unicode/whitespace.py), never re's \s or str.isspace();
# letters and digits are the pinned tables' (unicode/classes.py), never re's \w or
# str.islower(), which follow the running Python's Unicode version.
#
# Sentence ends: . ! ? … (and Arabic, Devanagari) before whitespace, closing quotes
# and brackets included; the full-width terminators need no space after them.
_TERMINATORS = ".!?…‽؟।॥۔。！？｡"
# A run of terminators with no whitespace after it is no sentence end, yet re tries a
# match from each of them: unbounded, each try scanned the rest of the run (40,000
# periods took 25 s). A try reads at most _MORE_TERMINATORS more, possessively (giving
# some back never helps: what follows would be one of them); a longer run still ends a
# sentence, found from a later terminator of it, at the same cut. The closers after
# them are read whole (possessively): only the last tries of a run reach them.
_MORE_TERMINATORS = 32
_SENTENCE_REST = (
    rf"(?<=[.!?…‽])[.!?…‽]{{0,{_MORE_TERMINATORS}}}+[{_CLOSERS}]*+(?=[{_S}])"
    rf"|(?<=[؟।॥۔])[؟।॥۔]{{0,{_MORE_TERMINATORS}}}+[{_CLOSERS}]*+(?=[{_S}])|(?<=[。！？｡])[。！？｡]*[{_CJK_CLOSERS}]*"
)
_SENTENCE = re.compile(rf"[{_TERMINATORS}](?:{_SENTENCE_REST})")
# Phrase breaks: , ; : before whitespace, spaced dashes, unspaced em/en dashes
# between words (is_phrase_break checks the words), and the full-width comma,
# enumeration comma, semicolon, colon.
_PHRASE = re.compile(
    rf"[,;:—–\-，、；：](?:(?<=[,;:])(?=[{_S}])|(?<=[^{_S}][ \t][—–-])[—–-]?(?=[ \t])|(?<=[—–])(?=[^{_S}])|(?<=[，、；：]))"
)
_PARAGRAPH = re.compile(rf"\n[{_HS}\r]*\n")
# Line breaks and sentence ends in one scan, where an overlap may start (unit_starts);
# one class of every first character opens it, as above.
_LINE_OR_SENTENCE = re.compile(rf"[\n{_TERMINATORS}](?:(?<=\n)|{_SENTENCE_REST})")

# Common abbreviations that end in a period but rarely end a sentence.
ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st mt gen col lt sgt capt rev hon vs cf al fig figs "
    "no nos vol pp approx dept est ca resp".split()
)

_LINES_AND_SENTENCES = {PARAGRAPH, LINE, SENTENCE}
_WINDOWS = (256, 2048)  # search a short window first: cuts are usually close
_MATCH_BATCH = 1024  # matches held at once while looking for the last cut


def _first_of(a: int | None, b: int | None) -> int | None:
    return a if a is not None else b


def _word_before(text: str, i: int) -> str:
    j = i
    while j > 0 and text[j - 1] not in _SPACES:
        j -= 1
    return text[j:i].lstrip("([{\"'“‘«")


def is_sentence_end(text: str, m: re.Match) -> bool:
    """Reject periods that do not end a sentence: abbreviations, initials,
    numbered-list markers, and any terminator followed by a lowercase word."""
    first = text[m.start()]
    if first not in ".!?…‽":
        return True
    after = _NONSPACE.search(text, m.end())
    if after and is_lower(text[after.start()]):
        return False
    if text[m.start() : m.end()].rstrip(_CLOSERS) != ".":
        return True
    word = _word_before(text, m.start())
    if not word:
        return True
    if word.lower() in ABBREVIATIONS or ("." in word and _is_dotted(word)):
        return False
    if len(word) == 1 and is_upper(word):
        return False  # an initial: "J. R. R. Tolkien"
    if len(word) <= 3 and all(map(is_decimal, word)):  # what \d{1,3} matches
        j = m.start() - len(word)
        while j > 0 and text[j - 1] in " \t":
            j -= 1
        if j == 0 or text[j - 1] == "\n":
            return False  # "1. First step" at the start of a line
    return True


def _is_dotted(word: str) -> bool:
    """Single letters joined by periods: e.g  i.e  U.S  a.m  z.B (no regex: a class
    of every letter in the pinned tables takes re tens of milliseconds to compile)."""
    return all(len(part) == 1 and is_letter(part) for part in word.split("."))


def is_phrase_break(text: str, m: re.Match) -> bool:
    """An unspaced em or en dash (one followed by text) is a phrase break only
    between two words ("word—word"); every other match is one."""
    i = m.start()
    if m.end() - i != 1 or text[i] not in "—–" or m.end() == len(text) or text[m.end()] in _SPACES:
        return True
    return i > 0 and _is_word(text[i - 1]) and _is_word(text[m.end()])


def _is_word(ch: str) -> bool:
    """re's \\w, by the pinned tables: a letter, a number or the underscore."""
    return ch == "_" or is_alnum(ch)


# Hard-wrapped text (licences, RFCs, man pages, e-mail, text from PDFs) breaks its
# sentences at a width: such a line break is a soft wrap, no better a cut than a space.
_WRAP_WIDTH = 40  # an indented continuation counts after a line this long (it ran into the width)
_WRAP_SHARE = 0.8  # ...and at least this share of the next line's length
_INDENT_READ = 24  # how far past the next line's indentation is looked for its first character
_HYPHENS = "-\u2010\u00ad"  # a word broken at the line end: "informa-" "tion"
# what may open a continued line besides a letter or digit: a bracket, a quote, and Markdown's
# code span or link ("...listening on the requested\n`port`/`path`/`handle`")
_CONTINUATION_OPENERS = "([\"'“`"
_LOOK_AHEAD = 2  # lines a paragraph's first line looks down for its lowercase continuation


def is_soft_wrap(text: str, i: int, behind: bool = True, ahead: int = _LOOK_AHEAD) -> bool:
    """Is the line break at i a soft wrap inside a hard-wrapped sentence ("...other
    domains, we\nwish to")? The line before ends inside a sentence (a letter, a digit, a
    comma, or a hyphen after a letter) and the next line continues it:
    - with a lowercase letter, right at its start, or past an indentation after a line
      that ran into the width (licences indent their continuation lines; an indented
      line after a short one is a list's, a log's or code's);
    - with a capital, a digit, a bracket, a quote or a code span ("Corresponding\n
      Source"), after a line that ran into the width, inside a hard-wrapped paragraph
      (where logs and lists never are): the line before continued into this one in
      lowercase, or, for a paragraph's first line, which has no line before it to ask,
      the next line is itself continued so (a continuation's: see _continues_below)
      ("copies of the\n      Work or Derivative Works thereof in any medium, with or
      without\n      modifications"), in lowercase or, up to `ahead` lines deep, by
      another such capital ("If the\nProgram specifies ... the GNU General\nPublic
      License "or any later version" applies to it, you have the\noption").
    `behind` and `ahead` say how far around a capital may look (is_soft_wrap asks
    itself about the breaks around with less: a capital there never looks back)."""
    n = len(text)
    if not 0 < i < n - 1:
        return False
    end = i - 1 if text[i - 1] == "\r" else i  # (a CRLF line's break is its "\r\n")
    if end == 0:
        return False
    last = text[end - 1]
    if last == "," or is_alnum(last):
        broken_word = False
    elif last in _HYPHENS and end > 1 and is_letter(text[end - 2]):
        broken_word = True
    else:
        return False
    first = text[i + 1]
    if is_lower(first):
        # a short line that ends in a word or figure is a row of a table or list
        # ("research and development $3,027" "sales and marketing ..."): no wrap
        return broken_word or _line_length(text, end) >= _WRAP_WIDTH
    j = i + 1
    lower = False  # (the line's first character is not: asked above)
    if first in " \t":
        j = _text_start(text, i)
        if j >= min(n, i + 1 + _INDENT_READ):
            return False
        first = text[j]
        lower = is_lower(first)
    if not lower and not ((behind or ahead) and (is_alnum(first) or first in _CONTINUATION_OPENERS)):
        return False
    if text.startswith("```", j):  # a fence line is no continuation
        return False
    if not lower:  # (the cheaper tests first: most lines of a log or a list fail them)
        before = text.rfind("\n", max(0, end - 8 * _WRAP_WIDTH), end)  # (-1: the first line, or one too long to be wrapped)
        continued = (behind and before != -1 and _lowercase_below(text, before, 1)
                     and is_soft_wrap(text, before, False, 0))
        if not continued and not (ahead and (before != -1 or end <= 8 * _WRAP_WIDTH)
                                  and _continues_below(text, before + 1, end, j, ahead)):
            return False
    next_end = text.find("\n", j, j + 8 * _WRAP_WIDTH)
    next_length = _columns(text, j, n if next_end == -1 else next_end)
    return _line_length(text, end) >= max(_WRAP_WIDTH, _WRAP_SHARE * next_length)


def _continues_below(text: str, line_start: int, end: int, j: int, ahead: int) -> bool:
    """Is the line at j the next line of a paragraph whose line spans line_start..end, and
    does it go on in lowercase, or with such a capital up to `ahead` lines deep? It is
    indented as a continuation, it is no list item, and its first word could not have
    fitted on the line before (one that could was put on a new line on purpose: after a
    title, a record, a list item)."""
    next_end = text.find("\n", j, j + 8 * _WRAP_WIDTH)
    if next_end == -1 or not _lowercase_below(text, next_end, ahead):
        return False
    next_start = text.rfind("\n", 0, j) + 1
    if _LIST_MARKER.match(text, next_start) or not _hangs_from(text, line_start, j - next_start):
        return False
    if not _hangs_from(text, next_start, _text_start(text, next_end) - next_end - 1):
        return False  # the line after it hangs from it too (not "\tat com.example..." under a message)
    word_end = next_space(text, j, next_end) or next_end
    line, next_line = _columns(text, line_start, end), _columns(text, next_start, next_end)
    if line + 1 + _columns(text, j, word_end) <= max(line, next_line):
        return False
    return is_soft_wrap(text, next_end, False, ahead - 1)


def _lowercase_below(text: str, i: int, lines: int) -> bool:
    """Does one of the `lines` lines after the break at i start in lowercase (past an
    indentation is_soft_wrap reads)? The quick test before asking whether they continue
    a paragraph: the lines of a log or a list seldom do."""
    while True:
        head = _MAYBE_LOWER_LINE.match(text, i)
        if head is not None and is_lower(text[head.end()]):
            return True
        lines -= 1
        if not lines:
            return False
        j = _text_start(text, i)
        i = text.find("\n", j, j + 8 * _WRAP_WIDTH)
        if i == -1:
            return False


_INDENT = re.compile(f"[ \t]{{0,{_INDENT_READ}}}")  # (read no further: see _text_start)
# A line break and an indentation is_soft_wrap reads past, before a character that may be
# lowercase: an ASCII lowercase letter, or any character outside ASCII (is_lower decides)
_MAYBE_LOWER_LINE = re.compile(f"\n[ \t]{{0,{_INDENT_READ - 1}}}(?=[a-z\x80-\U0010ffff])")


def _text_start(text: str, i: int) -> int:
    """Where the text of the line after the break at i starts: past its spaces and tabs,
    looked for at most _INDENT_READ far (i + 1 + _INDENT_READ: none found)."""
    return _INDENT.match(text, i + 1).end()


# A list item's marker: its continuation lines are indented to the text after it
# ("   4. Redistribution. You may...", "    c) You must...", "  - item", "[1] Smith, J.")
_LIST_MARKER = re.compile(r"[ \t]*(?:\(?[0-9A-Za-z]{1,3}[.)]|\[[0-9]{1,3}\]|[-*•])[ \t]+")


def _hangs_from(text: str, line_start: int, indent: int) -> bool:
    """Could a line indented by `indent` continue the line at line_start: is it indented
    no deeper than that line, or as deep as the text after its list marker? (Deeper
    is a definition's body under its term: "--assume-new=FILE\n        Pretend that...")"""
    if not text[line_start : line_start + indent].strip(" \t"):
        return True
    marker = _LIST_MARKER.match(text, line_start)
    return marker is not None and marker.end() - line_start == indent


def _line_length(text: str, end: int) -> int:
    """The columns of the line that ends at end, past its indentation (looked back at
    most 8 widths: a longer line ran into the width whatever its start)."""
    k = text.rfind("\n", max(0, end - 8 * _WRAP_WIDTH), end) + 1
    while k < end and text[k] in " \t":
        k += 1
    return _columns(text, k, end)


# East Asian wide characters take two columns of the width a text was wrapped at
# (the blocks of Markus Kuhn's wcwidth: Hangul, CJK, kana, fullwidth forms)
_WIDE = re.compile("[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf"
                   "\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\U00020000-\U0003fffd]")


def _columns(text: str, start: int, end: int) -> int:
    if text[start:end].isascii():  # (most lines: a sixth of the time of the search)
        return end - start
    return end - start + len(_WIDE.findall(text, start, end))


# The levels found by a pattern: (pattern, cut at the match's end?, check).
_REGEX_LEVELS = {
    PARAGRAPH: (_PARAGRAPH, False, None),
    SENTENCE: (_SENTENCE, True, is_sentence_end),
    PHRASE: (_PHRASE, True, is_phrase_break),
    WORD: (_WHITESPACE, False, None),
}


class Separators:
    """Candidate cuts of every level, found lazily in the window the packer asks about."""

    # Whether last() wants the fill offset (the packer computes it only then).
    uses_fill = False

    def __init__(self, text: str, outline: Outline):
        self.text = text
        self.outline = outline
        self.n = len(text)
        # The whitespace right inside each fence line, ends included: a cut there would
        # leave a chunk ending with a lone opening fence, or the next one starting with
        # a lone closing fence. ([lo, hi] pairs in order; none in most documents.)
        self._fence_edges: list[tuple[int, int]] = []
        for f in getattr(outline, "fences", ()):
            closed = f.end > f.body_end
            opening_end = trim_end(text, f.start, f.body)
            first, last = skip_space(text, f.body), trim_end(text, f.body, f.body_end)
            if first >= f.body_end:  # a blank body: no cut between the fences
                self._fence_edges.append((opening_end, f.body_end + 1 if closed else self.n))
                continue
            self._fence_edges.append((opening_end, first))
            if closed:
                self._fence_edges.append((last, f.body_end + 1))
        self._edge_starts = [lo for lo, _ in self._fence_edges]
        self.tables = getattr(outline, "tables", None)  # (text/tables.py; code has none)
        self._present: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._cuts_somewhere: dict[int, bool] = {}

    def present(self, levels: tuple[int, ...]) -> tuple[int, ...]:
        """Those of these levels that may have a cut somewhere in the text: a window
        need not be searched for a level the whole text lacks (most texts have no
        heading or table, a log no blank line)."""
        found = self._present.get(levels)
        if found is None:
            known = self._cuts_somewhere
            for level in levels:
                if level not in known:
                    known[level] = self._may_cut(level)
            found = self._present[levels] = tuple(level for level in levels if known[level])
        return found

    def _may_cut(self, level: int) -> bool:
        if level == HEADING:
            return bool(self.outline.starts)
        if level == ROW:
            return bool(self.tables) and bool(self.tables.row_ends)
        if level == PARAGRAPH:  # (a match in any window is a match in the text)
            return _PARAGRAPH.search(self.text) is not None
        if level == LINE:
            return "\n" in self.text
        return True

    def _edge_at(self, cut: int) -> tuple[int, int] | None:
        """The fence edge that holds cut, if any."""
        i = bisect_right(self._edge_starts, cut) - 1
        return self._fence_edges[i] if i >= 0 and cut <= self._fence_edges[i][1] else None

    def chunk_start(self, cut: int) -> int:
        """Where the chunk after a cut starts: past the whitespace."""
        return skip_space(self.text, cut)

    def level_of(self, cut: int, level: int) -> int:
        """The level a cut found at `level` is reported as (its chunk's boundary)."""
        return level

    def is_weak(self, cut: int) -> bool:
        """A cut inside a table row, or in code inside a string, a comment or a line
        (fenced code): taken only when no other cut is in reach."""
        return bool(self.tables) and self.tables.inside_row(cut)

    def has_code(self, lo: int, hi: int) -> bool:
        """Does fenced code meet [lo, hi]? (Its cuts follow the code ladder.) Prose has none."""
        return False

    def _regex_matches(self, pattern: re.Pattern, lo: int, hi: int, use_end: bool):
        # Scan no further than the matches that can cut at or before hi need: a cut
        # at a match's end, the one character its lookahead reads; a cut at a
        # match's start (a run of whitespace), the rest of that run.
        stop = hi + 1 if use_end else skip_space(self.text, hi)
        return pattern.finditer(self.text, max(0, lo - 8), min(self.n, stop))

    # Each finder yields cut offsets in [lo, hi], in order.
    def _regex_cuts(self, pattern: re.Pattern, lo: int, hi: int, use_end: bool, check=None):
        text = self.text
        for m in self._regex_matches(pattern, lo, hi, use_end):
            cut = m.end() if use_end else m.start()
            if cut > hi:
                break
            if cut >= lo and (check is None or check(text, m)):
                yield cut

    def _last_regex_cut(self, level: int, lo: int, hi: int) -> int | None:
        """The last cut of a regex level in [lo, hi]: matches are checked from the
        end, so a window with many sentence ends checks only the last ones. They are
        held _MATCH_BATCH at a time: a window of megabytes of blank lines has
        millions of matches (a list of them took 260 MB)."""
        pattern, use_end, check = _REGEX_LEVELS[level]
        text = self.text

        def last_in(batch: list) -> int | None:
            for m in reversed(batch):
                cut = m.end() if use_end else m.start()
                if cut < lo:
                    return None
                if cut <= hi and (check is None or check(text, m)):
                    return cut
            return None

        found, batch = None, []
        for m in self._regex_matches(pattern, lo, hi, use_end):
            batch.append(m)
            if len(batch) == _MATCH_BATCH:  # the last cut of these, unless a later batch has one
                found = _first_of(last_in(batch), found)
                batch = []
        return _first_of(last_in(batch), found)

    def cuts(self, level: int, lo: int, hi: int):
        found = self._cuts(level, lo, hi)
        return (c for c in found if self._edge_at(c) is None) if self._fence_edges else found

    def _cuts(self, level: int, lo: int, hi: int):
        if level == HEADING:
            starts = self.outline.starts
            i, j = bisect_left(starts, max(lo, 1)), bisect_right(starts, hi)
            return iter(starts[i:j])
        if level == LINE:
            return self._line_cuts(lo, hi)
        if level == ROW:
            ends = self.tables.row_ends if self.tables else []
            return iter(ends[bisect_left(ends, lo) : bisect_right(ends, hi)])
        if level in _REGEX_LEVELS:
            pattern, use_end, check = _REGEX_LEVELS[level]
            return self._regex_cuts(pattern, lo, hi, use_end, check)
        raise ValueError(level)

    def first(self, level: int, lo: int, hi: int) -> int | None:
        """The first cut of this level in [lo, hi], or None."""
        return next(iter(self.cuts(level, lo, hi)), None)

    def _line_cuts(self, lo: int, hi: int):
        text = self.text
        i = text.find("\n", lo, hi + 1)
        while i != -1:
            if not is_soft_wrap(text, i):
                yield i
            i = text.find("\n", i + 1, hi + 1)

    def last(self, level: int, lo: int, hi: int, fill: int | None = None) -> int | None:
        """The last cut of this level in [lo, hi], or None. (`fill`, where a cut
        starts to be worth taking, matters only to a subclass with uses_fill.)"""
        cut = self._last(level, lo, hi)
        while cut is not None and self._fence_edges and (edge := self._edge_at(cut)) is not None:
            cut = self._last(level, lo, edge[0] - 1)
        return cut

    def _last(self, level: int, lo: int, hi: int) -> int | None:
        if hi < lo:
            return None
        if level == LINE:
            i = self.text.rfind("\n", lo, hi + 1)
            while i != -1 and is_soft_wrap(self.text, i):
                i = self.text.rfind("\n", lo, i)
            return i if i != -1 else None
        if level == HEADING:
            starts = self.outline.starts
            i = bisect_right(starts, hi) - 1
            return starts[i] if i >= 0 and starts[i] >= max(lo, 1) else None
        if level == ROW:
            ends = self.tables.row_ends if self.tables else []
            i = bisect_right(ends, hi) - 1
            return ends[i] if i >= 0 and ends[i] >= lo else None
        # Look near hi first; most windows have a cut close to their end.
        for width in _WINDOWS:
            start = max(lo, hi - width)
            found = self._last_regex_cut(level, start, hi)
            if found is not None or start == lo:
                return found
        return self._last_regex_cut(level, lo, hi)

    def unit_starts(self, levels: tuple[int, ...], lo: int, hi: int, chunk_start) -> list[int]:
        """Where the units after the cuts of these levels in [lo, hi] start (where an
        overlap may start), in order, each once: chunk_start (the document's) of each
        cut. Line breaks, with sentence ends or not, are found in one scan (a paragraph
        break is a line break too), and their units start past the whitespace: the
        document's chunk_start wherever these separators are prose."""
        starts = self._unit_starts(levels, lo, hi, chunk_start)
        if self.tables:  # a unit inside a table starts where its row starts
            inside = self.tables.inside_row
            starts = [s for s in starts if not inside(s)]
        return starts

    def _unit_starts(self, levels: tuple[int, ...], lo: int, hi: int, chunk_start) -> list[int]:
        if LINE not in levels or not set(levels) <= _LINES_AND_SENTENCES:
            return self._starts_of_cuts(levels, lo, hi, chunk_start)
        cuts = self._line_and_sentence_cuts(lo, hi) if SENTENCE in levels else self._line_cuts(lo, hi)
        if self._fence_edges:
            cuts = (c for c in cuts if self._edge_at(c) is None)
        text, starts, last = self.text, [], -1
        for cut in cuts:
            start = skip_space(text, cut)
            if start != last:  # the cuts come in order: so do their starts
                starts.append(start)
                last = start
        return starts

    def _starts_of_cuts(self, levels: tuple[int, ...], lo: int, hi: int, chunk_start) -> list[int]:
        return sorted({chunk_start(cut) for level in levels for cut in self.cuts(level, lo, hi)})

    def _line_and_sentence_cuts(self, lo: int, hi: int):
        """cuts(LINE) and cuts(SENTENCE) merged, in order: one scan for both."""
        text = self.text
        for m in _LINE_OR_SENTENCE.finditer(text, max(0, lo - 8), min(self.n, hi + 1)):
            i = m.start()
            if text[i] == "\n":
                if i >= lo and not is_soft_wrap(text, i):
                    yield i
            elif lo <= m.end() <= hi and is_sentence_end(text, m):
                yield m.end()

    def is_unit_start(self, i: int, levels) -> bool:
        """Does a unit of one of these levels (a sentence, a line...) start at i: is i
        the first text after the whitespace that follows one of their cuts? The
        text's first character starts every unit."""
        j = trim_end(self.text, 0, i)
        return j == 0 or any(self.chunk_start(cut) == i for level in levels for cut in self.cuts(level, j, i))
