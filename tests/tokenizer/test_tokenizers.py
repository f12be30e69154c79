"""The two BPE backends agree token for token, and the counter's split rule holds."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.tokenizer.index import TokenIndex
from chunkwise.tokenizer.registry import get_tokenizer

ENCODINGS = ["cl100k_base", "o200k_base"]

SAMPLES = [
    "Hello, world! It's a test: don't panic; we'll see.",
    "Привет, мир! Это проверка токенизатора — с тире и «кавычками».",
    "中文文本。这是一个测试，好的！日本語の文章です。한국어 문장입니다.",
    "مرحبا بالعالم؟ هذا اختبار. नमस्ते दुनिया। यह परीक्षण है॥",
    "def f(x):\n    return {'a': [1, 2.5e-3, 0x1F]}  # comment\n\n\tif x >= 10_000: pass\r\n",
    "Emoji: 👍🏽 🏳️‍🌈 👨‍👩‍👧‍👦 🇩🇪🇫🇷 e\u0301 \u0915\u094d\u0937 ﷽",
    "   leading and trailing spaces   \n\n\n\t\t\n  ",
    "numbers 1234567890 3.14159 1,000,000 and 'quotes' \"double\" `code`",
    "<|endoftext|> special tokens are plain text here <|fim_prefix|>",
    "URL https://example.com/a/b?c=d&e=f#frag and e-mail a.b@c.de.",
    # After a line break: o200k's punctuation pre-token runs on through "\n/".
    "end!\n/etc/hosts\nx.\n\r\nY\n's\n\u0301mark\n\n  indent\r\n(paren)\n/",
    "\x00\x01\x1c\x1f\x7f control \u2028 line sep \u00a0 nbsp \u3000 ideographic",
    # Pre-tokens longer than 256 bytes take chunkwise's O(n log n) merge.
    "GATTACA" * 3000,
    "supercalifragilistic" * 40 + " " + "Привет" * 300 + " " + "日本語" * 500,
    # Newly assigned code points (Unicode 15-16), information separators, flag runs,
    # combining and ZWJ runs, whitespace runs: giant pre-tokens of every class.
    "n \U0001D2C1 \U0001D2C2 \U0001D2C3 \U0001D2C4 \u1c89x \U00011F00's \U0001CC00",
    "a\x1cb\x1dc \x1e \x1f\n\x1f's",
    "🇩🇪🇫🇷🇯🇵" * 200, "e" + "\u0301" * 600, "👨‍👩‍👧‍👦" * 100, "\n" * 3000, " \n" * 900 + "x",
]


def _random_text(rng: random.Random, size: int) -> str:
    pools = [
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "0123456789",
        " \t\n\r  \n\n",
        ".,;:!?'\"()[]{}-—–/\\@#$%^&*_+=<>|~`",
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГД",
        "中文日本語한국어のはをにがでと。、！？「」",
        "éèêëñüöäçß\u0301\u0308\u200d\ufe0f",
        "👍🏽🏳🌈👨👩👧🇩🇪🇫🇷",
        "مرحبا؟नमस्ते।॥",
    ]
    out = []
    for _ in range(size):
        pool = rng.choice(pools)
        out.append(rng.choice(pool))
    return "".join(out)


def _corpus() -> list[str]:
    rng = random.Random(1234)
    texts = list(SAMPLES)
    texts += [_random_text(rng, rng.randint(1, 400)) for _ in range(300)]
    # Any code point but surrogates, which chunkwise replaces before tokenizing.
    def any_char():
        c = rng.randint(0x20, 0x2FFFF - 0x800)
        return chr(c + 0x800 if c >= 0xD800 else c)

    texts += ["".join(any_char() for _ in range(200)) for _ in range(50)]
    return texts


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_backends_give_identical_ids(encoding):
    fast = get_tokenizer(encoding, "tiktoken")
    pure = get_tokenizer(encoding, "pure")
    for text in _corpus():
        assert fast.encode(text) == pure.encode(text), repr(text)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=300, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_backends_agree_on_random_unicode(encoding, text):
    assert get_tokenizer(encoding, "tiktoken").encode(text) == get_tokenizer(encoding, "pure").encode(text)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_numpy_offsets_equal_the_python_sum(encoding):
    """With numpy, tiktoken's offsets come from an array sum; they must equal the
    plain running sum of each token's characters (the pure backend's way). A text
    shorter than NUMPY_FROM takes that plain sum itself (numpy's calls cost more)."""
    from itertools import accumulate

    from chunkwise.tokenizer.tiktoken.encoder import NUMPY_FROM
    from chunkwise.tokenizer.token_ends import ShortEnds

    tok = get_tokenizer(encoding, "tiktoken")
    assert tok._encode_array is not None, "numpy is in requirements-dev.txt: the fast path must be tested"
    texts = _corpus()
    # each text, and each as the start of one long enough for numpy's path
    for text in texts + [text + "".join(texts)[: NUMPY_FROM] for text in texts[:120]]:
        expected = list(accumulate(map(tok.token_chars.__getitem__, tok.encode(text)), initial=7))[1:]
        ends = tok.char_ends(text, 7)
        assert isinstance(ends, ShortEnds) == (len(text) >= NUMPY_FROM), len(text)
        assert ends.tolist() == expected, repr(text)


def _split_rule_holds(text: str, encoding: str, backend: str) -> None:
    tok = get_tokenizer(encoding, backend)
    index = TokenIndex(text, tok)
    whole = tok.encode(text)
    p = index.first_separable(1, len(text))
    while p is not None:
        assert tok.encode(text[:p]) + tok.encode(text[p:]) == whole, (text, p)
        p = index.first_separable(p + 1, len(text))


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("backend_name", ["pure", "tiktoken"])
def test_split_rule_on_corpus(encoding, backend_name):
    for text in _corpus():
        _split_rule_holds(text, encoding, backend_name)


@pytest.mark.parametrize("encoding", ENCODINGS)
@settings(max_examples=200, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=120))
def test_split_rule_on_random_unicode(encoding, text):
    _split_rule_holds(text, encoding, "tiktoken")


# Runs long enough that first_separable steps over them a run at a time (counter._SCAN).
_RUNS = st.lists(
    st.tuples(st.sampled_from(["x", "中", "7", "_", " ", "\n", "\r\n", "\u3000", ".", "'", "/", "🇩🇪", "\u0301", "\u200d", "é"]),
              st.integers(1, 400)),
    min_size=1, max_size=8,
)


@pytest.mark.parametrize("backend_name", ["pure", "tiktoken"])
@settings(max_examples=60, deadline=None)
@given(runs=_RUNS)
def test_first_separable_finds_what_trying_every_offset_finds(backend_name, runs):
    text = "".join(piece * n for piece, n in runs)
    index = TokenIndex(text, get_tokenizer("cl100k_base", backend_name))
    every = [p for p in range(1, len(text)) if index.is_separable(p)]
    found, p = [], index.first_separable(1, len(text))
    while p is not None:
        found.append(p)
        p = index.first_separable(p + 1, len(text))
    assert found == every
    for lo, hi in ((0, len(text) // 2), (len(text) // 3, len(text))):  # judged inside text[:hi]
        assert index.first_separable(lo, hi) == next((q for q in every if lo <= q < hi), None)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_slice_counts_are_exact(encoding):
    rng = random.Random(7)
    tok = get_tokenizer(encoding)
    for text in _corpus()[:120]:
        index = TokenIndex(text, tok)
        for _ in range(20):
            a = rng.randint(0, len(text))
            b = rng.randint(a, len(text))
            assert index.count(a, b) == len(tok.encode(text[a:b])), (text, a, b)
        for b in {1, len(text) // 2, len(text)}:  # from the text's start (the first chunk's)
            assert index.count(0, b) == len(tok.encode(text[:b])), (text, b)


# -- the token index: exact lookups, and its memory (issue 9: 16 MB at most 300 MB) ----------
def _index_texts() -> list[str]:
    rng = random.Random(11)
    return [
        SAMPLES[0] * 300 + SAMPLES[5] * 100,  # blocks of prose and emoji
        "🇩🇪🇫🇷🇯🇵" * 9000,  # a pre-token of tokens ending inside characters
        "e" + "\u0301" * 20_000 + " x",
        "".join(chr(rng.choice([rng.randint(32, 0x2FF), rng.randint(0x1F000, 0x1FAFF), 10, 32, 0x4E00])) for _ in range(150_000)),
        "",
        "x",
        "ab" + "abcd " * 13200,  # a first block of exactly 65,536 characters (its end is before a space)
    ]


@pytest.mark.parametrize("backend_name", ["pure", "tiktoken"])
def test_token_index_lookups_equal_a_plain_list_of_ends(backend_name):
    """tokens_before, tokens_before_each and offset_after, asked in any order, give
    what bisecting a plain list of every token's end gives (the index keeps its ends
    packed: a C int a token, or with numpy two bytes, or about one)."""
    from bisect import bisect_right
    from itertools import accumulate

    rng = random.Random(3)
    for encoding in ENCODINGS:
        tok = get_tokenizer(encoding, backend_name)
        for text in _index_texts():
            whole = TokenIndex(text, tok)
            whole.total()
            bounds = whole._block_starts + [whole.done]
            ends: list[int] = []
            for a, b in zip(bounds, bounds[1:]):
                ends += list(accumulate(map(tok.token_chars.__getitem__, tok.encode(text[a:b])), initial=a))[1:]
            assert len(ends) == whole.tokens
            index = TokenIndex(text, tok)  # tokenized lazily, as the lookups come
            for pos in [rng.randint(0, len(text)) for _ in range(400)] + list(range(min(len(text), 300))):
                assert index.tokens_before(pos) == bisect_right(ends, pos), (encoding, pos)
            for k in [rng.randint(-1, len(ends) + 2) for _ in range(400)] + list(range(min(len(ends) + 2, 300))):
                want = 0 if k <= 0 else ends[k - 1] if k <= len(ends) else len(text)
                assert index.offset_after(k) == want, (encoding, k)
            for _ in range(100):
                a = rng.randint(0, len(text))
                # (a few offsets, as a chunk's tail holds, and more than the index looks up one by one)
                offsets = sorted(rng.randint(a, min(len(text), a + 600)) for _ in range(rng.choice((rng.randint(0, 12), 80))))
                assert index.tokens_before_each(offsets) == [bisect_right(ends, p) for p in offsets]


def _index_memory(tok, text: str) -> tuple[float, float]:
    """(peak, kept) bytes a token of building the token index of text: tracemalloc's
    (numpy's arrays included; tiktoken's own Rust allocations are not)."""
    import tracemalloc

    TokenIndex("warm up", tok).total()
    tracemalloc.start()
    try:
        index = TokenIndex(text, tok)
        index.total()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / index.tokens, kept / index.tokens


def test_the_numpy_token_index_keeps_about_a_byte_a_token():
    """A 16 MB flag run is 48 million tokens, one pre-token: its index took 4 bytes a
    token (183 MB), and 6 at the peak (its ids, 4 bytes each, were all held before
    they became offsets); the run peaked at 413 MB (issue 9: at most 300). A token's
    character count is a byte, packed as each segment's ids come. Measured on a
    pre-token long enough to be merged in segments (was 4.26 kept, 6.22 at the
    peak); a block of prose keeps 2 bytes a token (was 4)."""
    from chunkwise.tokenizer.tiktoken.encoder import TIKTOKEN_LONG

    tok = get_tokenizer("cl100k_base", "tiktoken")
    flags = "🇩🇪🇫🇷🇯🇵🇧🇷"
    peak, kept = _index_memory(tok, (flags * (TIKTOKEN_LONG // len(flags) + 2))[: TIKTOKEN_LONG + 16])
    assert kept < 1.5, kept
    assert peak < 4.5, peak  # (the UTF-8 bytes are 1.33 a token, and the packed array is allocated at its bound)
    assert _index_memory(tok, SAMPLES[0] * 1000)[1] < 2.5


def test_the_pure_token_index_keeps_a_c_int_a_token():
    """The pure backend (the page's) kept a Python int a token, 42 bytes with its
    list slot: the index of 4 MB of flags (12 million tokens) peaked at 621 MB.
    An array of C ints takes 4 (was 42 kept, 50 at the peak)."""
    tok = get_tokenizer("cl100k_base", "pure")
    peak, kept = _index_memory(tok, "🇩🇪🇫🇷🇯🇵🇧🇷" * 12_500)
    assert kept < 8, kept
    assert peak < 30, peak


@pytest.mark.parametrize("base", [0, (1 << 31) - 5, (1 << 32) - 5, 1 << 40])
def test_pure_token_ends_hold_offsets_of_any_size(base):
    """The pure backend keeps token ends in an unsigned C int array, wider past
    2**32 characters: every end is the running sum of the tokens' characters."""
    from itertools import accumulate

    tok = get_tokenizer("cl100k_base", "pure")
    text = "Offsets past 2**31 and 2**32 — ünïcode 😀 too.\n"
    expected = list(accumulate(map(tok.token_chars.__getitem__, tok.encode(text)), initial=base))[1:]
    assert tok.char_ends(text, base).tolist() == expected


def test_a_block_of_exactly_65536_characters_keeps_two_byte_ends():
    """The index's blocks are at most 65,536 characters; one of exactly that many (its end
    separable) was kept packed, as a giant pre-token's block is, and looked up slower."""
    from chunkwise.tokenizer.token_ends import SHORT, ShortEnds

    text = "ab" + "abcd " * 13200
    index = TokenIndex(text, get_tokenizer("cl100k_base", "tiktoken"))
    index.total()
    assert index._block_starts[1] == SHORT and isinstance(index._block_ends[0], ShortEnds)
    assert index.offset_after(len(index._block_ends[0])) == SHORT and index.tokens_before(SHORT) == len(index._block_ends[0])


def test_a_short_text_is_chunked_without_importing_numpy():
    """numpy's import takes about 0.1 s, more than a short text's whole run on the command
    line: the tiktoken backend imports it for the first text long enough to use it."""
    import os
    import subprocess
    import sys

    script = (
        "import sys, chunkwise\n"
        "from chunkwise.tokenizer.registry import get_tokenizer\n"
        "assert get_tokenizer('cl100k_base').backend == 'tiktoken'\n"
        "chunkwise.chunk_document('A short text. It fits.', max_tokens=512)\n"
        "print('numpy' in sys.modules)\n"
        "chunkwise.chunk_document('A longer text. ' * 500, max_tokens=64)\n"
        "print('numpy' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CHUNKWISE_BACKEND"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True).stdout
    assert out.split() == ["False", "True"]
