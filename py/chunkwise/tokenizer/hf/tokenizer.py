"""Hugging Face tokenizer.json files, counted exactly in pure Python.

    tok = tokenizer_from_text(Path("tokenizer.json").read_text(encoding="utf-8"), name)
    tok.encode(text)    # the ids of tokenizers' encode(text, add_special_tokens=False)

The pipeline is the `tokenizers` library's: added tokens are matched in the raw
text first; each stretch between them is normalized, pre-tokenized and run
through the model. Special tokens that the post-processor adds ([CLS] ... [SEP],
<s> ... </s>) are not counted; `special_tokens_added` says how many there are.
The file's truncation and padding settings are ignored: chunkwise counts what
the text costs, it never truncates it. Any component that is not implemented
raises Unsupported (never a silently wrong count); see SUPPORTED (components.py).

On CPython with the `tokenizers` package installed, HFTokenizer can use it as
its encoder (backend "tokenizers"); the differential tests require the same ids.

The added tokens are matched by added_tokens.py; where a text may be cut exactly
(cuts_at_spaces, SEPARABLE) is separable.py's.
"""
from __future__ import annotations

import hashlib
import json

from .added_tokens import _AddedTokens
from .components import SUPPORTED, build_model, build_normalizer, build_pre_tokenizer, check
from .normalizers import Unsupported
from .pretokenizers import metaspace_scheme
from .separable import SEPARABLE, _cuts_at_spaces, _flatten
from .text import as_known
from ..base import NOWHERE, Tokenizer
from ...memory import collector_paused

__all__ = ["HFTokenizer", "Unsupported", "tokenizer_from_text", "SUPPORTED"]


def _special_tokens_added(spec) -> int:
    """How many tokens the post-processor adds to a single sequence."""
    if spec is None:
        return 0
    kind = spec.get("type")
    if kind == "TemplateProcessing":
        count = 0
        for piece in spec.get("single", []):
            if "SpecialToken" in piece:
                name = piece["SpecialToken"]["id"]
                count += len(spec.get("special_tokens", {}).get(name, {}).get("ids", [None]))
        return count
    if kind in ("BertProcessing", "RobertaProcessing"):
        return 2
    if kind == "ByteLevel":
        return 0
    if kind == "Sequence":
        return sum(_special_tokens_added(p) for p in spec.get("processors", []))
    raise Unsupported(f"post-processor {kind!r} is not supported")


class HFTokenizer(Tokenizer):
    """A tokenizer.json model; name is what `encoding` reports (a preset name or the file's)."""

    def __init__(self, data: dict, name: str, backend: str = "pure", source_text: str | None = None):
        self.name = name
        self.family = _family(data)
        self.special_tokens_added = _special_tokens_added(data.get("post_processor"))
        self.normalizer = build_normalizer(data.get("normalizer"))
        self.pre_tokenizer = build_pre_tokenizer(data.get("pre_tokenizer"))
        self.model = build_model(data.get("model", {}))
        # Added tokens are matched in the raw text, then those marked normalized in
        # each normalized piece between them.
        entries = data.get("added_tokens", [])
        self.added = _AddedTokens([e for e in entries if not e.get("normalized", False)])
        self.added_normalized = _AddedTokens([e for e in entries if e.get("normalized", False)], self.normalizer)
        # The start-of-input steps a continued piece (text after a cut) must skip.
        normalizer, pre_tokenizer = data.get("normalizer"), data.get("pre_tokenizer")
        self._continued_normalizer = build_normalizer(_continued_normalizer(normalizer))
        self._continued_pre_tokenizer = build_pre_tokenizer(_continued_pre_tokenizer(pre_tokenizer))
        self._start_steps = _continued_normalizer(normalizer) != normalizer or _continued_pre_tokenizer(pre_tokenizer) != pre_tokenizer
        # Where the token index may split the document (TokenIndex asks): before a
        # space after a letter, digit or ASCII symbol; nowhere when that is not exact.
        # (Tokens matched in normalized text would have to be looked for there.)
        self.cuts_at_spaces = _cuts_at_spaces(data, self.model) and not (self.added_normalized.ids and self.normalizer)
        self.separable = SEPARABLE if self.cuts_at_spaces else NOWHERE
        self.backend = "pure"
        self._fast = None
        if backend == "tokenizers":
            self._fast = _fast_encoder(source_text if source_text is not None else json.dumps(data), name)
            self._fast_batch = self._fast.batch
            self.backend = "tokenizers"
        self._piece_counts: dict[str, int] = {}
        # Two files can share a name (every download is tokenizer.json): the counts are the content's.
        source = source_text if source_text is not None else json.dumps(data, sort_keys=True)
        self.digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()

    @property
    def key(self) -> tuple:
        return (self.name, self.backend, self.digest)

    # -- encoding ------------------------------------------------------------
    def encode(self, text: str) -> list[int]:
        if self._fast is not None:
            return self._fast(text)
        return self._encode(text, continued=False)

    def encode_continued(self, text: str) -> list[int]:
        """The ids of text that continues a longer input (after a cut at a space): its
        first piece gets no start-of-input steps (Prepend, Strip's left, Metaspace "first")."""
        if self._fast is not None and not self._start_steps:
            return self._fast(text)
        return self._encode(text, continued=True)

    def separable_check(self, text: str, match) -> bool:
        """No cut inside an added token (" the", "and "), and none right after one: the
        text after it starts a new segment, which the start-of-input steps (and rstrip)
        treat differently. (Normalized ones are matched in the raw text when there is no
        normalizer; with one, no offset is separable.)"""
        p = match.start()
        return self.added.splits_at(text, p) and self.added_normalized.splits_at(text, p)

    def _encode(self, text: str, continued: bool) -> list[int]:
        """continued: text's start continues a longer input. Only its start does: every
        piece after an added token starts a segment of its own, as in the whole input."""
        out: list[int] = []
        first = not continued
        tokenize = self.model.tokenize
        for piece, tid in self.added.split(text):
            if tid is not None:
                out.append(tid)
                first = continued = False
                continue
            normalize = self._continued_normalizer if continued else self.normalizer
            if normalize is not None:
                piece = normalize(piece)
            if not piece:
                first = continued = False
                continue
            for sub, sid in self.added_normalized.split(piece):
                if sid is not None:
                    out.append(sid)
                elif sub:
                    pre_tokenize = self._continued_pre_tokenizer if continued else self.pre_tokenizer
                    splits = pre_tokenize([(sub, first)]) if pre_tokenize is not None else [(sub, first)]
                    for word, _ in splits:
                        if word:
                            out.extend(tokenize(word))
                first = continued = False
        return out

    def count(self, text: str) -> int:
        return len(self.encode(text))

    def count_continued(self, text: str) -> int:
        if self._fast is not None and not self._start_steps:
            return len(self._fast(text))
        return len(self._encode(text, continued=True))

    def _count_pieces(self, pieces: list[str]) -> list[int]:
        """count_continued of each piece; the `tokenizers` backend encodes them in one batch."""
        if self._fast is not None and not self._start_steps:
            return [len(ids) for ids in self._fast_batch(pieces)]
        return [len(self._encode(p, continued=True)) for p in pieces]

    # -- what the token index needs --------------------------------------------
    # What `separable` runs over, here and in TokenIndex: the text with the library's
    # letters and numbers (an offset that one calls separable and the other does not
    # is counted wrong).
    as_known = staticmethod(as_known)

    def separable_offsets(self, text: str) -> list[int]:
        """The offsets inside text where it may be split (see SEPARABLE)."""
        return [m.start() for m in SEPARABLE.finditer(as_known(text)) if m.start() > 0 and self.separable_check(text, m)]

    def char_ends(self, text: str, base: int) -> list[int]:
        """Character offsets after each token of text (text starts at base in the
        document; base > 0 means it continues the document). Exact at every
        separable offset: the text is counted piece by piece between them, and a
        piece's tokens are spread evenly over its characters."""
        ends: list[int] = []
        if not self.cuts_at_spaces:
            k = len(self.encode(text)) if base == 0 else self.count_continued(text)
            n = len(text)
            return [base + max(1, (n * (i + 1)) // k) for i in range(k)] if k else []
        bounds = [0] + self.separable_offsets(text) + [len(text)]
        memo = self._piece_counts
        if len(memo) > 1 << 18:
            memo.clear()
        pieces = [text[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1)]
        first = None
        if base == 0 and pieces:
            first = self.count(pieces[0])
        missing = list({p for p in pieces[1 if first is not None else 0 :] if p not in memo})
        for piece, k in zip(missing, self._count_pieces(missing)):
            memo[piece] = k
        for i, piece in enumerate(pieces):
            a, b = bounds[i], bounds[i + 1]
            k = first if i == 0 and first is not None else memo[piece]
            if k == 1:
                ends.append(base + b)
            elif k:
                width = b - a
                # Every token ends inside its piece, after its start (a piece can
                # have more tokens than characters).
                ends.extend(base + a + max(1, (width * (j + 1)) // k) for j in range(k))
        return ends


def _continued_normalizer(spec):
    """The normalizer of text that continues a segment: no Prepend, no Strip on the left."""
    if spec is None:
        return None
    kind = spec.get("type")
    if kind == "Prepend":
        return None
    if kind == "Strip":
        return {**spec, "strip_left": False}
    if kind == "Sequence":
        return {**spec, "normalizers": [s for s in (_continued_normalizer(x) for x in spec.get("normalizers", [])) if s]}
    return spec


def _continued_pre_tokenizer(spec):
    """The pre-tokenizer of text that continues a segment: Metaspace's "first" prefix is
    for the segment's start. (ByteLevel's prefix space is for every pre-token that lacks
    one, in the middle of a segment too: it stays.)"""
    if spec is None:
        return None
    kind = spec.get("type")
    if kind == "Metaspace" and metaspace_scheme(spec) == "first":
        return {**spec, "prepend_scheme": "never"}
    if kind == "Sequence":
        return {**spec, "pretokenizers": [_continued_pre_tokenizer(x) for x in spec.get("pretokenizers", [])]}
    return spec


def _family(data: dict) -> str:
    model = data.get("model", {})
    kind = model.get("type", "?")
    if kind == "BPE":
        pre = _flatten(data.get("pre_tokenizer"), "pretokenizers")
        if any(p.get("type") == "ByteLevel" for p in pre):
            return "byte-level BPE"
        return "BPE with byte fallback" if model.get("byte_fallback") else "BPE"
    return kind


def _fast_encoder(source: str, name: str):
    from tokenizers import Tokenizer as FastTokenizer

    # tokenizers raises a bare Exception for a file it refuses, when loading it or (an
    # unk_token missing from the vocabulary) at the first text that needs it.
    try:
        fast = FastTokenizer.from_str(source)
    except Exception as error:
        raise Unsupported(f"{name}: the tokenizers library refuses it: {error}") from None
    fast.no_truncation()
    fast.no_padding()

    def refused(error: Exception) -> Unsupported:
        return Unsupported(f"{name}: the tokenizers library cannot encode with it: {error}")

    def encode(text: str) -> list[int]:
        try:
            return fast.encode(text, add_special_tokens=False).ids
        except Exception as error:
            raise refused(error) from None

    def encode_batch(texts: list[str]) -> list[list[int]]:
        try:
            return [e.ids for e in fast.encode_batch(texts, add_special_tokens=False)]
        except Exception as error:
            raise refused(error) from None

    encode.batch = encode_batch
    return encode


def tokenizers_available() -> bool:
    try:
        import tokenizers  # noqa: F401
    except ImportError:
        return False
    return True


def tokenizer_from_text(source: str | bytes, name: str | None = None, backend: str = "pure") -> HFTokenizer:
    """Build an HFTokenizer from a tokenizer.json's text. The text is never taken
    for a path, whatever it starts with: a file's contents are not a file name."""
    if isinstance(source, bytes):
        try:
            text = source.decode("utf-8")
        except UnicodeDecodeError:
            raise Unsupported("not a tokenizer.json file: it is not UTF-8 text") from None
    else:
        text = source
    text = text.removeprefix("\ufeff")  # (an editor's BOM: JSON has none, and json.loads and tokenizers refuse it)
    try:
        with collector_paused():  # (a big file is millions of strings, lists and tuples)
            data = json.loads(text)
            if not isinstance(data, dict) or "model" not in data:
                raise Unsupported("not a tokenizer.json file: it has no \"model\"")
            check(data)  # a field of the wrong shape is named here, not a KeyError in a builder
            return HFTokenizer(data, name or "tokenizer.json", backend, text)
    except json.JSONDecodeError as error:
        raise Unsupported(f"not a tokenizer.json file: {error}") from None
    except RecursionError:  # (json.loads, check and the builders recurse: Sequences of Sequences...)
        raise Unsupported("tokenizer.json: nested too deeply") from None
