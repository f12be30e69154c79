"""Where the tests find Hugging Face tokenizer.json files: taken once from their
registry packages by build.py (pinned by sha256 in py/chunkwise/presets.py)."""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"


def tokenizer_path(file_id: str) -> pathlib.Path:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import build

    return build.tokenizer_file(file_id)
