"""The `chars` encoding: every code point counts one, for users who size chunks in characters."""
from __future__ import annotations

from .base import Tokenizer


class CharTokenizer(Tokenizer):
    name = "chars"
    backend = "chars"

    def encode(self, text: str) -> list[int]:
        return [ord(c) for c in text]

    def count(self, text: str) -> int:
        return len(text)

    def index(self, text: str) -> CharIndex:
        return CharIndex(text)


class CharIndex:
    """A token index (index.py's TokenIndex, for characters): a slice's count is its length."""

    def __init__(self, text: str):
        self.text = text
        self.n = len(text)

    def total(self) -> int:
        return self.n

    def tokens_before(self, pos: int) -> int:
        return pos

    def tokens_before_each(self, offsets: list[int]) -> list[int]:
        return offsets

    def offset_after(self, k: int) -> int:
        return max(0, min(k, self.n))

    def count(self, a: int, b: int) -> int:
        return b - a

    def count_knowing_total(self, a: int, b: int, total: int) -> int:
        return b - a
