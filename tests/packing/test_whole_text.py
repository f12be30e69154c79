"""A short text that fits the budget is counted whole and made the one chunk before any
token index is built (packer.py's _whole_text): the same Result as the full packing,
for every strategy and tokenizer, at budgets just under, at and over the text's count."""
from __future__ import annotations

import random

import pytest

import chunkwise
from chunkwise.packing import packer
from chunkwise.packing.document import Document
from chunkwise.packing.strategies import OWN_STRATEGIES
from chunkwise.tokenizer.hf.files import register_file
from chunkwise.tokenizer.registry import get_tokenizer
from conftest import CORPUS
from hf_files import tokenizer_path

HF = ("all-MiniLM-L6-v2", "multilingual-e5-small", "llama2")


@pytest.fixture(scope="module", autouse=True)
def files():
    assert register_file(str(tokenizer_path("llama2")), name="llama2") == "llama2"


def _texts() -> list[str]:
    """Rows as a corpus job has them: paragraphs of every kind of source, some with
    whitespace at their ends, a heading first, a lone character, a word of emoji."""
    rng = random.Random(3)
    paragraphs = [p for path in sorted(CORPUS.iterdir()) if path.suffix in (".txt", ".md")
                  for p in path.read_text(encoding="utf-8").split("\n\n") if 20 < len(p) < 900]
    picked = rng.sample(paragraphs, 24)
    edges = [f"\n  {p}\n" if i % 3 == 0 else f"{p} \t" if i % 3 == 1 else p for i, p in enumerate(picked)]
    return edges + ["# Title\n\nBody text under it.", "Intro\n=====\n\nA setext heading first.", "x", " y ",
                    "👍🏽" * 7, "日本語の文章です。" * 5, "\n\n \t\n"]


def _runs(text: str, encoding: str, monkeypatch):
    tokenizer = get_tokenizer(encoding)
    total = tokenizer.count(text)
    for max_tokens in sorted({max(4, total - 1), max(4, total), total + 1, max(4, total // 2)}):
        for strategy in OWN_STRATEGIES:
            for overlap in (0, None):
                settings = dict(max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
                short = chunkwise.chunk_document(text, **settings)
                with monkeypatch.context() as m:
                    m.setattr(packer, "_WHOLE_TEXT_MAX_CHARS", 0)  # (the full packing only)
                    full = chunkwise.chunk_document(text, **settings)
                yield settings, short, full


def _assert_same(text, settings, short, full):
    assert short.chunks == full.chunks, (text[:40], settings)
    assert (short.source_tokens, short.warnings, short.mid_sentence) == (full.source_tokens, full.warnings, full.mid_sentence)


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base", "chars"])
def test_a_short_text_gives_what_the_full_packing_gives(encoding, backend, monkeypatch):
    for text in _texts():
        for settings, short, full in _runs(text, encoding, monkeypatch):
            _assert_same(text, settings, short, full)


@pytest.mark.parametrize("encoding", HF)
def test_a_short_text_gives_what_the_full_packing_gives_hugging_face(encoding, monkeypatch):
    for text in _texts()[::3]:
        for settings, short, full in _runs(text, encoding, monkeypatch):
            _assert_same(text, settings, short, full)


def test_a_short_text_that_fits_builds_no_token_index():
    doc = Document("A row of a corpus job. It fits any budget.\n")
    result = doc.chunk(max_tokens=64)
    assert [c.text for c in result.chunks] == ["A row of a corpus job. It fits any budget."]
    assert result.source_tokens == get_tokenizer("cl100k_base").count(doc.text)
    assert doc._indexes == {}
    # over the budget, it is packed as any text is, from the index
    assert len(doc.chunk(max_tokens=6, overlap=0).chunks) > 1 and doc._indexes
