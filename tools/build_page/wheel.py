"""The chunkwise wheel the page installs: built from a copy of py/ (cached by a hash of
its sources), its settings catalogue read from the wheel itself, and Pyodide's bytecode
added to the wheels (tools/wheel_bytecode.py)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .common import CACHE, PY_DIR, ROOT, content_hash, log

# py/ content that never belongs in the wheel's cache key or its build copy.
PY_IGNORE = shutil.ignore_patterns(
    "__pycache__", "*.pyc", "*.egg-info", "build", "dist", ".pytest_cache", ".hypothesis"
)


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
