"""A SQuAD file (JSON, v1.1 or v2.0) as retrieval data for bench/retrieval.py: its
articles' paragraphs joined by blank lines into one corpus, and each answerable
question with the span of its first answer as its reference.

    .venv/bin/python bench/squad.py SQUAD.json OUT_FOLDER [CORPUS_ID]

writes OUT_FOLDER/corpora/CORPUS_ID.md and OUT_FOLDER/questions.csv, the layout of
../shared/retrieval-eval (answer_start is a code point offset, as there)."""
from __future__ import annotations

import json
import pathlib
import sys

import retrieval


def convert(squad: dict, corpus_id: str) -> tuple[str, list[dict]]:
    """(the corpus text, the questions.csv rows)."""
    paragraphs, rows, at = [], [], 0
    for article in squad["data"]:
        for paragraph in article["paragraphs"]:
            context = paragraph["context"]
            for qa in paragraph["qas"]:
                if qa.get("is_impossible") or not qa["answers"]:
                    continue  # (SQuAD 2.0's unanswerable questions have no span to find)
                answer = qa["answers"][0]
                start = at + answer["answer_start"]
                reference = {"content": answer["text"], "start_index": start, "end_index": start + len(answer["text"])}
                rows.append({"question": qa["question"], "references": json.dumps([reference], ensure_ascii=False),
                             "corpus_id": corpus_id})
            paragraphs.append(context)
            at += len(context) + 2
    return "\n\n".join(paragraphs), rows


def main(argv: list[str]) -> int:
    source, out = pathlib.Path(argv[0]), pathlib.Path(argv[1])
    corpus_id = argv[2] if len(argv) > 2 else "squad"
    text, rows = convert(json.loads(source.read_text(encoding="utf-8")), corpus_id)
    retrieval.write_data(out, corpus_id, text, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
