"""The pure-Python tokenizer.json implementation gives the very ids of the
`tokenizers` library, for every supported family, on varied and random text.

Tokenizer files come from registry packages (py/chunkwise/presets.py names
each, build.py takes it out and checks its sha256) or are trained here.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken, Regex, Tokenizer, decoders
from tokenizers import __version__ as tokenizers_version
from tokenizers import models, normalizers, pre_tokenizers, trainers

from chunkwise.tokenizer.hf.tokenizer import Unsupported, tokenizer_from_text
from hf_files import CORPUS, tokenizer_path, trained

SAMPLES = [
    "Hello, world! It's a test: don't panic; we'll see. WE'RE LOUD",
    "Привет, мир! Это проверка токенизатора — с тире и «кавычками».",
    "中文文本。这是一个测试，好的！日本語の文章です。한국어 문장입니다.",
    "مرحبا بالعالم؟ هذا اختبار. नमस्ते दुनिया। यह परीक्षण है॥ ΣΑΣ ας İstanbul",
    "def f(x):\n    return {'a': [1, 2.5e-3, 0x1F]}  # comment\n\n\tif x >= 10_000: pass\r\n",
    "Emoji: 👍🏽 🏳️‍🌈 👨‍👩‍👧‍👦 🇩🇪🇫🇷 e\u0301 \u0915\u094d\u0937 ﷽ ǅ\u0301",
    "   leading and trailing spaces   \n\n\n\t\t\n  ",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３ ½ ﬁ ① ㍿ \u3000 \u00a0 \u2028 \x85",
    "special tokens in text: [CLS] [SEP] <s> </s> <unk> <|begin_of_text|> [MASK]",
    "matched after normalization: <｜fim▁begin｜>def f(<｜fim▁hole｜>)<｜fim▁end｜> <｜User｜>hi<｜Assistant｜>",
    "\x00\x01\x1c\x1f\x7f control \u200b zero width \ufffd replacement ▁ lower one eighth",
    "supercalifragilisticexpialidocious" * 5 + " " + "x" * 150 + " " + "日本語" * 60,
]

POOLS = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789",
    " \t\n\r  \n\n   ",
    ".,;:!?'\"()[]{}-—–/\\@#$%^&*_+=<>|~`▁",
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДΣς",
    "中文日本語한국어のはをにがでと。、！？「」ｆＡ１",
    "éèêëñüöäçßİǅ\u0301\u0308\u200d\ufe0f\u200b",
    "👍🏽🏳🌈👨👩👧🇩🇪🇫🇷",
    "مرحبا؟नमस्ते।॥\u0600",
]


def load_file(path, name=None):
    """A tokenizer.json file as the CLI reads it: its text (a file's contents are never a path)."""
    return tokenizer_from_text(path.read_text(encoding="utf-8"), name)


def _random_texts(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        size = rng.randint(1, 120)
        chars = []
        for _ in range(size):
            r = rng.random()
            if r < 0.75:
                chars.append(rng.choice(rng.choice(POOLS)))
            else:
                o = rng.randint(0x80, 0x10FFFF if r > 0.9 else 0x3000)
                if not 0xD800 <= o <= 0xDFFF:
                    chars.append(chr(o))
        out.append("".join(chars))
    return out


def _documents() -> list[str]:
    texts = []
    for path in sorted(CORPUS.iterdir()):
        if path.suffix in (".txt", ".md"):
            text = path.read_text(encoding="utf-8")
            texts += [text[i : i + 2000] for i in range(0, min(len(text), 12000), 2000)]
    return texts


def _fast(path_or_tokenizer):
    fast = path_or_tokenizer if isinstance(path_or_tokenizer, Tokenizer) else Tokenizer.from_file(str(path_or_tokenizer))
    fast.no_truncation()
    fast.no_padding()
    return lambda text: fast.encode(text, add_special_tokens=False).ids


def _assert_same(pure, fast, texts):
    for text in texts:
        assert pure.encode(text) == fast(text), f"ids differ for {text[:80]!r}"


# -- tokenizer files from the registries ----------------------------------------

REGISTRY_FILES = {
    "all-MiniLM-L6-v2": "WordPiece",
    "multilingual-e5-small": "Unigram",
    "llama2": "BPE with byte fallback",
    "llama3": "byte-level BPE",
    "deepseek_v3": "byte-level BPE",  # its added tokens are matched in the normalized text
    "qwen3": "byte-level BPE",
    "gemma3": "BPE with byte fallback",  # one merge crosses a "\u2581" (after ">"): split elsewhere
    "gptoss": "byte-level BPE",
    "claude": "byte-level BPE",
    "gemini": "BPE with byte fallback",
    "llama3_1": "byte-level BPE",
}


@pytest.fixture(scope="module", params=sorted(REGISTRY_FILES))
def registry_pair(request):
    path = tokenizer_path(request.param)
    pure = load_file(path, name=request.param)
    assert pure.family == REGISTRY_FILES[request.param]
    return request.param, pure, _fast(path)


def test_registry_files_samples_and_documents(registry_pair):
    _, pure, fast = registry_pair
    _assert_same(pure, fast, SAMPLES + _documents())


def test_registry_files_random_text(registry_pair):
    _, pure, fast = registry_pair
    _assert_same(pure, fast, _random_texts(7, 800))


text_strategy = st.one_of(
    st.text(max_size=80),  # any code point (hypothesis leaves out surrogates)
    st.text(st.sampled_from("".join(POOLS)), max_size=200),
    st.lists(st.sampled_from(SAMPLES + ["  ", "\n\n", "\t", " ", "[CLS]", "</s>"]), max_size=6).map("".join),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=text_strategy)
def test_registry_files_hypothesis(registry_pair, text):
    _, pure, fast = registry_pair
    assert pure.encode(text) == fast(text)


def test_long_words_merged_in_pieces_keep_the_librarys_ids(registry_pair):
    """Files without a pre-tokenizer (Llama 2, Gemma) merge a whole text as one word, in
    pieces split before each "\u2581" that no merge crosses: Gemma 3 merges ">" with
    "\u2581</", so a "\u2581" after ">" stays joined to what is before it."""
    _, pure, fast = registry_pair
    markup = "x> </y if a> </script> then <p>a</p> </div>\n" * 40 + "x" * 300 + "> </" * 30
    _assert_same(pure, fast, [markup, markup.replace(" ", "\u2581"), "word " * 200 + ">" + " </" * 50])


def test_added_tokens_match_leftmost_longest_as_a_trie():
    """Thousands of added tokens (Gemma's <unused0>..) compile to one trie-shaped regex
    (children that continue alike as one character class: ^ - ] \\ [ escaped in it);
    it finds what a flat longest-first alternation finds."""
    import re

    from chunkwise.tokenizer.hf.added_tokens import longest_first

    rng = random.Random(3)
    for _ in range(600):
        alphabet = rng.choice(["ab<>", "ab<>^-]\\[", "0123456789<>"])
        tokens = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 40))}
        flat = re.compile("|".join(map(re.escape, sorted(tokens, key=len, reverse=True))))
        trie = re.compile(longest_first(tokens))
        text = "".join(rng.choice(alphabet + " ") for _ in range(60))
        assert [m.span() for m in trie.finditer(text)] == [m.span() for m in flat.finditer(text)], (tokens, text)


def _bpe_file(vocab: dict, merges: list) -> str:
    """A tokenizer.json of a BPE model alone (no normalizer, no pre-tokenizer), as the library writes it."""
    data = json.loads(Tokenizer(models.BPE(vocab=vocab, merges=[])).to_str())
    data["model"]["merges"] = merges
    return json.dumps(data)


def test_merges_of_tokens_that_hold_spaces_or_nul_keep_the_librarys_ids():
    """Merges are keyed by their two tokens joined by a character no token holds: a space
    for "a b" strings; for ["a", "b"] lists whose tokens hold spaces (and here NUL), another."""
    vocab = {"a": 0, " ": 1, "b": 2, "a ": 3, "a b": 4, "\x00": 5, "b\x00": 6, "c": 7, "ab": 8, "\x01": 9}
    texts = ["a b", "a bb\x00a a", "ca b\x00", "ab a b\x01", "aab  b"]
    for merges in ([["a", " "], ["a ", "b"], ["b", "\x00"], ["a", "b"]], ["a b", "b \x00"], [["b", "\x00"]]):
        source = _bpe_file(vocab, merges)
        _assert_same(tokenizer_from_text(source), _fast(Tokenizer.from_str(source)), texts)


@pytest.mark.parametrize("vocab, merges, message", [
    ({"a": 0, "b": 1, "ab": 2}, ["a  b"], "'a  b' is not two tokens with one space between them"),
    ({"a": 0, "b": 1, "ab": 2}, ["a b", ["a", "b"]], 'mix "a b" strings and'),
    ({"a": 0, "b": 0}, [], "gives one id to two tokens"),
])
def test_merges_the_library_refuses_are_refused_when_loading(vocab, merges, message):
    with pytest.raises(Unsupported, match=message):
        tokenizer_from_text(json.dumps({"model": {"type": "BPE", "vocab": vocab, "merges": merges}}))


def test_a_merge_that_makes_a_token_missing_from_the_vocabulary_is_refused_at_the_first_text_that_needs_it():
    """(The library refuses the file when it loads it; checking each of a big file's
    merges would double its load time.) Text that never makes it counts as the library's
    vocabulary says; text that does gets a clear error, never a wrong count."""
    pure = tokenizer_from_text(_bpe_file({"a": 0, "b": 1, "c": 2, "bc": 3}, ["b c", "a b"]))
    assert pure.encode("bca") == [3, 0]
    with pytest.raises(Unsupported, match="BPE merge 'a' 'b' makes 'ab', which is not in the vocabulary"):
        pure.encode("cab")


def test_special_tokens_added_counts_the_post_processor():
    counts = {name: load_file(tokenizer_path(name)).special_tokens_added for name in REGISTRY_FILES}
    assert counts == {"all-MiniLM-L6-v2": 2, "multilingual-e5-small": 2, "llama2": 1, "llama3": 0, "deepseek_v3": 0,
                      "qwen3": 0, "gemma3": 1, "gptoss": 0, "claude": 0, "gemini": 1, "llama3_1": 1}
    fast = Tokenizer.from_file(str(tokenizer_path("all-MiniLM-L6-v2")))
    fast.no_truncation()
    fast.no_padding()
    assert len(fast.encode("a b c").ids) - len(fast.encode("a b c", add_special_tokens=False).ids) == 2


def test_the_files_truncation_is_ignored():
    # all-MiniLM-L6-v2's tokenizer.json truncates at 128 and pads to 128; counting does neither.
    tok = load_file(tokenizer_path("all-MiniLM-L6-v2"))
    assert len(tok.encode("word " * 500)) == 500
    assert tok.encode("") == []


# -- tokenizers trained here, for the components the registry files do not use ---

TRAIN_TEXT = [t for t in SAMPLES + _documents()[:20]] * 3


def _train(model, trainer, normalizer=None, pre_tokenizer=None):
    return trained(TRAIN_TEXT, model, trainer, normalizer, pre_tokenizer)


def _trained():
    specials = ["[UNK]", "<unk>", "[CLS]"]
    gpt2 = _train(
        models.BPE(),
        trainers.BpeTrainer(vocab_size=600, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), special_tokens=["<|endoftext|>"]),
        pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=True, use_regex=True),
    )
    gpt2.decoder = decoders.ByteLevel()
    wordpiece = _train(
        models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=12),
        trainers.WordPieceTrainer(vocab_size=1500, special_tokens=specials),
        normalizers.Sequence([normalizers.NFD(), normalizers.Lowercase(), normalizers.StripAccents(), normalizers.Strip()]),
        pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits(individual_digits=True)]),
    )
    unigram = _train(
        models.Unigram(),
        trainers.UnigramTrainer(vocab_size=1500, special_tokens=["<unk>"], unk_token="<unk>"),
        normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(" {2,}", " ")]),
        pre_tokenizers.Sequence([pre_tokenizers.Punctuation(), pre_tokenizers.Metaspace(prepend_scheme="first")]),
    )
    bpe_suffix = _train(
        models.BPE(unk_token="[UNK]", continuing_subword_prefix="##", end_of_word_suffix="</w>"),
        trainers.BpeTrainer(vocab_size=1500, special_tokens=specials, continuing_subword_prefix="##", end_of_word_suffix="</w>"),
        normalizers.NFC(),
        pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split(" ", "removed"),
                                 pre_tokenizers.Punctuation("merged_with_previous")]),
    )
    split_regex = _train(
        models.WordLevel(unk_token="[UNK]"),
        trainers.WordLevelTrainer(vocab_size=1500, special_tokens=specials),
        normalizers.Lowercase(),
        pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(r"\p{L}+|[^\s\p{L}]"), "isolated"),
            pre_tokenizers.Split(Regex(r"[aeiou]"), "merged_with_next"),
            pre_tokenizers.CharDelimiterSplit("x"),
        ]),
    )
    return {"gpt2-style": gpt2, "wordpiece-whitespace": wordpiece, "unigram-first": unigram,
            "bpe-suffix": bpe_suffix, "wordlevel-regex": split_regex}


TRAINED = _trained()


@pytest.mark.parametrize("name", sorted(TRAINED))
def test_trained_tokenizers(name):
    fast = TRAINED[name]
    pure = tokenizer_from_text(fast.to_str(), name=name)
    _assert_same(pure, _fast(fast), SAMPLES + _documents() + _random_texts(11, 800))


# -- exact additivity at separable offsets: what the token index relies on ----------


def _separable_cases(pure, texts):
    for text in texts:
        whole = pure.encode(text)
        for p in pure.separable_offsets(text)[:12]:
            assert pure.encode(text[:p]) + pure.encode_continued(text[p:]) == whole, (text[:60], p)


def test_counts_add_up_at_separable_offsets(registry_pair):
    name, pure, _ = registry_pair
    # Gemma 3 merges ">" with "\u2581</": a cut before a space after ">" would not be exact.
    assert pure.cuts_at_spaces == (name != "gemma3")
    _separable_cases(pure, SAMPLES + ["a </s> , b <s> c [CLS] d", "x <|begin_of_text|> y"] + _random_texts(3, 600))


@pytest.mark.parametrize("name", sorted(TRAINED))
def test_trained_counts_add_up_at_separable_offsets(name):
    pure = tokenizer_from_text(TRAINED[name].to_str(), name=name)
    if pure.cuts_at_spaces:
        _separable_cases(pure, SAMPLES + _random_texts(5, 300))


# -- what is not implemented says so ----------------------------------------------


def _with(path, **changes):
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"normalizer": {"type": "NoSuchNormalizer"}}, "normalizer 'NoSuchNormalizer' is not supported"),
        ({"pre_tokenizer": {"type": "UnicodeScripts"}}, "pre-tokenizer 'UnicodeScripts' is not supported"),
        ({"pre_tokenizer": {"type": "Split", "pattern": {"Regex": r"(?<=a)b"}, "behavior": "Isolated", "invert": False}},
         "is not supported"),
        ({"post_processor": {"type": "Mystery"}}, "post-processor 'Mystery' is not supported"),
        ({"model": {"type": "Mystery"}}, "model 'Mystery' is not supported"),
    ],
)
def test_unsupported_components_raise_a_clear_error(change, message):
    with pytest.raises(Unsupported, match=message.replace("(", r"\(").replace(")", r"\)")):
        tokenizer_from_text(_with(tokenizer_path("all-MiniLM-L6-v2"), **change))


def test_not_a_tokenizer_file():
    with pytest.raises(Unsupported, match="not a tokenizer.json file"):
        tokenizer_from_text("{\"hello\": 1}")
    with pytest.raises(Unsupported, match="not a tokenizer.json file"):
        tokenizer_from_text(b"\x89PNG...")


def test_unicode_tables_match_the_pinned_tokenizers():
    """py/chunkwise/tokenizer/hf/unicode_tables.py (written by tools/gen_hf_unicode.py) says what the
    pinned tokenizers does, on a sample of code points (the tool checks them all)."""
    from tokenizers import pre_tokenizers as pre

    from chunkwise.tokenizer.hf import unicode_tables
    from chunkwise.tokenizer.hf.text import PUNCTUATION, RangeSet, lowercase

    assert unicode_tables.VERSION == tokenizers_version
    rng = random.Random(3)
    sample = [o for o in (rng.randrange(0x110000) for _ in range(3000)) if not 0xD800 <= o <= 0xDFFF]
    sample += list(range(0x80, 0x400)) + [0x200B, 0x200D, 0x08CF, 0x31A27, 0x1AE6, 0x130, 0x3A3]
    bert_lower = normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=False, lowercase=True)
    clean = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False)
    removed = RangeSet(unicode_tables.CLEAN_REMOVED)
    letters = RangeSet(unicode_tables.ONIG_LETTER)
    letter = pre.Split(Regex(r"\p{L}"), "isolated")
    for o in sample:
        c = chr(o)
        assert bert_lower.normalize_str(c) == lowercase(c), hex(o)
        assert (clean.normalize_str("a" + c + "a") == "aa") == (c in removed), hex(o)
        assert (len(pre.BertPreTokenizer().pre_tokenize_str("a" + c + "a")) == 3 and c != " ") == (c in PUNCTUATION), hex(o)
        assert (letter.pre_tokenize_str("1" + c + "1")[1:2] == [(c, (1, 2))]) == (c in letters), hex(o)


# -- every code point: the library's own Unicode, not the running Python's ----------------------

EVERY_CODE_POINT = [chr(o) for o in range(0x110000) if not 0xD800 <= o <= 0xDFFF]
# Planes 4 to 13 are unassigned and 15 and 16 private use, in every Unicode version so far.
ASSIGNABLE = [c for c in EVERY_CODE_POINT if c < "\U00040000" or "\U000e0000" <= c < "\U000f0000"]


def _slices(chars: list[str], size: int = 1 << 14):
    for i in range(0, len(chars), size):
        yield chars[i : i + size]


@pytest.mark.parametrize("individual_digits", [True, False])
def test_digits_on_every_code_point(individual_digits):
    """Digits splits off what the library calls numeric (Rust's char::is_numeric, with its
    own Unicode tables), not what the running Python's unicodedata does: CPython 3.11 does
    not know the numbers of Unicode 15 and 16 (U+1D2C1 KAKTOVIK NUMERAL ONE)."""
    from chunkwise.tokenizer.hf.components import build_pre_tokenizer

    spec = {"type": "Digits", "individual_digits": individual_digits}
    pure = build_pre_tokenizer(spec)
    fast = pre_tokenizers.Digits(individual_digits=individual_digits)
    for part in _slices([c for c in EVERY_CODE_POINT if c != "w"]):
        text = "w".join(part)  # a digit is a piece of its own, anything else joins a "w"
        got = [piece for piece, _ in pure([(text, True)])]
        want = [piece for piece, _ in fast.pre_tokenize_str(text)]
        differ = {p for p in got if len(p) == 1} ^ {p for p in want if len(p) == 1}
        assert not differ, f"{len(differ)} digits differ: {sorted(f'U+{ord(c):04X}' for c in differ)[:20]}"
        assert got == want
    # The fuzzer's case, through a whole tokenizer.json.
    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "w": 1}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Digits(individual_digits=individual_digits)
    assert tokenizer_from_text(tok.to_str()).encode("\U0001d2c1w") == tok.encode("\U0001d2c1w").ids == [0, 1]


def test_single_word_added_tokens_on_every_assignable_code_point():
    """An added token with single_word is not matched next to a word character, and a word
    character is the library's (the Unicode \\w of Rust's regex: marks, U+200D ZERO WIDTH
    JOINER and U+203F UNDERTIE are; U+00B2 SUPERSCRIPT TWO is not), with the library's own
    Unicode (U+1C89 CYRILLIC CAPITAL LETTER TJE is), not the running Python's str.isalnum."""
    fast = Tokenizer(models.WordLevel({"[UNK]": 0, "w": 1}, unk_token="[UNK]"))
    fast.add_tokens([AddedToken("QQ", single_word=True, normalized=False)])
    pure = tokenizer_from_text(fast.to_str())
    for template in ("QQ{}", "{}QQ"):
        for part in _slices(ASSIGNABLE):
            text = " ".join(template.format(c) for c in part)
            if pure.encode(text) != fast.encode(text).ids:
                differ = [f"U+{ord(c):04X}" for c in part
                          if pure.encode(template.format(c)) != fast.encode(template.format(c)).ids]
                raise AssertionError(f"{template}: {len(differ)} characters differ: {differ[:20]}")


def _unicode_form_probes() -> list[str]:
    """Texts on which Unicode normalization forms differ between Unicode versions: every
    code point alone; after a mark of the highest combining class and before one of the
    lowest (a character the library gives another class is put elsewhere); every
    canonical decomposition that this Python knows, whole and single-step (a pair that
    composes here may not in the library); random runs of marks and unassigned code points."""
    import unicodedata

    probes = list(EVERY_CODE_POINT)
    probes += ["a\u0345" + c for c in ASSIGNABLE] + ["a" + c + "\u0334" for c in ASSIGNABLE]
    for c in ASSIGNABLE:
        mapping = unicodedata.decomposition(c)
        if mapping and not mapping.startswith("<"):
            probes += ["".join(chr(int(x, 16)) for x in mapping.split()), unicodedata.normalize("NFD", c)]
    # And runs of marks (any, of any version) after bases that compose, Hangul jamo among them.
    rng = random.Random(1)
    marks = [c for c in ASSIGNABLE if unicodedata.category(c)[0] in "MC"]
    bases = list("aeoAE\u1100\u1161\u11a8\uac00\U00011935\U00011930\u0b47\u0dd9")
    probes += ["".join(rng.choice(marks if rng.random() < 0.6 else bases) for _ in range(6)) for _ in range(20000)]
    return probes


@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_unicode_forms_are_the_librarys(form):
    """NFC, NFD, NFKC and NFKD normalize as the library does: its tables are older than any
    Python's unicodedata (U+11938 DIVES AKURU VOWEL SIGN O, Unicode 13, it neither decomposes
    nor composes; U+A7F2 MODIFIER LETTER CAPITAL C, Unicode 14, it keeps under NFKC; U+0898,
    Unicode 14, has combining class 0 to it)."""
    from chunkwise.tokenizer.hf.components import build_normalizer

    pure = build_normalizer({"type": form})
    fast = getattr(normalizers, form)()
    sep = "\x01"  # a character that no form changes or joins: each probe is normalized alone
    differ = []
    for part in _slices([p for p in _unicode_form_probes() if sep not in p], 1 << 12):
        text = sep.join(part)
        if pure(text) != fast.normalize_str(text):
            differ += [p for p in part if pure(p) != fast.normalize_str(p)]
    assert not differ, f"{len(differ)} differ: {[' '.join(f'U+{ord(c):04X}' for c in p) for p in differ[:10]]}"


# Every general category a Split pattern may name, and \d: the library's Unicode (Oniguruma's
# tables, Unicode 16 in tokenizers 0.23), not the running Python's (CPython 3.11 knows 14:
# U+1C89 is no \p{Lu} to it, U+1B4E no \p{P}, U+0897 no \p{M}, U+10D40 no \d).
CATEGORY_PATTERNS = [
    r"\p{Lu}+|\p{Ll}+|\p{Lt}+|\p{Lm}+|\p{Lo}+|\p{M}|\p{N}",
    r"\p{Mn}+|\p{Mc}+|\p{Me}+|\d+|\p{Nl}+|\p{No}+|\p{P}",
    r"\p{Pc}+|\p{Pd}+|\p{Ps}+|\p{Pe}+|\p{Pi}+|\p{Pf}+|\p{Po}+|\p{S}",
    r"\p{Sm}+|\p{Sc}+|\p{Sk}+|\p{So}+|\p{Zs}+|\p{Zl}+|\p{Zp}+|\p{Z}",
    r"\p{Cc}+|\p{Cf}+|\p{C}|\p{Letter}|\p{Mark}|\w|\s",
    # all at once: 2**33 combinations of properties, of which the text meets a few dozen
    r"\p{Lu}+|\p{Ll}+|\p{Lt}+|\p{Lm}+|\p{Lo}+|\p{Mn}+|\p{Mc}+|\p{Me}+|\d+|\p{Nl}+|\p{No}+|\p{Pc}+|\p{Pd}+"
    r"|\p{Ps}+|\p{Pe}+|\p{Pi}+|\p{Pf}+|\p{Po}+|\p{Sm}+|\p{Sc}+|\p{Sk}+|\p{So}+|\p{Zs}+|\p{Zl}+|\p{Zp}+|\p{Cc}+"
    r"|\p{Cf}+|\p{M}|\p{N}|\p{P}|\p{S}|\p{Z}|\p{C}",
]


@pytest.mark.parametrize("pattern", CATEGORY_PATTERNS)
def test_split_pattern_categories_on_every_assignable_code_point(pattern):
    from chunkwise.tokenizer.hf.components import build_pre_tokenizer

    fast = pre_tokenizers.Split(Regex(pattern), "isolated")
    pure = build_pre_tokenizer({"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False})
    for part in _slices(ASSIGNABLE):
        text = "".join(part)
        if [piece for piece, _ in pure([(text, True)])] != [piece for piece, _ in fast.pre_tokenize_str(text)]:
            differ = [f"U+{ord(c):04X}" for c in part
                      if [p for p, _ in pure([(c, True)])] != [p for p, _ in fast.pre_tokenize_str(c)]
                      or [p for p, _ in pure([("\x00" + c, True)])] != [p for p, _ in fast.pre_tokenize_str("\x00" + c)]]
            raise AssertionError(f"{len(differ)} code points split differently: {differ[:20]}")


def test_grapheme_clusters_outside_the_bmp_use_the_librarys_categories():
    """Past the BMP, where the probe of tools/gen_hf_unicode.py cannot see, a mark joins
    the cluster before it by the library's categories, on CPython 3.11 as in Pyodide:
    U+10D69 GARAY VOWEL SIGN E is a mark in Unicode 16, unassigned in 3.11's 14."""
    from chunkwise.tokenizer.hf.graphemes import multi_char_clusters

    assert list(multi_char_clusters("a\U00010d69 b")) == [(0, "a\U00010d69")]


# -- a file of the wrong shape: one clear refusal, never a traceback ------------------------

_WRONG_VALUES = [None, 7, 2.5, True, "x", [], {}, [1, "a"], {"type": "x"}, -1, "DELETE"]


def _field_paths(node, where=()):
    """Every field of a tokenizer.json (the first items of a list, two of a vocabulary)."""
    if isinstance(node, dict):
        for key, value in list(node.items())[: 2 if "[UNK]" in node else None]:
            yield where + (key,)
            yield from _field_paths(value, where + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node[:3]):
            yield where + (i,)
            yield from _field_paths(value, where + (i,))


@pytest.mark.parametrize("name", sorted(TRAINED))
def test_every_field_of_the_wrong_shape_is_refused_clearly(name):
    """check (components.py) walks the fields each component's shape names; a field its
    builder reads that the shape leaves out (they sit side by side in the table, but can
    still differ) would fail as a KeyError or TypeError. Any field of a trained file set
    to a value of another shape, or removed: the file loads and counts, or is refused
    with a ValueError."""
    data = json.loads(TRAINED[name].to_str())
    for path in _field_paths(data):
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        original = parent[path[-1]]
        for wrong in _WRONG_VALUES:
            if wrong == "DELETE" and isinstance(parent, list):
                continue
            if wrong == "DELETE":
                del parent[path[-1]]
            else:
                parent[path[-1]] = wrong
            try:
                tokenizer_from_text(json.dumps(data), name).encode("Hello, world! It's 123 ünïcode 中文.\n  x")
            except ValueError:
                pass
            except Exception as error:
                raise AssertionError(f"{'.'.join(map(str, path))} = {wrong!r}: {type(error).__name__}: {error}") from None
            finally:
                parent[path[-1]] = original  # put back: each field is tried alone
