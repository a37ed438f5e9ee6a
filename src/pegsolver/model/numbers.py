"""Whole numbers as users give them: Python or numpy integers, never bools."""
from __future__ import annotations

import operator
from typing import SupportsIndex, cast


def as_whole(x: object) -> int | None:
    """``x`` as a Python int (numpy integers too, via ``operator.index``); None for anything
    else: bools (an int subclass, but never meant as a number here), floats, strings."""
    if isinstance(x, bool):
        return None
    try:
        return operator.index(cast(SupportsIndex, x))  # a TypeError for anything else
    except TypeError:
        return None
