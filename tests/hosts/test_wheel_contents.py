"""The wheel the page installs holds every module of the package. The editable
install (and so every other test) reads py/ directly: a sub-package left out of
the wheel would pass them all and fail only in the page and in `pip install`."""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import ROOT
PACKAGE = ROOT / "py" / "chunkwise"


def test_the_built_wheel_holds_every_module_of_the_package(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(tmp_path), str(ROOT / "py")], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("chunkwise-*.whl")
    with zipfile.ZipFile(wheel) as z:
        in_wheel = {n for n in z.namelist() if n.endswith(".py")}
    in_tree = {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.rglob("*.py")}
    assert in_tree - in_wheel == set()
    assert {n.split("/")[1] for n in in_wheel if n.count("/") > 1} == {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
