"""Where a tokenizer.json's text may be cut exactly: SEPARABLE (before a space after
a letter, number or ASCII symbol) and _cuts_at_spaces, which reads the pipeline's
normalizers, pre-tokenizers and model step by step to say whether that cut is exact."""
from __future__ import annotations

import functools
import json
import re
import unicodedata

from . import regex_cuts
from .graphemes import PREPEND
from .components import build_normalizer
from .normalizers import STRIP_TABLE, Unsupported
from .pretokenizers import GPT2_PATTERN, byte_level_chars, metaspace_scheme
from .text import LETTER, LOWERCASE_TABLE, NUMBER, WHITE_SPACE, is_bert_punctuation

# A cut before a space that follows a letter, number (the library's: run it over
# as_known(text)) or ASCII symbol.
SEPARABLE = re.compile(r"(?<=[!-~]|[^\W_])(?= )")


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
# Each step is judged by what it does to that space; tests/tokenizer/test_hf_cuts.py checks the
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
    out = set(map(chr, STRIP_TABLE)) | set(map(chr, LOWERCASE_TABLE))
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


def _model_keeps_apart(model: dict, cut: _Cut, bpe) -> bool:
    """A BPE model (its spec, and built: models.BPE) never makes a token of the image
    and what is before it."""
    apart = cut.images_apart() if cut.apart_in_bytes is None else cut.apart_in_bytes
    if model.get("type") != "BPE" or model.get("dropout") or not apart:
        return False
    if model.get("continuing_subword_prefix") or model.get("end_of_word_suffix"):
        return False  # (they mark where a word starts and ends: a cut would move that)
    starts = {i[0] for i in cut.images}
    if model.get("fuse_unk") and not starts <= set(model.get("vocab", {})):
        return False
    for a, b in bpe.merges_before(starts):
        if a.strip(b[0]):
            return False
    if model.get("ignore_merges"):  # a word that is in the vocabulary is one token
        for token in model.get("vocab", {}):
            if any(token[k] in starts and token[k - 1] != token[k] for k in range(1, len(token))):
                return False
    return True


def _cuts_at_spaces(data: dict, model) -> bool:
    """True when encode(s) == encode(s[:p]) + encode_continued(s[p:]) wherever s[p]
    is a space and s[p-1] a letter, number or ASCII symbol (the tests check it).
    model: the built model of data["model"]."""
    try:
        cut = _Cut()
        if not _normalizers_keep_the_cut(_flatten(data.get("normalizer"), "normalizers"), cut):
            return False
        split = _pre_tokenizers_cut(_flatten(data.get("pre_tokenizer"), "pretokenizers"), cut)
    except (Unsupported, KeyError, TypeError):
        return False
    if split is None:
        return False
    return split or _model_keeps_apart(data.get("model", {}), cut, model)
