"""Shared helpers: the invariants every chunking must satisfy (the README's "What every run guarantees")."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from chunkwise.packing.settings import overlap_range
from chunkwise.tokenizer.registry import get_tokenizer
from chunkwise.unicode.whitespace import CHARS, is_blank, is_space

_WHITESPACE = "".join(sorted(CHARS))

TESTS = pathlib.Path(__file__).resolve().parent  # tests/, whose folders follow the package's
ROOT = TESTS.parent
CORPUS = TESTS / "corpus"

CHILD_SECONDS = 120  # what a linear run gets; a quadratic one takes far longer


def assert_ends_in_a_child(code: str) -> None:
    """Run this Python code in a child process (in tests/, so it may import conftest), given
    CHILD_SECONDS: the check that a run which once hung now ends, without hanging the suite."""
    proc = subprocess.run([sys.executable, "-c", code], cwd=TESTS, capture_output=True, text=True, timeout=CHILD_SECONDS)
    assert proc.returncode == 0, proc.stderr[-2000:]


def python_lines(fn) -> int:
    """How many lines of Python fn runs (each pass of a loop counts its lines again): a
    clock-free measure of work, which grows about 4x when the input grows 4x if the work
    is linear (16x if quadratic)."""
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        count += event == "line"
        return trace

    sys.settrace(trace)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def assert_invariants(source: str, chunks, max_tokens: int, encoding: str, overlap: int = 0, lone_over_budget=False) -> None:
    """Exact slices, exact counts within budget, lossless and ordered, sane overlap.
    Whitespace is the tokenizer's (chunkwise.unicode.whitespace): U+001C..U+001F are not.
    lone_over_budget: a chunk may be over the budget if it is one character that
    alone is (some Hugging Face tokenizers at tiny budgets)."""
    tokenizer = get_tokenizer(encoding)
    covered_until = 0  # every non-whitespace character before this is in some chunk
    previous = None
    for i, c in enumerate(chunks):
        assert c.index == i
        assert c.text == source[c.start : c.end], f"chunk {i} is not an exact slice"
        assert c.text and not is_space(c.text[-1]), f"chunk {i} is not trimmed"
        # a chunk starts at its first non-blank character, or (code) at the start of its line
        lead = len(c.text) - len(c.text.lstrip(_WHITESPACE))
        assert lead == 0 or (
            c.text[:lead].strip(" \t\f\v") == "" and (c.start == 0 or source[c.start - 1] == "\n")
        ), f"chunk {i} starts with blank lines or inside a line's whitespace"
        assert c.token_count == tokenizer.count(c.text), f"chunk {i}: count {c.token_count} is not exact"
        assert c.token_count <= max_tokens or (lone_over_budget and len(c.text) == 1), f"chunk {i}: {c.token_count} tokens > {max_tokens}"
        assert "\ufffd" not in c.text or "\ufffd" in source
        gap = source[covered_until : c.start]
        assert is_blank(gap), f"chunk {i} skips text {gap[:40]!r}"
        if previous is not None:
            assert c.start > previous.start and c.end > previous.end, f"chunk {i} does not advance"
            repeated = max(0, previous.end - c.start)
            if repeated:
                assert c.overlap_tokens == tokenizer.count(source[c.start : previous.end])
                # A unit start may give more than the requested overlap where none lies
                # within 1.5x (packing/settings.py, overlap_range), never more than half the budget.
                assert c.overlap_tokens <= overlap_range(max(overlap, 0), max_tokens, whole_units=True)[2]
            else:
                assert c.overlap_tokens == 0
        else:
            assert c.overlap_tokens == 0
        covered_until = max(covered_until, c.end)
        previous = c
    assert is_blank(source[covered_until:]), "the end of the text is missing"
    if chunks:
        assert chunks[-1].boundary == "end"
        assert all(c.boundary != "end" for c in chunks[:-1])


@pytest.fixture(params=["pure", "tiktoken"])
def backend(request, monkeypatch):
    """Run a test once per tokenizer backend."""
    monkeypatch.setenv("CHUNKWISE_BACKEND", request.param)
    return request.param


def incident(rows: int = 60) -> str:
    """A report with a heading path and a long pipe table (tests of tables and context)."""
    body = "\n".join(
        f"| 02:{i:02d} | Batch {i} copied to the archive, checked by the on-call engineer. Then verified. | on-call |"
        for i in range(rows)
    )
    return (
        "# Incident\n\nSome intro paragraph.\n\n## Timeline\n\n| Time | Event | Who |\n|---|---|---|\n"
        + body + "\n\nAfter the table.\n"
    )
