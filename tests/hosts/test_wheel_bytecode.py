"""tools/wheel_bytecode.py: the page's wheels carry bytecode (build.py runs it inside
Pyodide; here it runs on CPython, whose bytecode it then holds). Every member stays
as it was, every module gets a checked-hash .pyc that Python imports instead of
compiling the source, unless the source changed, and RECORD lists the new files."""
from __future__ import annotations

import importlib.util
import runpy
import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import ROOT
add_bytecode = runpy.run_path(str(ROOT / "tools" / "wheel_bytecode.py"))["add_bytecode"]

MEMBERS = {
    "demo/__init__.py": "from .core import answer\n",
    "demo/core.py": "def answer():\n    return 'from the source'\n",
    "demo/data/table.txt": "not Python\n",
    "demo-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n",
    "demo-1.0.dist-info/RECORD": "demo/__init__.py,,\ndemo/core.py,,\ndemo-1.0.dist-info/RECORD,,",
}


def _wheel(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in MEMBERS.items():
            z.writestr(name, text)
    return path


def test_every_module_gets_its_bytecode_and_nothing_else_changes(tmp_path):
    out = tmp_path / "out.whl"
    add_bytecode(str(_wheel(tmp_path / "demo-1.0-py3-none-any.whl")), str(out))
    with zipfile.ZipFile(out) as z:
        names = z.namelist()
        for name, text in MEMBERS.items():
            if not name.endswith("RECORD"):
                assert z.read(name).decode() == text, name
        pycs = {importlib.util.cache_from_source(n) for n in MEMBERS if n.endswith(".py")}
        assert pycs <= set(names)
        assert set(names) == set(MEMBERS) | pycs
        record = z.read("demo-1.0.dist-info/RECORD").decode().splitlines()
        assert record[:3] == MEMBERS["demo-1.0.dist-info/RECORD"].splitlines()
        assert sorted(record[3:]) == sorted(f"{p},," for p in pycs)
        for pyc in pycs:
            data = z.read(pyc)
            assert data[:4] == importlib.util.MAGIC_NUMBER
            assert int.from_bytes(data[4:8], "little") == 0b11  # hash-based, checked against the source


def _unpacked(tmp_path) -> Path:
    out = tmp_path / "out.whl"
    add_bytecode(str(_wheel(tmp_path / "demo-1.0-py3-none-any.whl")), str(out))
    site = tmp_path / "site"
    zipfile.ZipFile(out).extractall(site)
    return site


def _run(site: Path, code: str) -> str:
    # -B: Python writes no bytecode of its own; what it finds is the wheel's.
    return subprocess.run([sys.executable, "-B", "-c", code], cwd=site, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_python_imports_the_bytecode_instead_of_compiling(tmp_path):
    site = _unpacked(tmp_path)
    pyc = site / importlib.util.cache_from_source("demo/core.py")
    # Bytecode that answers differently, under the source's own hash: Python runs it,
    # so it did not compile the source.
    code = compile("def answer():\n    return 'from the bytecode'\n", "demo/core.py", "exec")
    source = (site / "demo" / "core.py").read_bytes()
    pyc.write_bytes(bytes(importlib._bootstrap_external._code_to_hash_pyc(code, importlib.util.source_hash(source), True)))
    assert _run(site, "import demo; print(demo.answer())") == "from the bytecode"


def test_an_edited_source_is_compiled_afresh(tmp_path):
    site = _unpacked(tmp_path)
    (site / "demo" / "core.py").write_text("def answer():\n    return 'from an edited source'\n")
    assert _run(site, "import demo; print(demo.answer())") == "from an edited source"
