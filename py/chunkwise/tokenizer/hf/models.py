"""The models of Hugging Face tokenizer.json files: WordPiece, BPE (byte-level,
and SentencePiece-style with byte fallback), Unigram (Viterbi) and WordLevel.
Each turns one pre-token into token ids exactly as the `tokenizers` library
does; the differential tests compare the ids.
"""
from __future__ import annotations

import re
from heapq import heapify, heappop, heappush
from operator import add, itemgetter, methodcaller

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


class BPE:
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
        # Whole-list passes (map over C functions) rather than a loop: a 500K-merge file
        # loads in a fraction of the time.
        merges = spec.get("merges", [])
        if set(map(type, merges)) <= {str}:
            pairs = list(map(methodcaller("split", " ", 1), merges))
        else:
            pairs = [merge.split(" ", 1) if type(merge) is str else merge for merge in merges]
        lefts, rights = list(map(itemgetter(0), pairs)), list(map(itemgetter(1), pairs))
        token_id = vocab.__getitem__
        try:
            keys = list(zip(map(token_id, lefts), map(token_id, rights)))
        except KeyError:
            a, b = next((a, b) for a, b in pairs if a not in vocab or b not in vocab)
            raise Unsupported(f"BPE merge {a!r} {b!r} uses a token missing from the vocabulary") from None
        prefix_len = len(self.prefix)
        if prefix_len:
            rights = map(itemgetter(slice(prefix_len, None)), rights)
        try:
            made = list(map(token_id, map(add, lefts, rights)))
        except KeyError:
            a, b = next((a, b) for a, b in pairs if a + b[prefix_len:] not in vocab)
            raise Unsupported(
                f"BPE merge {a!r} {b!r} makes {a + b[prefix_len:]!r}, which is not in the vocabulary"
            ) from None
        # (rank, merged id) by pair; the first rank wins where a pair is listed twice.
        ranks = range(len(keys) - 1, -1, -1)
        self.merges: dict[tuple[int, int], tuple[int, int]] = dict(zip(reversed(keys), zip(ranks, reversed(made))))
        self._merge_list = spec.get("merges", [])  # (read again only by _word_split, for a long word)
        self._splitter = _UNKNOWN
        self._byte_ids = None
        if self.byte_fallback:
            self._byte_ids = [vocab.get(f"<0x{b:02X}>") for b in range(256)]
        self._cache: dict[str, list[int]] = {}

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
        ids = self._merge(self._symbols(word))
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
            pairs = (merge.split(" ", 1) if type(merge) is str else merge for merge in self._merge_list)
            lefts = {a for a, b in pairs if b[:1] == sep and a[-1:] != sep}
            if "" in lefts or any(map(_BYTE_TOKEN.fullmatch, lefts)):
                continue
            after = re.escape(sep) + "".join(sorted(map(re.escape, {a[-1] for a in lefts})))
            self._splitter = re.compile(f"(?<=[^{after}])(?={re.escape(sep)})").split
            break
        self._merge_list = None
        return self._splitter

    def _symbols(self, word: str) -> list[int]:
        vocab = self.vocab
        out: list[int] = []
        unk = None  # (id) of a pending unknown run
        last = len(word) - 1
        for i, ch in enumerate(word):
            s = ch
            if i > 0 and self.prefix:
                s = self.prefix + s
            if i == last and self.suffix:
                s = s + self.suffix
            tid = vocab.get(s)
            if tid is not None:
                if unk is not None:
                    out.append(unk)
                    unk = None
                out.append(tid)
                continue
            if self._byte_ids is not None:
                ids = [self._byte_ids[b] for b in s.encode("utf-8")]
                if None not in ids:
                    if unk is not None:  # tokenizers adds the pending unk after these bytes' turn
                        out.append(unk)
                        unk = None
                    out.extend(ids)
                    continue
            if self.unk_token is not None:
                unk_id = vocab.get(self.unk_token)
                if unk_id is None:
                    raise Unsupported(f"BPE unk_token {self.unk_token!r} is not in the vocabulary")
                if unk is not None and not self.fuse_unk:
                    out.append(unk)
                unk = unk_id
        if unk is not None:
            out.append(unk)
        return out

    def _merge(self, symbols: list[int]) -> list[int]:
        n = len(symbols)
        if n < 2:
            return symbols
        merges = self.merges
        get = merges.get
        ids = list(symbols)
        after = list(range(1, n + 1))
        before = list(range(-1, n - 1))
        alive = [True] * n
        heap = []
        for i in range(n - 1):
            m = get((ids[i], ids[i + 1]))
            if m is not None:
                heap.append((m[0], i, m[1]))
        heapify(heap)
        while heap:
            rank, i, new_id = heappop(heap)
            if not alive[i]:
                continue
            j = after[i]
            if j >= n:
                continue
            m = get((ids[i], ids[j]))
            if m is None or m[1] != new_id:
                continue
            ids[i] = new_id
            alive[j] = False
            k = after[j]
            after[i] = k
            if k < n:
                before[k] = i
            p = before[i]
            if p >= 0:
                m = get((ids[p], new_id))
                if m is not None:
                    heappush(heap, (m[0], p, m[1]))
            if k < n:
                m = get((new_id, ids[k]))
                if m is not None:
                    heappush(heap, (m[0], i, m[1]))
        out = []
        i = 0
        while i < n:
            out.append(ids[i])
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
