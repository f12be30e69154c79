"""The command line, as a user runs it: files or stdin in, formats out, clear errors."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import chunkwise
import chunkwise.io.decode
from chunkwise.io import export
from chunkwise.io import stats
from conftest import CORPUS

RUSSIAN = CORPUS / "russian.txt"
GPL_FILE = CORPUS / "gpl-3.txt"
GPL_TEXT = GPL_FILE.read_text(encoding="utf-8")


def run(*args, stdin: bytes = b""):
    return subprocess.run([sys.executable, "-m", "chunkwise", *map(str, args)], input=stdin, capture_output=True)


def test_jsonl_from_a_file_matches_the_library():
    out = run(RUSSIAN, "--max-tokens", 128, "--overlap", 16)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    text = RUSSIAN.read_text(encoding="utf-8")
    expected = chunkwise.chunk(text, max_tokens=128, overlap=16)
    assert records == [c.to_dict() for c in expected]
    assert list(records[0]) == ["index", "text", "start", "end", "token_count", "overlap_tokens", "boundary", "headings"]
    assert out.stdout == export.to_jsonl(expected).encode("utf-8")
    assert out.stdout.endswith(b"\n") and b"\r" not in out.stdout


@pytest.mark.parametrize("unit", ["unit", "word"])
def test_overlap_unit_is_the_librarys(unit):
    text = GPL_TEXT
    out = run(GPL_FILE, "--max-tokens", 200, "--overlap", 40, "--strategy", "sentences", "--overlap-unit", unit)
    assert out.returncode == 0, out.stderr
    expected = chunkwise.chunk(text, max_tokens=200, overlap=40, strategy="sentences", overlap_unit=unit)
    assert out.stdout == export.to_jsonl(expected).encode("utf-8")


def test_the_default_overlap_is_the_libraries_an_eighth_of_the_size():
    text = RUSSIAN.read_text(encoding="utf-8")
    out = run(RUSSIAN, "--max-tokens", 256)
    assert out.returncode == 0, out.stderr
    assert out.stdout == export.to_jsonl(chunkwise.chunk(text, max_tokens=256, overlap=32)).encode("utf-8")
    assert out.stdout == export.to_jsonl(chunkwise.chunk(text, max_tokens=256)).encode("utf-8")


def test_stdin_and_every_format(tmp_path):
    text = "# Title\n\nFirst paragraph. Second sentence.\n\nSecond paragraph.\n"
    chunks = chunkwise.chunk(text, max_tokens=8, overlap=0)
    for fmt, expected in (
        ("jsonl", export.to_jsonl(chunks)),
        ("json", export.to_json(chunks)),
        ("text", export.to_text(chunks)),
    ):
        out = run("--max-tokens", 8, "--overlap", 0, "--format", fmt, stdin=text.encode())
        assert out.returncode == 0 and out.stdout.decode("utf-8") == expected
    json.loads(export.to_json(chunks))
    # Text: each chunk headed by default (a blank line alone reads as a paragraph break);
    # --headers says the same, --no-headers gives the bare texts a blank line apart.
    for flag in ([], ["--headers"]):
        headed = run("--max-tokens", 8, "--overlap", 0, "--format", "text", *flag, "-o", tmp_path / "o.txt", stdin=text.encode())
        assert headed.returncode == 0 and headed.stdout == b""
        body = (tmp_path / "o.txt").read_text(encoding="utf-8")
        assert body.startswith(f"--- Chunk 1/{len(chunks)} ---\n# Title")
        assert body == export.to_text(chunks, headers=True) == export.to_text(chunks)
    bare = run("--max-tokens", 8, "--overlap", 0, "--format", "text", "--no-headers", stdin=text.encode())
    assert bare.stdout.decode("utf-8") == "\n\n".join(c.text for c in chunks) + "\n" == export.to_text(chunks, headers=False)


def test_a_text_of_several_files_names_each_file(tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.txt"
    a.write_text("# A\n\nAlpha.", encoding="utf-8")
    b.write_text("Beta.", encoding="utf-8")
    out = run(a, b, "--format", "text").stdout.decode("utf-8")
    assert out == "--- Chunk 1/1 of a.md ---\n# A\n\nAlpha.\n\n--- Chunk 1/1 of b.txt ---\nBeta.\n"
    assert run(a, b, "--format", "text", "--no-headers").stdout.decode("utf-8") == "# A\n\nAlpha.\n\nBeta.\n"


def test_several_files_name_their_source(tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.txt"
    a.write_text("# A\n\nAlpha.", encoding="utf-8")
    b.write_text("Beta. Gamma.", encoding="utf-8")
    out = run(a, b)
    records = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert [(r["source"], r["text"]) for r in records] == [("a.md", "# A\n\nAlpha."), ("b.txt", "Beta. Gamma.")]
    as_json = json.loads(run(a, b, "--format", "json").stdout)
    assert [r["source"] for r in as_json] == ["a.md", "b.txt"]


def test_undecodable_bytes_are_replaced_and_reported(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_bytes(b"good text \xff\xfe and \xc3 more. " * 3)
    out = run(f)
    assert out.returncode == 0
    assert b"9 invalid byte sequences" in out.stderr
    assert "\ufffd" in json.loads(out.stdout.splitlines()[0])["text"]


def test_input_encoding_decodes_with_the_chosen_codec(tmp_path):
    text = "Привет, мир. Съешь же ещё этих мягких французских булок.\r\n\r\nДа выпей чаю."
    f = tmp_path / "cp1251.txt"
    f.write_bytes(text.encode("cp1251"))
    guessed = run(f)  # read as UTF-8: every Cyrillic letter is an invalid byte
    assert b"invalid byte sequences" in guessed.stderr
    out = run("--input-encoding", "cp1251", f)
    assert out.returncode == 0, out.stderr
    assert b"Read as cp1251" in out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert records == [c.to_dict() for c in chunkwise.chunk(text)]
    # A codec alias, a BOM and bytes the codec cannot decode.
    f16 = tmp_path / "utf16.txt"
    f16.write_bytes(b"\xff\xfe" + "Hi there.".encode("utf-16-le") + b"\x00\xd8")
    out = run("--input-encoding", "UTF-16LE", f16)
    assert json.loads(out.stdout)["text"] == "Hi there.\ufffd"
    assert b"1 byte sequence was not valid utf-16-le" in out.stderr


def test_input_encoding_counts_only_inserted_replacement_characters():
    text, info = chunkwise.io.decode.decode_bytes("a\ufffdb".encode("utf-8") + b"\xff", "utf-8")
    assert text == "a\ufffdb\ufffd" and info["replaced"] == 1 and info["encoding"] == "utf-8"


def test_bom_is_dropped_and_crlf_kept(tmp_path):
    f = tmp_path / "win.txt"
    f.write_bytes(b"\xef\xbb\xbfLine one.\r\nLine two.\r\n")
    record = json.loads(run(f).stdout)
    assert record["text"] == "Line one.\r\nLine two."


@pytest.mark.parametrize(
    "args,message",
    [
        (["--max-tokens", "0"], "must be at least 1"),
        (["--max-tokens", "lots"], "expected a whole number"),
        (["--overlap", "-3"], "must be 0 or more"),
        (["--strategy", "magic"], "invalid choice"),
        (["--encoding", "gpt2"], "invalid choice"),
        (["--overlap-unit", "clause"], "invalid choice"),
        (["--headers"], "--headers and --no-headers only apply to --format text"),
        (["--no-headers"], "--headers and --no-headers only apply to --format text"),
        (["missing-file.txt"], "no such file"),
        (["--input-encoding", "klingon"], "--input-encoding: unknown encoding 'klingon'"),
        (["--input-encoding", "rot13"], "--input-encoding: 'rot13' is not a text encoding"),
    ],
)
def test_bad_arguments_exit_2_with_one_clear_line(args, message):
    out = run(*args, stdin=b"text")
    assert out.returncode == 2
    last = out.stderr.decode().strip().splitlines()[-1]
    assert message in last


def test_warnings_and_stats_go_to_stderr():
    out = run("--max-tokens", 10, "--overlap", 50, "--stats", stdin=b"Some words here. " * 20)
    assert out.returncode == 0
    err = out.stderr.decode()
    assert "clamped to 5" in err
    numbers = json.loads(err.strip().splitlines()[-1])
    assert numbers["chunk_count"] == len(out.stdout.splitlines())


def test_help_explains_usage():
    out = run("--help")
    assert out.returncode == 0
    text = out.stdout.decode()
    for word in ("--max-tokens", "--strategy", "markdown", "examples:", "JSONL"):
        assert word in text


def test_stats_numbers():
    text = (CORPUS / "gpl-3.txt").read_text(encoding="utf-8")
    result = chunkwise.chunk_document(text, max_tokens=256, overlap=32)
    numbers = stats.compute(result)
    counts = [c.token_count for c in result.chunks]
    assert numbers["source_tokens"] == len(chunkwise.tokenizer.registry.get_tokenizer("cl100k_base").encode(text))
    assert numbers["chunk_count"] == len(counts)
    assert (numbers["min_tokens"], numbers["max_tokens"]) == (min(counts), max(counts))
    assert numbers["overlap_tokens"] == sum(c.overlap_tokens for c in result.chunks)
    assert numbers["mean_fill"] == round(sum(counts) / (len(counts) * 256), 4)
    assert sum(b["count"] for b in numbers["histogram"]) == len(counts)
    assert numbers["histogram"][-1]["hi"] == 256
    assert sum(numbers["boundaries"].values()) == len(counts)


# -- issue 9: no traceback, whatever the command line or the files -----------------


def _one_clear_line(out, status: int = 2) -> str:
    err = out.stderr.decode("utf-8", "replace")
    assert out.returncode == status, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_output_into_a_missing_directory_or_a_directory(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("Some text.", encoding="utf-8")
    assert "no such directory" in _one_clear_line(run(src, "-o", tmp_path / "missing" / "out.jsonl"))
    assert "is a directory" in _one_clear_line(run(src, "-o", tmp_path))
    assert not (tmp_path / "missing").exists()


def test_a_huge_budget_is_a_budget():
    text = b"One sentence. Two sentences. " * 20
    for digits in (400, 5000):  # 5000 digits: more than Python's int() converts
        out = run("--max-tokens", "9" * digits, "--overlap", "9" * digits, stdin=text)
        assert out.returncode == 0, out.stderr
        assert "Traceback" not in out.stderr.decode()
        assert len(out.stdout.splitlines()) == 1
    assert "expected a whole number" in _one_clear_line(run("--max-tokens", "9" * 5000 + "x", stdin=text))


def test_a_file_name_that_is_not_utf8(tmp_path):

    folder = os.fsencode(tmp_path)
    bad = os.path.join(folder, b"caf\xe9.txt")
    with open(bad, "wb") as f:
        f.write("Café au lait.".encode("utf-8"))
    good = tmp_path / "b.txt"
    good.write_text("Tea.", encoding="utf-8")
    out = subprocess.run([os.fsencode(sys.executable), b"-m", b"chunkwise", bad, os.fsencode(good)], capture_output=True)
    line = _one_clear_line(out, status=0)
    assert "not valid UTF-8" in line and "caf\ufffd.txt" in line
    records = [json.loads(r) for r in out.stdout.splitlines()]
    assert [(r["source"], r["text"]) for r in records] == [("caf\ufffd.txt", "Café au lait."), ("b.txt", "Tea.")]


def test_output_into_a_closed_pipe_ends_quietly(tmp_path):
    src = tmp_path / "big.txt"
    src.write_text("A sentence that repeats. " * 8000, encoding="utf-8")
    script = f'"{sys.executable}" -m chunkwise --max-tokens 16 --overlap 0 "{src}" | true; echo "status=${{PIPESTATUS[0]}}" >&2'
    out = subprocess.run(["bash", "-c", script], capture_output=True)
    assert out.stderr.decode().strip() == "status=0"


def _shell(command: str):
    """python -m chunkwise with a shell's redirections after it."""
    return subprocess.run(["bash", "-c", f'"{sys.executable}" -m chunkwise {command}'], capture_output=True)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_standard_output_that_cannot_be_written_is_reported_as_a_file_is(tmp_path):
    src = tmp_path / "a.txt"
    src.write_text("Some text. " * 2000, encoding="utf-8")
    assert "cannot write '/dev/full': No space left on device" in _one_clear_line(run(src, "-o", "/dev/full"))
    line = _one_clear_line(_shell(f'"{src}" > /dev/full'))
    assert "cannot write to standard output: No space left on device" in line


def test_closed_standard_input_or_output(tmp_path):
    """<&- and >&- leave Python without sys.stdin / sys.stdout (None): one line,
    exit 2 when the command needs that stream, and no error when it does not."""
    src = tmp_path / "a.txt"
    src.write_text("Some text.", encoding="utf-8")
    assert "standard output is closed" in _one_clear_line(_shell(f'"{src}" >&-'))
    assert "standard output is closed" in _one_clear_line(_shell(f'"{tmp_path}" >&-'))  # corpus mode
    assert "standard input is closed" in _one_clear_line(_shell("<&-"))
    assert "standard input is closed" in _one_clear_line(_shell(f'"{src}" - <&-'))
    assert "standard input is closed" in _one_clear_line(_shell("--corpus <&-"))
    out = _shell(f'"{src}" -o "{tmp_path / "out.jsonl"}" <&- >&-')
    assert out.returncode == 0 and out.stderr == b"", out.stderr
    assert json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))["text"] == "Some text."


def test_closed_standard_error_keeps_notes_out_of_the_output(tmp_path):
    """2>&- (sys.stderr is None): print(file=None) wrote warnings and --stats to
    standard output, among the chunks, and corpus mode died silently (status 1)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    src = folder / "a.txt"
    src.write_text("Some words here. " * 20, encoding="utf-8")
    out = _shell(f'"{src}" --max-tokens 10 --overlap 50 --stats 2>&-')
    assert out.returncode == 0
    records = [json.loads(line) for line in out.stdout.splitlines()]  # chunks only
    assert len(records) > 1 and all("index" in r for r in records)
    corpus = _shell(f'"{folder}" 2>&-')
    assert corpus.returncode == 0 and json.loads(corpus.stdout)["text"] == src.read_text(encoding="utf-8").strip()


def test_special_files_are_read(tmp_path):
    import threading

    text = b"Read from a pipe. Every byte."
    expected = json.loads(run(stdin=text).stdout)["text"]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(text), daemon=True)
    writer.start()
    out = subprocess.run([sys.executable, "-m", "chunkwise", str(fifo)], capture_output=True, timeout=300)
    if writer.is_alive():  # the CLI never opened the FIFO: open it here so the writer ends
        fifo.read_bytes()
    writer.join()
    assert out.returncode == 0 and json.loads(out.stdout)["text"] == expected, out.stderr
    for args in (["-"], ["/dev/stdin"]):
        out = run(*args, stdin=text)
        assert out.returncode == 0 and json.loads(out.stdout)["text"] == expected, out.stderr
    script = f'"{sys.executable}" -m chunkwise <(printf %s "{text.decode()}")'
    out = subprocess.run(["bash", "-c", script], capture_output=True)
    assert out.returncode == 0 and json.loads(out.stdout)["text"] == expected, out.stderr
    # (A directory is not an error: it starts corpus mode, which walks it.)


def _decoded(data: bytes):
    from chunkwise.io.decode import decode_bytes

    text, info = decode_bytes(data)
    return text, info["message"] or ""


def test_decoding_notes_are_true(tmp_path):
    """The CLI and the page decode files with the same function."""
    import codecs

    text = "A replacement character \ufffd is text too. Ünïcödé 🙂."
    got, note = _decoded(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    assert got == text and "invalid" not in note and "UTF-16" in note
    got, note = _decoded(codecs.BOM_UTF8 + text.encode("utf-8"))
    assert got == text and note == ""
    for bom, codec in ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be")):
        got, note = _decoded(bom + text.encode(codec))
        assert got == text and "UTF-32" in note and "invalid" not in note
    plain = "Plain English text, no byte order mark.\nSecond line."
    for codec, order in (("utf-16-le", "little"), ("utf-16-be", "big")):
        got, note = _decoded(plain.encode(codec))
        assert got == plain and "no byte order mark" in note and order in note and "binary" not in note
    got, note = _decoded(b"bad \xff byte and a real \xef\xbf\xbd")
    assert got == "bad \ufffd byte and a real \ufffd" and "1 invalid byte sequence was" in note
    got, note = _decoded(b"nul\x00 inside")
    assert got == "nul\x00 inside" and "binary" in note
    f = tmp_path / "utf16.txt"
    f.write_bytes(plain.encode("utf-16-le"))
    out = run(f, "--max-tokens", 4096)
    assert json.loads(out.stdout)["text"] == plain
    assert "little-endian" in _one_clear_line(out, status=0)


def test_corpus_mode_decodes_as_plain_mode_does(tmp_path):
    """A folder of files (corpus mode) reads each file with the same detection as
    plain mode and the page (UTF-32 with a BOM, UTF-16 without one) and honours
    --input-encoding; only what cannot be decoded becomes an error row."""
    import codecs

    text = "Plain English text, no byte order mark.\nÜnïcödé 🙂 second line."
    folder = tmp_path / "docs"
    folder.mkdir()
    files = {
        "a-utf32.txt": codecs.BOM_UTF32_LE + text.encode("utf-32-le"),
        "b-utf16be.txt": text.encode("utf-16-be"),
        "c-utf16le.txt": text.encode("utf-16-le"),
        "d-utf8.txt": codecs.BOM_UTF8 + text.encode("utf-8"),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
        assert _decoded(data)[0] == text
    out = run(folder, "--max-tokens", 4096)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(r) for r in out.stdout.splitlines()]
    assert [(r["doc_id"].rsplit("/", 1)[-1], r.get("text"), r.get("error")) for r in rows] == [
        (name, text, None) for name in files
    ]
    cyrillic = tmp_path / "cp1251"
    cyrillic.mkdir()
    (cyrillic / "a.txt").write_bytes("Привет, мир.".encode("cp1251"))
    out = run(cyrillic, "--input-encoding", "cp1251")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["text"] == "Привет, мир."
    assert "unknown encoding 'klingon'" in _one_clear_line(run(cyrillic, "--input-encoding", "klingon"))


def test_a_huge_budget_warns_about_no_overlap_nobody_set():
    """The default overlap (an eighth of the size) of a size past the largest budget was
    clamped and reported as if it had been asked for: 'overlap 12499999999999999999999 ...'."""
    for digits in (23, 400):
        out = run("--max-tokens", "9" * digits, stdin=b"One sentence. Two sentences.")
        assert out.returncode == 0 and out.stderr == b"", out.stderr
    out = run("--max-tokens", "9" * 23, "--overlap", "9" * 23, stdin=b"One sentence. Two sentences.")
    assert "overlap 99999999999999999999999 is more than half" in _one_clear_line(out, 0)  # this one was asked for


def test_one_short_file_starts_without_corpus_modes_pool_or_numpy(tmp_path):
    """Chunking one short file imports neither corpus mode's process pool nor numpy
    (about 0.13 s of a 0.45 s run): the imports a run makes, from inside it."""
    src = tmp_path / "note.txt"
    src.write_text("A short note. It fits in one chunk.\n", encoding="utf-8")
    script = (
        "import runpy, sys\n"
        f"sys.argv = ['chunkwise', {str(src)!r}]\n"
        "try:\n"
        "    runpy.run_module('chunkwise', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('numpy', 'multiprocessing', 'concurrent.futures.process') if m in sys.modules), file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CHUNKWISE_BACKEND"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert json.loads(out.stdout)["text"] == "A short note. It fits in one chunk."
    assert out.stderr.strip() == "[]", out.stderr
