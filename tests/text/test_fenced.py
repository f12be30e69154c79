"""Markdown with code: a fenced block whose info string names a language is cut
like that language's code (fenced.py), on hand-made traps and on real files."""
from __future__ import annotations

from bisect import bisect_left, bisect_right

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.packing.strategies import OWN_STRATEGIES
from chunkwise.code.scan import scan
from chunkwise.code.structure import CODE
from chunkwise.code.languages import fence_language
from chunkwise.text.markdown import scan_markdown
from chunkwise.text.separators import trim_end
from conftest import CORPUS, assert_invariants

CODE_CORPUS = CORPUS.parent / "code-corpus"

PY = '''def first(a):
    """Doc. It has sentences. Many of them.

    And a blank line. In the string.
    """
    x = [
        1, 2,
        3,
    ]
    return a


class Second:
    """Another. One."""

    def m(self):
        # A comment. With sentences.
        return 2

    def n(self):
        return 3
'''
JS = "function f() {\n  const s = `A template.\n\nIt goes on. And on.`;\n  /* A comment.\n\n  Still. */\n  return s;\n}\n\n"


def fenced_text(info: str, body: str, times: int = 3) -> str:
    return f"# Title\n\nSome prose. Two sentences.\n\n```{info}\n{body * times}```\n\nAfter. The end.\n"


def block_report(text: str, chunks) -> dict:
    """For the chunk ends inside fenced blocks of a known language: how many, how
    many at a line end outside strings and comments, and how many inside a string
    or comment (or a line) while such a line end was in reach."""
    inside = at_code_line_end = missed = 0
    for fence in scan_markdown(text)[1]:
        language = fence_language(fence.info)
        if language is None or fence.body_end <= fence.body:
            continue
        body = text[fence.body : fence.body_end]
        structure = scan(body, language)
        nls = [fence.body + nl for nl in structure.nls]
        for n, c in enumerate(chunks[:-1]):
            prev_end = chunks[n - 1].end if n else 0
            if not fence.start <= c.end < fence.end:
                continue
            inside += 1
            k = bisect_left(nls, c.end)
            if k < len(nls) and not text[c.end : nls[k]].strip() and structure.states[k] == CODE:
                at_code_line_end += 1
                continue
            # (a cut that would leave the chunk ending with the lone opening fence line is none)
            floor = max(c.start, prev_end, fence.body - 1)
            for i in range(bisect_right(nls, floor), bisect_left(nls, c.end)):
                if structure.states[i] == CODE and trim_end(text, c.start, nls[i]) > floor:
                    missed += 1
                    break
    return {"inside": inside, "at_code_line_end": at_code_line_end, "missed": missed}


def test_a_blank_line_after_the_opening_fence_is_no_missed_cut():
    """A cut there would end a chunk with the opening fence alone: the fence rule forbids it."""
    text = "```python\n\nProse. More prose.\n"
    result = chunkwise.chunk_document(text, max_tokens=8, overlap=0)
    assert block_report(text, result.chunks)["missed"] == 0


@pytest.mark.parametrize("info, body", [("python", PY), ("py", PY), ("js", JS), ("{.javascript}", JS), ("mjs", JS)])
@pytest.mark.parametrize("max_tokens", [24, 32, 48, 64, 96])
def test_a_fenced_block_is_cut_as_its_code(info, body, max_tokens):
    """Never inside a string or comment while a line end outside one fits (here one
    always does), never after the opening fence or before the closing one, and a
    chunk that starts inside the block keeps its indentation."""
    text = fenced_text(info, body)
    for overlap in (0, 8):
        chunks = chunkwise.chunk(text, max_tokens=max_tokens, overlap=overlap)
        assert_invariants(text, chunks, max_tokens, "cl100k_base", overlap)
        report = block_report(text, chunks)
        assert report["inside"] > 0 and report["missed"] == 0, report
        if not overlap:  # (an overlap can leave only a string's line ends past the last chunk's end)
            assert report["at_code_line_end"] == report["inside"], report
        for c in chunks:
            assert not c.text.rstrip().endswith(f"```{info}"), c.text
            assert not c.text.startswith("```\n"), c.text
            assert c.boundary != "sentence" and c.boundary != "phrase"
        starts = [c.start for c in chunks]
        indented = [s for s in starts if text.startswith("    ", s) or text.startswith("  ", s)]
        assert all(text[s - 1] == "\n" for s in indented)


def test_a_fenced_block_prefers_to_cut_between_definitions():
    functions = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y * {i}\n\n\n" for i in range(30))
    text = fenced_text("python", functions, times=1)
    chunks = chunkwise.chunk(text, max_tokens=64, overlap=0)
    inside = [c for c in chunks[:-1] if "def f" in c.text and text.find("```python") < c.end < text.rfind("```")]
    assert inside and all(c.boundary == "definition" for c in inside), [c.boundary for c in inside]
    assert all(c.text.startswith(("def f", "# Title")) for c in chunks[:-1])


def test_blocks_without_a_known_language_stay_prose():
    body = "One sentence here. Another one there. " * 40 + "\n"
    for info in ("", "text", "terminal", "klingon"):
        text = fenced_text(info, body, times=1)
        assert "sentence" in {c.boundary for c in chunkwise.chunk(text, max_tokens=40, overlap=0)}, info


def test_fence_languages():
    assert fence_language("python") == "python" and fence_language("py title='a.py'") == "python"
    assert fence_language("rust,ignore") == "rust" and fence_language("{.go}") == "go"
    assert fence_language("mjs") == "javascript" and fence_language("C++") == "cpp" and fence_language("TS") == "typescript"
    assert fence_language("") is None and fence_language("text") is None and fence_language("console") is None
    assert fence_language("markdown") is None and fence_language("md") is None  # Markdown is not code


@pytest.mark.parametrize("path", [CODE_CORPUS / "clippy-README.md", CORPUS / "node-net.md"], ids=lambda p: p.name)
@pytest.mark.parametrize("max_tokens", [128, 256, 512])
def test_real_markdown_with_code(path, max_tokens):
    text = path.read_text(encoding="utf-8")
    result = chunkwise.chunk_document(text, max_tokens=max_tokens)
    assert_invariants(text, result.chunks, max_tokens, "cl100k_base", result.settings.overlap)
    assert block_report(text, result.chunks)["missed"] == 0


_PIECES = st.sampled_from([
    "```python\n", "```js\n", "```go\n", "```\n", "~~~sql\n", "~~~\n", "Prose. More prose.\n", "\n", "\n\n", "    ",
    "def f(a):\n", "    return a\n", "class C:\n", "s = '''One. Two.\n\nThree.'''\n", "x = f(a,\n      b)  # A. B.\n",
    "g(`a.\n\n${b}. c`) /* d.\ne */\n", "func F() {\n", "}\n", "-- A. B.\nSELECT 'x.\n\ny';\n", "# Heading\n",
    "word ", "sentence. ", '"unclosed. string\n',
])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(_PIECES, max_size=80).map("".join), max_tokens=st.integers(8, 80), overlap=st.integers(0, 20),
       strategy=st.sampled_from(OWN_STRATEGIES))  # (the reference keeps LangChain's ways: test_langchain.py)
def test_fenced_code_keeps_the_contract_and_cuts_outside_strings(text, max_tokens, overlap, strategy):
    result = chunkwise.chunk_document(text, max_tokens=max_tokens, overlap=overlap, strategy=strategy)
    assert_invariants(text, result.chunks, result.settings.max_tokens, "cl100k_base", result.settings.overlap)
    if strategy == "smart":
        assert block_report(text, result.chunks)["missed"] == 0


# -- fences as CommonMark reads them ------------------------------------------------


def test_inline_code_of_three_backticks_opens_no_fence():
    """A backtick fence's info string holds no backtick (CommonMark 4.5): ```pip install x```
    on one line is inline code, and the headings after it are headings."""
    text = "# Intro\n\nRun this first:\n```pip install x```\n\n# Install\n\nSteps here.\n\n# Usage\n\nMore.\n"
    chunks = chunkwise.chunk(text, max_tokens=8, overlap=0)
    assert [c.headings for c in chunks][-2:] == [("Install",), ("Usage",)], [(c.text, c.headings) for c in chunks]
    assert scan_markdown("```a`b\nx\n")[1] == [] and len(scan_markdown("~~~a`b\nx\n")[1]) == 1  # (tildes may)


@pytest.mark.parametrize("info", ["python", "js", ""])
def test_a_chunk_never_ends_with_a_lone_opening_fence_or_starts_with_a_lone_closing_one(info):
    """A blank line right after the opening fence (or right before the closing one) is
    no cut: the chunk before it would hold only the fence line."""
    body = {"python": PY, "js": JS, "": "Words in a block. More of them.\n"}[info]
    text = f"# Title\n\nSome prose. Two sentences.\n\n```{info}\n\n{body * 2}\n```\n\nAfter. The end.\n"
    (fence,) = scan_markdown(text)[1]
    opening_end, closing_start = fence.body - 1, fence.body_end + 1
    for max_tokens in range(16, 129):
        for overlap in (0, 8):
            chunks = chunkwise.chunk(text, max_tokens=max_tokens, overlap=overlap)
            assert all(c.end != opening_end for c in chunks), max_tokens
            assert all(c.start != closing_start for c in chunks), max_tokens


_FENCE_LINES = st.sampled_from([
    "```", "```python", "````", "~~~", "~~~js", "```pip install x```", "``` a `b` ```", "```a`b", "~~~a`b", "``", " ```",
    "   ~~~", "    ```", "# Heading", "## Sub #", "text", "", "`````", "``` ", "~~~~ ",
])


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_FENCE_LINES, max_size=30))
def test_fences_and_headings_are_commonmarks(lines):
    """Fenced blocks and ATX headings as a CommonMark parser (markdown-it-py) finds them,
    on random runs of fence lines, backtick runs and headings."""
    from markdown_it import MarkdownIt

    text = "\n".join(lines) + "\n"
    headings, fences = scan_markdown(text)
    tokens = MarkdownIt("commonmark").parse(text)
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    assert [text.count("\n", 0, f.start) for f in fences] == [t.map[0] for t in tokens if t.type == "fence"]
    assert [text.count("\n", 0, h.start) for h in headings] == [t.map[0] for t in tokens if t.type == "heading_open"]
    assert all(line_starts[t.map[0]] == f.start for t, f in zip([t for t in tokens if t.type == "fence"], fences))


def test_an_overlap_never_starts_inside_a_table_row_beside_fenced_code():
    """Where the overlap's range meets a fenced block, its unit starts come from the block's
    cuts and the prose's; a start inside a table row is dropped there too (it was not)."""
    text = ("```python\ny = 3\nx = 2\nx = 2\nx = 2\n```\n\n| a | b |\n|---|---|\n| Epsilon zeta. | Gamma eta. |\n\n"
            "```python\nx = 2\nx = 2\nx = 2\ndef f(x):\n    return x + 1\n```\n\n| a | b |\n|---|---|\n"
            "| Theta beta zeta. | Eta eta eta. |\n| Gamma gamma. Alpha delta theta theta. | Alpha. |\n"
            "| Alpha zeta. | Zeta zeta eta delta. |\n| Zeta delta beta. | Theta alpha gamma. |\n\n")
    doc = chunkwise.Document(text)
    chunks = doc.chunk(max_tokens=64, overlap=24).chunks
    assert sum(c.overlap_tokens > 0 for c in chunks) >= 2
    assert [c.text[:14] for c in chunks if doc.separators.tables.inside_row(c.start)] == []
