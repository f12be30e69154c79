"""The engine's contract (README: "What every run guarantees"), for every strategy and encoding, on hand-written and generated text."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise import ChunkwiseWarning
from chunkwise.types import LINE, PARAGRAPH, SENTENCE
from chunkwise.packing.strategies import OWN_STRATEGIES, REFERENCES
from conftest import CORPUS, assert_invariants

# The contract is chunkwise's: the reference strategy (LangChain's splitter, kept as it
# is) may go over the budget and drops Python's whitespace, not the tokenizer's, between
# chunks; test_the_reference_keeps_its_own_properties checks what it does keep, and
# tests/packing/test_langchain.py that it is LangChain's.
STRATEGIES = OWN_STRATEGIES
ENCODINGS = ("cl100k_base", "o200k_base")

# Text that looks like documents: words in several scripts, punctuation,
# Markdown structure, code, emoji sequences and odd whitespace.
_pieces = st.sampled_from(
    [
        "the ", "quick ", "brown ", "fox. ", "Dr. Smith ", "e.g. this ", "3.14 ", "U.S. ", "end! ", "why? ",
        "word, ", "clause; ", "list: ", " — ", "Привет ", "мир. ", "中文", "。", "测试，", "日本語", "！",
        "مرحبا؟ ", "नमस्ते। ", "\n", "\n\n", "\r\n", "\t", "   ", "# Title\n", "## Sub\n", "Setext\n===\n",
        "```\n# not a heading\n```\n", "- item\n", "1. step\n", "def f(x):\n    return x\n",
        # Fenced code of a known language (cut as its code, fenced.py): strings and comments with sentences.
        "```python\n", "```js\n", "```\n", "s = '''One. Two.\n\nThree.'''\n", "  x = f(a,\n      b)  # A. B.\n",
        "g(`a.\n\n${b}. c`) /* d.\ne */\n",
        "https://example.com/a.b?c=1 ", "👍🏽", "🏳️‍🌈", "👨‍👩‍👧", "🇩🇪", "e\u0301", "\u200d", "\x00",
        "\u00a0", "\u3000", "supercalifragilisticexpialidocious", "\ufeff", "<|endoftext|>",
        # Information separators: Python's whitespace, the tokenizer's symbols.
        "\x1c", "\x1d\x1e", "\x1f", "a\x1f", "\n\x1c\n",
        # Code points CPython 3.11 calls unassigned and tiktoken (Unicode 16) assigns.
        "\U0001D2C1", " \U0001D2C2\U0001D2C3", "\u1c89\u1c8a", "a\U00011F00b",
        # Flag runs, heading-only text, giant pre-tokens (over 256 bytes: bpe.merge).
        "🇩🇪🇫🇷🇯🇵🇧🇷" * 6, "# Heading line\n" * 8, "x" * 700, "中文" * 150, "\n" * 300, "!" * 300,
        # Pipe tables (cut between rows): a header, its delimiter, rows with sentences in them.
        "| a | b |\n|---|:-:|\n", "| 1 | One. Two, three. |\n", "| x \\| y | z |\n",
    ]
)
documents = st.lists(_pieces | st.text(max_size=8), max_size=120).map("".join)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("encoding", ENCODINGS + ("chars",))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    text=documents, max_tokens=st.integers(1, 120), overlap=st.integers(0, 150),
    overlap_unit=st.sampled_from(chunkwise.OVERLAP_UNITS),
)
def test_invariants_on_generated_documents(backend, strategy, encoding, text, max_tokens, overlap, overlap_unit):
    settings = dict(max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding, overlap_unit=overlap_unit)
    with pytest.warns(ChunkwiseWarning) if overlap > max(max_tokens, 4) // 2 else _no_check():
        chunks = chunkwise.chunk(text, **settings)
    result = chunkwise.chunk_document(text, **settings)
    assert [c.to_dict() for c in result.chunks] == [c.to_dict() for c in chunks], "not deterministic"
    assert_invariants(text, chunks, result.settings.max_tokens, encoding, result.settings.overlap)


@pytest.mark.parametrize("strategy", REFERENCES)
@pytest.mark.parametrize("encoding", ENCODINGS + ("chars",))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=documents, max_tokens=st.integers(1, 120), overlap=st.integers(0, 150))
def test_the_reference_keeps_its_own_properties(backend, strategy, encoding, text, max_tokens, overlap):
    """LangChain's splitter, not chunkwise's contract: exact slices and counts, in order,
    every character but Python's whitespace in some chunk, the last one "end"; over the
    budget only where it is (tests/packing/test_langchain.py: its chunks are LangChain's)."""
    from chunkwise.packing.langchain import PYTHON_WHITESPACE
    from chunkwise.tokenizer.registry import get_tokenizer

    result = chunkwise.chunk_document(text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
    again = chunkwise.chunk_document(text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
    assert [c.to_dict() for c in again.chunks] == [c.to_dict() for c in result.chunks], "not deterministic"
    count = get_tokenizer(encoding).count
    covered = 0
    for i, c in enumerate(result.chunks):
        assert c.index == i and c.text == text[c.start : c.end] and c.text
        assert c.token_count == count(c.text)
        assert not text[covered : c.start].strip(PYTHON_WHITESPACE), f"chunk {i} skips text"
        if i:
            before = result.chunks[i - 1]
            assert c.start >= before.start and c.end >= before.end
            repeated = min(before.end, c.end) - c.start
            assert c.overlap_tokens == (count(text[c.start : c.start + repeated]) if repeated > 0 else 0)
        covered = max(covered, c.end)
    assert not text[covered:].strip(PYTHON_WHITESPACE)
    assert [c.boundary == "end" for c in result.chunks] == [False] * (len(result.chunks) - 1) + [True] * bool(result.chunks)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("encoding", ENCODINGS + ("chars",))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=documents, max_tokens=st.integers(4, 120), overlap=st.integers(0, 60), parents=st.sampled_from([None, 2, 5]))
def test_context_and_parents_keep_the_contract(strategy, encoding, text, max_tokens, overlap, parents):
    """With context="headings": embed_text ends with the chunk's text and its exact count is
    within the budget (a character alone over it aside); with parents, the chunks keep the
    contract and lie inside their parent."""
    from chunkwise.tokenizer.registry import get_tokenizer

    count = get_tokenizer(encoding).count
    settings = dict(max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding, context="headings")
    result = chunkwise.chunk_document(text, **settings, parent_tokens=parents and max_tokens * parents)
    assert_invariants(text, result.chunks, result.settings.max_tokens, encoding, result.settings.overlap)
    for c in result.chunks:
        assert c.embed_text.endswith(c.text) and c.embed_tokens == count(c.embed_text)
        assert c.embed_tokens <= result.settings.max_tokens or c.embed_text == c.text
    for c in result.chunks if parents else ():
        p = result.parents[c.parent]
        assert p.start <= c.start and c.end <= p.end


@pytest.mark.parametrize("encoding", ENCODINGS + ("chars",))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=documents, max_tokens=st.integers(1, 120), overlap=st.integers(1, 60))
def test_sentences_overlap_is_whole_sentences_or_none(encoding, text, max_tokens, overlap):
    """With overlap_unit="unit", an overlapped chunk of `sentences` starts where a
    sentence, line or paragraph starts: never inside one."""
    doc = chunkwise.Document(text)
    result = chunkwise.chunk_document(doc, max_tokens=max_tokens, overlap=overlap, strategy="sentences", encoding=encoding)
    for c in result.chunks:
        if c.overlap_tokens:
            assert doc.separators.is_unit_start(c.start, (PARAGRAPH, LINE, SENTENCE)), (c.start, text[c.start - 20 : c.start + 20])


class _no_check:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.iterdir()))
def test_invariants_on_real_documents(backend, strategy, encoding, name):
    text = (CORPUS / name).read_text(encoding="utf-8")
    for max_tokens, overlap in ((512, 64), (97, 13)):
        result = chunkwise.chunk_document(text, max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)
        assert_invariants(text, result.chunks, max_tokens, encoding, overlap)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_tokenizing_in_many_blocks_changes_nothing(backend, encoding, monkeypatch):
    """Real documents are tokenized in 64K blocks; with blocks of about 300
    characters every lookup and count crosses block edges, and the chunks must
    be the very same."""
    from chunkwise.tokenizer import index

    text = "\n\n".join((CORPUS / name).read_text(encoding="utf-8") for name in ("node-net.md", "cjk.txt", "russian.txt"))
    settings = [(512, 64, "smart"), (97, 13, "smart"), (60, 20, "tokens"), (80, 10, "sentences")]
    whole = [chunkwise.chunk_document(text, max_tokens=m, overlap=o, strategy=s, encoding=encoding) for m, o, s in settings]
    monkeypatch.setattr(index, "_BLOCK", 300)
    for (m, o, s), expected in zip(settings, whole):
        result = chunkwise.chunk_document(text, max_tokens=m, overlap=o, strategy=s, encoding=encoding)
        assert [c.to_dict() for c in result.chunks] == [c.to_dict() for c in expected.chunks], (m, o, s)
        assert result.source_tokens == expected.source_tokens


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\n\t  ",
        "x",
        "a" * 5000,  # one giant word
        "🏳️‍🌈" * 400,  # ZWJ sequences with no break opportunity but between clusters
        "e" + "\u0301" * 300,  # one grapheme cluster far over any small budget
        "line one\r\nline two\r\n\r\nnext paragraph\r\n",  # CRLF kept as is
        "\ufeffbom at the start. " * 50,
        "nul\x00bytes\x00inside. " * 50,
    ],
    ids=["empty", "whitespace", "one-char", "giant-word", "zwj", "zalgo", "crlf", "bom", "nul"],
)
@pytest.mark.parametrize("max_tokens", [1, 4, 7, 64])
def test_edge_cases_terminate_with_invariants(strategy, text, max_tokens):
    for encoding in ENCODINGS + ("chars",):
        result = chunkwise.chunk_document(text, max_tokens=max_tokens, overlap=3, strategy=strategy, encoding=encoding)
        assert_invariants(text, result.chunks, result.settings.max_tokens, encoding, result.settings.overlap)


def test_empty_text_gives_no_chunks():
    assert chunkwise.chunk("") == []
    assert chunkwise.chunk(" \n\t ") == []
    assert chunkwise.chunk_document("").source_tokens == 0


def test_overlap_over_budget_is_clamped_with_a_warning():
    text = "Sentence number one. " * 200
    with pytest.warns(ChunkwiseWarning, match="clamped to 25"):
        chunks = chunkwise.chunk(text, max_tokens=50, overlap=50)
    assert all(c.token_count <= 50 for c in chunks)
    assert max(c.overlap_tokens for c in chunks) <= 25
    result = chunkwise.chunk_document(text, max_tokens=50, overlap=500)
    assert result.settings.overlap == 25 and result.warnings


def test_tiny_budget_is_raised_to_hold_any_character():
    with pytest.warns(ChunkwiseWarning, match="budget of 4"):
        chunks = chunkwise.chunk("🏳️‍🌈 hello", max_tokens=1, overlap=0)
    assert all(1 <= c.token_count <= 4 for c in chunks)
    chars = chunkwise.chunk("abc", max_tokens=1, overlap=0, encoding="chars")
    assert [c.text for c in chars] == ["a", "b", "c"]


def test_hard_cuts_never_split_a_grapheme_cluster():
    # The family emoji alone is 18 cl100k tokens: the budget must hold one cluster.
    text = "👨‍👩‍👧‍👦🇩🇪🇫🇷👍🏽e\u0301" * 300
    for strategy in ("smart", "tokens"):
        for c in chunkwise.chunk(text, max_tokens=29, overlap=6, strategy=strategy):
            assert c.boundary in ("token", "end")
            for edge in (c.start, c.end):
                assert chunkwise.text.graphemes.is_boundary(text, edge), (c, edge)


def test_a_cluster_over_budget_is_cut_between_code_points():
    text = "👨‍👩‍👧‍👦" * 3  # 18 tokens per cluster, budget 8: no cluster fits whole
    chunks = chunkwise.chunk(text, max_tokens=8, overlap=0)
    assert_invariants(text, chunks, 8, "cl100k_base")
    assert len(chunks) > 3


def test_offsets_stay_right_on_repeated_text():
    paragraph = "The same paragraph, again and again. It has two sentences.\n\n"
    text = paragraph * 500
    chunks = chunkwise.chunk(text, max_tokens=100, overlap=20)
    assert_invariants(text, chunks, 100, "cl100k_base", 20)
    for c in chunks:
        assert text[c.start : c.end] == c.text
        assert c.start % len(paragraph) in (0, paragraph.index("It has")) or c.overlap_tokens


def test_bad_settings_raise_clear_errors():
    with pytest.raises(ValueError, match="unknown strategy"):
        chunkwise.chunk("x", strategy="fancy")
    with pytest.raises(ValueError, match="unknown encoding"):
        chunkwise.chunk("x", encoding="gpt2")
    with pytest.raises(ValueError, match="at least 1"):
        chunkwise.chunk("x", max_tokens=0)
    with pytest.raises(ValueError, match="0 or more"):
        chunkwise.chunk("x", overlap=-1)
    with pytest.raises(ValueError, match="whole number"):
        chunkwise.chunk("x", max_tokens=1.5)
    with pytest.raises(TypeError):
        chunkwise.chunk(b"bytes")


def test_lone_surrogates_are_replaced_and_reported():
    text = "broken \ud800 surrogate. " * 5
    result = chunkwise.chunk_document(text, max_tokens=10, overlap=0)
    assert any("surrogate" in w for w in result.warnings)
    joined = "".join(c.text for c in result.chunks)
    assert "\ufffd" in joined and "\ud800" not in joined
