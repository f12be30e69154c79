"""Tables cut between rows, the context of a chunk (heading path and table header
counted inside the budget), parents and their children."""
import pytest

import chunkwise
from chunkwise.tokenizer.registry import get_tokenizer
from conftest import incident
from documents_files import make_docx

STRATEGIES = ("smart", "topics", "paragraphs", "markdown", "lines", "sentences")


def row_edges(text: str, chunks) -> list[int]:
    """The chunks that start or end inside a line (inside a table row here)."""
    return [
        c.index for c in chunks
        if not (c.start == 0 or text[c.start - 1] == "\n") or not (c.end == len(text.rstrip()) or text[c.end] == "\n")
    ]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("overlap", [0, 32])
def test_markdown_table_is_cut_between_rows(strategy, overlap):
    text = incident()
    chunks = chunkwise.chunk(text, max_tokens=200, overlap=overlap, strategy=strategy)
    assert row_edges(text, chunks) == []  # no chunk starts (an overlap) or ends in a row
    assert "row" in {c.boundary for c in chunks}


def test_a_row_over_budget_is_cut_by_the_ladder():
    text = "| a | b |\n|---|---|\n| " + "A long cell sentence. " * 60 + "| x |\n| short | row |\n"
    chunks = chunkwise.chunk(text, max_tokens=64, overlap=0)
    assert {c.boundary for c in chunks} & {"sentence", "phrase", "word"}
    assert "".join(text[c.start:c.end] for c in chunks).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace("\n", "")


def test_no_table_in_fenced_code_and_pipes_in_prose_are_no_table():
    text = "```\n| a | b |\n|---|---|\n| 1 | 2 |\n```\n\nx | y\n\nnot a table\n"
    assert chunkwise.Document(text).outline.tables.tables == []


def test_csv_is_a_table_of_records_with_its_header_as_context():
    rows = "\n".join(f'{i},"Batch {i} copied.\nThen verified by the on-call engineer, twice.",on-call' for i in range(80))
    text = "time,event,who\n" + rows + "\n"
    result = chunkwise.chunk_document(text, max_tokens=120, overlap=20, context="headings", language="csv")
    records = [text[: text.index("\n")] + "\n" + r for r in ("", )]
    assert records  # (the header line)
    for c in result.chunks:
        # each chunk is whole records: it starts at a record and ends with one (the quoted line break is inside)
        assert c.text.split("\n")[0].split(",")[0].isdigit() or c.index == 0
        assert c.text.endswith(",on-call")
        if c.index:
            assert c.embed_text == "time,event,who\n" + c.text
    assert {c.boundary for c in result.chunks} == {"row", "end"}


def test_csv_file_name_picks_the_table_reading(tmp_path):
    from chunkwise.code.languages import choose

    assert choose(None, "report.csv", "a,b\n1,2\n") == ("csv", "from the file name report.csv")
    assert choose(None, "report.tsv", "a\tb\n1\t2\n")[0] == "tsv"


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base", "chars"])
@pytest.mark.parametrize("strategy", STRATEGIES + ("tokens",))
def test_context_holds_the_budget_and_ends_with_the_text(encoding, strategy):
    text = incident() + "\n## Aftermath\n\n" + "We wrote it down. " * 200
    count = get_tokenizer(encoding).count
    for size in (60, 200):
        result = chunkwise.chunk_document(text, max_tokens=size, strategy=strategy, encoding=encoding, context="headings")
        for c in result.chunks:
            assert c.embed_text.endswith(c.text) and text[c.start:c.end] == c.text
            assert c.embed_tokens == count(c.embed_text) <= size
            assert c.token_count == count(c.text)


def test_context_is_the_heading_path_and_table_header():
    text = incident()
    chunks = chunkwise.chunk(text, max_tokens=200, overlap=0, context="headings")
    assert chunks[0].embed_text == chunks[0].text  # it starts the document: nothing above it
    later = chunks[3]
    assert later.embed_text == "# Incident\n## Timeline\n\n| Time | Event | Who |\n|---|---|---|\n" + later.text
    record = later.to_dict()
    assert list(record)[-2:] == ["embed_text", "embed_tokens"]
    assert "embed_text" not in chunkwise.chunk(text, max_tokens=200)[3].to_dict()  # context none: records as before


def test_a_chunk_that_starts_with_its_heading_does_not_repeat_it():
    text = "# Guide\n\n" + "Intro words here. " * 40 + "\n\n## Setup\n\n" + "Install it first. " * 40
    chunks = chunkwise.chunk(text, max_tokens=120, context="headings", strategy="markdown")
    setup = next(c for c in chunks if c.text.startswith("## Setup"))
    assert setup.embed_text == "# Guide\n\n" + setup.text


def test_long_context_is_shortened_outermost_first_with_a_warning():
    deep = "".join(f"{'#' * n} Heading number {n} with a rather long title to take tokens\n\n" for n in range(1, 7))
    text = deep + "Body text. " * 100
    result = chunkwise.chunk_document(text, max_tokens=40, overlap=0, context="headings")
    later = result.chunks[-1]
    assert later.embed_tokens <= 40
    assert later.embed_text.startswith("###### Heading number 6")  # the nearest heading kept
    assert "context" in " ".join(result.warnings)


def test_code_context_is_the_definition_path():
    code = "class Parser:\n" + "".join(f"    def method_{i}(self):\n        return {i}\n\n" for i in range(40))
    for size in (40, 60):
        chunks = chunkwise.chunk(code, max_tokens=size, language="python", context="headings")
        for c in chunks[1:]:
            # a chunk that starts with its method has the class above it; one inside a method, both
            path = "class Parser" if c.text.lstrip().startswith("def ") else " > ".join(c.headings)
            assert c.embed_text == path + "\n\n" + c.text


def test_html_and_docx_tables_are_cut_between_rows_with_their_header():
    rows = "".join(f"<tr><td>{i}</td><td>Step {i} of the plan was done by the team, on time.</td></tr>" for i in range(50))
    html = f"<html><body><h1>Plan</h1><table><tr><th>No</th><th>Step</th></tr>{rows}</table></body></html>"
    doc = chunkwise.read_document(html.encode(), "plan.html")

    def build(d):
        d.add_heading("Plan", 1)
        table = d.add_table(rows=50, cols=2)
        table.cell(0, 0).text, table.cell(0, 1).text = "No", "Step"
        for i in range(1, 50):
            table.cell(i, 0).text, table.cell(i, 1).text = str(i), f"Step {i} of the plan was done by the team, on time."

    docx = chunkwise.read_document(make_docx(build), "plan.docx")
    for extracted in (doc, docx):
        text = extracted.text
        chunks = chunkwise.chunk(text, max_tokens=100, overlap=20, context="headings")
        assert row_edges(text, chunks) == []
        assert all(c.embed_text.startswith("# Plan\n\n| No | Step |\n|---|---|\n") for c in chunks[1:])


def test_parents_are_tiled_by_their_children():
    text = incident() + "\n## Aftermath\n\n" + "We wrote it down. " * 200
    result = chunkwise.chunk_document(text, max_tokens=100, overlap=0, parent_tokens=400)
    parents, children = result.parents, result.chunks
    assert len(parents) >= 3 and len(children) > len(parents)
    assert parents == chunkwise.chunk_document(text, max_tokens=400, overlap=0).chunks  # the same strategy at N
    for p in parents:
        kids = [c for c in children if c.parent == p.index]
        assert kids[0].start == p.start and kids[-1].end == p.end
        for before, after in zip(kids, kids[1:]):
            assert text[before.end:after.start].strip() == ""  # nothing between them
        assert kids[-1].boundary == p.boundary
    assert [c.index for c in children] == list(range(len(children)))
    record = children[0].to_dict()
    assert (record["id"], record["parent_id"]) == ("c0", "p0")
    assert parents[1].parent_record()["id"] == "p1" and parents[1].parent_record()["kind"] == "parent"


def test_parents_with_overlap_stay_inside_their_parent():
    text = "Sentence number one is here. " * 400
    result = chunkwise.chunk_document(text, max_tokens=64, overlap=16, parent_tokens=256)
    for c in result.chunks:
        p = result.parents[c.parent]
        assert p.start <= c.start and c.end <= p.end and c.token_count <= 64


@pytest.mark.parametrize("bad, message", [(100, "larger than max_tokens"), (50, "larger than max_tokens"), ("x", "whole number")])
def test_parent_tokens_must_be_larger(bad, message):
    with pytest.raises(ValueError, match=message):
        chunkwise.chunk("text", max_tokens=100, parent_tokens=bad)


def test_unknown_context_is_refused():
    with pytest.raises(ValueError, match="unknown context 'all'; choose one of none, headings"):
        chunkwise.chunk("text", context="all")


def test_a_tables_header_is_joined_into_the_context_once_not_per_chunk(monkeypatch):
    """Each chunk's context was rebuilt from the table header's text, joined and hashed
    again for every chunk (quadratic in a long header: a 500 kB CSV header and 2 MB of
    rows took 24.7 s); chunks with the same heading path and table share one prefix."""
    from chunkwise.packing import context

    joined = []
    real_join = context._join
    monkeypatch.setattr(context, "_join", lambda *args: joined.append(1) or real_join(*args))
    header = ",".join(f"column_{i}" for i in range(12))
    rows = "".join(",".join(f"r{r}c{i}" for i in range(12)) + "\n" for r in range(600))
    result = chunkwise.chunk_document(header + "\n" + rows, max_tokens=200, overlap=0, context="headings", language="csv")
    later = result.chunks[1:]
    assert len(later) > 40
    assert all(c.embed_text == header + "\n" + c.text for c in later)
    assert len(joined) <= 3, len(joined)  # (one context, tried whole first: was one or more a chunk)


@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_a_context_does_not_encode_its_chunks_again(monkeypatch, encoding, backend):
    """embed_tokens is the exact count of context + text: where the tokenizer may split
    the two at the join, it is their two counts summed, so no chunk is encoded again
    (each was encoded twice more, once to fit and once to report: context="headings"
    took 4.5x one tokenizer pass on Markdown instead of 1.9x)."""
    tokenizer = get_tokenizer(encoding)
    counted = []
    real_count = tokenizer.count
    monkeypatch.setattr(tokenizer, "count", lambda text: counted.append(len(text)) or real_count(text))
    text = "".join(f"# Part {p}\n\n" + "".join(f"## Section {p}.{s}\n\n" + "A sentence of the section. " * 40 + "\n\n"
                                              for s in range(4)) for p in range(6))
    result = chunkwise.chunk_document(text, max_tokens=120, overlap=16, context="headings", encoding=encoding)
    assert len(result.chunks) > 40
    assert all(c.embed_tokens == real_count(c.embed_text) <= 120 for c in result.chunks)
    assert any(c.embed_text != c.text for c in result.chunks)
    assert sum(counted) < len(text) / 10, (sum(counted), len(text))  # (the headings' lines alone)
