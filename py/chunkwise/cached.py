"""cached_property for the objects made once per document (a Document, a ChunkJob).

functools' version takes a lock on every first access on Python 3.11 (3.12 dropped
it), about 0.35 µs each: a corpus job's short rows are chunked in tens of
microseconds, and each asks a few. This one computes once and stores the value in
the instance's __dict__, where later reads find it without calling the descriptor.
"""
from __future__ import annotations

import sys

if sys.version_info >= (3, 12):
    from functools import cached_property
else:
    class cached_property:  # noqa: N801 (the name functools gives it)
        def __init__(self, compute):
            self.compute = compute
            self.name = compute.__name__
            self.__doc__ = compute.__doc__

        def __set_name__(self, owner, name: str) -> None:
            self.name = name

        def __get__(self, instance, owner=None):
            if instance is None:
                return self
            value = instance.__dict__[self.name] = self.compute(instance)
            return value


__all__ = ["cached_property"]
