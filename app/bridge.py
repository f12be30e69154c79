"""Glue between app/worker.js and the chunkwise package (runs inside Pyodide).

Everything crosses to JavaScript as JSON text or bytes, which keeps the
JS <-> Python conversion simple and cheap. Offsets stay Python code-point
indices here; the worker maps them to UTF-16 units.
"""
import json

import chunkwise
import chunkwise.engine
import chunkwise.export
import chunkwise.stats
import chunkwise.textio

VERSION = chunkwise.__version__


def decode(data) -> str:
    """File bytes (a JS Uint8Array) -> JSON {text, info}, decoded as the CLI does."""
    text, info = chunkwise.textio.decode_bytes(data.to_bytes())
    return json.dumps({"text": text, "info": info}, ensure_ascii=False)


def new_job(text, max_tokens, overlap, strategy, encoding):
    return chunkwise.engine.ChunkJob(
        text, max_tokens=int(max_tokens), overlap=int(overlap), strategy=strategy, encoding=encoding
    )


def job_warnings(job) -> str:
    return json.dumps(list(job.warnings), ensure_ascii=False)


def step(job, max_seconds) -> str:
    """Run the job for about max_seconds; the new chunks, without their text."""
    chunks = job.step(max_seconds=max_seconds)
    rows = [
        [c.index, c.start, c.end, c.token_count, c.overlap_tokens, c.boundary, list(c.headings)]
        for c in chunks
    ]
    return json.dumps({"chunks": rows, "done": bool(job.done), "progress": float(job.progress)}, ensure_ascii=False)


def stats(result) -> str:
    """The stats panel's numbers (JSON), computed by the engine itself."""
    return json.dumps(chunkwise.stats.compute(result), ensure_ascii=False)


def export(result, fmt, headers) -> bytes:
    """Exactly the bytes the CLI writes for the same text and settings."""
    return chunkwise.export.render(result.chunks, fmt, headers=bool(headers)).encode("utf-8")
