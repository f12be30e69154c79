"""A structural scanner for source code, in one linear pass and never raising.

For each language (languages.py) it finds the comments and string literals
(multi-line, raw, template strings, heredocs), the bracket depth at every line
break, and the definitions (classes, functions, methods, tables, keys...) with
the decorators, attributes and leading doc comments that belong to them.
Python's definitions come from `ast` when the text parses (exact spans).

The result, a CodeStructure, is what the code ladder cuts by: every line break
with its state (code, string, comment) and depth, and the definitions with
their spans and labels (the `headings` path of a chunk).
"""
from __future__ import annotations

import ast
import functools
import io
import re
import sys
import tokenize
import warnings
from bisect import bisect_right
from dataclasses import dataclass

from ..unicode import classes as uniclass
from .languages import LANGUAGES, Language

CODE, STRING, COMMENT = 0, 1, 2  # what a line break is inside of
# Python's parser takes ~1 s a megabyte; above this the scanner's indentation reading
# (decorators and comments attached the same way) stands in for it.
AST_LIMIT = 1_000_000
# The grammar Python code is parsed by: the oldest Python the package runs on
# (pyproject.toml). The page's Python is newer and parses more (PEP 695 generics,
# PEP 701 f-strings); had it used that, a file would get other definitions, and other
# cuts, in the page than in the CLI on 3.11.
AST_GRAMMAR = (3, 11)

_INDENT = re.compile(r"[ \t\f\v]*")
_SPACE_RUN = re.compile(r"\s+")
# Lines that continue the statement of the line before (brace languages).
_CONTINUES_LINE = re.compile(r"(?:\{|:|\.|,|\?|&&|\|\||->|=>|throws\b|extends\b|implements\b|where\b|requires\b|const\b|noexcept\b|override\b|final\b)")
_CONTINUED_BY = (",", "(", "=", "->", "=>", "&&", "||", ":", "+", "-", "|", "&", "\\")
_LABEL_KEYWORD = re.compile(
    r"\b(class|interface|enum|struct|trait|impl|fn|func|fun|function|def|module|namespace|object|record|protocol|"
    r"extension|union|type|typealias|actor|mod|macro_rules!|delegate|const|let|var)\b\s*(?:\([^)]*\)\s*)?([\w$.:~!?\\]+)?"
)
_CALL_NAME = re.compile(r"([\w$~.:]*\w)\s*(?:<[^()]*>)?\s*\(")


@dataclass(frozen=True)
class Definition:
    start: int  # where its first attached line (decorator, attribute, doc comment) begins
    line: int  # where its own first line begins
    end: int  # where it ends: the start of the line after its last line
    label: str  # its entry in the definition path: "class Parser", "def parse_args"
    level: int  # 0: top level; 1: nested in one definition (a method)...
    parent: int  # index of the enclosing definition, -1 for none
    signature: str  # its first line, stripped (the optional context)
    transparent: bool = False  # a namespace: its members count as top level


class CodeStructure:
    """Line breaks (offset, state, depth after it) and definitions of one text."""

    def __init__(self, text: str, language: str, nls, states, depths, defs: list[Definition]):
        self.text = text
        self.language = language
        self.nls = nls  # offsets of "\n"
        self.states = states  # CODE, STRING or COMMENT: what each "\n" is inside of
        self.depths = depths  # bracket (and for Python, indentation) depth after each "\n"
        self.definitions = defs  # sorted by start
        self._starts = [d.start for d in defs]

    def path_at(self, pos: int) -> tuple[str, ...]:
        """The definition path in effect at pos: ("class Parser", "def parse_args")."""
        d = self.innermost(pos)
        path = []
        while d is not None:
            path.append(self.definitions[d].label)
            d = self.definitions[d].parent
            d = None if d < 0 else d
        return tuple(reversed(path))

    def innermost(self, pos: int) -> int | None:
        """The index of the innermost definition containing pos, or None."""
        i = bisect_right(self._starts, pos) - 1
        while i >= 0:
            d = self.definitions[i]
            if d.start <= pos < d.end:
                return i
            i = d.parent if d.parent >= 0 else -1
            # a sibling that ended before pos: its parent may still contain pos
        return None

    def context_at(self, pos: int) -> str:
        """The signature line of the innermost definition that starts before pos
        (the chunk starts inside it), or "" at a definition's own start."""
        i = self.innermost(pos)
        while i is not None:
            d = self.definitions[i]
            if d.start < pos and pos > d.line:
                return d.signature
            i = d.parent if d.parent >= 0 else None
        return ""


_PLAIN = Language("text", "Plain text", structure="none")  # lines only: the code strategy on prose


def scan(text: str, language: str) -> CodeStructure:
    """The structure of `text` read as `language` (a languages.LANGUAGES id)."""
    lang = LANGUAGES.get(language) or _PLAIN
    scanner = _Scanner(text, lang)
    try:
        scanner.run()
    except RecursionError:  # pragma: no cover - the scanner does not recurse
        pass
    defs = scanner.raw_defs
    if lang.structure == "python" and len(text) <= AST_LIMIT:
        parsed = _python_defs(text, scanner)
        if parsed is not None:
            defs = parsed
    return CodeStructure(text, language, scanner.nls, scanner.states, scanner.depths, _finish(text, scanner, defs))


# -- the scanner ----------------------------------------------------------------
def _string_patterns():
    """The rest of a string after its opener, for each simple string kind.
    An escape may be a lone backslash at the very end of the text."""
    esc = lambda q, ml: re.compile(  # noqa: E731
        rf"[^{q}\\\n]*+(?:\\(?:[\s\S]|\Z)[^{q}\\\n]*+)*+(?:{q}|(?=\n)|\Z)" if not ml else rf"[^{q}\\]*+(?:\\(?:[\s\S]|\Z)[^{q}\\]*+)*+(?:{q}|\Z)"
    )
    return {
        '"': esc('"', False),
        "'": esc("'", False),
        '"ml': esc('"', True),
        "'ml": esc("'", True),
        '"""': re.compile(r'(?:[^"\\]++|\\(?:[\s\S]|\Z)|"(?!""))*+(?:"""|\Z)'),
        "'''": re.compile(r"(?:[^'\\]++|\\(?:[\s\S]|\Z)|'(?!''))*+(?:'''|\Z)"),
        "`raw": re.compile(r"[^`]*+(?:`|\Z)"),
        "verbatim": re.compile(r'(?:[^"]++|"")*+(?:"|\Z)'),
        "sqlquote": re.compile(r"(?:[^']++|'')*+(?:'|\Z)"),
    }


_REST = _string_patterns()
_CHAR = re.compile(r"'(?:[^'\\\n]|\\[^\n][^'\n]{0,9})'")
_TEMPLATE = re.compile(r"[^`\\$]*+(?:(?:\\(?:[\s\S]|\Z)|\$(?!\{))[^`\\$]*+)*+(?:`|\$\{|\Z)")
_HEREDOC_SH = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")
_HEREDOC_RUBY = re.compile(r"<<([~-]?)(['\"`]?)([A-Z_][\w]*)\2")
_HEREDOC_PHP = re.compile(r"<<<[ \t]*(['\"]?)([A-Za-z_]\w*)\1")

# How each string kind opens, as a regex alternative that starts at the character
# the scanner stops at (listed second). Prefixed kinds (raw, verbatim) start at
# their quote or hashes and look back at the prefix.
_OPENER = {
    '"': ('"', '"'), "'": ("'", "'"), '"ml': ('"', '"'), "'ml": ("'", "'"), '"""': ('"""', '"'),
    "'''": ("'''", "'"), "`": ("`", "`"), "`raw": ("`", "`"), "char": ("'", "'"),
    "verbatim": (r'(?:(?<=@)|(?<=@\$))"', '"'), "sqlquote": ("'", "'"), "dollar": (r"\$(?:[A-Za-z_]\w*)?\$", "$"),
    "rawrust": (r'(?:(?<=\br)|(?<=\bbr))#*"', '"#'), "rawcpp": (r'(?<=R)"[^()\\\s]{0,16}\(', '"'),
    "yamlq": ("[\"']", "\"'"), "heredoc_sh": (r"<<-?[ \t]*['\"]?[A-Za-z_]", "<"),
    "heredoc_ruby": (r"<<[~-]?['\"`]?[A-Z_]", "<"), "heredoc_php": (r"<<<", "<"),
}
_RAW_RUST = re.compile(r"(#*)\"")
_RAW_CPP = re.compile(r"\"([^()\\\s]{0,16})\(")


@functools.lru_cache(maxsize=None)
def _patterns(lang: Language):
    """A language's scanner patterns, built once (a Markdown file can have hundreds
    of fenced blocks of one language): (the event groups' kinds, the trigger, the
    events, the block comments' closers, the definition and transparent patterns)."""
    alternatives = []
    kinds: dict[str, str] = {}
    firsts = set("\n()[]{};")

    def add(kind: str, pattern: str, first: str):
        group = f"g{len(alternatives)}"
        kinds[group] = kind
        alternatives.append(f"(?P<{group}>{pattern})")
        firsts.update(first)

    for open_, close, nests in lang.block_comments:
        add(f"block:{open_}", ("^" if open_ == "=begin" else "") + re.escape(open_), open_[0])
    for marker in lang.line_comments:
        pattern = re.escape(marker)
        if marker == "#" and lang.name == "php":
            pattern = r"#(?!\[)"
        elif marker == "#" and lang.name == "ruby":
            pattern = r"#(?!\{)"  # "#{" outside quotes is interpolation (in a regexp literal, %w[]...)
        add("line", pattern, marker[0])
    prefixed = ("rawrust", "rawcpp", "verbatim")
    for kind in sorted(lang.strings, key=lambda k: (k not in prefixed, -len(_OPENER[k][0]))):
        add(kind, *_OPENER[kind])
    # The scanner jumps to the next character that can start something (one
    # character class: re skips ahead fast), then reads what starts there.
    trigger = re.compile("[" + "".join(re.escape(c) for c in sorted(firsts)) + "]")
    events = re.compile("|".join(alternatives), re.M) if alternatives else None
    block = {f"block:{o}": (c, nests) for o, c, nests in lang.block_comments}
    decl = re.compile(lang.decl) if lang.decl else None
    transparent = re.compile(lang.transparent) if lang.transparent else None
    return kinds, trigger, events, block, decl, transparent


class _Scanner:
    def __init__(self, text: str, lang: Language):
        # The patterns (\w, \b) run over the text as known to this Python (uniclass.py),
        # so they match the same everywhere; labels are taken from the source.
        self.source = text
        self.text = uniclass.as_known(text)
        self.n = len(text)
        self.lang = lang
        self.nls: list[int] = []
        self.states: list[int] = []
        self.depths: list[int] = []
        self.comment_starts: list[int] = []
        self.raw_defs: list[tuple[int, int, str, bool]] = []  # (line index, end, label, transparent)
        self.depth = 0
        self.stack: list[str] = []
        self.heredocs: list[tuple[str, str]] = []  # (kind, delimiter) waiting for the next line
        # brace and indentation structure
        self.pending = None  # (line index, depth, first code offset) of a definition line awaiting its "{"
        self.open_defs: list[tuple[int, int, int, str, bool]] = []  # (body depth or indent, line index, first, label, transparent)
        self.prev_line_end = 0
        self.sql_open = False
        self.kinds, self.trigger, self.events, self.block, self.decl, self.transparent = _patterns(lang)

    # -- line breaks --------------------------------------------------------
    def _mark(self, lo: int, hi: int, state: int) -> None:
        """Record the line breaks inside [lo, hi) as inside a string or comment."""
        text, nls, states, depths, depth = self.text, self.nls, self.states, self.depths, self.depth
        i = text.find("\n", lo, hi)
        while i != -1:
            nls.append(i)
            states.append(state)
            depths.append(depth)
            i = text.find("\n", i + 1, hi)

    def run(self) -> None:
        structure = self.lang.structure
        if structure == "markup":
            return self._run_markup()
        text, n, events, kinds, trigger = self.text, self.n, self.events, self.kinds, self.trigger
        self._line_start(0)
        pos = 0
        m = None
        while pos < n:
            t = trigger.search(text, pos)
            if t is None:
                break
            s = t.start()
            ch = text[s]
            if ch == "\n":
                kind = "nl"
            elif ch in "([{":
                kind = "open"
            elif ch in ")]}":
                kind = "close"
            elif ch == ";":
                kind = "semi"
            else:
                m = events.match(text, s) if events is not None else None
                if m is None:
                    pos = s + 1
                    continue
                kind = kinds[m.lastgroup]
            if kind == "nl":
                if self.heredocs:  # this line break already belongs to the heredoc's body
                    self.nls.append(s)
                    self.states.append(STRING)
                    self.depths.append(self.depth)
                    pos = self._heredoc_bodies(s)
                    continue
                self.nls.append(s)
                self.states.append(CODE)
                self.depths.append(self.depth)
                pos = s + 1
                self._line_start(pos)
            elif kind == "open":
                if ch == "{":
                    self._brace_open(s)
                self.stack.append(ch)
                self.depth += 1
                pos = s + 1
            elif kind == "close":
                pos = self._close(text[s], s)
            elif kind == "semi":
                if self.pending is not None and self.pending[1] == self.depth:
                    self.pending = None
                if structure == "sql" and self.depth == 0:
                    self._sql_end(s)
                pos = s + 1
            elif kind == "line":
                if self.lang.hash_needs_space and s > 0 and not text[s - 1].isspace() and text[s - 1] not in ";|&(":
                    pos = s + 1
                    continue
                end = text.find("\n", s)
                self.comment_starts.append(s)
                pos = n if end == -1 else end
            elif kind.startswith("block:"):
                close, nests = self.block[kind]
                end = self._block_end(s + len(m.group()), kind[6:], close, nests)
                self.comment_starts.append(s)
                self._mark(s, end, COMMENT)
                pos = end
            else:
                pos = self._string(kind, m, s)
        self._close_all()

    def _string(self, kind: str, m: re.Match, s: int) -> int:
        text, n = self.text, self.n
        after = m.end()
        if kind in _REST:
            end = _REST[kind].match(text, after).end()
        elif kind == "char":
            c = _CHAR.match(text, s)
            if c is None:
                return s + 1  # a Rust lifetime, an apostrophe: no string
            end = c.end()
        elif kind == "`":
            return self._template(s, after)
        elif kind == "yamlq":
            j = s - 1
            while j >= 0 and text[j] in " \t":
                j -= 1
            if j >= 0 and text[j] not in "\n:-[{,?":
                return s + 1  # an apostrophe inside a plain scalar
            end = _REST['"ml' if text[s] == '"' else "sqlquote"].match(text, after).end()
        elif kind == "dollar":
            tag = m.group()
            close = text.find(tag, after)
            end = n if close == -1 else close + len(tag)
        elif kind == "rawrust":
            hashes = _RAW_RUST.match(text, s).group(1)
            after = s + len(hashes) + 1
            close = text.find('"' + hashes, after)
            end = n if close == -1 else close + 1 + len(hashes)
        elif kind == "rawcpp":
            delim = _RAW_CPP.match(text, s).group(1)
            after = s + len(delim) + 2
            close = text.find(")" + delim + '"', after)
            end = n if close == -1 else close + len(delim) + 2
        elif kind.startswith("heredoc"):
            return self._heredoc_open(kind, s)
        else:  # pragma: no cover - every kind is handled above
            end = after
        self._mark(s, end, STRING)
        return end

    def _template(self, s: int, pos: int) -> int:
        """A JavaScript template string from pos; `${...}` code is scanned as code."""
        text = self.text
        m = _TEMPLATE.match(text, pos)
        end = m.end()
        self._mark(s, end, STRING)
        if text.endswith("${", 0, end) and end >= 2 and text[end - 2 : end] == "${":
            self.stack.append("${")
            self.depth += 1
        return end

    def _block_end(self, pos: int, open_: str, close: str, nests: bool) -> int:
        text = self.text
        if not nests:
            end = text.find(close, pos)
            return self.n if end == -1 else end + len(close)
        level = 1
        pattern = re.compile(re.escape(open_) + "|" + re.escape(close))
        for m in pattern.finditer(text, pos):
            level += 1 if m.group() == open_ else -1
            if level == 0:
                return m.end()
        return self.n

    def _heredoc_open(self, kind: str, s: int) -> int:
        text = self.text
        if kind == "heredoc_sh":
            m = _HEREDOC_SH.match(text, s)
            if m:
                self.heredocs.append(("-" if m.group(1) else "", m.group(3)))
        elif kind == "heredoc_ruby":
            m = _HEREDOC_RUBY.match(text, s)
            if m:
                self.heredocs.append(("~" if m.group(1) else "", m.group(3)))
        else:
            m = _HEREDOC_PHP.match(text, s)
            if m:
                self.heredocs.append(("~", m.group(2)))
        return m.end() if m else s + 2

    def _heredoc_bodies(self, nl: int) -> int:
        """Skip the bodies of the heredocs opened on the line ending at nl; returns
        the offset of the line break that ends the last body's closing line."""
        text, pos = self.text, nl
        for indent, delim in self.heredocs:
            closing = re.compile(r"\n" + (r"[ \t]*" if indent else "") + re.escape(delim) + r"(?=[ \t;,)]*(?:\r?\n|\Z))")
            m = closing.search(text, pos + 1)
            end = m.start() + 1 if m else self.n
            self._mark(pos + 1, end, STRING)
            pos = text.find("\n", end) if m else self.n
            if pos == -1:
                pos = self.n
        self.heredocs = []
        return pos  # the line break after the closing delimiter is code again

    def _close(self, ch: str, s: int) -> int:
        """Close a bracket at s; returns where scanning goes on."""
        stack = self.stack
        want = {")": "(", "]": "[", "}": "{"}[ch]
        if not stack:
            return s + 1
        if stack[-1] == "${" and ch == "}":  # back into the template string
            stack.pop()
            self.depth -= 1
            return self._template(s, s + 1)
        if want not in stack[-3:]:
            return s + 1  # a stray closer: ignore it (a shell case pattern, broken code)
        while stack and stack[-1] != want:
            stack.pop()
            self.depth -= 1
        stack.pop()
        self.depth -= 1
        if ch == "}":
            self._brace_close(s)
        return s + 1

    # -- definitions in brace languages ---------------------------------------
    def _line_start(self, pos: int) -> None:
        """At the start of a line (outside strings and comments): definitions."""
        structure = self.lang.structure
        if structure in ("none", "markup"):
            return
        text = self.text
        first = _INDENT.match(text, pos).end()
        if first >= self.n or text[first] in "\r\n":
            if structure == "braces" and self.pending is not None and self.pending[1] == self.depth:
                self.pending = None  # a blank line ends a signature that never opened
            return
        if self._starts_comment(first):
            return
        line = len(self.nls)
        if structure == "braces":
            self._brace_line(line, first)
        elif structure in ("indent", "python", "yaml"):
            if self.depth == 0:
                self._indent_line(line, pos, first)
        elif structure == "toml":
            if self.depth == 0 and text[first] == "[":
                m = _TOML_TABLE.match(text, first)
                if m:
                    self._end_open(line)
                    self.open_defs.append((0, line, first, f"[{self.source[m.start(1) : m.end(1)]}]", False))
        elif structure == "sql":
            if self.depth == 0 and not self.sql_open:
                self.sql_open = True
                self._end_open(line)
                words = _SQL_WORD.findall(text, first, min(self.n, first + 120))
                label = " ".join(words[:3])
                self.open_defs.append((0, line, first, label, False))

    def _starts_comment(self, first: int) -> bool:
        text = self.text
        for marker in self.lang.line_comments:
            if text.startswith(marker, first):
                return True
        for open_, _, _ in self.lang.block_comments:
            if text.startswith(open_, first):
                return True
        return False

    def _brace_line(self, line: int, first: int) -> None:
        text, pending = self.text, self.pending
        if text[first] in ")]}":
            return
        decl = self.decl is not None and self.decl.match(text, first) is not None
        if pending is not None and pending[1] == self.depth:
            prev = text[self.nls[-2] + 1 if len(self.nls) > 1 else 0 : self.nls[-1]].rstrip() if self.nls else ""
            continues = _CONTINUES_LINE.match(text, first) or prev.endswith(_CONTINUED_BY)
            if continues and not (decl and self.lang.name == "json"):
                return  # a signature or selector that goes on over lines
            self.pending = None
        if decl:
            self.pending = (line, self.depth, first)

    def _brace_open(self, s: int) -> None:
        pending = self.pending
        if pending is not None and pending[1] == self.depth:
            line, _, first = pending
            sig = self.source[first:s]
            transparent = bool(self.transparent and self.transparent.match(self.text, first))
            self.open_defs.append((self.depth + 1, line, first, _label(sig, self.lang), transparent))
            self.pending = None

    def _brace_close(self, s: int) -> None:
        # after the pop: a definition whose body depth was depth + 1 ends here
        if self.lang.structure != "braces":
            return
        while self.open_defs and self.open_defs[-1][0] > self.depth:
            body, line, first, label, transparent = self.open_defs.pop()
            end = self.text.find("\n", s)
            self.raw_defs.append((line, self.n if end == -1 else end + 1, label, transparent))

    def _close_all(self) -> None:
        for _, line, first, label, transparent in self.open_defs:
            self.raw_defs.append((line, self.n, label, transparent))
        self.open_defs = []

    def _end_open(self, line: int) -> None:
        """End every open (flat) definition at the start of this line."""
        start = self.nls[line - 1] + 1 if line > 0 else 0
        for _, l, first, label, transparent in self.open_defs:
            self.raw_defs.append((l, start, label, transparent))
        self.open_defs = []

    def _sql_end(self, s: int) -> None:
        self.sql_open = False
        end = self.text.find("\n", s)
        for _, l, first, label, transparent in self.open_defs:
            self.raw_defs.append((l, self.n if end == -1 else end + 1, label, transparent))
        self.open_defs = []

    # -- definitions by indentation (Ruby, YAML, Python that does not parse) ----
    def _indent_line(self, line: int, pos: int, first: int) -> None:
        text, lang = self.text, self.lang
        indent = first - pos
        closing = lang.structure == "indent" and _RUBY_END.match(text, first) is not None
        continuing = lang.structure == "indent" and _RUBY_CONTINUES.match(text, first) is not None
        if lang.structure == "yaml" and indent == 0 and _YAML_DOCUMENT.match(text, first):
            self._end_open(line)
            return
        open_defs = self.open_defs
        while open_defs and open_defs[-1][0] > indent:
            _, l, f, label, transparent = open_defs.pop()
            self.raw_defs.append((l, pos, label, transparent))
        if lang.structure == "yaml" and text.startswith("-", first) and open_defs and open_defs[-1][0] == indent:
            continuing = True  # "key:\n- item": the items belong to the key
        if open_defs and open_defs[-1][0] == indent and not continuing:
            _, l, f, label, transparent = open_defs.pop()
            if closing:  # Ruby's "end" closes the definition it lines up with
                end = text.find("\n", first)
                self.raw_defs.append((l, self.n if end == -1 else end + 1, label, transparent))
                return
            self.raw_defs.append((l, pos, label, transparent))
        if lang.structure == "yaml":
            m = _YAML_KEY.match(text, first)
            if m:
                # an item's indent is its dash's + 0.5: the next item closes it, its key's lines do not
                key = self.source[m.start(2) : m.end(2)].strip("'\" ")
                self.open_defs.append((indent + 0.5 if m.group(1) else indent, line, first, key, False))
            return
        if self.decl is not None and self.decl.match(text, first):
            eol = text.find("\n", first)
            self.open_defs.append((indent, line, first, _label(self.source[first : self.n if eol == -1 else eol], lang), False))

    # -- HTML and XML ---------------------------------------------------------
    def _run_markup(self) -> None:
        text, n = self.text, self.n
        html = self.lang.name == "html"
        stack: list[tuple[str, int, int, bool]] = []  # (tag, line, first, at line start)
        pos = 0
        for m in _MARKUP.finditer(text):
            s = m.start()
            if s < pos:
                continue
            tok = m.group()
            if tok == "\n":
                self.nls.append(s)
                self.states.append(CODE)
                self.depths.append(len(stack))
                continue
            if tok.startswith("<!--"):
                end = text.find("-->", s + 4)
                end = n if end == -1 else end + 3
                self.comment_starts.append(s)
                self._mark(s, end, COMMENT)
                pos = end
                continue
            if tok.startswith("<![CDATA["):
                end = text.find("]]>", s)
                end = n if end == -1 else end + 3
                self._mark(s, end, STRING)
                pos = end
                continue
            if tok.startswith("<?") or tok.startswith("<!"):
                end = text.find(">", s)
                end = n if end == -1 else end + 1
                self._mark(s, end, STRING)
                pos = end
                continue
            tag = _TAG.match(text, s)
            if tag is None:
                continue  # a lone "<" in text
            end = tag.end()
            self.depth = len(stack)
            self._mark(s, end, STRING)  # a line break inside a tag is no place to cut
            pos = end
            name = tag.group(2).lower() if html else tag.group(2)
            line = len(self.nls) - (text.count("\n", s, end))
            line_start = self.nls[line - 1] + 1 if line > 0 else 0
            at_start = not text[line_start:s].strip()
            if tag.group(1):  # a closing tag
                names = [t[0] for t in stack[-64:]]  # (a bounded look: linear on deep nesting)
                if name in names:
                    while stack:
                        t = stack.pop()
                        if t[0] == name:
                            if t[3] and len(self.nls) > t[1]:
                                close_end = text.find("\n", end)
                                label = t[4] if len(t) > 4 else f"<{t[0]}>"
                                self.raw_defs.append((t[1], n if close_end == -1 else close_end + 1, label, t[5] if len(t) > 5 else False))
                            break
                continue
            if tag.group(3) or (html and name in _VOID):
                continue
            idm = _TAG_ID.search(tag.group())
            shown = self.source[tag.start(2) : tag.end(2)]
            shown = shown.lower() if html else shown
            label = f"<{shown}#{self.source[s + idm.start(1) : s + idm.end(1)]}>" if idm else f"<{shown}>"
            transparent = (html and name in ("html", "body")) or (not html and not stack)
            stack.append((name, line, s, at_start, label, transparent))
            if html and name in ("script", "style", "textarea", "pre"):
                close = re.compile(rf"</{name}\s*>", re.I).search(text, end)
                body_end = n if close is None else close.start()
                self._mark(end, body_end, STRING if name != "script" and name != "style" else CODE)
                pos = body_end


_TOML_TABLE = re.compile(r"\[\[?\s*([^\]\n]+?)\s*\]\]?")
_SQL_WORD = re.compile(r"[^\s(]+")
_RUBY_END = re.compile(r"end\b|\}")
_RUBY_CONTINUES = re.compile(r"(?:rescue|ensure|else|elsif|when|in)\b")
_YAML_DOCUMENT = re.compile(r"(?:---|\.\.\.)(?:[ \t]|$)", re.M)
_YAML_KEY = re.compile(r"(- +)?(\"[^\"\n]*\"|'[^'\n]*'|[^\s#'\"{\[\-?:][^:#\n]*?|[\w.-]+)[ \t]*:(?:[ \t]|$)", re.M)
_MARKUP = re.compile(r"\n|<!--|<!\[CDATA\[|<[?!]|</?[A-Za-z]")
# A tag stops at the next "<" outside quotes, and a quoted value at 4,000 characters:
# a stray "<" or quote can then cost only so much, never a scan to the end each.
_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*)(?:[^<>\"']++|\"[^\"]{0,4000}\"|'[^']{0,4000}')*?(/?)>")
_TAG_ID = re.compile(r"\bid\s*=\s*[\"']?([^\"'\s>]+)")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


def _label(signature: str, lang: Language) -> str:
    """A short name for a definition: "class Parser", "fn main", "main()", ".btn".
    The patterns run over the signature as known to this Python (uniclass.py); the
    name is taken from the signature itself."""
    sig = _SPACE_RUN.sub(" ", signature.split("\n", 1)[0] if lang.structure != "braces" else signature).strip()
    sig = sig.rstrip("{").strip()
    known = uniclass.as_known(sig)

    def group(m: re.Match, i: int) -> str | None:
        return None if m.start(i) < 0 else sig[m.start(i) : m.end(i)]

    if lang.name == "json":
        m = re.match(r"\"((?:[^\"\\]|\\.)*)\"", sig)
        return m.group(1) if m else sig[:60]
    if lang.name in ("css", "sql"):
        return sig[:60]
    if lang.name == "shell":
        m = _SHELL_NAME.match(known)
        return f"{group(m, 1)}()" if m else sig[:60]
    m = _LABEL_KEYWORD.search(known)
    call = _CALL_NAME.search(known)
    if m and (call is None or m.start() <= call.start()):
        kw, name = m.group(1), (group(m, 2) or "").rstrip(":") or None
        if kw == "impl":
            return sig[m.start() :].split(" where ")[0][:60].strip()
        if kw in ("func", "fun", "fn", "function", "def") and name is None and call:
            name = group(call, 1)
        if kw == "def" and known[: m.start()].rstrip().endswith("async"):
            kw = "async def"  # as ast names it (Python's AsyncFunctionDef)
        return f"{kw} {name}" if name else kw
    if call:
        return f"{group(call, 1)}()"
    return sig[:60]


_SHELL_NAME = re.compile(r"(?:function\s+)?([\w:.\-]+)")


def _python_defs(text: str, scanner: _Scanner):
    """Definitions from Python's own parser, or None when it does not parse by
    AST_GRAMMAR (the scanner's are used then, on every Python alike)."""
    if "\r" in text.replace("\r\n", ""):
        return None  # ast counts a lone \r as a line break; the scanner does not
    if not _parser_may_read(text):
        return None
    try:
        with warnings.catch_warnings():
            # an invalid escape ("\d") is a DeprecationWarning in 3.11 and a printed SyntaxWarning from 3.12 on
            warnings.simplefilter("ignore")
            tree = ast.parse(text, feature_version=AST_GRAMMAR)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None
    if sys.version_info[:2] > AST_GRAMMAR and _has_newer_f_strings(text):
        return None
    nls, n = scanner.nls, len(text)
    found = []

    def visit(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kw = "class" if isinstance(node, ast.ClassDef) else ("async def" if isinstance(node, ast.AsyncFunctionDef) else "def")
                first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
                end_line = node.end_lineno or node.lineno  # 1-based last line
                end = nls[end_line - 1] + 1 if end_line - 1 < len(nls) else n
                found.append((first, end, f"{kw} {node.name}", False, node.lineno - 1))
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                child = getattr(node, field, None)
                if isinstance(child, list):
                    visit(child)

    try:
        visit(tree.body)
    except RecursionError:
        return None
    return found


def _has_newer_f_strings(text: str) -> bool:
    """Does the code use what f-strings may hold only from Python 3.12 on (PEP 701),
    which ast's feature_version does not reject: the enclosing f-string's quote
    inside a replacement field, a backslash in a string there, a comment there, or
    a line break inside a single-quoted f-string? (Python 3.12+ only: its tokenizer
    gives f-strings' parts as tokens.)"""
    quotes: list[str] = []  # the quotes of the f-strings the tokens are inside, innermost last
    starts: list[int] = []  # and the lines they started on
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind = tokenize.tok_name[tok.type]
            if kind in ("FSTRING_START", "TSTRING_START"):
                quote = tok.string.lstrip("fFrRbBtT")
                if any(q in quote for q in quotes):
                    return True
                quotes.append(quote)
                starts.append(tok.start[0])
            elif kind in ("FSTRING_END", "TSTRING_END") and quotes:
                if len(quotes[-1]) == 1 and tok.end[0] != starts[-1]:
                    return True
                quotes.pop()
                starts.pop()
            elif quotes and kind == "COMMENT":
                return True
            elif quotes and kind in ("STRING", "FSTRING_MIDDLE", "TSTRING_MIDDLE"):
                # a string inside a replacement field (a nested f-string's text too;
                # the outermost one's own text is free): 3.11 ended the f-string at
                # its quote, and allowed no backslash there
                outer = quotes if kind == "STRING" else quotes[:-1]
                if outer and ("\\" in tok.string or any(q in tok.string for q in outer)):
                    return True
    except (tokenize.TokenError, SyntaxError, ValueError):
        return False  # what ast parsed, the 3.11 grammar parsed too
    return False


# -- what Python's parser may be given --------------------------------------------
# Python's parser, and ast's conversion of what it parsed, recurse in C once per
# nesting level: a bracket, a unary operator, each operator of a chain (a + b + c
# nests), each elif. The page's Python runs on the browser's stack, which 900 unary
# minus signs in a row or 200 brackets overflowed, killing it (CPython has room to
# raise RecursionError). So the nesting is measured first, in one linear pass, in units
# of about one unary operator's share of that stack: a bracket costs four more, an
# indentation level or an elif two (measured in Chromium's worker and in Node). Past
# _DEPTH_LIMIT, a quarter of what the browser survives, the scanner reads the code, on
# every Python alike.
_DEPTH_LIMIT = 200
_BRACKET, _LEVEL, _ELIF = 4, 2, 2
_STRING_TOKEN = (
    r"[rRbBuUfFtT]{0,2}"
    r"(?:'''(?:[^'\\]++|\\[\s\S]|'(?!''))*+(?:'''|\Z)|\"\"\"(?:[^\"\\]++|\\[\s\S]|\"(?!\"\"))*+(?:\"\"\"|\Z)"
    r"|'(?:[^'\\\n]++|\\[\s\S])*+(?:'|(?=\n)|\Z)|\"(?:[^\"\\\n]++|\\[\s\S])*+(?:\"|(?=\n)|\Z))"
)
# A number as Python's tokenizer reads one, so that what follows it is read as it
# does: "0 if 1else 2", "0x1for" (0x1f or).
_NUMBER = (
    r"0[xX](?:_?[0-9a-fA-F])*+|0[bB](?:_?[01])*+|0[oO](?:_?[0-7])*+"
    r"|[0-9](?:_?[0-9])*+(?:\.(?:[0-9](?:_?[0-9])*+)?)?(?:[eE][+-]?[0-9](?:_?[0-9])*+)?[jJ]?"
)


def _nesting_tokens(field: bool) -> re.Pattern:
    """The tokens that nest, open or close a level or end a statement, each string
    whole (as Python 3.11 reads it: an f-string ends at its first closing quote), and
    any character outside ASCII (see _parser_may_read); in an f-string's replacement
    field also a backslash. Each match first skips what is none of these, names and
    numbers included, inside re (one Python step per token, not per character).
    ASCII classes only (re.A)."""
    skip = (
        r"(?:[^'\"#,;:+\-*/%@&|^~.<>()\[\]{}\n\\A-Za-z0-9_\x80-\U0010ffff]++"
        rf"|{_NUMBER}|(?!(?:and|or|not|lambda|else|await)\b|[rRbBuUfFtT]{{1,2}}['\"])[A-Za-z_][A-Za-z0-9_]*+)*+"
    )
    tokens = (
        rf"(?P<s>{_STRING_TOKEN})|(?P<c>#[^\n]*)|(?P<a>(?:and|or)\b)|(?P<r>[,;])|(?P<h>(?:lambda|else)\b)"
        r"|(?P<o>(?:not|await)\b|<<|>>|[-+*/%@&|^~.])|(?P<b>[(\[{])|(?P<e>[)\]}])|(?P<k>:)|(?P<n>\n)"
        r"|(?P<l>\\\r?\n)|(?P<u>[^\x00-\x7f])" + (r"|(?P<x>\\)" if field else "")
    )
    return re.compile(rf"{skip}(?:{tokens}|(?P<z>[\s\S]|\Z))", re.A)  # z: anything else, the end


_NESTING = _nesting_tokens(False)
_IN_FIELD = _nesting_tokens(True)  # in an f-string's {...}
_F_TEXT = re.compile(r"(?:[^{\\]++|\{\{|\\\\|\\N\{[^}\n]*\}|\\)*+")  # an f-string's text up to its next "{"
_F_RAW_TEXT = re.compile(r"(?:[^{]++|\{\{)*+")
_SPEC_TEXT = re.compile(r"[^{}]*+")  # a format spec's text
_ELSE_LINE = re.compile(r"(?:elif|else)\b", re.A)


class _Unsafe(Exception):
    """Python's parser must not see this text (_parser_may_read)."""


def _parser_may_read(text: str) -> bool:
    """May Python's parser be given this code, the same on every Python? Not when it
    nests deeper than _DEPTH_LIMIT; not when a character outside ASCII stands outside
    strings and comments (an identifier: CPython 3.11 knows Unicode 14, the page's
    Python 16, so a letter of Unicode 15 or 16 parsed in the page only); not when an
    f-string holds its own quote in a replacement field, or a '#' or a backslash in
    its code (only Python 3.12 on reads those; 3.11 raised SyntaxError)."""
    try:
        _Nesting(text).run()
    except _Unsafe:
        return False
    return True


class _Nesting:
    """What the open levels (brackets, a lambda's parameters, f-string fields) and the
    operators at each cost. An operator nests what follows it until a comma ends the
    element, and until an "and" or "or" unless it is a lambda or an else: those take
    in the whole rest ("lambda: a and lambda: b" nests)."""

    def __init__(self, text: str):
        self.text = text
        self.levels = [[0, 0]]  # per open level: [operators that "and" ends, lambdas and elses]
        self.lambdas: list[int] = []  # the levels that are a lambda's parameters (up to its ":")
        self.cost = 0  # of the open levels and their operators
        self.blocks = [[0, 0]]  # the open indentation levels: [width, elifs and elses in a row]
        self.block_cost = 0

    def add(self, units: int) -> None:
        self.cost += units
        if self.cost + self.block_cost > _DEPTH_LIMIT:
            raise _Unsafe

    def op(self, held: int = 0) -> None:
        self.levels[-1][held] += 1
        self.add(1)

    def reset(self, held: bool) -> None:
        """After "and" (held=False) or a comma: what follows is a sibling of what came before."""
        level = self.levels[-1]
        self.cost -= level[0] + (level[1] if held else 0)
        level[0] = 0
        if held:
            level[1] = 0

    def open(self) -> None:
        self.op()  # f(x)(y): a call, a subscript or a bracketed atom nests like an operator
        self.levels.append([0, 0])
        self.add(_BRACKET)

    def close(self, floor: int = 1) -> bool:
        """A closing bracket: closes the innermost bracket above the level floor, if any."""
        while self.lambdas and self.lambdas[-1] == len(self.levels) > floor:  # "(lambda x)": no ":"
            self._pop()
        if len(self.levels) <= floor:
            return False
        self._pop()
        return True

    def _pop(self) -> None:
        if self.lambdas and self.lambdas[-1] == len(self.levels):
            self.lambdas.pop()
        self.cost -= _BRACKET + sum(self.levels.pop())

    def token(self, m: re.Match) -> str | None:
        """Count one token; returns its kind where the caller has more to do."""
        kind = m.lastgroup
        if kind == "o":
            self.op()
        elif kind == "a":
            self.reset(False)
        elif kind == "r":
            self.reset(True)
        elif kind == "b":
            self.open()
        elif kind == "h":
            self.op(held=1)
            if m.group("h") == "lambda":  # its parameters, up to its ":", are a level of their own
                self.levels.append([0, 0])
                self.add(_BRACKET)
                self.lambdas.append(len(self.levels))
        elif kind == "k" and self.lambdas and self.lambdas[-1] == len(self.levels):
            self._pop()
        elif kind == "s":
            self.string(m)
        elif kind == "u":
            raise _Unsafe
        else:
            return kind
        return None

    def run(self) -> None:
        for m in _NESTING.finditer(self.text):
            kind = self.token(m)
            if kind == "e":
                self.close()
            elif kind == "n" and len(self.levels) == 1:
                self.reset(True)
                self.line(m.end())

    def line(self, pos: int) -> None:
        """At the start of a statement's line: its indentation level, and whether it
        goes on an if's chain of elifs (each nests the next)."""
        text = self.text
        first = _INDENT.match(text, pos).end()
        if first == len(text) or text[first] in "#\r\n":
            return  # a blank or comment line
        indent = text[pos:first]
        width = len(indent[indent.rfind("\f") + 1 :].expandtabs(8))  # (a form feed resets the column)
        blocks = self.blocks
        while len(blocks) > 1 and blocks[-1][0] > width:
            self.block_cost -= _LEVEL + blocks.pop()[1] * _ELIF
        if width > blocks[-1][0]:
            blocks.append([width, 0])
            self.block_cost += _LEVEL
        if _ELSE_LINE.match(text, first):
            blocks[-1][1] += 1
            self.block_cost += _ELIF
        else:
            self.block_cost -= blocks[-1][1] * _ELIF
            blocks[-1][1] = 0
        self.add(0)

    def string(self, m: re.Match) -> None:
        """A string: an f-string's (and a t-string's) replacement fields are code."""
        token = m.group("s")
        quote = token.lstrip("rRbBuUfFtT")
        prefix = token[: len(token) - len(quote)].lower()
        if "f" not in prefix and "t" not in prefix:
            return
        q = quote[:3] if quote[:3] in ("'''", '"""') else quote[0]
        start = m.start("s") + len(prefix) + len(q)
        end = m.end() - len(q) if len(quote) >= 2 * len(q) and quote.endswith(q) else m.end()
        self.op()
        literal = _F_RAW_TEXT if "r" in prefix else _F_TEXT
        while True:
            start = literal.match(self.text, start, end).end()
            if start >= end:
                return
            start = self.field(start + 1, end)  # at a "{"

    def field(self, pos: int, end: int) -> int:
        """A replacement field from pos (after its "{") in an f-string's body that
        ends at end: its code, and its format spec; returns where the field ends."""
        self.open()
        level = len(self.levels)
        for m in _IN_FIELD.finditer(self.text, pos, end):
            kind = self.token(m)
            if kind == "e" and not self.close(level):
                if m.group("e") != "}":
                    raise _Unsafe  # a ")" that nothing in the field opened
                self._pop()
                return m.end()
            elif kind == "k" and len(self.levels) == level:
                return self.spec(m.end(), end)
            elif kind in ("c", "x", "l"):
                raise _Unsafe  # a '#' or a backslash
        raise _Unsafe  # the f-string ends inside the field: 3.11 ends it at its quote

    def spec(self, pos: int, end: int) -> int:
        """A format spec (after the ":"), up to the "}" that ends its field; it may
        hold fields of its own."""
        text = self.text
        while True:
            pos = _SPEC_TEXT.match(text, pos, end).end()
            if pos >= end:
                raise _Unsafe
            if text[pos] == "}":
                self._pop()
                return pos + 1
            pos = self.field(pos + 1, end)


def _finish(text: str, scanner: _Scanner, raw) -> list[Definition]:
    """Attach leading comments and attributes, nest, and number the definitions."""
    nls, states = scanner.nls, scanner.states
    n = len(text)
    comment_starts = set(scanner.comment_starts)
    attribute = re.compile(scanner.lang.attribute) if scanner.lang.attribute else None

    def line_start(i: int) -> int:
        return nls[i - 1] + 1 if i > 0 else 0

    def begins_in(i: int) -> int:
        """What line i begins inside of: CODE, STRING or COMMENT."""
        return states[i - 1] if i > 0 else CODE

    # Each walk up stops at another definition's line, so no line is walked twice
    # (but by definitions on one line: memo).
    def_lines = {entry[0] for entry in raw}
    memo: dict[int, int] = {}

    def attached(line: int) -> int:
        """The first line kept with the definition on `line`: the comments and
        attributes right above it, a block comment whole (a blank line inside it
        too), and never a line that begins inside a comment or string."""
        if line in memo:
            return memo[line]
        k = top = line
        while k > 0:
            above = k - 1
            if begins_in(above) == COMMENT:
                k = above  # a block comment's line, blank or not: on to its first line
                continue
            if begins_in(above) == STRING or above in def_lines:
                break
            first = _INDENT.match(text, line_start(above)).end()
            if first >= n or text[first] in "\r\n":
                break  # a blank line
            if first in comment_starts or (attribute and attribute.match(text, first)):
                k = top = above
                continue
            break
        memo[line] = top
        return top

    items = []
    for entry in raw:
        if len(entry) == 5:  # Python: (first line incl. decorators, end, label, transparent, def line)
            first_line, end, label, transparent, def_line = entry
        else:
            first_line, end, label, transparent = entry
            def_line = first_line
        if first_line > len(nls):
            continue
        top = attached(first_line)
        line = line_start(def_line)
        sig_end = text.find("\n", line)
        signature = text[line : n if sig_end == -1 else sig_end].strip()
        items.append((line_start(top), line, max(end, line + 1), label, transparent, signature))
    items.sort(key=lambda d: (d[0], -d[2]))
    defs: list[Definition] = []
    stack: list[int] = []  # indexes of the open definitions
    for start, line, end, label, transparent, signature in items:
        while stack and defs[stack[-1]].end <= line:
            stack.pop()
        parent = stack[-1] if stack else -1
        level = 0
        if parent >= 0:
            p = defs[parent]
            level = p.level + (0 if p.transparent else 1)
        defs.append(Definition(start, line, min(end, n), label, level, parent, signature, transparent))
        stack.append(len(defs) - 1)
    return defs
