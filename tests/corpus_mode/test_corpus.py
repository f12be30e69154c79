"""Corpus mode, as a user runs it: JSONL, Parquet and text files in; JSONL and Parquet
rows out with doc_id, chunk_id, metadata and chunker; error rows; any --jobs, same bytes."""
from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time
import warnings

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import chunkwise
from chunkwise import Chunker
from chunkwise.io import export
from chunkwise.corpus import rows
from chunkwise.corpus.inputs import TASK_DOCS
from conftest import CORPUS

SETTINGS = ["--max-tokens", "128", "--overlap", "16"]
LABEL = f"chunkwise {chunkwise.__version__} encoding=cl100k_base max_tokens=128 overlap=16 strategy=smart overlap_unit=unit"


def run(*args, stdin: bytes = b"", cwd=None):
    return subprocess.run([sys.executable, "-m", "chunkwise", *map(str, args)], input=stdin, capture_output=True, cwd=cwd)


def corpus_docs() -> list[dict]:
    """The test corpus as documents with metadata of several JSON types."""
    docs = []
    for n, path in enumerate(sorted(CORPUS.glob("*.*"))):
        if path.name == "SOURCES.md":
            continue
        docs.append({"id": path.stem, "text": path.read_text(encoding="utf-8"), "n": n,
                     "tags": ["a", "ß"], "meta": {"size": path.stat().st_size, "ok": True}, "note": None})
    return docs


def write_jsonl(path, docs) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for doc in docs:
            f.write(json.dumps(doc, ensure_ascii=False) + "\n")


def records(out: bytes) -> list[dict]:
    return [json.loads(line) for line in out.decode("utf-8").splitlines()]


def test_jsonl_round_trip_keeps_the_chunks_and_passes_metadata_through(tmp_path):
    docs = corpus_docs()
    write_jsonl(tmp_path / "docs.jsonl", docs)
    out = run(tmp_path / "docs.jsonl", *SETTINGS)
    assert out.returncode == 0, out.stderr
    got = records(out.stdout)
    expected = []
    for doc in docs:
        for chunk in chunkwise.chunk(doc["text"], max_tokens=128, overlap=16):
            metadata = {k: v for k, v in doc.items() if k not in ("id", "text")}
            expected.append({"doc_id": doc["id"], **chunk.to_dict(), "metadata": metadata, "chunker": LABEL})
    assert [{k: v for k, v in r.items() if k != "chunk_id"} for r in got] == expected
    assert list(got[0]) == ["doc_id", "chunk_id", "index", "text", "start", "end", "token_count", "overlap_tokens",
                            "boundary", "headings", "metadata", "chunker"]
    assert out.stderr.decode().endswith(f"chunkwise: {len(docs)} documents, {len(got)} chunks, 0 failed\n")


def test_parquet_in_and_out_has_typed_columns_and_the_same_rows(tmp_path):
    docs = corpus_docs()
    write_jsonl(tmp_path / "docs.jsonl", docs)
    table = pa.Table.from_pylist(docs)
    pq.write_table(table, tmp_path / "docs.parquet")
    from_jsonl = run(tmp_path / "docs.jsonl", *SETTINGS)
    from_parquet = run(tmp_path / "docs.parquet", *SETTINGS)
    assert from_parquet.returncode == 0, from_parquet.stderr
    assert from_parquet.stdout == from_jsonl.stdout  # the same documents give the same bytes
    out = run(tmp_path / "docs.parquet", *SETTINGS, "-o", tmp_path / "chunks.parquet")
    assert out.returncode == 0 and out.stdout == b"", out.stderr
    result = pq.read_table(tmp_path / "chunks.parquet")
    assert result.schema.field("start").type == pa.int64()
    assert result.schema.field("token_count").type == pa.int32()
    assert result.schema.field("headings").type == pa.list_(pa.string())
    assert result.schema.metadata[b"chunkwise"] == LABEL.encode()
    as_rows = result.to_pylist()
    for row in as_rows:
        assert row.pop("error") is None
        # only a document with pages (a PDF) has them, only a run with a context the embed_* ones:
        # JSONL leaves those fields out
        for optional in ("pages", "embed_text", "embed_tokens"):
            assert row.pop(optional) is None
        row["metadata"] = json.loads(row["metadata"])
    assert as_rows == records(from_jsonl.stdout)
    # The output file's extension chooses the format; --format says it outright.
    again = run(tmp_path / "docs.jsonl", *SETTINGS, "--format", "parquet", "-o", tmp_path / "again.pq")
    assert again.returncode == 0 and pq.read_table(tmp_path / "again.pq").equals(result)


def test_chunk_ids_are_stable_and_follow_document_settings_and_text(tmp_path):
    write_jsonl(tmp_path / "docs.jsonl", corpus_docs())
    first, second = run(tmp_path / "docs.jsonl", *SETTINGS), run(tmp_path / "docs.jsonl", *SETTINGS)
    assert first.stdout == second.stdout
    got = records(first.stdout)
    ids = [r["chunk_id"] for r in got]
    assert len(set(ids)) == len(ids) and all(len(i) == 32 and int(i, 16) >= 0 for i in ids)
    settings = Chunker(max_tokens=128, overlap=16).settings
    assert ids[3] == rows.chunk_id(got[3]["doc_id"], settings, got[3]["start"], got[3]["end"], got[3]["text"])
    other = records(run(tmp_path / "docs.jsonl", "--max-tokens", "128", "--overlap", "8").stdout)
    assert not set(ids) & {r["chunk_id"] for r in other}
    # The overlap unit is a setting too: even a first chunk, cut alike, gets another id.
    words = records(run(tmp_path / "docs.jsonl", *SETTINGS, "--overlap-unit", "word").stdout)
    assert words[0]["start"] == got[0]["start"] and words[0]["end"] == got[0]["end"]
    assert not set(ids) & {r["chunk_id"] for r in words}
    # Another document id with the same text gives other ids.
    renamed = [dict(d, id=d["id"] + "-copy") for d in corpus_docs()]
    write_jsonl(tmp_path / "renamed.jsonl", renamed)
    assert not set(ids) & {r["chunk_id"] for r in records(run(tmp_path / "renamed.jsonl", *SETTINGS).stdout)}


def test_bad_documents_become_error_rows_and_the_run_goes_on(tmp_path):
    lines = [
        json.dumps({"id": "first", "text": "Fine text."}),
        "{not json",
        json.dumps({"text": "no id here"}),
        json.dumps({"id": 7, "text": ["not", "a", "string"]}),
        json.dumps({"id": "long", "text": "x" * 50}),
        json.dumps({"id": "empty", "text": ""}),
        json.dumps({"id": 8, "text": "Last one."}),
    ]
    (tmp_path / "docs.jsonl").write_bytes(("\n".join(lines) + "\n").encode() + b'{"id": "bad", "text": "\xff"}\n')
    out = run(tmp_path / "docs.jsonl", "--max-chars", 40)
    assert out.returncode == 1
    got = records(out.stdout)
    assert [(r["doc_id"], r.get("error", "").split(":")[0]) for r in got] == [
        ("first", ""), (None, "line 2 of " + str(tmp_path / "docs.jsonl")), (None, "line 3 of " + str(tmp_path / "docs.jsonl")),
        ("7", "the 'text' field must be a string, not list"), ("long", "50 characters, over the limit of 40 (--max-chars)"),
        ("8", ""), (None, "line 8 of " + str(tmp_path / "docs.jsonl")),
    ]
    assert "not JSON" in got[1]["error"] and "no 'id' field" in got[2]["error"] and "not valid UTF-8" in got[6]["error"]
    assert got[3] == {"doc_id": "7", "error": "the 'text' field must be a string, not list", "metadata": {}, "chunker": got[0]["chunker"]}
    stderr = out.stderr.decode()
    assert stderr.endswith("chunkwise: 8 documents, 2 chunks, 5 failed\n")
    assert "line 4 of" in stderr and "(id '7'): the 'text' field must be a string" in stderr
    assert "Traceback" not in stderr
    # In Parquet, an error row has the error column and empty chunk columns.
    out = run(tmp_path / "docs.jsonl", "--max-chars", 40, "-o", tmp_path / "out.parquet")
    table = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert out.returncode == 1 and len(table) == 7
    assert table[4]["doc_id"] == "long" and table[4]["text"] is None and table[4]["error"].startswith("50 characters")


def test_directories_and_patterns_of_text_files_with_the_path_as_id(tmp_path):
    (tmp_path / "docs" / "sub").mkdir(parents=True)
    (tmp_path / "docs" / "b.md").write_text("# B\n\nBee.", encoding="utf-8")
    (tmp_path / "docs" / "a.txt").write_text("Ay.", encoding="utf-8")
    (tmp_path / "docs" / "sub" / "c.txt").write_bytes(b"\xef\xbb\xbfSee.")  # a BOM is dropped
    (tmp_path / "docs" / "sub" / "bad.txt").write_bytes(b"caf\xe9 au lait")
    (tmp_path / "docs" / ".hidden").write_text("Skipped.", encoding="utf-8")
    out = run("docs", cwd=tmp_path)
    assert out.returncode == 1
    got = records(out.stdout)
    assert [(r["doc_id"], r.get("text"), r.get("error")) for r in got] == [
        ("docs/a.txt", "Ay.", None), ("docs/b.md", "# B\n\nBee.", None),
        # (the error row names the likely codec, as the CLI does for one file)
        ("docs/sub/bad.txt", None, "not valid UTF-8 (byte offset 3: invalid continuation byte); it looks like"
         " Windows-1252 (Western European), cp1252: --input-encoding auto reads it so"),
        ("docs/sub/c.txt", "See.", None),
    ]
    assert got[1]["headings"] == ["B"] and got[0]["metadata"] == {}
    pattern = run("docs/**/*.txt", cwd=tmp_path)
    assert [r["doc_id"] for r in records(pattern.stdout)] == ["docs/a.txt", "docs/sub/bad.txt", "docs/sub/c.txt"]
    # --corpus turns plain files into corpus documents too; unmatched patterns are an error.
    single = run("--corpus", "docs/a.txt", cwd=tmp_path)
    assert records(single.stdout)[0]["doc_id"] == "docs/a.txt" and single.returncode == 0
    none = run("docs/*.rst", cwd=tmp_path)
    assert none.returncode == 2 and b"no file matches 'docs/*.rst'" in none.stderr


def test_jobs_two_gives_the_same_bytes_as_jobs_one(tmp_path):
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.*")) if p.name != "SOURCES.md"]
    # More documents than one task holds, so several tasks go to the two workers.
    docs = [{"id": f"doc-{i}", "text": f"Document {i}. " + texts[i % len(texts)][(i * 97) % 3000 :][:1500], "i": i} for i in range(TASK_DOCS * 2 + 100)]
    docs[700] = {"id": "broken"}
    write_jsonl(tmp_path / "docs.jsonl", docs)
    one = run(tmp_path / "docs.jsonl", *SETTINGS, "--jobs", 1)
    two = run(tmp_path / "docs.jsonl", *SETTINGS, "--jobs", 2)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout and one.stderr == two.stderr
    assert len({r["doc_id"] for r in records(one.stdout)}) == len(docs)
    for jobs in (1, 2):
        assert run(tmp_path / "docs.jsonl", *SETTINGS, "--jobs", jobs, "-o", tmp_path / f"{jobs}.parquet").returncode == 1
    assert (tmp_path / "1.parquet").read_bytes() == (tmp_path / "2.parquet").read_bytes()


def test_plain_files_stay_plain_and_corpus_options_need_corpus_mode(tmp_path):
    f = tmp_path / "notes.md"
    f.write_text("# T\n\nSome text.", encoding="utf-8")
    plain = run(f)
    assert plain.stdout == export.to_jsonl(chunkwise.chunk("# T\n\nSome text.")).encode() and plain.stderr == b""
    for option in (["--jobs", "2"], ["--id-field", "key"], ["--max-chars", "9"]):
        out = run(f, *option)
        assert out.returncode == 2 and b"applies to corpus mode" in out.stderr
    out = run(tmp_path / "docs.jsonl", "--jobs", "9" * 30)
    assert out.returncode == 2 and b"--jobs: must be at most 256" in out.stderr
    out = run(tmp_path / "missing.jsonl")
    assert out.returncode == 2 and b"no such file" in out.stderr and b"Traceback" not in out.stderr
    out = run(tmp_path / "notes.md", "--format", "parquet")
    assert out.returncode == 2 and b"Parquet output needs a file" in out.stderr


def test_fields_are_chosen_and_stdin_is_jsonl():
    body = json.dumps({"key": "k1", "body": "Hello there.", "id": "kept as metadata"}) + "\n"
    out = run("--id-field", "key", "--text-field", "body", "--corpus", stdin=body.encode())
    assert out.returncode == 0, out.stderr
    (record,) = records(out.stdout)
    assert record["doc_id"] == "k1" and record["text"] == "Hello there." and record["metadata"] == {"id": "kept as metadata"}


def test_a_progress_bar_on_a_terminal_and_none_otherwise(tmp_path):
    write_jsonl(tmp_path / "docs.jsonl", corpus_docs())
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))  # a 120-column terminal
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise", str(tmp_path / "docs.jsonl"), "-o", str(tmp_path / "o.jsonl")],
                            stderr=follower, stdout=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process is done
            break
        if not data:
            break
        seen += data
    assert proc.wait() == 0
    os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert "chunkwise: 100%" in text and "docs," in text and "chunks" in text and "B/s" in text
    quiet = run(tmp_path / "docs.jsonl", "-o", tmp_path / "o2.jsonl")
    assert b"100%" not in quiet.stderr


def test_chunker_is_chunk_with_settings_held():
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.txt"))]
    chunker = Chunker(max_tokens=200, overlap=20, strategy="sentences", encoding="o200k_base")
    assert chunker.tokenizer.name == "o200k_base"
    assert chunker.chunk(texts[0]) == chunkwise.chunk(texts[0], max_tokens=200, overlap=20, strategy="sentences", encoding="o200k_base")
    assert chunker.chunk_batch(texts) == [chunkwise.chunk(t, max_tokens=200, overlap=20, strategy="sentences", encoding="o200k_base") for t in texts]
    # the whole Result alike (warnings, the source's count), a short text's one chunk and a long text's
    settings = dict(max_tokens=200, overlap=20, strategy="sentences", encoding="o200k_base")
    for text in ("  One short row.\n", texts[0], "word " * 300):
        assert chunker.chunk_document(text) == chunkwise.chunk_document(text, **settings)
    document = chunkwise.Document(texts[1])  # prepared once, chunked by several Chunkers
    assert chunker.chunk(document) == chunker.chunk(texts[1])
    assert Chunker().settings.overlap == chunkwise.default_overlap(512)
    with pytest.raises(ValueError, match="unknown strategy"):
        Chunker(strategy="nope")
    for bad in (dict(context="bogus", parent_tokens=1), dict(strategy="langchain-recursive", context="bogus")):
        with pytest.raises(ValueError) as by_chunker:  # several bad settings: the one chunk_document names first
            Chunker(**bad)
        with pytest.raises(ValueError) as by_function:
            chunkwise.chunk_document("One.", **bad)
        assert str(by_chunker.value) == str(by_function.value)
    clamped = Chunker(max_tokens=10, overlap=9)
    assert clamped.settings.overlap == 5 and "clamped" in clamped.adjustments[0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clamped.chunk_batch(["One.", "Two.", "Three."])
    assert len(caught) == 1 and issubclass(caught[0].category, chunkwise.ChunkwiseWarning)


def test_a_closed_pipe_stops_the_run_quietly(tmp_path):
    write_jsonl(tmp_path / "docs.jsonl", corpus_docs() * 4)  # far more output than a pipe holds
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise", str(tmp_path / "docs.jsonl"), *SETTINGS],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    stderr = proc.stderr.read()
    assert proc.wait() == 1
    assert json.loads(first)["index"] == 0 and stderr == b""


PY = "import os\n\n\ndef first():\n    # a comment, no heading\n    return 1\n\n\nclass Second:\n    def m(self):\n        return 2\n"


def test_text_files_are_read_as_their_extension_says_as_in_plain_mode(tmp_path):
    """A directory (or pattern) of source files is chunked as code, each file by its
    own extension, as plain mode does: the rows' chunks are plain mode's records."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text(PY, encoding="utf-8")
    (tmp_path / "src" / "b.js").write_text("// one\nfunction one() {\n  return 1;\n}\n\nclass Two {\n  m() { return 2; }\n}\n",
                                           encoding="utf-8")
    (tmp_path / "src" / "c.md").write_text("# Title\n\n```python\nx = 1\n```\n", encoding="utf-8")
    settings = ["--max-tokens", "12", "--overlap", "0"]
    out = run("src", *settings, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    got = records(out.stdout)
    for name in ("a.py", "b.js", "c.md"):
        plain = run(f"src/{name}", *settings, cwd=tmp_path)
        assert [{k: v for k, v in r.items() if k not in ("doc_id", "chunk_id", "metadata", "chunker")}
                for r in got if r["doc_id"] == f"src/{name}"] == records(plain.stdout), name
    assert ["def first"] in [r["headings"] for r in got] and ["class Two", "m()"] in [r["headings"] for r in got]
    assert not any("a comment" in " ".join(r["headings"]) for r in got)
    # --language text reads every file as prose again; --language python reads the .js as Python
    prose = records(run("src", *settings, "--language", "text", cwd=tmp_path).stdout)
    assert ["def first"] not in [r["headings"] for r in prose]
    assert records(run("src/*.py", *settings, cwd=tmp_path).stdout) == [r for r in got if r["doc_id"] == "src/a.py"]


def test_jsonl_rows_honour_language_and_a_language_field(tmp_path):
    docs = [{"id": "a", "text": PY, "lang": "Python"}, {"id": "b", "text": PY, "lang": "src/x.py"},
            {"id": "c", "text": PY, "lang": "klingon"}, {"id": "d", "text": PY}]
    write_jsonl(tmp_path / "docs.jsonl", docs)
    settings = ["--max-tokens", "12", "--overlap", "0"]

    def headings(*args):
        rows_ = records(run(tmp_path / "docs.jsonl", *settings, *args).stdout)
        return {doc["id"]: ["def first"] in [r["headings"] for r in rows_ if r["doc_id"] == doc["id"]] for doc in docs}

    assert headings() == {"a": False, "b": False, "c": False, "d": False}  # rows are prose by default
    assert headings("--language", "python") == {"a": True, "b": True, "c": True, "d": True}
    assert headings("--language", "auto") == {"a": True, "b": True, "c": True, "d": True}  # detected
    # the field names the language (or a file name); an unknown one or none falls back to --language
    assert headings("--language-field", "lang") == {"a": True, "b": True, "c": False, "d": False}
    assert headings("--language-field", "lang", "--language", "python") == {"a": True, "b": True, "c": True, "d": True}
    python = records(run(tmp_path / "docs.jsonl", *settings, "--language", "python").stdout)
    plain = records(run("--language", "python", *settings, stdin=PY.encode()).stdout)
    assert [{k: v for k, v in r.items() if k not in ("doc_id", "chunk_id", "metadata", "chunker")}
            for r in python if r["doc_id"] == "a"] == plain
    assert python[0]["metadata"] == {"lang": "Python"}  # the field stays metadata
    out = run(tmp_path / "docs.md", "--language-field", "lang")
    assert out.returncode == 2 and b"applies to corpus mode" in out.stderr


def test_a_fifo_in_a_directory_is_skipped_with_a_note_and_a_named_one_is_read(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("Ay.", encoding="utf-8")
    os.mkfifo(tmp_path / "docs" / "pipe.txt")  # nobody writes to it: reading it would wait forever
    out = subprocess.run([sys.executable, "-m", "chunkwise", "docs"], capture_output=True, cwd=tmp_path, timeout=60)
    assert out.returncode == 0, out.stderr
    assert [r["doc_id"] for r in records(out.stdout)] == ["docs/a.txt"]
    assert b"chunkwise: skipped 'docs/pipe.txt': a FIFO, not a regular file\n" in out.stderr
    pattern = subprocess.run([sys.executable, "-m", "chunkwise", "docs/*.txt"], capture_output=True, cwd=tmp_path, timeout=60)
    assert pattern.returncode == 0 and [r["doc_id"] for r in records(pattern.stdout)] == ["docs/a.txt"]
    assert b"skipped 'docs/pipe.txt': a FIFO" in pattern.stderr
    # Named on the command line, a FIFO is read (as <(zcat docs.jsonl.gz) is).
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise", "--corpus", "docs/pipe.txt"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path)
    with open(tmp_path / "docs" / "pipe.txt", "w", encoding="utf-8") as fifo:
        fifo.write("Written into the pipe.")
    stdout, _ = proc.communicate(timeout=120)
    assert [(r["doc_id"], r["text"]) for r in records(stdout)] == [("docs/pipe.txt", "Written into the pipe.")]


def test_lone_surrogate_escapes_cost_one_document_at_most(tmp_path):
    """JSON may escape a lone surrogate (\\ud800), which has no UTF-8. In metadata it is
    kept, as an escape; in the text it becomes U+FFFD, as everywhere; an id with one is
    an error row. Before, any of them ended the whole run with an internal error."""
    lines = ['{"id": "ok", "text": "Broken \\ud800 text.", "m": "\\udc00x", "k": "caf\\u00e9"}',
             '{"id": "bad\\ud800", "text": "Fine text.", "m": 1}',
             '{"id": "last", "text": "Last one."}']
    (tmp_path / "docs.jsonl").write_text("\n".join(lines) + "\n", encoding="ascii")
    out = run(tmp_path / "docs.jsonl", "-o", tmp_path / "out.jsonl")
    assert out.returncode == 1 and out.stderr.endswith(b"chunkwise: 3 documents, 2 chunks, 1 failed\n"), out.stderr
    assert b"the 'id' field 'bad\\ud800' is not valid Unicode (a lone surrogate)" in out.stderr
    got = records((tmp_path / "out.jsonl").read_bytes())  # valid UTF-8 throughout
    assert [(r["doc_id"], r.get("text")) for r in got] == [("ok", "Broken \ufffd text."), (None, None), ("last", "Last one.")]
    assert got[0]["metadata"] == {"m": "\udc00x", "k": "café"} and got[1]["metadata"] == {"m": 1}
    out = run(tmp_path / "docs.jsonl", "-o", tmp_path / "out.parquet")
    assert out.returncode == 1 and out.stderr.endswith(b"chunkwise: 3 documents, 2 chunks, 1 failed\n"), out.stderr
    table = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert [(r["doc_id"], r["text"]) for r in table] == [("ok", "Broken \ufffd text."), (None, None), ("last", "Last one.")]
    assert json.loads(table[0]["metadata"]) == {"m": "\udc00x", "k": "café"}


def test_the_summary_counts_one_document_and_one_chunk_in_the_singular(tmp_path):
    write_jsonl(tmp_path / "one.jsonl", [{"id": "a", "text": "One short document."}])
    out = run(tmp_path / "one.jsonl", *SETTINGS)
    assert out.returncode == 0, out.stderr
    assert out.stderr.decode().endswith("chunkwise: 1 document, 1 chunk, 0 failed\n")


# -- issue 29: one bad record costs one row; an interrupted run says so ------------------


def strict_json(text):
    """JSON as JSON.parse, jq and serde read it: a bare NaN or Infinity is an error."""
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("depth", [150, 985, 100_000])
@pytest.mark.parametrize("output", ["out.jsonl", "out.parquet"])
def test_a_record_nested_too_deeply_is_an_error_row_and_the_others_are_chunked(tmp_path, depth, output):
    """985 levels parse but could not be written again (RecursionError while encoding);
    100,000 could not be parsed; either ended the run and lost the task's good documents.
    Metadata may nest 100 levels: deeper, most JSON readers refuse it (serde_json at 128)."""
    deep = "[" * depth + "]" * depth
    lines = [json.dumps({"id": "before", "text": "Good text."}), f'{{"id": "deep", "text": "Deep.", "m": {deep}}}',
             json.dumps({"id": "after", "text": "More text.", "m": json.loads("[" * 90 + "]" * 90)})]
    (tmp_path / "docs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = run(tmp_path / "docs.jsonl", "-o", tmp_path / output)
    assert out.returncode == 1 and out.stderr.endswith(b"chunkwise: 3 documents, 2 chunks, 1 failed\n"), out.stderr
    assert b"internal error" not in out.stderr and b"Traceback" not in out.stderr
    if output.endswith(".jsonl"):
        got = [strict_json(line) for line in (tmp_path / output).read_text(encoding="utf-8").splitlines()]
    else:
        got = pq.read_table(tmp_path / output).to_pylist()
        for row in got:
            row["metadata"] = strict_json(row["metadata"])
    assert [(r["doc_id"], r.get("text")) for r in got] == [("before", "Good text."), (got[1]["doc_id"], None), ("after", "More text.")]
    assert "nested more than 100 levels deep" in got[1]["error"] and got[1]["metadata"] == {}
    # the id is known when the line could be read (at 985 levels, that depends on the stack)
    assert got[1]["doc_id"] in {150: ["deep"], 985: ["deep", None], 100_000: [None]}[depth]


def test_a_parquet_value_python_cannot_hold_is_an_error_row_of_its_own(tmp_path):
    """A date past year 9999 ended the run (internal error: OverflowError) and lost its batch."""
    table = pa.table({"id": ["a", "b", "c"], "text": ["One.", "Two.", "Three."],
                      "day": pa.array([0, 3_000_000, 1], pa.date32())})
    pq.write_table(table, tmp_path / "docs.parquet")
    out = run(tmp_path / "docs.parquet")
    assert out.returncode == 1 and out.stderr.endswith(b"chunkwise: 3 documents, 2 chunks, 1 failed\n"), out.stderr
    got = records(out.stdout)
    assert [(r["doc_id"], r.get("text"), r.get("error")) for r in got] == [
        ("a", "One.", None), ("b", None, "the 'day' field cannot be read: date value out of range"), ("c", "Three.", None)]
    assert got[0]["metadata"] == {"day": "1970-01-01"}
    assert b"row 2 of" in out.stderr and b"Traceback" not in out.stderr


def test_an_input_that_is_not_parquet_is_named_as_an_input(tmp_path):
    """It said 'internal error: ArrowInvalid: ...'."""
    (tmp_path / "docs.parquet").write_bytes(b"not parquet at all\n")
    out = run(tmp_path / "docs.parquet")
    assert out.returncode == 1 and b"Traceback" not in out.stderr
    (line,) = out.stderr.decode().splitlines()
    assert line.startswith(f"chunkwise: cannot read {str(tmp_path / 'docs.parquet')!r}: ") and "Parquet" in line
    assert "internal error" not in line and "write" not in line


def test_nan_and_infinity_in_metadata_are_written_as_null_and_counted(tmp_path):
    """pandas writes a missing float as NaN; Python's json wrote it bare (NaN, Infinity),
    which JSON.parse, jq, serde and Go refuse, in JSONL and in Parquet's metadata column."""
    table = pa.table({"id": ["a", "b", "c"], "text": ["One.", "Two.", "Three."],
                      "score": [1.5, float("nan"), float("inf")], "more": [[1.0], [float("-inf")], [2.0]]})
    pq.write_table(table, tmp_path / "docs.parquet")
    (tmp_path / "docs.jsonl").write_text('{"id": "a", "text": "One.", "score": NaN, "deep": {"x": [-Infinity]}}\n'
                                         '{"id": "b", "text": "Two.", "score": 2.5}\n', encoding="utf-8")
    out = run(tmp_path / "docs.parquet")
    assert out.returncode == 0, out.stderr
    got = [strict_json(line) for line in out.stdout.decode().splitlines()]
    assert [r["metadata"] for r in got] == [{"score": 1.5, "more": [1.0]}, {"score": None, "more": [None]},
                                            {"score": None, "more": [2.0]}]
    assert out.stderr.decode().splitlines() == [
        "chunkwise: warning: 2 documents had NaN or Infinity in their metadata: written as null (JSON has neither)",
        "chunkwise: 3 documents, 3 chunks, 0 failed"]
    run(tmp_path / "docs.parquet", "-o", tmp_path / "out.parquet")
    assert [strict_json(m) for m in pq.read_table(tmp_path / "out.parquet").column("metadata").to_pylist()] == [
        r["metadata"] for r in got]
    out = run(tmp_path / "docs.jsonl")
    got = [strict_json(line) for line in out.stdout.decode().splitlines()]
    assert got[0]["metadata"] == {"score": None, "deep": {"x": [None]}} and got[1]["metadata"] == {"score": 2.5}
    assert b"warning: 1 document had NaN or Infinity" in out.stderr


def test_a_null_id_or_text_is_said_to_be_null(tmp_path):
    """'"text": null' was reported as "no 'text' field" though the field is there."""
    lines = ['{"id": "a", "text": null}', '{"id": null, "text": "x"}', '{"id": "c"}', '{"text": "y"}']
    out = run("--corpus", stdin=("\n".join(lines) + "\n").encode())
    assert [r["error"] for r in records(out.stdout)] == [
        "the 'text' field is null, not a string", "line 2 of standard input: the 'id' field is null, not a string or a whole number",
        "no 'text' field", "line 4 of standard input: no 'id' field"]
    table = pa.table({"id": ["a", None], "body": [None, "x"]})
    pq.write_table(table, tmp_path / "docs.parquet")
    out = run(tmp_path / "docs.parquet", "--text-field", "body")
    assert [r["error"] for r in records(out.stdout)] == [
        "the 'body' field is null, not a string", f"row 2 of {tmp_path / 'docs.parquet'}: the 'id' field is null, not a string or a whole number"]


@pytest.mark.parametrize("option", ["--id-field", "--text-field", "--language-field"])
def test_an_empty_field_name_is_refused(tmp_path, option):
    """--id-field "" and --text-field "" fell back to the defaults without a word."""
    write_jsonl(tmp_path / "docs.jsonl", [{"id": "a", "text": "One."}])
    out = run(tmp_path / "docs.jsonl", option, "")
    assert out.returncode == 2 and out.stdout == b"" and b"Traceback" not in out.stderr
    (line,) = out.stderr.decode().splitlines()
    assert f"argument {option}: must name a field, not an empty string" in line
    with pytest.raises(ValueError, match=f"{option[2:].replace('-', '_')} must name a field"):
        rows.RowMaker(rows.RowSettings(**{option[2:].replace("-", "_"): ""}))


def test_a_huge_budget_warns_about_no_overlap_nobody_set(tmp_path):
    """The default overlap, an eighth of 10**23, was clamped to half the largest budget
    and reported: 'overlap 12499999999999999999999 is more than half of ...'."""
    write_jsonl(tmp_path / "docs.jsonl", [{"id": "a", "text": "One. Two."}])
    out = run(tmp_path / "docs.jsonl", "--max-tokens", "9" * 23)
    assert out.returncode == 0 and out.stderr == b"chunkwise: 1 document, 1 chunk, 0 failed\n", out.stderr


def _interrupted(tmp_path, output: str, *args):
    """Run the CLI on a corpus far too big to finish, press Ctrl-C (SIGINT to its process
    group, workers too) once the output has begun, and return (status, stderr lines)."""
    docs = corpus_docs() * 150  # about 30 MB
    write_jsonl(tmp_path / "docs.jsonl", [dict(d, id=f"{d['id']}-{i}") for i, d in enumerate(docs)])
    partial = tmp_path / (output + ".incomplete")
    # (as a terminal starts it: a suite run in the background, `./dev test &`, ignores SIGINT,
    # and its children would inherit that and never see the Ctrl-C)
    proc = subprocess.Popen([sys.executable, "-m", "chunkwise", str(tmp_path / "docs.jsonl"), "-o", str(tmp_path / output),
                             *SETTINGS, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while not (partial.exists() and partial.stat().st_size > (0 if output.endswith(".jsonl") else 4)):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert stdout == b"" and b"Traceback" not in stderr, stderr
    assert not (tmp_path / output).exists()  # no file under the name asked for: it would look complete
    return proc.returncode, stderr.decode().splitlines(), len(docs)


@pytest.mark.parametrize("output,jobs", [("out.jsonl", "2"), ("out.parquet", "1")])
def test_ctrl_c_says_how_far_it_got_and_leaves_no_file_that_looks_complete(tmp_path, output, jobs):
    """An interrupted run exited 130 with nothing on stderr, and a Parquet output
    interrupted early was a valid-looking file of 0 rows."""
    status, lines, total = _interrupted(tmp_path, output, "--jobs", jobs)
    assert status == 130
    (line,) = lines
    match = re.fullmatch(r"chunkwise: interrupted; the output is incomplete: ([\d,]+) documents? \(([\d,]+) chunks?\)"
                         r" written, in '(.*)'", line)
    assert match, line
    docs, chunks = (int(match[n].replace(",", "")) for n in (1, 2))
    assert match[3] == str(tmp_path / (output + ".incomplete")) and docs < total
    partial = tmp_path / (output + ".incomplete")
    if output.endswith(".jsonl"):
        got = [strict_json(line) for line in partial.read_text(encoding="utf-8").splitlines()]
    else:
        got = pq.read_table(partial).to_pylist()  # readable: it has its footer
    assert len(got) == chunks and len({r["doc_id"] for r in got}) == docs
    # A run that finishes leaves only the file asked for.
    small = run(tmp_path / "docs.jsonl", "-o", tmp_path / "done.jsonl", "--max-chars", "1")
    assert small.returncode == 1 and (tmp_path / "done.jsonl").exists() and not (tmp_path / "done.jsonl.incomplete").exists()
