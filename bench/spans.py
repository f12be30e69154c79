"""The retrieval metrics of Smith & Troynikov (Chroma, 2024) on character spans.

A span is (start, end), end exclusive, in code points of the corpus. For one
question with reference spans R and retrieved chunks C (each with its corpus):

  covered   = union over chunks c of the question's corpus of (c ∩ r), r in R
  recall    = |covered| / sum |r|
  precision = |covered| / sum |c|                  (all retrieved; repeats count)
  IoU       = |covered| / (sum |c| + |R not covered|)
  Precision Ω: the IoU when C is every chunk of the corpus touching a reference,
            with the chunks' union (not their sum) in the denominator, as the
            report's code computes it.
"""
from __future__ import annotations

Span = tuple[int, int]


def union(spans) -> list[Span]:
    """Merge overlapping or touching spans; drop empty ones."""
    out: list[list[int]] = []
    for s, e in sorted(x for x in spans if x[1] > x[0]):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def size(spans) -> int:
    return sum(e - s for s, e in spans)


def intersect(a: Span, b: Span) -> Span | None:
    s, e = max(a[0], b[0]), min(a[1], b[1])
    return (s, e) if s < e else None


def subtract(spans, cut: Span) -> list[Span]:
    """spans with the part inside cut removed."""
    out = []
    for s, e in spans:
        if e <= cut[0] or s >= cut[1]:
            out.append((s, e))
            continue
        if s < cut[0]:
            out.append((s, cut[0]))
        if e > cut[1]:
            out.append((cut[1], e))
    return out


def _cover(references: list[Span], chunks: list[Span]):
    """(covered spans, reference parts no chunk covers, chunks touching a reference)."""
    covered: list[Span] = []
    unused = list(references)
    touching = []
    for chunk in chunks:
        hit = False
        for ref in references:
            part = intersect(chunk, ref)
            if part:
                hit = True
                covered.append(part)
                unused = subtract(unused, part)
        if hit:
            touching.append(chunk)
    return union(covered), unused, touching


def retrieval_scores(references: list[Span], corpus: str, retrieved: list[tuple[str, int, int]]):
    """(recall, precision, IoU) of one question's retrieved chunks (corpus, start, end)."""
    same = [(s, e) for c, s, e in retrieved if c == corpus]
    covered, unused, _ = _cover(references, same)
    hit = size(covered)
    total_refs = size(references)
    retrieved_size = sum(e - s for _, s, e in retrieved)
    recall = hit / total_refs if total_refs else 0.0
    precision = hit / retrieved_size if retrieved_size else 0.0
    denominator = retrieved_size + size(unused)
    return recall, precision, (hit / denominator if denominator else 0.0)


def precision_omega(references: list[Span], chunks: list[Span]) -> float:
    """The best-case IoU: every chunk of the question's corpus that touches a reference."""
    covered, unused, touching = _cover(references, chunks)
    if not covered:
        return 0.0
    return size(covered) / size(union(touching + unused))
