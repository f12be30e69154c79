"""A block's token ends with numpy (tiktoken): where each token of the block ends,
as a character offset, in two bytes a token, or about one in a long block.

A token's end is the previous token's end plus the characters it starts (its
UTF-8 lead bytes: at most 128 in cl100k_base and o200k_base). A block of at most
65,536 characters (the token index's blocks, but for long pre-tokens) keeps each
end as a uint16, counted from the character after the block's start (an end is at
least 1): looked up as fast as int32 ends, in half the memory. A longer block (a
giant pre-token: a 16 MB flag run is one, of 48 million tokens) keeps each token's
character count, a byte, and every GROUP tokens the absolute end before the group
(an int32, or int64 past 2**31 characters): 1.13 bytes a token (54 MB, where int32
ends took 183). A count up to an offset unpacks one group (the last few are kept);
an end sums a part of one.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate

SHORT = 1 << 16  # blocks of at most this many characters keep uint16 ends
GROUP = 32  # tokens a group of a long block: unpacking one costs a few microseconds
_KEPT = 8  # groups kept unpacked
_FEW = 32  # offsets count_each looks up one bisect each (a numpy array per call costs more)
_TOP = {4: (1 << 31) - 1, 8: (1 << 63) - 1}  # the largest offset of an int32, an int64


def block_ends(chars, base: int, length: int):
    """The ends of a block of `length` characters starting at base, whose tokens
    start chars[i] characters each (a numpy array of small unsigned ints)."""
    if length <= SHORT:
        # Each end less one, counted from base + 1: the last end of a block of exactly SHORT
        # characters (the token index's, where its end is separable) is one past uint16.
        # (Every end is at least 1: the block's first token holds its first character.)
        return ShortEnds(chars.cumsum(dtype="uint16") - 1, base + 1)
    return PackedEnds(chars, base)


class ShortEnds:
    """`ends[i]`, the end of token i counted from the block's start `base`."""

    __slots__ = ("ends", "base", "_sorted")

    def __init__(self, ends, base: int):
        # One buffer, two views: bisect over array('H') answers one offset in C with no
        # numpy scalar made per call (half the time of searchsorted's), numpy many at once.
        import numpy

        self._sorted = array("H")
        self._sorted.frombytes(memoryview(ends).cast("B"))  # (one copy; frombytes takes bytes, not 'H')
        self.ends = numpy.frombuffer(self._sorted, dtype=numpy.uint16)
        self.base = base

    def __len__(self) -> int:
        return len(self._sorted)

    def count_to(self, pos: int) -> int:
        """How many tokens end at or before pos."""
        return bisect_right(self._sorted, pos - self.base) if pos >= self.base else 0

    def searchable(self) -> tuple:
        """The ends as bisect searches them, relative to base, and base (count_to in one call)."""
        return self._sorted, self.base

    def count_each(self, offsets: list[int]) -> list[int]:
        """count_to of each of these sorted offsets: a few (the unit starts of a chunk's
        tail) one by one, more in one search."""
        base, top = self.base, SHORT - 1
        if len(offsets) <= _FEW or offsets[0] < base:
            return [self.count_to(pos) for pos in offsets]
        import numpy

        # (in the array's own type, or numpy copies the array to compare)
        rel = numpy.array([min(pos - base, top) for pos in offsets], dtype=self.ends.dtype)
        return self.ends.searchsorted(rel, "right").tolist()

    def tolist(self) -> list[int]:
        return (self.ends.astype("int64") + self.base).tolist()


class PackedEnds:
    """`chars[i]`, token i's character count; `starts[g]`, the end of the token
    before group g (the block's start for the first)."""

    __slots__ = ("chars", "starts", "_unpacked")

    def __init__(self, chars, base: int):
        import numpy

        self.chars = chars
        groups = -(-len(chars) // GROUP)
        wide = base + int(chars.sum(dtype=numpy.int64)) >= 1 << 31
        starts = self.starts = numpy.empty(groups, dtype=numpy.int64 if wide else numpy.int32)
        if groups:
            starts[0] = base
            whole = chars[: (groups - 1) * GROUP].reshape(groups - 1, GROUP)
            numpy.cumsum(whole.sum(axis=1, dtype=starts.dtype), out=starts[1:])
            starts[1:] += base
        self._unpacked: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return len(self.chars)

    def _group(self, g: int) -> list[int]:
        """The ends of group g's tokens."""
        ends = self._unpacked.get(g)
        if ends is None:
            if len(self._unpacked) >= _KEPT:
                self._unpacked.clear()
            lo = g * GROUP
            ends = list(accumulate(self.chars[lo : lo + GROUP].tolist(), initial=int(self.starts[g])))
            del ends[0]  # (the group's start: not a token's end)
            self._unpacked[g] = ends
        return ends

    def count_to(self, pos: int) -> int:
        """How many tokens end at or before pos."""
        # The last group that starts at or before pos: every token of the groups
        # before it ends at or before pos, none of the groups after it does.
        # (pos in the array's own type, or numpy copies the array to compare)
        starts = self.starts
        g = int(starts.searchsorted(starts.dtype.type(min(pos, _TOP[starts.dtype.itemsize])), "right")) - 1
        return 0 if g < 0 else g * GROUP + bisect_right(self._group(g), pos)

    def searchable(self) -> tuple:
        return None, 0  # (its ends are unpacked a group at a time: count_to and [] must be asked)

    def count_each(self, offsets: list[int]) -> list[int]:
        return [self.count_to(pos) for pos in offsets]

    def __getitem__(self, i: int) -> int:
        # (summed, not unpacked: the packer asks for ends a budget apart, rarely twice)
        lo = i - i % GROUP
        return int(self.starts[lo // GROUP]) + sum(self.chars[lo : i + 1].tolist())

    def tolist(self) -> list[int]:
        if not len(self.chars):
            return []
        return (self.chars.cumsum(dtype="int64") + int(self.starts[0])).tolist()
