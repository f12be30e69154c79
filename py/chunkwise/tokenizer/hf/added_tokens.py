"""The added tokens of a tokenizer.json (tokenizers' AddedVocabulary): matched in
the raw text (or, normalized, in the normalized text) before anything else, with
their single_word, lstrip and rstrip options, and where a cut keeps them whole."""
from __future__ import annotations

import re

from . import unicode_tables
from .text import WHITE_SPACE, RangeSet


class _AddedTokens:
    """tokenizers' AddedVocabulary: the tokens matched in the raw text, or (normalized)
    in the normalized text, with their contents normalized as that text is."""

    def __init__(self, entries: list[dict], normalize=None):
        self.ids: dict[str, int] = {}
        options = {}
        for entry in entries:
            content = normalize(entry["content"]) if normalize is not None else entry["content"]
            if not content:
                continue
            self.ids[content] = entry["id"]
            options[content] = (entry.get("single_word", False), entry.get("lstrip", False), entry.get("rstrip", False))
        self.options = options
        alternatives = longest_first(self.ids)
        self.regex = re.compile(alternatives) if self.ids else None
        # An added token that ends where a search window ends.
        self.ending = re.compile(f"(?:{alternatives})\\Z") if self.ids else None
        self.longest = max(map(len, self.ids), default=0)
        # A token that holds a space, matched across a cut before that space (or, single_word,
        # starting at it: the character before the cut decides whether it is a word).
        across = [
            f"(?<={re.escape(content[:i])})(?={re.escape(content[i:])})"
            for content, (single_word, _, _) in options.items()
            for i, ch in enumerate(content)
            if ch == " " and (i > 0 or single_word)
        ]
        self.across = re.compile("|".join(across)) if across else None

    def splits_at(self, text: str, p: int) -> bool:
        """Whether a cut at p keeps every match of the whole text on one side, and
        leaves no match ending at p (the text after it starts a new segment there)."""
        if self.ending is None:
            return True
        if self.across is not None and self.across.match(text, p):
            return False
        return self.ending.search(text, max(0, p - self.longest), p) is None

    def split(self, text: str) -> list[tuple[str, int | None]]:
        """Pieces of text: (plain text, None) or (token text, id), in order. As the library:
        the matches do not overlap, and the search goes on after each, whatever its rstrip
        took or single_word refused (so a match may start inside the spaces rstrip took)."""
        if self.regex is None or not text:
            return [(text, None)]
        out: list[tuple[str, int | None]] = []
        pos = 0
        for m in self.regex.finditer(text):
            start, end = m.span()
            single_word, lstrip, rstrip = self.options[m.group()]
            if single_word and (
                start > 0 and _is_word_char(text[start - 1]) or end < len(text) and _is_word_char(text[end])
            ):
                continue
            if lstrip:
                while start > pos and text[start - 1] in WHITE_SPACE:
                    start -= 1
            if rstrip:
                while end < len(text) and text[end] in WHITE_SPACE:
                    end += 1
            if start > pos:
                out.append((text[pos:start], None))
            out.append((text[start:end], self.ids[m.group()]))
            pos = end
        if pos < len(text):
            out.append((text[pos:], None))
        return out


def longest_first(strings) -> str:
    """A regex matching any of the strings, the longest one where several match at a
    place (the library's leftmost-longest match), written as a trie: thousands of
    tokens (Gemma's <unused0>..<unused6241>) share prefixes, and a trie compiles and
    matches in a fraction of the time of a flat alternation."""
    trie: dict = {}
    for string in strings:
        node = trie
        for ch in string:
            node = node.setdefault(ch, {})
        node[""] = {}  # a string ends here

    def write(node: dict) -> str:
        # Children whose continuations are written alike are one character class:
        # <unused0>..<unused6241> compile as a few classes, not thousands of branches.
        by_rest: dict[str, list[str]] = {}
        for ch, child in node.items():
            if ch:
                by_rest.setdefault(write(child), []).append(ch)
        branches = [(re.escape(chars[0]) if len(chars) == 1 else "[" + "".join(map(_in_class, chars)) + "]") + rest
                    for rest, chars in by_rest.items()]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        # Children start with different characters, so at most one branch matches;
        # where a string also ends here, the greedy ? tries the longer match first.
        return f"(?:{body})?" if "" in node else body

    return write(trie)


def _in_class(ch: str) -> str:
    """ch written inside a regex character class."""
    return "\\" + ch if ch in "\\]^-[" else ch


# The library's word characters for single_word (Rust regex's Unicode \w, its own tables:
# marks and U+200D are, U+00B2 is not), not the running Python's str.isalnum.
_ADDED_WORD = RangeSet(unicode_tables.ADDED_WORD)


def _is_word_char(ch: str) -> bool:
    return ch in _ADDED_WORD
