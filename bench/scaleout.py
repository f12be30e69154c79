"""Corpus mode at scale: 1 against 2 worker processes, the whole run's peak memory at
two corpus sizes, and Ray Data (local) against --jobs 2 on the same input.

    ./dev bench corpus     (or .venv/bin/python bench/run.py corpus [--quick])

Each number comes from this run on this machine; the corpus is generated from
tests/corpus (JSONL, one document of 1-20 kB per line, with metadata).
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time
from typing import NamedTuple

import corpus

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = os.sysconf("SC_PAGE_SIZE")
SETTINGS = ["--max-tokens", "512", "--overlap", "64"]


def write_corpus(path: pathlib.Path, megabytes: float) -> int:
    """A JSONL corpus of about `megabytes` MB; returns the number of documents."""
    docs = corpus.documents()
    names, texts = list(docs), list(docs.values())
    target, size, n = int(megabytes * 1_000_000), 0, 0
    with open(path, "w", encoding="utf-8") as f:
        while size < target:
            text = texts[n % len(texts)]
            start = (n * 7919) % (len(text) - 20_000)
            line = json.dumps({"id": f"doc-{n:07}", "text": text[start : start + 1000 + (n * 104_729) % 19_000],
                               "kind": names[n % len(names)], "n": n}, ensure_ascii=False) + "\n"
            f.write(line)
            size += len(line.encode("utf-8"))
            n += 1
    return n


TICK = os.sysconf("SC_CLK_TCK")


def _tree(root: int) -> dict[int, tuple[int, int]]:
    """{pid: (proportional resident bytes, CPU ticks)} of a process and all its descendants, from /proc."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                # after the name: state ppid ... utime(12) stime(13) ... rss(22), 0-based from state
                stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[21]) * PAGE)
            except (OSError, ValueError, IndexError):
                continue
    tree, grew = {root}, True
    while grew:
        grew = False
        for pid, (parent, _, _) in stats.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return {pid: (_proportional(pid, stats[pid][2]), stats[pid][1]) for pid in tree if pid in stats}


def _proportional(pid: int, rss: int) -> int:
    """The process's proportional set size: a page shared by n processes counts 1/n in
    each. Forked workers share the parent's pages copy-on-write, so a sum of their RSS
    would count the shared pages once per worker. RSS where the kernel has no smaps_rollup."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return rss


class Run(NamedTuple):
    seconds: float
    peak_rss: int  # the highest sum over all processes of the run at one moment (of PSS: shared pages once)
    cpu: float  # CPU seconds of every process of the run (as last seen, sampled every 50 ms)
    main_cpu: float  # of the main process alone: the serial part


def measured(command: list[str]) -> Run:
    """Wall time, peak summed memory and CPU time of the command's process tree."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    peak, ticks, done = 0, {}, threading.Event()

    def sample():
        nonlocal peak
        while not done.is_set():
            tree = _tree(proc.pid)
            peak = max(peak, sum(rss for rss, _ in tree.values()))
            ticks.update({pid: cpu for pid, (_, cpu) in tree.items()})
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = proc.communicate()
    elapsed = time.perf_counter() - started
    done.set()
    sampler.join()
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {stderr.decode()[-2000:]}")
    return Run(elapsed, peak, sum(ticks.values()) / TICK, ticks.get(proc.pid, 0) / TICK)


RAY_SCRIPT = """
import sys, time
started = time.perf_counter()
import ray
from chunkwise.corpus.ray_data import ChunkRows
ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False, configure_logging=False)
ray.data.DataContext.get_current().enable_progress_bars = False
ready = time.perf_counter()
(ray.data.read_parquet(sys.argv[1])
    .map_batches(ChunkRows, fn_constructor_kwargs={"max_tokens": 512, "overlap": 64}, batch_format="pyarrow",
                 compute=ray.data.ActorPoolStrategy(size=2))
    .write_parquet(sys.argv[2]))
done = time.perf_counter()
ray.shutdown()
print(ready - started, done - ready)
"""


def section(quick: bool) -> tuple[str, dict]:
    from run import table  # the shared table layout

    python = sys.executable
    cli = [python, "-m", "chunkwise"]
    big_mb, small_mb = (6, 3) if quick else (50, 25)
    data = {}
    with tempfile.TemporaryDirectory(prefix="chunkwise-bench-") as tmp:
        tmp = pathlib.Path(tmp)
        big, small = tmp / "big.jsonl", tmp / "small.jsonl"
        docs_big, docs_small = write_corpus(big, big_mb), write_corpus(small, small_mb)
        rows = [["run", "input", "documents", "wall s", "MB/s", "CPU s (all)", "CPU s (main)", "peak memory (PSS, all processes)"]]

        def row(name, path, docs, run):
            mb = path.stat().st_size / 1e6
            rows.append([name, f"{mb:.0f} MB {path.suffix[1:]}", f"{docs:,}", f"{run.seconds:.1f}", f"{mb / run.seconds:.2f}",
                         f"{run.cpu:.1f}", f"{run.main_cpu:.1f}", f"{run.peak_rss / 1e6:.0f} MB"])
            data[name] = {"mb": mb, "docs": docs, **run._asdict()}

        load = os.getloadavg()[0]
        j1 = measured([*cli, str(big), *SETTINGS, "--jobs", "1", "-o", str(tmp / "j1.jsonl")])
        row("--jobs 1", big, docs_big, j1)
        j2 = measured([*cli, str(big), *SETTINGS, "--jobs", "2", "-o", str(tmp / "j2.jsonl")])
        row("--jobs 2", big, docs_big, j2)
        same = (tmp / "j1.jsonl").read_bytes() == (tmp / "j2.jsonl").read_bytes()
        half = measured([*cli, str(small), *SETTINGS, "--jobs", "2", "-o", str(tmp / "s2.jsonl")])
        row("--jobs 2, half the corpus", small, docs_small, half)
        speedup = j1.seconds / j2.seconds
        # What 2 idle cores would give at most, counting all of the main process's CPU as serial
        # (its start-up is: the workers are forked after it loads the tokenizer) and the workers' split in two.
        bound = j1.cpu / (j2.main_cpu + (j2.cpu - j2.main_cpu) / 2)
        data.update(speedup=speedup, cpu_bound_speedup=bound, same_bytes=same, memory_ratio=j2.peak_rss / half.peak_rss,
                    load_average=load)

        # Ray Data against the CLI on the same Parquet input, both writing Parquet.
        import pyarrow.json as pj
        import pyarrow.parquet as pq

        pq.write_table(pj.read_json(big), tmp / "big.parquet", row_group_size=1024)
        cp = measured([*cli, str(tmp / "big.parquet"), *SETTINGS, "--jobs", "2", "-o", str(tmp / "cli.parquet")])
        row("--jobs 2, Parquet in and out", tmp / "big.parquet", docs_big, cp)
        started = time.perf_counter()
        ray_out = subprocess.run([python, "-c", RAY_SCRIPT, str(tmp / "big.parquet"), str(tmp / "ray")],
                                 capture_output=True, text=True, cwd=ROOT, timeout=1800)
        ray_wall = time.perf_counter() - started
        if ray_out.returncode == 0:
            init_s, run_s = map(float, ray_out.stdout.split()[-2:])
            same_rows = pq.read_table(tmp / "ray").num_rows == pq.read_table(tmp / "cli.parquet").num_rows
            data["ray"] = {"init_s": init_s, "run_s": run_s, "wall_s": ray_wall, "overhead": run_s / cp.seconds,
                           "same_row_count": same_rows}
            ray_note = (f"Ray Data local (2 actors; ray.init with 3 logical CPUs so the reads are not starved): ray.init"
                        f" {init_s:.1f} s, the pipeline {run_s:.1f} s = {run_s / cp.seconds:.2f}x the CLI's --jobs 2 on the"
                        f" same Parquet ({ray_wall / cp.seconds:.2f}x with interpreter and Ray start-up); same row count: {same_rows}.")
        else:
            ray_note = "Ray run failed: " + ray_out.stderr[-1500:]
    text = (
        "### Corpus mode (smart 512/64, JSONL out unless noted)\n\n" + table(rows) + "\n\n"
        f"--jobs 2 against --jobs 1: {speedup:.2f}x (target >= 1.8x on 2 idle cores; load average {load:.1f} at the start)."
        f" From the CPU times, 2 idle cores would give at most {bound:.2f}x (the main process's CPU counted as serial,"
        f" the workers' split in two). CPU s (all) of --jobs 2 against --jobs 1: {j2.cpu / j1.cpu:.2f}x."
        f" Byte-identical output: {same}.\n"
        f"Peak memory of the whole run: {j2.peak_rss / 1e6:.0f} MB for {big_mb} MB against {half.peak_rss / 1e6:.0f} MB for"
        f" {small_mb} MB ({j2.peak_rss / half.peak_rss:.2f}x for twice the corpus).\n" + ray_note
    )
    return text, data
