"""The code corpus (tests/code-corpus/): where cuts fall in source code.

    ./dev bench code      (or .venv/bin/python bench/run.py code; bench/codebench.py alone)

For each file, read as its language (by extension), at 512/64: the boundary mix
of smart (which uses the code ladder for code) beside smart on the same text read
as prose (the old behaviour), the share of cuts between definitions against
inside one, cuts inside strings or comments, and the chunking time against one
tokenizer pass. tests/source_code/test_code_corpus.py checks the same numbers at 128/256/512.
"""
from __future__ import annotations

import pathlib
import sysconfig
from bisect import bisect_left, bisect_right
from collections import Counter

from chunkwise.code.structure import CODE
from chunkwise.packing.document import Document
from chunkwise.packing.packer import chunk_document
from chunkwise.code.languages import from_filename
from chunkwise.text.separators import trim_end
from chunkwise.tokenizer.registry import get_tokenizer

from timing import best_of

CORPUS = pathlib.Path(__file__).resolve().parent.parent / "tests" / "code-corpus"
# Large Python modules of the running Python's standard library, outside the corpus.
STDLIB_MODULES = ("inspect", "typing", "argparse", "pathlib", "subprocess", "dataclasses", "functools", "tarfile")


def files() -> dict[str, tuple[str, str]]:
    """name -> (language, text) for every file of the code corpus with a language."""
    out = {}
    for path in sorted(CORPUS.iterdir()):
        language = from_filename(path.name)
        if language is not None and path.name != "SOURCES.md":
            out[path.name] = (language, path.read_text(encoding="utf-8"))
    return out


def cut_report(doc: Document, chunks) -> dict:
    """Where the cuts of a run fall in the code's structure (every chunk end but the last):
    between definitions (before one, or outside every definition) or inside one's body;
    at a line end inside a string or comment; and "missed": a cut inside a string or
    comment, or inside a line, while a line end outside strings and comments was in reach."""
    text, structure = doc.text, doc.structure
    nls, states = structure.nls, structure.states
    def_starts = {d.start for d in structure.definitions}
    between = inside = in_string = missed = 0
    prev_end = 0
    for c in chunks[:-1]:
        end = c.end
        nxt = end
        while nxt < len(text) and text[nxt].isspace():
            nxt += 1
        line_start = text.rfind("\n", 0, nxt) + 1
        d = structure.innermost(end - 1)
        if line_start in def_starts or d is None or structure.definitions[d].end <= nxt:
            between += 1
        else:
            inside += 1
        k = bisect_left(nls, end)
        at_line_end = k < len(nls) and not text[end : nls[k]].strip()
        if not (at_line_end and states[k] == CODE):
            in_string += at_line_end
            floor = max(c.start, prev_end)
            for i in range(bisect_right(nls, floor), bisect_left(nls, end)):
                if states[i] == CODE and trim_end(text, c.start, nls[i]) > floor:
                    missed += 1
                    break
        prev_end = end
    cuts = max(1, len(chunks) - 1)
    return {
        "cuts": len(chunks) - 1,
        "between_definitions": between / cuts,
        "inside_definitions": inside / cuts,
        "line_cuts_in_strings_or_comments": in_string,
        "missed_line_cuts": missed,
    }


def mix(chunks) -> str:
    counts = Counter(c.boundary for c in chunks[:-1])
    total = sum(counts.values()) or 1
    return " ".join(f"{k}:{v / total:.0%}" for k, v in counts.most_common())


def section(runs: int = 3, table=None) -> tuple[str, dict]:
    rows = [["file", "language", "chunks", "smart on code: cut mix", "between defs", "in strings", "chunk/encode",
             "smart as prose: cut mix", "between defs"]]
    data = {}
    tokenizer = get_tokenizer("cl100k_base")
    total_encode = total_code = total_prose = 0.0
    for name, (language, text) in files().items():
        tokenizer.encode(text)
        encode = best_of(lambda: tokenizer.encode(text), runs)
        code_doc = Document(text, language)
        result = None

        def run_code():
            nonlocal result
            result = chunk_document(text, max_tokens=512, overlap=64, language=language)

        code_s = best_of(run_code, runs)  # scanning and all: a fresh Document each run
        code = cut_report(code_doc, result.chunks)
        prose_result = None

        def run_prose():
            nonlocal prose_result
            prose_result = chunk_document(text, max_tokens=512, overlap=64)

        prose_s = best_of(run_prose, runs)
        prose = cut_report(code_doc, prose_result.chunks)
        total_encode += encode
        total_code += code_s
        total_prose += prose_s
        data[name] = {"language": language, "code": code, "prose": prose, "encode_s": encode, "code_s": code_s,
                      "prose_s": prose_s, "mix_code": mix(result.chunks), "mix_prose": mix(prose_result.chunks)}
        rows.append([name, language, str(len(result.chunks)), mix(result.chunks), f"{code['between_definitions']:.0%}",
                     str(code["line_cuts_in_strings_or_comments"]), f"{code_s / encode:.1f}x",
                     mix(prose_result.chunks), f"{prose['between_definitions']:.0%}"])
    rows.append(["all files", "", "", "", "", "", f"{total_code / total_encode:.1f}x",
                 f"(prose reading: {total_prose / total_encode:.1f}x)", ""])
    data["total"] = {"encode_s": total_encode, "code_s": total_code, "prose_s": total_prose}
    stdlib = [(pathlib.Path(sysconfig.get_paths()["stdlib"]) / f"{m}.py").read_text(encoding="utf-8") for m in STDLIB_MODULES]
    encode = sum(best_of(lambda: tokenizer.encode(t), runs) for t in stdlib)
    chunk = sum(best_of(lambda: chunk_document(t, max_tokens=512, overlap=64, language="python"), runs) for t in stdlib)
    chars = sum(len(t) for t in stdlib)
    data["stdlib_python"] = {"modules": STDLIB_MODULES, "chars": chars, "encode_s": encode, "code_s": chunk}
    rows.append([f"{len(stdlib)} stdlib modules", "python", "", f"{chars:,} characters", "", "", f"{chunk / encode:.1f}x", "", ""])
    render = table or _table
    text = (
        "## Code corpus at 512/64 (tests/code-corpus, cl100k_base)\n\n"
        "Smart reads each file as its language (by extension) and cuts by the code ladder;"
        " 'smart as prose' is the same file with no language (how every file was read before)."
        " 'between defs' counts cuts that fall outside any definition body or between two;"
        " 'in strings' counts cuts at a line end inside a string or comment;"
        " chunk/encode is chunking (scan included) against one tokenizer pass over the file.\n\n"
        + render(rows)
    )
    return text, data


def _table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


if __name__ == "__main__":
    print(section()[0])
