"""How corpus mode cuts its input into tasks and hands them to workers: JSONL in
blocks of whole lines (the main process only looks for newlines), the same rows
and line numbers however the blocks fall, and workers forked or spawned."""
from __future__ import annotations

import io
import json
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkwise.corpus import rows
from chunkwise.corpus.inputs import TASK_BYTES, Source, Task, line_blocks, tasks
from chunkwise.corpus.pool import Workers
from chunkwise.corpus.worker import Options, run_task, start_worker
from chunkwise.corpus.rows import RowSettings
from conftest import CORPUS
from hf_files import tokenizer_path

LINE = st.sampled_from([b"", b"  ", b"\r", b"{}", b'{"id": 1}', b"x" * 7, b"\xff\xfe", b'{"a": "\xc3\xa9"}'])


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(LINE, max_size=30), ending=st.sampled_from([b"\n", b"\r\n"]), last_newline=st.booleans(),
       read_bytes=st.integers(1, 40), most_lines=st.integers(1, 6))
def test_line_blocks_are_whole_lines_in_order_at_any_block_size(lines, ending, last_newline, read_bytes, most_lines):
    data = ending.join(lines) + (ending if last_newline and lines else b"")
    blocks = list(line_blocks(io.BytesIO(data), read_bytes, most_lines))
    assert b"".join(blocks) == data  # nothing lost, nothing repeated, in order
    assert all(blocks)
    for block in blocks[:-1]:
        assert block.endswith(b"\n") and block.count(b"\n") <= most_lines
    if blocks:
        assert blocks[-1].count(b"\n") <= most_lines and (blocks[-1].endswith(b"\n") or not data.endswith(b"\n"))


def run(*args):
    return subprocess.run([sys.executable, "-m", "chunkwise", *map(str, args)], capture_output=True)


def test_records_across_a_block_boundary_keep_their_rows_and_line_numbers(tmp_path):
    """A record that spans the first TASK_BYTES, CRLF lines, blank lines, a bad line
    after the boundary and a last line without a newline: every row as one task
    would give it, and errors name the right line, with 1 and 2 workers alike."""
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.*")) if p.name != "SOURCES.md"]
    lines, size, n = [], 0, 0
    while True:  # documents up to just before the first block's end
        line = json.dumps({"id": f"d{n}", "text": texts[n % len(texts)][:30_000]}).encode() + (b"\r\n" if n % 2 else b"\n")
        if size + len(line) > TASK_BYTES - 1000:
            break
        lines.append(line)
        size, n = size + len(line), n + 1
    lines.append(json.dumps({"id": "spanning", "text": texts[0][:60_000]}, ensure_ascii=False).encode() + b"\n")
    assert size < TASK_BYTES < size + len(lines[-1])
    lines += [b"\n", b"  \r\n", b'{"id": "bad", \n', json.dumps({"id": "after", "text": "Short."}).encode() + b"\r\n",
              json.dumps({"id": "last", "text": "No newline at the end."}).encode()]
    path = tmp_path / "docs.jsonl"
    path.write_bytes(b"".join(lines))
    one, two = run(path, "--jobs", 1), run(path, "--jobs", 2)
    assert one.returncode == two.returncode == 1 and one.stdout == two.stdout and one.stderr == two.stderr
    got = [json.loads(line) for line in one.stdout.splitlines()]
    ids = list(dict.fromkeys((r["doc_id"], r.get("error")) for r in got))
    bad_line = n + 4  # n documents, the spanning one, two blank lines, then the bad one
    assert ids == [(f"d{i}", None) for i in range(n)] + [
        ("spanning", None), (None, f"line {bad_line} of {path}: not JSON: Expecting property name enclosed in double"
                                   f" quotes: line 1 column 15 (char 14)"), ("after", None), ("last", None)]
    (tmp_path / "alone.jsonl").write_bytes(lines[n])  # the spanning record, alone in one block
    alone = [json.loads(line) for line in run(tmp_path / "alone.jsonl").stdout.splitlines()]
    assert len(alone) > 10 and [r for r in got if r["doc_id"] == "spanning"] == alone
    assert one.stderr.decode().endswith(f"chunkwise: {n + 4:,} documents, {len(got) - 1:,} chunks, 1 failed\n")


def test_spawned_workers_load_the_tokenizer_file_and_give_the_same_results(tmp_path):
    """Where processes cannot be forked (macOS, Windows) workers are spawned: the
    --tokenizer file reaches them and the results are those of one process."""
    options = Options(RowSettings(max_tokens=64, overlap=8).with_tokenizer(str(tokenizer_path("all-MiniLM-L6-v2"))), "jsonl")
    name = options.rows.encoding
    texts = [p.read_text(encoding="utf-8")[:300] for p in sorted(CORPUS.glob("*.txt"))]
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps({"id": f"d{i}", "text": texts[i % len(texts)]}) + "\n" for i in range(1200)))
    found = [Source("jsonl", str(path))]
    alone = Workers(options, 1)
    expected = [done.payload for done in alone.ordered_results(tasks(found))]
    spawned = Workers(options, 2, method="spawn")
    try:
        got = [done.payload for done in spawned.ordered_results(tasks(found))]
    finally:
        spawned.close()
    assert len(expected) >= 3 and got == expected
    assert f"encoding={name}".encode() in expected[0]


def test_a_document_whose_rows_cannot_be_written_costs_only_itself(monkeypatch):
    """The last guard, for JSONL and Parquet rows alike: whatever makes one document's rows
    fail to render (no known input does: metadata is made JSON-safe first) becomes its error
    row, and the task's other documents are kept. Before, the task and the run ended."""
    real = rows.compact_json

    def compact_json(value):
        if "boom" in json.dumps(value, default=str):
            raise RecursionError("maximum recursion depth exceeded while encoding a JSON object")
        return real(value)

    monkeypatch.setattr(rows, "compact_json", compact_json)
    lines = b'{"id": "a", "text": "One."}\n{"id": "b", "text": "Two.", "m": "boom"}\n{"id": "c", "text": "Three."}\n'
    reason = "its rows cannot be written: RecursionError: maximum recursion depth exceeded while encoding a JSON object"
    for fmt in ("jsonl", "parquet"):
        start_worker(Options(RowSettings(), fmt))
        done = run_task(Task("jsonl", "docs.jsonl", 1, lines, len(lines)))
        assert (done.docs, done.chunks, done.failures) == (3, 2, [("line 2 of docs.jsonl", "b", reason)])
        got = ([json.loads(line) for line in done.payload.splitlines()] if fmt == "jsonl" else done.payload.to_pylist())
        assert [(r["doc_id"], r["text"] if fmt == "parquet" else r.get("text"), r.get("error")) for r in got] == [
            ("a", "One.", None), ("b", None, reason), ("c", "Three.", None)]
