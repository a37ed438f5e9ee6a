"""Named board variants, each with its standard start and goal.

``find_variant(name)`` looks a name up (case-insensitive, aliases allowed);
``Variant.board()`` builds the start position. Families take a size in the name:
``triangleN``, ``squareN`` (N x N), ``rectRxC`` (R rows, C columns). Any square-grid
name followed by ``-diagonal`` gives the same board with diagonal jumps as well
(G. I. Bell, "Diagonal peg solitaire", INTEGERS 7, 2007).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..errors import BoardTooLargeError, UnknownVariantError
from ..proofs.classes import class_finishes
from .board import Board
from .geometry import DIAGONAL, GRID_OF_RULES, MAX_SHAPE_HOLES, ORTHOGONAL, TRIANGULAR, Coord, Shape
from .goal import Goal, plural
from .notation import hole_name, parse_hole


@dataclass(frozen=True)
class Variant:
    """A named board with its standard start and goal.

    :param coords: ``(row, col)`` of each hole (skew coordinates on triangles).
    :param vacant: hole names empty at the start.
    :param finish: hole name of the standard single-peg finish, or None for anywhere.
    """

    name: str
    rules: str
    coords: tuple[Coord, ...]
    vacant: tuple[str, ...]
    finish: str | None
    description: str
    aliases: tuple[str, ...] = field(default=())

    @property
    def grid(self) -> str:
        return GRID_OF_RULES[self.rules]

    def shape(self) -> Shape:
        return _shape(self.rules, self.coords, self.name)

    def board(self) -> Board:
        shape = self.shape()
        vacant = sum(1 << parse_hole(shape, h) for h in self.vacant)
        return Board(shape, shape.full_mask & ~vacant, self.goal(shape))

    def goal(self, shape: Shape) -> Goal:
        return Goal.at(parse_hole(shape, self.finish)) if self.finish else Goal.anywhere()

    @property
    def text(self) -> str:
        """The start position drawn as text."""
        return self.board().to_text()


@lru_cache(maxsize=64)
def _shape(rules: str, coords: tuple[Coord, ...], name: str) -> Shape:
    # Shapes are immutable, so boards of one variant share one (saves the symmetry search).
    return Shape(GRID_OF_RULES[rules], coords, name=name, rules=rules)


def _grid(rows: int, cols: int, keep: Callable[[int, int], bool]) -> tuple[Coord, ...]:
    return tuple((r, c) for r in range(rows) for c in range(cols) if keep(r, c))


VARIANTS: tuple[Variant, ...] = (
    Variant("english", ORTHOGONAL, _grid(7, 7, lambda r, c: 2 <= r <= 4 or 2 <= c <= 4), ("d4",), "d4",
            "English 33-hole cross; centre d4 vacant, finish with one peg at d4",
            aliases=("english33", "british", "33")),
    Variant("french", ORTHOGONAL, _grid(7, 7, lambda r, c: abs(r - 3) + abs(c - 3) <= 4), ("a3",), None,
            "French (European) 37-hole board; a3 vacant, one peg anywhere "
            "(the centre start has no one-peg finish)",
            aliases=("european", "french37", "37")),
    Variant("wiegleb", ORTHOGONAL, _grid(9, 9, lambda r, c: 3 <= r <= 5 or 3 <= c <= 5), ("e5",), "e5",
            "Wiegleb's 45-hole cross (9 x 9, arms 3 wide and 3 long); centre e5 vacant, finish at e5",
            aliases=("wiegleb45", "german", "45")),
    # d2 is the vacancy of Durango Bill's sample diamond game (durangobill.com/Peg41.html).
    Variant("diamond", ORTHOGONAL, _grid(9, 9, lambda r, c: abs(r - 4) + abs(c - 4) <= 4), ("d2",), None,
            "diamond 41 (|row-5| + |col-5| <= 4 on 9 x 9); d2 vacant, one peg anywhere "
            "(the centre start has no one-peg finish)",
            aliases=("diamond41", "41")),
    Variant("asymmetric", ORTHOGONAL,
            _grid(8, 8, lambda r, c: 3 <= r <= 5 or 2 <= c <= 4 and r <= 7), ("d5",), None,
            "asymmetric 3-3-2-2 cross, 39 holes (arms 3 long at the top and right, 2 at the "
            "bottom and left); d5 vacant, one peg anywhere",
            aliases=("3-3-2-2", "asymmetric39", "39")),
)

_FAMILY = re.compile(r"(?P<kind>triangle|tri|square|rect|rectangle)[-_:]?(?P<a>\d*)(?:x(?P<b>\d+))?", re.ASCII)


def _check_size(name: str, holes: int) -> None:
    if holes > MAX_SHAPE_HOLES:
        raise BoardTooLargeError(f"{name} has {holes} holes; the largest board supported has {MAX_SHAPE_HOLES}")


def triangle(side: int) -> Variant:
    """Triangle of side ``side`` (``side*(side+1)/2`` holes), apex vacant, one peg anywhere.

    :raises BoardTooLargeError: more holes than any board pegsolver supports.
    :raises UnknownVariantError: side below 1.
    """
    if side < 1:
        raise UnknownVariantError(f"unsupported variant: triangle of side {side} (the side must be at least 1)")
    holes = side * (side + 1) // 2
    _check_size(f"triangle of side {side}", holes)
    return Variant(f"triangle{side}", TRIANGULAR, tuple((r, c) for r in range(side) for c in range(r + 1)),
                   ("1",), None,
                   f"triangle of side {side} ({plural(holes, 'hole')}, 6 jump directions); apex (hole 1) vacant, "
                   "one peg anywhere", aliases=(f"triangle-{side}",))


def rectangle(rows: int, cols: int, name: str | None = None) -> Variant:
    """Rectangle of ``rows`` x ``cols`` holes, one peg anywhere, starting with the first hole
    (row by row from a1) whose vacancy position classes allow to finish with one peg.

    :param name: the variant's name; None: ``squareN`` when the sides are equal, else ``rectRxC``.

    :raises BoardTooLargeError: more holes than any board pegsolver supports.
    :raises UnknownVariantError: a side below 1.
    """
    if rows < 1 or cols < 1:
        raise UnknownVariantError(f"unsupported variant: rectangle {rows}x{cols} (sides must be at least 1)")
    _check_size(f"rectangle {rows}x{cols}", rows * cols)
    name = name or (f"square{rows}" if rows == cols else f"rect{rows}x{cols}")
    coords = _grid(rows, cols, lambda r, c: True)
    shape = _shape(ORTHOGONAL, coords, name)
    vacancy = next((h for h in range(shape.size) if class_finishes(shape, shape.full_mask & ~(1 << h))), 0)
    where = hole_name(shape, vacancy)
    return Variant(name, ORTHOGONAL, coords, (where,), None,
                   f"{rows} x {cols} rectangle ({rows * cols} holes); {where} vacant (the first hole whose "
                   "class allows a one-peg finish), one peg anywhere")


def find_variant(name: str) -> Variant:
    """Variant by name or alias; families: ``triangleN``, ``squareN``, ``rectRxC``; a
    ``-diagonal`` suffix adds diagonal jumps to a square-grid board.

    :raises UnknownVariantError: no variant has this name.
    :raises BoardTooLargeError: a family member with more than ``MAX_SHAPE_HOLES`` holes.
    """
    if not isinstance(name, str):
        raise UnknownVariantError(f"a variant name must be a string, not {type(name).__name__}")
    key = name.strip().lower()
    if key.endswith("-diagonal"):
        base_key = key[: -len("-diagonal")]
        if base_key.endswith("-diagonal"):
            raise UnknownVariantError(f"unsupported variant: {name!r} (the suffix -diagonal is given once)")
        base = _find(base_key, name)   # errors name the board as typed, suffix and all
        if base.rules != ORTHOGONAL:
            raise UnknownVariantError(f"unsupported variant: {name!r} (diagonal jumps need a square grid)")
        return replace(base, name=base.name + "-diagonal", rules=DIAGONAL, aliases=(),
                       description=base.description + "; diagonal jumps allowed")
    return _find(key, name)


def _find(key: str, name: str) -> Variant:
    # the variant whose name is key (lower case, no -diagonal); errors quote name, as typed
    for v in VARIANTS:
        if key == v.name or key in v.aliases:
            return v
    m = _FAMILY.fullmatch(key)
    if m:
        kind, a, b = m.group("kind"), m.group("a"), m.group("b")
        if len(a) > 9 or b and len(b) > 9:   # int() refuses past 4,300 digits; any past 9 is too large
            raise BoardTooLargeError(f"{name[:40]!r}{'...' if len(name) > 40 else ''} has a side of over 9 digits; "
                                     f"the largest board supported has {MAX_SHAPE_HOLES} holes")
        try:   # an error names the board as typed (a trial's square0 was "rectangle 0x0")
            if kind in ("triangle", "tri") and not b:
                return triangle(int(a) if a else 5)
            if kind == "square" and a and not b:
                return rectangle(int(a), int(a))
            if kind.startswith("rect") and a and b:
                # named as typed: rect3x3 is square3's board, but messages name what the user gave
                return rectangle(int(a), int(b), name=f"rect{int(a)}x{int(b)}")
        except (UnknownVariantError, BoardTooLargeError) as e:
            raise type(e)(f"{name!r}: {e}") from None
    known = ", ".join([v.name for v in VARIANTS] + ["triangleN", "squareN", "rectRxC", "NAME-diagonal"])
    if "/" in name or "\\" in name or "." in name:   # a path given where a variant's name goes
        known += "; a board file is read by pegsolver.boardfile.load(path) or Board.from_text"
    raise UnknownVariantError(f"unsupported variant: {name!r} (known: {known})")


def catalogue() -> list[Variant]:
    """The named variants and one example of each family, for listings."""
    return list(VARIANTS) + [triangle(5), rectangle(6, 6), rectangle(4, 7), find_variant("english-diagonal")]
