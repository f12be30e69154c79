"""Turning bytes and browser strings into text, telling the user what was repaired."""
from __future__ import annotations

import codecs
import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_BINARY_SAMPLE = 8192


def decode_bytes(data: bytes, encoding: str | None = None) -> tuple[str, dict]:
    """Decode a file's bytes as UTF-8 (or UTF-16 with a BOM), replacing what is invalid.

    `encoding` (a Python codec name such as "cp1251" or "latin-1") skips the
    detection and decodes with that codec; a leading BOM is dropped.
    Returns the text and an info dict: replaced (U+FFFD inserted), bom, binary,
    encoding (the codec used), and message (a sentence for the user, or None
    when nothing needs saying).
    """
    if encoding is not None:
        return _decode_as(data, encoding)
    bom = False
    encoding = "utf-8"
    if data.startswith(codecs.BOM_UTF8):
        data, bom = data[len(codecs.BOM_UTF8) :], True
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding, bom = "utf-16", True
    text = data.decode(encoding, errors="replace")
    # Count only the replacement characters the decoder inserted, not ones already in the file.
    already = data.count("\ufffd".encode(encoding)) if encoding == "utf-8" else 0
    replaced = text.count("\ufffd") - already
    binary = b"\x00" in data[:_BINARY_SAMPLE] and encoding == "utf-8"
    notes = []
    if binary:
        notes.append("This file looks binary (it contains NUL bytes); it was read as text anyway.")
    if replaced:
        notes.append(
            f"{replaced} invalid byte sequence{'s were' if replaced != 1 else ' was'} not UTF-8"
            " and became U+FFFD (\ufffd)."
        )
    if encoding == "utf-16":
        notes.append("The file is UTF-16 (it starts with a byte order mark) and was decoded as such.")
    return text, {"replaced": replaced, "bom": bom, "binary": binary, "encoding": encoding, "message": " ".join(notes) or None}


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
    text = data.decode(codec, errors="replace")
    # U+FFFD already in the file decodes as itself: count only the inserted ones.
    replaced = text.count("\ufffd") - data.decode(codec, errors="ignore").count("\ufffd")
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


def decode_strict(data: bytes) -> str:
    """Decode like decode_bytes (UTF-8, a BOM dropped, UTF-16 with a BOM), but refuse
    instead of repairing: for corpus documents, where a U+FFFD in the index is worse
    than an error row. Raises ValueError with a sentence for the user."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8"
        if data.startswith(codecs.BOM_UTF8):
            data = data[len(codecs.BOM_UTF8) :]
        if b"\x00" in data[:_BINARY_SAMPLE]:
            raise ValueError("looks binary (it contains NUL bytes)")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ValueError(f"not valid {encoding.upper()} (byte offset {error.start}: {error.reason})") from None
