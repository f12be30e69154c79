"""Files in a legacy codec (issue 27, defect 7): when UTF-8 fails, the likely codec is
named (decode_bytes' `suggested`, the message), `--input-encoding auto` reads the file
in it and says which, and corpus mode's refusal names it too. The bytes are made here
by Python's own codecs."""
from __future__ import annotations

import codecs
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import chunkwise
from chunkwise.io import decode
from chunkwise.io.decode import LEGACY_ENCODINGS, TEXT_ENCODINGS, decode_bytes, decode_strict, detect_legacy

ROOT = Path(__file__).resolve().parent.parent

# A paragraph in each codec's language, as a user's file would hold it.
SAMPLES = {
    "cp1251": "# Отчёт\n\nПривет, мир. Съешь же ещё этих мягких французских булок, да выпей чаю. "
              "Это простой текст на русском языке; он нужен, чтобы проверить определение кодировки файла.\n",
    "shift_jis": "# 報告\n\nこれは日本語のテキストです。ファイルの文字コードを判定するために使います。"
                 "二行目のテキストもあります。\n",
    "iso8859-1": "Le café est très bon. Voilà une phrase en français, avec des accents : élève, garçon, "
                 "naïve. Où est la gare ? À bientôt, ma chère.\n",
    "koi8-r": "Это простой текст на русском языке. Он нужен, чтобы проверить определение кодировки файла.\n",
    "cp1250": "Příliš žluťoučký kůň úpěl ďábelské ódy. Zażółć gęślą jaźń, řekl pan Novák.\n",
}


def run(*args, stdin: bytes = b""):
    return subprocess.run([sys.executable, "-m", "chunkwise", *map(str, args)], input=stdin, capture_output=True)


@pytest.mark.parametrize("codec", list(SAMPLES))
def test_the_likely_codec_is_named_and_auto_reads_the_file_in_it(codec):
    text = SAMPLES[codec]
    data = text.encode(codec)
    read, info = decode_bytes(data)  # the default: UTF-8, repaired, and the likely codec named
    assert info["encoding"] == "utf-8" and info["replaced"] > 0
    suggested = info["suggested"]
    assert suggested in LEGACY_ENCODINGS
    assert data.decode(suggested) == text, f"{suggested} reads {codec}'s bytes as they were written"
    assert f"It looks like {decode.describe_encoding(suggested)}." in info["message"]
    auto, info = decode_bytes(data, "auto")
    assert auto == text and info["encoding"] == suggested and info["replaced"] == 0
    assert f"read as {decode.describe_encoding(suggested)}" in info["message"]
    assert decode_strict(data, "auto") == text


def test_latin_1_text_is_offered_as_windows_1252_not_1250():
    """charset-normalizer finds French as likely in Windows-1250 as in Windows-1252
    (by its measures); the tie goes to the more widespread codec, which reads it right."""
    data = SAMPLES["iso8859-1"].encode("latin-1")
    assert detect_legacy(data) == "cp1252"


def test_utf_8_with_a_few_bad_bytes_stays_utf_8():
    data = ("Café, naïve, élève. " * 20).encode() + b"\xff stray byte"
    text, info = decode_bytes(data, "auto")
    assert info["encoding"] == "utf-8" and info["suggested"] is None and info["replaced"] == 1
    assert text.startswith("Café")


def test_utf_8_and_utf_16_are_read_as_before_under_auto():
    text = "Grüße, мир, 世界.\n"
    assert decode_bytes(text.encode(), "auto") == decode_bytes(text.encode())
    bom16 = codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    assert decode_bytes(bom16, "auto")[0] == text and decode_bytes(bom16, "auto")[1]["encoding"] == "utf-16-le"
    assert decode_bytes(text.encode())[1]["suggested"] is None


def test_the_cli_auto_reads_a_cp1251_file_and_says_which_codec(tmp_path):
    text = SAMPLES["cp1251"]
    f = tmp_path / "report.md"
    f.write_bytes(text.encode("cp1251"))
    plain = run(f)
    assert plain.returncode == 0
    assert b"It looks like Windows-1251 (Cyrillic), cp1251." in plain.stderr
    out = run("--input-encoding", "auto", f)
    assert out.returncode == 0, out.stderr
    assert out.stderr.decode().strip() == (
        f"chunkwise: {f}: The file is not UTF-8; it was read as Windows-1251 (Cyrillic), cp1251, the likely encoding."
    )
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert records == [c.to_dict() for c in chunkwise.chunk(text, language="markdown")]
    assert out.stdout == run("--input-encoding", "cp1251", f).stdout
    # standard input too
    assert run("--input-encoding", "auto", "--language", "markdown", stdin=text.encode("cp1251")).stdout == out.stdout


def test_corpus_mode_names_the_likely_codec_and_auto_reads_it(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_bytes(SAMPLES["shift_jis"].encode("shift_jis"))
    refused = json.loads(run(folder).stdout)
    assert "it looks like Shift JIS (Japanese), shift_jis: --input-encoding auto reads it so" in refused["error"]
    out = run(folder, "--input-encoding", "auto")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["text"] == SAMPLES["shift_jis"].rstrip("\n")  # (a chunk, without the last line break)


def test_the_page_offers_the_codecs_describe_names():
    """One list: every codec is a canonical Python name (what check_encoding returns, so
    the page can show the one used as chosen), and the page reads the list from describe()."""
    assert [e["name"] for e in chunkwise.describe()["input_encodings"]] == [name for name, _ in TEXT_ENCODINGS]
    for name, _ in TEXT_ENCODINGS:
        assert codecs.lookup(name).name == name
    source = (ROOT / "app" / "controls" / "source.js").read_text()
    assert "input_encodings" in source
    assert not re.search(r'"cp1251"', (ROOT / "app" / "openfile.js").read_text()), "no second list in the page"


def test_auto_is_an_input_encoding_the_cli_accepts():
    assert decode.check_encoding("auto") == "auto"
    assert "auto" in subprocess.run([sys.executable, "-m", "chunkwise", "--help"], capture_output=True, text=True).stdout
