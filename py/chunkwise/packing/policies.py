"""One small policy per kind of strategy (packing/strategies.py names the kinds): how a
chunk's cut is picked in its window, from the packer's candidate finders.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cuts import Candidate
from .strategies import CODE, END, FARTHEST, SECTIONS, STRUCTURE, TOPICS, WINDOWS, Strategy

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

    def pick(self, job: ChunkJob, w: Window) -> Candidate:
        return job.balanced_cut(w) or job.structure_first(w, self.levels)


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
