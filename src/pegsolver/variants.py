"""Named board variants, each with its standard start and goal.

``find_variant(name)`` looks a name up (case-insensitive, aliases allowed);
``Variant.board()`` builds the start position.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .board import Board
from .errors import BoardTooLargeError, UnknownVariantError
from .geometry import MAX_SHAPE_HOLES, SQUARE, TRIANGLE, Shape
from .goal import Goal
from .notation import parse_hole
from .textboard import parse_board_text

_ENGLISH = """\
    o o o
    o o o
o o o o o o o
o o o . o o o
o o o o o o o
    o o o
    o o o"""

_FRENCH = """\
    o o o
  o o o o o
. o o o o o o
o o o o o o o
o o o o o o o
  o o o o o
    o o o"""


@dataclass(frozen=True)
class Variant:
    """A named board with its standard start and goal.

    :param text: the start position drawn as text (see :mod:`pegsolver.textboard`).
    :param finish: hole name of the standard single-peg finish, or None for anywhere.
    """

    name: str
    grid: str
    text: str
    finish: str | None
    description: str
    aliases: tuple[str, ...] = field(default=())

    def board(self) -> Board:
        shape, pegs = _parse_cached(self.text, self.grid, self.name)
        return Board(shape, pegs, variant=self)

    def goal(self, shape: Shape) -> Goal:
        return Goal.at(parse_hole(shape, self.finish)) if self.finish else Goal.anywhere()


@lru_cache(maxsize=64)
def _parse_cached(text: str, grid: str, name: str):
    # Shapes are immutable, so variant boards share one (saves the symmetry search).
    return parse_board_text(text, grid=grid, name=name)


VARIANTS: tuple[Variant, ...] = (
    Variant("english", SQUARE, _ENGLISH, "d4",
            "English 33-hole cross; start with the centre d4 vacant, finish with one peg at d4",
            aliases=("english33", "british", "33")),
    Variant("french", SQUARE, _FRENCH, None,
            "French (European) 37-hole board; start with a3 vacant, finish with one peg anywhere "
            "(the centre start has no single-peg finish)",
            aliases=("european", "french37", "37")),
)

_TRIANGLE_NAME = re.compile(r"(?:triangle|tri)[-_:]?(\d*)")


def triangle(side: int) -> Variant:
    """Triangle of side ``side`` (``side*(side+1)/2`` holes), apex vacant, one peg anywhere.

    :raises BoardTooLargeError: more holes than any board pegsolver supports.
    :raises UnknownVariantError: side below 1.
    """
    if side < 1:
        raise UnknownVariantError(f"unsupported variant: triangle of side {side} (the side must be at least 1)")
    holes = side * (side + 1) // 2
    if holes > MAX_SHAPE_HOLES:
        raise BoardTooLargeError(
            f"triangle of side {side} has {holes} holes; the largest board supported has {MAX_SHAPE_HOLES}")
    rows = [" " * (side - 1 - r) + " ".join("o" * (r + 1)) for r in range(side)]
    rows[0] = rows[0].replace("o", ".")
    return Variant(f"triangle{side}", TRIANGLE, "\n".join(rows), None,
                   f"triangle of side {side} ({holes} holes, 6 jump directions); start with the apex (hole 1) "
                   "vacant, finish with one peg anywhere",
                   aliases=(f"triangle-{side}",))


def find_variant(name: str) -> Variant:
    """Variant by name or alias; ``triangleN`` (also ``triangle-N``, ``triN``) for any side.

    :raises UnknownVariantError: no variant has this name.
    """
    key = name.strip().lower()
    for v in VARIANTS:
        if key == v.name or key in v.aliases:
            return v
    m = _TRIANGLE_NAME.fullmatch(key)
    if m:
        return triangle(int(m.group(1)) if m.group(1) else 5)
    known = ", ".join([v.name for v in VARIANTS] + ["triangleN"])
    raise UnknownVariantError(f"unsupported variant: {name!r} (known: {known})")
