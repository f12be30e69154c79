"""The shapes of a tokenizer.json's fields, from which components.py's check() is made.

The builders (components.py) index the parsed JSON directly, so a file of the wrong
shape made them fail with a KeyError or a TypeError. A shape is a function (value,
where) that raises Unsupported (a ValueError) naming the first field that is wrong:
"tokenizer.json: model.vocab is missing". Only shapes are checked: a type of
component the builders do not know, or a value they cannot count with, is theirs
to report. Each component's shape is in components.py's table; the post-processors'
and the added tokens' are here (nothing is built from them but a count).
"""
from __future__ import annotations

from itertools import chain, repeat
from operator import contains, itemgetter

from .normalizers import Unsupported

_NAMES = {dict: "an object", list: "a list", str: "a string", bool: "true or false", int: "a whole number",
          float: "a number", type(None): "null"}


def _fail(where: str, wanted: str, value) -> Unsupported:
    return Unsupported(f"tokenizer.json: {where} must be {wanted}, not {_NAMES[type(value)]}")


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


# A shape is a function (value, where) that raises Unsupported when value is not of that shape.
def of(*types):
    """One of these JSON types (exactly: true is not a number here, as in the `tokenizers` library)."""
    wanted = " or ".join(_NAMES[t] for t in types)

    def check(value, where):
        if type(value) not in types:
            raise _fail(where, wanted, value)

    return check


OBJECT, LIST, STR, BOOL, INT = of(dict), of(list), of(str), of(bool), of(int)
MAYBE_STR, MAYBE_BOOL, MAYBE_INT, MAYBE_NUMBER = (
    of(str, type(None)), of(bool, type(None)), of(int, type(None)), of(int, float, type(None)))


def list_of(item):
    def check(value, where):
        LIST(value, where)
        for i, x in enumerate(value):
            item(x, f"{where}[{i}]")

    return check


def items(ok, wanted: str, container=list, all_ok=None):
    """A list (or an object) whose every item (value) passes ok(item). For the big
    ones (a vocabulary, merges: 500K items), all_ok(items) first says in whole-list
    passes whether every item is fine; the item-by-item search runs only when it
    is not, to name the first item that is wrong."""
    check_container = of(container)

    def check(value, where):
        check_container(value, where)
        if all_ok is not None and all_ok(value.values() if container is dict else value):
            return
        for key, x in value.items() if container is dict else enumerate(value):
            if not ok(x):
                raise _fail(f"{where}[{key!r}]", wanted, x)

    return check


def fields(shapes: dict, required: tuple = ()):
    """An object whose fields, where present, have these shapes."""

    def check(value, where):
        OBJECT(value, where)
        for key in required:
            if key not in value:
                raise Unsupported(f"tokenizer.json: {_at(where, key)} is missing")
        for key, shape in shapes.items():
            if key in value:
                shape(value[key], _at(where, key))

    return check


def typed(kinds: dict, kind_of=lambda value: value.get("type")):
    """An object whose fields depend on its type (its "type" field)."""

    def check(value, where):
        OBJECT(value, where)
        kind = kind_of(value)
        if isinstance(kind, str) and kind in kinds:  # other types: the builder says they are not supported
            kinds[kind](value, where)

    return check


def optional(shape):
    def check(value, where):
        if value is not None:
            shape(value, where)

    return check


def pattern(value, where):
    # The builders read "String" when it is there, else "Regex".
    OBJECT(value, where)
    key = "String" if "String" in value else "Regex"
    if key not in value:
        raise Unsupported(f"tokenizer.json: {where} has neither String nor Regex")
    STR(value[key], _at(where, key))


def _is_merge(x) -> bool:
    return type(x) is str and " " in x or type(x) is list and len(x) == 2 and type(x[0]) is str and type(x[1]) is str


def _is_scored_piece(x) -> bool:
    return type(x) is list and len(x) == 2 and type(x[0]) is str and type(x[1]) in (int, float)


def _all_ids(values) -> bool:
    return set(map(type, values)) <= {int}


def _all_merges(merges) -> bool:
    kinds = set(map(type, merges))
    if kinds == {str}:
        return all(map(contains, merges, repeat(" ")))
    if kinds == {list}:
        return set(map(len, merges)) == {2} and set(map(type, chain.from_iterable(merges))) == {str}
    return not kinds


def _all_scored_pieces(pieces) -> bool:
    if not set(map(type, pieces)) <= {list} or not set(map(len, pieces)) <= {2}:
        return False
    return set(map(type, map(itemgetter(0), pieces))) <= {str} and set(map(type, map(itemgetter(1), pieces))) <= {int, float}


VOCAB = items(lambda x: type(x) is int, "a token id (a whole number)", dict, _all_ids)
MERGES = items(_is_merge, 'two tokens ("a b" or ["a", "b"])', list, _all_merges)
SCORED_VOCAB = items(_is_scored_piece, 'a piece and its score (["a", -1.5])', list, _all_scored_pieces)


# A Sequence holds post-processors: the shape refers to itself through this.
def _post_processor(value, where):
    POST_PROCESSOR(value, where)


POST_PROCESSOR = typed({
    "TemplateProcessing": fields({
        "single": list_of(fields({"SpecialToken": fields({"id": STR}, required=("id",))})),
        "special_tokens": items(lambda x: type(x) is dict and type(x.get("ids", [])) is list,
                                'an object with a list of "ids"', dict),
    }),
    "Sequence": fields({"processors": list_of(_post_processor)}),
})

ADDED_TOKENS = list_of(fields({"content": STR, "id": INT, "normalized": BOOL, "special": BOOL,
                               "single_word": BOOL, "lstrip": BOOL, "rstrip": BOOL}, required=("content", "id")))
