#!/usr/bin/env python3
"""Retrieval benchmark: the chunkers' recall, precision, IoU and Precision Ω on
public data, with the metrics and embedding model of Smith & Troynikov,
"Evaluating Chunking Strategies for Retrieval" (Chroma, 2024).

    ./dev bench retrieval [--strategies smart,sentences] [--settings 200/0,250/32] [--langchain recursive] [--nearby 10]
                          [--no-langchain] [--judge bm25]

Data: the corpora and questions in ROOT/../shared/retrieval-eval (from a git
worktree, beside its main checkout), or in the folder CHUNKWISE_RETRIEVAL_DATA
names. All chunks of all corpora form one pool; each question retrieves its top
k = 5 by cosine similarity of all-MiniLM-L6-v2 embeddings (bench/minilm.py,
cached in .cache/), or with --judge bm25 by BM25 over stemmed words (bench/judges.py:
a retriever without MiniLM's 256-piece window). In the same run LangChain's RecursiveCharacterTextSplitter
(at its published settings and at each of --settings) and TokenTextSplitter
(cl100k length) are measured beside chunkwise, and the published rows are
printed with them. Each row is also broken down by the question's corpus (the
retrieval stays pooled), each chunkwise row with its paired difference from
recursive at the same setting. With --nearby N every row is the mean of the
chunker's runs at the sizes S-2N, S-N, S, S+N, S+2N (each question's scores averaged
over them): one size's recall moves by points with a few cuts, the mean much less.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import minilm  # noqa: E402  (sets the thread and offline settings before numpy loads)
import judges  # noqa: E402
import numpy as np  # noqa: E402
import spans  # noqa: E402

import chunkwise  # noqa: E402
from chunkwise.packing.strategies import STRATEGIES, Balance  # noqa: E402
from rules import smart_rule  # noqa: E402

K = 5
MINILM_NAME = judges.MiniLMJudge.name  # the published benchmark's retriever
# Paired bootstrap over the questions: how sure a difference from the recursive
# splitter at the same size is (276 questions: recall moves by about 3 points
# between runs that differ in a few cuts; IoU and Ω, per question, much less).
BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 0
SETTINGS = ((200, 0), (200, 25), (250, 0), (250, 32), (400, 0), (400, 50))
NEARBY_STEPS = (-2, -1, 0, 1, 2)  # --nearby N: the sizes S + k * N averaged into one row
RECURSIVE_SEPARATORS = ["\n\n", "\n", ".", "?", "!", " ", ""]
# Published figures (all-MiniLM-L6-v2, all five corpora, k = 5, in %):
# recall, precision, IoU, Precision Ω.
PUBLISHED = [
    ("recursive", "200/0", 75.7, 6.5, 6.5, 31.2),
    ("recursive", "250/0", 78.5, 5.4, 5.4, 26.7),
    ("recursive", "250/125", 78.7, 4.9, 4.9, 21.9),
    ("fixed tokens", "200/0", 76.6, 4.1, 4.1, 19.1),
    ("fixed tokens", "250/125", 82.4, 3.6, 3.5, 11.4),
    ("ClusterSemanticChunker", "200/0", 75.2, 7.2, 7.2, 33.6),
    ("ClusterSemanticChunker", "250/0", 77.3, 6.1, 6.0, 28.6),
]


def data_dir() -> pathlib.Path:
    """CHUNKWISE_RETRIEVAL_DATA, else shared/retrieval-eval beside the checkout, or beside
    the main checkout when this is a git worktree (its .git file names the main one's)."""
    env = os.environ.get("CHUNKWISE_RETRIEVAL_DATA")
    if env:
        return pathlib.Path(env)
    beside = ROOT.parent / "shared" / "retrieval-eval"
    main = _main_checkout()
    if beside.exists() or main is None:
        return beside
    return main.parent / "shared" / "retrieval-eval"


def _main_checkout() -> pathlib.Path | None:
    """The main checkout of this worktree: ROOT/.git is a file "gitdir: MAIN/.git/worktrees/NAME"."""
    dot_git = ROOT / ".git"
    if not dot_git.is_file():
        return None
    gitdir = pathlib.Path(dot_git.read_text(encoding="utf-8").partition("gitdir:")[2].strip())
    common = gitdir / "commondir"  # (relative to gitdir: usually "../..")
    git = (gitdir / common.read_text(encoding="utf-8").strip()).resolve() if common.exists() else gitdir.parent.parent
    return git.parent


def load_data(folder: pathlib.Path):
    if not (folder / "questions.csv").exists():
        raise SystemExit(
            f"no retrieval data in {folder}: expected questions.csv and corpora/ there "
            "(set CHUNKWISE_RETRIEVAL_DATA to another folder)"
        )
    with open(folder / "questions.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    corpora = {}
    questions = []
    for row in rows:
        cid = row["corpus_id"]
        if cid not in corpora:
            corpora[cid] = (folder / "corpora" / f"{cid}.md").read_text(encoding="utf-8")
        refs = [(int(r["start_index"]), int(r["end_index"])) for r in json.loads(row["references"])]
        questions.append((row["question"], cid, refs))
    return corpora, questions


def write_data(folder: pathlib.Path, corpus_id: str, text: str, rows: list[dict]) -> None:
    """A corpus and its questions in load_data's layout (the converters': squad.py, tatqa.py);
    rows: question, references (JSON), corpus_id."""
    (folder / "corpora").mkdir(parents=True, exist_ok=True)
    (folder / "corpora" / f"{corpus_id}.md").write_text(text, encoding="utf-8")
    with open(folder / "questions.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, ["question", "references", "corpus_id"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(text):,} characters, {len(rows)} questions -> {folder}")


class Piece:
    """One chunk as the benchmark sees it: its span, the text that is embedded
    (the span's text, except for splitters that decode tokens and for chunkwise
    chunks with a context, whose embed_text is embedded), and whether it repeats
    text of the chunk before it. Scores use the span only."""

    __slots__ = ("corpus", "start", "end", "text", "overlaps")

    def __init__(self, corpus, start, end, text, overlaps):
        self.corpus, self.start, self.end, self.text, self.overlaps = corpus, start, end, text, overlaps


# -- chunkers -----------------------------------------------------------------
def chunkwise_pieces(corpus_id: str, text: str, size: int, overlap: int, strategy: str, **options):
    """chunkwise's chunks; with a context (--option context=headings) each one's
    embed_text is what is embedded, its span stays the text's start/end."""
    result = chunkwise.chunk_document(text, max_tokens=size, overlap=overlap, strategy=strategy, **options)
    return [
        Piece(corpus_id, c.start, c.end, c.text if c.embed_text is None else c.embed_text, c.overlap_tokens > 0)
        for c in result.chunks
    ]


def cl100k():
    """tiktoken's cl100k_base built from the bundled rank files (never downloaded),
    registered so LangChain's tiktoken lookups find it."""
    import tiktoken
    import tiktoken.registry

    from chunkwise.tokenizer.tiktoken.encoder import tiktoken_encoding

    enc = tiktoken.registry.ENCODINGS.get("cl100k_base")
    if enc is None:
        enc = tiktoken_encoding("cl100k_base")[0]
        tiktoken.registry.ENCODINGS["cl100k_base"] = enc
    return enc


def locate(corpus_id: str, text: str, chunks: list[str]):
    """Spans of chunks that are slices of the text, found in order."""
    pieces, pos, prev_end = [], 0, 0
    for chunk in chunks:
        start = text.find(chunk, pos)
        if start < 0:
            raise AssertionError(f"chunk not found in {corpus_id}: {chunk[:60]!r}")
        end = start + len(chunk)
        pieces.append(Piece(corpus_id, start, end, chunk, start < prev_end))
        pos, prev_end = start + 1, end
    return pieces


def recursive_pieces(corpus_id: str, text: str, size: int, overlap: int):
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    enc = cl100k()
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=size,
        chunk_overlap=overlap,
        separators=RECURSIVE_SEPARATORS,
        length_function=lambda t: len(enc.encode(t, disallowed_special=())),
    )
    return locate(corpus_id, text, splitter.split_text(text))


def token_pieces(corpus_id: str, text: str, size: int, overlap: int):
    """LangChain's TokenTextSplitter decodes token windows, so a window edge inside
    a character gives U+FFFD and no slice; the span comes from the same window's
    token offsets instead (LangChain's text is what is embedded)."""
    from langchain_text_splitters import TokenTextSplitter

    enc = cl100k()
    texts = TokenTextSplitter(encoding_name="cl100k_base", chunk_size=size, chunk_overlap=overlap).split_text(text)
    ids = enc.encode(text, disallowed_special=())
    byte_ends = np.cumsum([len(enc.decode_single_token_bytes(t)) for t in ids])
    char_of_byte = np.cumsum([0] + [len(ch.encode("utf-8")) for ch in text])  # byte offset of each char
    def char_at(byte: int) -> int:
        return int(np.searchsorted(char_of_byte, byte, side="right") - 1)
    pieces, step, i = [], size - overlap, 0
    for n, chunk in enumerate(texts):
        lo = 0 if i == 0 else int(byte_ends[i - 1])
        hi = int(byte_ends[min(i + size, len(ids)) - 1])
        pieces.append(Piece(corpus_id, char_at(lo), max(char_at(lo) + 1, char_at(hi - 1) + 1), chunk, n > 0 and overlap > 0))
        i += step
    return pieces


# -- measures -----------------------------------------------------------------
def mid_sentence(pieces: list[Piece], starts: dict) -> tuple[int, int, int, int]:
    """(mid-sentence starts, chunks after the first; the same for chunks with overlap)."""
    mid = total = mid_o = total_o = 0
    prev = None
    for p in pieces:
        if prev is not None and prev.corpus == p.corpus:
            bad = not starts[p.corpus](p.start)
            mid += bad
            total += 1
            if p.overlaps:
                mid_o += bad
                total_o += 1
        prev = p
    return mid, total, mid_o, total_o


def evaluate(pieces: list[Piece], questions, judge, starts, enc) -> dict:
    """The pieces' scores when judge (judges.py) retrieves each question's top K from them."""
    top = judge.top([p.text for p in pieces], K)
    by_corpus: dict[str, list[tuple[int, int]]] = {}
    for p in pieces:
        by_corpus.setdefault(p.corpus, []).append((p.start, p.end))
    recall, precision, iou, omega, retrieved = [], [], [], [], []  # per question
    for (question, cid, refs), row in zip(questions, top):
        r, p_, i = spans.retrieval_scores(refs, cid, [(pieces[j].corpus, pieces[j].start, pieces[j].end) for j in row])
        retrieved.append(sum(pieces[j].end - pieces[j].start for j in row))
        recall.append(r)
        precision.append(p_)
        iou.append(i)
        omega.append(spans.precision_omega(refs, by_corpus.get(cid, [])))
    mid, total, mid_o, total_o = mid_sentence(pieces, starts)
    tokens = [len(enc.encode(p.text, disallowed_special=())) for p in pieces]
    pct = lambda xs: 100 * float(np.mean(xs))  # noqa: E731
    return {
        "recall": pct(recall),
        "precision": pct(precision),
        "iou": pct(iou),
        "omega": pct(omega),
        "chunks": len(pieces),
        "mean_tokens": float(np.mean(tokens)),
        "mid_sentence": mid / total if total else 0.0,
        "mid_sentence_overlap": mid_o / total_o if total_o else None,
        "after_first": total,  # (the chunks mid_sentence is a share of: each corpus's after its first)
        "with_overlap": total_o,
        "per_question": {"recall": recall, "iou": iou, "omega": omega, "retrieved": retrieved},
    }


def paired_difference(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """Mean of a - b over the questions (in points) and its 95% interval from a
    paired bootstrap (the same resampled questions for both)."""
    d = 100 * (np.asarray(a) - np.asarray(b))
    picks = np.random.default_rng(BOOTSTRAP_SEED).integers(0, len(d), size=(BOOTSTRAP_SAMPLES, len(d)))
    lo, hi = np.percentile(d[picks].mean(axis=1), [2.5, 97.5])
    return float(d.mean()), float(lo), float(hi)


def averaged(rows: list[dict]) -> dict:
    """One row from a chunker's rows at nearby sizes (--nearby): the mean of each
    measure, and of each question's scores (so the paired differences and the
    per-corpus means are over the average)."""
    out = {}
    for key, value in rows[0].items():
        if key == "per_question":
            out[key] = {m: [float(x) for x in np.mean([r[key][m] for r in rows], axis=0)] for m in value}
            continue
        if isinstance(value, str):
            out[key] = value
            continue
        if key in _SHARE_OF:  # a share of the chunks (with overlap): of all the runs' chunks together
            weights = [r[_SHARE_OF[key]] for r in rows]
            out[key] = value if not sum(weights) else float(np.average([r[key] or 0.0 for r in rows], weights=weights))
        elif key in ("chunks", "after_first", "with_overlap"):
            out[key] = round(float(np.mean([r[key] for r in rows])))
        else:
            out[key] = float(np.mean([r[key] for r in rows]))
    return out


_SHARE_OF = {"mid_sentence": "after_first", "mid_sentence_overlap": "with_overlap"}


MEASURES = ("recall", "iou", "omega")  # the per-question measures the paired and per-corpus tables show


def corpus_means(row: dict, corpus_ids: list[str]) -> dict[str, dict[str, float]]:
    """The row's mean recall, IoU and Ω over each corpus's questions (in %), the
    retrieval itself pooled as ever: only the averaging is per corpus."""
    ids = np.asarray(corpus_ids)
    return {
        cid: {m: 100 * float(np.mean(np.asarray(row["per_question"][m])[ids == cid])) for m in MEASURES}
        for cid in dict.fromkeys(corpus_ids)
    }


def baseline_for(rows: list[dict], row: dict) -> dict | None:
    """The recursive row a chunkwise row is paired with: the same size and overlap,
    else the same size with no overlap."""
    recursive = {(r["size"], r["overlap"]): r for r in rows if r["chunker"] == "langchain recursive"}
    return recursive.get((row["size"], row["overlap"])) or recursive.get((row["size"], 0))


def parse_settings(value: str):
    out = []
    for item in value.split(","):
        size, _, overlap = item.partition("/")
        out.append((int(size), int(overlap or 0)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--strategies", default=",".join(STRATEGIES), help="chunkwise strategies (comma-separated)")
    ap.add_argument("--settings", default=",".join(f"{s}/{o}" for s, o in SETTINGS), help="size/overlap list")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="extra chunkwise keyword argument for every chunkwise row (repeatable)")
    ap.add_argument("--no-langchain", action="store_true", help="skip the LangChain rows")
    ap.add_argument("--langchain", default="recursive,tokens", metavar="NAMES",
                    help="which LangChain splitters to measure beside chunkwise (recursive, tokens)")
    ap.add_argument("--out", default=str(ROOT / "bench-results"), help="folder for retrieval.md/json")
    ap.add_argument("--add-data", action="append", default=[], metavar="FOLDER",
                    help="another folder of corpora/ and questions.csv pooled with the data (repeatable); "
                    "bench/retrieval-data/squad holds text nobody tuned on")
    ap.add_argument("--leave-one-out", action="store_true",
                    help="pick smart's rule (RULES) on all corpora but one, report it on that one, for each corpus"
                    f" (at --settings, default here {','.join(f'{s}/{o}' for s, o in LOO_SETTINGS)})")
    ap.add_argument("--judge", default=judges.JUDGES[0], metavar="|".join(judges.JUDGES),
                    help="the retriever that ranks the chunks: MiniLM embeddings (the published benchmark's) or BM25;"
                    " with --leave-one-out a comma-separated list, a rule then scoring what the judge least kind to it gives")
    ap.add_argument("--nearby", type=int, default=0, metavar="N",
                    help="measure every row at the sizes S-2N..S+2N (step N) and report their mean (5x the runs)")
    args = ap.parse_args(argv)

    started = time.perf_counter()
    corpora, questions = load_data(data_dir())
    for folder in args.add_data:
        more, asked = load_data(pathlib.Path(folder))
        if more.keys() & corpora.keys():
            raise SystemExit(f"{folder}: a corpus of that name is already loaded: {', '.join(sorted(more.keys() & corpora.keys()))}")
        corpora.update(more)
        questions += asked
    judge_names = args.judge.split(",")
    if any(name not in judges.JUDGES for name in judge_names) or len(set(judge_names)) < len(judge_names):
        ap.error(f"--judge: one or more of {', '.join(judges.JUDGES)}, each once")
    if len(judge_names) > 1 and not args.leave_one_out:
        ap.error("--judge: several judges only with --leave-one-out")
    retrievers = [judges.judge(name, [q for q, _, _ in questions], ROOT / ".cache" / "minilm-embeddings.npz") for name in judge_names]
    progress = lambda: "; ".join(j.progress() for j in retrievers)  # noqa: E731
    # the one judge of a sentence start (chunkwise.Document.starts_sentence), for every chunker alike
    starts = {cid: chunkwise.Document(text).starts_sentence for cid, text in corpora.items()}
    enc = cl100k()
    options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value

    if args.nearby < 0:
        ap.error("--nearby must be 0 or more")

    def check_nearby(settings) -> None:
        """Every size less 2N must still hold more than its overlap (found before, not hours into a run)."""
        for size, overlap in settings:
            if size - 2 * args.nearby <= max(overlap, 0):
                ap.error(f"--nearby {args.nearby}: {size}/{overlap} would be measured at {size - 2 * args.nearby}, no more than its overlap")

    def measure(chunker, size: int, overlap: int) -> list[dict]:
        """chunker(corpus_id, text, size, overlap) -> pieces, evaluated at the size (or its --nearby sizes):
        a row per judge, of the same pieces."""
        sizes = [size + k * args.nearby for k in NEARBY_STEPS] if args.nearby else [size]
        pieces = [[p for cid, text in corpora.items() for p in chunker(cid, text, s, overlap)] for s in sizes]
        rows = [[evaluate(ps, questions, judge, starts, enc) for ps in pieces] for judge in retrievers]
        return [runs[0] if len(runs) == 1 else averaged(runs) for runs in rows]

    if args.leave_one_out:
        settings = parse_settings(args.settings) if "--settings" in (argv or sys.argv) else list(LOO_SETTINGS)
        check_nearby(settings)
        table = leave_one_out(questions, settings, measure, nearby=args.nearby,
                              judged_by={name: j.name for name, j in zip(judge_names, retrievers)})
        print(table)
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "retrieval-loo.md").write_text(table, encoding="utf-8")
        print(f"({time.perf_counter() - started:.0f} s; {progress()}; written to {out}/retrieval-loo.md)",
              file=sys.stderr)
        return 0

    runs = []
    if not args.no_langchain:
        wanted = args.langchain.split(",")
        # recursive at its published settings and at each requested one: the paired baseline
        recursive_settings = list(dict.fromkeys(((200, 0), (250, 0), (250, 125), *parse_settings(args.settings))))
        for name, fn, settings in (
            ("langchain recursive", recursive_pieces, recursive_settings),
            ("langchain tokens", token_pieces, ((200, 0), (250, 125))),
        ):
            if name.split()[-1] not in wanted:
                continue
            for size, overlap in settings:
                runs.append((name, size, overlap, fn))
    for strategy in args.strategies.split(","):
        for size, overlap in parse_settings(args.settings):
            runs.append((f"chunkwise {strategy}", size, overlap,
                         lambda cid, t, s, o, st=strategy: chunkwise_pieces(cid, t, s, o, st, **options)))

    check_nearby([(size, overlap) for _, size, overlap, _ in runs])
    rows = []
    for name, size, overlap, fn in runs:
        t0 = time.perf_counter()
        row = {"chunker": name, "size": size, "overlap": overlap, **measure(fn, size, overlap)[0]}
        rows.append(row)
        print(f"  {name} {size}/{overlap}: IoU {row['iou']:.1f}, Ω {row['omega']:.1f}"
              f" ({time.perf_counter() - t0:.0f} s, {progress()} so far)", file=sys.stderr, flush=True)

    corpus_ids = [cid for _, cid, _ in questions]
    for row in rows:
        row["by_corpus"] = corpus_means(row, corpus_ids)
    table = render(rows, options, corpus_ids, args.nearby, retrievers[0].name)
    print(table)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "retrieval.md").write_text(table, encoding="utf-8")
    summary = [{k: v for k, v in r.items() if k != "per_question"} for r in rows]
    (out / "retrieval.json").write_text(json.dumps({"judge": args.judge, "options": options, "nearby": args.nearby, "rows": summary}, indent=1),
                                        encoding="utf-8")
    print(f"({time.perf_counter() - started:.0f} s; {progress()}; written to {out}/retrieval.md)", file=sys.stderr)
    return 0


def render(rows, options, corpus_ids: list[str], nearby: int = 0, judge_name: str = MINILM_NAME) -> str:
    lines = [
        f"Retrieval on {', '.join(dict.fromkeys(corpus_ids))} ({len(corpus_ids)} questions), {judge_name}, k = {K}."
        + (f" chunkwise options: {options}." if options else "")
        + (f" Each row: the mean of the runs at the sizes S-{2 * nearby}, S-{nearby}, S, S+{nearby},"
           f" S+{2 * nearby} of its size S (--nearby {nearby})." if nearby else ""),
        "",
        "| chunker | size/overlap | recall | precision | IoU | Precision Ω | chunks | mean tokens | mid-sentence starts (all / with overlap) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        mo = r["mid_sentence_overlap"]
        lines.append(
            f"| {r['chunker']} | {r['size']}/{r['overlap']} | {r['recall']:.1f} | {r['precision']:.1f} | {r['iou']:.1f}"
            f" | {r['omega']:.1f} | {r['chunks']} | {r['mean_tokens']:.0f} | {100 * r['mid_sentence']:.1f}%"
            f" / {'-' if mo is None else f'{100 * mo:.1f}%'} |"
        )
    paired = [(r, baseline_for(rows, r)) for r in rows if r["chunker"].startswith("chunkwise")]
    paired = [(r, b) for r, b in paired if b is not None]
    if paired:
        lines += ["", "Against LangChain recursive at the same size and overlap (else the same size with none): mean difference"
                  " per question in points [95% paired bootstrap interval]; an interval that holds 0 is no difference this data can show.",
                  "", "| chunker | size/overlap | against | recall | IoU | Precision Ω |", "|---|---|---|---|---|---|"]
        for r, base in paired:
            cells = [paired_difference(r["per_question"][m], base["per_question"][m]) for m in MEASURES]
            lines.append(f"| {r['chunker']} | {r['size']}/{r['overlap']} | {base['size']}/{base['overlap']} | "
                         + " | ".join(f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]" for m, lo, hi in cells) + " |")
    lines += ["", *render_per_corpus(rows, corpus_ids)]
    lines += ["", f"Published (five corpora, {MINILM_NAME}, k = {K}):", "",
              "| chunker | size/overlap | recall | precision | IoU | Precision Ω |", "|---|---|---|---|---|---|"]
    for name, setting, *numbers in PUBLISHED:
        lines.append(f"| {name} | {setting} | " + " | ".join(f"{x:.1f}" for x in numbers) + " |")
    return "\n".join(lines) + "\n"


# -- leave one corpus out ------------------------------------------------------
# Candidate rules for smart (strategies.Balance), each with how many constants it tunes:
# the round-2 rule (strongest level first, nearest the aim: least_fill, aim_fill), the
# same with least_fill tied to the aim (symmetric: 2 * aim - 1), each with and without
# skipping the break after a lead-in (a line ending in a colon: policies.follows_lead_in; smart's default).
LOO_SETTINGS = ((200, 0), (250, 0), (400, 0), (512, 64))
RULES = {
    **{f"strongest first, aim {aim}{', lead-ins' if lead else ''}": (Balance(aim_fill=aim, lead_ins=lead), 2)
       for lead in (False, True) for aim in (0.55, 0.65, 0.75)},
    **{f"symmetric, aim {aim}{', lead-ins' if lead else ''}": (Balance(least_fill=None, aim_fill=aim, lead_ins=lead), 1)
       for lead in (False, True) for aim in (0.6, 0.65, 0.7)},
}


def loo_score(row: dict, base: dict, mask) -> tuple[float, float, float]:
    """(score, Δ recall, Δ IoU) of a rule's row against recursive's over the masked
    questions; the score is the smaller of the two relative changes (in %), since a
    rule must keep recall and improve IoU to beat recursive."""
    mean = lambda r, m: float(np.mean(np.asarray(r["per_question"][m])[mask]))  # noqa: E731
    recall, iou = (mean(row, m) / max(mean(base, m), 1e-9) - 1 for m in ("recall", "iou"))
    return 100 * min(recall, iou), 100 * (mean(row, "recall") - mean(base, "recall")), 100 * (mean(row, "iou") - mean(base, "iou"))


def leave_one_out(questions, settings, measure, rules=None, nearby: int = 0, judged_by: dict[str, str] | None = None) -> str:
    """For each corpus: the rule with the best mean loo_score over `settings` on the
    other corpora's questions, and its scores on this corpus's. The retrieval is pooled
    as ever (the held-out corpus's chunks are in the pool, as distractors only). With
    several judges a rule's score is the least of theirs: a rule must hold for each
    retriever, not for one. measure(chunker, size, overlap) -> a row per judge,
    chunker(corpus_id, text, size, overlap) -> pieces; judged_by: {short name: full name} of the judges."""
    rules = RULES if rules is None else rules
    judged_by = judged_by or {"minilm": MINILM_NAME}
    judge_names = list(judged_by)
    ids = np.asarray([cid for _, cid, _ in questions])
    base = {st: measure(recursive_pieces, *st) for st in settings}
    assert all(len(rows) == len(judge_names) for rows in base.values()), "a row per judge"
    rows = {}
    smart = lambda cid, t, size, overlap: chunkwise_pieces(cid, t, size, overlap, "smart")  # noqa: E731
    for name, (balance, _) in rules.items():
        with smart_rule(balance):
            rows[name] = {st: measure(smart, *st) for st in settings}
        both = lambda by_judge, m: "/".join(f"{r[m]:.1f}" for r in by_judge)  # noqa: E731
        print(f"  {name}: " + ", ".join(f"{s}/{o} recall {both(by_judge, 'recall')} IoU {both(by_judge, 'iou')}"
                                       for (s, o), by_judge in rows[name].items()), file=sys.stderr, flush=True)

    def judged(name, mask):
        """Per judge: ((score, Δ recall, Δ IoU) averaged over the settings, the same per setting)."""
        out = []
        for j in range(len(judge_names)):
            per = [loo_score(rows[name][st][j], base[st][j], mask) for st in settings]
            out.append((tuple(float(np.mean([p[k] for p in per])) for k in range(3)), per))
        return out

    def least(by_judge) -> float:
        return min(means[0] for means, _ in by_judge)

    def score(name, mask) -> float:
        return least(judged(name, mask))

    def cell(by_judge) -> str:
        if len(by_judge) == 1:
            return "{:+.1f} / {:+.1f} / {:+.1f}".format(*by_judge[0][0])
        return f"{least(by_judge):+.1f} (" + " / ".join(f"{means[0]:+.1f}" for means, _ in by_judge) + ")"

    names = ", ".join(f"{s}/{o}" for s, o in settings)
    several = len(judge_names) > 1
    what = f"least score ({' / '.join(judge_names)})" if several else "score / Δ recall / Δ IoU"
    lines = [f"Leave one corpus out ({', '.join(f'{k}: {v}' if several else v for k, v in judged_by.items())}; k = {K}):"
             " smart's rule picked on the other corpora, reported on"
             f" the one left out, at {names}."
             " Score: the mean over the settings of min(relative change of recall, of IoU) against recursive, in %"
             + ("; with several judges a rule scores the least of the judges' scores (each judge's in brackets)."
                if several else "; Δ recall and Δ IoU in points (means over the settings).")
             + (f" Each setting: the mean of the runs at its size S-{2 * nearby}..S+{2 * nearby} (--nearby {nearby})." if nearby else ""),
             "",
             "| rule | constants | " + " | ".join(f"{c} ({what})" for c in dict.fromkeys(ids))
             + f" | all ({what}) |", "|---|---|" + "---|" * (len(set(ids)) + 1)]
    for name, (_, constants) in rules.items():
        cells = [cell(judged(name, ids == cid)) for cid in dict.fromkeys(ids)] + [cell(judged(name, ids == ids))]
        lines.append(f"| {name} | {constants} | " + " | ".join(cells) + " |")
    lines += ["", "| held out | picked on the others (their score) | held-out score | held-out Δ recall / Δ IoU per setting |",
              "|---|---|---|---|"]
    for cid in dict.fromkeys(ids):
        # the best score on the other corpora; fewer constants first on a tie
        others = {n: score(n, ids != cid) for n in rules}
        pick = max(rules, key=lambda n: (round(others[n], 1), -rules[n][1]))
        held = judged(pick, ids == cid)
        deltas = "; ".join((f"{judge}: " if several else "") + ", ".join(f"{s}/{o}: {p[1]:+.1f} / {p[2]:+.1f}"
                                                                          for (s, o), p in zip(settings, per))
                           for judge, (_, per) in zip(judge_names, held))
        lines.append(f"| {cid} | {pick} ({others[pick]:+.1f}) | {cell(held)} | {deltas} |")
    return "\n".join(lines) + "\n"


def render_per_corpus(rows, corpus_ids: list[str]) -> list[str]:
    """Each corpus's recall, IoU and Ω for each row, and a chunkwise row's paired
    difference from its recursive baseline over that corpus's questions."""
    ids = np.asarray(corpus_ids)
    lines = ["Per corpus (the same pooled retrieval, each corpus's questions averaged apart); Δ: against recursive as above,"
             " over that corpus's questions. Retrieved: the characters of the k chunks a question retrieves, on average"
             " (smaller chunks give the embedding less text to match and k of them cover less: issue 31).", "",
             "| corpus | chunker | size/overlap | recall | IoU | Precision Ω | Δ recall | Δ IoU | Δ Ω | retrieved chars |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    by_corpus = [corpus_means(r, corpus_ids) for r in rows]
    for cid in dict.fromkeys(corpus_ids):
        mask = ids == cid
        for r, means in zip(rows, (m[cid] for m in by_corpus)):
            base = baseline_for(rows, r) if r["chunker"].startswith("chunkwise") else None
            deltas = ["-"] * 3 if base is None else [
                "{:+.1f} [{:+.1f}, {:+.1f}]".format(*paired_difference(
                    np.asarray(r["per_question"][m])[mask], np.asarray(base["per_question"][m])[mask]))
                for m in MEASURES
            ]
            retrieved = r["per_question"].get("retrieved")
            chars = "-" if retrieved is None else f"{np.mean(np.asarray(retrieved)[mask]):.0f}"
            lines.append(f"| {cid} ({int(mask.sum())}) | {r['chunker']} | {r['size']}/{r['overlap']} | "
                         + " | ".join(f"{means[m]:.1f}" for m in MEASURES) + " | " + " | ".join(deltas) + f" | {chars} |")
    return lines


if __name__ == "__main__":
    sys.exit(main())
