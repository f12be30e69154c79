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
    """(settings, the run as it is, the run by the full packing only, whether the run
    made its chunk without a token index) at budgets around the text's count, and one
    far over it (where most texts are short enough to be counted whole)."""
    tokenizer = get_tokenizer(encoding)
    total = tokenizer.count(text)
    budgets = {max(4, b) for b in (total - 1, total, total + 1, total // 2, max(total + 1, len(text.encode())))}
    for max_tokens in sorted(budgets):
        for strategy in OWN_STRATEGIES:
            for overlap, parents in ((0, None), (None, None), (0, 2 * max_tokens)):
                settings = dict(max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding,
                                parent_tokens=parents)
                doc = Document(text)
                short = doc.chunk(**settings)
                with monkeypatch.context() as m:
                    m.setattr(packer, "_WHOLE_TEXT_BYTES_PER_TOKEN", 0)  # (the full packing only)
                    full = chunkwise.chunk_document(text, **settings)
                yield settings, short, full, not doc._indexes


def _assert_same(text, settings, short, full):
    assert short.chunks == full.chunks, (text[:40], settings)
    assert (short.source_tokens, short.warnings, short.mid_sentence) == (full.source_tokens, full.warnings, full.mid_sentence)


def _check(texts, encoding, monkeypatch):
    whole = 0
    for text in texts:
        for settings, short, full, without_index in _runs(text, encoding, monkeypatch):
            _assert_same(text, settings, short, full)
            whole += without_index
    assert whole > 8 * len(texts)  # (the short way was taken, for most texts and strategies)


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base", "chars"])
def test_a_short_text_gives_what_the_full_packing_gives(encoding, backend, monkeypatch):
    _check(_texts(), encoding, monkeypatch)


@pytest.mark.parametrize("encoding", HF)
def test_a_short_text_gives_what_the_full_packing_gives_hugging_face(encoding, monkeypatch):
    _check(_texts()[::2], encoding, monkeypatch)


def test_a_short_text_that_fits_builds_no_token_index():
    doc = Document("A row of a corpus job. It fits any budget.\n")
    result = doc.chunk(max_tokens=64)
    assert [c.text for c in result.chunks] == ["A row of a corpus job. It fits any budget."]
    assert result.source_tokens == get_tokenizer("cl100k_base").count(doc.text)
    assert doc._indexes == {}
    # over the budget, it is packed as any text is, from the index
    assert len(doc.chunk(max_tokens=6, overlap=0).chunks) > 1 and doc._indexes


def test_a_document_with_its_token_index_is_not_counted_again(monkeypatch):
    # (a Document chunked with many settings, as the page's compare view does: its index counts)
    doc = Document("A row of a corpus job. It fits any budget.")
    total = doc.index("cl100k_base").total()
    tokenizer = get_tokenizer("cl100k_base")
    encoded, encode = [], tokenizer.encode
    monkeypatch.setattr(tokenizer, "encode", lambda text: encoded.append(text) or encode(text))
    assert doc.chunk(max_tokens=64).source_tokens == total
    assert doc.text not in encoded


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base", "chars", *HF])
def test_a_slice_near_the_ends_is_counted_from_the_total_exactly(encoding):
    # (TokenIndex.count_knowing_total: tiny encodes at the ends, the rest from the total)
    tokenizer = get_tokenizer(encoding)
    rng = random.Random(11)
    for text in _texts() + ["\n\n   indented code(x)\n", "  ", " a", "word.\n", "日本語。\n\n"]:
        total = tokenizer.count(text)
        for _ in range(12):
            a = rng.randrange(min(len(text), 30) + 1)
            b = rng.randrange(max(a, len(text) - 30), len(text) + 1)
            assert tokenizer.index(text).count_knowing_total(a, b, total) == tokenizer.count(text[a:b]), (text[:30], a, b)
