"""The tokenizer contract: everything the token index (index.py) and the engine ask
of a tokenizer. tiktoken's BPE (tiktoken/encoder.py), Hugging Face files
(hf/tokenizer.py) and characters (chars.py) implement it; nothing is probed.

The token index tokenizes a document once, in blocks split at "separable"
offsets p, where encode(s) == encode(s[:p]) + encode_continued(s[p:]); a
tokenizer says where those are (`separable`, `separable_check`, over
`as_known(text)`) from what its own pipeline does there.
"""
from __future__ import annotations

import re

from .index import TokenIndex

# No offset is separable: the index then tokenizes the document as one block.
NOWHERE = re.compile(r"(?!)")


class Tokenizer:
    name: str
    backend: str
    # Candidate separable offsets (match starts), run over as_known(text).
    separable: re.Pattern = NOWHERE
    # Whether no offset inside a run of whitespace, of \w or of other characters
    # is separable (tiktoken's rule): the index may then step over such runs whole.
    separable_between_runs = False

    @property
    def key(self) -> tuple:
        """What identifies this tokenizer's counts: caches of counts (a Document's
        token indexes) are keyed by it. A name alone is not enough where a name can
        be bound to another file (every Hugging Face download is tokenizer.json)."""
        return (self.name, self.backend)

    def encode(self, text: str) -> list[int]:
        raise NotImplementedError

    def count(self, text: str) -> int:
        return len(self.encode(text))

    def encode_continued(self, text: str) -> list[int]:
        """The ids of text that follows a separable offset (no start-of-input steps)."""
        return self.encode(text)

    def separable_check(self, text: str, match: re.Match) -> bool:
        """Whether a match of `separable` is one (a second look the pattern cannot take)."""
        return True

    def as_known(self, text: str) -> str:
        """The text `separable` runs over: characters the tokenizer's tables do not
        know mapped to ones it does (the same length)."""
        return text

    def char_ends(self, text: str, base: int):
        """The character offset after each token of text, counted from base."""
        raise NotImplementedError

    def index(self, text: str):
        """The exact counts of any slice of text (index.py's TokenIndex)."""
        return TokenIndex(text, self)
