"""smart's cut rule swapped for a measurement (the retrieval bench's leave-one-out, the
fill trade-off): a ChunkJob reads its Strategy from SPECS when it starts."""
from __future__ import annotations

import contextlib
import dataclasses

from chunkwise.packing.strategies import SPECS, Balance


@contextlib.contextmanager
def smart_rule(balance: Balance):
    """smart placing its cuts by another Balance while in the block."""
    spec = SPECS["smart"]
    SPECS["smart"] = dataclasses.replace(spec, balance=balance)
    try:
        yield
    finally:
        SPECS["smart"] = spec
