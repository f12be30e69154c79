"""HTML and XML, read by their tags: a line break inside a tag is no place to cut,
comments, CDATA and declarations are marked, script and style bodies stay code,
and each element that starts a line is a definition ("<div#main>")."""
from __future__ import annotations

import re

from .structure import CODE, COMMENT, STRING


class MarkupScanner:
    """The scanner's reading of markup (scan._Scanner sets the state; _mark is the lexer's)."""

    def _run_markup(self) -> None:
        text, n = self.text, self.n
        html = self.lang.name == "html"
        stack: list[tuple[str, int, int, bool]] = []  # (tag, line, first, at line start)
        pos = 0
        line_first = (-1, -1)  # (a line's start, its first non-blank): a tag starts its line there
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
            if line_first[0] != line_start:  # (once a line: copying the line up to each tag was quadratic)
                line_first = (line_start, _NON_BLANK.search(text, line_start).start())
            at_start = line_first[1] == s
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


_MARKUP = re.compile(r"\n|<!--|<!\[CDATA\[|<[?!]|</?[A-Za-z]")
# A tag stops at the next "<" outside quotes, and a quoted value at 4,000 characters:
# a stray "<" or quote can then cost only so much, never a scan to the end each.
# The name is possessive: given back letter by letter, each rest was read again by the
# attribute run (a 32,000-letter name took 2.5 s).
_TAG = re.compile(r"<(/?)([A-Za-z][\w:.-]*+)(?:[^<>\"']++|\"[^\"]{0,4000}\"|'[^']{0,4000}')*?(/?)>")
_NON_BLANK = re.compile(r"\S")
_TAG_ID = re.compile(r"\bid\s*=\s*[\"']?([^\"'\s>]+)")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
