#!/usr/bin/env python3
"""Write py/chunkwise/tokenizer/hf/unicode_tables.py: the Unicode facts of the `tokenizers` library.

The pure-Python tokenizers must treat every code point as the Rust library
does, which ships its own (older or newer) Unicode tables, independently of
the Python version running them (CPython 3.11 on the CLI, 3.14 in Pyodide).
This asks the pinned `tokenizers` package itself, over every code point:
which characters BertNormalizer's clean_text removes, which join a grapheme
cluster (for the Precompiled normalizer), what strip_accents and
lowercase turn each character into, which are punctuation to the BERT
pre-tokenizer, which are digits to the Digits pre-tokenizer, which are
word characters to an added token's single_word, and which its Unicode
normalization forms do not know. Run it after changing the pinned version (a
test compares), with CPython 3.11.

    .venv/bin/python tools/gen_hf_unicode.py
"""
from __future__ import annotations

import functools
import sys
import unicodedata
from pathlib import Path

from tokenizers import __version__
from tokenizers import normalizers, pre_tokenizers

OUT = Path(__file__).resolve().parent.parent / "py" / "chunkwise" / "tokenizer" / "hf" / "unicode_tables.py"
SEP = "|"  # kept by every step (clean, strip_accents, lowercase): it is ASCII punctuation


@functools.lru_cache(maxsize=None)
def _every_code_point() -> tuple[str, ...]:
    return tuple(map(chr, [*range(0xD800), *range(0xE000, 0x110000)]))


def code_points(but=""):
    """Every code point but the surrogates (and the characters in `but`)."""
    chars = _every_code_point()
    return [c for c in chars if c not in but] if but else list(chars)


def per_char(normalizer, chars, sep=SEP):
    out = []
    for part in slices(chars):
        out += normalizer.normalize_str(sep + sep.join(part) + sep).split(sep)[1:-1]
    assert len(out) == len(chars)
    return out


def ranges(points) -> str:
    points = sorted(points)
    parts = []
    i = 0
    while i < len(points):
        j = i
        while j + 1 < len(points) and points[j + 1] == points[j] + 1:
            j += 1
        parts.append(f"{points[i]:x}" if i == j else f"{points[i]:x}-{points[j]:x}")
        i = j + 1
    return ",".join(parts)


def mapping(pairs) -> str:
    return ",".join(f"{ord(c):x}:" + ".".join(f"{ord(x):x}" for x in v) for c, v in pairs)


def tables() -> dict[str, str]:
    chars = code_points(but=SEP)
    bert = lambda **kw: normalizers.BertNormalizer(**{  # noqa: E731
        "clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False, **kw})
    cleaned = per_char(bert(clean_text=True), chars)
    removed = [ord(c) for c, v in zip(chars, cleaned) if v == ""]
    spaces = [ord(c) for c, v in zip(chars, cleaned) if v == " " and c != " "]
    stripped = per_char(bert(strip_accents=True), chars)
    # Hangul syllables decompose into jamo by rule; everything else is listed.
    strip = [(c, v) for c, v in zip(chars, stripped) if v != c and not 0xAC00 <= ord(c) <= 0xD7A3]
    for c, v in zip(chars, stripped):
        if 0xAC00 <= ord(c) <= 0xD7A3:
            assert v == unicodedata.normalize("NFD", c), hex(ord(c))
    marks = [ord(c) for c, v in zip(chars, per_char(normalizers.StripAccents(), chars)) if v == ""]
    lowered = per_char(bert(lowercase=True), chars)
    lower = [(c, v) for c, v in zip(chars, lowered) if v != c]
    punct = []
    for part in slices(code_points()):
        text = "a".join(part)
        pieces = pre_tokenizers.BertPreTokenizer().pre_tokenize_str(text)
        punct += [ord(text[s]) for piece, (s, e) in pieces if e - s == 1 and text[s] != "a"]
    onig = {key: ranges(oniguruma_class(pattern)) for key, pattern in ONIG_CLASSES.items()}
    return {
        "VERSION": __version__,
        **onig,
        "ONIG_CATEGORIES": categories(),
        "WHITESPACE_WORD": ranges(whitespace_word()),
        "GRAPHEME_JOINS": ranges(grapheme_joins()),
        "CLEAN_REMOVED": ranges(removed),
        "CLEAN_SPACE": ranges(spaces),
        "STRIP_ACCENTS": mapping(strip),
        "COMBINING_MARKS": ranges(marks),
        "LOWERCASE": mapping(lower),
        "PUNCTUATION": ranges(punct),
        "NUMERIC": ranges(numeric()),
        "ADDED_WORD": ranges(added_word()),
        "NORMALIZATION_UNKNOWN": ranges(normalization_unknown()),
    }


ONIG_CLASSES = {"ONIG_LETTER": r"\p{L}", "ONIG_NUMBER": r"\p{N}", "ONIG_WORD": r"\w", "ONIG_SPACE": r"\s"}


# The library takes about a microsecond a character on a long string and a third
# of that on short ones: code points are sent in slices of this many.
SLICE = 1 << 14


def slices(chars: list[str]):
    for i in range(0, len(chars), SLICE):
        yield chars[i : i + SLICE]


# Every general category but Cs (a str holds no surrogate): what is in none of them is Cn.
CATEGORIES = ("Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp Cc Cf Co").split()


def categories() -> str:
    """Oniguruma's general category of every code point, as runs: "start:Cat" entries,
    each category holding from its start to the next entry's (surrogates are Cs)."""
    of = ["Cn"] * 0x110000
    of[0xD800:0xE000] = ["Cs"] * 0x800
    for name in CATEGORIES:
        for o in oniguruma_class(rf"\p{{{name}}}"):
            assert of[o] == "Cn", (hex(o), of[o], name)
            of[o] = name
    # (U+0001 is the probe's own marker: Cc in every Unicode version)
    of[1] = "Cc"
    return ",".join(f"{o:x}:{cat}" for o, cat in enumerate(of) if o == 0 or of[o - 1] != cat)


def oniguruma_class(pattern: str) -> list[int]:
    """The code points a one-character Oniguruma class matches in the library:
    the code points in a row, the matches removed; what is left comes back as
    runs with their offsets (a few hundred pieces, not a million)."""
    from tokenizers import Regex

    split = pre_tokenizers.Split(Regex(pattern), "removed")
    out = []
    for part in slices(code_points(but="\x01")):
        left = bytearray(len(part))
        for _, (start, end) in split.pre_tokenize_str("".join(part)):
            left[start:end] = b"\x01" * (end - start)
        out += [ord(c) for c, kept in zip(part, left) if not kept]
    return out


def whitespace_word() -> list[int]:
    """The characters the Whitespace pre-tokenizer (\\w+|[^\\w\\s]+) keeps in a word
    with "a": its word characters. Each is put between two "!", which are not:
    a word character is then a piece of its own, anything else joins the "!"s or
    is dropped as whitespace."""
    whitespace = pre_tokenizers.Whitespace()
    assert [p for p, _ in whitespace.pre_tokenize_str("a! a")] == ["a", "!", "a"]
    out = []
    for part in slices(code_points(but=" !")):
        pieces = whitespace.pre_tokenize_str("!" + "!".join(part) + "!")
        out += [ord(piece) for piece, _ in pieces if len(piece) == 1 and piece != "!"]
    return out


def numeric() -> list[int]:
    """What the Digits pre-tokenizer splits off: Rust's char::is_numeric, whose Unicode
    tables are the Rust build's (newer than Oniguruma's \\p{N} in 0.23.3). Between two "a"s
    a code point is a piece of its own exactly when it is numeric."""
    digits = pre_tokenizers.Digits(individual_digits=True)
    out = []
    for part in slices(code_points(but="a")):
        text = "a".join(part)
        out += [ord(text[s]) for _, (s, e) in digits.pre_tokenize_str(text) if e - s == 1 and text[s] != "a"]
    return out


def added_word() -> list[int]:
    """The word characters next to which an added token with single_word is not matched
    (the Unicode \\w of Rust's regex crate, not Oniguruma's): those after which "QQ" is
    not found. A test checks the other side and the pure code on every code point."""
    from tokenizers import AddedToken, Tokenizer, models

    tok = Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    tok.add_tokens([AddedToken("QQ", single_word=True, normalized=False)])
    qq = tok.token_to_id("QQ")
    out = []
    for part in slices(code_points()):
        encodings = tok.encode_batch(["QQ" + c for c in part], add_special_tokens=False)
        out += [ord(c) for c, e in zip(part, encodings) if qq not in e.ids]
    return out


def normalization_unknown() -> list[int]:
    """Code points that the library's NFC, NFD, NFKC and NFKD leave alone as starters nothing
    joins, but that unicodedata may decompose, reorder or compose: the library's tables
    are Unicode 9.0's (U+11938, Unicode 13, it neither decomposes nor composes), and
    unicodedata's are the running Python's. Known to the library is what it decomposes,
    what its decompositions contain, and what it reorders; unknown, every other code point
    that unicodedata decomposes, gives a combining class or composes, and every code point
    it leaves unassigned (a later Python may know it: Pyodide's does Unicode 16). Made with
    this Python's unicodedata: run it with CPython 3.11, as the package's tests are."""
    sep = "\x01"  # NFKD never gives it ("|" it does: U+FF5C)
    chars = code_points(but=sep)
    nfd, nfkd = normalizers.NFD(), normalizers.NFKD()
    known = set()
    for c, d, k in zip(chars, per_char(nfd, chars, sep), per_char(nfkd, chars, sep)):
        if d != c or k != c:
            known.update(c + d + k)
    # A nonzero combining class moves a character before U+0345 (class 240, the highest)
    # or after U+0334 (class 1, the lowest but for 0).
    after = per_char(nfd, ["\u0345" + c for c in chars], sep)
    before = per_char(nfd, [c + "\u0334" for c in chars], sep)
    known.update(c for c, a, b in zip(chars, after, before) if a != "\u0345" + c or b != c + "\u0334")
    components = set()
    for c in chars:
        mapping = unicodedata.decomposition(c)
        if mapping and not mapping.startswith("<"):
            components.update(chr(int(x, 16)) for x in mapping.split())
    return [ord(c) for c in chars if c not in known and (
        unicodedata.category(c) == "Cn" or unicodedata.decomposition(c) or unicodedata.combining(c) or c in components)]


def grapheme_joins() -> list[int]:
    """BMP characters that join the grapheme cluster before them (Extend, ZWJ,
    SpacingMark), as the library's unicode-segmentation sees them. Probed with
    multilingual-e5's Precompiled normalizer: it maps a cluster under 6 bytes by
    its first character's mapping alone, so "ǅ" + c loses c exactly when c joins."""
    sys.path.insert(0, str(OUT.parents[2]))
    import build
    from tokenizers import Tokenizer

    normalizer = Tokenizer.from_file(str(build.tokenizer_file("multilingual-e5-small"))).normalizer
    base = normalizer.normalize_str("\u01c5")
    assert base == "D\u017e", base
    joins = []
    for o in range(0x80, 0x10000):
        if 0xD800 <= o <= 0xDFFF:
            continue
        c = chr(o)
        if normalizer.normalize_str("\u01c5" + c) == base and normalizer.normalize_str(c) != "":
            joins.append(o)
    return joins


def render(t: dict[str, str]) -> str:
    lines = [
        '"""Unicode facts of the `tokenizers` library, generated by tools/gen_hf_unicode.py',
        f'from tokenizers {t["VERSION"]}: do not edit. Ranges are hex code points "a-b";',
        'mappings are "code:replacement.code.points" (an empty replacement removes)."""',
        "",
    ]
    for key, value in t.items():
        lines.append(f"{key} = {value!r}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    body = render(tables())
    if "--check" in sys.argv:
        sys.exit(0 if OUT.read_text() == body else 1)
    OUT.write_text(body)
    print(f"wrote {OUT} ({len(body)} bytes)")
