"""Position classes: an invariant that no jump changes.

Square grids, orthogonal jumps: de Bruijn's invariant over GF(4) (N. G. de Bruijn, "A
solitaire game and its relation to a finite field", J. Recreational Math. 5, 1972; the
"rule of three" in J. D. Beasley, The Ins and Outs of Peg Solitaire, 1985). With p a
root of p² = p + 1 in GF(4), a position's class is the pair of sums over its pegs of
p^(row+col) and p^(row-col). Three holes in a row contribute p^k(1 + p + p²) = 0 to
either sum, and a jump flips exactly such three holes, so both sums stay fixed: 16
classes. On the triangular grid (skew coordinates) p^(row+col) alone is such a sum along
all three line directions, giving the four classes of G. I. Bell ("Solving Triangular
Peg Solitaire", J. Integer Sequences 11, 2008). Diagonal jumps break both invariants, so
boards with diagonal rules get no class test.

A start and a finish in different classes can never be joined.
"""
from __future__ import annotations

from functools import lru_cache

from ..model.geometry import ORTHOGONAL, TRIANGULAR, Hole, Shape

# GF(4) = {0, 1, p, p²} coded 0, 1, 2, 3; addition is XOR.
_POWERS = (1, 2, 3)  # p^0, p^1, p^2; p^3 = 1

Class = tuple[int, ...]


def has_classes(shape: Shape) -> bool:
    """True when the board's rules keep the class invariant (not with diagonal jumps)."""
    return shape.rules in (ORTHOGONAL, TRIANGULAR)


def hole_class(shape: Shape, hole: Hole) -> Class:
    """The class contribution of one peg on ``hole``."""
    r, c = shape.coords[hole]
    if shape.rules == TRIANGULAR:
        return (_POWERS[(r + c) % 3],)
    return (_POWERS[(r + c) % 3], _POWERS[(r - c) % 3])


@lru_cache(maxsize=4096)
def position_class(shape: Shape, pegs_mask: int) -> Class:
    """Class of a position (XOR of its pegs' contributions).

    :raises ValueError: the board's rules have no class invariant (diagonal jumps).
    """
    if not has_classes(shape):
        raise ValueError(f"board {shape.name!r} with {shape.rules} jumps has no position classes")
    total = [0, 0] if shape.rules == ORTHOGONAL else [0]
    for h in range(shape.size):
        if pegs_mask >> h & 1:
            for i, v in enumerate(hole_class(shape, h)):
                total[i] ^= v
    return tuple(total)


def classes_differ(shape: Shape, a: int, b: int) -> bool:
    """True when positions ``a`` and ``b`` (bitboards) lie in different position classes, so
    no jump sequence leads from one to the other; False where the rules keep no class."""
    return has_classes(shape) and position_class(shape, a) != position_class(shape, b)


def fixed_by_count(shape: Shape, start: int, finish: Hole | None) -> list[int]:
    """The positions (bitboards) whose symmetries a whole-board count keys by: the start,
    and the one-peg ``finish`` unless position classes put it out of the start's reach
    (no position reaches it, so it fixes no symmetry)."""
    if finish is None or classes_differ(shape, start, 1 << finish):
        return [start]
    return [start, 1 << finish]


def class_finishes(shape: Shape, pegs_mask: int) -> list[Hole]:
    """Holes where a single final peg is allowed by class (all holes without classes)."""
    if not has_classes(shape):
        return list(range(shape.size))
    target = position_class(shape, pegs_mask)
    return [h for h in range(shape.size) if position_class(shape, 1 << h) == target]


def class_allows_pegs(shape: Shape, pegs_mask: int, k: int) -> bool:
    """Whether some set of ``k`` holes lies in the class of ``pegs_mask`` (always True
    without classes): k pegs anywhere is impossible otherwise."""
    if not has_classes(shape):
        return True
    # reach[j]: the classes of the sets of j holes among those seen so far
    reach: list[set[Class]] = [{position_class(shape, 0)}] + [set() for _ in range(k)]
    for h in range(shape.size):
        c = hole_class(shape, h)
        for j in range(min(k, h + 1), 0, -1):
            reach[j] |= {tuple(a ^ b for a, b in zip(prev, c)) for prev in reach[j - 1]}
    return position_class(shape, pegs_mask) in reach[k]
