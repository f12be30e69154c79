"""The shape of a tokenizer.json, checked once where the JSON is parsed.

The builders (models.py, normalizers.py, pretokenizers.py) index the parsed JSON
directly, so a file of the wrong shape made them fail with a KeyError or a
TypeError. check() walks every field they read and raises Unsupported (a
ValueError) naming the first one that is wrong: "tokenizer.json: model.vocab is
missing". Only shapes are checked here: a type of component the builders do not
know, or a value they cannot count with, is theirs to report.
"""
from __future__ import annotations

from .models import model_type
from .normalizers import Unsupported

_NAMES = {dict: "an object", list: "a list", str: "a string", bool: "true or false", int: "a whole number",
          float: "a number", type(None): "null"}


def _fail(where: str, wanted: str, value) -> Unsupported:
    return Unsupported(f"tokenizer.json: {where} must be {wanted}, not {_NAMES[type(value)]}")


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


# A shape is a function (value, where) that raises Unsupported when value is not of that shape.
def _of(*types):
    """One of these JSON types (exactly: true is not a number here, as in the `tokenizers` library)."""
    wanted = " or ".join(_NAMES[t] for t in types)

    def check(value, where):
        if type(value) not in types:
            raise _fail(where, wanted, value)

    return check


_OBJECT, _LIST, _STR, _BOOL, _INT = _of(dict), _of(list), _of(str), _of(bool), _of(int)
_MAYBE_STR, _MAYBE_BOOL, _MAYBE_INT, _MAYBE_NUMBER = (
    _of(str, type(None)), _of(bool, type(None)), _of(int, type(None)), _of(int, float, type(None)))


def _list_of(item):
    def check(value, where):
        _LIST(value, where)
        for i, x in enumerate(value):
            item(x, f"{where}[{i}]")

    return check


def _items(ok, wanted: str, container=list):
    """A list (or an object) whose every item (value) passes ok(item). For the big
    ones (a vocabulary, merges: 250K items): a predicate per item, and the failing
    item's path is only built when there is one."""
    check_container = _of(container)

    def check(value, where):
        check_container(value, where)
        for key, x in value.items() if container is dict else enumerate(value):
            if not ok(x):
                raise _fail(f"{where}[{key!r}]", wanted, x)

    return check


def _fields(shapes: dict, required: tuple = ()):
    """An object whose fields, where present, have these shapes."""

    def check(value, where):
        _OBJECT(value, where)
        for key in required:
            if key not in value:
                raise Unsupported(f"tokenizer.json: {_at(where, key)} is missing")
        for key, shape in shapes.items():
            if key in value:
                shape(value[key], _at(where, key))

    return check


def _typed(kinds: dict, kind_of=lambda value: value.get("type")):
    """An object whose fields depend on its type (its "type" field)."""

    def check(value, where):
        _OBJECT(value, where)
        kind = kind_of(value)
        if isinstance(kind, str) and kind in kinds:  # other types: the builder says they are not supported
            kinds[kind](value, where)

    return check


def _optional(shape):
    def check(value, where):
        if value is not None:
            shape(value, where)

    return check


def _pattern(value, where):
    # The builders read "String" when it is there, else "Regex".
    _OBJECT(value, where)
    key = "String" if "String" in value else "Regex"
    if key not in value:
        raise Unsupported(f"tokenizer.json: {where} has neither String nor Regex")
    _STR(value[key], _at(where, key))


def _is_merge(x) -> bool:
    return type(x) is str and " " in x or type(x) is list and len(x) == 2 and type(x[0]) is str and type(x[1]) is str


def _is_scored_piece(x) -> bool:
    return type(x) is list and len(x) == 2 and type(x[0]) is str and type(x[1]) in (int, float)


_VOCAB = _items(lambda x: type(x) is int, "a token id (a whole number)", dict)
_MERGES = _items(_is_merge, 'two tokens ("a b" or ["a", "b"])')
_SCORED_VOCAB = _items(_is_scored_piece, 'a piece and its score (["a", -1.5])')

_MODEL = _typed({
    "WordPiece": _fields({"vocab": _VOCAB, "unk_token": _STR, "continuing_subword_prefix": _STR,
                          "max_input_chars_per_word": _INT}, required=("vocab",)),
    "BPE": _fields({"vocab": _VOCAB, "merges": _MERGES, "unk_token": _MAYBE_STR, "continuing_subword_prefix": _MAYBE_STR,
                    "end_of_word_suffix": _MAYBE_STR, "fuse_unk": _BOOL, "byte_fallback": _BOOL, "ignore_merges": _BOOL,
                    "dropout": _MAYBE_NUMBER}, required=("vocab",)),
    "Unigram": _fields({"vocab": _SCORED_VOCAB, "unk_id": _MAYBE_INT, "byte_fallback": _BOOL}, required=("vocab",)),
    "WordLevel": _fields({"vocab": _VOCAB, "unk_token": _MAYBE_STR}, required=("vocab",)),
}, kind_of=model_type)


# Sequences hold components of their own kind: the shapes refer to themselves through these.
def _normalizer(value, where):
    _NORMALIZER(value, where)


def _pre_tokenizer(value, where):
    _PRE_TOKENIZER(value, where)


def _post_processor(value, where):
    _POST_PROCESSOR(value, where)


_NORMALIZER = _typed({
    "Sequence": _fields({"normalizers": _list_of(_normalizer)}),
    "BertNormalizer": _fields({"clean_text": _BOOL, "handle_chinese_chars": _BOOL, "strip_accents": _MAYBE_BOOL,
                               "lowercase": _BOOL}),
    "Strip": _fields({"strip_left": _BOOL, "strip_right": _BOOL}),
    "Prepend": _fields({"prepend": _STR}, required=("prepend",)),
    "Replace": _fields({"pattern": _pattern, "content": _STR}, required=("pattern", "content")),
    "Precompiled": _fields({"precompiled_charsmap": _MAYBE_STR}),  # its bytes: normalizers.Precompiled
})

_PRE_TOKENIZER = _typed({
    "Sequence": _fields({"pretokenizers": _list_of(_pre_tokenizer)}),
    "Metaspace": _fields({"replacement": _STR, "prepend_scheme": _STR, "split": _BOOL, "add_prefix_space": _BOOL}),
    "ByteLevel": _fields({"add_prefix_space": _BOOL, "use_regex": _BOOL}),
    "Split": _fields({"pattern": _pattern, "behavior": _STR, "invert": _BOOL}, required=("pattern",)),
    "Digits": _fields({"individual_digits": _BOOL}),
    "Punctuation": _fields({"behavior": _STR}),
    "CharDelimiterSplit": _fields({"delimiter": _STR}, required=("delimiter",)),
})

_POST_PROCESSOR = _typed({
    "TemplateProcessing": _fields({
        "single": _list_of(_fields({"SpecialToken": _fields({"id": _STR}, required=("id",))})),
        "special_tokens": _items(lambda x: type(x) is dict and type(x.get("ids", [])) is list,
                                 'an object with a list of "ids"', dict),
    }),
    "Sequence": _fields({"processors": _list_of(_post_processor)}),
})

_FILE = _fields({
    "model": _MODEL,
    "normalizer": _optional(_normalizer),
    "pre_tokenizer": _optional(_pre_tokenizer),
    "post_processor": _optional(_post_processor),
    "added_tokens": _list_of(_fields({"content": _STR, "id": _INT, "normalized": _BOOL, "special": _BOOL,
                                      "single_word": _BOOL, "lstrip": _BOOL, "rstrip": _BOOL},
                                     required=("content", "id"))),
})


def check(data) -> None:
    """Raise Unsupported naming the first field of a parsed tokenizer.json that is
    not of the shape chunkwise reads there."""
    _FILE(data, "")
