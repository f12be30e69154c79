"""The engine's contract holds for Hugging Face tokenizers of every family, on
both backends (pure Python, and the `tokenizers` package): exact slices, exact
counts within budget, lossless; the same chunks from both backends; and the
token index's counts of slices equal encoding each slice."""
from __future__ import annotations

import functools
import itertools
import random

import pytest

import chunkwise
from chunkwise.io import stats
from chunkwise.tokenizer.hf.files import register_file
from chunkwise.tokenizer.index import TokenIndex
# chunkwise's own strategies: the reference (LangChain's splitter) may go over the budget
from chunkwise.packing.strategies import OWN_STRATEGIES as STRATEGIES
from chunkwise.tokenizer.registry import get_tokenizer
from conftest import assert_invariants
from hf_files import CORPUS, tokenizer_path

FAMILIES = {
    "all-MiniLM-L6-v2": "WordPiece",  # a preset: found where build.py vendors it
    "multilingual-e5-small": "Unigram",
    "llama2": "BPE with byte fallback",
    "llama3": "byte-level BPE",
    "deepseek_v3": "byte-level BPE",
}


@pytest.fixture(scope="module", autouse=True)
def files():
    for name in FAMILIES:
        path = tokenizer_path(name)
        if name in ("llama2", "llama3", "deepseek_v3"):
            assert register_file(str(path), name=name) == name


@pytest.fixture(params=["pure", "tokenizers"])
def hf_backend(request, monkeypatch):
    # CHUNKWISE_BACKEND=tiktoken means "the fast backend": tokenizers for these files.
    monkeypatch.setenv("CHUNKWISE_BACKEND", "pure" if request.param == "pure" else "tiktoken")
    return request.param


def _texts() -> list[str]:
    rng = random.Random(5)
    docs = [p.read_text(encoding="utf-8")[:6000] for p in sorted(CORPUS.iterdir()) if p.suffix in (".txt", ".md")]
    words = ["alpha", "Beta", "ünïcode", "日本語", "👍🏽", "x" * 30, "[CLS]", "</s>", "  ", "\n", "\n\n", ".", ",", "e\u0301"]
    noise = " ".join(rng.choice(words) for _ in range(400))
    return docs + [noise, "", "one", "a" * 3000]


@pytest.mark.parametrize("encoding", sorted(FAMILIES))
def test_invariants_every_family_both_backends(encoding, hf_backend):
    tokenizer = get_tokenizer(encoding)
    assert tokenizer.family == FAMILIES[encoding]
    assert tokenizer.backend == hf_backend
    for text in _texts():
        for strategy in STRATEGIES:
            for max_tokens, overlap in ((128, 16), (40, 0)):
                result = chunkwise.chunk_document(
                    text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding
                )
                assert_invariants(text, result.chunks, max_tokens, encoding, overlap)
                assert result.source_tokens == tokenizer.count(text)


@pytest.mark.parametrize("encoding", sorted(FAMILIES))
def test_both_backends_give_the_same_chunks(encoding, monkeypatch):
    text = _texts()[1]
    runs = []
    for backend in ("pure", "tiktoken"):
        monkeypatch.setenv("CHUNKWISE_BACKEND", backend)
        runs.append([c.to_dict() for c in chunkwise.chunk(text, max_tokens=100, encoding=encoding)])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("encoding", sorted(FAMILIES))
def test_token_index_counts_any_slice_exactly(encoding, hf_backend):
    tokenizer = get_tokenizer(encoding)
    rng = random.Random(9)
    # (and a word too long to hold a separable offset: a slice from the start then has none)
    for text in _texts()[:3] + ["a" * 3000 + " and then words."]:
        index = TokenIndex(text, tokenizer)
        assert index.total() == tokenizer.count(text)
        for _ in range(60):
            a = rng.randrange(len(text))
            b = rng.randrange(a, min(len(text), a + 1500) + 1)
            assert index.count(a, b) == tokenizer.count(text[a:b]), (a, b)
        for b in (1, 40, 1000, len(text)):  # from the text's start (the first chunk's: a BOS counts)
            assert index.count(0, b) == tokenizer.count(text[:b]), b


def test_the_page_session_loads_tokenizers_and_reports_the_model():
    """What the worker calls: a local tokenizer.json, a preset file handed over as
    text, and a model's limit and truncation warning in the stats."""
    import json

    from chunkwise.bridge import Session

    session = Session()
    text = _texts()[4]
    session.set_text(text)
    loaded = json.loads(session.load_tokenizer("tokenizer.json", tokenizer_path("llama3").read_text(encoding="utf-8")))
    assert loaded == {"encoding": "file:tokenizer.json", "family": "byte-level BPE", "special_tokens": 0} or \
        loaded["family"] == "byte-level BPE"
    session.provide_tokenizer("multilingual-e5-small", tokenizer_path("multilingual-e5-small").read_text(encoding="utf-8"))
    session.start(json.dumps({"max_tokens": 600, "overlap": 0, "strategy": "smart",
                              "encoding": "multilingual-e5-small", "model": "multilingual-e5-small"}))
    out = json.loads(session.step(60))
    while not out["done"]:
        out = json.loads(session.step(60))
    stats = out["stats"]
    assert stats["encoding"] == "multilingual-e5-small" and stats["model_max_tokens"] == 512
    over = sum(1 for c in session.finished.chunks if c.token_count > 510)
    assert over and any(f"{over} of {len(session.finished.chunks)} chunk(s) would be truncated" in w for w in stats["warnings"])
    with pytest.raises(ValueError, match="not supported"):
        session.load_tokenizer("bad.json", '{"model": {"type": "Mystery"}}')


def test_a_registered_tokenizer_file_is_an_encoding_of_the_python_api(tmp_path):
    """chunkwise.register_tokenizer(path) names a tokenizer.json for chunk(),
    Document and Chunker: the same chunks as its preset."""
    folder = tmp_path / "minilm"
    folder.mkdir()
    (folder / "tokenizer.json").write_bytes(tokenizer_path("all-MiniLM-L6-v2").read_bytes())
    name = chunkwise.register_tokenizer(str(folder / "tokenizer.json"))
    assert name == "minilm/tokenizer.json"
    text = (CORPUS / "node-net.md").read_text(encoding="utf-8")[:20000]
    by_file = chunkwise.chunk(text, max_tokens=120, encoding=name)
    assert by_file == chunkwise.chunk(text, max_tokens=120, encoding="all-MiniLM-L6-v2")
    assert chunkwise.Chunker(max_tokens=120, encoding=name).chunk(text) == by_file


@pytest.mark.parametrize("encoding", sorted(FAMILIES))
def test_a_character_over_a_tiny_budget_is_a_chunk_of_its_own(encoding, hf_backend):
    """One character can take more tokens than a tiny budget: NFKC makes ㌚ five katakana
    (6 tokens in multilingual-e5-small), byte fallback with the word prefix gives an emoji
    5 (llama2). The engine raised AssertionError ("no cut fits the budget"): now such a
    character is a chunk of its own, over the budget, and a warning names the first."""
    tokenizer = get_tokenizer(encoding)
    text = "ab \u331a\u331a cd 😀 e\u0301f \U0001f44d\U0001f3fd ㍿ end"
    for max_tokens in (4, 5, 6):
        for overlap in (0, 2):
            result = chunkwise.chunk_document(text, max_tokens=max_tokens, overlap=overlap, encoding=encoding)
            assert_invariants(text, result.chunks, max_tokens, encoding, overlap, lone_over_budget=True)
            over = [c for c in result.chunks if c.token_count > max_tokens]
            assert all(tokenizer.count(c.text) > max_tokens for c in over)
            named = [w for w in result.warnings if "alone is" in w]
            assert len(named) == (1 if over else 0), result.warnings
            # the stats' histogram holds every chunk in the range of its bar (the page lists a bar's chunks by range)
            bars = stats.compute(result)["histogram"]
            assert all(sum(b["lo"] <= c.token_count <= b["hi"] for b in bars) == 1 for c in result.chunks)
    assert any(get_tokenizer(e).count(ch) > 4 for e in ("multilingual-e5-small", "llama2") for ch in ("\u331a", "😀"))


# -- characters the running Python's re does not classify as the tokenizer does ----------------


@functools.cache
def _reference(encoding: str):
    """The `tokenizers` library itself: the count of a text, and of many in one batch."""
    from tokenizers import Tokenizer

    fast = Tokenizer.from_file(str(tokenizer_path(encoding)))
    fast.no_truncation()
    fast.no_padding()
    return lambda texts: [len(e.ids) for e in fast.encode_batch(texts, add_special_tokens=False)]


@functools.cache
def _word_disagreements() -> list[str]:
    """Every code point that the tokenizers library calls a letter or number (its own tables,
    checked against it in test_hf_tokenizers) and the running Python's re does not call \\w,
    or the other way round: on CPython 3.11 (Unicode 14), every letter and number of Unicode
    15 and 16 (U+1C89 CYRILLIC CAPITAL LETTER TJE, U+1D2C1 KAKTOVIK NUMERAL ONE)."""
    from chunkwise.tokenizer.hf.text import LETTER, NUMBER

    # re's [^\\W_] is str.isalnum()
    chars = (chr(o) for o in range(0x80, 0x110000) if not 0xD800 <= o <= 0xDFFF)
    return [ch for ch in chars if (ch in LETTER or ch in NUMBER) != ch.isalnum()]


@pytest.mark.parametrize("encoding", sorted(FAMILIES))
def test_counts_are_exact_around_letters_python_does_not_know(encoding, hf_backend):
    """Each such character before a space, in one document: the token index's count of
    slices that start and end around them is the library's (a cut there is exact only
    when the index and the token ends see the same character classes)."""
    chars = _word_disagreements()
    if not chars:
        pytest.skip("this Python's re \\w agrees with the tokenizers library")
    reference = _reference(encoding)
    tokenizer = get_tokenizer(encoding)
    pieces = [f"{c} 日{c}.  ab{c}\u0301 " for c in chars]
    text = "".join(pieces)
    starts = [0, *itertools.accumulate(map(len, pieces))]
    slices = [(starts[i] + shift, starts[i + 3] - shift) for i in range(len(pieces) - 2) for shift in (0, 1)]
    index = TokenIndex(text, tokenizer)
    got = [index.count(a, b) for a, b in slices]
    want = reference([text[a:b] for a, b in slices])
    wrong = [(text[a:b], g, w) for (a, b), g, w in zip(slices, got, want) if g != w]
    assert not wrong, f"{len(wrong)} of {len(slices)} counts differ, e.g. {wrong[:3]}"
    assert index.total() == reference([text])[0]


@pytest.mark.parametrize("encoding", sorted(FAMILIES))
def test_the_fuzzers_chunks_have_the_librarys_counts(encoding, hf_backend):
    reference = _reference(encoding)
    cases = [("  \U0001d2c1日本1111     \U00010d40\u0897word.\U00016d70     ", 7),
             ("日本\u1c89    \U00010d40 \U0001d2c1abc", 9)]
    for text, max_tokens in cases:
        for strategy in STRATEGIES:
            chunks = chunkwise.chunk(text, max_tokens=max_tokens, strategy=strategy, encoding=encoding)
            assert [c.token_count for c in chunks] == reference([c.text for c in chunks]), (text, strategy)
            assert all(c.token_count <= max_tokens for c in chunks)
