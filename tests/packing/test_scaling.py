"""Linear time on adversarial shapes, checked without a clock: the number of
Python function calls a run makes is deterministic, and it grows about 4x when
the text grows 4x if the work is linear (16x if quadratic). Timings of the same
shapes at 1, 4 and 16 MB are in `./dev bench --adversarial`."""
from __future__ import annotations

import sys

import pytest

import chunkwise
from chunkwise.text import graphemes
from conftest import assert_ends_in_a_child, assert_invariants


def python_calls(fn) -> int:
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


def growth(make, run, small: int) -> float:
    """Calls for a 4x larger text over calls for the small one (after a warm-up run)."""
    run(make(small))  # build tokenizers and caches first
    a = python_calls(lambda: run(make(small)))
    b = python_calls(lambda: run(make(4 * small)))
    return b / a


FLAGS = "🇩🇪🇫🇷🇯🇵🇧🇷"


def flag_run(n: int) -> str:
    return (FLAGS * (n // len(FLAGS) + 1))[:n]


def heading_lines(n: int) -> str:
    return ("# Heading line\n" * (n // 15 + 1))[:n]


@pytest.mark.parametrize("strategy", ["tokens", "smart"])
def test_flag_runs_are_linear(backend, strategy):
    assert growth(flag_run, lambda t: chunkwise.chunk(t, max_tokens=64, overlap=8, strategy=strategy), 6000) < 5


def test_is_boundary_in_a_flag_run_does_not_walk_the_run():
    text = flag_run(200_000)
    run = lambda: [graphemes.is_boundary(text, i) for i in range(199_000, 199_100)]  # noqa: E731
    assert python_calls(run) < 1000  # was a walk back over the whole run at every call
    assert [graphemes.is_boundary(text, i) for i in range(10)] == [True, False] * 5
    assert graphemes.is_boundary("x" + text, 1) and not graphemes.is_boundary("x" + text, 2)


@pytest.mark.parametrize("strategy", ["markdown", "smart"])
def test_heading_only_text_is_linear(backend, strategy):
    run = lambda t: chunkwise.chunk(t, max_tokens=64, overlap=8, strategy=strategy)  # noqa: E731
    assert growth(heading_lines, run, 6000) < 5
    text = heading_lines(3000)
    result = chunkwise.chunk_document(text, max_tokens=64, overlap=8, strategy=strategy)
    assert_invariants(text, result.chunks, 64, "cl100k_base", 8)


def test_a_document_of_headings_takes_little_memory_per_heading():
    """16 MB of heading lines (a million headings) peaked at 535 MB with tiktoken
    (issue 9: at most 300): the outline kept every line's match while it was built,
    and each heading's own dict, title and path. Measured while the outline is built,
    as a peak, per heading."""
    import tracemalloc

    from chunkwise.text.markdown import Outline

    text = heading_lines(600_000)
    Outline(heading_lines(1000))  # (the patterns compiled)
    tracemalloc.start()
    try:
        outline = Outline(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(outline.headings) == 40_000
    assert peak / len(outline.headings) < 200, peak / len(outline.headings)  # bytes; was 417


def test_the_last_paragraph_cut_of_a_long_blank_line_run_holds_few_matches():
    """A 16 MB blank-line run peaked at 408 MB with tiktoken (issue 9: at most 300):
    the last paragraph break before an offset in the run was found by listing every
    match up to the run's end (a cut at a match's start scans to the end of its
    whitespace), one every 8 characters. Measured as a tracemalloc peak of that
    search in 2 MB of blank lines (was 31 MB)."""
    import tracemalloc

    from chunkwise.text.markdown import Outline
    from chunkwise.types import PARAGRAPH
    from chunkwise.text.separators import Separators

    text = "Start.\n" + "   \n" * 500_000 + "End."
    seps = Separators(text, Outline(text))
    seps.last(PARAGRAPH, 1, 100)  # (the pattern compiled)
    tracemalloc.start()
    try:
        found = [seps.last(PARAGRAPH, 1, hi) for hi in (5000, 5001, 1_000_002)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == [4994, 4994, 1_000_002], found  # (the matches start at every other line break)
    assert peak < 1 << 20, peak


# Runs that a regex tried a match from each character of, scanning the rest of the
# run each time (all in C: no Python calls to count). Only where one token holds many
# characters does a chunk's window hold a long run: periods (40,000 took 25 s), and a
# heading's long run of spaces (a lazy title before "[ \t]*$", "[ \t]+#+$" for closing hashes).
# Or where a pattern runs once per line: blanks a table's delimiter row, a YAML key, a TOML
# table header or a JavaScript name gave back one by one to the next run of blanks (20,000
# took 5.6 s, 0.5 s, 0.9 s and 1.2 s); a declaration's pattern read on past its line to the
# text's end; a CSV's rows each asked whether text followed them by copying the rest; a
# definition's label looked for a called name from each letter of a long name, and for the
# ">" of a generic from each "<" (10,000 letters took 6 s); a tag's name gave back its letters
# one by one to its attributes (32,000 took 2.5 s); each chunk after a deep block that had
# closed walked up all its ended definitions (512 kB: 7 s). Each:
# the text, and the language it is read as (None: prose).
RESCANNED_RUNS = {
    "periods": ('"." * 400_000', None),
    "spaces in a title": ('"# x" + " " * 400_000 + "y\\n"', None),
    "spaces before hashes": ('"# x" + " " * 400_000 + "#y\\n"', None),
    "spaces after a table's delimiter row": ('"a | b\\n|---" + " " * 400_000 + "x\\n"', None),
    "spaces in a YAML key": ('"key: 1\\na" + " " * 400_000 + "b\\n"', "yaml"),
    "spaces in a TOML table header": ('"[a" + " " * 400_000 + "b\\nx = 1\\n"', "toml"),
    "spaces after a JavaScript name": ('"x" + " " * 400_000 + "z\\n"', "javascript"),
    "TypeScript annotations with no '=' after them": ('"const a: b\\n" * 40_000', "typescript"),
    "TypeScript 'declare const' lines with no '=' after them": ('"declare const a: string;\\n" * 40_000', "typescript"),
    "TypeScript annotations after a form feed": ('"\\fconst a: b\\n" * 40_000', "typescript"),
    "text after a deep block that closed": ('"function a(){\\n" * 100_000 + "}\\n" * 100_000 + "x;\\n" * 400_000', "javascript"),
    "a long HTML tag name": ('"<" + "a" * 400_000', "html"),
    "a long XML closing tag name": ('"</" + "a" * 400_000', "xml"),
    "Rust visibilities with no ')' after them": ('"pub(\\n" * 200_000', "rust"),
    "a long name in a signature with no '(' after it": ('"class A extends " + "x" * 400_000 + " {\\n}\\n"', "typescript"),
    "many '<' in a signature with no '(' after them": ('"class A extends " + "x<" * 200_000 + " {\\n}\\n"', "java"),
    "blank lines in a CSV": ('"a,b\\n" + "\\n" * 1_000_000 + "1,2\\n"', "csv"),
}


@pytest.mark.parametrize("name", sorted(RESCANNED_RUNS))
def test_runs_a_pattern_could_rescan_end_at_once(name):
    """400,000 characters end in a few seconds, contract checks included (linear); the
    rescans took far longer than the 120 s the child process is given, so the old code
    fails instead of hanging the suite. Not a timing: a check that it ends."""
    text, language = RESCANNED_RUNS[name]
    # (smart on a text read as code is the code strategy: once is enough)
    strategies = ("smart", "markdown") if language is None else ("smart",) if chunkwise.Document("", language).is_code else ("smart", "code")
    code = ("import chunkwise; from conftest import assert_invariants; "
            f"text = {text}; "
            f"[assert_invariants(text, chunkwise.chunk(text, max_tokens=64, strategy=s, language={language!r}), 64, 'cl100k_base', 8)"
            f" for s in {strategies!r}]")
    assert_ends_in_a_child(code)
