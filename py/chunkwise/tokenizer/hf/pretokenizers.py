"""The pre-tokenizers of Hugging Face tokenizer.json files.

A pre-tokenizer maps a list of splits to a finer list. A split is (text, first):
first is True for the split that starts the input (Metaspace's "first" prepend
scheme asks). Each behaves as the `tokenizers` library's (differential tests).
"""
from __future__ import annotations

import re

from .normalizers import Unsupported
from .regex import RegexUnsupported, compile_pattern, literal_spans
from . import unicode_tables
from .text import WHITE_SPACE, CodeTable, RangeSet, is_bert_punctuation, split_spans

Splits = list[tuple[str, bool]]


def _apply(splits: Splits, cut) -> Splits:
    """cut(text) -> list of (start, end); each piece keeps `first` only at offset 0."""
    out: Splits = []
    for text, first in splits:
        for start, end in cut(text):
            out.append((text[start:end], first and start == 0))
    return out


def _bert_code(ch: str) -> str:
    if ch in WHITE_SPACE:
        return " "
    return "P" if is_bert_punctuation(ch) else "x"


_BERT = CodeTable(_bert_code)
_BERT_RE = re.compile(r"x+|P")


def bert_pre_tokenizer():
    def cut(text):
        if text.isalnum():
            return [(0, len(text))]
        return [m.span() for m in _BERT_RE.finditer(_BERT.codes(text))]

    return lambda splits: _apply(splits, cut)


_WHITESPACE_WORD = RangeSet(unicode_tables.WHITESPACE_WORD)


def _word_code(ch: str) -> str:
    # The library's Whitespace pre-tokenizer: its own word characters (generated).
    if ch in WHITE_SPACE:
        return " "
    return "w" if ch in _WHITESPACE_WORD else "o"


_WORD = CodeTable(_word_code)
_WHITESPACE_RE = re.compile(r"w+|o+")
_NONSPACE_RE = re.compile(r"[^ ]+")


def whitespace_pre_tokenizer():
    # Whitespace: the pattern \w+|[^\w\s]+ (whitespace is dropped).
    def cut(text):
        return [m.span() for m in _WHITESPACE_RE.finditer(_WORD.codes(text))]

    return lambda splits: _apply(splits, cut)


_SPACE = CodeTable(lambda ch: " " if ch in WHITE_SPACE else "x")


def whitespace_split_pre_tokenizer():
    def cut(text):
        return [m.span() for m in _NONSPACE_RE.finditer(_SPACE.codes(text))]

    return lambda splits: _apply(splits, cut)


def metaspace_pre_tokenizer(replacement="\u2581", prepend_scheme="always", split=True):
    def run(splits: Splits) -> Splits:
        out: Splits = []
        for text, first in splits:
            text = text.replace(" ", replacement)
            if not text.startswith(replacement) and (
                prepend_scheme == "always" or prepend_scheme == "first" and first
            ):
                text = replacement + text
            if not split:
                out.append((text, first))
                continue
            for start, end in split_spans(len(text), literal_spans(text, replacement), "MergedWithNext"):
                out.append((text[start:end], first and start == 0))
        return out

    return run


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte -> printable character table."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    table = {}
    extra = 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


BYTE_TO_CHAR = _bytes_to_unicode()
# latin-1 decoding turns each byte into the code point of the same value; this
# table then maps those to GPT-2's characters.
_LATIN1_TO_BYTE_CHAR = {b: c for b, c in BYTE_TO_CHAR.items()}
GPT2_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"


def byte_level_chars(text: str) -> str:
    return text.encode("utf-8").decode("latin-1").translate(_LATIN1_TO_BYTE_CHAR)


def byte_level_pre_tokenizer(add_prefix_space=True, use_regex=True):
    pattern = compile_pattern(GPT2_PATTERN) if use_regex else None

    def run(splits: Splits) -> Splits:
        out: Splits = []
        for text, first in splits:
            if add_prefix_space and not text.startswith(" "):
                text = " " + text
            if pattern is None:
                pieces = [(text, first)]
            else:
                pieces = [
                    (text[s:e], first and s == 0) for s, e in split_spans(len(text), pattern.spans(text), "Isolated")
                ]
            out.extend((byte_level_chars(piece), f) for piece, f in pieces)
        return out

    return run


def split_pre_tokenizer(pattern: dict, behavior: str, invert: bool):
    if "String" in pattern:
        literal = pattern["String"]
        find = lambda text: literal_spans(text, literal)  # noqa: E731
    else:
        try:
            compiled = compile_pattern(pattern.get("Regex"))
        except RegexUnsupported as error:
            raise Unsupported(f"Split pre-tokenizer: {error}") from None
        find = compiled.spans
    behavior = _behavior(behavior)
    return lambda splits: _apply(splits, lambda text: split_spans(len(text), find(text), behavior, invert))


def _behavior(name: str) -> str:
    # tokenizer.json spells them "Isolated", older files "isolated".
    for known in ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"):
        if name.lower() == known.lower():
            return known
    raise Unsupported(f"split behavior {name!r} is not supported")


# Rust's char::is_numeric with the library's Unicode tables (unicode_tables.py), not the running
# Python's unicodedata: CPython 3.11 does not know the numbers of Unicode 15 and later.
_NUMERIC = RangeSet(unicode_tables.NUMERIC)
_DIGIT = CodeTable(lambda ch: "d" if ch in _NUMERIC else "x")
_DIGIT_RE = re.compile("d")
_DIGITS_RE = re.compile("d+")


def digits_pre_tokenizer(individual_digits=False):
    behavior = "Isolated" if individual_digits else "Contiguous"
    finder = _DIGIT_RE if individual_digits else _DIGITS_RE

    def cut(text):
        spans = [m.span() for m in finder.finditer(_DIGIT.codes(text))]
        return split_spans(len(text), spans, behavior)

    return lambda splits: _apply(splits, cut)


_PUNCT = CodeTable(lambda ch: "p" if is_bert_punctuation(ch) else "x")
_PUNCT_RE = re.compile("p")


def punctuation_pre_tokenizer(behavior="Isolated"):
    behavior = _behavior(behavior)

    def cut(text):
        spans = [m.span() for m in _PUNCT_RE.finditer(_PUNCT.codes(text))]
        return split_spans(len(text), spans, behavior)

    return lambda splits: _apply(splits, cut)


def char_delimiter_pre_tokenizer(delimiter: str):
    return lambda splits: _apply(splits, lambda text: split_spans(len(text), literal_spans(text, delimiter), "Removed"))


def metaspace_scheme(spec) -> str:
    if "prepend_scheme" in spec:
        return spec["prepend_scheme"]
    return "always" if spec.get("add_prefix_space", True) else "never"
