"""The "adversarial shapes" section of the benchmark (issue 9): texts built to hit
quadratic corners, at 1, 4 and 16 MB, each run in a fresh process so its peak
memory (ru_maxrss) is its own.

    .venv/bin/python bench/run.py --adversarial [--sizes 1,4,16] [--timeout 600]

Per shape: the chunk call's CPU time at each size and backend (wall time is in
the JSON results), the 16MB/4MB (last
over second-to-last size) ratio beside the tokenizer's own ratio on the same
text (one encode_ordinary pass), the worst seconds per MB, and peak RSS at the
largest size. Targets (issue 9): ratio <= 4.6 and no worse than the tokenizer's,
<= 10 s per MB, <= 300 MB at 16 MB with tiktoken and numpy.
"""
from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys

MB = 1_000_000
REPEATS = 3  # fresh processes per measurement (bench/run.py --repeats)
HERE = pathlib.Path(__file__).resolve().parent


def make(shape: str, n: int) -> str:
    """n characters of one shape."""
    def fill(unit: str) -> str:
        return (unit * (n // len(unit) + 1))[:n]

    if shape == "sentence per line":
        return fill("This sentence stands alone on its line, as in a subtitle file.\n")
    if shape == "heading lines":
        return fill("# Heading line\n")
    if shape == "no whitespace":
        return fill("Lorem.ipsum,dolor;sit-amet/consectetur(adipiscing)elit:")
    if shape == "blank-line run":
        return "Start.\n" + fill("   \n")[: n - 11] + "\nEnd."
    if shape == "all newlines":
        return "\n" * n
    if shape == "whitespace only":
        return " " * n
    if shape == "CJK, no punctuation":
        return fill("中文日本語漢字東京大学研究所")
    if shape == "one giant word":
        return "x" * n
    if shape == "giant word in a sentence":  # its ends differ from its middle: the segments' cuts need proofs
        return ("A giant word: " + "x" * n)[: n - 14] + "y and the end."
    if shape == "ACGT line":  # a genome on one line: tokens span every cut, and no two segments are alike
        import random

        return "".join(random.Random(0).choices("ACGT", k=n))
    if shape == "flag run":
        return fill("🇩🇪🇫🇷🇯🇵🇧🇷🇮🇳")
    if shape == "combining marks":
        return "e" + "\u0301" * (n - 1)
    if shape == "ZWJ sequences":
        return fill("👨\u200d👩\u200d👧\u200d👦")
    if shape == "period run":
        return "." * n
    if shape == "spaces in a heading":
        return "# x" + " " * (n - 6) + "#y\n"
    if shape == "minified JavaScript":  # one line: each chunk start looked back to the text's start
        return fill('function a(b,c){if(b>c){return b-c}return c+b};var x={k:[1,2,3],s:"str"};')
    if shape == "one-line JSON block":
        return "# Data\n\n```json\n" + fill('{"a":[1,2,3],"b":"xyz"},')[: n - 21] + "\n```\n"
    raise ValueError(shape)


LANGUAGE = {"minified JavaScript": "javascript"}  # read as code (the others: prose, Markdown)


# (shape, strategy)
SHAPES = [
    ("sentence per line", "smart"),
    ("heading lines", "smart"),
    ("heading lines", "markdown"),
    ("no whitespace", "smart"),
    ("blank-line run", "smart"),
    ("all newlines", "smart"),
    ("whitespace only", "smart"),
    ("CJK, no punctuation", "smart"),
    ("one giant word", "smart"),
    ("giant word in a sentence", "smart"),
    ("ACGT line", "smart"),
    ("flag run", "smart"),
    ("combining marks", "smart"),
    ("ZWJ sequences", "smart"),
    ("period run", "smart"),
    ("spaces in a heading", "markdown"),
    ("minified JavaScript", "smart"),
    ("one-line JSON block", "smart"),
]


def _child(shape: str, strategy: str, size: int, backend: str, what: str) -> dict:
    """Runs in a fresh process: one measurement, printed as JSON."""
    import resource
    import time

    # A shape that needs GBs must not take the machine down with it: it fails here.
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))
    os.environ["CHUNKWISE_BACKEND"] = backend
    from chunkwise.packing.packer import chunk_document
    from chunkwise.tokenizer.registry import get_tokenizer

    text = make(shape, size)
    tokenizer = get_tokenizer("cl100k_base", backend)
    started, cpu = time.perf_counter(), time.process_time()
    if what == "encode":
        tokenizer.encode(text)
    else:
        chunk_document(text, max_tokens=512, overlap=64, strategy=strategy, language=LANGUAGE.get(shape))
    # CPU seconds: the machine may be shared, and the times are compared as ratios
    return {"s": time.process_time() - cpu, "wall": time.perf_counter() - started,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def measure(shape, strategy, size, backend, what, timeout) -> dict | None:
    code = (f"import sys, json; sys.path.insert(0, {str(HERE)!r}); import adversarial; "
            f"print(json.dumps(adversarial._child({shape!r}, {strategy!r}, {size}, {backend!r}, {what!r})))")
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"status {proc.returncode}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def best_of(repeats: int, *args) -> dict | None:
    """The fastest of `repeats` fresh processes (a lone run moved by 30% here), with
    the highest peak of them; None or an error at once."""
    runs = []
    for _ in range(repeats):
        r = measure(*args)
        if not _ok(r):
            return r
        runs.append(r)
    return _fastest(runs)


def in_turns(repeats: int, small: int, large: int, *args) -> tuple[dict, float | None]:
    """The two largest sizes measured in turns (small, large, small, large...), each
    in a fresh process: ({size: fastest run}, median of the turns' large/small
    ratios). Measured one size after the other, a slow minute on this shared machine
    moved one size only, and a 16/4 ratio by 15%; in turns both sides see it. A
    timeout (None) or an error ends the turns: the sizes reached, and no ratio."""
    shape, strategy, backend, what, timeout = args
    runs: dict[int, list] = {small: [], large: []}
    for _ in range(repeats):
        for size in (small, large):
            r = measure(shape, strategy, size, backend, what, timeout)
            if not _ok(r):
                return {**{s: _fastest(v) for s, v in runs.items() if v}, size: r}, None
            runs[size].append(r)
    ratio = statistics.median(b["s"] / a["s"] for a, b in zip(runs[small], runs[large]))
    return {s: _fastest(v) for s, v in runs.items()}, ratio


def _ok(r) -> bool:
    return r is not None and "s" in r


def _fastest(runs: list[dict]) -> dict:
    return {**min(runs, key=lambda r: r["s"]), "rss_mb": max(r["rss_mb"] for r in runs)}


def section(sizes_mb: list[float], timeout: float, both_up_to: float = 4, only: str = "", repeats: int = REPEATS) -> tuple[str, dict]:
    """The table: every shape with tiktoken at every size, with the pure backend
    up to `both_up_to` MB; `only`: comma-separated words, the shapes that contain one.
    Each time is the best of `repeats` fresh processes; the ratio of the two largest
    sizes (chunk and encode alike) is the median of `repeats` turns (in_turns)."""
    from run import table  # noqa: PLC0415  (bench/run.py's table helper)

    sizes = [int(s * MB) for s in sizes_mb]
    small, large = sizes[-2:]
    header = ["shape", "strategy", "backend"] + [f"{s} MB s" for s in sizes_mb]
    header += [f"{sizes_mb[-1]}/{sizes_mb[-2]} chunk", f"{sizes_mb[-1]}/{sizes_mb[-2]} encode", "max s/MB",
               f"peak MB at {sizes_mb[-1]}"]
    rows, data = [header], {}
    wanted = [w.strip() for w in only.split(",") if w.strip()]
    for shape, strategy in SHAPES:
        if wanted and not any(w in shape for w in wanted):
            continue
        for backend in ("tiktoken", "pure"):
            runnable = [s for s in sizes if backend != "pure" or s <= both_up_to * MB]
            times, ratio, eratio = {}, None, None
            for size in runnable[:-2] if large in runnable else runnable:
                times[size] = best_of(repeats, shape, strategy, size, backend, "chunk", timeout)
                if not _ok(times[size]):
                    break  # a larger size would only take longer
            if large in runnable and all(map(_ok, times.values())):
                measured, ratio = in_turns(repeats, small, large, shape, strategy, backend, "chunk", timeout)
                times.update(measured)
                if ratio is not None:
                    eratio = in_turns(repeats, small, large, shape, strategy, backend, "encode", timeout)[1]

            def cell(r):
                if r is None:
                    return f"> {timeout:.0f}"
                return f"{r['s']:.2f}" if "s" in r else "error"
            per_mb = max((r["s"] / (s / MB) for s, r in times.items() if _ok(r)), default=None)
            peak = max((r["rss_mb"] for r in times.values() if _ok(r)), default=None)
            largest = times.get(sizes[-1])
            rows.append([shape, strategy, backend] + [cell(times[s]) if s in times else "" for s in sizes]
                        + [f"{ratio:.2f}x" if ratio else "", f"{eratio:.2f}x" if eratio else "",
                           f"{per_mb:.2f}" if per_mb is not None else "",
                           f"{largest['rss_mb']:.0f}" if _ok(largest) else (f"{peak:.0f} (at a smaller size)" if peak else "")])
            data[f"{shape}/{strategy}/{backend}"] = {"chunk": times, "ratio": ratio, "encode_ratio": eratio}
    title = (f"### Adversarial shapes (cl100k_base, 512/64; CPU seconds, the best of {repeats} runs, each in a fresh process, the two largest sizes in turns;"
             f" timeout {timeout:.0f} s wall)\n\n"
             "Targets: last/previous size ratio <= 4.6 and no worse than the tokenizer's own (encode column); "
             "<= 10 s per MB; peak <= 300 MB at 16 MB with tiktoken and numpy.")
    return title + "\n\n" + table(rows), data
