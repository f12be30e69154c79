"""One source of truth for what the engine offers: strategies with their help
text, encodings, boundary kinds with their explanations, defaults and limits.
The CLI's --help, the page (through the worker: bridge.describe) and the README
all read describe()."""
from __future__ import annotations

from ._version import __version__
from .packing.settings import MIN_BPE_BUDGET, OVERLAP_SHARE, OVERLAP_STRETCH, OVERLAP_TOLERANCE
from .code.languages import LANGUAGES
from .types import (
    BOUNDARIES, CONTEXT_MODES, DEFAULT_CONTEXT, DEFAULT_ENCODING, DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_UNIT, DEFAULT_STRATEGY,
    ENCODINGS, OVERLAP_UNITS,
)
from .io.decode import TEXT_ENCODINGS
from .io.export import FORMATS, TEXT_HEADERS
from .presets import PRESETS
from .packing.strategies import SPECS, STRATEGIES

# Encoding labels as the page shows them, and one line of help each.
ENCODING_HELP = {
    "cl100k_base": ("cl100k_base (GPT-4, GPT-3.5)", "OpenAI's tokenizer of GPT-4, GPT-3.5 and text-embedding-3."),
    "o200k_base": ("o200k_base (GPT-4o and later)", "OpenAI's tokenizer of GPT-4o and later models."),
    "chars": ("Characters", "Counts characters (code points) instead of tokens."),
}
# Why a chunk ends where it does (strongest first), as a reader would say it.
BOUNDARY_HELP = {
    "end": "end of document",
    "heading": "before a heading",
    "definition": "between definitions",
    "nested": "between nested definitions",
    "paragraph": "paragraph break",
    "row": "between table rows",
    "statement": "line end outside strings and comments",
    "line": "line break",
    "sentence": "sentence end",
    "phrase": "phrase break",
    "word": "between words",
    "token": "between tokens",
}
# What is embedded with each chunk (context): label and help.
CONTEXT_HELP = {
    "none": ("None", "Records as they are: embed the chunk's text."),
    "headings": (
        "Heading path and table header",
        "Each record also has embed_text: the chunk's heading path (in code, its definition path) and, inside a"
        " table, the table's header rows, then its text; embed_tokens counts it, within max_tokens (the text gets"
        " what the context leaves; the context takes at most half).",
    ),
}
# Where an overlap starts (overlap_unit): label and help.
_LOW, _HIGH = OVERLAP_TOLERANCE
OVERLAP_UNIT_HELP = {
    "unit": (
        "Sentence or line start",
        "The overlap starts where a unit starts: a sentence or line (Smart, Markdown, Sentences), a line"
        " (Lines), a paragraph (Paragraphs), a definition or line (Code). Of the unit starts that give"
        f" {_LOW:g}x to {_HIGH:g}x of the overlap asked for, the nearest to it; else a shorter whole unit;"
        " else a longer one, up to half the chunk size. Smart, Topic shifts, Markdown, Paragraphs and Sentences"
        " never start an overlap mid-sentence: with no unit start in reach, none; Lines and Code then start at"
        f" a word (their longer units: up to {OVERLAP_STRETCH}x).",
    ),
    "word": ("Word start", "The overlap starts at a word: as many whole words as fit the overlap."),
}
DEFAULTS = {"max_tokens": DEFAULT_MAX_TOKENS, "strategy": DEFAULT_STRATEGY, "encoding": DEFAULT_ENCODING, "format": "jsonl",
            "overlap_unit": DEFAULT_OVERLAP_UNIT, "context": DEFAULT_CONTEXT, "text_headers": TEXT_HEADERS}
MAX_TOKENS_LIMIT = 1_000_000  # the page's input limit; the library takes any size
# (the page adds the value for the size shown; the CLI's --help, for the default size)
OVERLAP_RULE = "an eighth of the chunk size, rounded down"


def describe() -> dict:
    """Everything a front end needs to offer the engine's settings, as plain data (JSON-ready)."""
    assert tuple(BOUNDARY_HELP) == BOUNDARIES and tuple(OVERLAP_UNIT_HELP) == OVERLAP_UNITS
    assert tuple(CONTEXT_HELP) == CONTEXT_MODES
    return {
        "version": __version__,
        "strategies": [
            {"name": s.name, "label": s.label, "help": s.help} for s in SPECS.values()
        ],
        "encodings": [
            {"name": name, "label": ENCODING_HELP[name][0], "help": ENCODING_HELP[name][1]} for name in ENCODINGS
        ],
        "overlap_units": [
            {"name": name, "label": OVERLAP_UNIT_HELP[name][0], "help": OVERLAP_UNIT_HELP[name][1]}
            for name in OVERLAP_UNITS
        ],
        # Embedding models: choosing one sets the encoding and, unless the user set
        # one, max_tokens to what the model embeds whole (its limit less its special tokens).
        "models": [
            {"name": p.name, "label": p.label, "encoding": p.tokenizer, "max_input_tokens": p.max_input_tokens,
             "special_tokens": p.special_tokens, "chunk_tokens": p.chunk_tokens, "licence": p.licence}
            for p in PRESETS.values()
        ],
        "contexts": [{"name": name, "label": CONTEXT_HELP[name][0], "help": CONTEXT_HELP[name][1]} for name in CONTEXT_MODES],
        "boundaries": [{"name": name, "help": BOUNDARY_HELP[name]} for name in BOUNDARIES],
        # what a text may be read as: "auto" (file name, else strong signals), "text" (prose), or a language
        "languages": [{"name": name, "label": lang.label} for name, lang in LANGUAGES.items()],
        "formats": list(FORMATS),
        # the codecs a text file may be read with (the CLI's --input-encoding), as the page offers them
        "input_encodings": [{"name": name, "label": label} for name, label in TEXT_ENCODINGS],
        "defaults": {**DEFAULTS, "overlap_share": OVERLAP_SHARE, "overlap_ratio": list(OVERLAP_SHARE.as_integer_ratio()),
                     "overlap_rule": OVERLAP_RULE},
        "limits": {
            "max_tokens_min": 1,
            "max_tokens_max": MAX_TOKENS_LIMIT,
            "min_bpe_budget": MIN_BPE_BUDGET,
            "overlap_max_share": 0.5,
        },
        "record_fields": ["index", "text", "start", "end", "token_count", "overlap_tokens", "boundary", "headings"],
        # in a record only with a PDF (pages), a context (embed_*) or parents (id, parent_id; kind on a parent)
        "optional_fields": ["pages", "embed_text", "embed_tokens", "id", "parent_id", "kind"],
    }
