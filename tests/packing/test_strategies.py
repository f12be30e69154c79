"""What each strategy does on real documents, and the cut rules behind it."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.text.markdown import Outline
from chunkwise.packing.settings import overlap_range
from chunkwise.types import LINE, SENTENCE
from chunkwise.text.separators import Separators, is_sentence_end
from chunkwise.tokenizer.registry import get_tokenizer
from conftest import CORPUS, assert_invariants

NODE_DOC = (CORPUS / "node-net.md").read_text(encoding="utf-8")
GPL = (CORPUS / "gpl-3.txt").read_text(encoding="utf-8")
CODE = (CORPUS / "argparse.py.txt").read_text(encoding="utf-8")
RUSSIAN = (CORPUS / "russian.txt").read_text(encoding="utf-8")
CJK = (CORPUS / "cjk.txt").read_text(encoding="utf-8")


def _log(lines: int) -> str:
    levels = ["INFO", "WARN", "ERROR", "DEBUG"]
    return "".join(
        f"2026-11-29T10:{i // 60 % 60:02d}:{i % 60:02d}Z {levels[i % 4]} worker-{i % 7} request id={i * 7919 % 100003} took {i % 913} ms\n"
        for i in range(lines)
    )


def _ends_at(text: str, chunk, pattern: str) -> bool:
    return chunk.boundary == "end" or re.match(pattern, text[chunk.end :]) is not None


def test_smart_cuts_markdown_at_headings_and_paragraphs():
    chunks = chunkwise.chunk(NODE_DOC, max_tokens=512, overlap=64)
    kinds = [c.boundary for c in chunks[:-1]]
    strong = sum(k in ("heading", "paragraph") for k in kinds)
    assert strong / len(kinds) >= 0.8, kinds
    assert "token" not in kinds and "word" not in kinds
    assert sum(c.token_count for c in chunks) / (len(chunks) * 512) > 0.6  # about two-thirds full


def test_smart_never_splits_a_paragraph_that_fits_when_a_cut_before_it_is_full_enough():
    paragraphs = [f"Paragraph {i} says something. " * (6 + i % 5) for i in range(40)]
    text = "\n\n".join(paragraphs)
    chunks = chunkwise.chunk(text, max_tokens=200, overlap=0)
    assert_invariants(text, chunks, 200, "cl100k_base")
    assert all(c.boundary in ("paragraph", "end") for c in chunks)
    for c in chunks:
        assert c.text.startswith("Paragraph") and c.text.endswith("something.")


def test_smart_takes_the_strongest_break_nearest_two_thirds_of_the_budget():
    count = get_tokenizer("cl100k_base").count
    sentence = "Cats sleep in the warm sun. "
    paragraph = (sentence * 5).rstrip()  # 36 tokens
    assert count(paragraph) == 36
    # paragraph breaks at 36, 72 and 108 tokens of a 110-token budget: the one nearest
    # 72 (two-thirds) ends the chunk, not the farthest that fits
    text = "\n\n".join([paragraph] * 6)
    chunks = chunkwise.chunk(text, max_tokens=110, overlap=0)
    assert [c.text.count("\n\n") for c in chunks] == [1, 1, 1]
    assert_invariants(text, chunks, 110, "cl100k_base")
    # a paragraph break at a third beats the sentence ends near two-thirds
    text = paragraph + "\n\n" + (sentence * 40).rstrip()
    first = chunkwise.chunk(text, max_tokens=110, overlap=0)[0]
    assert first.text == paragraph and first.boundary == "paragraph"
    # ...but not one under a quarter: then the sentence end nearest two-thirds
    short = (sentence * 3).rstrip()
    text = short + "\n\n" + (sentence * 40).rstrip()
    first = chunkwise.chunk(text, max_tokens=110, overlap=0)[0]
    assert first.boundary == "sentence" and abs(first.token_count - 72) <= 4


def test_smart_on_prose_code_and_logs_prefers_structure():
    for text in (GPL, CODE, _log(3000)):
        chunks = chunkwise.chunk(text, max_tokens=256, overlap=32)
        weak = [c for c in chunks if c.boundary in ("word", "token")]
        assert len(weak) <= len(chunks) * 0.05


def test_smart_on_cjk_cuts_at_full_width_sentence_ends():
    text = "这是第一句话。这是第二句话！真的吗？" * 200
    chunks = chunkwise.chunk(text, max_tokens=64, overlap=0)
    assert_invariants(text, chunks, 64, "cl100k_base")
    for c in chunks[:-1]:
        assert c.boundary == "sentence" and c.text[-1] in "。！？"


def test_paragraphs_keep_blocks_whole():
    chunks = chunkwise.chunk(GPL, max_tokens=400, overlap=0, strategy="paragraphs")
    assert_invariants(GPL, chunks, 400, "cl100k_base")
    for c in chunks:
        if c.boundary == "paragraph":
            assert re.match(r"[^\S\n]*\n[^\S\n]*\n", GPL[c.end :])
    # A block over budget alone is reduced by the smart splitter; others stay whole.
    blocks = [b for b in re.split(r"\n[^\S\n]*\n", GPL) if b.strip()]
    fitting = [b.strip() for b in blocks if chunkwise.chunk(b, max_tokens=400, overlap=0) and len(chunkwise.chunk(b, max_tokens=400, overlap=0)) == 1]
    joined = [c.text for c in chunks]
    for block in fitting:
        assert any(block in text for text in joined), block[:60]


def test_markdown_gives_one_chunk_per_section():
    chunks = chunkwise.chunk(NODE_DOC, max_tokens=2048, overlap=0, strategy="markdown")
    assert_invariants(NODE_DOC, chunks, 2048, "cl100k_base")
    outline = Outline(NODE_DOC)
    heading_starts = set(outline.starts)
    for c in chunks:
        assert c.start in heading_starts or c.start == 0
        assert c.boundary in ("heading", "end")
    # Sections that hold only a heading join the section under them.
    assert all(c.text.count("\n") > 0 for c in chunks)


def test_markdown_reduces_an_oversized_section_with_smart():
    text = "# Big\n\n" + "A sentence that repeats. " * 400 + "\n\n# Small\n\nShort."
    chunks = chunkwise.chunk(text, max_tokens=128, overlap=0, strategy="markdown")
    assert_invariants(text, chunks, 128, "cl100k_base")
    assert chunks[-1].text == "# Small\n\nShort."
    assert chunks[-1].headings == ("Small",)
    assert all(c.headings == ("Big",) for c in chunks[:-1])


def test_lines_keep_log_lines_whole():
    log = _log(2000)
    chunks = chunkwise.chunk(log, max_tokens=300, overlap=30, strategy="lines")
    assert_invariants(log, chunks, 300, "cl100k_base", 30)
    lines = set(log.splitlines())
    for c in chunks:
        assert all(line in lines for line in c.text.splitlines())


def test_sentences_keep_sentences_whole():
    chunks = chunkwise.chunk(RUSSIAN, max_tokens=120, overlap=0, strategy="sentences")
    assert_invariants(RUSSIAN, chunks, 120, "cl100k_base")
    for c in chunks:
        assert c.boundary in ("sentence", "paragraph", "heading", "end")
        if c.boundary == "sentence":
            assert c.text[-1] in ".!?…"


def test_tokens_are_fixed_windows_of_exact_size():
    chunks = chunkwise.chunk(GPL, max_tokens=100, overlap=10, strategy="tokens")
    assert_invariants(GPL, chunks, 100, "cl100k_base", 10)
    full = [c.token_count for c in chunks[:-1]]
    assert sum(full) / len(full) >= 97  # windows are full but for edge effects
    assert all(c.boundary == "token" for c in chunks[:-1])
    assert all(0 < c.overlap_tokens <= 10 for c in chunks[1:])


@pytest.mark.parametrize("strategy", chunkwise.STRATEGIES)
def test_every_strategy_reports_heading_paths(strategy):
    text = "# Guide\n\nIntro.\n\n## Install\n\n" + "Run the installer now. " * 60 + "\n\n## Use\n\nCall it."
    chunks = chunkwise.chunk(text, max_tokens=60, overlap=0, strategy=strategy)
    assert chunks[0].headings == ("Guide",)
    assert any(c.headings == ("Guide", "Install") for c in chunks)
    last = chunks[-1]
    assert last.headings == (("Guide", "Use") if last.text.startswith("## Use") else ("Guide", "Install"))
    if strategy == "markdown":  # the one strategy that must cut at every heading
        assert last.text == "## Use\n\nCall it."


def test_headings_inside_fenced_code_are_not_headings():
    text = "# Real\n\n```python\n# a comment\nx = 1\n```\n\nSetext\n------\n\nbody\n"
    outline = Outline(text)
    assert [h.title for h in outline.headings] == ["Real", "Setext"]
    assert [h.level for h in outline.headings] == [1, 2]
    assert outline.path_at(len(text) - 1) == ("Real", "Setext")


def _sentence_cuts(text: str) -> list[str]:
    seps = Separators(text, Outline(text))
    return [text[:cut] for cut in seps.cuts(SENTENCE, 0, len(text))]


@pytest.mark.parametrize(
    "text,ends",
    [
        ("One. Two! Three? Four… Five", ["One.", "One. Two!", "One. Two! Three?", "One. Two! Three? Four…"]),
        ('He said "Stop." Then left.', ['He said "Stop."']),
        ("Dr. Smith arrived. Then Mr. Jones.", ["Dr. Smith arrived."]),
        ("It costs 3.50 dollars. Pi is 3.14159 roughly. See e.g. this one.", ["It costs 3.50 dollars.", "It costs 3.50 dollars. Pi is 3.14159 roughly."]),
        ("Visit https://example.com/a.b. Next sentence.", ["Visit https://example.com/a.b."]),
        ("In the U.S. the rule differs. J. R. R. Tolkien wrote.", ["In the U.S. the rule differs."]),
        ("1. First step\n2. Second step", []),
        ("中文。日本語！本当？終わり", ["中文。", "中文。日本語！", "中文。日本語！本当？"]),
        ("هل أنت بخير؟ نعم. शुभ दिन। ठीक है॥ end", ["هل أنت بخير؟", "هل أنت بخير؟ نعم.", "هل أنت بخير؟ نعم. शुभ दिन।", "هل أنت بخير؟ نعم. शुभ दिन। ठीक है॥"]),
        ("(Quoted.) Next.", ["(Quoted.)"]),
        ("「こんにちは。」次の文。", ["「こんにちは。」", "「こんにちは。」次の文。"]),
    ],
)
def test_sentence_ends(text, ends):
    assert _sentence_cuts(text) == ends


def test_fast_cut_patterns_match_their_plain_form():
    """The sentence and phrase patterns are written to scan fast; they must find
    exactly what the plain alternation of their rules finds."""
    import random

    from chunkwise.text import separators

    plain_sentence = re.compile(
        rf"(?:[.!?…‽]+|[؟।॥۔]+)[{separators._CLOSERS}]*(?=\s)|[。！？｡]+[{separators._CJK_CLOSERS}]*"
    )
    plain_phrase = re.compile(r"[,;:](?=\s)|(?<=\S[ \t])[—–-]{1,2}(?=[ \t])|(?<=\w)[—–](?=\w)|[，、；：]")
    rng = random.Random(5)
    alphabet = ".!?…‽؟।॥۔。！？｡,;:—–-，、；：\"')]」』”’ \t\nab1_é中"
    texts = [(CORPUS / name).read_text(encoding="utf-8") for name in ("gpl-3.txt", "cjk.txt", "russian.txt")]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(5000)]
    # (an unspaced dash is a phrase break between words: the pattern finds it, is_phrase_break checks the words)
    checks = ((separators._SENTENCE, None, plain_sentence), (separators._PHRASE, separators.is_phrase_break, plain_phrase))
    for fast, check, plain in checks:
        for text in texts:
            found = [m.span() for m in fast.finditer(text) if check is None or check(text, m)]
            assert found == [m.span() for m in plain.finditer(text)], text


def test_one_scan_for_line_and_sentence_starts_finds_what_each_level_finds():
    """Separators.unit_starts (where an overlap may start) scans line breaks and
    sentence ends at once: the same starts as the document's chunk_start of every
    level's cuts, in order, each once, in any window, fenced code and code included."""
    import random

    from chunkwise import Document
    from chunkwise.types import LINE, PARAGRAPH, SENTENCE

    rng = random.Random(7)
    pieces = ["Dr. ", "Fig. 3", "J. R. R. ", "1. ", "e.g. ", "word", "Word", "ok.", "end!\"", "(why?)", "。", "！」",
              "\n", "\n\n", "\n \n", " ", "\t", "…", "؟", "\u2029", "\x1f", "a", "B", ",", "\n```python\n", "\n```\n",
              "x = 1  # no. Yes\n", "def f():\n", "    "]
    texts = [(CORPUS / name).read_text(encoding="utf-8")[:20000] for name in ("gpl-3.txt", "cjk.txt", "node-net.md")]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 80))) for _ in range(3000)]
    texts.append((CORPUS / "argparse.py.txt").read_text(encoding="utf-8")[:20000])
    groups = ((PARAGRAPH, LINE, SENTENCE), (PARAGRAPH, LINE), (LINE, SENTENCE), (LINE,), (PARAGRAPH,))
    for n, text in enumerate(texts):
        doc = Document(text)
        # (the code strategy cuts prose with the code separators)
        for seps in (doc.separators, doc.code_separators) if n % 10 == 0 else (doc.separators,):
            for _ in range(4):
                lo = rng.randint(0, len(text))
                hi = rng.randint(lo - 1, min(len(text), lo + 400))
                for levels in groups:
                    want = sorted({doc.chunk_start(c) for level in levels for c in seps.cuts(level, lo, hi)})
                    assert seps.unit_starts(levels, lo, hi, doc.chunk_start) == want, (text, lo, hi, levels)


def test_sentence_end_check_is_exposed_for_abbreviations():
    text = "See Fig. 3 for details."
    m = re.search(r"\.", text)
    assert not is_sentence_end(text, m)


def test_overlap_starts_at_a_sentence_or_word_start():
    chunks = chunkwise.chunk(GPL, max_tokens=200, overlap=40, strategy="smart")
    overlapped = [c for c in chunks if c.overlap_tokens]
    assert len(overlapped) > len(chunks) / 2
    for c in overlapped:
        assert GPL[c.start - 1].isspace()  # a word start, never mid-word
        assert 0 < c.overlap_tokens <= overlap_range(40, 200)[2]
    # GPL's sentences are long, yet most overlaps start where a sentence or line
    # starts (6 of 56 do not; at word starts, 44 of 57 did not).
    mid, _ = _mid_sentence_overlaps(GPL, chunks)
    assert mid / len(overlapped) < 0.15


def test_overlap_of_short_sentences_starts_at_a_sentence():
    text = " ".join(f"Sentence {i} is short." for i in range(400))
    chunks = chunkwise.chunk(text, max_tokens=100, overlap=20)
    for c in chunks[1:]:
        assert c.text.startswith("Sentence ") and 10 <= c.overlap_tokens <= 20


def test_hard_wrapped_prose_is_not_cut_at_its_wraps():
    chunks = chunkwise.chunk(GPL, max_tokens=128, overlap=16)
    for c in chunks:
        if c.boundary == "line":  # a real line break: not a word or comma before a lowercase line
            assert not (GPL[c.end - 1].isalnum() or GPL[c.end - 1] == ",") or not GPL[c.end + 1].islower()


def test_no_overlap_across_a_heading_cut():
    text = "# A\n\n" + "Alpha text here. " * 40 + "\n\n# B\n\n" + "Beta text here. " * 40
    chunks = chunkwise.chunk(text, max_tokens=300, overlap=50)
    b = next(c for c in chunks if c.text.startswith("# B"))
    assert b.overlap_tokens == 0


def test_an_overlap_that_no_chunk_gets_is_explained():
    """An overlap the caller asked for that no chunk has is said, with the reason; the
    default overlap (not asked for) stays quiet, as does an overlap some chunk has."""
    from chunkwise.packing.packer import chunk_document

    sections = "\n\n".join(f"# Section {i}\n\n" + "Some text about it. " * 30 for i in range(5))
    asked = chunk_document(sections, max_tokens=256, overlap=40, strategy="markdown")
    assert [c.overlap_tokens for c in asked.chunks] == [0] * 5
    assert asked.warnings == ["overlap 40: no chunk repeats text from the one before it: each ends before a"
                              " heading, and an overlap never crosses one."]
    assert chunk_document(sections, max_tokens=256, strategy="markdown").warnings == []
    assert chunk_document(sections, max_tokens=256, overlap=0, strategy="markdown").warnings == []
    # some chunks have one: those that have none (no sentence start within half the budget) are counted
    gpl = chunk_document(GPL, max_tokens=256, overlap=40)
    without = sum(1 for c in gpl.chunks[1:] if c.overlap_tokens == 0)
    assert gpl.warnings == ([] if not without else [
        f"overlap 40: {without} chunk{'s' if without > 1 else ''} repeat{'' if without > 1 else 's'} no text from the one"
        " before: no sentence, line or paragraph start lay within half the budget of its end, and an overlap never"
        " starts mid-sentence (overlap_unit 'word' starts one at a word)."])
    assert chunk_document(GPL, max_tokens=256, overlap=40, overlap_unit="word").warnings == []
    one_word = chunk_document("x" * 20_000, max_tokens=256, overlap=40)
    assert one_word.warnings == ["overlap 40: no chunk repeats text from the one before it: no sentence, line or"
                                 " paragraph start lay within half the budget of a chunk's end, and an overlap never"
                                 " starts mid-sentence (overlap_unit 'word' starts one at a word)."]
    windows = chunk_document("x" * 20_000, max_tokens=256, overlap=40, strategy="lines")
    assert windows.warnings == ["overlap 40: no chunk repeats text from the one before it: no place for one to"
                                " start (a sentence, line or word start) lay within its reach."]


def test_chars_encoding_counts_code_points():
    chunks = chunkwise.chunk(RUSSIAN, max_tokens=300, overlap=30, encoding="chars")
    assert_invariants(RUSSIAN, chunks, 300, "chars", 30)
    assert all(c.token_count == len(c.text) for c in chunks)


def test_exact_counts_beat_a_length_estimate_on_non_latin_text():
    chunks = chunkwise.chunk(RUSSIAN + CJK, max_tokens=256, overlap=0)
    for c in chunks:
        assert c.token_count <= 256
    assert any(c.token_count > len(c.text) / 4 * 1.5 for c in chunks)  # len/4 would overflow


# -- where an overlap starts (overlap_unit) ---------------------------------------
def _starts_a_sentence(text: str, seps: Separators, i: int) -> bool:
    """Offset i begins a sentence or a line (chunkwise's own sentence finder)."""
    return seps.is_unit_start(i, (LINE, SENTENCE))


def _mid_sentence_overlaps(text: str, chunks) -> tuple[int, int]:
    seps = chunkwise.Document(text).separators  # in fenced code, a unit is a line (its indentation kept)
    overlapped = [c for c in chunks if c.overlap_tokens]
    return sum(not _starts_a_sentence(text, seps, c.start) for c in overlapped), len(overlapped)


@pytest.mark.parametrize("size", [256, 512])
def test_sentences_never_start_a_chunk_mid_sentence(size):
    # The example: Russian prose at 256 tokens had 22 of 36 overlapped chunks
    # start mid-sentence, since a whole sentence rarely fit the overlap.
    for text in (RUSSIAN, GPL):
        chunks = chunkwise.chunk(text, max_tokens=size, overlap=size // 8, strategy="sentences")
        seps = Separators(text, Outline(text))
        assert all(_starts_a_sentence(text, seps, c.start) for c in chunks)
        assert any(c.overlap_tokens for c in chunks)


@pytest.mark.parametrize("strategy", ["smart", "markdown"])
def test_smart_overlap_starts_at_a_sentence_almost_always(strategy):
    # The measure: prose, default settings, chunks with overlap. Word starts
    # (overlap_unit="word", the old way) give 21 of 27 mid-sentence here.
    mid = overlapped = 0
    for text in (RUSSIAN, GPL, NODE_DOC):
        m, n = _mid_sentence_overlaps(text, chunkwise.chunk(text, strategy=strategy))
        mid, overlapped = mid + m, overlapped + n
    assert overlapped >= 20 and mid / overlapped <= 0.05, (mid, overlapped)


def test_overlap_at_a_unit_start_stays_within_its_tolerance():
    text = " ".join(f"Sentence number {i} is a fairly short one." for i in range(300))
    chunks = chunkwise.chunk(text, max_tokens=120, overlap=20)
    fewest, most, longest = overlap_range(20, 120)
    assert (fewest, most, longest) == (10, 30, 60)
    for c in chunks[1:]:
        assert c.text.startswith("Sentence number ") and fewest <= c.overlap_tokens <= most


def test_overlap_stretches_to_a_sentence_start_rather_than_start_mid_sentence():
    # Each sentence is 37 tokens: none starts within 1.5x of a 20-token overlap, one
    # does within 3x (packing/settings.py, OVERLAP_STRETCH). A word start was the choice before
    # (1 of 15 chunks started at a sentence).
    sentence = ("The committee reviewed every single proposal that arrived before the deadline, weighing costs, risks"
                " and benefits with great care, and then it wrote a long report for the board about item {i}.")
    text = " ".join(sentence.format(i=i) for i in range(60))
    chunks = chunkwise.chunk(text, max_tokens=200, overlap=20)
    _, most, longest = overlap_range(20, 200)
    assert len(chunks) > 10 and all(c.overlap_tokens for c in chunks[1:])
    for c in chunks[1:]:
        assert c.text.startswith("The committee") and most < c.overlap_tokens <= longest


def test_overlap_unit_word_takes_the_longest_word_tail():
    chunks = chunkwise.chunk(GPL, max_tokens=200, overlap=40, overlap_unit="word")
    overlapped = [c for c in chunks if c.overlap_tokens]
    assert len(overlapped) > len(chunks) / 2
    tokenizer = get_tokenizer("cl100k_base")
    for prev, c in zip(chunks, chunks[1:]):
        if not c.overlap_tokens:
            continue
        assert GPL[c.start - 1].isspace() and c.overlap_tokens <= 40
        # One more word would not fit: the previous word start gives more than 40 tokens.
        word = GPL[: c.start].rstrip()
        word = len(word) - len(word.split()[-1])  # where the word before it starts
        if word > prev.start:
            assert tokenizer.count(GPL[word : prev.end]) > 40


def test_lines_overlap_starts_at_a_line():
    chunks = chunkwise.chunk(_log(400), max_tokens=200, overlap=40, strategy="lines")
    assert all(c.start == 0 or _log(400)[c.start - 1] == "\n" for c in chunks)
    assert sum(bool(c.overlap_tokens) for c in chunks) > len(chunks) / 2


def test_bad_overlap_unit_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown overlap_unit 'clause'; choose one of unit, word"):
        chunkwise.chunk("text", overlap_unit="clause")


# -- topics: cuts where the topic shifts ----------------------------------------
CATS = [
    "Cats sleep in the warm sun all afternoon.", "A cat keeps its whiskers clean with care.",
    "Young cats chase string and paper balls.", "Cats purr when they feel safe and warm.",
    "Many cats sleep on soft blankets at night.", "A cat licks its fur after every meal.",
    "Old cats purr softly near the warm stove.", "Cats purr and sleep in the warm sun.",
]
ROCKETS = [
    "Rockets burn liquid fuel to reach orbit.", "The rocket engine roars during the launch.",
    "Engineers check the fuel tanks before launch.", "A rocket stage falls away after burning fuel.",
    "Orbit needs great speed from every rocket engine.", "Launch crews watch the rocket climb to orbit.",
    "The second stage fires its engine in orbit.", "Rocket fuel is pumped into the tanks by crews.",
]


def test_topics_cut_where_the_topic_shifts():
    text = " ".join(CATS + ROCKETS)  # one paragraph: only sentence ends to cut at
    boundary = len(" ".join(CATS))
    tokens = chunkwise.chunk(text, max_tokens=1000, overlap=0)[0].token_count
    budget = tokens * 9 // 10  # the cat half is just over half of that
    topics = chunkwise.chunk(text, max_tokens=budget, overlap=0, strategy="topics")
    assert topics[0].end == boundary, topics[0].text[-60:]
    smart = chunkwise.chunk(text, max_tokens=budget, overlap=0, strategy="smart")
    assert smart[0].end > boundary  # the sentence end nearest two-thirds, past the change of subject
    assert_invariants(text, topics, budget, "cl100k_base")


def test_topic_shift_is_one_minus_the_word_overlap():
    from chunkwise.packing.topics import Cohesion

    same = "Rockets burn fuel. Rockets burn fuel."
    assert Cohesion(same).shift(same.index(" R") + 1) == 0.0
    apart = "Cats purr softly. Rockets burn fuel."
    assert Cohesion(apart).shift(apart.index(" R") + 1) == 1.0
    # the window before a cut starts no earlier than the chunk: no words there, no shared words
    assert Cohesion(same).shift(same.index(" R") + 1, since=same.index(" R") + 1) == 1.0


_VOCAB = ["cat", "cats", "Cat", "rocket", "ROCKET", "fuel", "orbit", "sleep", "warm", "the", "and", "ab", "x", "é" * 3]


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(st.tuples(st.sampled_from(_VOCAB), st.sampled_from(["", ".", ",", "\n", "  "])), max_size=300),
    data=st.data(),
)
def test_topic_shifts_in_one_sweep_equal_counting_each_window(words, data):
    """Cohesion.shifts slides two windows over the chunk's cuts, updating counts,
    dot product and norms word by word: the same numbers as counting each cut's
    two windows afresh (topics.cosine), to the last bit."""
    from collections import Counter

    from chunkwise.packing import topics

    text = " ".join(w + sep for w, sep in words)
    since = data.draw(st.integers(0, len(text)))
    cuts = sorted(set(data.draw(st.lists(st.integers(since, len(text)), min_size=1, max_size=30))))
    cohesion = topics.Cohesion(text)
    starts, ids = cohesion._words
    for cut, got in zip(cuts, cohesion.shifts(since, cuts)):
        before = Counter(i for s, i in zip(starts, ids) if max(since, cut - topics.WINDOW) <= s < cut)
        after = Counter(i for s, i in zip(starts, ids) if cut <= s < cut + topics.WINDOW)
        assert got == 1.0 - topics.cosine(before, after)


def test_lines_overlap_in_long_lines_of_prose_starts_at_a_sentence_not_a_word():
    line = " ".join(f"Sentence {i} of a long line says a little more." for i in range(12))
    text = "\n".join([line] * 4)
    chunks = chunkwise.chunk(text, max_tokens=64, overlap=8, strategy="lines")
    seps = Separators(text, Outline(text))
    overlapped = [c for c in chunks if c.overlap_tokens]
    assert overlapped and all(seps.is_unit_start(c.start, (LINE, SENTENCE)) for c in overlapped), [
        c.text[:30] for c in overlapped if not seps.is_unit_start(c.start, (LINE, SENTENCE))
    ]
    assert_invariants(text, chunks, 64, "cl100k_base", 8)


def test_smart_chunks_add_a_quarter_of_the_budget_beyond_their_overlap():
    """The quarter of the budget smart's break must leave is new text: counted past
    the overlap, or a chunk could be the previous one's tail plus one sentence that
    the next chunk repeats again (68 of 811 chunks at 64/16 on these texts before;
    9 now, where the break first picked does not fit and a shorter window has none)."""
    small = total = 0
    for text in (GPL, RUSSIAN, NODE_DOC, CJK):
        chunks = chunkwise.chunk(text, max_tokens=64, overlap=16)
        assert_invariants(text, chunks, 64, "cl100k_base", 16)
        total += len(chunks) - 1
        small += sum(c.token_count - c.overlap_tokens < 16 for c in chunks[:-1])
    assert small <= total * 0.02, (small, total)


def test_atx_titles_drop_their_closing_hashes_and_trailing_space():
    from chunkwise.text.markdown import scan_markdown

    doc = ("# Title ##\n## ##\n### a#\n#### b \t#  \n# c\u3000##\n##   \n# x  #  #\n#\tTab\t###\t\n## Title\r\n"
           "#NoSpace\n####### seven\n")
    assert [(h.level, h.title, h.start, h.end) for h in scan_markdown(doc)[0]] == [
        (1, "Title", 0, 10), (2, "", 11, 16), (3, "a#", 17, 23), (4, "b", 24, 35), (1, "c\u3000##", 36, 42),
        (2, "", 43, 48), (1, "x  #", 49, 58), (1, "Tab", 59, 69), (2, "Title", 70, 79)]


def test_sentence_ends_after_long_runs_are_where_the_unbounded_pattern_finds_them():
    """The sentence pattern reads at most 32 more terminators per try (a run without
    a space after it was rescanned from each of its characters): a longer run, with
    any run of closing quotes and brackets, still ends where it did."""
    import re

    from chunkwise.text.separators import _CJK_CLOSERS, _CLOSERS, _SENTENCE, _TERMINATORS
    from chunkwise.unicode.whitespace import CLASS as S

    unbounded = re.compile(
        rf"[{_TERMINATORS}](?:(?<=[.!?…‽])[.!?…‽]*[{_CLOSERS}]*(?=[{S}])"
        rf"|(?<=[؟।॥۔])[؟।॥۔]*[{_CLOSERS}]*(?=[{S}])|(?<=[。！？｡])[。！？｡]*[{_CJK_CLOSERS}]*)"
    )
    for terminator, closer in ((".", ")"), ("!", '"'), ("؟", "»"), ("…", "’")):
        for run in (1, 2, 32, 33, 34, 80):
            for closers in (0, 1, 32, 33, 80):
                for after in (" Next", "x", ""):
                    text = "He said" + terminator * run + closer * closers + after
                    ends = lambda p: [m.end() for m in p.finditer(text)]  # noqa: E731
                    assert ends(_SENTENCE) == ends(unbounded), (run, closers, after)
