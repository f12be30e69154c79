"""The benchmark's documents, built from tests/corpus so every machine has them."""
from __future__ import annotations

import pathlib

CORPUS = pathlib.Path(__file__).resolve().parent.parent / "tests" / "corpus"


def read(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def log_file(lines: int) -> str:
    levels = ["INFO", "WARN", "ERROR", "DEBUG"]
    return "".join(
        f"2026-11-29T10:{i // 60 % 60:02d}:{i % 60:02d}Z {levels[i % 4]} worker-{i % 7} "
        f"request id={i * 7919 % 100003} path=/api/v{i % 3}/items/{i % 97} took {i % 913} ms\n"
        for i in range(lines)
    )


def sized(text: str, size: int) -> str:
    """text repeated (with a blank line between copies) and cut to size characters."""
    copies = "\n\n".join([text] * (size // max(1, len(text)) + 1))
    return copies[:size]


def documents() -> dict[str, str]:
    """Each kind of document a user brings, about 100-200 kB each."""
    return {
        "markdown docs": sized(read("node-net.md"), 200_000),
        "prose (GPL-3)": sized(read("gpl-3.txt"), 200_000),
        "source code": sized(read("argparse.py.txt"), 200_000),
        "russian prose": sized(read("russian.txt"), 100_000),
        "cjk text": sized(read("cjk.txt"), 100_000),
        "log file": log_file(1500),
    }


def mixed(size: int) -> str:
    return sized("\n\n".join(documents().values()), size)


def adversarial(size: int) -> dict[str, str]:
    """Shapes that expose quadratic corners."""
    sentence = "This sentence keeps going, with commas and clauses; it never breaks a paragraph. "
    return {
        "no paragraph breaks": sized(sentence, size).replace("\n", " "),
        "one giant line": sized("word " * 50 + "; ", size).replace("\n", " "),
        "one giant word": "x" * size,
    }
