"""Document once, settings many: a prepared Document chunked with many settings,
in any order, gives exactly what a fresh run gives for each."""
from __future__ import annotations

import itertools
import random

import pytest

import chunkwise
from chunkwise.packing.document import Document
from chunkwise.packing.packer import ChunkJob
from chunkwise.packing.settings import default_overlap
from chunkwise.tokenizer.registry import get_tokenizer
from conftest import CORPUS

SETTINGS = [
    dict(max_tokens=m, overlap=o, strategy=s, encoding=e)
    for s in chunkwise.STRATEGIES
    for e in chunkwise.ENCODINGS
    for m, o in ((512, 64), (128, 16), (64, 0), (200, None))
]


@pytest.mark.parametrize("name", ["node-net.md", "argparse.py.txt", "cjk.txt"])
def test_one_document_many_settings_equals_fresh_runs(name, backend):
    text = (CORPUS / name).read_text(encoding="utf-8")[:60_000]
    doc = Document(text)
    order = list(SETTINGS)
    random.Random(name).shuffle(order)
    for settings in order:
        again = doc.chunk(**settings)
        fresh = chunkwise.chunk_document(text, **settings)
        assert again.chunks == fresh.chunks, settings
        assert again.source_tokens == fresh.source_tokens
        assert again.warnings == fresh.warnings


def test_a_document_keeps_one_token_index_per_encoding():
    doc = Document("Some text. " * 200)
    first = doc.index("cl100k_base")
    doc.chunk(max_tokens=64, encoding="cl100k_base")
    doc.chunk(max_tokens=32, strategy="lines", encoding="o200k_base")
    assert doc.index("cl100k_base") is first
    assert doc.index("o200k_base") is not first
    assert len(doc._indexes) == 2
    assert doc.outline is doc.outline and doc.separators is doc.separators


def test_a_document_is_prepared_lazily():
    doc = Document("# Title\n\nBody text.")
    assert doc._indexes == {} and "outline" not in doc.__dict__
    doc.chunk(max_tokens=8, encoding="chars")  # (more than one chunk: a text that fits needs no index)
    assert list(doc._indexes) == [("chars", "chars")]


@pytest.mark.parametrize("strategy", ["smart", "markdown", "code"])
def test_whitespace_alone_is_only_counted(strategy):
    # 16 MB of newlines spent most of its time on an outline and cuts no chunk needs
    doc = Document("\n \n\t" * 1000)
    result = doc.chunk(max_tokens=64, strategy=strategy)
    assert result.chunks == [] and result.source_tokens == len(get_tokenizer("cl100k_base").encode(doc.text))
    assert not {"outline", "separators", "code_separators", "structure"} & set(doc.__dict__)


def test_lone_surrogates_are_repaired_once_and_reported_on_every_run():
    doc = Document("a\ud800b. More text.")
    assert doc.text == "a\ufffdb. More text."
    for strategy in ("smart", "lines"):
        result = doc.chunk(max_tokens=64, strategy=strategy)
        assert result.warnings == ["1 lone surrogate code point(s) were replaced by U+FFFD."]


def test_chunk_and_chunk_job_accept_a_document():
    text = "One. Two. Three.\n\nFour five six."
    doc = Document(text)
    assert chunkwise.chunk(doc, max_tokens=8) == chunkwise.chunk(text, max_tokens=8)
    job = ChunkJob(doc, max_tokens=8, overlap=2)
    assert job.result().chunks == chunkwise.chunk(text, max_tokens=8, overlap=2)


def test_the_default_overlap_is_an_eighth_of_the_size_rounded_down():
    assert [default_overlap(m) for m in (512, 256, 100, 7, 1)] == [64, 32, 12, 0, 0]
    text = (CORPUS / "node-net.md").read_text(encoding="utf-8")[:20_000]
    for max_tokens in (256, 100):
        result = chunkwise.chunk_document(text, max_tokens=max_tokens)
        assert result.settings.overlap == default_overlap(max_tokens)
        assert result.chunks == chunkwise.chunk(text, max_tokens=max_tokens, overlap=default_overlap(max_tokens))


def test_every_strategy_has_one_policy():
    from chunkwise.packing.policies import POLICIES
    from chunkwise.packing.strategies import SPECS

    from chunkwise.packing.strategies import REFERENCE

    assert tuple(SPECS) == chunkwise.STRATEGIES
    # a reference strategy is no policy of the packer: its own algorithm (packing/langchain.py)
    own = [s for s in SPECS.values() if s.kind != REFERENCE]
    assert [s.name for s in SPECS.values() if s.kind == REFERENCE] == ["langchain-recursive"]
    assert all(spec.kind in POLICIES for spec in own) and REFERENCE not in POLICIES
    assert {type(POLICIES[s.kind](s)).__name__ for s in own} == {
        "StructureFirst", "TopicShifts", "Farthest", "Sections", "Windows", "CodeFirst"
    }


def test_step_by_step_on_a_shared_document_equals_one_go():
    text = (CORPUS / "gpl-3.txt").read_text(encoding="utf-8")
    doc = Document(text)
    for settings in itertools.islice(SETTINGS, 0, None, 5):
        job = ChunkJob(doc, **settings)
        made = []
        while not job.done:
            made += job.step(max_chunks=3)
        assert made == doc.chunk(**settings).chunks


def test_the_first_chunk_of_prose_starts_where_the_separators_would_start_it():
    """Document.first reads prose's first non-whitespace character without building the
    separators; it must be their chunk_start(0), fenced code (of a known language) first
    in the text included: no block's body can hold it, its opening fence comes first."""
    rng = random.Random(5)
    parts = ["\n", "  ", "\t", "\r\n", "```python\n", "~~~\n", "    ```js\n", "x = 1\n", "```\n", "# Title\n",
             "Text.", "| a | b |\n|---|---|\n", "\u3000", "\f"]
    for _ in range(400):
        text = "".join(rng.choice(parts) for _ in range(rng.randint(0, 8)))
        for language in (None, "csv"):
            doc = Document(text, language)
            assert doc.first == (doc.separators.chunk_start(0) if doc.stop else 0), (text, language)
