"""The normalizers of Hugging Face tokenizer.json files, as str -> str functions.

Counting needs no offsets, so each normalizer only rewrites the text, exactly as
the `tokenizers` library does (differential tests compare the ids).
"""
from __future__ import annotations

import base64
import re
import struct
import unicodedata

from .graphemes import multi_char_clusters
from .regex import RegexUnsupported, compile_pattern
from . import unicode_tables
from .text import WHITE_SPACE, CodeTable, RangeSet, lowercase, parse_mapping


class Unsupported(ValueError):
    """A tokenizer.json component that chunkwise does not implement."""


_CLEAN_REMOVED = RangeSet(unicode_tables.CLEAN_REMOVED)
_CLEAN_SPACE = RangeSet(unicode_tables.CLEAN_SPACE)
_STRIP = STRIP_TABLE = parse_mapping(unicode_tables.STRIP_ACCENTS)


def _is_chinese(o: int) -> bool:
    return (
        0x4E00 <= o <= 0x9FFF
        or 0x3400 <= o <= 0x4DBF
        or 0x20000 <= o <= 0x2A6DF
        or 0x2A700 <= o <= 0x2B73F
        or 0x2B740 <= o <= 0x2B81F
        or 0x2B920 <= o <= 0x2CEAF
        or 0xF900 <= o <= 0xFAFF
        or 0x2F800 <= o <= 0x2FA1F
    )


class _Table(dict):
    """str.translate table computed per code point on first sight."""

    def __init__(self, fn):
        super().__init__()
        self._fn = fn

    def __missing__(self, code: int):
        value = self[code] = self._fn(chr(code))
        return value


def _clean(ch: str):
    # BertNormalizer's clean_text: drop NUL, U+FFFD and control characters, make
    # whitespace a space (the library's own tables, see unicode_tables.py).
    if ch in _CLEAN_REMOVED:
        return None
    if ch in _CLEAN_SPACE:
        return " "
    return ch


def _chinese(ch: str):
    return f" {ch} " if _is_chinese(ord(ch)) else ch


def bert_normalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None, lowercase_=True):
    clean_table = _Table(_clean)
    chinese_table = _Table(_chinese)
    if strip_accents is None:
        strip_accents = lowercase_

    def normalize(text: str) -> str:
        if clean_text:
            text = text.translate(clean_table)
        if handle_chinese_chars and not text.isascii():
            text = text.translate(chinese_table)
        if strip_accents and not text.isascii():
            text = _strip_accents(text)
        if lowercase_:
            text = lowercase(text)
        return text

    return normalize


_COMBINING = RangeSet(unicode_tables.COMBINING_MARKS)
_MARKS = _Table(lambda ch: None if ch in _COMBINING else ch)
_HANGUL = re.compile("[\uac00-\ud7a3]+")


def _strip_accents(text: str) -> str:
    """BertNormalizer's strip_accents (NFD, then drop nonspacing marks), character
    by character from the library's table; Hangul syllables decompose by rule."""
    text = text.translate(_STRIP)
    return _HANGUL.sub(lambda m: unicodedata.normalize("NFD", m.group()), text)


def strip_accents_normalizer():
    # tokenizers' StripAccents: drops every combining mark (its own tables).
    def normalize(text: str) -> str:
        return text if text.isascii() else text.translate(_MARKS)

    return normalize


def strip_normalizer(left=True, right=True):
    ws = "".join(sorted(WHITE_SPACE))

    def normalize(text: str) -> str:
        if left:
            text = text.lstrip(ws)
        if right:
            text = text.rstrip(ws)
        return text

    return normalize


# The library normalizes with Unicode 9.0's tables: to it, a character of a later version
# is a starter that nothing decomposes, reorders or composes with. unicodedata may do all
# three (Unicode 14 on CPython 3.11, 16 in Pyodide), so the text is normalized in pieces
# between such characters, which are kept as they are.
_UNKNOWN = RangeSet(unicode_tables.NORMALIZATION_UNKNOWN)
_UNKNOWN_CODES = CodeTable(lambda ch: "u" if ch in _UNKNOWN else "k")
_UNKNOWN_RE = re.compile("u")


def unicode_form(form: str):
    def normalize(text: str) -> str:
        if text.isascii():
            return text
        codes = _UNKNOWN_CODES
        if all(codes[ord(ch)] == "k" for ch in set(text)):
            return unicodedata.normalize(form, text)
        out, pos = [], 0
        for m in _UNKNOWN_RE.finditer(codes.codes(text)):
            out += [unicodedata.normalize(form, text[pos : m.start()]), text[m.start()]]
            pos = m.end()
        out.append(unicodedata.normalize(form, text[pos:]))
        return "".join(out)

    return normalize


def prepend_normalizer(prepend: str):
    def normalize(text: str) -> str:
        return prepend + text if text else text

    return normalize


def replace_normalizer(pattern: dict, content: str):
    if "String" in pattern:
        literal = pattern["String"]

        def normalize(text: str) -> str:
            return text.replace(literal, content) if literal else text

        return normalize
    try:
        regex = compile_pattern(pattern.get("Regex"))
    except RegexUnsupported as error:
        raise Unsupported(f"Replace normalizer: {error}") from None

    def normalize_regex(text: str) -> str:
        spans = regex.spans(text)
        if not spans:
            return text
        out = []
        pos = 0
        for start, end in spans:
            out.append(text[pos:start])
            out.append(content)
            pos = end
        out.append(text[pos:])
        return "".join(out)

    return normalize_regex


class Precompiled:
    """SentencePiece's precompiled charsmap (a darts double-array trie and a pool
    of replacement strings), applied the way tokenizers does: per grapheme cluster
    shorter than 6 UTF-8 bytes, the value of the SHORTEST trie key that prefixes
    it replaces the whole cluster; otherwise each character on its own."""

    def __init__(self, charsmap_b64: str):
        try:  # base64 of: the trie's size in bytes, the trie, then the UTF-8 pool
            raw = base64.b64decode(charsmap_b64)
            (trie_size,) = struct.unpack_from("<I", raw, 0)
            self.units = struct.unpack_from(f"<{trie_size // 4}I", raw, 4)
            self.pool = raw[4 + trie_size :]
            self.pool.decode("utf-8")
        except (ValueError, struct.error):  # binascii.Error and UnicodeDecodeError are ValueErrors
            raise Unsupported("Precompiled normalizer: precompiled_charsmap is not a valid charsmap") from None
        self._memo: dict[str, str | None] = {}
        self._table = None

    def _first_prefix_value(self, key: bytes):
        units = self.units
        if not units:
            return None
        unit = units[0]
        pos = (unit >> 10) << ((unit & (1 << 9)) >> 6)
        for c in key:
            if c == 0:
                return None
            pos ^= c
            if pos >= len(units):
                return None
            unit = units[pos]
            if unit & ((1 << 31) | 0xFF) != c:
                return None
            pos ^= (unit >> 10) << ((unit & (1 << 9)) >> 6)
            if (unit >> 8) & 1:
                return units[pos] & 0x7FFFFFFF
        return None

    def starts_a_key(self, prefix: bytes) -> bool:
        """Whether some key of the trie starts with these bytes."""
        units = self.units
        if not units:
            return False
        unit = units[0]
        pos = (unit >> 10) << ((unit & (1 << 9)) >> 6)
        for c in prefix:
            pos ^= c
            if pos >= len(units) or units[pos] & ((1 << 31) | 0xFF) != c:
                return False
            unit = units[pos]
            pos ^= (unit >> 10) << ((unit & (1 << 9)) >> 6)
        return True

    def char_values(self) -> dict[str, str]:
        """The replacement of every character that is a key by itself (a walk of the
        trie along UTF-8 sequences: a few thousand steps, not all keys)."""
        units = self.units
        out: dict[str, str] = {}
        if not units:
            return out
        offset = lambda unit: (unit >> 10) << ((unit & (1 << 9)) >> 6)  # noqa: E731
        leads = [(range(1, 0x80), 0), (range(0xC2, 0xE0), 1), (range(0xE0, 0xF0), 2), (range(0xF0, 0xF5), 3)]

        def walk(pos: int, key: bytes, more: int, options) -> None:
            for c in options:
                child = pos ^ c
                if child >= len(units) or units[child] & ((1 << 31) | 0xFF) != c:
                    continue
                if more:
                    walk(child ^ offset(units[child]), key + bytes([c]), more - 1, range(0x80, 0xC0))
                elif (units[child] >> 8) & 1:
                    index = units[child ^ offset(units[child])] & 0x7FFFFFFF
                    end = self.pool.find(b"\0", index)
                    ch = (key + bytes([c])).decode("utf-8", "replace")
                    out[ch] = self.pool[index : end if end >= 0 else len(self.pool)].decode("utf-8")

        for options, more in leads:
            walk(offset(units[0]), b"", more, options)
        return out

    def transform(self, chunk: str):
        memo = self._memo
        if chunk in memo:
            return memo[chunk]
        index = self._first_prefix_value(chunk.encode("utf-8"))
        if index is None:
            value = None
        else:
            end = self.pool.find(b"\0", index)
            value = self.pool[index : end if end >= 0 else len(self.pool)].decode("utf-8")
        if len(memo) < 1 << 16:
            memo[chunk] = value
        return value

    def _single(self, ch: str) -> str:
        norm = self.transform(ch)
        return ch if norm is None else norm

    def __call__(self, text: str) -> str:
        table = self._table
        if table is None:
            table = self._table = _Table(self._single)
        out = []
        pos = 0
        for start, cluster in multi_char_clusters(text):
            if start > pos:
                out.append(text[pos:start].translate(table))
            pos = start + len(cluster)
            if len(cluster.encode("utf-8")) < 6:
                norm = self.transform(cluster)
                if norm is not None:
                    out.append(norm)
                    continue
            out.append(cluster.translate(table))
        out.append(text[pos:].translate(table))
        return "".join(out)
