"""Hard-wrapped text read as prose (a soft wrap is no line break), the one judge of
"starts mid-sentence", and overlaps that never start mid-sentence."""
from __future__ import annotations

import pathlib

import pytest

import chunkwise
from chunkwise.io import stats
from chunkwise.text.separators import is_soft_wrap
from conftest import CORPUS

APACHE = pathlib.Path("/usr/share/common-licenses/Apache-2.0")  # Debian's base-files
PROSE = {
    "gpl-3.txt": (CORPUS / "gpl-3.txt").read_text(encoding="utf-8"),
    "node-net.md": (CORPUS / "node-net.md").read_text(encoding="utf-8"),
    "russian.txt": (CORPUS / "russian.txt").read_text(encoding="utf-8"),
    "Apache-2.0": APACHE.read_text(encoding="utf-8"),
    # GNU tar's manual page (GPL-3.0-or-later), as man-db shows it at 80 columns:
    # MANWIDTH=80 man tar | col -bx
    "man-tar.txt": (pathlib.Path(__file__).parent / "man-tar.txt").read_text(encoding="utf-8"),
}


@pytest.mark.parametrize("text, soft", [
    ("the preferred form for making modifications,\nincluding but", True),
    # a licence's continuation line is indented, after a line that ran into the width
    ("      \"Source\" form shall mean the preferred form for making modifications,\n      including but", True),
    ("see the informa-\ntion for the file", True),
    ("see the informa\u2010\ntion for the file", True),
    ("long line of text that was hard wrapped by some editor at its width,\r\nand more", True),
    ("A sentence ends here.\nand then", False),
    ("- first item\n- second item", False),
    ("short line,\n    indented code", False),  # an indented line after a short one: a list's, a log's, code's
    ("Heading\nThe next line", False),
    ("2026-11-29 INFO one\n2026-11-29 INFO two", False),
    # letters outside ASCII are the pinned tables' (a line may end or start with one)
    ("une ligne assez longue pour avoir atteint la largeur du café\nété comme", True),
    ("une ligne assez longue pour avoir atteint la largeur, naïve\n  Über alles", False),
    ("une ligne assez longue pour avoir atteint la largeur du texte\nÉté comme", False),
    # a paragraph's first line, continued with a capital: the next line goes on in lowercase
    ("   4. Redistribution. You may reproduce and distribute copies of the\n      Work or Derivative Works"
     " thereof in any medium, with or without\n      modifications, and in Source", True),
    ("  Each version is given a distinguishing version number.  If the\nProgram specifies that a certain"
     " numbered version of the GNU General\nPublic License \"or any later version\" applies to it, you have"
     " the\noption of following", True),  # two lines of capitals before the lowercase
    ("Another server is already listening on the requested address and\n`port`/`path`/`handle`. One way to"
     " handle this would be\nto retry", True),
    # ...but not a definition's body, indented under its term deeper than a list item's text
    ("       --what-if=file, --new-file=file, --assume-new=file\n              Pretend  that  the  target file"
     " has just been modified.  When used\n              with the -n flag", False),
    # ...nor a line whose first word would have fitted on the line before (a title's), a
    # list item, or a line whose own continuation hangs deeper (a stack trace's)
    ("Configuring the server for production use\nThe server reads its settings from the file that\n"
     "lives in /etc and is read once", False),
    ("1. Install the package using the system package manager\n2. Configure the server by editing the main"
     " config file\n   in /etc/server.conf and restart it", False),
    ("2024-01-01 12:00:01 ERROR Request failed for user 1234\nException in thread main"
     " java.lang.NullPointerException\n\tat com.example.Foo.bar(Foo.java:10)", False),
    ("       [(] pattern [ | pattern ] ... ) list ;; ] ... esac\n              A case command first expands"
     " word, and tries to match it\n              against each pattern in turn", False),
])
def test_soft_wraps(text, soft):
    assert is_soft_wrap(text, text.index("\n")) is soft


def test_a_fence_line_is_no_continuation():
    text = ("a line of text that runs long enough to reach the wrap width\n"
            "and goes on in lowercase, as long as the line before it ran\n```\n")
    assert is_soft_wrap(text, text.index("\n"))
    assert not is_soft_wrap(text, text.index("\n```"))


def test_the_judge_flags_a_chunk_that_starts_after_a_soft_wrap():
    text = "First sentence here.\nSecond one starts a line.\n" + "words that wrap at the editor's seventy-two\ncolumn width go on"
    doc = chunkwise.Document(text)
    assert doc.starts_sentence(0) and doc.starts_sentence(text.index("Second"))
    assert not doc.starts_sentence(text.index("column"))  # after a soft wrap: mid-sentence
    assert not doc.starts_sentence(text.index("wrap at"))
    code = chunkwise.Document("def f():\n    x = g(a,\n          b)\n", language="python")
    assert code.starts_sentence(code.text.index("    x"))  # code: any line start


@pytest.mark.parametrize("name", sorted(PROSE))
@pytest.mark.parametrize("strategy", ["smart", "markdown", "paragraphs", "sentences", "topics"])
def test_overlap_never_starts_mid_sentence(name, strategy):
    text = PROSE[name]
    settings = dict(max_tokens=256, overlap=32) if name == "russian.txt" else {}
    result = chunkwise.chunk_document(text, strategy=strategy, **settings)
    numbers = stats.compute(result)
    assert numbers["overlapped_chunks"] > 0
    assert numbers["mid_sentence_overlaps"] == 0, [result.chunks[i].text[:40] for i in result.mid_sentence]
    assert numbers["mid_sentence_starts"] == len(result.mid_sentence)


def test_an_overlap_the_user_asks_to_start_at_a_word_may():
    text = PROSE["russian.txt"]
    unit = chunkwise.chunk_document(text, max_tokens=256, overlap=32)
    word = chunkwise.chunk_document(text, max_tokens=256, overlap=32, overlap_unit="word")
    assert sum(c.overlap_tokens > 0 for c in word.chunks) >= sum(c.overlap_tokens > 0 for c in unit.chunks)
    assert stats.compute(unit)["mid_sentence_overlaps"] == 0


def test_without_a_sentence_start_in_half_the_budget_no_overlap_and_a_warning():
    sentence = "one long sentence " * 60 + "ends. "
    result = chunkwise.chunk_document(sentence * 4, max_tokens=128, overlap=16)
    assert [c.overlap_tokens for c in result.chunks] == [0] * len(result.chunks)  # not half a sentence
    assert result.warnings == ["overlap 16: no chunk repeats text from the one before it: no sentence, line or"
                               " paragraph start lay within half the budget of a chunk's end, and an overlap never"
                               " starts mid-sentence (overlap_unit 'word' starts one at a word)."]
    words = chunkwise.chunk_document(sentence * 4, max_tokens=128, overlap=16, overlap_unit="word")
    assert all(c.overlap_tokens for c in words.chunks[1:])  # as asked: at a word


def test_a_capital_continues_a_hard_wrapped_paragraph_but_not_a_log():
    licence = ("    d) Convey the object code by offering access from a designated\n"
               "    place (gratis or for a charge), and offer equivalent access to the\n"
               "    Corresponding Source in the same way through the same place at no\n")
    second = licence.index("\n", licence.index("\n") + 1)
    assert is_soft_wrap(licence, licence.index("\n")) and is_soft_wrap(licence, second)
    log = "".join(f"2026-11-29T10:00:0{i}Z INFO worker-{i} request id={i} took {i} ms and more\n" for i in range(4))
    assert not any(is_soft_wrap(log, i) for i, ch in enumerate(log) if ch == "\n")
    listing = "Some introduction to the list of things that follows below it\n    Alpha item\n    Beta item\n"
    assert not is_soft_wrap(listing, listing.index("\n"))


@pytest.mark.parametrize("name", sorted(PROSE) + ["argparse.py.txt", "cjk.txt"])
@pytest.mark.parametrize("strategy", chunkwise.STRATEGIES)
@pytest.mark.parametrize("size", [(512, 64), (128, 16), (256, 0)])
def test_the_runs_mid_sentence_list_is_the_judges(name, strategy, size):
    """The packer skips asking the judge where it knows a unit starts: the list must be the judge's."""
    text = PROSE.get(name) or (CORPUS / name).read_text(encoding="utf-8")
    doc = chunkwise.Document(text)
    result = chunkwise.chunk_document(doc, max_tokens=size[0], overlap=size[1], strategy=strategy)
    assert result.mid_sentence == [c.index for c in result.chunks[1:] if not doc.starts_sentence(c.start)]


def finance_report(quarters=6) -> str:
    """A financial statement's shape: short lines of lowercase labels and figures, each
    line a row (no line of it is a hard-wrapped sentence)."""
    rows = ["revenue", "cost of revenue", "gross profit", "research and development", "sales and marketing",
            "general and administrative", "total operating expenses", "operating income", "net income"]
    blocks = []
    for q in range(quarters):
        lines = [f"Quarter {q + 1} results (in millions)"]
        lines += [f"{label} ${1000 + 379 * q + 97 * i:,}" for i, label in enumerate(rows)]
        lines += ["diluted earnings per share 2.1" + str(q), f"employees {12000 + 150 * q:,}"]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def test_short_rows_of_labels_and_figures_are_no_soft_wraps():
    report = finance_report()
    assert is_soft_wrap("research and development $3,027\nsales and marketing", 31) is False
    assert [i for i, ch in enumerate(report) if ch == "\n" and is_soft_wrap(report, i)] == []
    doc = chunkwise.Document(report)
    rows = [i + 1 for i, ch in enumerate(report[:-1]) if ch == "\n" and report[i + 1] != "\n"]
    assert all(doc.starts_sentence(i) for i in rows)
    result = chunkwise.chunk_document(doc, max_tokens=48, overlap=0)
    assert len(result.chunks) > 6
    assert {c.boundary for c in result.chunks} <= {"paragraph", "line", "end"}  # a row is never cut
    assert result.mid_sentence == []
