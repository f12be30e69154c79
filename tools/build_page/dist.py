"""The page as files: the list the service worker keeps for offline use, and the --dist
folder any static host can serve (with its `_headers`)."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

from .common import PAGE_PATHS, ROOT, log
from .headers import headers_file

def page_files() -> list[str]:
    """The page's files outside static/vendor/, as URL paths relative to the root ("./" is the page)."""
    files = ["./", "index.html"]
    for folder in ("app", "static"):
        for p in sorted((ROOT / folder).rglob("*")):
            rel = p.relative_to(ROOT).as_posix()
            if p.is_file() and not rel.startswith("static/vendor/") and not p.name.startswith(".") and not p.name.endswith(".tmp"):
                files.append(rel)
    return files


def write_dist(dest: Path) -> None:
    """Copy the page (index.html, app/, static/) into dest, replacing an earlier dist."""
    dest = dest.resolve()
    marker = dest / ".chunkwise-dist"
    if dest.exists() and any(dest.iterdir()) and not marker.exists():
        sys.exit(f"{dest} exists and is not an earlier chunkwise dist: refusing to overwrite it")
    if ROOT.is_relative_to(dest) or any(dest.is_relative_to(ROOT / p) for p in PAGE_PATHS):
        sys.exit("--dist must be outside the page's own files (e.g. dist/)")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for name in PAGE_PATHS:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("*.tmp", ".DS_Store"))
        else:
            shutil.copy2(src, dest / name)
    (dest / "_headers").write_text(headers_file())
    marker.write_text("written by build.py --dist; safe to delete\n")
    log(f"dist written to {dest}")
