"""chunkwise beside other chunking libraries (`./dev bench peers`): the same texts
(bench/corpus.py's documents), the same tokenizer, timed in turns with one tiktoken
encode_ordinary pass per document, and judged alike.

Every peer counts with one tiktoken Encoding object (cl100k_base from the bundled
rank files: nothing is downloaded), handed to it the way its README shows (the
Encoding itself, or a counter over encode_ordinary where it takes a callable).
chunkwise builds its own Encoding from the same files, as it always does. A
chunker is built afresh before each timed run, so no memo of counts carries from
one run to the next (semchunk and chonkie keep one), and built outside the timer.

Judged on each chunker's output, the same way for all:
- over budget: chunks whose text (as the chunker returns it) is more than the
  budget in cl100k, counted exactly with that Encoding;
- not a slice: chunks whose text is not text[start:end] at the offsets the
  chunker gives (a token window decoded inside a character, offsets that drift);
- mid-word: chunks after the first whose start has a letter or digit on both
  sides (scripts written without spaces, CJK and Thai, do not count);
- mid-sentence: chunks after the first that do not start a sentence, by
  chunkwise.Document(text).starts_sentence, the judge of the stats and the page.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

import chunkwise
from chunkwise.tokenizer.tiktoken.encoder import tiktoken_encoding

SIZE = 512
OVERLAPS = (0, 64)
# The peers' versions (bench/requirements.txt pins the same).
VERSIONS = {"chonkie": "1.7.0", "semchunk": "4.1.1", "semantic-text-splitter": "0.33.1",
            "langchain-text-splitters": "1.1.3"}


@dataclass
class Contender:
    name: str
    overlap: int
    make: Callable[[], object]  # a fresh chunker (built outside the timer)
    run: Callable[[object, str], list[tuple[int, int, str]]]  # (start, end, chunk text) each


def cl100k():
    """The one Encoding every peer and the reference pass use."""
    import tiktoken.registry

    enc = tiktoken.registry.ENCODINGS.get("cl100k_base")
    if enc is None:
        enc = tiktoken_encoding("cl100k_base")[0]
        tiktoken.registry.ENCODINGS["cl100k_base"] = enc  # (so a lookup by name finds it, offline)
    return enc


def locate(text: str, chunks: list[str]) -> list[tuple[int, int, str]]:
    """Spans of chunks that are slices of text, found in order (LangChain gives none)."""
    out, pos = [], 0
    for chunk in chunks:
        start = text.find(chunk, pos)
        if start < 0:
            raise AssertionError(f"chunk not found in the text: {chunk[:60]!r}")
        out.append((start, start + len(chunk), chunk))
        pos = start + 1
    return out


def chunkwise_contender(overlap: int, strategy: str = "smart") -> Contender:
    """A Chunker, as a pipeline keeps one (the settings checked and the tokenizer loaded once)."""
    def run(chunker, text):
        return [(c.start, c.end, c.text) for c in chunker.chunk_document(text).chunks]

    return Contender(f"chunkwise {strategy}", overlap, lambda: chunkwise.Chunker(
        max_tokens=SIZE, overlap=overlap, strategy=strategy, encoding="cl100k_base"), run)


def peer_contenders(enc, overlap: int) -> list[Contender]:
    """The peers that can run at this overlap, each only if installed."""
    out = []

    def count(s: str) -> int:
        return len(enc.encode_ordinary(s))

    try:
        from chonkie import RecursiveChunker, TokenChunker
    except ImportError:
        pass
    else:
        def chonkie_spans(chunker, text):
            return [(c.start_index, c.end_index, c.text) for c in chunker.chunk(text)]

        if overlap == 0:  # (RecursiveChunker has no overlap)
            out.append(Contender("chonkie RecursiveChunker", 0, lambda: RecursiveChunker(tokenizer=enc, chunk_size=SIZE),
                                 chonkie_spans))
        out.append(Contender("chonkie TokenChunker", overlap,
                             lambda: TokenChunker(tokenizer=enc, chunk_size=SIZE, chunk_overlap=overlap), chonkie_spans))
    try:
        import semchunk
    except ImportError:
        pass
    else:
        def semchunk_spans(chunker, text):
            chunks, offsets = chunker(text, offsets=True, overlap=overlap or None)
            return [(a, b, c) for c, (a, b) in zip(chunks, offsets)]

        out.append(Contender("semchunk", overlap, lambda: semchunk.chunkerify(enc, SIZE), semchunk_spans))
    try:
        from semantic_text_splitter import TextSplitter
    except ImportError:
        pass
    else:
        def splitter_spans(splitter, text):
            return [(i, i + len(c), c) for i, c in splitter.chunk_indices(text)]

        out.append(Contender("semantic-text-splitter", overlap,
                             lambda: TextSplitter.from_callback(count, SIZE, overlap=overlap), splitter_spans))
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError:
        pass
    else:
        out.append(Contender("LangChain recursive", overlap,
                             lambda: RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=overlap, length_function=count),
                             lambda splitter, text: locate(text, splitter.split_text(text))))
    return out


def contenders(enc) -> list[Contender]:
    return [c for overlap in OVERLAPS for c in [chunkwise_contender(overlap)] + peer_contenders(enc, overlap)]


_NO_SPACES = ((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F), (0x20000, 0x3FFFF))


def _wordish(ch: str) -> bool:
    """A letter or digit of a script that puts spaces between words."""
    if not ch.isalnum():
        return False
    o = ord(ch)
    return not any(lo <= o <= hi for lo, hi in _NO_SPACES)


def judge(text: str, spans: list[tuple[int, int, str]], enc, starts_sentence) -> dict:
    over = not_slice = mid_word = mid_sentence = 0
    for n, (start, end, chunk) in enumerate(spans):
        over += len(enc.encode_ordinary(chunk)) > SIZE
        not_slice += text[start:end] != chunk
        if n:
            mid_word += 0 < start < len(text) and _wordish(text[start - 1]) and _wordish(text[start])
            mid_sentence += not starts_sentence(start)
    return {"chunks": len(spans), "over_budget": over, "not_slice": not_slice, "mid_word": mid_word,
            "mid_sentence": mid_sentence}


def measure(texts: dict[str, str], chosen: list[Contender], enc, runs: int, rows: bool = False) -> dict:
    """Each contender's time on each text, in turns with one encode_ordinary pass
    (every other turn in reverse order, as timing.times_in_turns), and its judged output.
    rows: the texts are a corpus job's rows, each chunker timed over all of them at once
    (one chunker built for the batch, as a job keeps one), not one text at a time: timed
    apart between the peers' runs, a tiny text's time depended on which peer ran before
    (chunkwise's 512/64 took 12x one pass beside semchunk, 5x alone)."""
    encode = Contender("one tiktoken pass", 0, lambda: None, lambda _, text: enc.encode_ordinary(text))
    everyone = [encode] + chosen
    batches = [texts] if rows else [{name: text} for name, text in texts.items()]
    times = {id(c): [[] for _ in range(runs)] for c in everyone}  # [turn][batch]
    quality = {id(c): {} for c in chosen}
    for c in everyone:  # first calls (imports, tables, compiled patterns) outside the timing
        for text in texts.values():
            c.run(c.make(), text[:20_000])
    starts = {name: chunkwise.Document(text).starts_sentence for name, text in texts.items()}
    for batch in batches:
        for text in batch.values():
            enc.encode_ordinary(text)  # (warm the tokenizer alike for all)
        for turn in range(runs):
            for c in reversed(everyone) if turn % 2 else everyone:
                state = c.make()
                started = time.perf_counter()
                outs = [c.run(state, text) for text in batch.values()]
                times[id(c)][turn].append(time.perf_counter() - started)
                if turn == 0 and c is not encode:
                    for (name, text), out in zip(batch.items(), outs):
                        quality[id(c)][name] = judge(text, out, enc, starts[name])
                del outs, state
    base = times[id(encode)]
    base_best = sum(min(base[t][d] for t in range(runs)) for d in range(len(batches)))
    results = {"encode_s": base_best, "rows": []}
    for c in chosen:
        mine = times[id(c)]
        best = sum(min(mine[t][d] for t in range(runs)) for d in range(len(batches)))
        turns = statistics.median(sum(mine[t]) / sum(base[t]) for t in range(runs))
        totals = {k: sum(q[k] for q in quality[id(c)].values()) for k in next(iter(quality[id(c)].values()))}
        results["rows"].append({"chunker": c.name, "overlap": c.overlap, "chunk_s": best, "ratio": best / base_best,
                                "ratio_turns": turns, **totals})
    return results


def once() -> dict[str, str]:
    """Each source of the bench's documents once (bench/corpus.py repeats them to size:
    a peer that memoizes counts, as chonkie's RecursiveChunker and semchunk do, finds
    every paragraph after the first copy in its memo)."""
    import corpus

    sources = {"markdown docs": "node-net.md", "prose (GPL-3)": "gpl-3.txt", "source code": "argparse.py.txt",
               "russian prose": "russian.txt", "cjk text": "cjk.txt"}
    return {**{name: corpus.read(file) for name, file in sources.items()}, "log file": corpus.log_file(1500)}


def short_documents(count: int = 800) -> dict[str, str]:
    """The paragraphs of those sources as documents of their own, as a corpus job's rows
    are (40 to 1,500 characters; a fixed sample): here the cost a document pays
    whatever its length counts, beside its one tokenizer pass."""
    import random

    paragraphs = [p for text in once().values() for p in text.split("\n\n") if 40 < len(p) < 1500]
    random.Random(0).shuffle(paragraphs)
    return {f"row {i}": p for i, p in enumerate(paragraphs[:count])}


def render(texts: dict[str, str], data: dict, title: str, table) -> str:
    rows = [["chunker", "size/overlap", "ms", "× one pass (best)", "× (median of turns)", "chunks", "over budget",
             "not a slice", "mid-word", "mid-sentence"]]
    for r in data["rows"]:
        after_first = max(1, r["chunks"] - len(texts))
        rows.append([r["chunker"], f"{SIZE}/{r['overlap']}", f"{r['chunk_s'] * 1000:.0f}", f"{r['ratio']:.2f}x",
                     f"{r['ratio_turns']:.2f}x", str(r["chunks"]), str(r["over_budget"]), str(r["not_slice"]),
                     f"{r['mid_word']} ({r['mid_word'] / after_first:.1%})",
                     f"{r['mid_sentence']} ({r['mid_sentence'] / after_first:.1%})"])
    chars = sum(len(t) for t in texts.values())
    return (f"### Peers, {title}: {len(texts)} documents, {chars:,} characters, cl100k (one tiktoken Encoding),"
            f" CPython; one encode_ordinary pass {data['encode_s'] * 1000:.0f} ms\n\n" + table(rows))


def section(runs: int, quick: bool, table) -> tuple[str, dict]:
    import corpus

    enc = cl100k()
    chosen = contenders(enc)
    out, data = [], {}
    for key, title, texts, n in (("bench", "the bench's documents", corpus.documents(), 2 if quick else runs),
                                 ("once", "each source once", once(), 3 if quick else 2 * runs),
                                 ("rows", "short documents as a corpus job's rows", short_documents(), 3 if quick else 2 * runs)):
        data[key] = measure(texts, chosen, enc, n, rows=key == "rows")
        out.append(render(texts, data[key], title, table))
    versions = ", ".join(f"{k} {v}" for k, v in VERSIONS.items())
    return "\n\n".join(out) + f"\n\n({versions}; a chunker is built before each run, outside the timer)", data
