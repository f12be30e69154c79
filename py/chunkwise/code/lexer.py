"""The lexer: comments and string literals (multi-line, raw, template strings,
heredocs) and brackets, in one linear pass that records each line break with what
it is inside of and the bracket depth after it. At each line start outside strings
and comments it hands over to the definitions (definitions.py); markup languages
are read by markup.py instead."""
from __future__ import annotations

import functools
import re

from .languages import Language
from .structure import CODE, COMMENT, STRING


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
_LINE_BREAK = re.compile("\n")
_RAW_CPP = re.compile(r"\"([^()\\\s]{0,16})\(")
_OPENS = {")": "(", "]": "[", "}": "{"}  # the opener each closer closes
# A Python line's indentation up to a form feed, if any (after one, the column starts
# again: a narrower indentation, so the definitions are asked)
_PYTHON_INDENT = re.compile(r"[ \t\v]*")
_BLANK_OR_COMMENT = ("\n", "\r", "#", "")  # what a Python line's text may start with that ends no definition


@functools.lru_cache(maxsize=None)
def _patterns(lang: Language):
    """A language's scanner patterns, built once (a Markdown file can have hundreds
    of fenced blocks of one language): (the event groups' kinds, the trigger, the
    events, the block comments' closers, the definition and transparent patterns, and
    the characters the trigger stops at)."""
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
    return kinds, trigger, events, block, decl, transparent, frozenset(firsts)


@functools.lru_cache(maxsize=None)
def _plain_line(lang: Language, free: bool) -> re.Pattern:
    """The rest of a line up to its break where nothing starts but brackets that close on
    it (nested up to three deep) and strings that end on it with no escape in them: most
    lines of code. Their events would leave the scanner as they found it (a balanced
    bracket pushes and pops itself; such a string holds no line break to record), so such
    a line is skipped whole. A quote only where it opens nothing but a plain string (or a
    triple one). In brace languages "{" and ";" end or open a pending signature: only on
    a `free` line (none pending) are "{...}" and ";" plain there (";" never in SQL)."""
    firsts = _patterns(lang)[6]  # (what the trigger stops at)
    if free and lang.structure != "sql":
        firsts -= {";"}
    other = "[^" + "".join(re.escape(c) for c in sorted(firsts)) + "]*+"
    pairs = ["()", "[]"] + (["{}"] if free or lang.structure != "braces" else [])
    strings = [
        rf"{q}(?!{q}{q})[^{q}\\\n]*+{q}" for q in "\"'"
        if q in lang.strings and not any(q in _OPENER[k][1] for k in lang.strings if k not in (q, q * 3))
    ]

    def nested(inner: str) -> str:
        atoms = [f"{re.escape(o)}{inner}{re.escape(c)}" for o, c in pairs] + strings
        return other + "(?:(?:" + "|".join(atoms) + ")" + other + ")*+"

    return re.compile(nested(nested(nested(other))) + r"(?=\n)")


@functools.lru_cache(maxsize=None)
def _line_heads(lang: Language) -> tuple[re.Pattern, re.Pattern | None]:
    """What a line outside strings and comments starts with, in one match (the definitions
    read it at every line start): its indentation (group "i"), then a line break or the
    end ("b": a blank line), a comment's opener ("c"); in brace languages a closing
    bracket ("x") or, failing those, a definition ("d"). m.lastgroup names which.
    Second, for brace languages and Python, the same as a search for the line breaks
    before a line whose head is a definition (None for the others): a search for "\n"
    skips ahead fast, where "^" was tried at every character."""
    markers = "|".join(re.escape(m) for m in [*lang.line_comments, *(open_ for open_, _, _ in lang.block_comments)])
    alternatives = [r"(?P<b>[\r\n]|\Z)"] + ([f"(?P<c>{markers})"] if markers else [])
    decl_lines = None
    if lang.structure == "braces":
        alternatives.append(r"(?P<x>[)\]}])")
        if lang.decl:
            alternatives.append(f"(?P<d>{lang.decl})")
    if lang.structure in ("braces", "python"):
        # (the definition in a lookahead: the match never runs past its line's indentation)
        not_before = r"[\r\n]|\Z|[)\]}]" + (f"|{markers}" if markers else "")
        decl_lines = re.compile(rf"\n[ \t\f\v]*+(?!{not_before})(?={lang.decl or '(?!)'})", re.M)
    head = re.compile(r"(?P<i>[ \t\f\v]*+)(?:" + "|".join(alternatives) + ")?")
    return head, decl_lines


class Lexer:
    """The scanner's lexing (scan._Scanner sets the state): its hooks for definitions
    (_line_start, _brace_open, _brace_close, _sql_end, _close_all) are DefinitionTracker's,
    and _run_markup is MarkupScanner's."""

    # -- line breaks --------------------------------------------------------
    def _mark(self, lo: int, hi: int, state: int) -> None:
        """Record the line breaks inside [lo, hi) as inside a string or comment."""
        text = self.text
        k = text.count("\n", lo, hi)
        if not k:
            return
        if k == 1:
            self.nls.append(text.find("\n", lo, hi))
        else:  # (a doc comment, a long string: in one search)
            self.nls.extend([m.start() for m in _LINE_BREAK.finditer(text, lo, hi)])
        self.states.extend([state] * k)
        self.depths.extend([self.depth] * k)

    def run(self) -> None:
        structure = self.lang.structure
        if structure == "markup":
            return self._run_markup()
        text, n, events, kinds, trigger = self.text, self.n, self.events, self.kinds, self.trigger
        self._line_start(0)
        # A brace language's line that starts no definition while none is pending has
        # nothing for the definitions, nor has a Python line that starts none and is
        # indented deeper than the innermost: only the others are read (most lines are neither).
        dedents = structure == "python"
        # (the first line is read by _line_start(0) above; these are the starts of the others)
        decl_lines = {d.start() + 1 for d in self.decl_lines.finditer(text)} if self.decl_lines is not None else None
        nls, states, depths, stack = self.nls, self.states, self.depths, self.stack
        # At a line's first event, the rest of the line may be plain (_plain_line): free where
        # no signature is pending and no definition is open deeper than the brackets (a "}"
        # would end it), always outside brace languages. (Tried there, not at the line's
        # start: a line with no event costs nothing.)
        plain, free = _plain_line(self.lang, False).match, _plain_line(self.lang, True).match
        always_free = structure != "braces"
        first_event = True
        pos = 0
        while pos < n:
            t = trigger.search(text, pos)
            if t is None:
                break
            s = t.start()
            ch = text[s]
            if first_event and ch != "\n":
                first_event = False
                if always_free or self.pending is None and not (self.open_defs and self.open_defs[-1][0] > self.depth):
                    skipped = free(text, s)
                else:
                    skipped = plain(text, s)
                if skipped:  # on to the line break that ends it
                    s, ch = skipped.end(), "\n"
            # the common events first: a line break, a bracket
            if ch == "\n":
                first_event = True
                nls.append(s)
                depths.append(self.depth)
                if self.heredocs:  # this line break already belongs to the heredoc's body
                    states.append(STRING)
                    pos = self._heredoc_bodies(s)
                    continue
                states.append(CODE)
                pos = s + 1
                if decl_lines is None or self.pending is not None or pos in decl_lines or (
                    # Python: a line that may end a definition (indented no deeper than the
                    # innermost), and is not blank nor a comment (which end none)
                    dedents and self.depth == 0 and self.open_defs
                    and (first := _PYTHON_INDENT.match(text, pos).end()) - pos <= self.open_defs[-1][0]
                    and text[first : first + 1] not in _BLANK_OR_COMMENT
                ):
                    self._line_start(pos)
            elif ch in "([{":
                if ch == "{":
                    self._brace_open(s)
                stack.append(ch)
                self.depth += 1
                pos = s + 1
            elif ch in ")]}":
                pos = self._close(ch, s)
            elif ch == ";":
                if self.pending is not None and self.pending[1] == self.depth:
                    self.pending = None
                if structure == "sql" and self.depth == 0:
                    self._sql_end(s)
                pos = s + 1
            else:
                m = events.match(text, s) if events is not None else None
                pos = s + 1 if m is None else self._event(kinds[m.lastgroup], m, s)
        self._close_all()

    def _event(self, kind: str, m: re.Match, s: int) -> int:
        """A comment or a string that starts at s; returns where scanning goes on."""
        text = self.text
        if kind == "line":
            if self.lang.hash_needs_space and s > 0 and not text[s - 1].isspace() and text[s - 1] not in ";|&(":
                return s + 1
            end = text.find("\n", s)
            self.comment_starts.append(s)
            return self.n if end == -1 else end
        if kind.startswith("block:"):
            close, nests = self.block[kind]
            end = self._block_end(s + len(m.group()), kind[6:], close, nests)
            self.comment_starts.append(s)
            self._mark(s, end, COMMENT)
            return end
        return self._string(kind, m, s)

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
        want = _OPENS[ch]
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
