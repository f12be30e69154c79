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

import functools
import hashlib
import json
import re
import unicodedata

from . import unicode_tables as hf_unicode
from . import normalizers as hf_normalizers
from . import regex_cuts
from .graphemes import PREPEND
from .models import build_model
from .normalizers import Unsupported, build_normalizer
from .pretokenizers import GPT2_PATTERN, build_pre_tokenizer, byte_level_chars, metaspace_scheme
from .schema import check
from .text import LETTER, LOWERCASE_TABLE, NUMBER, WHITE_SPACE, RangeSet, as_known, is_bert_punctuation
from ..base import NOWHERE, Tokenizer

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
    """tokenizers' AddedVocabulary: the tokens matched in the raw text, or (normalized)
    in the normalized text, with their contents normalized as that text is."""

    def __init__(self, entries: list[dict], normalize=None):
        self.ids: dict[str, int] = {}
        options = {}
        for entry in entries:
            content = normalize(entry["content"]) if normalize is not None else entry["content"]
            if not content:
                continue
            self.ids[content] = entry["id"]
            options[content] = (entry.get("single_word", False), entry.get("lstrip", False), entry.get("rstrip", False))
        self.options = options
        alternatives = sorted(self.ids, key=len, reverse=True)  # leftmost-longest
        self.regex = re.compile("|".join(map(re.escape, alternatives))) if alternatives else None
        # An added token that ends where a search window ends.
        self.ending = re.compile("(?:" + "|".join(map(re.escape, alternatives)) + r")\Z") if alternatives else None
        self.longest = max(map(len, alternatives), default=0)
        # A token that holds a space, matched across a cut before that space (or, single_word,
        # starting at it: the character before the cut decides whether it is a word).
        across = [
            f"(?<={re.escape(content[:i])})(?={re.escape(content[i:])})"
            for content, (single_word, _, _) in options.items()
            for i, ch in enumerate(content)
            if ch == " " and (i > 0 or single_word)
        ]
        self.across = re.compile("|".join(across)) if across else None

    def splits_at(self, text: str, p: int) -> bool:
        """Whether a cut at p keeps every match of the whole text on one side, and
        leaves no match ending at p (the text after it starts a new segment there)."""
        if self.ending is None:
            return True
        if self.across is not None and self.across.match(text, p):
            return False
        return self.ending.search(text, max(0, p - self.longest), p) is None

    def split(self, text: str) -> list[tuple[str, int | None]]:
        """Pieces of text: (plain text, None) or (token text, id), in order. As the library:
        the matches do not overlap, and the search goes on after each, whatever its rstrip
        took or single_word refused (so a match may start inside the spaces rstrip took)."""
        if self.regex is None or not text:
            return [(text, None)]
        out: list[tuple[str, int | None]] = []
        pos = 0
        for m in self.regex.finditer(text):
            start, end = m.span()
            single_word, lstrip, rstrip = self.options[m.group()]
            if single_word and (
                start > 0 and _is_word_char(text[start - 1]) or end < len(text) and _is_word_char(text[end])
            ):
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
            pos = end
        if pos < len(text):
            out.append((text[pos:], None))
        return out


# The library's word characters for single_word (Rust regex's Unicode \w, its own tables:
# marks and U+200D are, U+00B2 is not), not the running Python's str.isalnum.
_ADDED_WORD = RangeSet(hf_unicode.ADDED_WORD)


def _is_word_char(ch: str) -> bool:
    return ch in _ADDED_WORD


def _flatten(spec, key):
    if spec is None:
        return []
    if spec.get("type") == "Sequence":
        return [s for sub in spec.get(key, []) for s in _flatten(sub, key)]
    return [spec]


# -- where a text may be cut: what the pipeline does to a space ----------------------
#
# The token index cuts a text before a space that follows a letter, number or ASCII
# symbol (SEPARABLE), and counts encode(s[:p]) + encode_continued(s[p:]) for encode(s).
# That is exact when the normalizers map the two sides apart (the space becomes an
# "image" at the start of the right side, and nothing reaches across it), and then a
# pre-tokenizer starts a pre-token at the image, or the model never merges across it.
# Each step is judged by what it does to that space; tests/test_hf_cuts.py checks the
# verdict against the library for every combination of steps the builders accept.


def _ends_left(ch: str) -> bool:
    """Whether ch may end the text before a cut (SEPARABLE): a letter, number or ASCII symbol."""
    return "!" <= ch <= "~" or ch in LETTER or ch in NUMBER


@functools.cache
def _left_ends(spec_text: str) -> frozenset[str]:
    """The last characters of what a character-by-character normalizer makes of each
    letter, number and ASCII symbol, when they are none of those ("" for nothing)."""
    fn = build_normalizer(json.loads(spec_text))
    out = set()
    for ch in _changing_chars():
        made = fn(ch)
        if not made or not _ends_left(made[-1]):
            out.add(made[-1:])
    if json.loads(spec_text).get("type") == "BertNormalizer" and fn("\u4e00") != "\u4e00":
        out.add(" ")  # (handle_chinese_chars: " 一 ")
    return frozenset(out)


@functools.cache
def _changing_chars() -> list[str]:
    """The letters, numbers and ASCII symbols that a Unicode form, the library's
    lowercase or BertNormalizer's accent stripping may change (a character without a
    decomposition is its own normal form)."""
    out = set(map(chr, hf_normalizers.STRIP_TABLE)) | set(map(chr, LOWERCASE_TABLE))
    for table in (LETTER, NUMBER):
        out.update(ch for lo, hi in zip(table.starts, table.ends) for ch in map(chr, range(lo, hi + 1))
                   if unicodedata.decomposition(ch))
    return sorted(ch for ch in out if _ends_left(ch))


def _stable_starter(ch: str) -> bool:
    """No Unicode normalization form joins ch with what is before it, or changes it."""
    if ch < "\x80":
        return True
    return (
        all(unicodedata.normalize(form, ch) == ch for form in ("NFC", "NFD", "NFKC", "NFKD"))
        and unicodedata.combining(ch) == 0
        and ch not in _composition_seconds()
    )


@functools.cache
def _composition_seconds() -> frozenset[str]:
    """The characters that compose with the one before them (NFC), e.g. U+0DCF."""
    out = set()
    for o in range(0x80, 0x110000):
        parts = unicodedata.decomposition(chr(o)).split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            out.add(chr(int(parts[1], 16)))
    return frozenset(out | {chr(o) for o in range(0x1161, 0x1176)} | {chr(o) for o in range(0x11A8, 0x11C3)})


class _Cut:
    """What a cut before a space has become, step by step (see _cuts_at_spaces)."""

    def __init__(self):
        self.images = {" "}  # what the right side may start with
        # What the left side may end with besides _ends_left's characters (None: any).
        self.ends: set[str] | None = set()
        self.may_empty = False  # a left side may normalize to nothing
        self.apart_in_bytes = None  # images_apart() when ByteLevel made them bytes

    def map_images(self, fn, spec: dict) -> bool:
        """A step that changes each character on its own: the images are what it makes of
        them, and the left side may end with the last character of what it makes of any
        character it may end with."""
        self.images = {fn(i) for i in self.images}
        if self.ends is not None:
            before, self.ends = self.ends, set()
            for made in _left_ends(json.dumps(spec, sort_keys=True)) | {fn(ch) for ch in before}:
                self.left_may_end_with(made)
        return all(self.images)

    def images_apart(self) -> bool:
        """No image is empty or starts with a character the left side may end with."""
        return all(i and not self.may_end_left(i[0]) for i in self.images)

    def may_end_left(self, ch: str) -> bool:
        return self.ends is None or _ends_left(ch) or ch in self.ends

    def left_may_end_with(self, content: str) -> None:
        if not content:
            self.ends, self.may_empty = None, True  # (what was before it)
        elif self.ends is not None and not _ends_left(content[-1]):
            self.ends.add(content[-1])

    def left_may_end_with_space(self) -> bool:
        return self.ends is None or any(ch in WHITE_SPACE for ch in self.ends)


def _normalizers_keep_the_cut(normalizers: list[dict], cut: _Cut) -> bool:
    for spec in normalizers:
        kind = spec.get("type")
        step = build_normalizer(spec)
        if kind in ("Lowercase", "StripAccents"):
            ok = cut.map_images(step, spec)
        elif kind in ("NFC", "NFD", "NFKC", "NFKD", "BertNormalizer"):
            # Character by character but for composition (BertNormalizer: strip_accents'
            # decomposition), which never reaches back across a stable starter.
            ok = all(_stable_starter(i[0]) for i in cut.images) and cut.map_images(step, spec)
        elif kind == "Prepend":
            # encode_continued leaves it out; a left side that normalized to nothing would
            # leave the whole text's prefix out too.
            ok = not cut.may_empty
        elif kind == "Strip":
            # encode_continued does not strip the left; the right of a left side that ends
            # with whitespace would be stripped where the whole text keeps it.
            ok = not (spec.get("strip_right", True) and cut.left_may_end_with_space())
        elif kind == "Replace":
            ok = _replace_keeps_the_cut(spec, cut)
        elif kind == "Precompiled":
            ok = _precompiled_keeps_the_cut(step, cut)
        else:
            ok = False
        if not ok:
            return False
    return True


def _replace_keeps_the_cut(spec: dict, cut: _Cut) -> bool:
    pattern, content = spec["pattern"], spec["content"]
    literal = pattern.get("String")
    regex = re.escape(literal) if literal is not None else pattern.get("Regex")
    if not regex:
        return False
    # A pattern of one character, or of a run of it (" {2,}"), may replace an image
    # that starts with that character; any other pattern must not see the image.
    run = re.fullmatch(r"(\\?[^\\()\[\]{}|.^$*+?])(\{\d+(,\d*)?\}|[*+?])?", regex)
    if run and len(run.group(1)) == 2 and run.group(1)[1].isalnum():
        run = None  # (\s, \d, \p: a class, not a character)
    images = set()
    for image in cut.images:
        verdict = regex_cuts.cut_before(regex, image[0], cut.ends)
        if verdict == "blind":
            images.add(image)
        elif verdict is None or not run or run.group(1)[-1] != image[0]:
            return False
        elif run.group(2) is None:
            images.add(content + image[1:])  # (each image character alone)
        else:
            images |= {image, content}  # (a run at the cut: replaced, or too short)
    cut.images = images
    if regex_cuts.takes_a_head(regex, cut.ends):
        cut.left_may_end_with(content)
    return all(cut.images)


def _precompiled_keeps_the_cut(step, cut: _Cut) -> bool:
    if step is None:
        return True
    # A Prepend character (U+0D4E) forms one cluster with the space after it, which the
    # charsmap replaces whole when a key starts with it.
    if any(step.starts_a_key(chr(o).encode("utf-8")) for o in PREPEND):
        return False
    images = set()
    for image in cut.images:
        first = image[0].encode("utf-8")
        value = step.transform(image[0])
        if value is None and step.starts_a_key(first):
            return False  # (a key of the image and what follows it)
        images.add(image if value is None else value + image[1:])
    cut.images = images
    # What the charsmap makes of a character the left side may end with.
    for ch, value in step.char_values().items():
        if _ends_left(ch):
            cut.left_may_end_with(value)
    return all(cut.images)


def _pre_tokenizers_cut(pre_tokenizers: list[dict], cut: _Cut) -> bool | None:
    """True: a pre-token always starts at the image; False: no pre-token holds both
    sides but (maybe) the one that ends the left side and starts the right one;
    None: a pre-token may reach across otherwise."""
    for spec in pre_tokenizers:
        kind = spec.get("type")
        white = all(i[0] in WHITE_SPACE for i in cut.images)
        if kind in ("BertPreTokenizer", "Whitespace", "WhitespaceSplit"):
            if white:
                return True  # (each ends a pre-token at whitespace; other cuts are local)
        elif kind == "Digits":
            pass  # (around numbers only: a cut before no number is local)
        elif kind == "Punctuation":
            if any(is_bert_punctuation(i[0]) for i in cut.images):
                return None
        elif kind == "CharDelimiterSplit":
            delimiter = spec["delimiter"]
            if all(i[0] == delimiter for i in cut.images):
                return True
            if any(delimiter in i for i in cut.images):
                return None
        elif kind == "Metaspace":
            r = spec.get("replacement", "\u2581")
            cut.images = {i.replace(" ", r) for i in cut.images}
            starts = all(i.startswith(r) for i in cut.images)
            if spec.get("split", True) and starts:
                return True  # (every replacement starts a pre-token)
            if not starts and metaspace_scheme(spec) == "always":
                return None  # (the right side alone would get a replacement first)
        elif kind == "ByteLevel":
            starts = all(i.startswith(" ") for i in cut.images)
            if spec.get("add_prefix_space", True) and not starts:
                return None  # (the right side alone would get a space first)
            if spec.get("use_regex", True):
                verdicts = {regex_cuts.cut_before(GPT2_PATTERN, i[0], cut.ends) for i in cut.images}
                if None in verdicts:
                    return None
                if verdicts == {"starts"}:
                    return True
            # (the first byte of an image is the last of what the left side ends with
            # only when the characters are the same)
            cut.apart_in_bytes = cut.images_apart()
            cut.images = {byte_level_chars(i) for i in cut.images}
        elif kind == "Split":
            pattern = spec["pattern"]
            literal = pattern.get("String")
            regex = re.escape(literal) if literal is not None else pattern.get("Regex")
            if not regex:
                return None
            verdicts = {regex_cuts.cut_before(regex, i[0], cut.ends) for i in cut.images}
            if None in verdicts:
                return None
            # A match starts at the image: so does a pre-token, but where the match is
            # merged with what is before it (or, Contiguous, with a match before it).
            behavior = spec.get("behavior", "Isolated").lower()
            if verdicts == {"starts"} and behavior in (
                ("isolated", "removed") if spec.get("invert") else ("isolated", "removed", "mergedwithnext")
            ):
                return True
        else:
            return None
    return False


def _model_keeps_apart(model: dict, cut: _Cut) -> bool:
    """A BPE model never makes a token of the image and what is before it."""
    apart = cut.images_apart() if cut.apart_in_bytes is None else cut.apart_in_bytes
    if model.get("type") != "BPE" or model.get("dropout") or not apart:
        return False
    if model.get("continuing_subword_prefix") or model.get("end_of_word_suffix"):
        return False  # (they mark where a word starts and ends: a cut would move that)
    starts = {i[0] for i in cut.images}
    if model.get("fuse_unk") and not starts <= set(model.get("vocab", {})):
        return False
    for merge in model.get("merges", []):
        a, b = merge.split(" ", 1) if isinstance(merge, str) else merge
        if b[:1] in starts and a.strip(b[0]):
            return False
    if model.get("ignore_merges"):  # a word that is in the vocabulary is one token
        for token in model.get("vocab", {}):
            if any(token[k] in starts and token[k - 1] != token[k] for k in range(1, len(token))):
                return False
    return True


def _cuts_at_spaces(data: dict) -> bool:
    """True when encode(s) == encode(s[:p]) + encode_continued(s[p:]) wherever s[p]
    is a space and s[p-1] a letter, number or ASCII symbol (the tests check it)."""
    try:
        cut = _Cut()
        if not _normalizers_keep_the_cut(_flatten(data.get("normalizer"), "normalizers"), cut):
            return False
        split = _pre_tokenizers_cut(_flatten(data.get("pre_tokenizer"), "pretokenizers"), cut)
    except (Unsupported, KeyError, TypeError):
        return False
    if split is None:
        return False
    return split or _model_keeps_apart(data.get("model", {}), cut)


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
        self.cuts_at_spaces = _cuts_at_spaces(data) and not (self.added_normalized.ids and self.normalizer)
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


# A cut before a space that follows a letter, number (the library's: run it over
# as_known(text)) or ASCII symbol.
SEPARABLE = re.compile(r"(?<=[!-~]|[^\W_])(?= )")


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
        data = json.loads(text)
        if not isinstance(data, dict) or "model" not in data:
            raise Unsupported("not a tokenizer.json file: it has no \"model\"")
        check(data)  # a field of the wrong shape is named here, not a KeyError in a builder
        return HFTokenizer(data, name or "tokenizer.json", backend, text)
    except json.JSONDecodeError as error:
        raise Unsupported(f"not a tokenizer.json file: {error}") from None
    except RecursionError:  # (json.loads, check and the builders recurse: Sequences of Sequences...)
        raise Unsupported("tokenizer.json: nested too deeply") from None
