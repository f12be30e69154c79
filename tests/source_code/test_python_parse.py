"""Which Python code chunkwise hands to Python's own parser (`ast`), and which the
scanner reads instead: the choice must be the same on CPython 3.11 (the CLI) and
Pyodide's Python 3.14 (the page), and no text may overflow the page's stack.
(code/python_ast.py: _parser_may_read; issue 29, findings 1 and 10.)"""
from __future__ import annotations

import ast
import pathlib
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkwise.code import python_ast
from chunkwise.code.python_ast import _DEPTH_LIMIT, _parser_may_read
from chunkwise.code.scan import scan
from code_samples import SAMPLES
from conftest import TESTS

HEAD = "import os\n\n\ndef main():\n    return os.getcwd()\n\n\n"


def _nested_ifs(n: int, body: str) -> str:
    return "".join(" " * i + "if y:\n" for i in range(n)) + " " * n + body + "\n"


# Each nests Python's parser (or ast's conversion of its result) about a thousand
# levels deep: in the page's worker that overflowed the browser's stack and killed
# Pyodide ("Maximum call stack size exceeded"); CPython parsed most of them.
TOO_DEEP = {
    "unary minus": "x = " + "-" * 1000 + "y\n",
    "not": "x = " + "not " * 1000 + "y\n",
    "tilde": "x = " + "~" * 1000 + "y\n",
    "lambda": "x = " + "lambda: " * 1000 + "y\n",
    "lambdas with parameters": "x = " + "lambda a, b=1: " * 1000 + "y\n",  # (a comma ends no lambda)
    "lambdas and or": "x = " + "lambda: y or y if y else " * 1000 + "y\n",  # (a lambda takes in the rest)
    "await": "async def f():\n    return " + "await " * 1000 + "y\n",
    "parentheses": "x = " + "(" * 150 + "y" + ")" * 150 + "\n",
    "brackets": "x = " + "[" * 150 + "y" + "]" * 150 + "\n",
    "braces": "x = " + "{1: " * 150 + "y" + "}" * 150 + "\n",
    "minus and parentheses": "x = " + "-(" * 150 + "y" + ")" * 150 + "\n",
    "binary chain": "x = " + "y + " * 2000 + "y\n",
    "shift chain": "x = " + "y << " * 2000 + "y\n",
    "power chain": "x = " + "y ** " * 1000 + "y\n",
    "conditional chain": "x = " + "y if y else " * 1000 + "y\n",
    "conditionals and or": "x = " + "y if y else y or " * 1000 + "y\n",
    "conditionals after numbers": "x = " + "0 if 1else " * 500 + "0 if 0x1else " * 500 + "y\n",  # 1 else, 0x1 else
    "attribute chain": "x = y" + ".a" * 2000 + "\n",
    "call chain": "x = y" + "()" * 2000 + "\n",
    "subscript chain": "x = y" + "[0]" * 2000 + "\n",
    "string concatenation": "x = (" + " +\n".join('"abc"' for _ in range(2000)) + ")\n",
    "elif chain": "if y:\n    pass\n" + "elif y:\n    pass\n" * 1000,
    "nested blocks and minus": _nested_ifs(90, "x = " + "-" * 100 + "y"),
    "f-string fields": "x = f'{" + "(" * 150 + "y" + ")" * 150 + "}'\n",
    "nested f-strings": "x = f'''{f\"\"\"{f'{f\"{" + "-" * 1000 + "y}\"}'}\"\"\"}'''\n",
}


@pytest.mark.parametrize("name", sorted(TOO_DEEP))
def test_code_nested_too_deep_for_the_pages_stack_is_never_parsed(name, monkeypatch):
    text = HEAD + TOO_DEEP[name]
    parsed, parse = [], ast.parse
    monkeypatch.setattr(ast, "parse", lambda *a, **k: parsed.append(1) or parse(*a, **k))
    structure = scan(text, "python")
    assert parsed == [], "ast.parse was given it"
    assert not _parser_may_read(text)
    assert structure.definitions[0].label == "def main"  # the scanner's


def test_the_depth_is_measured_in_linear_time():
    # every shape at 400,000 characters: a pass that rescans would not finish
    for unit in ("(", "-", "not ", "f'{", "y.", "a" * 50 + "<", "elif y:\n pass\n", "'", '"""'):
        _parser_may_read(unit * (400_000 // len(unit)))


def test_real_code_is_parsed():
    corpus = TESTS
    for text in (SAMPLES["python"], (corpus / "code-corpus" / "shlex.py").read_text(encoding="utf-8"),
                 (corpus / "corpus" / "argparse.py.txt").read_text(encoding="utf-8")):
        assert _parser_may_read(text)
    # nesting that real code has, well inside the limit
    deep = _nested_ifs(12, "x = {'a': [f(-b, c=(d or e)) for e in g.h(i)[1:2]], 'b': f'{x!r:>{w}} {y[\"k\"]}'}")
    assert _parser_may_read(deep)


@pytest.mark.parametrize("text", [
    "x = 1\n\u1c89 = 2\n",  # CYRILLIC SMALL LETTER TJE, new in Unicode 16: CPython 3.11 rejects it, 3.14 parses it
    "def f():\n    return \u1c89\n",
    "\u30fb = 1\n",  # KATAKANA MIDDLE DOT: an identifier character only from Unicode 15.1 on
    "\u03c0 = 3.14159\n",  # even a letter every Unicode knows (one rule, no table of versions)
    "f'{\u03c0}'\n",
])
def test_a_character_outside_ascii_in_code_keeps_the_parser_away(text):
    # Pyodide's Python 3.14 (Unicode 16) parsed the first three, CPython 3.11 (Unicode 14)
    # raised SyntaxError and read them with the scanner: the page's chunks differed from
    # the CLI's. Now both read any non-ASCII identifier with the scanner.
    assert not _parser_may_read(text)
    structure = scan("def main():\n    pass\n\n" + text, "python")
    assert structure.definitions[0].label == "def main"


@pytest.mark.parametrize("text", [
    "x = '\u1c89'  # \u1c89 in a string and a comment\n",
    'x = """\n\u1c89\n"""\n',
    "x = f'\u1c89 {y} \u1c89'\n",
])
def test_characters_outside_ascii_in_strings_and_comments_are_fine(text):
    assert _parser_may_read(text)


@pytest.mark.parametrize("text, readable", [
    ("f'{x!r:>{w}} {y[1:2]}'\n", True),
    ("f'''{x['a']} {f\"{y}\"}'''\n", True),  # other quotes inside: Python 3.11 reads it
    ("f'\\N{BULLET} {x}'\n", True),
    ('f"{x["a"]}"\n', False),  # its own quote inside a field: only 3.12 on
    ("f'{x # no\n}'\n", False),
    ("f'{x)}'\n", False),
])
def test_f_strings_that_only_newer_pythons_read_keep_the_parser_away(text, readable):
    assert _parser_may_read(text) is readable


def _depth(tree: ast.AST) -> int:
    """How deep the tree nests (its context markers, Load and Store, not counted)."""
    deepest, todo = 0, [(tree, 1)]
    while todo:
        node, d = todo.pop()
        deepest = max(deepest, d)
        todo.extend((c, d + 1) for c in ast.iter_child_nodes(node) if not isinstance(c, ast.expr_context))
    return deepest


_WRAPS = {
    "minus": lambda t: "-" + t, "not": lambda t: "not " + t, "paren": lambda t: f"({t})",
    "list": lambda t: f"[{t}, 1]", "call": lambda t: f"f({t})", "kwarg": lambda t: f"f(a={t})",
    "plus_left": lambda t: f"{t} + y", "plus_right": lambda t: f"y * {t}", "pow": lambda t: f"y ** {t}",
    "attr": lambda t: f"{t}.a", "subscript": lambda t: f"{t}[y:1]", "called": lambda t: f"{t}()",
    "lambda": lambda t: f"lambda a, b=1: {t}", "lambda_or": lambda t: f"lambda: y or y if y else {t}",
    "ifelse": lambda t: f"y if y else {t}", "ifelse_or": lambda t: f"y if 1else y or {t}", "and": lambda t: f"y and {t} or y",
    "compare": lambda t: f"y < {t} < y", "comprehension": lambda t: f"[{t} for y in z if y]", "dict": lambda t: f"{{1: {t}}}",
    "star": lambda t: f"[*{t}]", "await": lambda t: f"await {t}", "fstring": None,
}


def _fstring(t: str) -> str | None:
    for q in ('"""', "'''", '"', "'"):
        if q[0] not in t and "\\" not in t and "#" not in t:
            return f"f{q}{{{t}}}{q}"
    return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(runs=st.lists(st.tuples(st.sampled_from(sorted(_WRAPS)), st.integers(1, 80)), max_size=10), blocks=st.integers(0, 40),
       elifs=st.integers(0, 60))
def test_what_the_depth_check_lets_through_nests_no_deeper_than_its_limit(runs, blocks, elifs):
    """The check measures nesting in units of one unary operator; an ast that it
    lets through is never deeper than that many levels (and a few for the module
    and statement around it)."""
    expr = "x"
    for w in (w for w, count in runs for _ in range(count)):
        expr = (_fstring(expr) or expr) if w == "fstring" else _WRAPS[w](expr)
    body = "if y:\n    pass\n" + "elif y:\n    pass\n" * elifs + "else:\n    z = " + expr
    text = "async def g():\n" + "".join(" " * (i + 1) + "if y:\n" for i in range(blocks))
    text += "".join(" " * (blocks + 1) + line + "\n" for line in body.split("\n"))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "1else": a DeprecationWarning in 3.11, a SyntaxWarning from 3.12 on
            tree = ast.parse(text, feature_version=python_ast.AST_GRAMMAR)
    except (SyntaxError, RecursionError, MemoryError):
        return
    if _parser_may_read(text):
        assert _depth(tree) <= _DEPTH_LIMIT + 8
