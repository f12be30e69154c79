"""Numbers about a run: sizes, fill, overlap and why each chunk ended."""
from __future__ import annotations

from ..types import BOUNDARIES, Result

HISTOGRAM_BINS = 10


def histogram(counts: list[int], max_tokens: int, bins: int = HISTOGRAM_BINS) -> list[dict]:
    """Chunk sizes in `bins` equal ranges of the budget: [{lo, hi, count}].

    Ranges are inclusive integer token counts: 1..51, 52..102, ... up to max_tokens;
    the last reaches the largest count when a chunk is over the budget (a character
    that alone is: packing/packer.py, _lone_character), so every chunk is in the range of its bin.
    """
    bins = max(1, min(bins, max_tokens))
    edges = [round(i * max_tokens / bins) for i in range(bins + 1)]
    edges[-1] = max(max_tokens, *counts) if counts else max_tokens
    out = [{"lo": edges[i] + 1, "hi": edges[i + 1], "count": 0} for i in range(bins)]
    out[0]["lo"] = 0
    for n in counts:
        # Smallest bin whose upper edge holds n.
        i = 0
        while i < bins - 1 and n > edges[i + 1]:
            i += 1
        out[i]["count"] += 1
    return out


def compute(result: Result, model: str | None = None) -> dict:
    """The stats panel's numbers (also printed by the CLI with --stats); with a
    model preset, its limit and special tokens too."""
    chunks = result.chunks
    max_tokens = result.settings.max_tokens
    counts = [c.token_count for c in chunks]
    output_tokens = sum(counts)
    overlap_tokens = sum(c.overlap_tokens for c in chunks)
    mid = set(result.mid_sentence)
    reasons = {name: 0 for name in BOUNDARIES}
    for c in chunks:
        reasons[c.boundary] += 1
    return {
        "source_tokens": result.source_tokens,
        "chunk_count": len(chunks),
        "min_tokens": min(counts) if counts else 0,
        "mean_tokens": round(output_tokens / len(counts), 2) if counts else 0,
        "max_tokens": max(counts) if counts else 0,
        "output_tokens": output_tokens,
        "overlap_tokens": overlap_tokens,
        "overlap_share": round(overlap_tokens / output_tokens, 4) if output_tokens else 0,
        "mean_fill": round(output_tokens / (len(counts) * max_tokens), 4) if counts else 0,
        "budget": max_tokens,
        # chunks over the budget: a character that alone is (a Hugging Face tokenizer), or
        # the reference strategy's (LangChain's splitter sums its pieces' counts)
        "over_budget": sum(n > max_tokens for n in counts),
        "encoding": result.settings.encoding,
        "histogram": histogram(counts, max_tokens),
        "boundaries": reasons,
        # chunks after the first that start mid-sentence (the one judge: Document.starts_sentence),
        # and of the chunks with an overlap, those whose overlap does
        "mid_sentence_starts": len(mid),
        "mid_sentence_overlaps": sum(1 for c in chunks if c.overlap_tokens and c.index in mid),
        "overlapped_chunks": sum(1 for c in chunks if c.overlap_tokens),
        "warnings": list(result.warnings),
        **(_context_fields(result) if result.settings.context != "none" else {}),
        **({"parent_count": len(result.parents), "parent_tokens": result.settings.parent_tokens} if result.parents else {}),
        **(_model_fields(model) if model else {}),
    }


def _context_fields(result: Result) -> dict:
    """What the context takes: its tokens over all chunks, and their share of what is embedded."""
    embedded = sum(c.embed_tokens for c in result.chunks)
    context = embedded - sum(c.token_count for c in result.chunks)
    return {"context_tokens": context, "context_share": round(context / embedded, 4) if embedded else 0,
            "embed_tokens_max": max((c.embed_tokens for c in result.chunks), default=0)}


def _model_fields(model: str) -> dict:
    from ..presets import describe_model

    return describe_model(model)


def comparison(a: Result, b: Result) -> dict:
    """The same text chunked twice (the page's Compare): per side, the chunks that start
    mid-sentence (the one judge: Result.mid_sentence) and those over their budget (each in
    its own tokenizer); and the cuts (chunk ends) in both, only in A and only in B."""
    ends_a, ends_b = {c.end for c in a.chunks}, {c.end for c in b.chunks}
    side = lambda r: {"chunks": len(r.chunks), "mid_sentence": len(r.mid_sentence),
                      "over_budget": sum(c.token_count > r.settings.max_tokens for c in r.chunks)}
    return {"a": side(a), "b": side(b),
            "cuts": {"both": len(ends_a & ends_b), "a": len(ends_a - ends_b), "b": len(ends_b - ends_a)}}
