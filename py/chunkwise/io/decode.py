"""Turning bytes and browser strings into text, telling the user what was repaired."""
from __future__ import annotations

import codecs
import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_BINARY_SAMPLE = 8192

# Byte order marks, longest first: a UTF-32 LE BOM starts with the UTF-16 LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)


class _Replacements:
    """A codec error handler that replaces like "replace" and counts what it replaced,
    so U+FFFD already in the file is never reported as an invalid byte."""

    count = 0

    @classmethod
    def handle(cls, error: UnicodeDecodeError):
        cls.count += 1
        return "\ufffd", error.end


codecs.register_error("chunkwise-count", _Replacements.handle)


def _decode(data: bytes, encoding: str) -> tuple[str, int]:
    """The text and how many invalid byte sequences became U+FFFD."""
    _Replacements.count = 0
    text = data.decode(encoding, errors="chunkwise-count")
    return text, _Replacements.count


def _utf16_without_bom(data: bytes) -> str | None:
    """utf-16-le or -be when the NUL bytes make it clear (text mostly below U+0100
    has a NUL in every other byte), else None."""
    sample = data[:_BINARY_SAMPLE]
    pairs = len(sample) // 2
    if pairs < 2 or len(data) % 2:
        return None
    even, odd = sample[0 : 2 * pairs : 2].count(0), sample[1 : 2 * pairs : 2].count(0)
    if odd >= 0.4 * pairs and even <= 0.02 * pairs:
        return "utf-16-le"
    if even >= 0.4 * pairs and odd <= 0.02 * pairs:
        return "utf-16-be"
    return None


def _detect(data: bytes) -> tuple[bytes, str, str, bool, bool]:
    """How undeclared bytes are read: (the bytes without their BOM, codec, label
    for the user, bom, guessed). UTF-8 unless a BOM or the NUL bytes say otherwise.
    One definition for decode_bytes (the CLI's files and the page) and decode_strict
    (corpus documents)."""
    for mark, codec, label in _BOMS:
        if data.startswith(mark):
            return data[len(mark) :], codec, label, True, False
    guess = _utf16_without_bom(data)
    if guess is not None:
        return data, guess, "UTF-16", False, True
    return data, "utf-8", "UTF-8", False, False


def decode_bytes(data: bytes, encoding: str | None = None) -> tuple[str, dict]:
    """Decode a file's bytes: UTF-8, or UTF-16/UTF-32 with a BOM, or UTF-16 without
    one when its NUL bytes make that clear; what is invalid becomes U+FFFD.

    `encoding` (a Python codec name such as "cp1251" or "latin-1") skips the
    detection and decodes with that codec; a leading BOM is dropped.
    Returns the text and an info dict: replaced (invalid sequences that became
    U+FFFD), bom, binary, encoding (the codec used), and message (a sentence for
    the user, or None when nothing needs saying).
    """
    if encoding is not None:
        return _decode_as(data, encoding)
    data, encoding, label, bom, guessed = _detect(data)
    text, replaced = _decode(data, encoding)
    binary = encoding == "utf-8" and b"\x00" in data[:_BINARY_SAMPLE]
    notes = []
    if binary:
        notes.append("This file looks binary (it contains NUL bytes); it was read as text anyway.")
    if replaced:
        notes.append(
            f"{replaced} invalid byte sequence{'s were' if replaced != 1 else ' was'} not {label}"
            " and became U+FFFD (\ufffd)."
        )
    if guessed:
        order = "little" if encoding.endswith("le") else "big"
        notes.append(
            f"The file has no byte order mark but its NUL bytes say UTF-16 ({order}-endian);"
            " it was decoded as such."
        )
    elif bom and label != "UTF-8":
        notes.append(f"The file is {label} (it starts with a byte order mark) and was decoded as such.")
    info = {"replaced": replaced, "bom": bom, "binary": binary, "encoding": encoding}
    return text, info | {"message": " ".join(notes) or None}


def check_encoding(encoding: str) -> str:
    """The codec's canonical name; ValueError (a sentence) when it is not a text codec."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}") from None
    if not getattr(info, "_is_text_encoding", True):
        raise ValueError(f"{encoding!r} is not a text encoding")
    return info.name


def _decode_as(data: bytes, encoding: str) -> tuple[str, dict]:
    """Decode with the codec the user chose, replacing what it cannot decode."""
    codec = check_encoding(encoding)
    text, replaced = _decode(data, codec)
    bom = text.startswith("\ufeff")
    if bom:
        text = text[1:]
    notes = [f"Read as {codec}, as asked."]
    if replaced:
        notes.append(
            f"{replaced} byte sequence{'s were' if replaced != 1 else ' was'} not valid {codec}"
            " and became U+FFFD (\ufffd)."
        )
    return text, {"replaced": replaced, "bom": bom, "binary": False, "encoding": codec, "message": " ".join(notes)}


def replace_surrogates(text: str) -> tuple[str, int]:
    """Lone surrogates (from broken UTF-16) become U+FFFD; the length is unchanged."""
    if text.isascii():
        return text, 0
    try:
        text.encode("utf-8")  # fails only on surrogates; faster than a regex scan
        return text, 0
    except UnicodeEncodeError:
        pass
    return _SURROGATE.subn("\ufffd", text)


def decode_strict(data: bytes, encoding: str | None = None) -> str:
    """Decode like decode_bytes (the same detection: UTF-8, UTF-16/UTF-32 with a BOM,
    UTF-16 when the NUL bytes say so; or the codec `encoding` names, a leading BOM
    dropped), but refuse instead of repairing: for corpus documents, where a U+FFFD
    in the index is worse than an error row. Raises ValueError with a sentence for
    the user."""
    if encoding is not None:
        encoding = label = check_encoding(encoding)
        try:
            return data.decode(encoding).removeprefix("\ufeff")
        except UnicodeDecodeError as error:
            raise ValueError(f"not valid {label} (byte offset {error.start}: {error.reason})") from None
    data, encoding, label, _, _ = _detect(data)
    if encoding == "utf-8" and b"\x00" in data[:_BINARY_SAMPLE]:
        raise ValueError("looks binary (it contains NUL bytes)")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValueError(f"not valid {label} (byte offset {error.start}: {error.reason})") from None
