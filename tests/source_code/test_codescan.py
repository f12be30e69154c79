"""The code scanner: definitions, strings and comments in every language, on
hand-written traps (tests/code_samples.py); it never raises and never stalls."""
from __future__ import annotations

import pathlib
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chunkwise
from chunkwise.code.scan import scan
from chunkwise.code.structure import COMMENT, STRING
from chunkwise.packing.document import Document
from chunkwise.code.languages import CODE_LANGUAGES, LANGUAGES, detect, from_filename, resolve
from code_samples import SAMPLES
from conftest import TESTS, assert_ends_in_a_child

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
from codebench import cut_report  # noqa: E402  (bench/codebench.py)

# (language, a line in the sample) -> the definition path there
PATHS = {
    "python": [("    return x", ("def f",)), ("        pass", ("class A", "def m"))],
    "javascript": [("  return a + b;", ("function add",)), ("      return 1;", ("class Foo", "method()")), ("  return a;", ("const f",))],
    "typescript": [("    return Math.PI * this.r ** 2; // \"}\"", ("class Circle", "area()"))],
    "rust": [("        let c = '}';", ("impl<'a> S<'a>", "fn new")), ("fn main() {}", ("fn main",))],
    "go": [("\treturn nil", ("func Serve",)), ("\taddr string", ("type Server",))],
    "shell": [('  echo "$#"', ("usage()",)), ("    a) echo a ;;", ("main()",))],
    "ruby": [("    x", ("class Foo", "def bar"))],
    "yaml": [("        echo hi", ("jobs", "build", "steps", "name", "run"))],
    "toml": [("line-length = 100", ("[tool.ruff]",))],
    "sql": [("  id int", ("CREATE TABLE users",))],
    "html": [("    <p>Don't</p>", ("<html>", "<body>", "<section#intro>"))],
    "xml": [("    <dependency>x</dependency>", ("<project>", "<dependencies>"))],
    "css": [("  color: red;", (".a, .b",)), ("    x: y;", ("@media (x)", ".d"))],
    "json": [('    "a": "b"', ("scripts",))],
    "java": [('    return "}";', ("class A", "toString()")), ("    if (x) { }", ("class A", "m()"))],
    "c": [("  return a + b; /* } */", ("add()",)), ("  int x;", ("struct point",))],
    "cpp": [("    return a;", ("namespace ns", "class C", "f()")), ("  return 0;", ("main()",))],
    "csharp": [('            var s = @"a""}";', ("namespace N", "class C", "M()"))],
    "kotlin": [('    return """}"""', ("class P", "fun f"))],
    "swift": [("    return 1", ("struct App", "func f"))],
    "php": [("        # comment", ("class A", "function f"))],
}
# (language, text of a line that must begin inside a string or comment)
INSIDE = {
    "python": ['    def g(): }"""'],
    "go": ["}`"],
    "shell": ["Usage: } {"],
    "ruby": ["      def not_a_def"],
    "php": ["        }"],
    "sql": ["BEGIN; RETURN 1; END;"],
}
# (language, the start of the text kept with a definition: its comments and attributes)
ATTACHED = {
    "python": "# comment\n@dec\ndef f",
    "javascript": "/** Adds. */\nexport function add",
    "rust": "/// Docs\n#[derive(Debug)]\npub struct S",
    "java": "/** Doc. */\n@Annot\npublic class A",
    "csharp": "    [Serializable]\n    public class C",
    "cpp": "template <typename T>\nclass C",
    "php": "#[Attr]\nclass A",
    "kotlin": "/** d */\ndata class P",
    "go": "// Server serves.\ntype Server",
    "sql": "-- users\nCREATE TABLE",
}


def test_every_language_has_a_sample():
    assert set(SAMPLES) == set(CODE_LANGUAGES) - {"markdown"} or set(SAMPLES) >= set(CODE_LANGUAGES) - {"markdown"}


@pytest.mark.parametrize("language", sorted(PATHS))
def test_definition_paths(language):
    text = SAMPLES[language]
    structure = scan(text, language)
    for line, path in PATHS[language]:
        at = text.index(line + "\n") + len(line) // 2
        assert structure.path_at(at) == path, (language, line)


@pytest.mark.parametrize("language", sorted(INSIDE))
def test_line_breaks_inside_strings_are_marked(language):
    text = SAMPLES[language]
    structure = scan(text, language)
    for line in INSIDE[language]:
        start = text.index("\n" + line + "\n") + 1
        i = structure.nls.index(start - 1)
        assert structure.states[i] in (STRING, COMMENT), (language, line)
        # and no definition starts inside it
        assert all(not (d.line <= start < d.line + len(line)) or d.line == start and False for d in structure.definitions)


@pytest.mark.parametrize("language", sorted(ATTACHED))
def test_comments_and_attributes_stay_with_their_definition(language):
    text = SAMPLES[language]
    starts = {d.start for d in scan(text, language).definitions}
    assert text.index(ATTACHED[language]) in starts


def test_nesting_levels():
    structure = scan(SAMPLES["java"], "java")
    assert [(d.label, d.level) for d in structure.definitions] == [("class A", 0), ("toString()", 1), ("m()", 1)]
    # a namespace is a container, not a level: its classes are top-level definitions
    assert [(d.label, d.level) for d in scan(SAMPLES["csharp"], "csharp").definitions] == [
        ("namespace N", 0), ("class C", 0), ("M()", 1)]



def test_a_typescript_annotation_spans_lines_up_to_the_next_declaration():
    """An inline object type of any length is read to its "=" (a 400-character bound lost a
    config's 30 typed fields), but not over a line that declares something else: a
    "declare const" has no "=" of its own, and took a later "type ... = (" for one."""
    fields = "".join(f"  field{i}: string;\n" for i in range(30))
    config = "export const config: {\n" + fields + "} = {\n" + fields.replace("string", "'x',") + "};\n"
    assert [d.label for d in scan(config, "typescript").definitions] == ["const config"]
    declared = ("export declare const MouseButton: Readonly<{\n  Left: 'left';\n}>;\n"
                "export type MouseButton = (typeof MouseButton)[keyof typeof MouseButton];\n")
    assert [d.label for d in scan(declared, "typescript").definitions] == []

def test_a_definition_path_holds_the_innermost_sixteen_after_a_mark():
    """A path that leaves outer definitions out begins with "…" (the page, the JSONL and the
    context show it), so no one takes its first label for the top level. Every chunk of a text nested 200,000 deep held its whole path: 1.2 MB of CSS blocks that
    never close took about 5 minutes (100,000: 70 s), the paths growing with the square of the text. The child process
    has 120 s; the old code took longer. Not a timing: a check that it ends."""
    from chunkwise.code.structure import PATH_DEPTH

    text = "".join(f"b{i} {{\n" for i in range(40))
    path = scan(text, "css").path_at(len(text) - 1)
    assert PATH_DEPTH == 16 and path == ("…", *(f"b{i}" for i in range(24, 40)))
    exactly = "".join(f"b{i} {{\n" for i in range(16))
    assert scan(exactly, "css").path_at(len(exactly) - 1) == tuple(f"b{i}" for i in range(16))
    assert scan("a {\n  b {\n", "css").path_at(7) == ("a", "b")
    chunks = chunkwise.chunk(text + "x: 1;\n" * 200, max_tokens=300, language="css", context="headings")
    assert chunks[-1].headings[:2] == ("…", "b24") and chunks[-1].embed_text.startswith("… > b24 > b25 > ")
    code = ("import chunkwise; from conftest import assert_invariants; text = 'img {\\n' * 200_000; "
            "chunks = chunkwise.chunk(text, max_tokens=64, language='css'); "
            "assert_invariants(text, chunks, 64, 'cl100k_base', 8); assert max(len(c.headings) for c in chunks) == 17")
    assert_ends_in_a_child(code)


def test_python_that_does_not_parse_finds_the_same_definitions():
    broken = SAMPLES["python"] + "\ndef broken(:\n"
    labels = [d.label for d in scan(broken, "python").definitions]
    assert labels[:3] == ["def f", "class A", "def m"]
    assert scan(broken, "python").definitions[0].start == 0 + broken.index("# comment")


def test_python_labels_async_definitions_as_ast_names_them():
    """`async def`, as ast names it (AsyncFunctionDef), in code that parses or not."""
    source = "class Client:\n    async def fetch(self):\n        return 1\n\nasync def main():\n    pass\n"
    labels = [d.label for d in scan(source, "python").definitions]
    assert labels == ["class Client", "async def fetch", "async def main"]
    assert [d.label for d in scan(source + "def broken(:\n", "python").definitions][:3] == labels


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    language=st.sampled_from(sorted(LANGUAGES)),
    text=st.lists(st.sampled_from(['"', "'", "`", "${", "}", "{", "(", ")", "[", "]", "/*", "*/", "//", "#", "\n", " ",
                                   "<<EOF\n", "EOF\n", "<<<X\n", "r#\"", "\"#", "R\"(", "<!--", "-->", "<a>", "</a>",
                                   "def f():\n", "class A {", "fn x() {", "--", "$$", "@\"", "'''", '"""', "\\", "x", "\t"]),
                  max_size=60).map("".join),
)
def test_never_raises_and_keeps_line_breaks(language, text):
    structure = scan(text, language)
    assert structure.nls == [i for i, c in enumerate(text) if c == "\n"]
    assert len(structure.states) == len(structure.nls) == len(structure.depths)
    for d in structure.definitions:
        assert 0 <= d.start <= d.line < d.end <= len(text) or d.end == len(text)
        assert d.start == 0 or text[d.start - 1] == "\n"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_pathological_inputs_finish(language):
    # Each would be quadratic in a scanner that rescans (a scan to the end per
    # opener): 40,000 characters, so a quadratic path means 10^9 steps, not seconds.
    for unit in ("{", "}", '"', "'", "/*", "`${", "<a>", '<a "', "<<EOF\n", "def f():\n    ", "a:\n  "):
        text = unit * (40_000 // len(unit))
        structure = scan(text, language)
        assert len(structure.nls) == text.count("\n")


def test_language_names_and_files():
    assert resolve("py") == "python" and resolve("C++") == "cpp" and resolve("text") == "text"
    with pytest.raises(ValueError, match="unknown language"):
        resolve("klingon")
    assert from_filename("src/app.tsx") == "typescript"
    assert from_filename("Makefile") is None and from_filename("Gemfile") == "ruby"
    assert from_filename("ios/Foo.podspec") == "ruby" and from_filename("Podfile") == "ruby"  # CocoaPods files are Ruby
    assert from_filename("argparse.py.txt") is None  # .txt says nothing
    assert from_filename("README.md") == "markdown"


def test_detect_pasted_code_and_leave_prose_alone():
    assert detect("#!/usr/bin/env python3\nprint(1)\n")[0] == "python"
    assert detect(SAMPLES["python"] * 3)[0] == "python"
    assert detect(SAMPLES["go"] * 2)[0] == "go"
    assert detect('{"a": 1}')[0] == "json"
    assert detect("<?php\necho 1;")[0] == "php"
    prose = "Import duties: the class of goods.\nFrom here on, we def- ine terms.\n" * 20
    assert detect(prose)[0] is None
    assert detect("# Title\n\nSome text.\n\n```python\ndef f():\n    pass\n```\n")[0] is None


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("text", ['"\\', "'\\", "`\\", '"""\\', "'''\\", '@"\\', 'r#"\\', 'x = "a\\'])
def test_a_string_that_ends_the_text_with_a_backslash(language, text):
    # Hypothesis found this: the escape pattern wanted a character after the backslash.
    structure = scan(text, language)
    assert structure.nls == []
    assert all(d.end <= len(text) for d in structure.definitions)


@pytest.mark.parametrize("line", [
    "    return {:commit => `git ls-remote #{URL} | cut -f 1`.strip}",  # a backtick command (hermes-utils.rb)
    '    s = s.gsub(/#{Regexp.escape(x)}/, "y")',  # interpolation in a regexp literal (react-native utils.rb)
])
def test_ruby_interpolation_outside_quotes_is_no_comment(line):
    # Found on real Ruby files: "#{" outside quotes was read as a comment to the
    # end of the line, which hid the closing bracket; every later line then sat at
    # depth > 0 and no later "def" was found.
    text = f"def a()\n{line}\nend\n\ndef b()\n    1\nend\n"
    structure = scan(text, "ruby")
    assert [d.label for d in structure.definitions] == ["def a", "def b"]
    assert structure.depths == [0] * len(structure.nls)


LICENCE = (
    "/*\n * Copyright 2024 Example Corp.\n *\n\n * Licensed under the Apache License, Version 2.0 (the \"License\");\n"
    " * you may not use this file except in compliance with the License.\n * You may obtain a copy of the License at\n"
    " *\n *     http://www.apache.org/licenses/LICENSE-2.0\n */\n"
)
# (what comes first in the file, a definition after the licence header, another one)
LICENSED = {
    "java": ("package p;\n\n", "public class A {\n    int x;\n}\n", "class B {\n    int y;\n}\n"),
    "kotlin": ("", "class A {\n    val x = 1\n}\n", "class B {\n    val y = 2\n}\n"),
    "javascript": ("", "class A {\n  m() { return 1; }\n}\n", "function b() {\n  return 2;\n}\n"),
    "typescript": ("", "export class A {\n  x = 1;\n}\n", "function b(): number {\n  return 2;\n}\n"),
    "go": ("package p\n\n", "type A struct {\n\tx int\n}\n", "func B() int {\n\treturn 2\n}\n"),
    "rust": ("", "struct A {\n    x: i32,\n}\n", "fn b() -> i32 {\n    2\n}\n"),
    "c": ("", "struct a {\n  int x;\n};\n", "int b(void) {\n  return 2;\n}\n"),
    "cpp": ("", "class A {\n  int x;\n};\n", "int b() {\n  return 2;\n}\n"),
    "csharp": ("", "public class A {\n    int x;\n}\n", "class B {\n    int y;\n}\n"),
    "swift": ("", "class A {\n    var x = 1\n}\n", "func b() -> Int {\n    return 2\n}\n"),
    "php": ("<?php\n", "class A {\n    public $x;\n}\n", "function b() {\n    return 2;\n}\n"),
}


@pytest.mark.parametrize("language", sorted(LICENSED))
def test_a_block_comment_with_a_blank_line_stays_whole_with_its_definition(language):
    """A licence header with a blank line inside (' *\\n\\n * ...') right before a
    class: the class started after the blank line, inside the comment, and the
    definition cut fell there (issue 29, finding 8)."""
    head, first, second = LICENSED[language]
    text = head + LICENCE + first + "\n" + LICENCE + second
    structure = scan(text, language)
    assert [d.start for d in structure.definitions if d.level == 0] == [len(head), text.index(LICENCE, len(head) + 1)]
    for budget in (24, 40, 64, 100):
        doc = Document(text, language)
        chunks = chunkwise.chunk_document(doc, max_tokens=budget, overlap=0).chunks
        assert cut_report(doc, chunks)["missed_line_cuts"] == 0, budget


def test_a_long_comment_stays_whole_with_its_definition():
    # the walk up stopped 200 lines above the definition, inside a longer comment
    text = "/*\n" + " * line\n" * 250 + " */\nclass A {\n}\n"
    assert scan(text, "java").definitions[0].start == 0


def test_a_definition_keeps_no_other_definitions_line():
    # "@Test void a() { }" is an attribute line too: each one-liner took the ones above
    # it as its attributes, and nested in them
    text = "class T {\n    @Test void a() { }\n    @Test void b() { }\n    @Test void c() { }\n}\n"
    defs = scan(text, "java").definitions
    assert [(d.label, d.start == d.line, d.level) for d in defs] == [
        ("class T", True, 0), ("a()", True, 1), ("b()", True, 1), ("c()", True, 1)]


# Semicolon-less "import a.b.C" lines, which look like Python's (issue 29, finding 9)
_IMPORTS = "import com.example.net.Client\nimport com.example.net.Request\nimport java.io.File\nimport kotlin.math.max\n"
NOT_PYTHON = {
    "kotlin": "package com.example.app\n\n" + _IMPORTS + """
/*
 * Fetches bundles.
 */
class Loader(private val client: Client) {
    private val cache = mutableMapOf<String, File>()

    fun load(url: String): File? {
        val request = Request(url)
        return cache[url] ?: fetch(request)
    }

    private fun fetch(request: Request): File? {
        val size = max(1, request.size)
        return null
    }
}
""",
    "swift": """import Foundation
import UIKit
import Combine
import SwiftUI

/* A view model. */
final class Model: ObservableObject {
    let name: String
    var count = 0

    init(name: String) {
        self.name = name
    }

    func increment() {
        count += 1
    }
}
""",
    "scala": "package com.example\n\n" + _IMPORTS + """
object Main {
  val greeting = "hello"

  def main(args: Array[String]): Unit = {
    if (args.isEmpty) {
      println(greeting)
    } else {
      args.foreach(println)
    }
  }
}
""",
    "haskell": """module Main where

import Data.List
import Data.Maybe
import qualified Data.Map as Map
import Control.Monad

count :: String -> Int
count = length . words

main :: IO ()
main = print (count "a b c")
""",
}


@pytest.mark.parametrize("name", sorted(NOT_PYTHON))
def test_other_languages_with_pythons_import_lines_are_not_python(name):
    assert detect(NOT_PYTHON[name])[0] != "python"
    assert detect(NOT_PYTHON[name] * 3)[0] != "python"


def test_kotlin_is_detected_as_kotlin():
    # the code corpus's own Kotlin file was "21 lines look like Python"; the Python
    # scanner then cut it inside its /* */ comments
    corpus = (TESTS / "code-corpus" / "BundleDownloader.kt").read_text(encoding="utf-8")
    assert detect(corpus)[0] == "kotlin"
    assert detect(NOT_PYTHON["kotlin"])[0] == "kotlin"


def test_python_with_other_languages_in_its_strings_is_still_python():
    c_in_a_string = 'import ctypes\n\nSOURCE = """\nstatic int f(int x) {\n    /* x */\n    if (x) {\n        return 1;\n    }\n}\n"""\n\n'
    c_in_a_string += "".join(f"def f{i}(x):\n    return x\n\n" for i in range(3))
    assert detect(c_in_a_string)[0] == "python"
    assert detect("import os\nimport sys\nimport re\n\nprint(os.getcwd())\n")[0] == "python"


@pytest.mark.parametrize("language", [5, b"python", ["python"], 3.11])
def test_a_language_that_is_not_a_name_is_a_type_error_naming_the_languages(language):
    # chunkwise.chunk(text, language=5) raised AttributeError ('int' object has no attribute 'strip')
    with pytest.raises(TypeError, match=r"language must be a str.*choose one of text, python, javascript"):
        chunkwise.chunk("x = 1", language=language)
    with pytest.raises(TypeError, match="choose one of"):
        resolve(language)


def test_many_tags_on_one_line_copy_none_of_it():
    """Whether a tag starts its line was judged by copying the line up to each tag
    (quadratic: 1 MB of tags on one line took 7.5 s); the line's first non-blank is now
    found once a line. Measured as a tracemalloc peak of the scan (was 1.8 MB for 900 kB)."""
    import tracemalloc

    text = "<p>" + "<b>x</b> " * 100_000 + "</p>\n"
    scan("<p><b>x</b></p>\n", "html")  # (the patterns compiled)
    tracemalloc.start()
    try:
        structure = scan(text, "html")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert structure is not None
    assert peak < 64_000, peak


@pytest.mark.parametrize("language, opens, closes", [
    ("python", "def f():\n", ""), ("javascript", "function f() {\n", "}\n"), ("go", "func f() {\n", "}\n"),
    ("c", "int f() {\n", "}\n"), ("toml", "[f]\n", ""),
])
def test_a_line_whose_brackets_close_on_it_is_read_in_one_step(language, opens, closes):
    """Most lines of code have brackets that all close on the line, and strings that end
    on it, and no comment: the scanner passed each bracket, string and ";" on its own (an
    event of several lines of Python), as much work again as the rest of the line. Such a
    line leaves the scan as it found it, so the rest of it is read in one step from its
    first event: 2,000 lines of ten brackets, a string and a ";" each cost no more than
    lines of one pair (the old loop ran 5x as many lines of Python on them). The scan is
    the same: the line breaks, depths and definitions."""
    from conftest import python_lines

    body = "  x = f(a[i], g(b[j], {c}), h[\"k#(\"]) + m(n)[p];\n" * 2000
    plain = "  x = a + f(b) + c;\n" * 2000
    tail = "def later():\n  s = f('(', \"[\")\n"
    scans = {}
    work = {}
    for name, lines in (("brackets", body), ("plain", plain)):
        text = f"{opens}{lines}{closes}{tail}"
        scan(text, language)  # (its patterns compiled first: re's compiler is Python too)
        work[name] = python_lines(lambda: scans.__setitem__(name, scan(text, language)))
    assert work["brackets"] < 1.2 * work["plain"], work
    brackets = scans["brackets"]
    assert len(brackets.nls) == 2003 + closes.count("\n") and brackets.depths == scans["plain"].depths
    assert brackets.states == scans["plain"].states
    assert [(d.label, d.end) for d in brackets.definitions] == [
        (d.label, d.end + len(body) - len(plain)) for d in scans["plain"].definitions
    ]
