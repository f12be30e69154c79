"""Giant pre-tokens never reach a quadratic merge (issue 9): bpe.merge gives
tiktoken's ids in O(n log n), bpe.merge_long the same in segments of bounded
memory, and both backends send long pre-tokens to it.
Work is counted, not timed; the timings are in `./dev bench --adversarial`."""
from __future__ import annotations

import functools
import random
import sys
from array import array
from itertools import chain

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.tokenizer.tiktoken import bpe
from chunkwise.tokenizer.tiktoken.adapter import _PATTERNS, _exact_pretokens, _pretokenize, long_pretokens, to_codes
from chunkwise.tokenizer.registry import get_tokenizer
from chunkwise.tokenizer.tiktoken.encoder import TIKTOKEN_LONG, _long_pieces_apart, merges_in_n_log_n, tiktoken_encoding
from test_tokenizers import _corpus

ENCODINGS = ["cl100k_base", "o200k_base"]


@functools.lru_cache(maxsize=None)
def _tiktoken(encoding: str):
    """tiktoken's Encoding and ranks (built once: parsing the rank file takes a second)."""
    return tiktoken_encoding(encoding)


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


# -- giant pre-tokens in segments (bpe.merge_long) ---------------------------------------
def _long_pieces(rng: random.Random) -> dict[str, bytes]:
    """Pre-tokens of many segments: where cuts no token spans abound (CJK, base64),
    where tokens span every byte (runs, periods, random letters of a small alphabet),
    and the two kinds in turn (a run inside CJK: cuts of both kinds in one piece)."""
    cjk = ("中文日本語漢字東京大学研究所" * 3000).encode("utf-8")
    b64 = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(20_000)).encode()
    return {
        "cjk": cjk[:30_000], "base64": b64, "one-letter": b"x" * 20_000, "period-2": b"ab" * 10_000, "period-3": b"aab" * 7000,
        "newlines": b"\n" * 20_000, "spaces": b" " * 20_000, "abc": bytes(rng.choice(b"abc") for _ in range(12_000)),
        "mixed": cjk[:6000] + b"x" * 9000 + cjk[:6000] + b"ab" * 3000 + b64[:5000] + b"!" * 4000,
        "bytes": bytes(rng.randrange(256) for _ in range(8000)),
    }


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_merge_long_gives_tiktokens_ids(encoding):
    """Merged in segments (as small as the vocabulary allows, so every kind of cut
    is made many times), a giant pre-token gets exactly tiktoken's ids."""
    enc, ranks = _tiktoken(encoding)
    one = enc._core_bpe.encode_single_piece
    for name, piece in _long_pieces(random.Random(9)).items():
        want = enc._encode_single_piece(piece)
        for segment in (300, 1000):
            bounds = bpe.cuts(piece, ranks, segment)
            # Every piece is cut (so the segments are what is tested) but whitespace runs:
            # the vocabulary has a token for most lengths of them, the replay refuses every
            # cut, and they are merged whole (in under three segments, it gives up).
            assert len(bounds) > 3 or name in ("spaces", "newlines"), (name, segment)
            assert list(bpe.merge_long(piece, ranks, one, segment)) == want, (name, segment)
            # tiktoken's merge (n log n since 0.13) proves the same cuts as the replay
            assert bpe.cuts(piece, ranks, segment, {}, one) == bounds, (name, segment)
            assert list(bpe.merge_long(piece, ranks, one, segment, fast=True)) == want, (name, segment)
        assert list(bpe.merge_long(piece[:2500], ranks, None, 300)) == enc._encode_single_piece(piece[:2500]), name


def test_merged_in_python_a_stretch_of_unlike_segments_is_left_whole():
    """Merged in Python (no tiktoken at hand), a stretch the replay would prove segment by
    segment is left whole where its segments are unlike each other (random letters of a
    small alphabet: each would be merged about three times over), and cut where they are
    alike (a run's: proved once). The ids are tiktoken's either way."""
    enc, ranks = _tiktoken("cl100k_base")
    pieces = _long_pieces(random.Random(9))
    for name, whole in (("abc", True), ("one-letter", False), ("period-2", False), ("period-3", False)):
        piece = pieces[name]
        bounds = bpe.cuts(piece, ranks, 300, {}, whole_unless_alike=True)
        assert (bounds == [0, len(piece)]) == whole, (name, bounds[:5])
        assert bpe.cuts(piece, ranks, 300, {}) != [0, len(piece)], name  # (the replay itself cuts them all)
        assert list(bpe.merge_long(piece, ranks, None, 300)) == enc._encode_single_piece(piece), name


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_cut_is_made_only_where_the_merge_cannot_cross(encoding):
    """Both proofs of a cut, against the merge itself on random short pieces: when
    no token spans the cut, or when replaying the two merges never merges across
    it, the whole merge is the two halves' merges. The checks must also say no:
    the pieces include cuts where merging the halves apart gives other ids. The
    replay's verdict is tiktoken's merge's (a token of the whole ends at the cut)."""
    enc, ranks = _tiktoken(encoding)
    one = enc._core_bpe.encode_single_piece
    vocab = bpe._vocabulary(ranks)
    rng = random.Random(3)
    refused = differs = 0
    for _ in range(3000):
        alphabet = rng.choice(["x", "ab", "aab", "abc", " \n", "中文日本", "e\u0301", "0123456789", "xyzzy!"])
        piece = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 40))).encode("utf-8")
        c = rng.randint(1, len(piece) - 1)
        apart = bpe.merge(piece[:c], ranks, trace=(array("I"), {}, {})) + bpe.merge(piece[c:], ranks, trace=(array("I"), {}, {}))
        whole = bpe.merge(piece, ranks, trace=(array("I"), {}, {}))
        spans = not bpe._no_token_across(piece, c, ranks, vocab)
        holds = bpe.seams_hold(piece[:c], piece[c:], ranks)
        assert bpe.merged_seams_hold(piece[:c], piece[c:], one, vocab) == holds, (piece, c)
        if not spans or holds:
            assert apart == whole, (piece, c, spans, holds)
        refused += not holds
        differs += apart != whole
    assert refused > 100 and differs > 100, (refused, differs)


@pytest.mark.parametrize("encoding", ["cl100k_base"])
def test_giant_pretokens_through_the_default_path(encoding):
    """At the real routing threshold and segment size (a pre-token of over a
    million characters, many segments), both encoders of the tiktoken backend
    give tiktoken's own ids. (The pinned tiktoken merges in n log n: its merge
    proves the cuts.)"""
    assert merges_in_n_log_n()
    enc, _ = _tiktoken(encoding)
    tokenizer = get_tokenizer(encoding, "tiktoken")
    for text in ["中文日本語漢字東京大学研究所" * (TIKTOKEN_LONG // 14 + 10), "x" * (TIKTOKEN_LONG + 5)]:
        assert len(text.encode("utf-8")) > 2 * bpe.SEGMENT
        want = enc.encode_ordinary(text)
        assert tokenizer.encode(text) == want
        assert tokenizer._encode_array(text).tolist() == want


def test_pure_backend_merges_in_segments():
    """The pure backend's long pre-tokens of more than two segments: tiktoken's ids."""
    pure, fast = get_tokenizer("o200k_base", "pure"), get_tokenizer("o200k_base", "tiktoken")
    for text in ["本" * 50_000, "ab" * 70_000]:
        assert len(text.encode("utf-8")) > 2 * bpe.SEGMENT
        assert pure.encode(text) == fast.encode(text)


def test_merge_long_memory_is_bounded_by_the_segment():
    """Memory beyond the ids (4 bytes each) grows with the segment, not the piece:
    CJK pre-tokens of 20 and 40 segments take the same few segments' worth
    (merged whole, bpe.merge takes about 10 bytes a byte of the piece: 0.2 and 0.4 MB)."""
    import tracemalloc

    enc, ranks = _tiktoken("cl100k_base")
    bpe._vocabulary(ranks)  # built once per vocabulary, outside the measurement
    segment = 1024
    text = ("中文日本語漢字東京大学研究所" * 8000).encode("utf-8")
    for merge_segment in (enc._core_bpe.encode_single_piece, None):
        for segments in (20, 40):
            piece = text[: segments * segment]
            tracemalloc.start()
            try:
                ids = bpe.merge_long(piece, ranks, merge_segment, segment)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            beyond = peak - 4 * len(ids) * 1.15  # (an array grows by about an eighth at a time)
            assert beyond < 64 * segment, (segments, peak, len(ids))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_merge_in_parts_gives_tiktokens_ids(encoding):
    """Cut into small parts where no token spans a cut, each distinct part merged once,
    every kind of long pre-token gets exactly tiktoken's ids; parts the merge has seen
    (in this pre-token or an earlier one) are not merged again."""
    enc, ranks = _tiktoken(encoding)
    short = enc._core_bpe.encode_single_piece
    rng = random.Random(5)
    memo: dict = {}
    for name, piece in chain(_long_pieces(rng).items(), ((p[:20].hex(), p) for p in _pieces(rng))):
        merged = []

        def merge_part(part: bytes) -> list[int]:
            merged.append(part)
            return short(part) if len(part) <= 4 * bpe.PART else list(bpe.merge_long(part, ranks, short, 300))

        assert bpe.merge_in_parts(piece, ranks, merge_part, memo) == enc._encode_single_piece(piece), name
        assert len(merged) == len(set(merged)), name  # each distinct part once


def test_repeated_parts_are_merged_once():
    """CJK, flag and ZWJ runs (the pure backend's slowest long pre-tokens before): cut
    every few dozen bytes, and a periodic text has few distinct parts to merge."""
    _, ranks = _tiktoken("cl100k_base")
    for text in ["中文日本語漢字東京大学研究所" * 3000, "🇩🇪🇫🇷🇯🇵🇧🇷🇮🇳" * 3000, "👨\u200d👩\u200d👧\u200d👦" * 3000, "e" + "\u0301" * 40_000]:
        piece = text.encode("utf-8")
        bounds = bpe.part_cuts(piece, ranks)
        assert max(b - a for a, b in zip(bounds, bounds[1:])) <= bpe.PART + 64, text[:8]
        merged = []
        bpe.merge_in_parts(piece, ranks, lambda part: merged.append(part) or bpe.merge(part, ranks), {})
        assert len(merged) < 100 and len(bounds) > len(piece) // 100, (text[:8], len(merged), len(bounds))


def test_a_run_is_left_whole_to_merge_long():
    """Where tokens span every byte (a run), no small part is cut: the run goes to the
    merge that proves its segments by replay (merge_long), in one piece."""
    _, ranks = _tiktoken("cl100k_base")
    piece = b"x" * 50_000
    assert bpe.part_cuts(piece, ranks) == [0, len(piece)]


def test_pure_backend_merges_a_run_in_short_segments():
    """A run of 100 KB (no small part can be cut: tokens span every byte) is merged in
    segments of PURE_SEGMENT bytes, not whole: its identical segments are merged
    once. bpe.merge is watched for the longest piece it is given."""
    from chunkwise.tokenizer.tiktoken.adapter import PURE_SEGMENT

    pure, fast = get_tokenizer("cl100k_base", "pure"), get_tokenizer("cl100k_base", "tiktoken")
    longest = 0

    def watch(frame, event, arg):
        nonlocal longest
        if event == "call" and frame.f_code is bpe.merge.__code__:
            longest = max(longest, len(frame.f_locals["piece"]))

    text = "=" * 100_000
    sys.setprofile(watch)
    try:
        ids = pure.encode(text)
    finally:
        sys.setprofile(None)
    assert ids == fast.encode(text)
    assert 0 < longest <= 3 * PURE_SEGMENT, longest
