"""Where the tests find Hugging Face tokenizer.json files: taken once from their
registry packages by build.py (pinned by sha256 in py/chunkwise/presets.py); and
tokenizers trained here for the components those files do not use."""
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


def trained(texts, model, trainer, normalizer=None, pre_tokenizer=None):
    """A `tokenizers` Tokenizer of model with these components, trained on texts."""
    from tokenizers import Tokenizer

    tok = Tokenizer(model)
    if normalizer is not None:
        tok.normalizer = normalizer
    if pre_tokenizer is not None:
        tok.pre_tokenizer = pre_tokenizer
    tok.train_from_iterator(texts, trainer)
    return tok
