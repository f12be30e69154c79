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
    snap_overlap: bool = True  # start the overlap at a sentence or word start
    hard: bool = False  # cut between tokens only (the fixed-window baseline)


RULES = {
    "smart": Rule(LADDER, greedy=False),
    "paragraphs": Rule((HEADING, PARAGRAPH), greedy=True),
    "markdown": Rule((HEADING,), greedy=True, must=(HEADING,)),
    "lines": Rule((HEADING, PARAGRAPH, LINE), greedy=True),
    "sentences": Rule((HEADING, PARAGRAPH, SENTENCE), greedy=True),
    "tokens": Rule((), greedy=True, snap_overlap=False, hard=True),
}


def fallback_levels(rule: Rule) -> tuple[int, ...]:
    """When a unit is over budget, the smart ladder below the rule's weakest level."""
    if not rule.levels:
        return ()
    weakest = max(rule.levels)
    return tuple(level for level in LADDER if level > weakest)
