"""Code-aware chunking on real files (tests/code-corpus/, sources in SOURCES.md)
at 128, 256 and 512 tokens: the contract holds, no cut falls inside a string or
comment while a line end outside one was in reach, most cuts fall between
definitions, no comment becomes a heading, chunks keep their indentation."""
from __future__ import annotations

import pathlib
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.packing.document import Document
from conftest import assert_invariants

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
from codebench import CORPUS, cut_report, files  # noqa: E402  (bench/codebench.py)

FILES = files()
# Languages whose files must cut mostly between definitions at 512 tokens (the
# others are data or markup, where "definitions" are keys or elements).
DEFINITION_HEAVY = {"python", "javascript", "typescript", "java", "c", "cpp", "csharp", "go", "rust", "php", "ruby",
                    "kotlin", "swift", "shell", "sql"}


def test_the_corpus_covers_the_languages():
    languages = {language for language, _ in FILES.values()}
    assert languages >= {"python", "javascript", "typescript", "java", "c", "cpp", "csharp", "go", "rust", "php",
                         "ruby", "kotlin", "swift", "shell", "sql", "html", "xml", "css", "yaml", "toml", "json",
                         "markdown"}
    sources = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    for name in FILES:
        assert f"`{name}`" in sources, f"{name} has no recorded source"


@pytest.mark.parametrize("max_tokens", [128, 256, 512])
@pytest.mark.parametrize("name", sorted(FILES))
def test_code_corpus(name, max_tokens):
    language, text = FILES[name]
    doc = Document(text, language)
    result = chunkwise.chunk_document(doc, max_tokens=max_tokens)
    chunks = result.chunks
    assert_invariants(text, chunks, max_tokens, "cl100k_base", result.settings.overlap)
    if language == "markdown":
        return
    report = cut_report(doc, chunks)
    assert report["missed_line_cuts"] == 0, report
    labels = {d.label for d in doc.structure.definitions}
    for c in chunks:
        # headings are definition paths only: a '#', '//' or '--' comment never is one
        assert set(c.headings) <= labels
        # a chunk starts at its line's start (indentation kept) or, after a cut inside a line, a word
        assert c.start == 0 or text[c.start - 1] == "\n" or not text[c.start].isspace()
        # an overlap starts where a line starts (indentation kept), not mid-line; at 128
        # tokens (16 of overlap) some files' lines are too long for that, and it starts at a word
        if c.overlap_tokens and max_tokens >= 256:
            assert text[text.rfind("\n", 0, c.start) + 1 : c.start].strip(" \t") == "", (c.index, c.text[:40])
    # (a .d.ts declares members without bodies: no nested definitions to cut between)
    if language in DEFINITION_HEAVY and max_tokens == 512 and len(chunks) > 2 and not name.endswith(".d.ts"):
        assert report["between_definitions"] >= 0.5, report


def test_an_overlap_repeats_the_last_definition_whole():
    # Each function is 22 tokens, the overlap asked for 20: the next chunk starts with
    # the previous chunk's last function (a line inside it was the choice before).
    text = "\n\n".join(f"def f{i}(x):\n    y = x * {i} + {i}\n    return y - {i}\n" for i in range(40))
    chunks = chunkwise.chunk(text, max_tokens=100, overlap=20, language="python")
    overlapped = [c for c in chunks if c.overlap_tokens]
    assert len(overlapped) == len(chunks) - 1
    assert all(c.text.startswith("def f") and c.overlap_tokens == 22 for c in overlapped)
    # overlap_unit="word" keeps within the 20 tokens asked for, from a word inside the function
    words = chunkwise.chunk(text, max_tokens=100, overlap=20, language="python", overlap_unit="word")
    assert all(0 < c.overlap_tokens <= 20 and not c.text.startswith("def") for c in words[1:])


def test_a_hash_comment_is_no_heading_in_python_but_a_heading_in_markdown():
    text = "# Section one\n\nx = 1\n\n# Section two\n\ndef f():\n    return 2\n"
    as_python = chunkwise.chunk(text, max_tokens=8, overlap=0, language="python")
    assert all(h == () or h == ("def f",) for h in (c.headings for c in as_python))
    assert as_python[-1].headings == ("def f",)
    as_prose = chunkwise.chunk(text, max_tokens=8, overlap=0)
    assert ("Section two",) in [c.headings for c in as_prose]


def test_smart_on_python_cuts_before_definitions_and_keeps_indentation():
    method = "    def m{i}(self):\n        '''Doc {i}.'''\n        return {i}\n\n"
    text = "class A:\n" + "".join(method.format(i=i) for i in range(30))
    chunks = chunkwise.chunk(text, max_tokens=64, overlap=0, language="python")
    for c in chunks[1:]:
        assert c.text.startswith("    def m"), c.text[:20]
        assert c.headings[0] == "class A" and c.headings[1].startswith("def m")
    assert {c.boundary for c in chunks[:-1]} == {"nested"}


def test_a_long_string_is_cut_at_a_line_end_outside_it_first():
    body = "\n".join(f"line {i} of a long literal" for i in range(60))
    text = f'x = 1\ny = 2\nDOC = """\n{body}\n"""\nz = 3\n'
    chunks = chunkwise.chunk(text, max_tokens=60, overlap=0, language="python")
    assert chunks[0].text == "x = 1\ny = 2"  # before the string, not 60 tokens into it
    assert chunks[0].boundary == "statement"


@pytest.mark.parametrize("text", ["- item\n\xa0the the ", "a = 1\n\u3000b = 2\n", "x = 1\n\x1f\x1f y = 2\n"])
def test_a_chunk_keeps_only_real_indentation(text):
    """Only spaces and tabs (and form feeds) are indentation: a line that starts
    with another blank (no-break space, ideographic space) is entered at its first
    word, and U+001C..U+001F (which the tokenizer counts) are never skipped."""
    for budget in (4, 6, 8):
        chunks = chunkwise.chunk(text, max_tokens=budget, overlap=2, strategy="code")
        assert_invariants(text, chunks, max(budget, 4), "cl100k_base", 2)


@pytest.mark.parametrize(
    "text, settings",
    [
        # ten " \t" pairs of indentation are more than four tokens: the line is entered at its text
        ("def f():\n" + " \t" * 10 + "return 1\n", {"language": "python", "max_tokens": 4, "overlap": 0}),
        ("def f():\n" + " \t" * 10 + "return 1\n", {"strategy": "code", "max_tokens": 4, "overlap": 2}),
        # an open fence's indented line at one character per chunk (found by the invariant test)
        ("```python\n — ", {"strategy": "markdown", "encoding": "chars", "max_tokens": 1, "overlap": 0}),
        ("```python\n  x = 1", {"strategy": "smart", "encoding": "chars", "max_tokens": 2, "overlap": 1}),
    ],
)
def test_indentation_that_leaves_no_room_for_its_line_is_dropped_not_an_error(text, settings):
    chunks = chunkwise.chunk(text, **settings)
    budget = settings["max_tokens"] if settings.get("encoding") == "chars" else max(settings["max_tokens"], 4)
    assert_invariants(text, chunks, budget, settings.get("encoding", "cl100k_base"), settings["overlap"])


@pytest.mark.parametrize("strategy", chunkwise.STRATEGIES)
def test_every_strategy_chunks_code(strategy):
    """Each strategy on code of every language keeps the contract. markdown on
    code (the page's Automatic language reads a .py file as Python) raised
    AttributeError: the code outline had no body_after."""
    for name, (language, text) in sorted(FILES.items()):
        if language == "markdown":
            continue
        text = text[:6000]
        result = chunkwise.chunk_document(text, max_tokens=64, strategy=strategy, language=language)
        assert_invariants(text, result.chunks, 64, "cl100k_base", result.settings.overlap)


class _SearchSpy(str):
    """A text that counts how many characters rfind looks at."""
    searched = 0

    def rfind(self, sub, start=0, end=None):
        end = len(self) if end is None else end
        type(self).searched += max(0, end - start)
        return str.rfind(self, sub, start, end)


def test_a_chunk_start_in_a_long_line_looks_back_no_further_than_its_cut():
    """Every chunk start of a one-line text (minified JavaScript, a one-line JSON block)
    looked back to the text's start for its line start: quadratic (issue 29, finding 13;
    4 MB took 4.5x as long as 2 MB in the page). Now it looks back over the space it
    skipped only."""
    from chunkwise.code.cuts import code_chunk_start

    text = _SearchSpy("x=1;" * 250_000)
    _SearchSpy.searched = 0
    for cut in range(1_000, 1_000_000, 50_000):
        assert code_chunk_start(text, cut) == cut
    assert _SearchSpy.searched < 1000


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from(" \t\n\u00a0\u3000x#"), max_size=30), cut=st.integers(0, 30))
def test_a_chunk_start_is_where_it_was(text, cut):
    """The bounded look back finds what the look back to the text's start found."""
    from chunkwise.code.cuts import _INDENTATION, code_chunk_start
    from chunkwise.unicode.whitespace import skip_space

    cut = min(cut, len(text))
    p = skip_space(text, cut)
    line = text.rfind("\n", 0, p) + 1
    before = p if p == len(text) else (line if line >= cut and _INDENTATION.fullmatch(text, line, p) else p)
    assert code_chunk_start(text, cut) == before
