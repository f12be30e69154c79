"""Where the token index cuts a text for a Hugging Face tokenizer, counts stay the
library's: issue #29's findings 3 to 5, and the rule behind them checked against the
`tokenizers` library for every combination of steps the builders accept.

The token index cuts before a space that follows a letter, number or ASCII symbol
and counts the two sides apart (counter.py). Every tokenizer.json here is built by
the test (trained on a few sentences, or a small vocabulary made by hand).
"""
from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken, Regex, Tokenizer, models, normalizers, pre_tokenizers, trainers

import chunkwise
from chunkwise.tokenizer.hf.files import register_text
from chunkwise.tokenizer.index import TokenIndex
from chunkwise.tokenizer.hf.pretokenizers import GPT2_PATTERN
from chunkwise.tokenizer.hf.tokenizer import Unsupported, tokenizer_from_text
from hf_files import trained

CORPUS = [
    "Salt and pepper, bread and butter, the cheese and the wine and the rest of the meal.",
    "Fill the gap and the other blank too; then the end of the line.",
    "The quick brown fox jumps over the lazy dog. 12 34 5678, x.y and a_b!",
    "def f(x):\n    return x and the y  # and the rest\n",
] * 4
SALT = "Salt and pepper, bread and butter, the cheese and the wine and the rest."


def _library(tok: Tokenizer):
    tok.no_truncation()
    tok.no_padding()
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def _trained(model, trainer, normalizer=None, pre_tokenizer=None, drop_pre_tokenizer=False) -> Tokenizer:
    tok = trained(CORPUS, model, trainer, normalizer, pre_tokenizer)
    if drop_pre_tokenizer:  # (trained on words, used on the whole text: SentencePiece's BPE)
        data = json.loads(tok.to_str())
        data["pre_tokenizer"] = None
        tok = Tokenizer.from_str(json.dumps(data))
    return tok


def claude_like() -> Tokenizer:
    """NFKC and a byte-level BPE without a prefix space, as Claude's tokenizer.json."""
    return _trained(
        models.BPE(),
        trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
        normalizers.NFKC(),
        pre_tokenizers.ByteLevel(add_prefix_space=False),
    )


def roberta_like() -> Tokenizer:
    """A byte-level BPE with add_prefix_space (RoBERTa, BART)."""
    return _trained(
        models.BPE(),
        trainers.BpeTrainer(vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()),
        pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=True),
    )


def llama2_like() -> Tokenizer:
    """Prepend("▁") and Replace(" ", "▁") before a BPE with byte fallback, no pre-tokenizer."""
    return _trained(
        models.BPE(byte_fallback=True, unk_token="<unk>"),
        trainers.BpeTrainer(vocab_size=500, special_tokens=["<unk>"] + [f"<0x{b:02X}>" for b in range(256)]),
        normalizers.Sequence([normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")]),
        pre_tokenizers.Metaspace(prepend_scheme="never"),
        drop_pre_tokenizer=True,
    )


def bert_like() -> Tokenizer:
    return _trained(
        models.WordPiece(unk_token="[UNK]"),
        trainers.WordPieceTrainer(vocab_size=400, special_tokens=["[UNK]"]),
        normalizers.BertNormalizer(),
        pre_tokenizers.BertPreTokenizer(),
    )


BACKENDS = ["pure", "tokenizers"]


def _assert_index_exact(source: str, library, texts, backend, slices=40, seed=0):
    """The token index's count of the whole text and of random slices is the library's."""
    tok = tokenizer_from_text(source, "test", backend)
    rng = random.Random(seed)
    for text in texts:
        index = TokenIndex(text, tok)
        assert index.total() == library(text), (text[:80], backend)
        for _ in range(slices):
            a = rng.randrange(len(text) + 1)
            b = rng.randrange(a, len(text) + 1)
            assert index.count(a, b) == library(text[a:b]), (text[a:b], backend)


def _every_slice_exact(source: str, library, text: str, backend: str):
    tok = tokenizer_from_text(source, "test", backend)
    index = TokenIndex(text, tok)
    wrong = [(a, b) for a in range(len(text)) for b in range(a, len(text) + 1)
             if index.count(a, b) != library(text[a:b])]
    assert not wrong, f"{len(wrong)} slices counted wrong, e.g. {text[wrong[0][0]:wrong[0][1]]!r}"
    assert index.total() == library(text)


# -- finding 3: added tokens that hold a space --------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_added_tokens_holding_a_space_are_never_cut(backend):
    """" the" and "and " (code and chat tokenizers add such): the index cut "and| pepper"
    inside "and ", and counted 33 tokens where the library counts 37."""
    tok = claude_like()
    tok.add_tokens([AddedToken(" the", normalized=False), AddedToken("and ", normalized=False)])
    library = _library(tok)
    _every_slice_exact(tok.to_str(), library, SALT, backend)
    # The chunks keep to the budget with the library's own counts.
    name = register_text(tok.to_str(), name=f"claude-like-{backend}")
    for max_tokens in (6, 10, 22):
        for chunk in chunkwise.chunk(SALT * 3, max_tokens=max_tokens, encoding=name):
            assert chunk.token_count == library(chunk.text) <= max_tokens


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_single_word_token_starting_with_a_space_is_not_cut_before(backend):
    """single_word " qz" is refused after a word character: the text before the cut decides."""
    tok = claude_like()
    tok.add_tokens([AddedToken(" qz", single_word=True, normalized=False)])
    _every_slice_exact(tok.to_str(), _library(tok), "bread qz cheese. qz end", backend)


def test_the_library_goes_on_after_a_match_not_after_what_rstrip_took():
    """The library's matches of added tokens do not overlap, but the search goes on right
    after a match: " the" is matched in the spaces an rstrip token took, and a match that
    single_word refused is skipped whole ("xab c" has no "b c")."""
    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1, "b": 2, "c": 3, "x": 4, "the": 5}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.add_tokens([AddedToken("<m>", rstrip=True, normalized=False), AddedToken(" the", normalized=False),
                    AddedToken("ab", single_word=True, normalized=False), AddedToken("b c", normalized=False)])
    pure = tokenizer_from_text(tok.to_str())
    for text in ("<m>  the x", "a<m>   thex", "xab c", "ab c", "<m>the"):
        assert pure.encode(text) == tok.encode(text, add_special_tokens=False).ids, text


# -- finding 4: a piece after an added token starts a segment -----------------------


MASK_TEXT = "Fill the <mask>gap and the other <mask>blank, then <mask> the  <mask>end."


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("build", [roberta_like, llama2_like], ids=["ByteLevel-add_prefix_space", "Prepend"])
def test_an_lstrip_token_after_a_cut_leaves_the_next_piece_its_prefix(build, backend):
    """<mask> with lstrip takes the space before it; a cut there made the text after the
    token a "continued" piece, without its prefix space (" gap", "▁gap"): one token low."""
    tok = build()
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True, normalized=False, special=True)])
    source = tok.to_str()
    assert tokenizer_from_text(source).cuts_at_spaces
    _every_slice_exact(source, _library(tok), MASK_TEXT, backend)


# -- finding 5: steps that remove or absorb the space --------------------------------


def _hand_bpe(normalizer, pre_tokenizer) -> Tokenizer | None:
    """A BPE whose merges join a word with a space or "▁" after or before it, so that a
    cut is exact only where something keeps the two apart."""
    alphabet = sorted(set("".join(PROBES)) | set("\u2581_xX ") | set(pre_tokenizers.ByteLevel.alphabet()))
    vocab = {"[UNK]": 0}
    for ch in alphabet:
        vocab.setdefault(ch, len(vocab))
    merges = []
    for a, b in itertools.product("at.1\u2581 \u0120_", "\u2581 \u0120_bt"):
        if a + b not in vocab:
            vocab[a + b] = len(vocab)
            merges.append((a, b))
    tok = Tokenizer(models.BPE(vocab, merges, unk_token="[UNK]"))
    data = json.loads(tok.to_str())
    data["normalizer"], data["pre_tokenizer"] = normalizer, pre_tokenizer
    try:
        return Tokenizer.from_str(json.dumps(data))
    except Exception:  # (a combination the library refuses)
        return None


def test_a_replace_that_removes_the_space_is_not_cut():
    """Replace(" ", "") joins the words around every space: only its pattern was checked."""
    tok = _hand_bpe({"type": "Replace", "pattern": {"String": " "}, "content": ""}, {"type": "ByteLevel",
                    "add_prefix_space": False, "trim_offsets": True, "use_regex": True})
    assert not tokenizer_from_text(tok.to_str()).cuts_at_spaces
    for backend in BACKENDS:
        _every_slice_exact(tok.to_str(), _library(tok), "at bt. 1 t_a b", backend)


def test_a_split_on_spaces_after_they_became_metaspace_splits_nothing():
    """Gemma: Replace(" ", "▁") then Split(" ", Isolated), which finds no space left; the
    model merges across "▁". It was taken for a split at every space."""
    gemma = _trained(
        models.BPE(),
        trainers.BpeTrainer(vocab_size=500),
        normalizers.Replace(" ", "\u2581"),
        pre_tokenizers.Split(" ", "isolated"),
    )
    source = gemma.to_str()
    merges = json.loads(source)["model"]["merges"]
    assert any(b.startswith("\u2581") and a.strip("\u2581") for a, b in (m if isinstance(m, list) else m.split(" ") for m in merges))
    assert not tokenizer_from_text(source).cuts_at_spaces
    for backend in BACKENDS:
        _assert_index_exact(source, _library(gemma), [SALT], backend)


# -- every combination of steps: the verdict against the library ----------------------

PROBES = [
    "at bt. 1 t_a b",
    "a  b   t.\u2581 \u2581b x_ _x 12 34",
    "\u4e2d b \u0d4e t \u0130 b \u0958 a\u00a0b \u3000t",
    "e\u0301 b a \u0301t \u00a8 t a\tb a \nb a  \n b",
    "t, b! (a) [b] ' t 's a's b",
]
DOCUMENT = " ".join(PROBES)

NORMALIZERS = [None, {"type": "Lowercase"}, {"type": "StripAccents"}, {"type": "NFC"}, {"type": "NFD"},
               {"type": "NFKC"}, {"type": "NFKD"}, {"type": "Prepend", "prepend": "\u2581"},
               {"type": "Prepend", "prepend": " "}]
NORMALIZERS += [{"type": "BertNormalizer", "clean_text": c, "handle_chinese_chars": h, "strip_accents": None,
                 "lowercase": lo} for c, h, lo in itertools.product([True, False], repeat=3)]  # ([9]: BERT's)
NORMALIZERS += [{"type": "Strip", "strip_left": left, "strip_right": right} for left, right in ((1, 1), (1, 0), (0, 1))]
NORMALIZERS += [{"type": "Replace", "pattern": pattern, "content": content}
                for pattern in ({"String": " "}, {"String": "  "}, {"String": "t"}, {"String": "\u2581"},
                                {"Regex": " {2,}"}, {"Regex": r"\s"}, {"Regex": r" ?\w+"}, {"Regex": r"t(?= )"})
                for content in ("\u2581", "", " ", "x")]

PREPEND = {"type": "Prepend", "prepend": "\u2581"}
REPLACE_SPACE = {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}

BEHAVIORS = ["Isolated", "Removed", "MergedWithPrevious", "MergedWithNext", "Contiguous"]
PRE_TOKENIZERS = [None, {"type": "BertPreTokenizer"}, {"type": "Whitespace"}, {"type": "WhitespaceSplit"},
                  {"type": "Digits", "individual_digits": True}, {"type": "Digits", "individual_digits": False}]
PRE_TOKENIZERS += [{"type": "Punctuation", "behavior": b} for b in BEHAVIORS]
PRE_TOKENIZERS += [{"type": "CharDelimiterSplit", "delimiter": d} for d in (" ", "\u2581", "t")]
PRE_TOKENIZERS += [{"type": "Metaspace", "replacement": r, "prepend_scheme": scheme, "split": split}
                   for r in ("\u2581", "_") for scheme in ("always", "first", "never") for split in (True, False)]
PRE_TOKENIZERS += [{"type": "ByteLevel", "add_prefix_space": a, "trim_offsets": True, "use_regex": u}
                   for a in (True, False) for u in (True, False)]
PRE_TOKENIZERS += [{"type": "Split", "pattern": pattern, "behavior": b, "invert": invert}
                   for pattern in ({"String": " "}, {"String": "\u2581"}, {"String": "t "}, {"Regex": GPT2_PATTERN},
                                   {"Regex": r"\s+"}, {"Regex": r" ?\w+"}, {"Regex": r"\w+|\s+"}, {"Regex": r"\s*[\r\n]+|\s+"})
                   for b in BEHAVIORS for invert in (False, True)]


def _sequence(kind: str, key: str, steps):
    steps = [s for s in steps if s is not None]
    return None if not steps else steps[0] if len(steps) == 1 else {"type": kind, key: steps}


def _combinations():
    for n, p in itertools.product(NORMALIZERS, PRE_TOKENIZERS):
        yield n, p
    # Sequences: the steps real files chain, and each step after a space was replaced.
    for first in (PREPEND, {"type": "NFKC"}, REPLACE_SPACE):
        for second in NORMALIZERS[1:]:
            for p in (None, {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": True},
                      {"type": "Split", "pattern": {"String": " "}, "behavior": "Isolated", "invert": False},
                      {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}):
                yield _sequence("Sequence", "normalizers", [first, second]), p
    for first, second in itertools.product(PRE_TOKENIZERS[1::3], PRE_TOKENIZERS[1::3]):
        yield None, _sequence("Sequence", "pretokenizers", [first, second])


def test_every_combination_of_steps_cuts_only_where_the_library_agrees():
    """Whatever a normalizer and a pre-tokenizer do to a space (keep it, replace it, remove
    it, take it into a pre-token), a tokenizer that chunkwise cuts at spaces counts every
    slice as the library does. The verdict is made from what each step does to a space;
    this is the check that it is never too bold, and that it stays useful."""
    rng = random.Random(4)
    slices = [(a, b) for a, b in (sorted(rng.sample(range(len(DOCUMENT) + 1), 2)) for _ in range(12))]
    tried = cut = 0
    unlike = []
    for normalizer, pre_tokenizer in _combinations():
        tok = _hand_bpe(normalizer, pre_tokenizer)
        if tok is None:
            continue
        try:
            pure = tokenizer_from_text(tok.to_str())
        except Unsupported:
            continue
        tried += 1
        if not pure.cuts_at_spaces:
            continue
        cut += 1
        library = _library(tok)
        where = f"normalizer {json.dumps(normalizer)}, pre-tokenizer {json.dumps(pre_tokenizer)}"
        if any(len(pure.encode(DOCUMENT[a:b])) != library(DOCUMENT[a:b]) for a, b in [(0, len(DOCUMENT))] + slices):
            unlike.append(where)  # (the encoder's own difference, not the cuts')
            continue
        index = TokenIndex(DOCUMENT, pure)
        assert index.total() == library(DOCUMENT), where
        for a, b in slices:
            assert index.count(a, b) == library(DOCUMENT[a:b]), (where, DOCUMENT[a:b])
    # Known, and not the cuts': after a Replace that deletes or rewrites a text's first
    # character ("t" -> ""), the library's Metaspace "first" may prepend nothing (it asks
    # where the first normalized character came from); the pure encoder prepends.
    assert all('"prepend_scheme": "first"' in w and '"Replace"' in w for w in unlike), unlike
    assert tried > 5000 and cut > tried // 5, (tried, cut)


def test_real_files_steps_are_still_cut():
    """The verdict keeps what the real files need (else every count encodes the whole slice)."""
    steps = [
        (NORMALIZERS[9], {"type": "BertPreTokenizer"}),  # BERT
        (None, {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}),  # GPT-2
        (_sequence("Sequence", "normalizers", [PREPEND, REPLACE_SPACE]), None),  # Llama 2
        ({"type": "NFC"}, {"type": "Split", "pattern": {"Regex": GPT2_PATTERN}, "behavior": "Isolated", "invert": False}),
        (_sequence("Sequence", "normalizers", [{"type": "Strip", "strip_left": False, "strip_right": True},
                                               {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": "\u2581"}]),
         {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True}),  # T5
    ]
    for normalizer, pre_tokenizer in steps:
        tok = _hand_bpe(normalizer, pre_tokenizer)
        if normalizer and normalizer.get("type") == "Sequence" and pre_tokenizer is None:
            tok = llama2_like()  # (its merges never join a word with the "▁" after it)
        assert tokenizer_from_text(tok.to_str()).cuts_at_spaces, (normalizer, pre_tokenizer)


DEEPSEEK_V3_PATTERN = (r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+"
                       r"| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_empty_normalizer_is_none_and_its_normalized_added_tokens_are_cut_around(backend):
    """DeepSeek V3's normalizer is a Sequence of none: its added tokens marked normalized
    (<｜fim▁hole｜>) are matched in text no step changes, so the text is still cut at spaces."""
    tok = _hand_bpe({"type": "Sequence", "normalizers": []}, {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": r"\p{N}{1,3}"}, "behavior": "Isolated", "invert": False},
        {"type": "Split", "pattern": {"Regex": DEEPSEEK_V3_PATTERN}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]})
    tok.add_tokens([AddedToken("<hole>", normalized=True), AddedToken("a t", normalized=True)])
    pure = tokenizer_from_text(tok.to_str(), "deepseek-like", backend)
    assert pure.cuts_at_spaces
    text = "at a t.1 <hole> at<hole>t 12 a tb " * 6
    library = _library(tok)
    index = TokenIndex(text, pure)
    assert index.total() == library(text)
    for a in range(0, len(text), 5):
        for b in range(a, len(text) + 1, 7):
            assert index.count(a, b) == library(text[a:b]), text[a:b]


# -- random added tokens: the index's counts of any slice are the library's ------------

BASES = {"claude-like": claude_like(), "roberta-like": roberta_like(), "llama2-like": llama2_like(),
         "bert-like": bert_like()}
WORDS = ["the", "and", "bread", "salt", "a", "x", ",", ".", "<m>", "12"]


@st.composite
def added_tokens(draw):
    contents = draw(st.lists(
        st.lists(st.sampled_from(WORDS + [" ", " ", "  ", "\t"]), min_size=1, max_size=3).map("".join)
        .filter(lambda s: s.strip()), min_size=1, max_size=4, unique=True))
    flags = st.booleans()
    return [(c, draw(flags), draw(flags), draw(flags), draw(flags), draw(flags)) for c in contents]


texts = st.lists(st.sampled_from(WORDS + [" ", " ", " ", "  ", "\n", "the ", " the", "and "]), min_size=1, max_size=90).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(sorted(BASES)), tokens=added_tokens(), text=texts, data=st.data())
def test_random_added_tokens_count_any_slice_as_the_library(base, tokens, text, data):
    tok = Tokenizer.from_str(BASES[base].to_str())
    for content, single_word, lstrip, rstrip, normalized, special in tokens:
        token = AddedToken(content, single_word=single_word, lstrip=lstrip, rstrip=rstrip,
                           normalized=normalized, special=special)
        (tok.add_special_tokens if special else tok.add_tokens)([token])
    library = _library(tok)
    for backend in BACKENDS:
        pure = tokenizer_from_text(tok.to_str(), "random", backend)
        assert len(pure.encode(text)) == library(text)
        index = TokenIndex(text, pure)
        assert index.total() == library(text), backend
        for _ in range(6):
            a = data.draw(st.integers(0, len(text)))
            b = data.draw(st.integers(a, len(text)))
            assert index.count(a, b) == library(text[a:b]), (backend, text[a:b])
