"""The models of Hugging Face tokenizer.json files: WordPiece, BPE (byte-level,
and SentencePiece-style with byte fallback), Unigram (Viterbi) and WordLevel.
Each turns one pre-token into token ids exactly as the `tokenizers` library
does; the differential tests compare the ids.
"""
from __future__ import annotations

import re
from heapq import heapify, heappop, heappush
from itertools import compress, repeat
from operator import contains

from .normalizers import Unsupported

_WORD_CACHE = 1 << 16
_BYTE_TOKEN = re.compile(r"<0x[0-9A-F]{2}>")  # a byte_fallback token
_CACHED_WORD = 64  # longer words (a whole text, for a tokenizer without pre-tokenizer) are not kept
_UNKNOWN = object()  # (BPE._splitter before _word_split has looked)


class WordPiece:
    def __init__(self, spec: dict):
        self.vocab: dict[str, int] = spec["vocab"]
        self.prefix = spec.get("continuing_subword_prefix", "##")
        self.max_chars = spec.get("max_input_chars_per_word", 100)
        unk = spec.get("unk_token", "[UNK]")
        if unk not in self.vocab:
            raise Unsupported(f"WordPiece unk_token {unk!r} is not in the vocabulary")
        self.unk_id = self.vocab[unk]
        self._cache: dict[str, list[int]] = {}

    def tokenize(self, word: str) -> list[int]:
        known = self._cache.get(word)
        if known is not None:
            return known
        ids = self._tokenize(word)
        if len(self._cache) < _WORD_CACHE and len(word) <= _CACHED_WORD:
            self._cache[word] = ids
        return ids

    def _tokenize(self, word: str) -> list[int]:
        if len(word) > self.max_chars:
            return [self.unk_id]
        vocab, prefix = self.vocab, self.prefix
        out = []
        start, n = 0, len(word)
        while start < n:
            end = n
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else prefix + word[start:end]
                found = vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return [self.unk_id]
            out.append(found)
            start = end
        return out


# Characters that may join a merge's two tokens into one key: the first that no token of
# the vocabulary holds (a space, for almost every file).
_SEPARATORS = " \x00\x01\x02\x03\ufdd0\ufdd1\ufdd2\ufdd3"


def merge_keys(merges: list, vocab: dict) -> tuple[list[str], str]:
    """Each merge as one string, its tokens joined by a separator that no vocabulary
    token holds, and the separator. A key made of two vocabulary tokens then has the
    separator once, so x + sep + y is a merge's key only when (x, y) is that merge.
    The library's own "a b" strings are the keys when each has one space: nothing to
    build for a file's hundreds of thousands of merges."""
    if not merges:
        return [], " "
    kinds = set(map(type, merges))
    if kinds == {str}:
        if "".join(merges).count(" ") != len(merges):  # (each has one at least: schema.MERGES)
            merge = next(m for m in merges if m.count(" ") != 1)
            raise Unsupported(f"BPE merge {merge!r} is not two tokens with one space between them"
                              " (the tokenizers library refuses it too)")
        return merges, " "
    if len(kinds) > 1:
        raise Unsupported('BPE merges mix "a b" strings and ["a", "b"] lists (the tokenizers library refuses that too)')
    tokens = "".join(vocab)
    sep = next((c for c in _SEPARATORS if c not in tokens), None)
    if sep is None:
        raise Unsupported("BPE vocabulary holds every character chunkwise could join a merge's tokens with")
    return list(map(sep.join, merges)), sep


class BPE:
    """Merges token strings, not ids: each merge's rank is keyed by its two tokens as one
    string (merge_keys), so a file loads without looking up a million ids; a word's ids
    are looked up once, when it is merged. The library refuses a file with a merge of a
    token its vocabulary lacks, or that makes one; here the first never applies (every
    part is a vocabulary token) and the second is refused when a text first needs it:
    checking each of a million merges would double the time a big file takes to load."""

    def __init__(self, spec: dict):
        if spec.get("dropout") not in (None, 0, 0.0):
            raise Unsupported("BPE dropout is random: token counts would not be reproducible")
        self.vocab: dict[str, int] = spec["vocab"]
        self.unk_token = spec.get("unk_token")
        self.prefix = spec.get("continuing_subword_prefix") or ""
        self.suffix = spec.get("end_of_word_suffix") or ""
        self.fuse_unk = spec.get("fuse_unk", False)
        self.byte_fallback = spec.get("byte_fallback", False)
        self.ignore_merges = spec.get("ignore_merges", False)
        vocab = self.vocab
        if len(set(vocab.values())) != len(vocab):  # (the library's merges are by id: two strings of one id merge alike)
            raise Unsupported("BPE vocabulary gives one id to two tokens")
        keys, self._sep = merge_keys(spec.get("merges", []), vocab)
        # The rank of each merge; the first rank wins where a merge is listed twice.
        self.ranks: dict[str, int] = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))
        self._cut = len(self.prefix)  # (the prefix of a right token is dropped when it is merged)
        self._splitter = _UNKNOWN
        self._byte_tokens = None
        if self.byte_fallback:
            self._byte_tokens = [t if (t := f"<0x{b:02X}>") in vocab else None for b in range(256)]
        self._cache: dict[str, list[int]] = {}

    def merges_before(self, chars) -> list[tuple[str, str]]:
        """The merges (left, right) whose right token starts with one of chars."""
        sep, keys, found = self._sep, self.ranks, []
        for c in set(chars):
            for key in compress(keys, map(contains, keys, repeat(sep + c))):
                if key.count(sep) == 1:  # (then the separator found is the one between the tokens)
                    left, right = key.split(sep)
                    found.append((left, right))
        return found

    def tokenize(self, word: str) -> list[int]:
        known = self._cache.get(word)
        if known is not None:
            return known
        if self.ignore_merges:
            direct = self.vocab.get(word)
            if direct is not None:
                return [direct]
        if len(word) > _CACHED_WORD:
            splitter = self._splitter if self._splitter is not _UNKNOWN else self._word_split()
            if splitter is not None:
                pieces = splitter(word)
                if len(pieces) > 1:
                    tokenize = self.tokenize
                    return [tid for piece in pieces for tid in tokenize(piece)]
        ids = list(map(self.vocab.__getitem__, self._merge(self._symbols(word))))
        if len(self._cache) < _WORD_CACHE and len(word) <= _CACHED_WORD:
            self._cache[word] = ids
        return ids

    def _word_split(self):
        """How a long word (a whole text, for a file without pre-tokenizer: Llama 2's, Gemma's)
        may be merged in pieces with the same ids: before a "\u2581" (or a space) that follows
        another character c, unless some merge joins a token ending with c to one starting with
        the separator (then a merge may cross there; elsewhere none ever does, and each side
        merges alone in the same order). None when no separator is in the vocabulary, or a
        crossing merge's left token is a byte token (its last character is not the text's)."""
        self._splitter = None
        if self.prefix or self.suffix or self.ignore_merges:
            return None  # (a symbol's string depends on its place in the word; a whole word may be a token)
        for sep in ("\u2581", " "):
            if sep not in self.vocab:
                continue
            # The left tokens of merges across a separator (after another character).
            lefts = {a for a, _ in self.merges_before(sep) if a[-1:] != sep}
            if "" in lefts or any(map(_BYTE_TOKEN.fullmatch, lefts)):
                continue
            after = re.escape(sep) + "".join(sorted(map(re.escape, {a[-1] for a in lefts})))
            self._splitter = re.compile(f"(?<=[^{after}])(?={re.escape(sep)})").split
            break
        return self._splitter

    def _symbols(self, word: str) -> list[str]:
        """The word's characters as tokens of the vocabulary (with the prefix and suffix),
        bytes where a character is not one (byte_fallback), or the unk token."""
        vocab = self.vocab
        out: list[str] = []
        unk = None  # a pending unknown run
        last = len(word) - 1
        for i, ch in enumerate(word):
            s = ch
            if i > 0 and self.prefix:
                s = self.prefix + s
            if i == last and self.suffix:
                s = s + self.suffix
            if s in vocab:
                if unk is not None:
                    out.append(unk)
                    unk = None
                out.append(s)
                continue
            if self._byte_tokens is not None:
                tokens = [self._byte_tokens[b] for b in s.encode("utf-8")]
                if None not in tokens:
                    if unk is not None:  # tokenizers adds the pending unk after these bytes' turn
                        out.append(unk)
                        unk = None
                    out.extend(tokens)
                    continue
            if self.unk_token is not None:
                if self.unk_token not in vocab:
                    raise Unsupported(f"BPE unk_token {self.unk_token!r} is not in the vocabulary")
                if unk is not None and not self.fuse_unk:
                    out.append(unk)
                unk = self.unk_token
        if unk is not None:
            out.append(unk)
        return out

    def _merge(self, symbols: list[str]) -> list[str]:
        """The library's merge: the adjacent pair of lowest rank first, the leftmost of equal ones."""
        n = len(symbols)
        if n < 2:
            return symbols
        get, sep, cut, vocab = self.ranks.get, self._sep, self._cut, self.vocab
        parts = list(symbols)
        after = list(range(1, n + 1))
        before = list(range(-1, n - 1))
        # The rank of the pair that starts at each part (None: none, or the part is gone). A
        # heap entry is stale when it differs: a pair's rank changes only when the pair grows,
        # into one with another rank.
        rank_at = [get(parts[i] + sep + parts[i + 1]) for i in range(n - 1)]
        rank_at.append(None)
        heap = [(r, i) for i, r in enumerate(rank_at) if r is not None]
        heapify(heap)
        while heap:
            rank, i = heappop(heap)
            if rank_at[i] != rank:
                continue
            j = after[i]
            new = parts[i] + parts[j][cut:]
            if new not in vocab:
                raise Unsupported(f"BPE merge {parts[i]!r} {parts[j]!r} makes {new!r}, which is not in the vocabulary")
            parts[i] = new
            rank_at[j] = None
            k = after[j]
            after[i] = k
            p = before[i]
            if p >= 0:
                r = rank_at[p] = get(parts[p] + sep + new)
                if r is not None:
                    heappush(heap, (r, p))
            if k < n:
                before[k] = i
                r = rank_at[i] = get(new + sep + parts[k])
                if r is not None:
                    heappush(heap, (r, i))
            else:
                rank_at[i] = None
        out = []
        i = 0
        while i < n:
            out.append(parts[i])
            i = after[i]
        return out


class Unigram:
    K_UNK_PENALTY = 10.0

    def __init__(self, spec: dict):
        vocab = spec["vocab"]
        self.pieces: dict[str, int] = {}
        self.scores: list[float] = []
        for i, (piece, score) in enumerate(vocab):
            self.pieces.setdefault(piece, i)
            self.scores.append(float(score))
        self.unk_id = spec.get("unk_id")
        if self.unk_id is None:
            raise Unsupported("a Unigram model without unk_id is not supported")
        if not 0 <= self.unk_id < len(self.scores):  # as tokenizers refuses it (an empty vocabulary too)
            raise Unsupported(f"Unigram unk_id {self.unk_id} is not in the vocabulary")
        self.byte_fallback = spec.get("byte_fallback", False)
        self._byte_ids = [self.pieces.get(f"<0x{b:02X}>") for b in range(256)] if self.byte_fallback else None
        self.max_len = max((len(p) for p in self.pieces), default=1)
        self.unk_score = min(self.scores) - self.K_UNK_PENALTY
        self._cache: dict[str, list[int]] = {}

    def tokenize(self, word: str) -> list[int]:
        known = self._cache.get(word)
        if known is not None:
            return known
        ids = self._viterbi(word)
        if len(self._cache) < _WORD_CACHE and len(word) <= _CACHED_WORD:
            self._cache[word] = ids
        return ids

    def _viterbi(self, word: str) -> list[int]:
        n = len(word)
        if n == 0:
            return []
        pieces, scores, max_len = self.pieces, self.scores, self.max_len
        unk_id, unk_score = self.unk_id, self.unk_score
        best = [0.0] * (n + 1)
        start_at = [-1] * (n + 1)
        token = [0] * (n + 1)
        get = pieces.get
        for s in range(n):
            if s and start_at[s] < 0:
                continue
            base = best[s]
            single = False
            for e in range(s + 1, min(n, s + max_len) + 1):
                tid = get(word[s:e])
                if tid is None:
                    continue
                if e == s + 1:
                    single = True
                score = base + scores[tid]
                if start_at[e] < 0 or score > best[e]:
                    best[e] = score
                    start_at[e] = s
                    token[e] = tid
            if not single:
                e = s + 1
                score = base + unk_score
                if start_at[e] < 0 or score > best[e]:
                    best[e] = score
                    start_at[e] = s
                    token[e] = unk_id
        # Walk back; runs of unknown pieces fuse into one string (fuse_unk).
        strings: list[str] = []
        e = n
        unk_end = -1
        while e > 0:
            s = start_at[e]
            if token[e] == unk_id:
                if unk_end < 0:
                    unk_end = e
            else:
                if unk_end >= 0:
                    strings.append(word[e:unk_end])
                    unk_end = -1
                strings.append(word[s:e])
            e = s
        if unk_end >= 0:
            strings.append(word[0:unk_end])
        strings.reverse()
        out = []
        for piece in strings:
            tid = get(piece)
            if tid is not None:
                out.append(tid)
            elif self._byte_ids is not None and None not in (ids := [self._byte_ids[b] for b in piece.encode("utf-8")]):
                out.extend(ids)
            else:
                out.append(unk_id)
        return out


class WordLevel:
    def __init__(self, spec: dict):
        self.vocab: dict[str, int] = spec["vocab"]
        unk = spec.get("unk_token")
        self.unk_id = self.vocab.get(unk) if unk is not None else None

    def tokenize(self, word: str) -> list[int]:
        tid = self.vocab.get(word)
        if tid is not None:
            return [tid]
        if self.unk_id is None:
            raise Unsupported(f"WordLevel: {word!r} is not in the vocabulary and there is no unk_token")
        return [self.unk_id]


def model_type(spec: dict):
    """The model's "type"; old files have none, it is inferred from the fields."""
    kind = spec.get("type")
    if kind is None:
        kind = "BPE" if "merges" in spec else "WordPiece" if "continuing_subword_prefix" in spec else "Unigram" if "unk_id" in spec else None
    return kind
