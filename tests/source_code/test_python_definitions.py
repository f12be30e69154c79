"""Python's definitions are read by the scanner, by indentation, on every Python alike
(the page's and the CLI's), and they are where Python's own parser puts them: the
same line, end and decorators as `ast` says (ast is only the tests' judge here; the
engine never parses, so no code can nest deep enough to break the page's stack)."""
from __future__ import annotations

import ast
import io
import sysconfig
import tokenize
import warnings
from pathlib import Path

import pytest

from chunkwise.code.scan import scan

HEAD = "import os\n\n\ndef main():\n    return os.getcwd()\n\n\n"


def _by_ast(text: str) -> tuple[list[tuple], list[int]]:
    """What Python says of text's definitions, in the scan's terms, judged without the
    scan: ast's spans, nesting and decorators, with the comment lines right above
    each (tokenize's), as (start, end, label, level, parent), and each one's own line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (an invalid escape such as "\d")
        tree = ast.parse(text)
    breaks = [i for i, ch in enumerate(text) if ch == "\n"]

    def offset(line: int) -> int:  # (line counted from 0)
        return breaks[line - 1] + 1 if line > 0 else 0

    comment_lines = {
        tok.start[0] - 1
        for tok in tokenize.generate_tokens(io.StringIO(text).readline)
        if tok.type == tokenize.COMMENT and not tok.line[: tok.start[1]].strip()
    }
    found = []  # (start, end, label, level, enclosing entry or None, own line)

    def visit(body, level, enclosing):
        for node in body:
            entry = enclosing
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kw = {ast.ClassDef: "class", ast.AsyncFunctionDef: "async def"}.get(type(node), "def")
                first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
                while first - 1 in comment_lines:
                    first -= 1
                end = breaks[node.end_lineno - 1] + 1 if node.end_lineno - 1 < len(breaks) else len(text)
                entry = [offset(first), end, f"{kw} {node.name}", level, enclosing, offset(node.lineno - 1)]
                found.append(entry)
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                if isinstance(getattr(node, field, None), list):
                    visit(getattr(node, field), level + (entry is not enclosing), entry)

    visit(tree.body, 0, None)
    found.sort(key=lambda e: (e[0], -e[1]))
    index = {id(e): i for i, e in enumerate(found)}
    defs = [(e[0], e[1], e[2], e[3], -1 if e[4] is None else index[id(e[4])]) for e in found]
    return defs, sorted(e[5] for e in found)


def _by_scan(text: str) -> tuple[list[tuple], list[int]]:
    defs = scan(text, "python").definitions
    return [(d.start, d.end, d.label, d.level, d.parent) for d in defs], sorted(d.line for d in defs)


CASES = {
    "decorator with arguments over lines": (
        "import pytest\n\n\n@pytest.mark.parametrize(\n    'a, b',\n    [\n        (1, '''x\n  y'''),\n    ],\n)\n"
        "def test_a(a, b):\n    assert a\n"
    ),
    "decorator ending inside a string": (
        "class M:\n    @argument('-u', help=\"\"\"\n        only unique.\n        \"\"\")\n    @skip\n    def history(self):\n        pass\n"
    ),
    "blank lines between decorators": "@dec(\n    1,\n)\n\n@other\n\n# why\ndef f():\n    pass\n\n\ndef g():\n    pass\n",
    "backslash continuation to column 0": (
        "def f():\n    s = \\\n\"\"\"\\\ntext\n\"\"\"\n    return s\n\n\ndef g():\n    pass\n"
    ),
    "comment ending in a backslash": "def f():\n    x = 1  # a \\\n    return x\ny = 2\n\n\ndef g():\n    pass\n",
    "trailing comments and blank lines": (
        "class A:\n    def m(self):\n        return 1\n        # dead code\n\n    # about n\n    def n(self):\n        pass\n\n\n# end\n"
    ),
    "end of text without a line break": "def f():\n    pass\n    # last",
    "blocks holding definitions": (
        "import sys\nif sys.platform == 'win32':\n    def f():\n        pass\nelse:\n    def f():\n        pass\ntry:\n"
        "    class A:\n        pass\nexcept ImportError:\n    A = None\nwith open('x') as fh:\n    def g():\n        return fh\n"
        "match sys.argv:\n    case [_]:\n        def h():\n            pass\n    case _:\n        pass\n"
    ),
    "one-line definitions": "def f(): pass\ndef g(): return 1\nclass C: x = 1\n",
    "a column-0 comment inside a body": "class A:\n    x = 1\n# note\n    def m(self):\n        pass\n",
    "async, decorated classes": "import abc\n\n\n@abc.abstract\nclass A:\n    async def run(self):\n        await x\n",
    "CRLF line ends": "def f():\r\n    return 1\r\n\r\n\r\n# c\r\ndef g():\r\n    pass\r\n",
    "a decorator commented out": "@app.get('/')\n\n# @auth\n\n@cache\ndef f():\n    pass\n\n\nclass A:\n    @d\n    # @c\n\n    def g(self):\n        pass\n",
    "a product starting a line in brackets": "def f(a, b):\n    c = (a\n         @ b)\n    def g():\n        return c\n    return g\n",
    "form feeds": "def f():\n    pass\n\x0cdef g():\n    pass\nclass A:\n    x = 1\n\x0c    def m(self):\n        pass\n",
    "names": "class Empty:pass\ndef \u0928\u092e\u0938\u094d\u0924\u0947():\n    pass\nclass \u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35 :\n    pass\n",
    "deep nesting": HEAD + "x = " + "-" * 1000 + "y\n" + "z = " + "(" * 150 + "y" + ")" * 150 + "\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_python_definitions_are_where_pythons_parser_puts_them(name):
    text = CASES[name]
    assert _by_scan(text) == _by_ast(text)


def _stdlib_modules() -> list[Path]:
    return sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))


def test_every_module_of_the_standard_library_gets_pythons_definitions():
    modules = _stdlib_modules()
    assert len(modules) > 100
    differ = [m.name for m in modules if _by_scan(text := m.read_text(encoding="utf-8")) != _by_ast(text)]
    assert differ == []


def test_code_that_does_not_parse_keeps_its_definitions():
    text = CASES["trailing comments and blank lines"] + "\ndef broken(:\n    pass\n"
    labels = [d.label for d in scan(text, "python").definitions]
    assert labels == ["class A", "def m", "def n", "def broken"]


@pytest.mark.parametrize("unit", ["(", "-", "not ", "f'{", "y.", "lambda: ", "elif y:\n pass\n", "@d(\n", '"""'])
def test_any_python_is_scanned_in_linear_time(unit):
    # shapes that nest without end, at 400,000 characters: a scan that rescans would not finish
    text = HEAD + unit * (400_000 // len(unit))
    assert scan(text, "python").definitions[0].label == "def main"
