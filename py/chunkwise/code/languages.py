"""The languages chunkwise knows: how to recognise each (file extension, explicit
name, strong signals in pasted text) and what its scanner needs to know about it
(comments, string literals, how definitions look). scan.py does the scanning.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..unicode import classes

# Words that open a control statement, never a definition (brace languages).
_CONTROL = r"(?:if|else|elif|for|foreach|while|do|switch|case|default|try|catch|finally|return|throw|new|delete|await|yield|using|lock|synchronized|with|unless|until|loop|match|select|defer|go|goto|break|continue|when|guard|repeat|in|of|assert|static_assert|sizeof|typeof|print|echo|else[ \t]+if)\b"
# A C-family signature without a keyword: words (types, modifiers) then a name and "(".
# (First a "(" on the line: where there is none, the words are not tried in every split.)
_SIGNATURE = rf"(?=[^\n(]*+\()(?!{_CONTROL})(?:[\w$~*&<>\[\],.:?@]+[ \t]+)*[\w$~*&.:<>]*\w[ \t]*\("


@dataclass(frozen=True)
class Language:
    name: str  # the id: --language NAME, the page's picker
    label: str  # shown to people
    extensions: tuple[str, ...] = ()
    filenames: tuple[str, ...] = ()  # whole file names (Makefile, Dockerfile)
    line_comments: tuple[str, ...] = ()
    block_comments: tuple[tuple[str, str, bool], ...] = ()  # (open, close, nests)
    strings: tuple[str, ...] = ()  # string kinds, see lexer._OPENER
    structure: str = "braces"  # braces | indent | python | yaml | toml | sql | markup | none
    decl: str | None = None  # a definition line (after its indentation)
    transparent: str | None = None  # containers that do not count as a nesting level
    attribute: str | None = None  # lines kept with the definition below them
    hash_needs_space: bool = False  # '#' starts a comment only after whitespace or at a line start


_C_STRINGS = ('"', "char")
# This runs at every line start. A type annotation may span lines, up to the next line that
# could start this declaration (any of its first words, after any indentation: read to the
# next "=" however far, each line of "const a: b" or "declare const a: b;"
# with no "=" after it scanned the rest of the text: quadratic; and "declare const A: T;" took
# the "=" of a later "type A = (" for its own). A generic is read at most 400 characters far,
# and the blanks around it are one run each (two optional runs side by side were tried at
# every split of a long run of blanks).
_JS_DECL = (
    r"(?:export[ \t]+(?:default[ \t]+)?)?(?:declare[ \t]+)?(?:abstract[ \t]+)?(?:async[ \t]+)?"
    r"(?:function\b|class\b|interface\b|enum\b|type[ \t]+\w+|namespace\b|module\b|"
    r"(?:const|let|var)[ \t]+[\w$]+[ \t]*(?::(?:[^=\n]++|\n(?![ \t\f\v]*+(?:export|declare|abstract|async|const|let|var)\b))*+)?=[ \t]*(?:async[ \t]*)?(?:function\b|\(|[\w$]+[ \t]*=>|class\b|\{|\[)|"
    rf"(?!{_CONTROL})(?:(?:public|private|protected|static|readonly|override|get|set|async|\*)[ \t]+)*[\w$#]+[ \t]*+(?:<[^>]{{0,400}}+>[ \t]*+)?\()"
)

LANGUAGES: dict[str, Language] = {
    lang.name: lang
    for lang in (
        Language(
            "python", "Python", (".py", ".pyi", ".pyw"), ("SConstruct",), ("#",), (),
            ('"""', "'''", '"', "'"), "python",
            decl=r"(?:async[ \t]+def|def|class)[ \t]+\w+", attribute=r"@",
        ),
        Language(
            "javascript", "JavaScript", (".js", ".mjs", ".cjs", ".jsx"), (), ("//",), (("/*", "*/", False),),
            ('"', "'", "`"), decl=_JS_DECL, attribute=r"@",
        ),
        Language(
            "typescript", "TypeScript", (".ts", ".tsx", ".mts", ".cts"), (), ("//",), (("/*", "*/", False),),
            ('"', "'", "`"), decl=_JS_DECL, transparent=r"(?:export[ \t]+)?(?:declare[ \t]+)?(?:namespace|module)\b", attribute=r"@",
        ),
        Language(
            "java", "Java", (".java",), (), ("//",), (("/*", "*/", False),), ('"""', '"', "char"),
            decl=rf"(?:(?:public|private|protected|static|final|abstract|sealed|non-sealed|default|synchronized|native|strictfp)[ \t]+)*(?:class|interface|enum|record|@interface)\b|{_SIGNATURE}",
            attribute=r"@(?!interface)",
        ),
        Language(
            "c", "C", (".c", ".h"), (), ("//",), (("/*", "*/", False),), _C_STRINGS,
            decl=rf"(?:struct|union|enum|typedef)\b|{_SIGNATURE}", transparent=r"extern[ \t]+\"C\"",
        ),
        Language(
            "cpp", "C++", (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".ipp", ".inl"), (), ("//",),
            (("/*", "*/", False),), ("rawcpp", '"', "char"),
            decl=rf"(?:template[ \t]*<.*>[ \t]*)?(?:class|struct|union|enum|namespace|typedef)\b|{_SIGNATURE}",
            transparent=r"(?:inline[ \t]+)?namespace\b|extern[ \t]+\"C\"", attribute=r"template[ \t]*<|\[\[",
        ),
        Language(
            "csharp", "C#", (".cs",), (), ("//",), (("/*", "*/", False),), ('"""', "verbatim", '"', "char"),
            decl=rf"(?:(?:public|private|protected|internal|static|sealed|abstract|partial|readonly|unsafe|override|virtual|async|extern|new|file|required)[ \t]+)*(?:class|interface|enum|struct|record|namespace|delegate)\b|{_SIGNATURE}",
            transparent=r"namespace\b", attribute=r"\[",
        ),
        Language(
            "go", "Go", (".go",), (), ("//",), (("/*", "*/", False),), ('"', "`raw", "char"),
            decl=r"(?:func|type|var|const)\b",
        ),
        Language(
            "rust", "Rust", (".rs",), (), ("//",), (("/*", "*/", True),), ("rawrust", '"ml', "char"),
            # (a visibility's path and an ABI's name on their line: "pub(" with no ")" after it
            # scanned the rest of the text from each such line)
            decl=r"(?:pub(?:\([^)\n]*\))?[ \t]+)?(?:(?:const|async|unsafe|extern(?:[ \t]+\"[^\"\n]*\")?|default)[ \t]+)*(?:fn|struct|enum|union|trait|impl|mod|macro_rules!|type)\b",
            attribute=r"#!?\[",
        ),
        Language(
            "php", "PHP", (".php", ".phtml"), (), ("//", "#"), (("/*", "*/", False),), ("heredoc_php", '"ml', "'ml"),
            decl=r"(?:(?:public|private|protected|static|final|abstract|readonly)[ \t]+)*(?:function|class|interface|trait|enum)\b",
            transparent=r"namespace\b", attribute=r"#\[",
        ),
        Language(
            "ruby", "Ruby", (".rb", ".rake", ".gemspec", ".podspec"), ("Rakefile", "Gemfile", "Podfile"), ("#",), (("=begin", "=end", False),),
            ("heredoc_ruby", '"ml', "'ml", "`raw"), "indent",
            decl=r"(?:(?:private|protected|public)[ \t]+)?(?:def|class|module)\b", hash_needs_space=False,
        ),
        Language(
            "kotlin", "Kotlin", (".kt", ".kts"), (), ("//",), (("/*", "*/", True),), ('"""', '"', "char"),
            decl=r"(?:(?:public|private|protected|internal|open|abstract|sealed|data|inline|value|enum|annotation|companion|override|suspend|operator|infix|tailrec|external|inner|lateinit|const)[ \t]+)*(?:class|interface|object|fun|typealias)\b",
            attribute=r"@",
        ),
        Language(
            "swift", "Swift", (".swift",), (), ("//",), (("/*", "*/", True),), ('"""', '"'),
            decl=r"(?:(?:public|private|fileprivate|internal|open|final|static|class|override|mutating|nonmutating|convenience|required|indirect|@\w+)[ \t]+)*(?:class|struct|enum|protocol|extension|func|init|deinit|subscript|actor|typealias)\b",
            attribute=r"@",
        ),
        Language(
            "shell", "Shell", (".sh", ".bash", ".zsh", ".ksh"), (".bashrc", ".profile", ".zshrc"), ("#",), (),
            ("heredoc_sh", "'ml", '"ml', "`raw"),
            decl=r"(?:function[ \t]+[\w:.\-]+|[\w:.\-]+[ \t]*\([ \t]*\))", hash_needs_space=True,
        ),
        Language(
            "sql", "SQL", (".sql",), (), ("--",), (("/*", "*/", False),), ("sqlquote", "dollar", '"ml'), "sql",
        ),
        Language("html", "HTML", (".html", ".htm", ".xhtml", ".vue", ".svelte"), (), (), (), (), "markup"),
        Language("xml", "XML", (".xml", ".svg", ".xsd", ".xsl", ".plist", ".csproj", ".pom"), (), (), (), (), "markup"),
        Language(
            "css", "CSS", (".css", ".scss", ".less"), (), (), (("/*", "*/", False),), ('"', "'"),
            decl=r"[^\s;{}]", transparent=None,
        ),
        Language("yaml", "YAML", (".yaml", ".yml"), (), ("#",), (), ("yamlq",), "yaml", hash_needs_space=True),
        Language("toml", "TOML", (".toml",), (), ("#",), (), ('"""', "'''", '"', "'"), "toml"),
        Language("json", "JSON", (".json", ".jsonc", ".json5", ".ipynb", ".geojson"), (), ("//",), (("/*", "*/", False),), ('"',),
                 decl=r"\"(?:[^\"\\\n]|\\.)*\"[ \t]*:"),
        Language("markdown", "Markdown", (".md", ".markdown", ".mdx", ".rst"), (), (), (), (), "none"),
        # a table, a record a row: cut between records (text/tables.py)
        Language("csv", "CSV", (".csv",), (), (), (), (), "none"),
        Language("tsv", "TSV", (".tsv", ".tab"), (), (), (), (), "none"),
    )
}

# Markdown is prose with code inside, CSV and TSV are tables: the others are "code" (the code ladder).
TABLE_DELIMITERS = {"csv": ",", "tsv": "\t"}
CODE_LANGUAGES = frozenset(name for name in LANGUAGES if name != "markdown" and name not in TABLE_DELIMITERS)
_BY_EXTENSION = {ext: lang.name for lang in LANGUAGES.values() for ext in lang.extensions}
_BY_FILENAME = {fn.lower(): lang.name for lang in LANGUAGES.values() for fn in lang.filenames}
_ALIASES = {
    "py": "python", "js": "javascript", "ts": "typescript", "c++": "cpp", "cxx": "cpp", "c#": "csharp",
    "cs": "csharp", "golang": "go", "rs": "rust", "rb": "ruby", "kt": "kotlin", "sh": "shell", "bash": "shell",
    "zsh": "shell", "yml": "yaml", "md": "markdown", "htm": "html", "jsx": "javascript", "tsx": "typescript",
    "node": "javascript", "python3": "python", "text": "text", "plain": "text", "prose": "text",
}


def resolve(name: str) -> str:
    """The language id for a name or alias ("py", "C++", "text"); ValueError if unknown,
    TypeError if not a str."""
    if not isinstance(name, str):  # (5 raised AttributeError: 'int' object has no attribute 'strip')
        raise TypeError(f"language must be a str, not {type(name).__name__} {name!r}; choose one of text, {', '.join(LANGUAGES)}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key in LANGUAGES or key == "text":
        return key
    raise ValueError(f"unknown language {name!r}; choose one of text, {', '.join(LANGUAGES)}")


_FENCE_INFO = re.compile(r"[ \t]*\{?[ \t]*\.?([\w+#-]+)")


def fence_language(info: str) -> str | None:
    """The code language a Markdown fence's info string names ("python", "js",
    "rust,ignore", "{.go}"), or None: no name, an unknown one, or prose."""
    m = _FENCE_INFO.match(classes.as_known(info))  # \w by the pinned tables
    if m is None:
        return None
    word = info[m.start(1) : m.end(1)].lower()
    try:
        name = resolve(word)
    except ValueError:
        name = _BY_EXTENSION.get("." + word)  # ```mjs, ```kts, ```hpp: a file extension
    return name if name in CODE_LANGUAGES else None


def from_filename(filename: str | None) -> str | None:
    """The language a file name says (by extension or whole name), or None."""
    if not filename:
        return None
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    lower = base.lower()
    if lower in _BY_FILENAME:
        return _BY_FILENAME[lower]
    if lower.endswith(".txt"):
        return None  # .txt says nothing, even for "argparse.py.txt"
    dot = lower.rfind(".")
    return _BY_EXTENSION.get(lower[dot:]) if dot > 0 or (dot == 0 and lower in _BY_EXTENSION) else None


_SHEBANG = re.compile(r"#![^\n]*?\b(python[\d.]*|node|deno|bash|sh|zsh|ksh|ruby|php)\b")
_SHEBANG_LANG = {"node": "javascript", "deno": "typescript", "bash": "shell", "sh": "shell", "zsh": "shell",
                 "ksh": "shell", "ruby": "ruby", "php": "php"}
# Lines that, many times over, say a language. A few strong lines decide; prose never has them.
_PYTHON_OWN = r"[ \t]*(?:async )?def \w+\(.*\)(?: -> .+)?:$|[ \t]*class \w+(?:\(.*\))?:$|from [\w.]+ import .+|if __name__ == .__main__.:"
_SIGNALS = (
    ("python", re.compile(rf"^(?:{_PYTHON_OWN}|import [\w.]+(?: as \w+)?(?:, [\w.]+)*$)", re.M)),
    # (Kotlin's "import a.b.C" lines look like Python's: its own are its declarations)
    ("kotlin", re.compile(
        r"^[ \t]*(?:(?:private|public|internal|protected|override|open|abstract|suspend|inline|operator|infix|tailrec|"
        r"data|sealed|enum|inner|companion|const|lateinit)[ \t]+)*(?:fun(?:[ \t]+<[^>\n]*>)?[ \t]+[\w.`]+[ \t]*\(|val[ \t]+\w+[ \t]*[:=])", re.M)),
    ("go", re.compile(r"^(?:package \w+$|func (?:\([^)]*\) )?\w+\(.*\{$|import \($)", re.M)),
    ("rust", re.compile(r"^(?:pub )?(?:fn \w+.*\{$|use [\w:]+(?:::\{.*\})?;$|impl\b.*\{$|#\[derive\()", re.M)),
    ("java", re.compile(r"^(?:package [\w.]+;$|import (?:static )?[\w.]+(?:\.\*)?;$|public (?:final )?class \w+)", re.M)),
    ("csharp", re.compile(r"^(?:using [\w.]+;$|namespace [\w.]+\s*[{;]?$)", re.M)),
    ("javascript", re.compile(r"^(?:(?:const|let|var) \w+ = require\(.*\);?$|import .* from ['\"].*['\"];?$|export (?:default |const |function |class ))", re.M)),
    ("cpp", re.compile(r"^(?:#include <\w+>$|using namespace \w+;$|template ?<)", re.M)),
    ("c", re.compile(r"^#include [<\"][\w/]+\.h[>\"]$", re.M)),
    ("shell", re.compile(r"^(?:set -[euxo]+\b|fi$|done$|esac$|\w+\(\) \{$|export \w+=)", re.M)),
    ("sql", re.compile(r"^(?:CREATE (?:TABLE|INDEX|VIEW|FUNCTION|OR REPLACE)|SELECT .* FROM |INSERT INTO |ALTER TABLE )", re.M | re.I)),
)


# Lines Python never has (outside strings): a brace-language declaration, a block
# comment's edge, a brace after a parenthesis, "} else", a Haskell type signature.
# Kotlin, Swift, Scala and Haskell have semicolon-less "import a.b.C" lines, which
# look like Python's; their other lines say they are not Python.
_NOT_PYTHON = re.compile(
    r"^(?:[ \t]*(?:(?:private|public|internal|protected|fileprivate|override|open|static|final|abstract|export|async)[ \t]+)*"
    r"(?:(?:fun|func|function)[ \t]+[\w$.<>`]+[ \t]*\(|(?:val|var|let|const)[ \t]+[\w$]+[ \t]*[:=])"
    r"|[ \t]*(?:/\*|\*/)|.*\)[ \t]*\{[ \t]*$|[ \t]*\}[ \t]*(?:else|catch|finally)\b|[\w']+[ \t]+::[ \t])",
    re.M,
)
_PYTHON_OWN_LINES = re.compile(rf"^(?:{_PYTHON_OWN})", re.M)
_TRIPLE_QUOTED = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')  # (Python's C or JavaScript in a string)


def _hits(pattern: re.Pattern, head: str) -> int:
    return sum(1 for _ in zip(range(200), pattern.finditer(head)))


def detect(text: str) -> tuple[str | None, str]:
    """A language from strong signals in pasted text, and why; (None, reason) for prose.
    Looks at the first 20,000 characters only, as known to this Python (unicode/classes.py:
    re's word and digit classes by the pinned tables)."""
    head = classes.as_known(text[:20000]).lstrip("\ufeff")
    stripped = head.lstrip()
    m = _SHEBANG.match(stripped)
    if m:
        word = re.sub(r"[\d.]+$", "", m.group(1))
        return _SHEBANG_LANG.get(word, word), f"the #! line names {m.group(1)}"
    if stripped.startswith("<?php"):
        return "php", "it starts with <?php"
    if stripped.startswith("<?xml"):
        return "xml", "it starts with <?xml"
    if re.match(r"<!doctype html|<html\b", stripped, re.I):
        return "html", "it starts with an HTML document tag"
    if stripped[:1] in "{[" and re.match(r"[{\[]\s*(?:\"[^\"\n]*\"\s*:|[\[{\"\d\]}-]|true|false|null)", stripped):
        return "json", "it starts like a JSON value"
    lines = max(1, head.count("\n"))
    best, best_hits = None, 0
    for name, pattern in _SIGNALS:
        hits = _hits(pattern, head)
        if name == "python" and hits:
            others = _hits(_NOT_PYTHON, _TRIPLE_QUOTED.sub("", head))
            if others >= 2 and others > _hits(_PYTHON_OWN_LINES, head):
                continue  # more lines only other languages have than Python's own
        if hits > best_hits:
            best, best_hits = name, hits
    # Strong: several telling lines, and a fair share of the lines.
    if best and best_hits >= 3 and best_hits * 25 >= min(lines, 200) and not _looks_like_markdown(head):
        return best, f"{best_hits} lines look like {LANGUAGES[best].label}"
    return None, "no strong sign of code: chunked as prose"


def _looks_like_markdown(head: str) -> bool:
    return len(re.findall(r"^(?:#{1,6} \S|```|\* |- \[)", head, re.M)) >= 3 and "```" in head


def choose(given: str | None, filename: str | None, text: str) -> tuple[str | None, str]:
    """The language to read a text as, and why: the one given (a name, or "text"
    for prose), else the file name's, else (only with given="auto") strong signals
    in the text; None is prose. The CLI and the page both decide through here."""
    if given is not None and given != "auto":
        name = resolve(given)
        return (None if name == "text" else name), "chosen"
    by_name = from_filename(filename)
    if by_name is not None:
        return by_name, f"from the file name {filename.replace(chr(92), '/').rsplit('/', 1)[-1]}"
    if given == "auto":
        return detect(text)
    return None, "prose (no language given)"
