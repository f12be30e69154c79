"""Which tokenizer an `encoding` name means: cl100k_base and o200k_base (tiktoken/),
chars (chars.py), or a Hugging Face tokenizer.json (hf/: a preset's, or one
registered with register_file); each built once per (encoding, backend).
"""
from __future__ import annotations

import functools
import os

from .base import Tokenizer
from .chars import CharTokenizer

BPE_ENCODINGS = ("cl100k_base", "o200k_base")


@functools.cache  # (asked at every run: its two imports cost more than the rest of a short text's settings)
def _tiktoken_available() -> bool:
    try:
        import tiktoken  # noqa: F401
        from tiktoken_ext import openai_public  # noqa: F401
    except ImportError:
        return False
    return True


def default_backend() -> str:
    """CHUNKWISE_BACKEND=pure|tiktoken overrides; else tiktoken when installed."""
    wanted = os.environ.get("CHUNKWISE_BACKEND", "")
    if wanted in ("pure", "tiktoken"):
        return wanted
    return "tiktoken" if _tiktoken_available() else "pure"


def get_tokenizer(encoding: str, backend: str | None = None) -> Tokenizer:
    """The tokenizer for an encoding; built once per (encoding, backend). Besides
    cl100k_base, o200k_base and chars, an encoding can be a Hugging Face
    tokenizer.json (a preset's, or one registered with hf/files.register_file);
    its fast backend is the `tokenizers` package where tiktoken's would be used."""
    if encoding == "chars":
        return _build("chars", "chars")
    if encoding not in BPE_ENCODINGS:
        from .hf import files

        check_encoding(encoding)
        return files.get(encoding, backend or default_backend())
    return _build(encoding, backend or default_backend())


def encoding_names() -> list[str]:
    from .hf import files

    return [*BPE_ENCODINGS, "chars", *files.names()]


def check_encoding(encoding: str) -> None:
    """Raise ValueError naming the choices when encoding is not known."""
    if encoding in BPE_ENCODINGS or encoding == "chars":
        return
    from .hf import files

    if files.known(encoding):
        return
    raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(encoding_names())}")


@functools.lru_cache(maxsize=None)
def _build(encoding: str, backend: str) -> Tokenizer:
    if encoding == "chars":
        return CharTokenizer()
    from .tiktoken.encoder import bpe_tokenizer

    return bpe_tokenizer(encoding, backend)
