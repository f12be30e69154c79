"""The peers benchmark's harness (bench/peers.py) on a tiny text, chunkwise's side
only (the peers are bench-only packages): the judges count what they say, and a
measured run gives chunkwise's own chunks."""
from __future__ import annotations

import pathlib
import sys

import chunkwise

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "bench"))

import peers  # noqa: E402

TEXT = "One sentence here. Another one follows it.\n\nA new paragraph starts, and goes on for a while.\n"


def test_judges_count_over_budget_slices_mid_word_and_mid_sentence():
    enc = peers.cl100k()
    starts = chunkwise.Document(TEXT).starts_sentence
    long = "word " * (peers.SIZE + 5)  # more than the budget in cl100k
    spans = [
        (0, 19, TEXT[0:19]),      # the first chunk: never judged mid-word or mid-sentence
        (19, 30, TEXT[19:30]),    # "Another one": a sentence start, a word start
        (22, 30, TEXT[22:30]),    # "ther one": mid-word, mid-sentence
        (30, 35, "not the text"),  # not a slice; " foll": mid-sentence, not mid-word
        (0, 0, long),             # over budget (and not a slice)
    ]
    got = peers.judge(TEXT, spans, enc, starts)
    assert got == {"chunks": 5, "over_budget": 1, "not_slice": 2, "mid_word": 1, "mid_sentence": 2}


def test_scripts_without_spaces_are_not_mid_word():
    assert not peers._wordish("語") and not peers._wordish("ก") and peers._wordish("ж") and peers._wordish("7")


def test_locate_finds_stripped_and_overlapping_chunks_in_order():
    text = "abc abc def"
    assert peers.locate(text, ["abc", "abc def", "def"]) == [(0, 3, "abc"), (4, 11, "abc def"), (8, 11, "def")]


def test_a_measured_run_of_chunkwise_gives_its_chunks():
    enc = peers.cl100k()
    text = TEXT * 200
    chosen = [peers.chunkwise_contender(0), peers.chunkwise_contender(64)]
    data = peers.measure({"tiny": text}, chosen, enc, runs=2)
    expected = [len(chunkwise.chunk_document(text, max_tokens=peers.SIZE, overlap=o).chunks) for o in (0, 64)]
    assert [r["chunks"] for r in data["rows"]] == expected
    for r in data["rows"]:
        assert r["over_budget"] == r["not_slice"] == r["mid_word"] == r["mid_sentence"] == 0
        assert r["ratio"] > 0 and r["ratio_turns"] > 0 and r["chunk_s"] > 0


def test_rows_are_timed_as_one_batch_and_each_judged():
    enc = peers.cl100k()
    rows = {"a": TEXT, "b": TEXT * 40, "c": "Short."}
    data = peers.measure(rows, [peers.chunkwise_contender(0)], enc, runs=2, rows=True)
    expected = sum(len(chunkwise.chunk_document(t, max_tokens=peers.SIZE, overlap=0).chunks) for t in rows.values())
    (row,) = data["rows"]
    assert row["chunks"] == expected and row["over_budget"] == row["mid_sentence"] == 0
    assert row["ratio"] > 0 and data["encode_s"] > 0
