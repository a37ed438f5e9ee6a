"""Board shapes: holes, their coordinates, the legal jumps and the symmetries.

Holes are indexed densely in row-major order of their coordinates, so bit ``i`` of a
bitboard is hole ``i`` and the seed article's row-by-row scan is ascending index order.

Coordinates are 0-based ``(row, col)`` with the top row 0. Square grids use plain
grid coordinates; the triangular grid uses skew coordinates, in which the six
neighbours of ``(r, c)`` are ``(r, c±1)``, ``(r±1, c)`` and ``(r+1, c+1)``, ``(r-1, c-1)``
(G. I. Bell, "Solving Triangular Peg Solitaire", J. Integer Sequences 11, 2008), and a
triangle of side n is ``0 <= c <= r < n``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import BoardTextError, BoardTooLargeError
from .numbers import as_whole

Hole = int
Coord = tuple[int, int]
Matrix = tuple[tuple[int, int], tuple[int, int]]  # a 2x2 integer matrix, row by row

SQUARE = "square"
TRIANGLE = "triangle"
GRIDS = (SQUARE, TRIANGLE)

# The largest board any part of pegsolver accepts; the compiled core may take fewer.
MAX_SHAPE_HOLES = 128

# Jump rules and their directions. Orthogonal keeps the seed article's try order
# (west, north, east, south); diagonal adds NW, NE, SE, SW (G. I. Bell, "Diagonal peg
# solitaire", INTEGERS 7, 2007); triangular sweeps the six neighbours from the west.
ORTHOGONAL = "orthogonal"
DIAGONAL = "diagonal"
TRIANGULAR = "triangular"
RULES = (ORTHOGONAL, DIAGONAL, TRIANGULAR)
GRID_OF_RULES = {ORTHOGONAL: SQUARE, DIAGONAL: SQUARE, TRIANGULAR: TRIANGLE}
DEFAULT_RULES = {SQUARE: ORTHOGONAL, TRIANGLE: TRIANGULAR}
DIRECTIONS: dict[str, tuple[Coord, ...]] = {
    ORTHOGONAL: ((0, -1), (-1, 0), (0, 1), (1, 0)),
    DIAGONAL: ((0, -1), (-1, 0), (0, 1), (1, 0), (-1, -1), (-1, 1), (1, 1), (1, -1)),
    TRIANGULAR: ((0, -1), (-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0)),
}

# Point groups of the lattices as integer linear maps on (row, col).
_SQUARE_MAPS: tuple[Matrix, ...] = (
    ((1, 0), (0, 1)), ((0, 1), (-1, 0)), ((-1, 0), (0, -1)), ((0, -1), (1, 0)),
    ((1, 0), (0, -1)), ((-1, 0), (0, 1)), ((0, 1), (1, 0)), ((0, -1), (-1, 0)),
)


def check_rules(rules: object) -> None:
    """:raises BoardTextError: ``rules`` that are not None nor one of RULES ('' and [None]
    slipped by as the default rules, or raised TypeError)."""
    if rules is not None and (not isinstance(rules, str) or rules not in RULES):
        raise BoardTextError(f"unknown rules {rules!r}; expected one of {', '.join(RULES)}")


def grid_for(grid: str | None, rules: str | None) -> str:
    """The grid named, or the one the rules need (square when neither is given).

    :raises BoardTextError: unknown rules, or rules that do not fit the grid named.
    """
    check_rules(rules)
    if grid is None:
        return GRID_OF_RULES[rules] if rules else SQUARE
    if rules is not None and grid in GRIDS:  # said before a drawing is read on the wrong grid
        check_fit(grid, rules)
    return grid


def check_fit(grid: str, rules: str) -> None:
    """:raises BoardTextError: ``rules`` whose jumps do not run on ``grid``."""
    if GRID_OF_RULES.get(rules) != grid:
        fits = [r for r in RULES if GRID_OF_RULES[r] == grid]
        raise BoardTextError(f"rules {rules!r} do not fit a {grid} grid; expected {' or '.join(fits)}")


def _triangle_maps() -> tuple[Matrix, ...]:
    rot: Matrix = ((0, 1), (-1, 1))   # (r, c) -> (c, c - r): a turn of 60 degrees
    swap: Matrix = ((0, 1), (1, 0))   # (r, c) -> (c, r): a reflection
    maps: list[Matrix] = []
    m: Matrix = ((1, 0), (0, 1))
    for _ in range(6):
        maps.append(m)
        maps.append(_compose(m, swap))
        m = _compose(rot, m)
    return tuple(maps)


def _compose(a: Matrix, b: Matrix) -> Matrix:
    """Matrix product a·b of 2x2 integer matrices."""
    (a00, a01), (a10, a11) = a
    (b00, b01), (b10, b11) = b
    return ((a00 * b00 + a01 * b10, a00 * b01 + a01 * b11), (a10 * b00 + a11 * b10, a10 * b01 + a11 * b11))


_POINT_GROUPS = {SQUARE: _SQUARE_MAPS, TRIANGLE: _triangle_maps()}


class Jump(NamedTuple):
    """One jump: the peg on ``from_hole`` jumps ``over`` into the empty ``to_hole``."""

    from_hole: Hole
    over: Hole
    to_hole: Hole


MAX_SPAN = 1024   # rows or columns a board's holes may span


def _pairs(coords: object, name: str) -> tuple[Coord, ...]:
    """``coords`` as (row, column) pairs of Python ints (numpy integers too).

    :raises BoardTextError: anything else, naming the first bad item."""
    try:
        items = list(coords)  # type: ignore[call-overload]
    except TypeError:
        raise BoardTextError(f"board {name!r}: holes are (row, column) pairs, not {coords!r}") from None
    out: list[Coord] = []
    for rc in items:
        try:
            r, c = rc
        except (TypeError, ValueError):
            raise BoardTextError(f"board {name!r}: a hole is a (row, column) pair, not {rc!r}") from None
        rr, cc = as_whole(r), as_whole(c)
        if rr is None or cc is None:
            raise BoardTextError(f"board {name!r}: a hole's row and column are whole numbers, not {rc!r}")
        out.append((rr, cc))
    return tuple(out)


@dataclass(frozen=True, eq=False, init=False)
class Shape:
    """The holes of a board and the rules that join them.

    :param grid: ``"square"`` or ``"triangle"``.
    :param coords: one ``(row, col)`` per hole; sorted row-major on construction.
    :param name: a label for messages and output.
    :param rules: ``"orthogonal"`` (4 directions) or ``"diagonal"`` (8) on a square
        grid, ``"triangular"`` (6) on a triangle grid; None: the grid's usual rules
        (the ``rules`` attribute always names the rules in force).
    :raises BoardTextError: no holes, a hole given twice, a hole that is not a (row, column)
        pair of whole numbers, holes spanning over MAX_SPAN rows or columns, a name that is
        not a string, an unknown grid or rules that do not fit the grid.
    :raises BoardTooLargeError: more than ``MAX_SHAPE_HOLES`` holes.
    """

    grid: str
    coords: tuple[Coord, ...]
    name: str
    rules: str
    index: dict[Coord, Hole] = field(init=False, repr=False)
    jumps: tuple[Jump, ...] = field(init=False, repr=False)
    jump_set: frozenset[Jump] = field(init=False, repr=False)  # the same jumps, for membership tests
    slots: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    symmetries: tuple[tuple[Hole, ...], ...] = field(init=False, repr=False)
    _hash: int = field(init=False, repr=False)

    # Written out rather than generated so that ``rules`` may be given as None but is
    # always a str once the shape is built.
    def __init__(self, grid: str, coords: tuple[Coord, ...], name: str = "custom", rules: str | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "grid", grid)
        set_(self, "coords", coords)
        set_(self, "name", name)
        if grid not in GRIDS:
            raise BoardTextError(f"unknown grid {grid!r}; expected one of {', '.join(GRIDS)}")
        check_rules(rules)
        rules = rules or DEFAULT_RULES[grid]
        check_fit(grid, rules)
        set_(self, "rules", rules)
        if not isinstance(name, str):
            raise BoardTextError(f"a board's name is a string, not {name!r}")
        coords = _pairs(coords, name)
        if not coords:
            raise BoardTextError(f"board {name!r} has no holes")
        if len(coords) > MAX_SHAPE_HOLES:
            raise BoardTooLargeError(f"board {name!r} has {len(coords)} holes; "
                                     f"the largest board supported has {MAX_SHAPE_HOLES}")
        rows = [r for r, _ in coords]
        cols = [c for _, c in coords]
        r0, c0 = min(rows), min(cols)
        if max(rows) - r0 >= MAX_SPAN or max(cols) - c0 >= MAX_SPAN:   # drawn as text, it took seconds
            raise BoardTextError(f"board {name!r} spans over {MAX_SPAN:,} rows or columns")
        coords = tuple(sorted((r - r0, c - c0) for r, c in coords))
        if len(set(coords)) != len(coords):
            raise BoardTextError(f"board {name!r} lists a hole twice")
        set_(self, "coords", coords)
        set_(self, "index", {rc: i for i, rc in enumerate(coords)})
        jumps, slots = self._find_jumps()
        set_(self, "jumps", jumps)
        set_(self, "jump_set", frozenset(jumps))
        set_(self, "slots", slots)
        set_(self, "symmetries", self._find_symmetries())
        # equal by what defines it, so that a copy (pickled to another process) is the same
        # shape; the hash is kept, as caches look shapes up at every call
        set_(self, "_hash", hash(self._key))

    @property
    def _key(self) -> tuple[str, tuple[Coord, ...], str, str]:
        return self.grid, self.coords, self.name, self.rules

    def __eq__(self, other: object) -> bool:
        return self is other or isinstance(other, Shape) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        del state["_hash"]   # a str's hash differs from process to process: made again on loading
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        object.__setattr__(self, "_hash", hash(self._key))

    @property
    def size(self) -> int:
        """Number of holes."""
        return len(self.coords)

    @property
    def full_mask(self) -> int:
        """Bitboard with every hole set."""
        return (1 << self.size) - 1

    @property
    def directions(self) -> tuple[Coord, ...]:
        return DIRECTIONS[self.rules]

    def _find_jumps(self) -> tuple[tuple[Jump, ...], tuple[tuple[int, ...], ...]]:
        jumps: list[Jump] = []
        slots: list[tuple[int, ...]] = []
        for h, (r, c) in enumerate(self.coords):
            row: list[int] = []
            for dr, dc in self.directions:
                over = self.index.get((r + dr, c + dc))
                to = self.index.get((r + 2 * dr, c + 2 * dc))
                if over is None or to is None:
                    row.append(-1)
                else:
                    row.append(len(jumps))
                    jumps.append(Jump(h, over, to))
            slots.append(tuple(row))
        return tuple(jumps), tuple(slots)

    def _find_symmetries(self) -> tuple[tuple[Hole, ...], ...]:
        """Permutations of holes that map the hole set and the jump set onto themselves.

        Derived from the shape: each lattice point-group map is applied and the image
        translated so its row-major first hole lands on ours; the identity comes first.
        """
        found: list[tuple[Hole, ...]] = []
        first = self.coords[0]
        jump_set = set(self.jumps)
        for (a, b), (c, d) in _POINT_GROUPS[self.grid]:
            image = [(a * r + b * col, c * r + d * col) for r, col in self.coords]
            lo = min(image)
            shifted = [(r - lo[0] + first[0], col - lo[1] + first[1]) for r, col in image]
            perm = tuple(self.index.get(rc, -1) for rc in shifted)
            if -1 in perm:
                continue
            if all(Jump(perm[j.from_hole], perm[j.over], perm[j.to_hole]) in jump_set for j in self.jumps):
                if perm not in found:
                    found.append(perm)
        identity = tuple(range(self.size))
        found.sort(key=lambda p: p != identity)
        return tuple(found)

    def hole_classes(self) -> list[Hole]:
        """The lowest hole of each class of holes under the board's symmetries, in hole
        order: one single-vacancy start of each class."""
        return sorted({min(p[h] for p in self.symmetries) for h in range(self.size)})

    def map_mask(self, perm: tuple[Hole, ...], mask: int) -> int:
        """Image of a bitboard under a hole permutation."""
        out = 0
        for h in range(self.size):
            if mask >> h & 1:
                out |= 1 << perm[h]
        return out

    def __repr__(self) -> str:
        return f"<Shape {self.name!r}: {self.rules} rules, {self.size} holes, {len(self.jumps)} jumps>"
