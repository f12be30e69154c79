"""Golden snapshots of every cut of the test corpus.

One file per document × strategy × encoding × setting, under tests/snapshots/,
one line per chunk: start, end, token_count, overlap_tokens, boundary and the
heading path, tab-separated. test_snapshots.py compares a fresh run with them;
a change to where the engine cuts is refreshed only on purpose, with

    ./dev snapshots          # = python tests/snapshots.py --update

which rewrites the files and prints what moved: which cuts, to which boundary.
"""
from __future__ import annotations

import argparse
import difflib
import json
import pathlib
import sys

import chunkwise

HERE = pathlib.Path(__file__).parent
CORPUS = HERE / "corpus"
SNAPSHOTS = HERE / "snapshots"
SETTINGS = ((512, 64), (128, 16))
ENCODINGS = ("cl100k_base", "o200k_base", "chars")


def documents() -> list[pathlib.Path]:
    return sorted(p for p in CORPUS.iterdir() if p.name != "SOURCES.md")


def runs():
    """Every snapshot run: (relative file name, document path, chunk settings)."""
    for doc in documents():
        for strategy in chunkwise.STRATEGIES:
            for encoding in ENCODINGS:
                for max_tokens, overlap in SETTINGS:
                    name = f"{doc.name}/{strategy}.{encoding}.{max_tokens}-{overlap}.tsv"
                    yield name, doc, dict(max_tokens=max_tokens, overlap=overlap, strategy=strategy, encoding=encoding)


def render(text: str, settings: dict) -> str:
    result = chunkwise.chunk_document(text, **settings)
    return "".join(
        f"{c.start}\t{c.end}\t{c.token_count}\t{c.overlap_tokens}\t{c.boundary}\t"
        f"{json.dumps(list(c.headings), ensure_ascii=False)}\n"
        for c in result.chunks
    )


def _read(doc: pathlib.Path) -> str:
    return doc.read_text(encoding="utf-8")


def _describe(text: str, line: str) -> str:
    """One snapshot line as a reader wants it: where the chunk ends and why."""
    start, end, tokens, overlap, boundary, _ = line.rstrip("\n").split("\t")
    tail = text[max(int(start), int(end) - 30) : int(end)].replace("\n", "⏎")
    return f"[{start}:{end}] {tokens} tok, ends at {boundary}: …{tail!r}"


def explain(name: str, text: str, old: str, new: str) -> list[str]:
    """The chunks that moved between two snapshots of one run, readably."""
    out = [f"{name}: {old.count(chr(10))} -> {new.count(chr(10))} chunks"]
    matcher = difflib.SequenceMatcher(a=old.splitlines(True), b=new.splitlines(True), autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        out += [f"  - {_describe(text, line)}" for line in matcher.a[i1:i2]]
        out += [f"  + {_describe(text, line)}" for line in matcher.b[j1:j2]]
    return out


def update(paths: list[str] | None = None) -> int:
    """Rewrite the snapshots (all, or those whose name contains one of `paths`) and print what moved."""
    changed = 0
    for name, doc, settings in runs():
        if paths and not any(p in name for p in paths):
            continue
        text = _read(doc)
        new = render(text, settings)
        target = SNAPSHOTS / name
        old = target.read_text(encoding="utf-8") if target.exists() else ""
        if old == new:
            continue
        changed += 1
        print("\n".join(explain(name, text, old, new)))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(new, encoding="utf-8")
    print(f"{changed} snapshot(s) changed" if changed else "snapshots unchanged", file=sys.stderr)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Refresh the golden snapshots and print what moved.")
    parser.add_argument("--update", action="store_true", required=True, help="rewrite the snapshot files")
    parser.add_argument("only", nargs="*", help="only runs whose name contains one of these")
    args = parser.parse_args()
    sys.exit(update(args.only))
