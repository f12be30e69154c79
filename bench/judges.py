"""The retrievers the retrieval benchmark judges chunks by: each ranks a pool of
chunk texts for every question and returns the top k.

- minilm: cosine similarity of all-MiniLM-L6-v2 embeddings, the published
  benchmark's model. It reads at most 256 word pieces of a chunk, so what it
  prefers is partly a fact about that window, not about the text.
- bm25: BM25 in Lucene's formula (bm25s; k1 1.5, b 0.75) over lower-cased runs
  of two or more letters or digits ("2019" counts, "$1,234" is "234"), Lucene's
  English stop words dropped, Snowball-stemmed. It reads the
  whole chunk and weighs its length by b: a second opinion that shares no
  window and no training with the first.
"""
from __future__ import annotations

import numpy as np

import minilm


class MiniLMJudge:
    name = "all-MiniLM-L6-v2"

    def __init__(self, cache: "minilm.EmbeddingCache", questions: list[str]):
        self.cache = cache
        self.q_vectors = cache.embed(questions)

    def top(self, texts: list[str], k: int) -> np.ndarray:
        vectors = self.cache.embed(texts)
        return np.argsort(-(self.q_vectors @ vectors.T), axis=1, kind="stable")[:, :k]

    def progress(self) -> str:
        return f"{self.cache.computed} texts embedded"


class BM25Judge:
    name = "BM25 (bm25s, Snowball English stems)"

    def __init__(self, questions: list[str]):
        import bm25s
        import Stemmer

        self._bm25s = bm25s
        self._stemmer = Stemmer.Stemmer("english")
        self.queries = self._words(questions)

    def _words(self, texts: list[str]) -> list[list[str]]:
        return self._bm25s.tokenize(texts, stopwords="en", stemmer=self._stemmer, return_ids=False, show_progress=False)

    def top(self, texts: list[str], k: int) -> np.ndarray:
        index = self._bm25s.BM25(k1=1.5, b=0.75, method="lucene")
        index.index(self._words(texts), show_progress=False)
        empty = np.zeros(len(texts))
        # a question of stop words only scores nothing anywhere: its top k are the first chunks
        scores = np.stack([index.get_scores(q) if q else empty for q in self.queries])
        return np.argsort(-scores, axis=1, kind="stable")[:, :k]

    def progress(self) -> str:
        return "nothing to embed"


JUDGES = ("minilm", "bm25")


def judge(name: str, questions: list[str], cache_path) -> MiniLMJudge | BM25Judge:
    if name == "bm25":
        return BM25Judge(questions)
    return MiniLMJudge(minilm.EmbeddingCache(cache_path), questions)
