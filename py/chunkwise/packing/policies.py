"""One small policy per kind of strategy (packing/strategies.py names the kinds): how a
chunk's cut is picked in its window, from the packer's candidate finders.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..text.separators import skip_space, trim_end
from .cuts import Candidate
from ..types import LINE, PARAGRAPH, ROW
from .strategies import BALANCED_LEVELS, CODE, END, FARTHEST, SECTIONS, STRUCTURE, TOPICS, WINDOWS, Balance, Strategy

if TYPE_CHECKING:
    from .cuts import Window
    from .packer import ChunkJob


class StructureFirst:
    """smart: the strongest break, nearest two-thirds of the budget (balanced_cut);
    where no heading, paragraph, line or sentence break leaves the chunk a quarter
    full, the strongest cut that keeps it reasonably full (structure_first)."""

    whole_rest_fits_one_chunk = True

    def __init__(self, strategy: Strategy):
        self.levels = strategy.levels
        self.balance = strategy.balance

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        return balanced_cut(job, w, self.balance) or job.structure_first(w, self.levels)


def balanced_cut(job: ChunkJob, w: Window, balance: Balance) -> Candidate | None:
    """smart on prose: a cut at a BALANCED_LEVELS break that leaves the chunk at least
    least_fill of the budget of new text, placed by the Balance (strategies.py); None
    when no such cut is in the window, or the window meets fenced code (whose cuts
    follow the code ladder: structure_first)."""
    text, seps, hi, budget = job.text, job.seps, w.hi, job.settings.max_tokens
    # At least least_fill of new text: past the overlap (the floor), not counting it,
    # or a chunk would repeat its neighbours and add a sentence.
    least_fill = 2 * balance.aim_fill - 1 if balance.least_fill is None else balance.least_fill
    lo = max(skip_space(text, w.floor) + 1, job._fill_offset(w.floor, math.ceil(least_fill * budget)))
    if lo > hi or seps.has_code(w.a, hi):
        return None
    # the strongest level, and of its cuts the one nearest the aim (the earlier on a tie)
    goal = min(max(lo, job._fill_offset(w.a, math.ceil(balance.aim_fill * budget))), hi)
    skip = (lambda c: follows_lead_in(text, c)) if balance.lead_ins else None
    for level in seps.present(BALANCED_LEVELS):
        before = seps.last(level, lo, goal)
        while before is not None and skip and level in _LINE_BREAKS and skip(before):
            before = seps.last(level, lo, before - 1)
        # a cut after the goal wins only when it is nearer than the one before
        # (a tie goes to the earlier): it is looked for no farther than that
        reach = hi if before is None else min(hi, 2 * goal - before - 1)
        if reach > goal:
            found = seps.cuts(level, goal + 1, reach)
            if skip and level in _LINE_BREAKS:
                found = (c for c in found if not skip(c))
            after = next(found, None)
            if after is not None:
                return Candidate(after, level)
        if before is not None:
            return Candidate(before, level)
    return None


_LINE_BREAKS = (PARAGRAPH, ROW, LINE)
_PUNCTUATED = ".!?…‽؟।॥۔。！？｡,;—–-\"'”’»›)]}"  # a line ending so ends a sentence, a clause or a quote
_TITLE_READ = 200  # a line longer than this is no title (and is read no farther back)


def follows_lead_in(text: str, cut: int) -> bool:
    """Is the line break at cut right after a lead-in, a line that belongs with the text
    after it: one that ends in a colon ("...by segment (in millions):" before its table),
    or a title (no punctuation at its end, starting a paragraph or after a punctuated line, shorter than
    the line after it: "Note 4. Income taxes", "= = Gameplay = ="; a table's or a list's
    rows follow rows like them)?"""
    end = trim_end(text, max(0, cut - _TITLE_READ), cut)
    if end == 0 or end <= cut - _TITLE_READ:
        return False
    last = text[end - 1]
    if last in ":：":
        return True
    if last in _PUNCTUATED:
        return False
    start = text.rfind("\n", max(0, end - _TITLE_READ), end) + 1
    if start == 0 and end > _TITLE_READ:
        return False
    # a title starts a paragraph or follows a punctuated line: right after an
    # unpunctuated one it is the last row of a table or list
    before = trim_end(text, max(0, start - _TITLE_READ), start)
    if before > 0 and text.count("\n", before, start) == 1 and text[before - 1] not in _PUNCTUATED:
        return False
    after = skip_space(text, cut)
    line_end = text.find("\n", after, after + _TITLE_READ + 1)
    return (len(text) if line_end == -1 else line_end) - after > end - start


class TopicShifts(StructureFirst):
    """topics: where the topic shifts most for the strength of the cut, among the
    heading, paragraph, line and sentence cuts that keep the chunk at least a
    quarter full (packing/topics.py); where there is none, as smart."""

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        return job.topic_cut(w) or job.structure_first(w, self.levels)


class Farthest:
    """paragraphs, lines, sentences: the farthest cut of the strategy's levels (the
    stronger level on a tie); a unit too big alone is split structure-first below them."""

    whole_rest_fits_one_chunk = True

    def __init__(self, strategy: Strategy):
        self.levels = strategy.levels
        self.fallback_levels = strategy.fallback_levels

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        found = list(job.candidates(w, self.levels))
        strong = [c for c in found if not job.seps.is_weak(c.cut)]  # fenced code: see structure_first
        best = max(strong or found, key=lambda c: c.cut, default=None)
        return best or job.structure_first(w, self.fallback_levels)


class Sections(Farthest):
    """markdown: a cut before every heading, even when the rest would fit the budget."""

    whole_rest_fits_one_chunk = False

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        heading = job.heading_cut(w)
        if heading is not None:
            return heading
        if w.hi >= job.stop:
            return Candidate(job.stop, END)
        return super().pick(job, w)


class CodeFirst:
    """code (and smart on code): the code ladder, see ChunkJob.code_first."""

    whole_rest_fits_one_chunk = True

    def __init__(self, strategy: Strategy):
        self.levels = strategy.levels

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        return job.code_first(w, self.levels)


class Windows:
    """tokens: fixed token windows, cut between tokens only."""

    whole_rest_fits_one_chunk = True

    def __init__(self, strategy: Strategy):
        pass

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        return job.token_cut(w)


POLICIES = {STRUCTURE: StructureFirst, TOPICS: TopicShifts, FARTHEST: Farthest, SECTIONS: Sections, WINDOWS: Windows, CODE: CodeFirst}
