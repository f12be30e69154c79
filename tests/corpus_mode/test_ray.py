"""The Ray Data adapter on a real local Ray instance: read_parquet (or read_binary_files) ->
ChunkRows -> write_parquet gives the rows the CLI writes for the same input and settings."""
from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chunkwise.corpus.ray_data import SPARK_SCHEMA, ChunkRows, RowSettings, empty_frame
from chunkwise.corpus.rows import arrow_schema
from conftest import CORPUS
from documents_files import write_documents
from hf_files import tokenizer_path

SETTINGS = {"max_tokens": 200, "overlap": 24, "strategy": "smart", "encoding": "cl100k_base"}


def documents(count: int) -> list[dict]:
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.*")) if p.name != "SOURCES.md"]
    docs = []
    for i in range(count):
        text = texts[i % len(texts)]
        start = (i * 389) % max(1, len(text) - 2000)
        docs.append({"id": f"doc-{i:04}", "text": text[start : start + 300 + (i * 53) % 1700],
                     "source": f"corpus-{i % len(texts)}", "rank": i, "tags": ["x", str(i % 3)]})
    docs[17]["text"] = None  # a document that fails: an error row, from both
    return docs


def sort_key(row: dict):
    return (row["doc_id"], -1 if row["index"] is None else row["index"])


@pytest.fixture(scope="module")
def ray_local():
    import ray  # installed by requirements-dev.txt
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


def test_ray_rows_equal_the_cli_rows(tmp_path, ray_local):
    ray = ray_local
    docs = documents(300)
    pq.write_table(pa.Table.from_pylist(docs), tmp_path / "docs.parquet")
    cli = subprocess.run(
        [sys.executable, "-m", "chunkwise", str(tmp_path / "docs.parquet"), "-o", str(tmp_path / "cli.parquet"),
         "--max-tokens", "200", "--overlap", "24", "--jobs", "1"],
        capture_output=True,
    )
    assert cli.returncode == 1 and cli.stderr.endswith(b", 1 failed\n"), cli.stderr
    expected = pq.read_table(tmp_path / "cli.parquet")

    # The README's example, end to end.
    (ray.data.read_parquet(str(tmp_path / "docs.parquet"))
        .map_batches(ChunkRows, fn_constructor_kwargs=SETTINGS, batch_format="pyarrow", batch_size=64,
                     compute=ray.data.ActorPoolStrategy(size=1))
        .write_parquet(str(tmp_path / "chunks")))
    got = pq.read_table(tmp_path / "chunks")
    assert got.schema.remove_metadata() == expected.schema.remove_metadata() == arrow_schema()
    assert sorted(got.to_pylist(), key=sort_key) == expected.to_pylist()
    errors = [r for r in got.to_pylist() if r["error"]]
    assert [(r["doc_id"], r["error"]) for r in errors] == [("doc-0017", "the 'text' field is null, not a string")]


def test_ray_takes_the_clis_tokenizer_file_and_language_options(tmp_path, ray_local):
    """ChunkRows takes what corpus mode takes (one RowSettings): a tokenizer.json, whose
    text travels to the actors with the settings, and --language / --language-field."""
    ray = ray_local
    code = (CORPUS.parent / "code-corpus").glob("*.py")
    python = [p.read_text(encoding="utf-8")[:3000] for p in sorted(code)][:3]
    docs = [{**doc, "lang": ["python", "src/a.py", "text", None][i % 4]} for i, doc in enumerate(documents(40))]
    docs += [{"id": f"code-{i}-{lang}", "text": text, "lang": lang} for i, text in enumerate(python) for lang in (None, "text")]
    pq.write_table(pa.Table.from_pylist(docs), tmp_path / "docs.parquet")
    path = tokenizer_path("all-MiniLM-L6-v2")
    options = ["--max-tokens", "80", "--overlap", "8", "--overlap-unit", "word", "--language", "python", "--language-field", "lang"]
    cli = subprocess.run([sys.executable, "-m", "chunkwise", str(tmp_path / "docs.parquet"), "-o", str(tmp_path / "cli.parquet"),
                          "--tokenizer", str(path), *options, "--jobs", "1"], capture_output=True)
    assert cli.returncode == 1, cli.stderr
    expected = sorted(pq.read_table(tmp_path / "cli.parquet").to_pylist(), key=sort_key)
    assert "encoding=all-MiniLM-L6-v2.json" in expected[0]["chunker"] and "overlap_unit=word" in expected[0]["chunker"]
    settings = RowSettings(max_tokens=80, overlap=8, overlap_unit="word", language="python",
                           language_field="lang").with_tokenizer(str(path))
    (ray.data.read_parquet(str(tmp_path / "docs.parquet"))
        .map_batches(ChunkRows, fn_constructor_kwargs={"settings": settings}, batch_format="pyarrow", batch_size=16,
                     compute=ray.data.ActorPoolStrategy(size=1))
        .write_parquet(str(tmp_path / "chunks")))
    got = sorted(pq.read_table(tmp_path / "chunks").to_pylist(), key=sort_key)
    assert got == expected
    # Code read as Python (a definition path in headings) only where the field or --language says so.
    code_headings = {r["doc_id"]: any(h.startswith(("class ", "def ")) for h in r["headings"])
                     for r in got if r["doc_id"].startswith("code-0")}
    assert code_headings == {"code-0-None": True, "code-0-text": False}
    # The same options by name, in this process, give the same rows.
    by_name = ChunkRows(tokenizer=str(path), max_tokens=80, overlap=8, overlap_unit="word", language="python",
                        language_field="lang")
    assert sorted(by_name(pa.Table.from_pylist(docs)).to_pylist(), key=sort_key) == expected
    with pytest.raises(TypeError):
        ChunkRows(settings, max_tokens=80)


def test_ray_chunk_rows_reads_binary_files_as_the_cli_does(tmp_path, ray_local):
    """Documents (PDF, HTML, DOCX and a broken PDF) from read_binary_files: the CLI's rows."""
    ray = ray_local
    folder = write_documents(tmp_path / "in")
    (folder / "bad.pdf").write_bytes(b"%PDF-1.7 cut")
    cli = subprocess.run([sys.executable, "-m", "chunkwise", str(folder), "--max-tokens", "256", "--jobs", "1",
                          "-o", str(tmp_path / "cli.parquet")], capture_output=True)
    assert cli.returncode == 1, cli.stderr
    expected = pq.read_table(tmp_path / "cli.parquet").to_pylist()
    (ray.data.read_binary_files(str(folder), include_paths=True)
        .map_batches(ChunkRows, fn_constructor_kwargs={"max_tokens": 256}, batch_format="pyarrow", batch_size=2,
                     compute=ray.data.ActorPoolStrategy(size=1))
        .write_parquet(str(tmp_path / "ray")))
    got = pq.read_table(tmp_path / "ray").to_pylist()
    # read_binary_files names files by their absolute path; the CLI by the path it was given
    for row in expected:
        row["doc_id"] = row["doc_id"].rsplit("/", 1)[1]
    for row in got:
        row["doc_id"] = row["doc_id"].rsplit("/", 1)[1]
    assert sorted(got, key=sort_key) == sorted(expected, key=sort_key)
    assert {r["doc_id"] for r in got if r["error"]} == {"bad.pdf"}
    assert any(r["pages"] for r in got if r["doc_id"] == "fhs.pdf")


def test_the_same_callable_takes_pandas_frames_as_spark_and_dask_give_them():
    docs = documents(40)
    table = pa.Table.from_pylist(docs)
    chunk_rows = ChunkRows(**SETTINGS)
    from_arrow = chunk_rows(table)
    frames = list(chunk_rows.chunk_frames(iter([table.slice(0, 20).to_pandas(), table.slice(20).to_pandas()])))
    rebuilt = pa.concat_tables(pa.Table.from_pandas(f, schema=arrow_schema(), preserve_index=False) for f in frames)
    assert rebuilt.to_pylist() == from_arrow.to_pylist()
    assert list(empty_frame().columns) == arrow_schema().names
    assert [part.split()[0] for part in SPARK_SCHEMA.split(",")] == arrow_schema().names


def test_dask_map_partitions_gives_the_same_rows():
    import dask
    import dask.dataframe as dd

    docs = documents(60)
    table = pa.Table.from_pylist(docs)
    # Dask turns object columns (here the list column `tags`) into strings unless told not to.
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(table.to_pandas(), npartitions=3)
        frame = ddf.map_partitions(ChunkRows(**SETTINGS), meta=empty_frame()).compute(scheduler="sync")
    got = pa.Table.from_pandas(frame, schema=arrow_schema(), preserve_index=False)
    assert got.to_pylist() == ChunkRows(**SETTINGS)(table).to_pylist()
    assert sum(1 for row in got.to_pylist() if row["error"]) == 1


def test_one_bad_row_costs_one_row_and_metadata_is_json():
    """A date past 9999 failed the whole batch (OverflowError from to_pylist); a pandas
    NaN went into `metadata` as a bare NaN, which JSON readers refuse; "" as id_field
    found no id in any record, silently."""
    table = pa.table({"id": ["a", "b", "c"], "text": ["One.", "Two.", "Three."],
                      "day": pa.array([0, 3_000_000, 1], pa.date32()), "score": [float("nan"), 1.0, 2.0]})
    got = ChunkRows(**SETTINGS)(table).to_pylist()
    assert [(r["doc_id"], r["text"], r["error"], r["metadata"]) for r in got] == [
        ("a", "One.", None, '{"day":"1970-01-01","score":null}'),
        ("b", None, "the 'day' field cannot be read: date value out of range", "{}"),
        ("c", "Three.", None, '{"day":"1970-01-02","score":2.0}')]
    frame = ChunkRows(**SETTINGS)(table.drop_columns("day").to_pandas())
    assert list(frame["metadata"]) == ['{"score":null}', '{"score":1.0}', '{"score":2.0}']
    with pytest.raises(ValueError, match="id_field must name a field, not ''"):
        ChunkRows(id_field="")
