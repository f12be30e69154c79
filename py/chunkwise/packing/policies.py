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
    full, or the window meets fenced code, the strongest cut that keeps it
    reasonably full (structure_first), moved back from after a lead-in to the same
    kind of break before it where one keeps the chunk as full."""

    whole_rest_fits_one_chunk = True

    def __init__(self, strategy: Strategy):
        self.levels = strategy.levels
        self.balance = strategy.balance

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        found = balanced_cut(job, w, self.balance)
        if found is not None:
            return found
        found = job.structure_first(w, self.levels)
        if _after_lead_in(self.balance, job.text, found.cut, found.level):
            return _before_lead_ins(job, w, found) or found
        return found


def _after_lead_in(balance: Balance, text: str, cut: int, level: int) -> bool:
    """Is this a break the balance passes over while another is in reach: a paragraph,
    row or line break right after a lead-in (follows_lead_in)?"""
    return balance.lead_ins and level in _LINE_BREAKS and follows_lead_in(text, cut)


def _before_lead_ins(job: ChunkJob, w: Window, found: Candidate) -> Candidate | None:
    """The nearest break of found's level before it that follows no lead-in, is no weak
    cut (inside fenced code) and keeps the chunk as full as structure_first asks; None
    when there is none ("For example:" before a code block goes with the block)."""
    text, seps, level = job.text, job.seps, found.level
    lo = max(w.floor + 1, job._fill_offset(w.a, job._fill[level]))
    cut = _last_cut(seps, level, lo, found.cut - 1, lambda c: follows_lead_in(text, c) or seps.is_weak(c))
    return None if cut is None or trim_end(text, w.a, cut) <= w.floor else Candidate(cut, level)


def _last_cut(seps, level: int, lo: int, hi: int, passed_over) -> int | None:
    """The last cut of the level in [lo, hi] that passed_over(cut) does not refuse."""
    cut = seps.last(level, lo, hi)
    while cut is not None and passed_over(cut):
        cut = seps.last(level, lo, cut - 1)
    return cut


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
    passed_over = []  # breaks after a lead-in: one is taken only when no other is in reach

    def lead_in(cut: int, level: int) -> bool:
        if _after_lead_in(balance, text, cut, level):
            passed_over.append(Candidate(cut, level))
            return True
        return False

    for level in seps.present(BALANCED_LEVELS):
        before = _last_cut(seps, level, lo, goal, lambda c: lead_in(c, level))
        # a cut after the goal wins only when it is nearer than the one before
        # (a tie goes to the earlier): it is looked for no farther than that
        reach = hi if before is None else min(hi, 2 * goal - before - 1)
        if reach > goal:
            after = next((c for c in seps.cuts(level, goal + 1, reach) if not lead_in(c, level)), None)
            if after is not None:
                return Candidate(after, level)
        if before is not None:
            return Candidate(before, level)
    # no other break in reach: every level was searched to hi, so all of them are here;
    # the strongest, nearest the aim (the earlier on a tie)
    return min(passed_over, key=lambda c: (c.level, abs(c.cut - goal), c.cut), default=None)


_LINE_BREAKS = (PARAGRAPH, ROW, LINE)
_LEAD_IN_READ = 200  # whitespace read back from a break to the line before it


def follows_lead_in(text: str, cut: int) -> bool:
    """Is the line break at cut right after a lead-in, a line ending in a colon: "...by
    segment (in millions):" before its table, "in one of these ways:" before its list,
    "class Parser(Base):" before its body, "**Example:**" before its example? What it
    introduces belongs with it. (A title line was tried as a lead-in too, and read code
    lines and table rows as titles.)"""
    lo = max(0, cut - _LEAD_IN_READ)
    end = trim_end(text, lo, cut)
    return end > lo and text[max(lo, end - 5) : end].rstrip("*_").endswith((":", "："))  # (past Markdown emphasis)


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
