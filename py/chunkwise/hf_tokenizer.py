"""Hugging Face tokenizer.json files, counted exactly in pure Python.

    tok = tokenizer_from_text(Path("tokenizer.json").read_text(encoding="utf-8"), name)
    tok.encode(text)    # the ids of tokenizers' encode(text, add_special_tokens=False)

The pipeline is the `tokenizers` library's: added tokens are matched in the raw
text first; each stretch between them is normalized, pre-tokenized and run
through the model. Special tokens that the post-processor adds ([CLS] ... [SEP],
<s> ... </s>) are not counted; `special_tokens_added` says how many there are.
The file's truncation and padding settings are ignored: chunkwise counts what
the text costs, it never truncates it. Any component that is not implemented
raises Unsupported (never a silently wrong count); see SUPPORTED.

On CPython with the `tokenizers` package installed, HFTokenizer can use it as
its encoder (backend "tokenizers"); the differential tests require the same ids.
"""
from __future__ import annotations

import hashlib
import json
import re

from . import hf_unicode
from .hf_models import build_model
from .hf_normalizers import Unsupported, build_normalizer
from .hf_pretokenizers import GPT2_PATTERN, build_pre_tokenizer
from .hf_schema import check
from .hf_text import WHITE_SPACE, RangeSet, as_known
from .tokenizers import Tokenizer

SUPPORTED = {
    "models": ["WordPiece", "BPE (byte-level; SentencePiece-style with byte_fallback)", "Unigram", "WordLevel"],
    "normalizers": ["BertNormalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents", "Strip",
                    "Replace", "Prepend", "Precompiled", "Sequence"],
    "pre_tokenizers": ["BertPreTokenizer", "ByteLevel", "Metaspace", "Split", "Whitespace", "WhitespaceSplit",
                       "Digits", "Punctuation", "CharDelimiterSplit", "Sequence"],
}

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


class _AddedTokens:
    """tokenizers' AddedVocabulary for tokens matched in the raw text."""

    def __init__(self, entries: list[dict]):
        self.ids: dict[str, int] = {}
        options = {}
        for entry in entries:
            content = entry["content"]
            if not content:
                continue
            if entry.get("normalized", False) and not entry.get("special", False):
                raise Unsupported(f"added token {content!r} is matched after normalization, which is not supported")
            self.ids[content] = entry["id"]
            options[content] = (entry.get("single_word", False), entry.get("lstrip", False), entry.get("rstrip", False))
        self.options = options
        alternatives = sorted(self.ids, key=len, reverse=True)  # leftmost-longest
        self.regex = re.compile("|".join(map(re.escape, alternatives))) if alternatives else None
        # An added token that ends where a search window ends.
        self.ending = re.compile("(?:" + "|".join(map(re.escape, alternatives)) + r")\Z") if alternatives else None
        self.longest = max(map(len, alternatives), default=0)

    def split(self, text: str) -> list[tuple[str, int | None]]:
        """Pieces of text: (plain text, None) or (token text, id), in order."""
        if self.regex is None or not text:
            return [(text, None)]
        out: list[tuple[str, int | None]] = []
        pos = 0
        search = self.regex.search
        start_at = 0
        while True:
            m = search(text, start_at)
            if m is None:
                break
            start, end = m.span()
            single_word, lstrip, rstrip = self.options[m.group()]
            if single_word and (
                start > 0 and _is_word_char(text[start - 1]) or end < len(text) and _is_word_char(text[end])
            ):
                start_at = start + 1
                continue
            if lstrip:
                while start > pos and text[start - 1] in WHITE_SPACE:
                    start -= 1
            if rstrip:
                while end < len(text) and text[end] in WHITE_SPACE:
                    end += 1
            if start > pos:
                out.append((text[pos:start], None))
            out.append((text[start:end], self.ids[m.group()]))
            pos = start_at = end
        if pos < len(text):
            out.append((text[pos:], None))
        return out


# The library's word characters for single_word (Rust regex's Unicode \w, its own tables:
# marks and U+200D are, U+00B2 is not), not the running Python's str.isalnum.
_ADDED_WORD = RangeSet(hf_unicode.ADDED_WORD)


def _is_word_char(ch: str) -> bool:
    return ch in _ADDED_WORD


# Pre-tokenizers that always end a pre-token before a space that follows a letter,
# digit or ASCII symbol, and start the next one there, whatever comes after.
_SPACE_SPLITTING = {"BertPreTokenizer", "Whitespace", "WhitespaceSplit", "Metaspace", "ByteLevel", "Split"}
_ADDITIVE_NORMALIZERS = {"BertNormalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents",
                         "Precompiled", "Prepend", "Replace", "Sequence"}
_LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_QWEN2_PATTERN = _LLAMA3_PATTERN.replace(r"\p{N}{1,3}", r"\p{N}")
_KNOWN_SPLITS = {GPT2_PATTERN, _LLAMA3_PATTERN, _QWEN2_PATTERN, " "}


def _flatten(spec, key):
    if spec is None:
        return []
    if spec.get("type") == "Sequence":
        return [s for sub in spec.get(key, []) for s in _flatten(sub, key)]
    return [spec]


def _cuts_at_spaces(data: dict) -> bool:
    """True when encode(s) == encode(s[:p]) + encode_continued(s[p:]) wherever s[p]
    is a space and s[p-1] a letter, digit or ASCII symbol (the tests check it)."""
    normalizers = _flatten(data.get("normalizer"), "normalizers")
    for n in normalizers:
        if n.get("type") not in _ADDITIVE_NORMALIZERS:
            return False
        if n.get("type") == "Replace":
            pattern = n["pattern"].get("String", n["pattern"].get("Regex"))
            if pattern not in (" ", " {2,}"):
                return False
    pre = _flatten(data.get("pre_tokenizer"), "pretokenizers")
    splitting = False
    for p in pre:
        kind = p.get("type")
        if kind == "Split":
            pattern = p["pattern"].get("String", p["pattern"].get("Regex"))
            if pattern not in _KNOWN_SPLITS or p.get("invert") or p.get("behavior", "Isolated").lower() != "isolated":
                return False
            splitting = True
        elif kind == "ByteLevel":
            splitting = splitting or p.get("use_regex", True)
        elif kind == "Metaspace":
            splitting = splitting or p.get("split", True)
        elif kind in _SPACE_SPLITTING:
            splitting = True
        elif kind not in ("Digits", "Punctuation"):
            return False
    if splitting:
        return True
    # No pre-tokenizer: a SentencePiece-style BPE whose normalizer writes spaces as
    # "▁" never merges across the start of a "▁" that follows other text.
    model = data.get("model", {})
    if model.get("type") != "BPE" or not any(
        n.get("type") == "Replace" and n["pattern"].get("String") == " " and n.get("content") == "\u2581"
        for n in normalizers
    ):
        return False
    for merge in model.get("merges", []):
        a, b = merge.split(" ", 1) if isinstance(merge, str) else merge
        if b.startswith("\u2581") and a.strip("\u2581"):
            return False
    return True


class HFTokenizer(Tokenizer):
    """A tokenizer.json model; name is what `encoding` reports (a preset name or the file's)."""

    def __init__(self, data: dict, name: str, backend: str = "pure", source_text: str | None = None):
        self.name = name
        self.family = _family(data)
        self.special_tokens_added = _special_tokens_added(data.get("post_processor"))
        self.added = _AddedTokens(data.get("added_tokens", []))
        self.normalizer = build_normalizer(data.get("normalizer"))
        self.pre_tokenizer = build_pre_tokenizer(data.get("pre_tokenizer"))
        self.model = build_model(data.get("model", {}))
        # The start-of-input steps a continued piece (text after a cut) must skip.
        self._prepend = [n.get("prepend") for n in _flatten(data.get("normalizer"), "normalizers") if n.get("type") == "Prepend"]
        self._continued_normalizer = build_normalizer(_without_prepend(data.get("normalizer")))
        self._continued_pre_tokenizer = build_pre_tokenizer(_without_prefix_space(data.get("pre_tokenizer")))
        self.cuts_at_spaces = _cuts_at_spaces(data)
        # Where the token index may split the document (TokenIndex asks): before a
        # space after a letter, digit or ASCII symbol; nowhere when that is not exact.
        self.separable = SEPARABLE if self.cuts_at_spaces else NOWHERE
        self._start_steps = bool(self._prepend) or _has_prefix_space(data.get("pre_tokenizer"))
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
        """The ids of text that continues a longer input (after a cut at a space):
        no start-of-input prefix (Prepend, ByteLevel add_prefix_space, Metaspace "first")."""
        if self._fast is not None and not self._start_steps:
            return self._fast(text)
        return self._encode(text, continued=True)

    def separable_check(self, text: str, match) -> bool:
        """No cut right after an added token: the text after it starts a new
        segment, which the start-of-input steps (and rstrip) treat differently."""
        ending = self.added.ending
        if ending is None:
            return True
        p = match.start()
        return ending.search(text, max(0, p - self.added.longest), p) is None

    def _encode(self, text: str, continued: bool) -> list[int]:
        out: list[int] = []
        first = not continued
        for piece, tid in self.added.split(text):
            if tid is not None:
                out.append(tid)
                first = False
                continue
            normalize = self._continued_normalizer if continued else self.normalizer
            pre_tokenize = self._continued_pre_tokenizer if continued else self.pre_tokenizer
            continued = False
            if normalize is not None:
                piece = normalize(piece)
            if not piece:
                first = False
                continue
            splits = [(piece, first)]
            first = False
            if pre_tokenize is not None:
                splits = pre_tokenize(splits)
            tokenize = self.model.tokenize
            for word, _ in splits:
                if word:
                    out.extend(tokenize(word))
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


# A cut before a space that follows a letter, number (the library's: run it over
# as_known(text)) or ASCII symbol.
SEPARABLE = re.compile(r"(?<=[!-~]|[^\W_])(?= )")
NOWHERE = re.compile(r"(?!)")


def _has_prefix_space(spec) -> bool:
    for p in _flatten(spec, "pretokenizers"):
        if p.get("type") == "ByteLevel" and p.get("add_prefix_space", True):
            return True
        if p.get("type") == "Metaspace" and p.get("prepend_scheme") == "first":
            return True
    return False


def _without_prepend(spec):
    if spec is None:
        return None
    if spec.get("type") == "Prepend":
        return None
    if spec.get("type") == "Sequence":
        return {**spec, "normalizers": [s for s in (_without_prepend(x) for x in spec.get("normalizers", [])) if s]}
    return spec


def _without_prefix_space(spec):
    if spec is None:
        return None
    kind = spec.get("type")
    if kind == "ByteLevel":
        return {**spec, "add_prefix_space": False}
    if kind == "Metaspace":
        scheme = spec.get("prepend_scheme")
        if scheme == "first" or scheme is None and not spec.get("add_prefix_space", True):
            return {**spec, "prepend_scheme": "never"}
        return spec
    if kind == "Sequence":
        return {**spec, "pretokenizers": [_without_prefix_space(x) for x in spec.get("pretokenizers", [])]}
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
        data = json.loads(text)
        if not isinstance(data, dict) or "model" not in data:
            raise Unsupported("not a tokenizer.json file: it has no \"model\"")
        check(data)  # a field of the wrong shape is named here, not a KeyError in a builder
        return HFTokenizer(data, name or "tokenizer.json", backend, text)
    except json.JSONDecodeError as error:
        raise Unsupported(f"not a tokenizer.json file: {error}") from None
    except RecursionError:  # (json.loads, check and the builders recurse: Sequences of Sequences...)
        raise Unsupported("tokenizer.json: nested too deeply") from None
