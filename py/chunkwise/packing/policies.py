"""One small policy per kind of strategy (packing/strategies.py names the kinds): how a
chunk's cut is picked in its window, from the packer's candidate finders.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..text.separators import skip_space, trim_end
from .cuts import Candidate
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
    text, seps, budget = job.text, job.seps, job.settings.max_tokens
    # At least least_fill of new text: past the overlap (the floor), not counting it,
    # or a chunk would repeat its neighbours and add a sentence.
    least = math.ceil(balance.least_fill * budget)
    lo = max(skip_space(text, w.floor) + 1, job._fill_offset(w.floor, least))
    if lo > w.hi or seps.has_code(w.a, w.hi):
        return None
    if balance.level_cost is not None:
        return _planned_cut(job, w, balance, lo, least)
    # the strongest level, and of its cuts the one nearest the aim (the earlier on a tie)
    goal = min(max(lo, job._fill_offset(w.a, math.ceil(balance.aim_fill * budget))), w.hi)
    for level in BALANCED_LEVELS:
        before = seps.last(level, lo, goal)
        # a cut after the goal wins only when it is nearer than the one before
        # (a tie goes to the earlier): it is looked for no farther than that
        reach = w.hi if before is None else min(w.hi, 2 * goal - before - 1)
        after = seps.first(level, goal + 1, reach) if reach > goal else None
        if after is not None:
            return Candidate(after, level)
        if before is not None:
            return Candidate(before, level)
    return None


def _planned_cut(job: ChunkJob, w: Window, balance: Balance, lo: int, least: int) -> Candidate | None:
    """The first cut of the cheapest plan for the next `horizon` budgets of text: each
    chunk costs level_cost per step down BALANCED_LEVELS plus (fill - aim_fill)^2,
    a chunk after the first holds least..budget - overlap tokens of new text (the
    overlap counted in its fill), and the plan ends within a chunk of the horizon
    (or at the text's end, whose last chunk costs only what it is over the aim)."""
    text, seps, index = job.text, job.seps, job.index
    budget, overlap = job.settings.max_tokens, job.settings.overlap
    end = w.hi
    if balance.horizon > 1:
        far = min(job.stop, job._reach(w.a, balance.horizon * budget))
        if far > w.hi and not seps.has_code(w.hi, far):
            end = far
    level_at: dict[int, int] = {}
    for level in BALANCED_LEVELS:  # the strongest level at each offset
        for cut in seps.cuts(level, lo, end):
            level_at.setdefault(cut, level)
    if not level_at:
        return None
    cuts = sorted(level_at)
    tokens = index.tokens_before_each(cuts)
    t0, room = index.tokens_before(w.a), budget - overlap
    steps = [BALANCED_LEVELS.index(level_at[c]) * balance.level_cost for c in cuts]
    aim, inf = balance.aim_fill, math.inf
    cost, first = [inf] * len(cuts), [0] * len(cuts)  # the cheapest plan up to each cut, and its first cut
    for j, c in enumerate(cuts):
        if c <= w.hi and trim_end(text, w.a, c) > w.floor:
            cost[j], first[j] = steps[j] + ((tokens[j] - t0) / budget - aim) ** 2, j
        if end == w.hi:
            continue  # one chunk ahead only
        for i in range(j - 1, -1, -1):
            new = tokens[j] - tokens[i]
            if new > room:
                break
            if new >= least and cost[i] < inf:
                v = cost[i] + steps[j] + ((new + overlap) / budget - aim) ** 2
                if v < cost[j]:
                    cost[j], first[j] = v, first[i]
    if end >= job.stop:  # the last chunk runs to the end of the text
        rest = index.tokens_before(job.stop)
        total = [cost[j] + max(0.0, (rest - tokens[j] + overlap) / budget - aim) ** 2 if rest - tokens[j] <= room else inf
                 for j in range(len(cuts))]
    else:
        far = index.tokens_before(end)
        total = [cost[j] if far - tokens[j] <= room else inf for j in range(len(cuts))]
    if min(total) == inf:
        total = cost
    best = min(range(len(cuts)), key=total.__getitem__)
    if total[best] == inf:
        return None
    cut = cuts[first[best]]
    return Candidate(cut, level_at[cut])


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
