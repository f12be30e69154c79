"""Output formats. The CLI and the page both call these, so their bytes agree.

- jsonl / json: the records (types.Chunk.to_dict), `source` added with several inputs;
  with parents, each parent's record (kind "parent") comes before its chunks'.
- langchain: JSONL of LangChain Documents, {"page_content", "metadata"}: page_content
  is what to embed (embed_text with a context, else text), metadata the rest of the
  record (with `text` when page_content is embed_text).
- vectors: JSONL for vector stores, {"id", "text", "embed_text", "metadata"}: id is
  the record's id ("c3", "p1"; "c3" for chunk 3 without parents too), after
  "source:" with several inputs; embed_text is text without a context.
- text: the chunk texts, a blank line apart (parents left out), each headed
  `--- Chunk n/N ---` by default (`--- Chunk n/N of SOURCE ---` with several inputs): a
  blank line alone reads as one more paragraph break. headers=False: the bare texts.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from ..types import Chunk, child_id

FORMATS = ("jsonl", "json", "langchain", "vectors", "text")
TEXT_HEADERS = True  # the text format heads each chunk unless told not to (--no-headers)


def _records(chunks: Iterable[Chunk], source: str | None, parents: Sequence[Chunk] = ()) -> list[dict]:
    chunks = list(chunks)
    if parents:  # each parent, then the chunks that tile it
        by_parent: dict[int, list[Chunk]] = {}
        for c in chunks:
            by_parent.setdefault(c.parent, []).append(c)
        records = []
        for p in parents:
            records.append(p.parent_record())
            records.extend(c.to_dict() for c in by_parent.get(p.index, ()))
    else:
        records = [c.to_dict() for c in chunks]
    if source is not None:
        records = [r | {"source": source} for r in records]
    return records


def _dumps(obj, indent=None) -> str:
    # ensure_ascii=False keeps the text readable UTF-8; key order is the record's.
    separators = (",", ": ") if indent else (",", ":")
    return json.dumps(obj, ensure_ascii=False, indent=indent, separators=separators)


def _langchain(record: dict) -> dict:
    metadata = {k: v for k, v in record.items() if k not in ("text", "embed_text")}
    if "embed_text" in record:
        return {"page_content": record["embed_text"], "metadata": {"text": record["text"], **metadata}}
    return {"page_content": record["text"], "metadata": metadata}


def _vector(record: dict) -> dict:
    rid = record.get("id", child_id(record["index"]))
    if "source" in record:
        rid = f"{record['source']}:{rid}"
    metadata = {k: v for k, v in record.items() if k not in ("id", "text", "embed_text")}
    return {"id": rid, "text": record["text"], "embed_text": record.get("embed_text", record["text"]), "metadata": metadata}


_SHAPES = {"jsonl": None, "langchain": _langchain, "vectors": _vector}


def to_jsonl(chunks: Iterable[Chunk], source: str | None = None, parents: Sequence[Chunk] = ()) -> str:
    """One JSON object per line, each line ended by a single \\n."""
    return "".join(_dumps(r) + "\n" for r in _records(chunks, source, parents))


def to_json(chunks: Iterable[Chunk], source: str | None = None, parents: Sequence[Chunk] = ()) -> str:
    """A JSON array of the same records, indented, ending in a newline."""
    return _dumps(_records(chunks, source, parents), indent=2) + "\n"


def to_text(chunks: Iterable[Chunk], headers: bool = TEXT_HEADERS, source: str | None = None) -> str:
    """Chunk texts separated by a blank line, each headed `--- Chunk n/N ---` (naming
    the source when given), or bare without headers."""
    chunks = list(chunks)
    total = len(chunks)
    of = f" of {source}" if source is not None else ""
    parts = [f"--- Chunk {c.index + 1}/{total}{of} ---\n{c.text}" if headers else c.text for c in chunks]
    return "\n\n".join(parts) + "\n" if parts else ""


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


def render(
    chunks: Iterable[Chunk], fmt: str, *, headers: bool = TEXT_HEADERS, source: str | None = None, parents: Sequence[Chunk] = ()
) -> str:
    """The one entry point the CLI and the page use: format name -> text."""
    return render_many([(chunks, source, parents)], fmt, headers=headers)


def render_many(groups: list[tuple], fmt: str, *, headers: bool = TEXT_HEADERS) -> str:
    """Several inputs in one output, each (chunks, source) or (chunks, source, parents):
    JSONL lines and text follow each other, JSON is one array; records (and text
    headers) name their `source` when it is given."""
    _check(fmt)
    if fmt == "text":
        return "\n".join(r for r in (to_text(group[0], headers, group[1]) for group in groups) if r)
    records = [r for group in groups for r in _records(*group)]
    if fmt == "json":
        return _dumps(records, indent=2) + "\n"
    shape = _SHAPES[fmt]
    return "".join(_dumps(shape(r) if shape else r) + "\n" for r in records)
