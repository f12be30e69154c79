"""Output formats. The CLI and the page both call these, so their bytes agree."""
from __future__ import annotations

import json
from collections.abc import Iterable

from ..types import Chunk


def _records(chunks: Iterable[Chunk], source: str | None) -> list[dict]:
    if source is None:
        return [chunk.to_dict() for chunk in chunks]
    return [chunk.to_dict() | {"source": source} for chunk in chunks]


def _dumps(obj, indent=None) -> str:
    # ensure_ascii=False keeps the text readable UTF-8; key order is the record's.
    separators = (",", ": ") if indent else (",", ":")
    return json.dumps(obj, ensure_ascii=False, indent=indent, separators=separators)


def to_jsonl(chunks: Iterable[Chunk], source: str | None = None) -> str:
    """One JSON object per line, each line ended by a single \\n."""
    return "".join(_dumps(r) + "\n" for r in _records(chunks, source))


def to_json(chunks: Iterable[Chunk], source: str | None = None) -> str:
    """A JSON array of the same records, indented, ending in a newline."""
    return _dumps(_records(chunks, source), indent=2) + "\n"


def to_text(chunks: Iterable[Chunk], headers: bool = False) -> str:
    """Chunk texts separated by a blank line, optionally headed `--- Chunk n/N ---`."""
    chunks = list(chunks)
    total = len(chunks)
    parts = []
    for chunk in chunks:
        if headers:
            parts.append(f"--- Chunk {chunk.index + 1}/{total} ---\n{chunk.text}")
        else:
            parts.append(chunk.text)
    return "\n\n".join(parts) + "\n" if parts else ""


FORMATS = {"jsonl": to_jsonl, "json": to_json}


def render(chunks: Iterable[Chunk], fmt: str, *, headers: bool = False, source: str | None = None) -> str:
    """The one entry point the CLI and the page use: format name -> text."""
    if fmt == "text":
        return to_text(chunks, headers=headers)
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose jsonl, json or text")
    return FORMATS[fmt](chunks, source=source)


def render_many(groups: list[tuple[list[Chunk], str | None]], fmt: str, *, headers: bool = False) -> str:
    """Several inputs in one output: JSONL lines and text follow each other,
    JSON is one array; records name their `source` when it is given."""
    if fmt == "json":
        return _dumps([r for chunks, source in groups for r in _records(chunks, source)], indent=2) + "\n"
    rendered = [render(chunks, fmt, headers=headers, source=source) for chunks, source in groups]
    return ("\n" if fmt == "text" else "").join(r for r in rendered if r)
