"""Where the topic shifts: lexical cohesion across a candidate cut (TextTiling-style).

The topics strategy weighs each cut it could take by the strength of its boundary
and by how little the words just before it share with the words just after it
(cosine of their word counts, stop words left out): a cut between two paragraphs about
different things beats one inside a passage about one thing. Plain Python, no
model: the page runs it too. The weights were chosen with the retrieval benchmark
(bench/retrieval.py; the README has the numbers).

Cost: the document's content words are found once (one regex pass, kept by the
Document); the shifts at a chunk's candidate cuts are then computed in one sweep
of two sliding windows whose word counts, dot product and norms are updated word
by word, so a chunk costs time in proportion to its length plus 2 * WINDOW, not
to the number of candidates times the window.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter
from functools import cached_property

from ..unicode import classes
from ..types import HEADING, LINE, PARAGRAPH, ROW, SENTENCE

# The levels a topic cut may fall at, and how much each is worth on its own.
STRENGTH = {HEADING: 1.0, PARAGRAPH: 0.6, ROW: 0.5, LINE: 0.5, SENTENCE: 0.3}
LEVELS = tuple(STRENGTH)
SHIFT_WEIGHT = 1.0  # against STRENGTH: a full topic shift is worth this much
WINDOW = 400  # characters compared on each side of a cut

_WORD = re.compile(r"\w{3,}")
STOP_WORDS = frozenset(
    "the and for that with this from are was were have has had not but you your our they their them his her its"
    " which who what when will would can could been being into than then there these those also more most such"
    " some any all one two may might must should about over only other after before under between while where".split()
)


class Cohesion:
    """The content words of a text (3+ word characters by the pinned Unicode tables,
    lowercased, no stop words), found once: their start offsets and a small integer
    per distinct word."""

    def __init__(self, text: str):
        self.text = text

    @cached_property
    def _words(self) -> tuple[list[int], list[int]]:
        ids: dict[str, int] = {}
        starts, seq = [], []
        text = self.text
        for m in _WORD.finditer(classes.as_known(text)):  # \w by the pinned tables
            word = text[m.start() : m.end()].lower()
            if word not in STOP_WORDS:
                starts.append(m.start())
                seq.append(ids.setdefault(word, len(ids)))
        return starts, seq

    def shifts(self, since: int, cuts: list[int]) -> list[float]:
        """The topic shift at each cut (ascending) of a chunk that starts at `since`:
        1 - the cosine of the counts of the words that start in the WINDOW characters
        before the cut (not before `since`) and of those in the WINDOW after it. 1
        when the two sides share no word (or one has none), 0 when alike."""
        starts, seq = self._words
        left: dict[int, int] = {}
        right: dict[int, int] = {}
        dot = left_sq = right_sq = 0  # exact integers: the same result however it is reached
        lo = mid = hi = bisect_left(starts, max(since, cuts[0] - WINDOW)) if cuts else 0
        n = len(starts)  # word indexes: the left window is [lo, mid), the right one [mid, hi)
        out = []
        for cut in cuts:
            end = cut + WINDOW
            while hi < n and starts[hi] < end:  # enters the right window
                w = seq[hi]
                r = right.get(w, 0)
                dot += left.get(w, 0)
                right_sq += 2 * r + 1
                right[w] = r + 1
                hi += 1
            while mid < hi and starts[mid] < cut:  # passes from the right window to the left
                w = seq[mid]
                r = right[w] - 1
                right[w] = r
                right_sq -= 2 * r + 1
                l = left.get(w, 0)
                dot += r - l  # R[w] fell by one (dot - L[w]); L[w] rose by one (dot + R[w])
                left_sq += 2 * l + 1
                left[w] = l + 1
                mid += 1
            floor = max(since, cut - WINDOW)
            while lo < mid and starts[lo] < floor:  # leaves the left window
                w = seq[lo]
                l = left[w] - 1
                left[w] = l
                left_sq -= 2 * l + 1
                dot -= right.get(w, 0)
                lo += 1
            out.append(1.0 - dot / math.sqrt(left_sq * right_sq) if dot else 1.0)
        return out

    def shift(self, cut: int, since: int = 0) -> float:
        """The topic shift at one cut (see shifts)."""
        return self.shifts(since, [cut])[0]


def cosine(a: Counter, b: Counter) -> float:
    """The cosine of two word counts (0 when either is empty): the reference the sweep in shifts() matches."""
    if not a or not b:
        return 0.0
    dot = sum(n * b[w] for w, n in a.items() if w in b)
    return dot / math.sqrt(sum(n * n for n in a.values()) * sum(n * n for n in b.values()))


def best_cut(cohesion: Cohesion, a: int, candidates: list[tuple[int, int]]) -> tuple[int, int]:
    """The (cut, level) with the highest STRENGTH + SHIFT_WEIGHT * shift for a chunk
    starting at a; the first such (in cut order, then level) on a tie."""
    candidates = sorted(candidates)
    shifts = cohesion.shifts(a, [cut for cut, _ in candidates])
    best = max(range(len(candidates)), key=lambda i: STRENGTH[candidates[i][1]] + SHIFT_WEIGHT * shifts[i])
    return candidates[best]
