"""argparse types for whole numbers, shared by the command line (cli.py) and corpus
mode's options (corpus/arguments.py), so both take and refuse a number alike."""
from __future__ import annotations

import argparse

from .packing.settings import MAX_SETTING


def whole_number(minimum: int, most: int | None = None):
    """An argparse type: a whole number of at least `minimum` (and at most `most`)."""
    wording = "0 or more" if minimum == 0 else f"at least {minimum}"

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            digits = value.strip().removeprefix("+")
            if not (digits.isascii() and digits.isdigit()):
                shown = value if len(value) <= 40 else value[:20] + "..." + value[-10:]
                raise argparse.ArgumentTypeError(f"expected a whole number, got {shown!r}") from None
            number = MAX_SETTING  # more digits than int() converts: larger than any text anyway
        if number < minimum:
            raise argparse.ArgumentTypeError(f"must be {wording}, got {number}")
        if most is not None and number > most:
            raise argparse.ArgumentTypeError(f"must be at most {most}")
        return number

    return parse
