"""A chunk's window and the cuts picked in it: the named values the packer
(packer.py) and the policies (policies.py) pass around."""
from __future__ import annotations

from typing import NamedTuple


class Window(NamedTuple):
    """Where the chunk starting at `a` may end: a cut in (floor, hi]."""

    a: int
    floor: int
    hi: int


class Candidate(NamedTuple):
    """A place a chunk may end, and its level (HEADING ... TOKEN, or END)."""

    cut: int
    level: int


class Ending(NamedTuple):
    """The chosen end of a chunk: its cut, level, end (trailing whitespace dropped) and exact count."""

    cut: int
    level: int
    end: int
    tokens: int


class Overlap(NamedTuple):
    """Where the next chunk starts inside this one's tail, and the exact count of the repeated text."""

    start: int
    tokens: int
