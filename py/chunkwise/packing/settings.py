"""The settings of a run, checked and settled once: the budget, the overlap (an
eighth of the budget unless given) and the range an overlap may take.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass

from ..types import DEFAULT_CONTEXT, DEFAULT_OVERLAP_UNIT, OVERLAP_UNITS, Settings
from .context import check_context
from ..tokenizer.base import Tokenizer
from .strategies import REFERENCES, STRATEGIES
from ..tokenizer.registry import check_encoding

# Any single code point is at most 4 UTF-8 bytes, each a token of its own at worst.
MIN_BPE_BUDGET = 4
# The default overlap is this share of max_tokens, rounded down (64 for 512).
OVERLAP_SHARE = 0.125
# No text has this many tokens: a larger budget or overlap means the same.
MAX_SETTING = 1 << 62
# An overlap that starts where a unit starts may be this much shorter or longer
# than the requested one (never more than half the budget).
OVERLAP_TOLERANCE = (0.5, 1.5)
# Where the tail has no unit start within 1.5x, one up to this many times the
# overlap (never more than half the budget) still beats a start mid-sentence.
OVERLAP_STRETCH = 3


def default_overlap(max_tokens: int) -> int:
    """The overlap used when none is given: an eighth of the size, rounded down
    (exactly, for any size: no float)."""
    numerator, denominator = OVERLAP_SHARE.as_integer_ratio()
    return max_tokens * numerator // denominator


def _whole(name: str, value) -> int:
    """Any integer type (numpy's too) as an int; True and False are not numbers here."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise ValueError(f"{name} must be a whole number, not {value!r}")


# (exact ratios of whole numbers: the fractions module costs 45 ms of the page's boot)
_TOLERANCE = tuple(x.as_integer_ratio() for x in OVERLAP_TOLERANCE)


def overlap_range(overlap: int, max_tokens: int, whole_units: bool = False) -> tuple[int, int, int]:
    """The token counts an overlap that starts at a unit start may have for this
    (settled) overlap: 0.5x to 1.5x of it (fewest, most), at least 1; and, where
    no unit start lies within most, up to OVERLAP_STRETCH times it (longest), or
    for a strategy of whole units up to half the budget (rather than none).
    Never more than half the budget."""
    (low, low_denominator), (high, high_denominator) = _TOLERANCE  # exact, for any size
    fewest = -(-overlap * low // low_denominator)
    most = max(overlap, min(overlap * high // high_denominator, max_tokens // 2))
    longest = max_tokens // 2 if whole_units else min(overlap * OVERLAP_STRETCH, max_tokens // 2)
    return max(1, fewest), most, max(most, longest)


def settle(
    max_tokens, overlap, strategy: str, encoding: str, overlap_unit: str = DEFAULT_OVERLAP_UNIT
) -> tuple[int, int, list[str]]:
    """Validate settings; return the budget and overlap to use, and what was adjusted.
    An overlap of None is the default: default_overlap(max_tokens)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if overlap_unit not in OVERLAP_UNITS:
        raise ValueError(f"unknown overlap_unit {overlap_unit!r}; choose one of {', '.join(OVERLAP_UNITS)}")
    check_encoding(encoding)
    max_tokens = _whole("max_tokens", max_tokens)
    overlap = None if overlap is None else _whole("overlap", overlap)
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, not {max_tokens}")
    if overlap is None:  # of the budget used: of a larger size it would be clamped and reported as asked for
        overlap = default_overlap(min(max_tokens, MAX_SETTING))
    if overlap < 0:
        raise ValueError(f"overlap must be 0 or more, not {overlap}")
    warnings = []
    budget, asked_overlap, overlap = min(max_tokens, MAX_SETTING), overlap, min(overlap, MAX_SETTING)
    if encoding != "chars" and budget < MIN_BPE_BUDGET:
        budget = MIN_BPE_BUDGET
        warnings.append(
            f"max_tokens {max_tokens} is too small: one character can take up to {MIN_BPE_BUDGET} tokens,"
            f" so chunks use a budget of {MIN_BPE_BUDGET}."
        )
    elif budget == 1:
        warnings.append("max_tokens 1 makes every character its own chunk.")
    limit = budget // 2
    if overlap > limit:
        warnings.append(
            f"overlap {asked_overlap} is more than half of the {budget}-token budget;"
            f" it was clamped to {limit} so every chunk still adds new text."
        )
        overlap = limit
    return budget, overlap, warnings


def check_parent_tokens(parent_tokens, max_tokens: int) -> int | None:
    """None (no parents) or a parent size larger than the chunks' budget."""
    if parent_tokens is None:
        return None
    parent_tokens = _whole("parent_tokens", parent_tokens)
    if parent_tokens <= max_tokens:
        raise ValueError(f"parent_tokens must be larger than max_tokens ({max_tokens}), not {parent_tokens}")
    return min(parent_tokens, MAX_SETTING)


def check_reference(strategy: str, context: str, parent_tokens) -> None:
    """A reference strategy (another library's splitter) has no context or parents: it
    makes that library's chunks, nothing else."""
    if strategy in REFERENCES and (context != "none" or parent_tokens is not None):
        raise ValueError(f"strategy {strategy!r} is LangChain's splitter as it is: it takes no context or parent_tokens")


@dataclass(frozen=True)
class Checked:
    """A run's settings, checked and settled once (a Chunker keeps them for every text)."""

    settings: Settings
    warnings: tuple[str, ...]  # what settle() adjusted, and why
    overlap_given: bool  # an overlap the caller asked for (not the default), and not 0
    tokenizer: Tokenizer | None = None  # the encoding's, where the caller holds it loaded (else the job gets it)


def check_settings(
    max_tokens, overlap, strategy: str, encoding: str, overlap_unit: str = DEFAULT_OVERLAP_UNIT,
    context: str = DEFAULT_CONTEXT, parent_tokens=None,
) -> Checked:
    """Every setting of a run checked (ValueError naming the bad one) and settled."""
    budget, used_overlap, warnings = settle(max_tokens, overlap, strategy, encoding, overlap_unit)
    context = check_context(context)
    parent_tokens = check_parent_tokens(parent_tokens, budget)
    check_reference(strategy, context, parent_tokens)
    settings = Settings(budget, used_overlap, strategy, encoding, overlap_unit, context, parent_tokens)
    return Checked(settings, tuple(warnings), overlap is not None and used_overlap > 0)
