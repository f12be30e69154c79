"""Separators.present: the levels a window is searched for are only those the whole
text may cut at, and no level with a cut anywhere is ever left out."""
from __future__ import annotations

import random

import pytest

import chunkwise
from chunkwise.packing.strategies import CODE_LADDER, LADDER
from chunkwise.text.separators import Separators
from chunkwise.types import LINE, PARAGRAPH, SENTENCE


def log(lines: int) -> str:
    return "".join(f"2026-11-29T10:00:{i % 60:02d}Z INFO worker-{i % 7} request id={i} took {i % 913} ms\n" for i in range(lines))


def test_a_level_the_whole_text_lacks_is_never_searched(monkeypatch):
    searched = []
    original = Separators._last_regex_cut

    def spy(self, level, lo, hi):
        searched.append(level)
        return original(self, level, lo, hi)

    monkeypatch.setattr(Separators, "_last_regex_cut", spy)
    text = log(2000)  # no heading, no table, no blank line: every cut is a line's
    result = chunkwise.chunk_document(text, max_tokens=256, overlap=0)
    assert len(result.chunks) > 50 and {c.boundary for c in result.chunks[:-1]} == {"line"}
    assert PARAGRAPH not in searched  # (each chunk searched its window for a blank line before)
    assert chunkwise.Document(text).separators.present(LADDER)[:2] == (LINE, SENTENCE)


ATOMS = ["word ", "Word. ", "\n", "\n\n", "\r\n", "\r\n\r\n", "\n \t\n", "\n\x0c\n", "# Title\n", "Title\n===\n",
         "| a | b |\n|---|---|\n| 1 | 2 |\n", "```python\ndef f():\n\n    return 1\n```\n", "e.g. ", "end?\n", "中文。",
         "  ", "x" * 50]


@pytest.mark.parametrize("language", [None, "python", "csv"])
@pytest.mark.parametrize("seed", range(100))
def test_no_level_with_a_cut_is_left_out(seed, language):
    rng = random.Random(seed)
    text = "".join(rng.choice(ATOMS) for _ in range(rng.randint(1, 40)))
    doc = chunkwise.Document(text, language)
    seps = doc.code_separators if doc.is_code else doc.separators
    levels = CODE_LADDER if doc.is_code else LADDER
    kept = seps.present(levels)
    for level in levels:
        if level not in kept:
            assert seps.last(level, 0, len(text)) is None, (level, text)
            assert next(seps.cuts(level, 0, len(text)), None) is None, (level, text)
    assert kept == tuple(level for level in levels if level in kept)  # strongest first, as asked
