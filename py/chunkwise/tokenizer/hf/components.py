"""The Hugging Face components chunkwise implements, in one table per section of a
tokenizer.json (normalizer, pre_tokenizer, model): for each kind, how it is built
and the shape of the fields its builder reads. SUPPORTED, the shape check of a
whole file (check) and the builders (build_normalizer, build_pre_tokenizer,
build_model) all come from these tables; a kind that is not in them is refused
with Unsupported, never counted wrong.

Whether a pipeline may be cut before a space is separable.py's verdict, step by
step: a kind it does not judge is taken as not exact (slower, never wrong).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from . import schema
from .models import BPE, Unigram, WordLevel, WordPiece, model_type
from .normalizers import (Precompiled, Unsupported, bert_normalizer, lowercase, prepend_normalizer,
                          replace_normalizer, strip_accents_normalizer, strip_normalizer, unicode_form)
from .pretokenizers import (bert_pre_tokenizer, byte_level_pre_tokenizer, char_delimiter_pre_tokenizer,
                            digits_pre_tokenizer, metaspace_pre_tokenizer, metaspace_scheme,
                            punctuation_pre_tokenizer, split_pre_tokenizer, whitespace_pre_tokenizer,
                            whitespace_split_pre_tokenizer)


class Component(NamedTuple):
    build: Callable  # the spec (a parsed JSON object) -> the step; None for a step that does nothing
    shape: Callable | None = None  # schema.fields() of what build reads; None: it reads no field
    label: str | None = None  # how SUPPORTED names it, when its kind alone says too little


def _sequence(build, key: str):
    """A Sequence's builder: its steps (built by `build`) one after the other. A Sequence
    of no step is no step (None), as DeepSeek V3's empty normalizer: the added tokens
    marked normalized are then matched in the raw text, and the text may be cut."""

    def build_sequence(spec):
        steps = [f for f in (build(s) for s in spec.get(key, [])) if f is not None]
        if not steps:
            return None
        if len(steps) == 1:
            return steps[0]

        def sequence(value):
            for step in steps:
                value = step(value)
            return value

        return sequence

    return build_sequence


def _built(table: dict, kind, spec, what: str):
    component = table.get(kind) if isinstance(kind, str) else None
    if component is None:
        raise Unsupported(f"{what} {kind!r} is not supported")
    return component.build(spec)


def build_normalizer(spec):
    """A str -> str function for a tokenizer.json "normalizer" entry (None: identity)."""
    return None if spec is None else _built(NORMALIZERS, spec.get("type"), spec, "normalizer")


def build_pre_tokenizer(spec):
    """A Splits -> Splits function for a tokenizer.json "pre_tokenizer" entry (None: identity)."""
    return None if spec is None else _built(PRE_TOKENIZERS, spec.get("type"), spec, "pre-tokenizer")


def build_model(spec: dict):
    return _built(MODELS, model_type(spec), spec, "model")


# A Sequence holds components of its own kind: its shape refers to the section's through these.
def _normalizer(value, where):
    NORMALIZER(value, where)


def _pre_tokenizer(value, where):
    PRE_TOKENIZER(value, where)


def _precompiled(spec):
    charsmap = spec.get("precompiled_charsmap")
    return Precompiled(charsmap) if charsmap else None


def _metaspace(spec):
    if spec.get("prepend_scheme", "always") not in ("always", "first", "never"):
        raise Unsupported(f"Metaspace prepend_scheme {spec['prepend_scheme']!r} is not supported")
    return metaspace_pre_tokenizer(spec.get("replacement", "\u2581"), metaspace_scheme(spec), spec.get("split", True))


NORMALIZERS = {
    "BertNormalizer": Component(
        lambda s: bert_normalizer(s.get("clean_text", True), s.get("handle_chinese_chars", True),
                                  s.get("strip_accents"), s.get("lowercase", True)),
        schema.fields({"clean_text": schema.BOOL, "handle_chinese_chars": schema.BOOL,
                       "strip_accents": schema.MAYBE_BOOL, "lowercase": schema.BOOL})),
    **{form: Component(lambda s: unicode_form(s["type"])) for form in ("NFC", "NFD", "NFKC", "NFKD")},
    "Lowercase": Component(lambda s: lowercase),
    "StripAccents": Component(lambda s: strip_accents_normalizer()),
    "Strip": Component(lambda s: strip_normalizer(s.get("strip_left", True), s.get("strip_right", True)),
                       schema.fields({"strip_left": schema.BOOL, "strip_right": schema.BOOL})),
    "Replace": Component(lambda s: replace_normalizer(s["pattern"], s["content"]),
                         schema.fields({"pattern": schema.pattern, "content": schema.STR}, required=("pattern", "content"))),
    "Prepend": Component(lambda s: prepend_normalizer(s["prepend"]),
                         schema.fields({"prepend": schema.STR}, required=("prepend",))),
    "Precompiled": Component(_precompiled,  # its bytes: normalizers.Precompiled
                             schema.fields({"precompiled_charsmap": schema.MAYBE_STR})),
    "Sequence": Component(_sequence(build_normalizer, "normalizers"),
                          schema.fields({"normalizers": schema.list_of(_normalizer)})),
}

PRE_TOKENIZERS = {
    "BertPreTokenizer": Component(lambda s: bert_pre_tokenizer()),
    "ByteLevel": Component(lambda s: byte_level_pre_tokenizer(s.get("add_prefix_space", True), s.get("use_regex", True)),
                           schema.fields({"add_prefix_space": schema.BOOL, "use_regex": schema.BOOL})),
    "Metaspace": Component(_metaspace, schema.fields({"replacement": schema.STR, "prepend_scheme": schema.STR,
                                                      "split": schema.BOOL, "add_prefix_space": schema.BOOL})),
    "Split": Component(lambda s: split_pre_tokenizer(s["pattern"], s.get("behavior", "Isolated"), s.get("invert", False)),
                       schema.fields({"pattern": schema.pattern, "behavior": schema.STR, "invert": schema.BOOL},
                                     required=("pattern",))),
    "Whitespace": Component(lambda s: whitespace_pre_tokenizer()),
    "WhitespaceSplit": Component(lambda s: whitespace_split_pre_tokenizer()),
    "Digits": Component(lambda s: digits_pre_tokenizer(s.get("individual_digits", False)),
                        schema.fields({"individual_digits": schema.BOOL})),
    "Punctuation": Component(lambda s: punctuation_pre_tokenizer(s.get("behavior", "Isolated")),
                             schema.fields({"behavior": schema.STR})),
    "CharDelimiterSplit": Component(lambda s: char_delimiter_pre_tokenizer(s["delimiter"]),
                                    schema.fields({"delimiter": schema.STR}, required=("delimiter",))),
    "Sequence": Component(_sequence(build_pre_tokenizer, "pretokenizers"),
                          schema.fields({"pretokenizers": schema.list_of(_pre_tokenizer)})),
}

MODELS = {
    "WordPiece": Component(WordPiece, schema.fields({
        "vocab": schema.VOCAB, "unk_token": schema.STR, "continuing_subword_prefix": schema.STR,
        "max_input_chars_per_word": schema.INT}, required=("vocab",))),
    "BPE": Component(BPE, schema.fields({
        "vocab": schema.VOCAB, "merges": schema.MERGES, "unk_token": schema.MAYBE_STR,
        "continuing_subword_prefix": schema.MAYBE_STR, "end_of_word_suffix": schema.MAYBE_STR, "fuse_unk": schema.BOOL,
        "byte_fallback": schema.BOOL, "ignore_merges": schema.BOOL, "dropout": schema.MAYBE_NUMBER}, required=("vocab",)),
        label="BPE (byte-level; SentencePiece-style with byte_fallback)"),
    "Unigram": Component(Unigram, schema.fields({
        "vocab": schema.SCORED_VOCAB, "unk_id": schema.MAYBE_INT, "byte_fallback": schema.BOOL}, required=("vocab",))),
    "WordLevel": Component(WordLevel, schema.fields({
        "vocab": schema.VOCAB, "unk_token": schema.MAYBE_STR}, required=("vocab",))),
}


def _shapes(table: dict) -> dict:
    return {kind: c.shape for kind, c in table.items() if c.shape is not None}


NORMALIZER = schema.typed(_shapes(NORMALIZERS))
PRE_TOKENIZER = schema.typed(_shapes(PRE_TOKENIZERS))
MODEL = schema.typed(_shapes(MODELS), kind_of=model_type)

SUPPORTED = {
    "models": [c.label or kind for kind, c in MODELS.items()],
    "normalizers": [c.label or kind for kind, c in NORMALIZERS.items()],
    "pre_tokenizers": [c.label or kind for kind, c in PRE_TOKENIZERS.items()],
}

_FILE = schema.fields({
    "model": MODEL,
    "normalizer": schema.optional(_normalizer),
    "pre_tokenizer": schema.optional(_pre_tokenizer),
    "post_processor": schema.optional(schema.POST_PROCESSOR),
    "added_tokens": schema.ADDED_TOKENS,
})


def check(data) -> None:
    """Raise Unsupported naming the first field of a parsed tokenizer.json that is
    not of the shape chunkwise reads there."""
    _FILE(data, "")
