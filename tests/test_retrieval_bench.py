"""The retrieval benchmark's own parts, for real: the report's metrics on small
hand-made spans, the MiniLM forward pass against the model's published
similarities, the embedding cache, BM25's ranking, the LangChain span finding and what the
chunkwise pieces embed."""
from __future__ import annotations

import csv
import json
import pathlib
import sys

import numpy as np
import pytest

import chunkwise

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "bench"))

import judges  # noqa: E402
import minilm  # noqa: E402
import retrieval  # noqa: E402
import spans  # noqa: E402
import squad  # noqa: E402
import tatqa  # noqa: E402


def test_span_algebra():
    assert spans.union([(5, 9), (0, 3), (2, 4), (9, 10), (7, 7)]) == [(0, 4), (5, 10)]
    assert spans.subtract([(0, 10), (20, 30)], (5, 25)) == [(0, 5), (25, 30)]
    assert spans.intersect((0, 5), (5, 9)) is None
    assert spans.intersect((0, 6), (5, 9)) == (5, 6)


def test_retrieval_scores_by_hand():
    refs = [(10, 20), (40, 50)]  # 20 characters of reference
    # Chunk A covers 15..25 (5 of the first reference), chunk B 0..100 of another
    # corpus (counts in the denominators only), chunk C 45..55 (5 of the second).
    retrieved = [("doc", 15, 25), ("other", 0, 100), ("doc", 45, 55)]
    recall, precision, iou = spans.retrieval_scores(refs, "doc", retrieved)
    assert recall == pytest.approx(10 / 20)
    assert precision == pytest.approx(10 / 120)
    # Uncovered reference: 10..15 and 40..45, 10 characters.
    assert iou == pytest.approx(10 / (120 + 10))


def test_retrieval_counts_text_retrieved_twice_twice():
    recall, precision, iou = spans.retrieval_scores([(0, 10)], "d", [("d", 0, 10), ("d", 0, 10)])
    assert (recall, precision, iou) == (1.0, 0.5, 0.5)


def test_precision_omega_by_hand():
    refs = [(10, 20)]
    chunks = [(0, 12), (8, 30), (30, 60)]  # two touch the reference; they overlap
    # Covered: all 10; denominator: the union of the touching chunks, 0..30.
    assert spans.precision_omega(refs, chunks) == pytest.approx(10 / 30)
    assert spans.precision_omega(refs, [(30, 60)]) == 0.0
    # A reference no chunk covers counts in the denominator.
    assert spans.precision_omega([(10, 20), (100, 110)], [(10, 20)]) == pytest.approx(10 / 20)


@pytest.fixture(scope="module")
def model():
    return minilm.MiniLM()  # also checks the weights' and tokenizer's sha256


def test_minilm_matches_the_published_similarities(model):
    # The model card's example: similarities 0.6660, 0.1046 and 0.1411.
    texts = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
    v = model.embed(texts)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    sims = v @ v.T
    assert sims[0, 1] == pytest.approx(0.6660, abs=6e-4)
    assert sims[0, 2] == pytest.approx(0.1046, abs=6e-4)
    assert sims[1, 2] == pytest.approx(0.1411, abs=6e-4)


def test_minilm_truncates_at_256_pieces_and_batches_alike(model):
    assert len(model.pieces("chunk " * 600)) == minilm.MAX_PIECES
    texts = ["a short one", "chunk " * 40, "a somewhat longer sentence about token budgets"]
    together = model.embed(texts, batch_size=3)
    alone = np.concatenate([model.embed([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-5)  # padding changes nothing


def test_embedding_cache_embeds_each_text_once(tmp_path, model):
    cache = minilm.EmbeddingCache(tmp_path / "e.npz", model_factory=lambda: model)
    first = cache.embed(["one text", "another text", "one text"])
    assert cache.computed == 2
    again = minilm.EmbeddingCache(tmp_path / "e.npz", model_factory=lambda: model)
    second = again.embed(["another text", "one text"])
    assert again.computed == 0
    assert np.array_equal(second, first[[1, 0]])


def test_two_caches_of_one_file_keep_each_others_vectors(tmp_path, model):
    # two benchmark runs at once: each loaded the file before the other saved
    a = minilm.EmbeddingCache(tmp_path / "e.npz", model_factory=lambda: model)
    b = minilm.EmbeddingCache(tmp_path / "e.npz", model_factory=lambda: model)
    a.embed(["a text of the first run"])
    b.embed(["a text of the second run"])
    both = minilm.EmbeddingCache(tmp_path / "e.npz", model_factory=lambda: model)
    both.embed(["a text of the first run", "a text of the second run"])
    assert both.computed == 0
    assert not list(tmp_path.glob("*.tmp.npz"))  # no temporary file left


def test_bm25_ranks_by_stemmed_words_and_weighs_rare_ones_more():
    judge = judges.BM25Judge(["Where do the cats sleep?", "Which dog barked?", "the of it", "Is the dog on the windowsill?"])
    texts = [
        "The dog barks at the mail carrier every morning.",
        "A cat sleeps on the warm windowsill all afternoon.",
        "The weather was mild. The dog is old and the dog is grey.",
    ]
    top = judge.top(texts, 2)
    assert top[0, 0] == 1  # "cats sleep" meets "cat sleeps": stems, not spellings
    assert set(top[1]) == {0, 2} and top[1, 0] == 0  # "barked" ~ "barks" outweighs "dog" twice in a longer text
    assert list(judge.top(texts, 3)[2]) == [0, 1, 2]  # stop words only: no score anywhere, the pool's order
    assert list(judge.top(texts, 3)[3]) == [1, 2, 0]  # "windowsill" in one text outweighs "dog" in two


def test_the_bm25_judge_runs_the_bench_end_to_end(tmp_path, monkeypatch):
    text = "".join(f"Paragraph {i} tells of the {w} by the river. It has a second sentence too.\n\n"
                   for i, w in enumerate(["harbour", "mill", "orchard", "bridge", "forge", "library"] * 2))
    data = tmp_path / "data"
    (data / "corpora").mkdir(parents=True)
    (data / "corpora" / "town.md").write_text(text, encoding="utf-8")
    start = text.rindex("the forge")  # (in the last chunks: the pool's first five would not find it)
    with open(data / "questions.csv", "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["question", "references", "corpus_id"])
        out.writerow(["What tells of the forge?", json.dumps([{"content": text[start : start + 9], "start_index": start,
                                                                "end_index": start + 9}]), "town"])
    monkeypatch.setenv("CHUNKWISE_RETRIEVAL_DATA", str(data))
    monkeypatch.setattr(retrieval, "ROOT", tmp_path)  # (where an embedding cache would go)
    assert retrieval.main(["--judge", "bm25", "--strategies", "smart", "--settings", "30/0", "--langchain", "recursive",
                           "--out", str(tmp_path / "out")]) == 0
    report = json.loads((tmp_path / "out" / "retrieval.json").read_text(encoding="utf-8"))
    assert report["judge"] == "bm25"
    assert all(r["recall"] == 100 for r in report["rows"])  # the one chunk that says "forge" is found by every chunker
    assert (tmp_path / "out" / "retrieval.md").read_text(encoding="utf-8").startswith("Retrieval on town (1 questions), BM25")
    assert not (tmp_path / ".cache").exists()  # nothing embedded


def test_leave_one_out_with_two_judges_picks_the_rule_whose_least_judge_scores_best():
    # two corpora of two questions; recursive: recall 0.5 (BM25: 0.45), IoU 0.1 everywhere.
    # MiniLM scores aim 0.55 +20% and aim 0.75 +10%; BM25 scores them -10% and 0%: alone
    # MiniLM picks 0.55, together 0.75 (the worse of its judges beats the worse of 0.55's)
    questions = [("q", cid, []) for cid in ("a", "a", "b", "b")]
    row = lambda recall, iou: {"recall": recall, "iou": iou,  # noqa: E731
                               "per_question": {"recall": [recall] * 4, "iou": [iou] * 4}}
    judged = {0.55: [row(0.6, 0.12), row(0.405, 0.12)], 0.75: [row(0.55, 0.11), row(0.45, 0.11)]}

    def measure(chunker, size, overlap, judges=(0, 1)):
        if chunker is retrieval.recursive_pieces:  # (BM25's recursive is worse: each judge against its own)
            return [[row(0.5, 0.1), row(0.45, 0.1)][j] for j in judges]
        return [judged[chunkwise.packing.strategies.SPECS["smart"].balance.aim_fill][j] for j in judges]

    rules = {name: retrieval.RULES[name] for name in ("strongest first, aim 0.55", "strongest first, aim 0.75")}
    both = retrieval.leave_one_out(questions, [(200, 0)], measure, rules, judged_by={"minilm": "MiniLM", "bm25": "BM25"})
    assert "| strongest first, aim 0.55 | 2 | -10.0 (+20.0 / -10.0) | -10.0 (+20.0 / -10.0) | -10.0 (+20.0 / -10.0) |" in both
    assert "| strongest first, aim 0.75 | 2 | +0.0 (+10.0 / +0.0) |" in both
    assert "| a | strongest first, aim 0.75 (+0.0) | +0.0 (+10.0 / +0.0) | minilm: 200/0: +5.0 / +1.0; bm25: 200/0: +0.0 / +1.0 |" in both
    alone = retrieval.leave_one_out(questions, [(200, 0)], lambda c, s, o: measure(c, s, o, judges=(0,)), rules)
    assert "| a | strongest first, aim 0.55 (+20.0) | +20.0 / +10.0 / +2.0 | 200/0: +10.0 / +2.0 |" in alone


def test_leave_one_out_runs_both_judges_on_the_same_pieces(tmp_path, monkeypatch, model):
    data = tmp_path / "data"
    (data / "corpora").mkdir(parents=True)
    with open(data / "questions.csv", "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["question", "references", "corpus_id"])
        for corpus, words in (("town", ["harbour", "mill", "orchard", "bridge"]), ("farm", ["barn", "field", "goat", "plough"])):
            text = "".join(f"Paragraph {i} tells of the {w} by the river. It has a second sentence too.\n\n"
                           for i, w in enumerate(words * 3))
            (data / "corpora" / f"{corpus}.md").write_text(text, encoding="utf-8")
            start = text.index(f"the {words[1]}")
            out.writerow([f"What tells of the {words[1]}?", json.dumps([{"content": text[start : start + 12],
                          "start_index": start, "end_index": start + 12}]), corpus])
    monkeypatch.setenv("CHUNKWISE_RETRIEVAL_DATA", str(data))
    monkeypatch.setattr(retrieval, "ROOT", tmp_path)
    cache = minilm.EmbeddingCache
    monkeypatch.setattr(minilm, "EmbeddingCache", lambda path: cache(path, model_factory=lambda: model))
    monkeypatch.setattr(retrieval, "RULES", {"strongest first, aim 0.55": retrieval.RULES["strongest first, aim 0.55"]})
    out = tmp_path / "loo"
    assert retrieval.main(["--leave-one-out", "--settings", "30/0,45/0", "--judge", "minilm,bm25", "--out", str(out)]) == 0
    table = (out / "retrieval-loo.md").read_text(encoding="utf-8")
    assert table.startswith("Leave one corpus out (minilm: all-MiniLM-L6-v2, bm25: BM25")
    assert "| town | strongest first, aim 0.55 (" in table and "minilm: 30/0: " in table and "; bm25: 30/0: " in table
    assert (tmp_path / ".cache" / "minilm-embeddings.npz").exists()  # MiniLM embedded the chunks; BM25 needs nothing
    with pytest.raises(SystemExit):  # several judges make one table only in leave-one-out
        retrieval.main(["--judge", "minilm,bm25", "--out", str(tmp_path / "x")])
    with pytest.raises(SystemExit):
        retrieval.main(["--leave-one-out", "--judge", "bm25,tfidf", "--out", str(tmp_path / "x")])


def test_langchain_spans_are_the_chunks_places():
    text = "Émile est là. " * 40 + "🙂 fin.\n\nAnother paragraph here. " * 20
    for pieces in (retrieval.recursive_pieces("t", text, 30, 0), retrieval.recursive_pieces("t", text, 30, 10)):
        assert pieces and all(text[p.start : p.end] == p.text for p in pieces)
        assert all(b.start > a.start for a, b in zip(pieces, pieces[1:]))
    pieces = retrieval.token_pieces("t", text, 25, 5)
    assert pieces[0].start == 0 and pieces[-1].end == len(text)
    for p in pieces:
        # Same text, up to a character split at a window's edge.
        assert text[p.start : p.end].strip("\ufffd") in p.text or p.text.strip("\ufffd") in text[p.start : p.end]


def test_mid_sentence_starts():
    text = "First sentence here. Second one, with a comma.\nA new line\nstarts here.\n          Third."
    starts = chunkwise.Document(text).starts_sentence  # the one judge the bench uses
    assert starts(0) and starts(text.index("Second")) and starts(text.index("A new")) and starts(text.index("Third"))
    assert not starts(text.index("with")) and not starts(text.index("here."))
    # an indented line starts at its indentation too (code keeps it), not only at its text
    assert starts(text.index("Third") - 4) and starts(text.index("Third") - 10) and not starts(text.index("Third") - 11)
    pieces = [
        retrieval.Piece("t", 0, 20, "", False),
        retrieval.Piece("t", text.index("Second"), 40, "", True),
        retrieval.Piece("t", text.index("with"), 60, "", True),
        retrieval.Piece("t", text.index("Third"), len(text), "", False),
    ]
    assert retrieval.mid_sentence(pieces, {"t": starts}) == (1, 3, 1, 2)


def test_paired_difference_is_the_mean_per_question_difference_with_its_interval():
    same = [0.2, 0.9, 0.0, 1.0]
    assert retrieval.paired_difference(same, same) == (0.0, 0.0, 0.0)
    # every question 10 points better: certain, whatever the resampling
    mean, lo, hi = retrieval.paired_difference([x + 0.1 for x in same], same)
    assert (round(mean, 9), round(lo, 9), round(hi, 9)) == (10.0, 10.0, 10.0)
    # better on half the questions, worse on the other half: an interval around 0
    a, b = [1.0, 0.0] * 50, [0.0, 1.0] * 50
    mean, lo, hi = retrieval.paired_difference(a, b)
    assert mean == 0.0 and lo < -10 and hi > 10
    # better on 90 of 100 questions by 1 point: an interval above 0
    mean, lo, hi = retrieval.paired_difference([0.01] * 90 + [0.0] * 10, [0.0] * 100)
    assert mean == 0.9 and 0 < lo < mean < hi <= 1.0


def test_chunkwise_pieces_embed_the_context_and_score_the_text():
    text = "# Guide\n\nIntro text that says what the guide is for. " * 3 + "\n\n## Install\n\n" + (
        "Run the installer, then check the version it prints. " * 12
    ) + "\n\n## Table\n\n| name | value |\n|---|---|\n" + "| alpha | one two three |\n" * 30
    plain = retrieval.chunkwise_pieces("t", text, 40, 0, "smart")
    pieces = retrieval.chunkwise_pieces("t", text, 40, 0, "smart", context="headings")
    chunks = chunkwise.chunk_document(text, max_tokens=40, overlap=0, strategy="smart", context="headings").chunks
    assert len(pieces) == len(chunks) > 3
    for p, c in zip(pieces, chunks):
        assert p.text == c.embed_text  # what is embedded: heading path (+ table header) and the text
        assert (p.start, p.end) == (c.start, c.end) and text[p.start : p.end] == c.text  # what is scored
    # the context shows in what is embedded (so the cache, keyed on it, keeps apart)...
    assert any(p.text != text[p.start : p.end] for p in pieces)
    assert any(p.text.startswith("# Guide\n## Table\n\n| name | value |\n|---|---|\n") for p in pieces)
    # ...and without it the embedded text is the slice
    assert plain and all(p.text == text[p.start : p.end] for p in plain)
    assert retrieval.chunkwise_pieces("t", text, 40, 0, "smart", context="none")[0].text == plain[0].text


def _row(chunker, size, overlap, recall, iou, omega):
    return {"chunker": chunker, "size": size, "overlap": overlap,
            "per_question": {"recall": recall, "iou": iou, "omega": omega}}


def test_per_corpus_means_and_their_paired_differences():
    corpus_ids = ["a", "a", "b", "b", "b"]
    recursive = _row("langchain recursive", 200, 0, [1.0, 0.5, 0.0, 0.0, 0.3], [0.1] * 5, [0.2] * 5)
    smart = _row("chunkwise smart", 200, 0, [1.0, 1.0, 0.0, 0.3, 0.3], [0.2] * 2 + [0.1] * 3, [0.2] * 5)
    means = retrieval.corpus_means(smart, corpus_ids)
    assert list(means) == ["a", "b"]
    assert means["a"] == pytest.approx({"recall": 100.0, "iou": 20.0, "omega": 20.0})
    assert means["b"] == pytest.approx({"recall": 20.0, "iou": 10.0, "omega": 20.0})
    # the pooled mean is the questions' mean, not the corpora's
    assert np.mean(smart["per_question"]["recall"]) * 100 == pytest.approx((2 * 100.0 + 3 * 20.0) / 5)
    lines = retrieval.render_per_corpus([recursive, smart], corpus_ids)
    row_a = next(line for line in lines if line.startswith("| a (2) | chunkwise smart"))
    # corpus a: recall +25 points on average (0 and +50), IoU +10 on both questions
    assert row_a.split(" | ")[3:6] == ["100.0", "20.0", "20.0"]
    assert "+25.0 [" in row_a and "+10.0 [+10.0, +10.0]" in row_a
    row_b = next(line for line in lines if line.startswith("| b (3) | chunkwise smart"))
    assert "+10.0 [" in row_b and "+0.0 [+0.0, +0.0]" in row_b  # recall +10 (0, +30, 0); IoU the same
    assert next(line for line in lines if line.startswith("| b (3) | langchain recursive")).endswith("| - | - | - |")


def test_a_chunkwise_row_is_paired_with_recursive_at_its_size_and_overlap():
    rows = [_row("langchain recursive", 250, 0, [0], [0], [0]), _row("langchain recursive", 250, 125, [0], [0], [0]),
            _row("chunkwise smart", 250, 125, [0], [0], [0]), _row("chunkwise smart", 250, 32, [0], [0], [0]),
            _row("chunkwise smart", 400, 0, [0], [0], [0])]
    assert retrieval.baseline_for(rows, rows[2]) is rows[1]
    assert retrieval.baseline_for(rows, rows[3]) is rows[0]  # no recursive 250/32: the same size, no overlap
    assert retrieval.baseline_for(rows, rows[4]) is None


def test_loo_score_is_the_smaller_relative_change_and_smart_rule_restores_smart():
    base = _row("langchain recursive", 200, 0, [0.5, 0.5], [0.10, 0.10], [0.2, 0.2])
    better_recall = _row("chunkwise smart", 200, 0, [0.6, 0.6], [0.09, 0.09], [0.2, 0.2])
    mask = np.array([True, True])
    score, d_recall, d_iou = retrieval.loo_score(better_recall, base, mask)
    assert score == pytest.approx(-10.0)  # IoU 10% worse outweighs recall 20% better
    assert (d_recall, d_iou) == (pytest.approx(10.0), pytest.approx(-1.0))
    assert retrieval.loo_score(base, base, mask)[0] == 0.0
    text = "A first sentence here. " * 30 + "\n\n" + "Another paragraph follows. " * 30
    before = chunkwise.chunk(text, max_tokens=60, overlap=0)
    with retrieval.smart_rule(retrieval.Balance(aim_fill=0.95)):
        assert chunkwise.chunk(text, max_tokens=60, overlap=0) != before
    assert chunkwise.chunk(text, max_tokens=60, overlap=0) == before


def test_each_question_counts_the_characters_it_retrieved(tmp_path, model):
    # two chunks of 30 and 70 characters: with k = 5 a question retrieves both, 100 characters
    text = "Cats sleep most of the day ok." + " Dogs bark at the mail carrier every single morning, loudly and long."
    pieces = [retrieval.Piece("t", 0, 30, text[:30], False), retrieval.Piece("t", 30, 100, text[30:100], False)]
    questions = [("When do cats sleep?", "t", [(0, 30)])]
    cache = minilm.EmbeddingCache(tmp_path / "e.npz", model_factory=lambda: model)
    judge = judges.MiniLMJudge(cache, [q for q, _, _ in questions])
    starts = {"t": chunkwise.Document(text).starts_sentence}
    row = retrieval.evaluate(pieces, questions, judge, starts, retrieval.cl100k())
    assert row["per_question"]["retrieved"] == [100]
    row.update(chunker="chunkwise smart", size=200, overlap=0)
    line = next(line for line in retrieval.render_per_corpus([row], ["t"]) if line.startswith("| t (1)"))
    assert line.endswith("| - | - | - | 100 |")  # no recursive row to pair with; 100 characters retrieved


def test_squad_becomes_retrieval_data_with_each_answers_span():
    """bench/squad.py: paragraphs joined by blank lines, an answerable question's first
    answer as its reference (offsets into the joined text), unanswerable ones left out;
    the committed SQuAD folder loads beside the shared data with every reference in place."""
    data = {"data": [{"paragraphs": [
        {"context": "Alpha beta.", "qas": [{"question": "q1", "answers": [{"answer_start": 6, "text": "beta"}, {"answer_start": 0, "text": "Alpha"}]}]},
        {"context": "Gamma delta.", "qas": [{"question": "q2", "answers": [], "is_impossible": True},
                                           {"question": "q3", "answers": [{"answer_start": 6, "text": "delta"}]}]},
    ]}]}
    text, rows = squad.convert(data, "tiny")
    assert text == "Alpha beta.\n\nGamma delta."
    spans_of = [(r["question"], [(x["start_index"], x["end_index"]) for x in json.loads(r["references"])]) for r in rows]
    assert spans_of == [("q1", [(6, 10)]), ("q3", [(19, 24)])] and text[19:24] == "delta"

    corpora, questions = retrieval.load_data(retrieval.ROOT / "bench" / "retrieval-data" / "squad")
    assert list(corpora) == ["squad"] and len(questions) == 705
    with open(retrieval.ROOT / "bench" / "retrieval-data" / "squad" / "questions.csv", encoding="utf-8", newline="") as f:
        for row, (_, _, refs) in zip(csv.DictReader(f), questions):
            [ref] = json.loads(row["references"])
            assert corpora["squad"][refs[0][0] : refs[0][1]] == ref["content"]


def test_tatqa_becomes_retrieval_data_with_each_answers_spans_in_either_layout():
    """bench/tatqa.py: a context's table, then its paragraphs in order; a span answer's
    reference is where the question says it is from, found there exactly once;
    arithmetic questions, and answers found twice or not at all, are left out."""
    context = {
        "table": {"table": [["", "2019", "2018"], ["Sales", "$  1,496.5", "$1,202.9"], ["", "", ""], ["Other", "44.1", "2019"]]},
        "paragraphs": [{"order": 2, "text": "Sales rose  in 2019."}, {"order": 1, "text": "We sell widgets."}],
        "questions": [
            {"question": "q1", "answer": ["widgets"], "answer_type": "span", "answer_from": "text", "rel_paragraphs": ["1"]},
            {"question": "q2", "answer": ["$ 1,496.5", "44.1"], "answer_type": "multi-span", "answer_from": "table",
             "rel_paragraphs": []},
            {"question": "q3", "answer": ["2019"], "answer_type": "span", "answer_from": "table", "rel_paragraphs": []},
            {"question": "q4", "answer": ["2019"], "answer_type": "span", "answer_from": "text", "rel_paragraphs": ["2"]},
            {"question": "q5", "answer": 252.6, "answer_type": "arithmetic", "answer_from": "table", "rel_paragraphs": []},
            {"question": "q6", "answer": ["gadgets"], "answer_type": "span", "answer_from": "table-text", "rel_paragraphs": ["1"]},
            # whole numbers only: "4" is in "44.1" and "$ 1,496.5" alone; "1,496" is no answer in "1,496.5"
            {"question": "q7", "answer": ["4"], "answer_type": "span", "answer_from": "table-text", "rel_paragraphs": ["2"]},
            {"question": "q8", "answer": ["1,496"], "answer_type": "span", "answer_from": "table", "rel_paragraphs": []},
        ],
    }
    rows_text, rows = tatqa.convert([context, context], "rows", "t")
    one = "2019 2018\nSales $ 1,496.5 $1,202.9\nOther 44.1 2019\nWe sell widgets.\nSales rose in 2019."
    assert rows_text == one + "\n" + one
    pipe_text, pipe = tatqa.convert([context], "pipe", "t")
    assert pipe_text.startswith("|  | 2019 | 2018 |\n| --- | --- | --- |\n| Sales | $ 1,496.5 | $1,202.9 |\n|  |  |  |\n")
    assert pipe_text.endswith(" |\n\nWe sell widgets.\n\nSales rose in 2019.")
    for text, found, contexts in ((rows_text, rows, 2), (pipe_text, pipe, 1)):
        got = [(r["question"], [text[x["start_index"] : x["end_index"]] for x in json.loads(r["references"])]) for r in found]
        # q3: "2019" twice in the table; q7, q8: no whole number "4" or "1,496"
        assert got[:3] == [("q1", ["widgets"]), ("q2", ["$ 1,496.5", "44.1"]), ("q4", ["2019"])]
        assert [r["question"] for r in found] == ["q1", "q2", "q4"] * contexts
    assert json.loads(rows[3]["references"])[0]["start_index"] > len(one)  # the second context's own span
    # a table follows the last paragraph that leads in to it (one ending in a colon)
    lead_in = {**context, "paragraphs": [*context["paragraphs"], {"order": 3, "text": "By segment:"}, {"order": 4, "text": "After."}]}
    text, found = tatqa.convert([lead_in], "rows", "t")
    assert text == "We sell widgets.\nSales rose in 2019.\nBy segment:\n2019 2018\nSales $ 1,496.5 $1,202.9\nOther 44.1 2019\nAfter."
    assert [[text[x["start_index"] : x["end_index"]] for x in json.loads(r["references"])] for r in found] == [
        ["widgets"], ["$ 1,496.5", "44.1"], ["2019"]]
    assert json.loads(found[2]["references"])[0]["start_index"] == text.index("2019.")  # q4's, in its paragraph

    for layout in tatqa.LAYOUTS:  # the committed folders load, with every reference in place
        folder = retrieval.ROOT / "bench" / "retrieval-data" / "tatqa" / layout
        corpora, questions = retrieval.load_data(folder)
        assert list(corpora) == [f"tatqa_{layout}"] and len(questions) == 814
        with open(folder / "questions.csv", encoding="utf-8", newline="") as f:
            for row, (_, cid, refs) in zip(csv.DictReader(f), questions):
                assert [corpora[cid][a:b] for a, b in refs] == [r["content"] for r in json.loads(row["references"])]
                text = corpora[cid]
                for a, b in refs:  # whole words and numbers: no reference starts or ends inside one
                    assert not (text[a - 1 : a] + text[a : a + 1]).isalnum() or a == 0, text[a - 5 : b + 5]
                    assert not (text[b - 1 : b] + text[b : b + 1]).isalnum(), text[a - 5 : b + 5]


def test_averaged_rows_take_each_measure_and_each_questions_mean():
    def row(recall, iou, chunks, mid, with_overlap, mid_overlap):
        return {**_row("chunkwise smart", 200, 0, recall, iou, [0.3, 0.3]), "chunks": chunks, "after_first": chunks - 1,
                "mid_sentence": mid, "with_overlap": with_overlap, "mid_sentence_overlap": mid_overlap}

    a, b = row([0.5, 1.0], [0.1, 0.2], 10, 0.0, 0, None), row([1.0, 0.0], [0.3, 0.2], 13, 0.5, 2, 1.0)
    averaged = retrieval.averaged([a, b])
    assert averaged["per_question"]["recall"] == [0.75, 0.5]
    assert averaged["per_question"]["iou"] == pytest.approx([0.2, 0.2])
    assert averaged["chunks"] == 12 and averaged["with_overlap"] == 1  # (11.5 rounds to even)
    # shares are of all the runs' chunks together: 6 of the 9 + 12 after the first, and
    # 2 of 2 chunks with overlap (not the mean of "none" and 100%)
    assert averaged["mid_sentence"] == pytest.approx(6 / 21) and averaged["mid_sentence_overlap"] == 1.0
    assert retrieval.averaged([a, a])["mid_sentence_overlap"] is None
    assert (averaged["chunker"], averaged["size"]) == ("chunkwise smart", 200)


def test_nearby_reports_the_mean_of_the_five_sizes_around_each_setting(tmp_path, monkeypatch, model):
    # a small corpus and two questions, measured once at 40..80 and once as 60 --nearby 10
    text = "".join(f"Paragraph {i} tells of the {w} and of nothing else at all. It has a second sentence too.\n\n"
                   for i, w in enumerate(["harbour", "mill", "orchard", "bridge", "forge", "library", "tower", "well"] * 3))
    data = tmp_path / "data"
    (data / "corpora").mkdir(parents=True)
    (data / "corpora" / "town.md").write_text(text, encoding="utf-8")
    with open(data / "questions.csv", "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(["question", "references", "corpus_id"])
        for word in ("forge", "orchard"):
            start = text.index(f"of the {word}")
            refs = [{"content": text[start : start + 20], "start_index": start, "end_index": start + 20}]
            out.writerow([f"What tells of the {word}?", json.dumps(refs), "town"])
    monkeypatch.setenv("CHUNKWISE_RETRIEVAL_DATA", str(data))
    monkeypatch.setattr(retrieval, "ROOT", tmp_path)  # (the embedding cache goes under it)
    cache = minilm.EmbeddingCache
    monkeypatch.setattr(minilm, "EmbeddingCache", lambda path: cache(path, model_factory=lambda: model))

    def rows(*args):
        out = tmp_path / f"out{len(args)}"
        assert retrieval.main(["--strategies", "smart", "--langchain", "recursive", "--out", str(out), *args]) == 0
        return json.loads((out / "retrieval.json").read_text(encoding="utf-8"))["rows"]

    with pytest.raises(SystemExit):  # 60 - 2 * 30 leaves no size: refused before anything is measured
        rows("--settings", "60/0", "--nearby", "30")
    single = [r for r in rows("--settings", "40/0,50/0,60/0,70/0,80/0") if r["chunker"] == "chunkwise smart"]
    nearby = next(r for r in rows("--settings", "60/0", "--nearby", "10") if r["chunker"] == "chunkwise smart")
    assert [r["size"] for r in single] == [40, 50, 60, 70, 80] and nearby["size"] == 60
    assert len({r["chunks"] for r in single}) > 1  # the sizes differ in their cuts
    for measure in ("iou", "omega", "mean_tokens"):  # (recall is 100 at every size here)
        assert nearby[measure] == pytest.approx(np.mean([r[measure] for r in single]))
    assert nearby["chunks"] == round(np.mean([r["chunks"] for r in single]))
