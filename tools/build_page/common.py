"""What every part of the build shares: where things are, the log line, hashing and
copying files, and the layout of the content-addressed folders of static/vendor/."""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: this file is tools/build_page/common.py
PY_DIR = ROOT / "py"
VENDOR = ROOT / "static" / "vendor"


@functools.cache
def presets_module():
    """py/chunkwise/presets.py, loaded on its own (standard library only)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("chunkwise_presets", PY_DIR / "chunkwise" / "presets.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("chunkwise_presets", module)
    spec.loader.exec_module(module)
    return module


CACHE = ROOT / presets_module().BUILD_CACHE

# The content-addressed folders of static/vendor/: each file is <folder>/<hash>/<name>,
# the hash (this many hex digits of a sha256) taken over its bytes, so it is cached for
# good. The one definition of that layout: build.py writes it (addressed()), serves it
# and writes --dist's headers by IMMUTABLE_PATTERN, and manifest.json carries the
# pattern for the service worker (sw.js) and the benchmark's server (bench/browser.mjs).
CONTENT_ADDRESSED = ("pyodide", "wheels", "tokenizers")
HASH_CHARS = 16
# The end of a content-addressed file's URL path (the page may be served under a prefix).
IMMUTABLE_PATTERN = rf"/static/vendor/(?:{'|'.join(CONTENT_ADDRESSED)})/[0-9a-f]{{{HASH_CHARS}}}/[^/]+$"
# What the served page consists of; --dist copies exactly this, --serve serves only this.
PAGE_PATHS = ["index.html", "sw.js", "app", "static"]


def log(msg: str) -> None:
    print(f"[build] {msg}", file=sys.stderr, flush=True)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def copy_if_changed(src: Path, dst: Path) -> bool:
    """Copy src to dst unless dst already has the same bytes (keeps warm builds quiet)."""
    if dst.exists() and dst.stat().st_size == src.stat().st_size and sha256_file(dst) == sha256_file(src):
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)  # atomic: a server running meanwhile never sees half a file
    return True


def content_hash(paths: list[Path]) -> str:
    """The name of a content-addressed folder: a hash over the files' names and bytes."""
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode() + b"\0" + sha256_file(p).encode() + b"\0")
    return h.hexdigest()[:HASH_CHARS]


def addressed(folder: str, key: str, name: str = "") -> str:
    """A content-addressed path, relative to static/vendor/ (a folder's when name is empty)."""
    if folder not in CONTENT_ADDRESSED:
        raise ValueError(f"{folder} is not a content-addressed folder")
    return f"{folder}/{key}/{name}"


def keep_only(folder: Path, wanted: set[str]) -> None:
    """Remove everything in folder but the entries named in wanted (older builds)."""
    for entry in folder.iterdir() if folder.exists() else ():
        if entry.name not in wanted:
            shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
