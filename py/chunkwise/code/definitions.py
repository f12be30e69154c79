"""The definitions a scan finds: where each starts and ends (by braces, indentation,
TOML tables, SQL statements, YAML keys), its label ("class Parser", "fn main",
".btn"), and once the text is read (_finish), the comments and attributes attached
above each, their nesting and their levels."""
from __future__ import annotations

import re

from ..unicode import classes
from .languages import Language
from .structure import _INDENT, CODE, COMMENT, STRING, Definition

_SPACE_RUN = re.compile(r"\s+")
# Lines that continue the statement of the line before (brace languages).
_CONTINUES_LINE = re.compile(r"(?:\{|:|\.|,|\?|&&|\|\||->|=>|throws\b|extends\b|implements\b|where\b|requires\b|const\b|noexcept\b|override\b|final\b)")
_CONTINUED_BY = (",", "(", "=", "->", "=>", "&&", "||", ":", "+", "-", "|", "&", "\\")
_LABEL_KEYWORD = re.compile(
    r"\b(class|interface|enum|struct|trait|impl|fn|func|fun|function|def|module|namespace|object|record|protocol|"
    r"extension|union|type|typealias|actor|mod|macro_rules!|delegate|const|let|var)\b\s*(?:\([^)]*\)\s*)?([\w$.:~!?\\]+)?"
)
_NAME_RUN = re.compile(r"[\w$~.:]++")
_WORD_END = re.compile(r"\w")
_SPACES = re.compile(r"\s*+")
_PAREN = re.compile(r"[()]")
_GENERIC_BEFORE = re.compile(r">\s*+$")


def _call_name(sig: str) -> tuple[int, int] | None:
    """Where the first called name is in sig: a name that ends in a word character, then
    an optional generic with no parenthesis in it ("<K, V>"), then "(", blanks allowed
    between. Searched as one regex, this retried every start inside a long name and
    rescanned to the next parenthesis from every "<": quadratic (10,000 letters after
    "class A extends " took 6 s). Here each name is read once, and the next parenthesis
    is found once for all the "<" before it."""
    paren, generic = -1, False  # the next "(" or ")" after the last "<" seen (len(sig): none); a generic ends there
    for run in _NAME_RUN.finditer(sig):
        start, end = run.span()
        if not _WORD_END.match(sig, end - 1):
            continue  # (a name cannot end there: what follows it is part of the run)
        at = _SPACES.match(sig, end).end()
        following = sig[at : at + 1]
        if following == "(":
            return start, end
        if following == "<":
            if paren < at:
                found = _PAREN.search(sig, at)
                paren = found.start() if found else len(sig)
                generic = found is not None and found.group() == "(" and _GENERIC_BEFORE.search(sig, at + 1, paren) is not None
            if generic:  # (the ">" before that "(" is after every "<" up to it)
                return start, end
    return None


class DefinitionTracker:
    """The scanner's definitions (scan._Scanner sets the state), called by the lexer
    at each line start, "{", "}" and ";" outside strings and comments."""

    # -- definitions in brace languages ---------------------------------------
    def _line_start(self, pos: int) -> None:
        """At the start of a line (outside strings and comments): definitions."""
        structure = self.lang.structure
        if structure in ("none", "markup"):
            return
        text = self.text
        head = self.head.match(text, pos)  # (lexer._line_head)
        kind = head.lastgroup
        if kind == "b":  # a blank line
            if structure == "braces" and self.pending is not None and self.pending[1] == self.depth:
                self.pending = None  # a blank line ends a signature that never opened
            return
        if kind == "c":  # a comment line
            return
        if structure == "python" and self._continues(pos):
            return  # the line before ends in a backslash: this one goes on its statement
        first = head.end("i")
        line = len(self.nls)
        if structure == "braces":
            if kind != "x":  # (a line that starts with a closing bracket: nothing)
                self._brace_line(line, first, kind == "d")
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

    def _brace_line(self, line: int, first: int, decl: bool) -> None:
        """A line of a brace language that starts at first; decl: a definition starts there."""
        text, pending = self.text, self.pending
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
        end = self._code_end(self.n) if self.lang.structure == "python" and self.open_defs else self.n
        for _, line, first, label, transparent in self.open_defs:
            self.raw_defs.append((line, end, label, transparent))
        self.open_defs = []

    # -- Python's lines as its parser reads them ----------------------------------
    def _continues(self, pos: int) -> bool:
        """Does the line before pos end in a backslash outside a comment (a line joined to the next)?"""
        text = self.text
        end = pos - 2 if pos >= 2 and text[pos - 2] == "\r" else pos - 1
        if end < 1 or text[end - 1] != "\\":
            return False
        line_start = self.nls[-2] + 1 if len(self.nls) > 1 else 0
        return not (self.comment_starts and self.comment_starts[-1] >= line_start)

    def _code_end(self, end: int) -> int:
        """Where a Python definition closed at end ends as Python's parser says: after its
        last line of code, without the blank and comment lines that follow it. end is the
        start of the line the scan is at (after its last line break so far) or the text's end."""
        text, nls, states, n = self.text, self.nls, self.states, self.n
        # the line break before the line above end (-1: that line is the first)
        k = len(nls) - 2 if end < n or text.endswith("\n") else len(nls) - 1
        while k >= -1:
            if k >= 0 and states[k] != CODE:
                break  # a line that begins inside a string
            start = nls[k] + 1 if k >= 0 else 0
            first = _INDENT.match(text, start).end()
            if first < n and text[first] not in "#\r\n":
                break  # a line of code
            end = start
            k -= 1
        return end

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

    # -- definitions by indentation (Python, Ruby, YAML) ------------------------
    def _indent_line(self, line: int, pos: int, first: int) -> None:
        text, lang = self.text, self.lang
        indent = first - pos
        if lang.structure == "python":
            indent = first - (text.rfind("\f", pos, first) + 1 or pos)  # (Python's column starts again after a form feed)
        closing = lang.structure == "indent" and _RUBY_END.match(text, first) is not None
        continuing = lang.structure == "indent" and _RUBY_CONTINUES.match(text, first) is not None
        if lang.structure == "yaml" and indent == 0 and _YAML_DOCUMENT.match(text, first):
            self._end_open(line)
            return
        open_defs = self.open_defs
        end = pos
        if lang.structure == "python" and open_defs and open_defs[-1][0] >= indent:
            end = self._code_end(pos)
        while open_defs and open_defs[-1][0] > indent:
            _, l, f, label, transparent = open_defs.pop()
            self.raw_defs.append((l, end, label, transparent))
        if lang.structure == "yaml" and text.startswith("-", first) and open_defs and open_defs[-1][0] == indent:
            continuing = True  # "key:\n- item": the items belong to the key
        if open_defs and open_defs[-1][0] == indent and not continuing:
            _, l, f, label, transparent = open_defs.pop()
            if closing:  # Ruby's "end" closes the definition it lines up with
                end = text.find("\n", first)
                self.raw_defs.append((l, self.n if end == -1 else end + 1, label, transparent))
                return
            self.raw_defs.append((l, end, label, transparent))
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


# A table's name from its first non-blank to its last, as runs of blanks each followed by
# other characters (a lazy name before "\s*\]" rescanned a long run of blanks from each of
# its characters: a header line with 20,000 spaces took 0.9 s). A blank name is none.
_TOML_TABLE = re.compile(r"\[\[?+\s*+([^\]\s](?:[^\S\n]*+[^\]\s])*+)\s*+\]\]?")
_SQL_WORD = re.compile(r"[^\s(]+")
_RUBY_END = re.compile(r"end\b|\}")
_RUBY_CONTINUES = re.compile(r"(?:rescue|ensure|else|elsif|when|in)\b")
_YAML_DOCUMENT = re.compile(r"(?:---|\.\.\.)(?:[ \t]|$)", re.M)
# A plain key runs to its last non-blank before the colon: spelled as runs of blanks each
# followed by other characters, possessively (a lazy key before "[ \t]*:" rescanned a long
# run of blanks from each of its characters: a line with 20,000 spaces took 0.5 s).
_YAML_KEY = re.compile(
    r"(- +)?(\"[^\"\n]*\"|'[^'\n]*'|[^\s#'\"{\[\-?:](?:[ \t]*+[^:#\n \t]++)*+|[\w.-]+)[ \t]*:(?:[ \t]|$)", re.M
)


def _label(signature: str, lang: Language) -> str:
    """A short name for a definition: "class Parser", "fn main", "main()", ".btn".
    The patterns run over the signature as known to this Python (unicode/classes.py); the
    name is taken from the signature itself."""
    sig = _SPACE_RUN.sub(" ", signature.split("\n", 1)[0] if lang.structure != "braces" else signature).strip()
    sig = sig.rstrip("{").strip()
    known = classes.as_known(sig)

    def group(m: re.Match, i: int) -> str | None:
        return None if m.start(i) < 0 else sig[m.start(i) : m.end(i)]

    if lang.structure == "python":
        m = _PYTHON_NAME.match(sig)
        if m:
            return f"{'async def' if m.group(1).startswith('async') else m.group(1)} {m.group(2)}"  # (as ast names it)
    if lang.name == "json":
        m = re.match(r"\"((?:[^\"\\]|\\.)*)\"", sig)
        return m.group(1) if m else sig[:60]
    if lang.name in ("css", "sql"):
        return sig[:60]
    if lang.name == "shell":
        m = _SHELL_NAME.match(known)
        return f"{group(m, 1)}()" if m else sig[:60]
    m = _LABEL_KEYWORD.search(known)
    call = _call_name(known)
    if m and (call is None or m.start() <= call[0]):
        kw, name = m.group(1), (group(m, 2) or "").rstrip(":") or None
        if kw == "impl":
            return sig[m.start() :].split(" where ")[0][:60].strip()
        if kw in ("func", "fun", "fn", "function", "def") and name is None and call:
            name = sig[call[0] : call[1]]
        return f"{kw} {name}" if name else kw
    if call:
        return f"{sig[call[0] : call[1]]}()"
    return sig[:60]


_SHELL_NAME = re.compile(r"(?:function\s+)?([\w:.\-]+)")
# (an identifier's combining marks too: "def नमस्ते", which \w would cut short)
_PYTHON_NAME = re.compile(r"(async\s+def|def|class)\s+([^\s(:\[]+)")


def _finish(text: str, scanner: DefinitionTracker, raw) -> list[Definition]:
    """Attach leading comments and attributes, nest, and number the definitions."""
    nls, states, depths = scanner.nls, scanner.states, scanner.depths
    n = len(text)
    comment_starts = set(scanner.comment_starts)
    attribute = re.compile(scanner.lang.attribute) if scanner.lang.attribute else None
    # A Python decorator goes with what follows it, as its parser reads it: over blank
    # lines, and with its arguments on lines of their own.
    decorators = scanner.lang.structure == "python"

    def line_start(i: int) -> int:
        return nls[i - 1] + 1 if i > 0 else 0

    def begins_in(i: int) -> int:
        """What line i begins inside of: CODE, STRING or COMMENT."""
        return states[i - 1] if i > 0 else CODE

    # Each walk up stops at another definition's line, so no line is walked twice
    # (but by definitions on one line: memo).
    def_lines = {entry[0] for entry in raw}
    memo: dict[int, int] = {}

    def is_blank_or_comment(i: int) -> bool:
        first = _INDENT.match(text, line_start(i)).end()
        return first >= n or text[first] in "\r\n" or first in comment_starts

    def decorator_at(i: int) -> int | None:
        """The first line of the decorator that line i is part of ("@pytest.mark.parametrize("
        and the lines of its arguments), or None."""
        while i > 0 and depths[i - 1] > 0:  # a line inside brackets (a string inside them too)
            i -= 1
        first = _INDENT.match(text, line_start(i)).end()
        if begins_in(i) == CODE and attribute.match(text, first) and i not in def_lines:
            return i
        return None

    def attached(line: int) -> int:
        """The first line kept with the definition on `line`: the comments and
        attributes right above it (blank lines between attributes too), a block
        comment whole (a blank line inside it too), and never a line that begins
        inside a comment or string."""
        if line in memo:
            return memo[line]
        k = top = line
        while k > 0:
            above = k - 1
            if begins_in(above) == COMMENT:
                k = above  # a block comment's line, blank or not: on to its first line
                continue
            if decorators and top == k:
                # a decorator above, past blank and comment lines (a decorator commented out)?
                i = above
                while i > 0 and begins_in(i) == CODE and is_blank_or_comment(i):
                    i -= 1
                found = decorator_at(i)
                if found is not None:
                    k = top = found
                    continue
                if above > 0 and depths[above - 1] > 0:
                    break  # a line inside brackets, and no decorator's ("@ b)": a product)
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
    for first_line, end, label, transparent in raw:
        if first_line > len(nls):
            continue
        top = attached(first_line)
        line = line_start(first_line)
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
