"""Add the page's Python bytecode to a pure-Python wheel (run inside the pinned
Pyodide by tools/wheel_bytecode.mjs, which build.py calls).

The page unpacks its wheels into Pyodide's site-packages on a first visit and
imports chunkwise from them: compiling the sources was about half of that import
(some 200 ms of the cold boot). Pyodide's own standard library ships compiled;
this does the same for our wheels, with the bytecode of the Python that runs
them. The .pyc files are "checked-hash" ones (PEP 552): Python compares the
hash of the source beside them (cheap next to compiling it), not timestamps,
which an unpacked archive does not keep; a source edited after the build is
compiled afresh, never run from stale bytecode. Each member of the wheel is
kept as it is; RECORD lists the new files (without a hash, as installers record
bytecode).
"""
from __future__ import annotations

import importlib.util
import io
import zipfile


def add_bytecode(wheel: str, out_path: str) -> None:
    """Write the wheel at `wheel` to `out_path` with a __pycache__/*.pyc beside every .py module."""
    source = zipfile.ZipFile(wheel)
    out = io.BytesIO()
    compiled: list[str] = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        record = None
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                record = (info, data)  # written last, with the bytecode listed
                continue
            dest.writestr(info, data)
            if info.filename.endswith(".py"):
                name = importlib.util.cache_from_source(info.filename)
                dest.writestr(zipfile.ZipInfo(name, info.date_time), _pyc(data, info.filename),
                              compress_type=zipfile.ZIP_DEFLATED)
                compiled.append(name)
        if record is None:
            raise ValueError("not a wheel: no .dist-info/RECORD")
        info, data = record
        listed = data.decode("utf-8")
        if listed and not listed.endswith("\n"):
            listed += "\n"
        dest.writestr(info, (listed + "".join(f"{name},,\n" for name in compiled)).encode("utf-8"))
    with open(out_path, "wb") as f:
        f.write(out.getvalue())


def _pyc(source: bytes, path: str) -> bytes:
    code = compile(source, path, "exec", dont_inherit=True)
    return bytes(importlib._bootstrap_external._code_to_hash_pyc(
        code, importlib.util.source_hash(source), checked=True))
