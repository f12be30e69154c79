"""What each strategy may cut at. One packing routine (engine.py) does the rest."""
from __future__ import annotations

from dataclasses import dataclass

from .model import HEADING, LINE, PARAGRAPH, PHRASE, SENTENCE, WORD

LADDER = (HEADING, PARAGRAPH, LINE, SENTENCE, PHRASE, WORD)

# The smart strategy takes the strongest cut that keeps the chunk at least this
# full (share of the budget); weaker levels must fill more to be worth it.
MIN_FILL = {HEADING: 0.25, PARAGRAPH: 0.5, LINE: 0.6, SENTENCE: 0.6, PHRASE: 0.75, WORD: 0.8}


@dataclass(frozen=True)
class Rule:
    levels: tuple[int, ...]  # where the strategy may cut; strongest first
    greedy: bool  # True: the farthest allowed cut; False: structure first (smart)
    must: tuple[int, ...] = ()  # levels it must cut at, even when the rest would fit
    # The overlap starts at the start of this unit when one fits, else at a word
    # start; None: between tokens. Smart takes a sentence start only when it keeps
    # at least half the overlap, the others keep their unit whole when they can.
    overlap_unit: int | None = SENTENCE
    overlap_min_share: float = 0.0
    hard: bool = False  # cut between tokens only (the fixed-window baseline)


RULES = {
    "smart": Rule(LADDER, greedy=False, overlap_min_share=0.5),
    "paragraphs": Rule((HEADING, PARAGRAPH), greedy=True, overlap_unit=PARAGRAPH),
    "markdown": Rule((HEADING,), greedy=True, must=(HEADING,)),
    "lines": Rule((HEADING, PARAGRAPH, LINE), greedy=True, overlap_unit=LINE),
    "sentences": Rule((HEADING, PARAGRAPH, SENTENCE), greedy=True),
    "tokens": Rule((), greedy=True, overlap_unit=None, hard=True),
}


def fallback_levels(rule: Rule) -> tuple[int, ...]:
    """When a unit is over budget, the smart ladder below the rule's weakest level."""
    if not rule.levels:
        return ()
    weakest = max(rule.levels)
    return tuple(level for level in LADDER if level > weakest)
