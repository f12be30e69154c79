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

# The codecs a text file may be read with (Python's canonical names, as check_encoding
# gives them), in the order the page offers them; the legacy ones are what detection
# chooses among, this order breaking ties (the more widespread codec first).
TEXT_ENCODINGS = (
    ("utf-8", "UTF-8"),
    ("utf-16-le", "UTF-16 LE"),
    ("utf-16-be", "UTF-16 BE"),
    ("cp1252", "Windows-1252 (Western European)"),
    ("iso8859-1", "ISO-8859-1 (Latin-1)"),
    ("iso8859-15", "ISO-8859-15 (Latin-9)"),
    ("cp1250", "Windows-1250 (Central European)"),
    ("cp1251", "Windows-1251 (Cyrillic)"),
    ("koi8-r", "KOI8-R (Russian)"),
    ("cp1253", "Windows-1253 (Greek)"),
    ("cp1254", "Windows-1254 (Turkish)"),
    ("cp1255", "Windows-1255 (Hebrew)"),
    ("cp1256", "Windows-1256 (Arabic)"),
    ("cp874", "Windows-874 (Thai)"),
    ("shift_jis", "Shift JIS (Japanese)"),
    ("euc_jp", "EUC-JP (Japanese)"),
    ("gb18030", "GB18030 (Chinese)"),
    ("big5", "Big5 (Traditional Chinese)"),
    ("euc_kr", "EUC-KR (Korean)"),
    ("mac-roman", "Mac Roman"),
)
_LABELS = dict(TEXT_ENCODINGS)
LEGACY_ENCODINGS = tuple(name for name, _ in TEXT_ENCODINGS if not name.startswith("utf-"))
AUTO = "auto"  # --input-encoding auto: UTF-8/16/32 as detected, else the likely legacy codec


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


def describe_encoding(codec: str) -> str:
    """"Windows-1251 (Cyrillic), cp1251": how a codec is named to the user."""
    return f"{_LABELS[codec]}, {codec}" if codec in _LABELS else codec


def detect_legacy(data: bytes) -> str | None:
    """The legacy codec (one of LEGACY_ENCODINGS) that bytes which are not UTF-8 most
    likely are, or None when none reads them. charset-normalizer (imported here, only
    when UTF-8 has failed) ranks the codecs by how much mess and how much of a language
    each decoding shows; among codecs it finds equally likely (French reads as well in
    Windows-1250 as in Windows-1252, by its measures) the earlier in TEXT_ENCODINGS wins.
    A few words are a guess: the fewer the bytes, the less there is to tell codecs apart."""
    from charset_normalizer import from_bytes

    matches = list(from_bytes(data, cp_isolation=list(LEGACY_ENCODINGS)))
    if not matches:
        return None
    best = matches[0]

    def rank(codec: str) -> int:
        try:
            return LEGACY_ENCODINGS.index(codecs.lookup(codec).name)
        except (LookupError, ValueError):
            return len(LEGACY_ENCODINGS)

    tied = [m for m in matches if abs(m.chaos - best.chaos) < 0.01 and abs(m.coherence - best.coherence) < 0.02]
    # each match stands for every codec that decodes the bytes to the same text
    found = min((rank(c), c) for m in tied for c in [m.encoding, *m.could_be_from_charset])
    return LEGACY_ENCODINGS[found[0]] if found[0] < len(LEGACY_ENCODINGS) else None


def _likely_legacy(data: bytes, text: str, replaced: int) -> str | None:
    """detect_legacy's codec for bytes whose UTF-8 reading is `text` with `replaced`
    invalid sequences; None when they are mostly UTF-8 (as many valid multi-byte
    characters as invalid sequences: a damaged UTF-8 file, which a legacy codec would
    turn into mojibake)."""
    valid = len(text) - len(text.encode("ascii", "ignore")) - text.count("\ufffd")
    if not replaced or valid >= replaced:
        return None
    return detect_legacy(data)


def decode_bytes(data: bytes, encoding: str | None = None) -> tuple[str, dict]:
    """Decode a file's bytes: UTF-8, or UTF-16/UTF-32 with a BOM, or UTF-16 without
    one when its NUL bytes make that clear; what is invalid becomes U+FFFD, and the
    likely legacy codec (detect_legacy) is named in `suggested` and the message.

    `encoding` (a Python codec name such as "cp1251" or "latin-1") skips the
    detection and decodes with that codec; a leading BOM is dropped. "auto" detects,
    and reads bytes that are not UTF-8 with the likely legacy codec.
    Returns the text and an info dict: replaced (invalid sequences that became
    U+FFFD), bom, binary, encoding (the codec used), suggested (the likely codec when
    the one used replaced bytes, else None) and message (a sentence for the user,
    or None when nothing needs saying).
    """
    auto = encoding == AUTO
    if encoding is not None and not auto:
        return _decode_as(data, encoding)
    data, encoding, label, bom, guessed = _detect(data)
    text, replaced = _decode(data, encoding)
    binary = encoding == "utf-8" and b"\x00" in data[:_BINARY_SAMPLE]
    suggested = _likely_legacy(data, text, replaced) if encoding == "utf-8" and not binary else None
    notes = []
    if binary:
        notes.append("This file looks binary (it contains NUL bytes); it was read as text anyway.")
    if suggested and auto:
        text, replaced = _decode(data, suggested)
        info = {"replaced": replaced, "bom": False, "binary": False, "encoding": suggested, "suggested": None}
        note = f"The file is not UTF-8; it was read as {describe_encoding(suggested)}, the likely encoding."
        if replaced:
            note += f" {replaced} byte sequence{'s were' if replaced != 1 else ' was'} not valid {suggested} and became U+FFFD (\ufffd)."
        return text, info | {"message": note}
    if replaced:
        notes.append(
            f"{replaced} invalid byte sequence{'s were' if replaced != 1 else ' was'} not {label}"
            " and became U+FFFD (\ufffd)."
        )
    if suggested:
        notes.append(f"It looks like {describe_encoding(suggested)}.")
    if guessed:
        order = "little" if encoding.endswith("le") else "big"
        notes.append(
            f"The file has no byte order mark but its NUL bytes say UTF-16 ({order}-endian);"
            " it was decoded as such."
        )
    elif bom and label != "UTF-8":
        notes.append(f"The file is {label} (it starts with a byte order mark) and was decoded as such.")
    info = {"replaced": replaced, "bom": bom, "binary": binary, "encoding": encoding, "suggested": suggested}
    return text, info | {"message": " ".join(notes) or None}


def check_encoding(encoding: str) -> str:
    """The codec's canonical name ("auto" stays "auto"); ValueError (a sentence) when it
    is not a text codec."""
    if encoding == AUTO:
        return AUTO
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
    return text, {"replaced": replaced, "bom": bom, "binary": False, "encoding": codec, "suggested": None,
                  "message": " ".join(notes)}


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
    dropped; "auto": bytes that are not UTF-8 in the likely legacy codec), but refuse
    instead of repairing: for corpus documents, where a U+FFFD in the index is worse
    than an error row. Raises ValueError with a sentence for the user (naming the
    likely codec when UTF-8 failed)."""
    encoding_given = encoding
    if encoding is not None and encoding != AUTO:
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
        legacy = _likely_legacy(data, *_decode(data, encoding)) if encoding == "utf-8" else None
        if legacy is not None and encoding_given == AUTO:
            try:
                return data.decode(legacy)
            except UnicodeDecodeError as again:
                error, label = again, legacy
        hint = f"; it looks like {describe_encoding(legacy)}: --input-encoding auto reads it so" if legacy and encoding_given is None else ""
        raise ValueError(f"not valid {label} (byte offset {error.start}: {error.reason}){hint}") from None
