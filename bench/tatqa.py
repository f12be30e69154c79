"""TAT-QA (JSON: annual reports' tables and the paragraphs around them) as retrieval
data for bench/retrieval.py: every context's table and paragraphs in one corpus,
and each question answered by spans of it (answer types "span" and "multi-span")
with those spans as its references.

    .venv/bin/python bench/tatqa.py TATQA.json OUT_FOLDER {pipe,rows} [CORPUS_ID]

Layouts of a table:
- pipe: a Markdown pipe table (its first row the header), blocks apart by blank lines;
- rows: a line per row, its non-empty cells joined by spaces, and no blank line
  anywhere: text as a PDF's extraction gives it, many short lines of figures.
A context is its paragraphs in their order, the table after the last one that ends in
a colon ("...were as follows:"), else before them all. An answer is looked for, as
whole words and numbers, where the question says it is from (the table, the
question's paragraphs, or both); a question one of whose answers is not found
there exactly once is left out.
Writes OUT_FOLDER/corpora/CORPUS_ID.md and OUT_FOLDER/questions.csv, the layout of
../shared/retrieval-eval (offsets in code points, as there)."""
from __future__ import annotations

import json
import pathlib
import re
import sys

import retrieval

LAYOUTS = ("pipe", "rows")


def table_text(rows: list[list[str]], layout: str) -> str:
    cells = [[" ".join(cell.split()) for cell in row] for row in rows]
    if layout == "rows":
        return "\n".join(" ".join(c for c in row if c) for row in cells if any(row))
    width = max(len(row) for row in cells)
    lines = ["| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in cells]
    return "\n".join([lines[0], "|" + " --- |" * width, *lines[1:]])


def _occurrences(text: str, answer: str, lo: int, hi: int) -> list[int]:
    """Where answer occurs in text[lo:hi] as whole words and numbers ("6" is not in
    "$361", "0" not in "2019", "1,496" not in "1,496.5")."""
    pattern = r"(?<!\w)(?<!\d[.,])" + re.escape(answer) + r"(?!\w)(?![.,]\d)"
    return [m.start() for m in re.finditer(pattern, text[lo:hi])]


def convert(contexts: list[dict], layout: str, corpus_id: str) -> tuple[str, list[dict]]:
    """(the corpus text, the questions.csv rows)."""
    gap = "\n" if layout == "rows" else "\n\n"
    text, rows = "", []
    for context in contexts:
        paragraphs = sorted(context["paragraphs"], key=lambda p: p["order"])
        bodies = [(str(p["order"]), " ".join(p["text"].split())) for p in paragraphs]
        lead_ins = [i for i, (_, body) in enumerate(bodies) if body.endswith(":")]
        at_table = lead_ins[-1] + 1 if lead_ins else 0
        bodies.insert(at_table, ("table", table_text(context["table"]["table"], layout)))
        spans, at = {}, len(text)
        for i, (name, body) in enumerate(bodies):
            at += len(gap) if text or i else 0
            spans[name] = (at, at + len(body))
            at += len(body)
        text += (gap if text else "") + gap.join(body for _, body in bodies)
        assert len(text) == at
        for question in context["questions"]:
            if question["answer_type"] not in ("span", "multi-span"):
                continue  # (arithmetic and counts have no span to find)
            places = {"table": ["table"], "text": question["rel_paragraphs"],
                      "table-text": ["table", *question["rel_paragraphs"]]}[question["answer_from"]]
            references = []
            for answer in question["answer"]:
                answer = " ".join(str(answer).split())
                found = []
                for place in places:
                    if place in spans:
                        lo, hi = spans[place]
                        found += [lo + k for k in _occurrences(text, answer, lo, hi)]
                if not answer or len(found) != 1:
                    break
                references.append({"content": answer, "start_index": found[0], "end_index": found[0] + len(answer)})
            else:
                rows.append({"question": question["question"], "references": json.dumps(references, ensure_ascii=False),
                             "corpus_id": corpus_id})
    return text, rows


def main(argv: list[str]) -> int:
    source, out, layout = pathlib.Path(argv[0]), pathlib.Path(argv[1]), argv[2]
    if layout not in LAYOUTS:
        raise SystemExit(f"layout: one of {', '.join(LAYOUTS)}")
    corpus_id = argv[3] if len(argv) > 3 else f"tatqa_{layout}"
    text, rows = convert(json.loads(source.read_text(encoding="utf-8")), layout, corpus_id)
    retrieval.write_data(out, corpus_id, text, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
