"""--model and --tokenizer on the command line: presets set the tokenizer and a
size that fits the model, a larger size warns how many chunks would be
truncated, and `encoding` in --stats names what was counted."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from chunkwise import cli
from chunkwise.corpus.inputs import TASK_BYTES, TASK_DOCS
from chunkwise.presets import PRESETS
from hf_files import CORPUS, tokenizer_path


@pytest.fixture(scope="module", autouse=True)
def preset_files():
    for p in PRESETS.values():
        if p.tokenizer not in ("cl100k_base", "o200k_base"):
            tokenizer_path(p.tokenizer)


def run(*args, stdin: str | None = None, backend: str | None = None, cwd=None):
    env = {**os.environ, "CHUNKWISE_BACKEND": backend} if backend else None  # "tiktoken": the fast one, tokenizers
    return subprocess.run(
        [sys.executable, "-m", "chunkwise", *args], input=stdin, capture_output=True, text=True, encoding="utf-8",
        env=env, cwd=cwd,
    )


def _stats(stderr: str) -> dict:
    return json.loads([line for line in stderr.splitlines() if line.startswith("{")][-1])


def test_model_sets_tokenizer_and_size(tmp_path):
    doc = CORPUS / "gpl-3.txt"
    out = run("--model", "all-MiniLM-L6-v2", "--stats", str(doc))
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    stats = _stats(out.stderr)
    assert stats["encoding"] == "all-MiniLM-L6-v2"
    assert stats["model"] == "all-MiniLM-L6-v2" and stats["model_max_tokens"] == 256 and stats["special_tokens"] == 2
    assert stats["budget"] == 254  # 256 less [CLS] and [SEP]
    assert max(r["token_count"] for r in records) <= 254
    assert "truncated" not in out.stderr


def test_model_over_its_limit_warns_how_many_chunks_are_truncated():
    text = (CORPUS / "russian.txt").read_text(encoding="utf-8")
    out = run("--model", "multilingual-e5-small", "--max-tokens", "600", "--overlap", "0", stdin=text)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    over = sum(1 for r in records if r["token_count"] > 510)
    assert over > 0
    assert f"{over} of {len(records)} chunk(s) would be truncated" in out.stderr


def test_openai_model_is_cl100k():
    out = run("--model", "text-embedding-3-small", "--stats", stdin="Hello world. " * 50)
    assert _stats(out.stderr)["encoding"] == "cl100k_base"
    assert _stats(out.stderr)["budget"] == 8191


def test_tokenizer_file_gives_the_same_chunks_as_its_preset():
    path = tokenizer_path("all-MiniLM-L6-v2")
    doc = str(CORPUS / "node-net.md")
    by_file = run("--tokenizer", str(path), "--max-tokens", "200", "--stats", doc)
    by_model = run("--model", "all-MiniLM-L6-v2", "--max-tokens", "200", doc)
    assert by_file.returncode == 0, by_file.stderr
    assert by_file.stdout == by_model.stdout
    assert _stats(by_file.stderr)["encoding"] == "all-MiniLM-L6-v2.json"


def test_bad_tokenizer_files_get_a_clear_message(tmp_path):
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"model": {"type": "Mystery"}}', encoding="utf-8")
    out = run("--tokenizer", str(bad), stdin="text")
    assert out.returncode == 2
    assert "model 'Mystery' is not supported" in out.stderr and "Traceback" not in out.stderr
    missing = run("--tokenizer", str(tmp_path / "nope.json"), stdin="text")
    assert missing.returncode == 2 and "cannot read" in missing.stderr and "Traceback" not in missing.stderr
    both = run("--model", "all-MiniLM-L6-v2", "--encoding", "chars", stdin="text")
    assert both.returncode == 2 and "choose one of --encoding, --model and --tokenizer" in both.stderr


def _one_error_line(out) -> str:
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    return lines[0]


def test_a_tokenizer_files_text_is_never_a_file_name(tmp_path):
    """--tokenizer FILE reads FILE; what FILE holds is parsed as JSON, even when it
    does not start with "{" (it was opened as a path: a traceback, or another file)."""
    other = tokenizer_path("all-MiniLM-L6-v2")
    for contents in ("# Notes\n\nNot JSON.\n", "[1]", "", str(other)):
        bad = tmp_path / "notes.md"
        bad.write_text(contents, encoding="utf-8")
        line = _one_error_line(run("--tokenizer", str(bad), stdin="text"))
        assert "not a tokenizer.json file" in line, contents


def test_a_tokenizer_path_is_never_its_text(tmp_path):
    """--tokenizer always names a file, even one whose name starts with "{"."""
    braced = tmp_path / "{minilm}.json"
    braced.write_bytes(tokenizer_path("all-MiniLM-L6-v2").read_bytes())
    out = run("--tokenizer", braced.name, "--stats", stdin="Hello world.", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert _stats(out.stderr)["encoding"] == "{minilm}.json"


def test_a_tokenizer_file_with_a_byte_order_mark_is_read(tmp_path):
    """A tokenizer.json saved with a UTF-8 BOM (some editors add one) was refused on
    both backends ('Unexpected UTF-8 BOM'), though input files with one are read."""
    plain = tokenizer_path("all-MiniLM-L6-v2")
    marked = tmp_path / "marked.json"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    for backend in ("pure", "tiktoken"):
        want = run("--tokenizer", str(plain), stdin="Hello world. Second sentence.", backend=backend)
        got = run("--tokenizer", str(marked), stdin="Hello world. Second sentence.", backend=backend)
        assert got.returncode == 0, got.stderr
        assert got.stdout == want.stdout and want.stdout


def test_an_empty_tokenizer_name_is_an_error_not_the_default_encoding():
    out = run("--tokenizer", "", stdin="Hello world.")
    assert out.returncode == 2 and out.stdout == ""
    assert "--tokenizer" in out.stderr and "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) <= 2


def test_the_pages_tokenizer_text_is_never_a_file_name():
    """The page hands load_tokenizer the text of the file the user opened: it was
    taken for a path when it did not start with "{" (another file was loaded)."""
    from chunkwise import bridge

    for text in ("# Notes\n", str(tokenizer_path("all-MiniLM-L6-v2"))):
        with pytest.raises(ValueError, match="not a tokenizer.json file"):
            bridge.Session().load_tokenizer("notes.md", text)


_WORDS = {"type": "WordLevel", "vocab": {"[UNK]": 0, "a": 1}, "unk_token": "[UNK]"}


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"model": None}, "model must be an object, not null"),
        ({"model": "BPE"}, "model must be an object, not a string"),
        ({"model": []}, "model must be an object, not a list"),
        ({"model": {"type": "BPE"}}, "model.vocab is missing"),
        ({"model": {"type": "WordPiece"}}, "model.vocab is missing"),
        ({"model": {"type": "Unigram"}}, "model.vocab is missing"),
        ({"model": {"type": "BPE", "vocab": [], "merges": []}}, "model.vocab must be an object"),
        ({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [1]}}, "model.merges[0] must be"),
        ({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a"]}}, "model.merges[0] must be"),
        # (a whole-list pass clears a good list; a bad item after good ones is still named)
        ({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": ["a a", ["a", "a"], ["a"]]}}, "model.merges[2] must be"),
        ({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": [["a", "a"], ["a", 1]]}}, "model.merges[1] must be"),
        ({"model": {"type": "BPE", "vocab": {"a": 0, "b": True}, "merges": []}}, "model.vocab['b'] must be"),
        ({"model": {"type": "Unigram", "vocab": [["a", 0.5], ["b", "x"]], "unk_id": 0}}, "model.vocab[1] must be"),
        ({"model": {"type": "Unigram", "vocab": [["a"]], "unk_id": 0}}, "model.vocab[0] must be"),
        ({"model": {"type": "Unigram", "vocab": [], "unk_id": 0}}, "unk_id 0 is not in the vocabulary"),
        ({"model": _WORDS, "pre_tokenizer": {"type": "Split"}}, "pre_tokenizer.pattern is missing"),
        ({"model": _WORDS, "added_tokens": [{"id": 1}]}, "added_tokens[0].content is missing"),
        ({"model": _WORDS, "added_tokens": 5}, "added_tokens must be a list, not a whole number"),
        ({"model": _WORDS, "normalizer": "x"}, "normalizer must be an object, not a string"),
        ({"model": _WORDS, "normalizer": {"type": "Sequence", "normalizers": None}}, "normalizer.normalizers must be a list, not null"),
        ({"model": _WORDS, "normalizer": {"type": "Sequence", "normalizers": [{"type": "Prepend"}]}},
         "normalizer.normalizers[0].prepend is missing"),
        ({"model": _WORDS, "normalizer": {"type": "Precompiled", "precompiled_charsmap": "!!!"}}, "not a valid charsmap"),
        ({"model": _WORDS, "post_processor": {"type": "TemplateProcessing", "single": [{"SpecialToken": 1}]}},
         "post_processor.single[0].SpecialToken must be an object"),
    ],
)
def test_malformed_tokenizer_files_name_what_is_wrong(tmp_path, spec, message):
    """A tokenizer.json of the wrong shape is one line naming the field, exit 2 (it
    was a KeyError, TypeError, AttributeError or struct.error traceback)."""
    bad = tmp_path / "tokenizer.json"
    bad.write_text(json.dumps(spec), encoding="utf-8")
    line = _one_error_line(run("--tokenizer", str(bad), stdin="a a"))
    assert message in line


@pytest.mark.parametrize("depth", [300, 3000])
def test_a_tokenizer_file_nested_too_deeply_is_one_line(tmp_path, depth):
    """Normalizer Sequences inside Sequences: RecursionError (in check, or in json.loads
    itself deeper down) went past the CLI's ValueError as a traceback."""
    normalizer = '{"type": "Sequence", "normalizers": [' * depth + '{"type": "Lowercase"}' + "]}" * depth
    deep = tmp_path / "deep.json"  # (written out: json.dumps cannot nest this deep either)
    deep.write_text(f'{{"model": {json.dumps(_WORDS)}, "normalizer": {normalizer}}}', encoding="utf-8")
    for backend in ("pure", "tiktoken"):
        assert "nested too deeply" in _one_error_line(run("--tokenizer", str(deep), stdin="a a", backend=backend))


def test_a_file_the_tokenizers_library_refuses_is_one_line(tmp_path):
    """The fast backend's refusal (tokenizers raises a bare Exception) is a clear
    error too: a WordLevel model without unk_token, which the pure backend reads."""
    words = tmp_path / "words.json"
    words.write_text(json.dumps({"model": {"type": "WordLevel", "vocab": {"a": 0}}}), encoding="utf-8")
    assert run("--tokenizer", str(words), stdin="a", backend="pure").returncode == 0
    line = _one_error_line(run("--tokenizer", str(words), stdin="a", backend="tiktoken"))
    assert "words.json: the tokenizers library refuses it: missing field `unk_token`" in line
    # Refused when encoding: an unk_token missing from the vocabulary, at the first unknown character.
    bpe = tmp_path / "bpe.json"
    bpe.write_text(json.dumps({"model": {"type": "BPE", "vocab": {"a": 0, " ": 1}, "merges": [], "unk_token": "zz"}}))
    assert run("--tokenizer", str(bpe), stdin="a a", backend="tiktoken").returncode == 0
    for backend in ("pure", "tiktoken"):
        assert "zz" in _one_error_line(run("--tokenizer", str(bpe), stdin="a b", backend=backend))


def test_help_lists_the_presets():
    text = cli.build_parser().format_help()
    for p in PRESETS.values():
        assert p.name in text


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_corpus_mode_counts_in_a_tokenizer_file_in_every_worker(tmp_path, jobs):
    """--tokenizer PATH in corpus mode: every worker process counts in that file
    (workers are fresh processes: the file must reach them), with the same chunks
    as plain mode and the tokenizer named in each record's `chunker`."""
    path = tokenizer_path("all-MiniLM-L6-v2")
    texts = [p.read_text(encoding="utf-8")[:1500] for p in sorted(CORPUS.glob("*.*")) if p.name != "SOURCES.md"][:3]
    docs = tmp_path / "docs.jsonl"  # more than a task holds, and over TASK_BYTES: both workers get some
    lines = (json.dumps({"id": f"d{i}", "text": texts[i % 3]}) + "\n" for i in range(TASK_DOCS + 250))
    docs.write_text("".join(lines), encoding="utf-8")
    assert docs.stat().st_size > TASK_BYTES
    out = run(str(docs), "--tokenizer", str(path), "--max-tokens", "120", "--jobs", jobs)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows and not any("error" in r for r in rows)
    assert {r["chunker"] for r in rows} == {rows[0]["chunker"]} and "encoding=all-MiniLM-L6-v2.json" in rows[0]["chunker"]
    plain = tmp_path / "first.txt"
    plain.write_text(texts[0], encoding="utf-8")
    alone = run(str(plain), "--tokenizer", str(path), "--max-tokens", "120")
    expected = [(r["start"], r["end"], r["token_count"]) for r in map(json.loads, alone.stdout.splitlines())]
    assert [(r["start"], r["end"], r["token_count"]) for r in rows if r["doc_id"] == "d0"] == expected
