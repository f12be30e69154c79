"""The export formats vector stores and LangChain load, and the CLI's --context,
--parents and --format: the same bytes as the library."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import chunkwise
from chunkwise.io import export, stats
from conftest import incident


def run(*args, stdin: bytes = b""):
    return subprocess.run([sys.executable, "-m", "chunkwise", *map(str, args)], input=stdin, capture_output=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    path = tmp_path_factory.mktemp("exports") / "incident.md"
    path.write_text(incident(40) + "\n## Aftermath\n\n" + "We wrote it down. " * 120, encoding="utf-8")
    return path


def lines(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.decode("utf-8").splitlines()]


def test_context_and_parents_on_the_cli_are_the_librarys(report):
    out = run(report, "--max-tokens", 100, "--context", "headings", "--parents", 400)
    assert out.returncode == 0, out.stderr
    result = chunkwise.chunk_document(report.read_text(encoding="utf-8"), max_tokens=100, context="headings", parent_tokens=400)
    assert out.stdout == export.render(result.chunks, "jsonl", parents=result.parents).encode("utf-8")
    records = lines(out.stdout)
    parents = [r for r in records if r.get("kind") == "parent"]
    assert [p["id"] for p in parents] == [f"p{i}" for i in range(len(result.parents))]
    # each parent comes before the chunks that tile it
    current = None
    for r in records:
        if r.get("kind") == "parent":
            current = r["id"]
        else:
            assert r["parent_id"] == current and r["embed_tokens"] <= 100


def test_langchain_documents(report):
    out = run(report, "--max-tokens", 120, "--context", "headings", "--format", "langchain")
    plain = lines(run(report, "--max-tokens", 120, "--context", "headings").stdout)
    docs = lines(out.stdout)
    assert len(docs) == len(plain)
    for doc, record in zip(docs, plain):
        assert list(doc) == ["page_content", "metadata"]
        assert doc["page_content"] == record["embed_text"]  # what gets embedded
        assert doc["metadata"]["text"] == record["text"] and doc["metadata"]["headings"] == record["headings"]
    no_context = lines(run(report, "--max-tokens", 120, "--format", "langchain").stdout)
    assert no_context[0]["page_content"] == plain[0]["text"] and "text" not in no_context[0]["metadata"]


def test_vector_store_records_with_several_files(report, tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("Short notes. " * 50, encoding="utf-8")
    out = run(report, other, "--max-tokens", 120, "--format", "vectors")
    assert out.returncode == 0, out.stderr
    records = lines(out.stdout)
    assert all(list(r) == ["id", "text", "embed_text", "metadata"] for r in records)
    ids = [r["id"] for r in records]
    assert len(set(ids)) == len(ids) and ids[0] == "incident.md:c0" and "notes.txt:c0" in ids
    assert all(r["embed_text"] == r["text"] for r in records)  # no context: the text itself
    assert records[0]["metadata"]["source"] == "incident.md"


def test_context_stats(report):
    result = chunkwise.chunk_document(report.read_text(encoding="utf-8"), max_tokens=100, context="headings", parent_tokens=300)
    numbers = stats.compute(result)
    assert numbers["context_tokens"] == sum(c.embed_tokens - c.token_count for c in result.chunks) > 0
    assert numbers["embed_tokens_max"] <= 100 and numbers["parent_count"] == len(result.parents)
    assert numbers["boundaries"]["row"] > 0
    assert "context_tokens" not in stats.compute(chunkwise.chunk_document("plain text", max_tokens=100))


@pytest.mark.parametrize("args, message", [
    (["--parents", "50"], "parent_tokens must be larger than max_tokens (100), not 50"),
    (["--context", "all"], "invalid choice: 'all'"),
    (["--format", "xml"], "invalid choice: 'xml'"),
    (["--parents", "400", "--corpus"], "corpus mode's rows do not carry parents yet"),
])
def test_bad_options_are_one_line(report, args, message):
    out = run(report, "--max-tokens", 100, *args)
    assert out.returncode == 2 and message in out.stderr.decode() and b"Traceback" not in out.stderr


def test_csv_file_cut_between_records(tmp_path):
    path = tmp_path / "events.csv"
    path.write_text("time,event\n" + "".join(f'{i},"Event {i}, with a comma and\na line break"\n' for i in range(200)), encoding="utf-8")
    records = lines(run(path, "--max-tokens", 64, "--context", "headings").stdout)
    assert {r["boundary"] for r in records} == {"row", "end"}
    assert all(r["embed_text"].startswith("time,event\n") for r in records)
    assert all(r["text"].endswith('line break"') for r in records)


@pytest.mark.parametrize("fmt", ["jsonl", "json", "langchain", "vectors", "text"])
def test_the_pages_bridge_exports_the_clis_bytes(report, fmt):
    from chunkwise.bridge import Session

    session = Session()
    session.open_file(report.read_bytes(), name="incident.md")
    settings = {"max_tokens": 100, "context": "headings", "parent_tokens": 300, "filename": "incident.md"}
    started = json.loads(session.start(json.dumps(settings)))
    assert started["settings"]["context"] == "headings" and started["settings"]["parent_tokens"] == 300
    step = {"done": False}
    while not step["done"]:
        step = json.loads(session.step(10.0))
    assert step["parents"] and all("text" not in p and p["kind"] == "parent" for p in step["parents"])
    out = run(report, "--max-tokens", 100, "--context", "headings", "--parents", 300, "--format", fmt)
    assert session.export(fmt, True) == out.stdout  # (text: headed, the CLI's default)


def test_corpus_rows_carry_the_context(report, tmp_path):
    import pyarrow.parquet as pq

    docs = tmp_path / "docs.jsonl"
    docs.write_text(json.dumps({"id": "r1", "text": report.read_text(encoding="utf-8")}) + "\n", encoding="utf-8")
    plain = lines(run(report, "--max-tokens", 100, "--context", "headings").stdout)
    rows = lines(run(docs, "--corpus", "--max-tokens", 100, "--context", "headings").stdout)
    assert [(r["text"], r["embed_text"], r["embed_tokens"]) for r in rows] == [
        (r["text"], r["embed_text"], r["embed_tokens"]) for r in plain]
    assert "context=headings" in rows[0]["chunker"]
    without = lines(run(docs, "--corpus", "--max-tokens", 100).stdout)
    assert "embed_text" not in without[0] and without[0]["chunk_id"] != rows[0]["chunk_id"]
    out = tmp_path / "rows.parquet"
    assert run(docs, "--corpus", "--max-tokens", 100, "--context", "headings", "-o", out).returncode == 0
    table = pq.read_table(out)
    assert table.column("embed_text").to_pylist() == [r["embed_text"] for r in plain]
    assert pq.read_table(out).schema.field("embed_tokens").type == "int32"
